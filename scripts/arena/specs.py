"""Agent specs and match configurations: text in, validated values out.

An agent *spec* is one of

* a registry name with options, ``name[:key=value,key=value]`` (``minimax:depth=4``,
  ``alphabeta:time_limit=0.2``); values are read as int, float, True/False, None or
  else a string (:mod:`agents.options`);
* a kaggle-environments built-in: ``kaggle.random``, ``kaggle.negamax``, or plain
  ``negamax`` (plain ``random`` is the package's own seeded random agent);
* a path to a submission file ending in ``.py`` (its last callable is the agent, as
  kaggle-environments loads it);
* a text player, ``text:ask=MODULE.FUNCTION[,format=F][,reprompts=N]``: the callable
  ``prompt -> answer`` asked in an arena's format (:mod:`scripts.arena.textplayer`);
* in Python, an agent callable (played in the calling process only).

A configuration is a :class:`MatchConfig` (board and clock); the ``config`` and ``obs``
objects kaggle-environments hands an agent are built by :func:`config_struct` and
:func:`observation`, imported from their one home, :mod:`agents.players.base`.
Errors are ``ValueError`` with a one-line message.
"""
import os
from collections import namedtuple

import agents
from agents.board.rules import parse_config
from agents.options import parse_options
# the Kaggle objects an agent is handed are built in the agents' package (its environments
# call agents too)
from agents.players.base import (ACT_TIMEOUT, OVERAGE, Struct, config_struct,  # noqa: F401
                                 observation)
from scripts.arena.extras import require

KAGGLE_PREFIX = "kaggle."
KAGGLE_BUILTINS = ("random", "negamax")
TEXT_PLAYER = "text"  # the spec name of a text player

Spec = namedtuple("Spec", "text kind name options")  # kind: registry | kaggle | file | text | callable
MatchConfig = namedtuple("MatchConfig", "rows columns inarow actTimeout remainingOverageTime")


def parse_spec(text):
    """A validated :class:`Spec`; registry options are checked by building the agent.

    ``text`` may also be an agent callable (``agents.make(...)``, a function): its
    Spec has kind "callable", the callable as ``name`` and its ``__name__`` (or
    class name) as ``text``; such agents are played in this process only."""
    if callable(text):
        label = getattr(text, "__name__", None) or type(text).__name__
        return Spec(label, "callable", text, {})
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"empty agent spec {text!r}")
    text = text.strip()
    if text.endswith(".py"):
        load_submission(text)  # fails early, in the main process, with a clear message
        return Spec(text, "file", text, {})
    name, sep, rest = text.partition(":")
    options = parse_options(rest, f"agent {text!r}") if sep else {}
    if name == TEXT_PLAYER:
        from scripts.arena.textplayer import text_player_from_options
        try:
            text_player_from_options(options)  # fails early: imports ask, checks the format
        except ValueError as e:
            raise ValueError(f"agent {text!r}: {e}") from None
        return Spec(text, "text", name, options)
    if name in agents.AGENTS:
        try:
            agents.make(name, **options)
        except ValueError as e:
            raise ValueError(f"agent {text!r}: {e}") from None
        return Spec(text, "registry", name, options)
    builtin = name[len(KAGGLE_PREFIX):] if name.startswith(KAGGLE_PREFIX) else name
    if builtin in KAGGLE_BUILTINS and (name != builtin or builtin not in agents.AGENTS):
        if options:
            raise ValueError(f"kaggle built-in agent {name!r} takes no options")
        require("kaggle_environments", f"agent {name!r} (a kaggle built-in)")
        return Spec(text, "kaggle", builtin, {})
    valid = ", ".join(agents.names())
    kaggle = ", ".join(KAGGLE_PREFIX + b for b in KAGGLE_BUILTINS)
    raise ValueError(f"unknown agent {name!r}; valid: {valid}; kaggle built-ins: {kaggle}, "
                     "negamax; text:ask=MODULE.FUNCTION (a text player); or a path to a "
                     "submission .py file")


def in_process_only(specs, workers, dask):
    """``ValueError`` if agent callables are to be played in other processes."""
    if any(s.kind == "callable" for s in specs) and (workers > 1 or dask is not None):
        raise ValueError("agent callables are played in this process only: use workers=1 "
                         "and no dask, or pass spec strings")


def parse_match_config(text=None):
    """``"rows=R,columns=C,inarow=K"`` (also ``actTimeout``, ``remainingOverageTime``)
    -> :class:`MatchConfig`; missing fields take kaggle's defaults (6, 7, 4, 2 s, 60 s)."""
    values = parse_options(text, "--config") if text else {}
    allowed = MatchConfig._fields
    unknown = sorted(set(values) - set(allowed))
    if unknown:
        raise ValueError(f"unknown config field(s) {', '.join(unknown)}; valid: {', '.join(allowed)}")
    cfg = parse_config({k: values[k] for k in ("rows", "columns", "inarow") if k in values})
    times = {}
    for key, default in (("actTimeout", ACT_TIMEOUT), ("remainingOverageTime", OVERAGE)):
        value = values.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise ValueError(f"config.{key} must be a number >= 0, got {value!r}")
        times[key] = float(value)
    return MatchConfig(cfg.rows, cfg.columns, cfg.inarow, **times)


def load_submission(path):
    """The agent in a submission file: its last callable, as kaggle-environments'
    ``agent.get_last_callable`` takes it. ``ValueError`` if the file cannot be read,
    does not run, or defines no callable."""
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read submission file {path!r}: {e.strerror or e}") from None
    env = {"__name__": "__submission__", "__file__": os.path.abspath(path)}
    try:
        exec(compile(source, path, "exec"), env)
    except Exception as e:  # noqa: BLE001 - any failure of user code is reported, not raised
        raise ValueError(f"submission file {path!r} fails to load: "
                         f"{type(e).__name__}: {e}") from None
    found = [v for k, v in env.items() if callable(v) and k != "__builtins__"]
    if not found:
        raise ValueError(f"submission file {path!r} defines no callable agent")
    return found[-1]
