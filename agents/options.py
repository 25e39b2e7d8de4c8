"""The text form of agent options, ``key=value,key=value``, as every command line and
the submission bundler read it (``alphabeta:depth=6``, ``--option time_limit=1.5``).

Values are read by :func:`parse_value`: int, float, true/false/none in any case, a
quoted Python string, else the text itself. Errors are ``ValueError`` with a one-line
message. Standard library only: the bundler and the validation opponent use it
without the command lines' argument layer (:mod:`scripts.args` re-exports it).
"""
import ast

_WORDS = {"true": True, "false": False, "none": None}


def parse_value(text):
    """An option value: ``"3"`` -> 3, ``"0.2"`` -> 0.2, ``"true"``/``"True"`` -> True,
    ``"none"`` -> None, ``"'a b'"`` -> ``"a b"`` (a quoted Python string), any other
    word -> the text itself. ``ValueError`` for other Python literals (lists, tuples,
    complex numbers): options are numbers, booleans, None or strings."""
    raw = text.strip()
    if raw.lower() in _WORDS:
        return _WORDS[raw.lower()]
    for convert in (int, float):
        try:
            return convert(raw)
        except ValueError:
            pass
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return raw
    if isinstance(value, str):
        return value
    raise ValueError(f"only numbers, booleans, None and strings, got {raw!r}")


def parse_option(text, what="option"):
    """``"key=value"`` -> ``(key, value)`` with :func:`parse_value`; the key must be
    a Python identifier. ``what`` names the source in errors."""
    key, sep, raw = text.partition("=")
    key = key.strip()
    if not sep or not key.isidentifier() or not raw.strip():
        raise ValueError(f"malformed option {text.strip()!r} in {what}: expected key=value")
    try:
        return key, parse_value(raw)
    except ValueError as e:
        raise ValueError(f"option {key!r} in {what}: {e}") from None


def parse_options(text, what):
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}``; ``what`` names the source in errors."""
    options = {}
    for item in text.split(","):
        key, value = parse_option(item, what)
        if key in options:
            raise ValueError(f"option {key!r} given twice in {what}")
        options[key] = value
    return options


def split_spec(text):
    """``"name:key=value,..."`` -> ``(name, options)``; the options as :func:`parse_options`
    reads them (the name is not checked here)."""
    name, sep, rest = text.partition(":")
    return name.strip(), (parse_options(rest, f"agent {text!r}") if sep else {})
