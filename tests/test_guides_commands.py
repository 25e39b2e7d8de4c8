"""The guides' shell commands run: every command of a ```bash, ```sh or ```console block of
a guide exits 0, at small sizes, so a guide cannot drift from the code.

The guides are the pages of mkdocs.yml's "Tutorials" and "How-to guides" sections (their
Markdown pages; the notebooks are executed by tests/test_notebooks.py). The results pages
and the README are out of scope (CI runs the README's Quick start).

A block is read as a shell session: ``$ `` prompts are dropped, a ``console`` block's
lines without a prompt are output, ``#`` starts a comment, a line ending in ``\\`` or
inside an open quote goes on to the next. The commands of one block run in order in one
temporary folder outside the checkout (a file written by the first is there for the
next), with ``connectx``, ``python``, ``python3`` and ``.venv/bin/...`` running this
checkout's code. Blocks run two at a time.

``SHRINK`` maps a command pattern to the substitutions that make it small (games, time,
network sizes); ``BEFORE`` the commands that make a file another guide's command reads;
``NOT_RUN`` lists, each with its reason, the commands that cannot run in a test. Any
other command must exit 0: a new command that fails is either fixed, shrunk or listed.
An entry of these tables that no longer matches a guide's command fails too."""
import os
import re
import shlex
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from tests.conftest import ROOT

SHELLS = {"bash", "sh", "console", "shell"}
GUIDE_SECTIONS = ("Tutorials", "How-to guides")
TIMEOUT = 300  # seconds a command may take: a command left at full size fails
# commands that install or change the machine: never run, they must be in NOT_RUN
UNSAFE = re.compile(r"^sudo |\bpip install\b|\bapt(-get)? install\b|-m venv\b")

# command (as the guide writes it, prompt and comment dropped) -> why it is not run
NOT_RUN = {
    'python3 -m venv .venv && .venv/bin/pip install --no-compile -e ".[dev]"':
        "installs the package and its extras from the network (tests/test_install.py "
        "builds and installs the wheels offline)",
    ".venv/bin/python -m pytest -q -n auto": "the whole test suite",
    ".venv/bin/python -m pytest -q tests/test_serve_browser.py":
        "a test of the suite, run by CI with -m e2e",
    "sudo apt-get install chromium": "installs a system package",
    "python -m scripts.commands.serve": "a web server left running (tests/test_serve*.py "
                                         "serve the same app)",
    "connectx serve": "a web server left running (tests/test_serve*.py serve the same app)",
    "connectx lessons all": "every lesson at full size, minutes; `connectx lessons all "
                            "--quick` of the same block runs them small",
}

# regex of a command -> [(regex, replacement)], applied in turn: each must change the command
SHRINK = [
    (r"^(\.venv/bin/)?connectx (match|tournament) .*--games", [(r"--games \d+", "--games 2")]),
    (r"^connectx (match|tournament) .*--workers", [(r"--workers \d+", "--workers 1")]),
    (r"^connectx match alphabeta:depth=6 negamax ", [(r"$", " --games 2")]),
    (r"^connectx match my_submission\.py random .*--replay-game 3", [(r"$", " --games 4")]),
    (r"^connectx validate main\.py$", [(r"$", " --games random --cpu-overage")]),
    (r"^connectx lessons mini-isolation$", [(r"$", " --quick")]),
    (r"^connectx lessons tree \d+ (?!.*--no-exact)", [(r"$", " --exact-time 0.5")]),
    (r"^python -m scripts\.learn\.cleanrl_ppo ",
     [(r"--total-steps \d+", "--total-steps 256 --num-envs 4 --num-steps 16 "
                             "--minibatch-size 32 --update-epochs 1 --eval-games 4")]),
]

# regex of a command -> commands run before it in its folder (a file another page makes)
BEFORE = [
    (r"\bmy_submission\.py\b",
     ["connectx build --agent minimax --option depth=2 --out my_submission.py"]),
]


@dataclass(frozen=True)
class Command:
    page: str
    line: int
    text: str


def guide_pages():
    """The Markdown pages of mkdocs.yml's Tutorials and How-to guides sections."""
    import yaml

    with open(os.path.join(ROOT, "mkdocs.yml"), encoding="utf-8") as f:
        nav = yaml.safe_load(f)["nav"]

    def leaves(entry):
        if isinstance(entry, str):
            yield entry
        elif isinstance(entry, dict):
            for value in entry.values():
                yield from leaves(value)
        else:
            for item in entry:
                yield from leaves(item)

    sections = [e for e in nav if isinstance(e, dict) and set(e) & set(GUIDE_SECTIONS)]
    assert len(sections) == len(GUIDE_SECTIONS), "mkdocs.yml's nav lost a guide section"
    return [os.path.join("docs", p) for s in sections for p in leaves(s) if p.endswith(".md")]


def is_complete(text):
    """Whether ``text`` is a whole command: no open quote, no trailing backslash."""
    if text.endswith("\\"):
        return False
    try:
        shlex.split(text, comments=True)
    except ValueError:  # No closing quotation
        return False
    return True


def strip_comment(text):
    """``text`` without its trailing ``#`` comment (a ``#`` after a space, outside quotes)."""
    quote, i = None, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == quote:
                quote = None
            elif c == "\\" and quote == '"':
                i += 1
        elif c in "'\"":
            quote = c
        elif c == "\\":
            i += 1
        elif c == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].rstrip()
        i += 1
    return text.rstrip()


def blocks(page):
    """The shell blocks of ``page``: lists of :class:`Command`, one list a block."""
    with open(os.path.join(ROOT, page), encoding="utf-8") as f:
        return read_blocks(f.read(), page)


def read_blocks(markdown, page):
    """The shell blocks of the Markdown text ``markdown`` of ``page``."""
    lines = markdown.splitlines()
    found, block, shell, fence = [], None, False, None
    pending, start = None, 0
    for number, line in enumerate(lines, 1):
        opening = re.match(r"^\s*(```+|~~~+)\s*([\w-]*)", line)
        if block is None:
            if opening:
                fence, shell = opening.group(1), opening.group(2).lower() in SHELLS
                console = opening.group(2).lower() == "console"
                block = []
            continue
        if line.strip().startswith(fence) and line.strip().strip(fence[0]) == "":
            assert pending is None, f"{page}:{start}: a command left open at the block's end"
            if shell and block:
                found.append(block)
            block = None
            continue
        if not shell:
            continue
        if pending is None:
            stripped = line.strip()
            if stripped.startswith("$ "):
                stripped = stripped[2:]
            elif console or not stripped or stripped.startswith("#"):
                continue  # output, a blank line or a comment
            pending, start = stripped, number
        else:
            pending = pending[:-1].rstrip() + " " + line.strip() if pending.endswith("\\") \
                else pending + "\n" + line
        if is_complete(pending):
            text = strip_comment(pending)
            if text:
                block.append(Command(page, start, text))
            pending = None
    return found


def all_blocks():
    return [b for page in guide_pages() for b in blocks(page)]


def shrunk(text):
    """``text`` at small sizes (SHRINK's substitutions)."""
    for pattern, substitutions in SHRINK:
        if re.search(pattern, text):
            for old, new in substitutions:
                text = re.sub(old, new, text, count=1)
    return text


def write_shims(folder):
    """``connectx``, ``python`` and ``python3`` in ``folder`` and in ``folder/.venv/bin``,
    each running this checkout's code with this interpreter. Returns the environment."""
    bins = [os.path.join(folder, "bin"), os.path.join(folder, ".venv", "bin")]
    for directory in bins:
        os.makedirs(directory)
        for name, target in (("connectx", f'"{sys.executable}" -m scripts.cli'),
                             ("python", f'"{sys.executable}"'),
                             ("python3", f'"{sys.executable}"')):
            path = os.path.join(directory, name)
            with open(path, "w") as f:
                f.write(f'#!/bin/sh\nexec {target} "$@"\n')
            os.chmod(path, 0o755)
    env = dict(os.environ, PYTHONPATH=ROOT, MPLBACKEND="Agg",
               PATH=bins[0] + os.pathsep + os.environ["PATH"])
    return env


def run_block(block):
    """Run ``block``'s commands in order in a fresh folder; a list of failures."""
    failures = []
    with tempfile.TemporaryDirectory(prefix="guide-") as folder:
        env = write_shims(folder)
        for command in block:
            if command.text in NOT_RUN:
                continue
            if UNSAFE.search(command.text):
                failures.append(f"{command.page}:{command.line}: {command.text}\n  changes "
                                f"the machine: not run, to be listed in NOT_RUN")
                continue
            texts = [b for pattern, before in BEFORE if re.search(pattern, command.text)
                     for b in before] + [shrunk(command.text)]
            for text in texts:
                try:
                    done = subprocess.run(["bash", "-c", text], cwd=folder, env=env,
                                          stdin=subprocess.DEVNULL, capture_output=True,
                                          text=True, timeout=TIMEOUT)
                except subprocess.TimeoutExpired:
                    failures.append(f"{command.page}:{command.line}: {text}\n  over {TIMEOUT} s")
                    break
                if done.returncode != 0:
                    tail = "\n".join((done.stdout + done.stderr).splitlines()[-15:])
                    failures.append(f"{command.page}:{command.line}: {text}\n  exit "
                                    f"{done.returncode}\n{tail}")
                    break
    return failures


def test_the_guides_have_shell_commands():
    commands = [c for b in all_blocks() for c in b]
    assert len(commands) > 20, commands


def test_blocks_are_read_as_a_shell_reads_them():
    markdown = """
```python
print("not a shell block")
```

```bash
connectx build --out main.py   # a comment
# a comment line
connectx match a b \\
    --games 100
python -c "import sys
print(sys.argv)  # inside the quotes"
```

```console
$ connectx lessons
mini-isolation ...
```
"""
    assert [[c.text for c in b] for b in read_blocks(markdown, "page.md")] == [
        ["connectx build --out main.py", "connectx match a b --games 100",
         'python -c "import sys\nprint(sys.argv)  # inside the quotes"'],
        ["connectx lessons"]]
    assert shrunk("connectx match a b --games 100") == "connectx match a b --games 2"


def test_every_command_that_changes_the_machine_is_listed():
    unsafe = [f"{c.page}:{c.line}: {c.text}" for b in all_blocks() for c in b
              if UNSAFE.search(c.text) and c.text not in NOT_RUN]
    assert not unsafe, unsafe


def test_every_listed_entry_matches_a_guide_command():
    texts = {c.text for b in all_blocks() for c in b}
    stale = sorted(set(NOT_RUN) - texts)
    assert not stale, f"NOT_RUN lists commands no guide has: {stale}"
    for pattern, substitutions in SHRINK:
        matching = [t for t in texts if re.search(pattern, t) and t not in NOT_RUN]
        assert matching, f"SHRINK's {pattern!r} matches no guide command"
        for text in matching:
            for old, _ in substitutions:
                assert re.search(old, text), f"SHRINK's {old!r} changes nothing in {text!r}"
    for pattern, _ in BEFORE:
        assert any(re.search(pattern, t) for t in texts), f"BEFORE's {pattern!r} is stale"


# end-to-end: the commands cost about a minute of CPU together (the quick lessons half of it,
# numba compiling in each fresh process most of the rest)
@pytest.mark.e2e
def test_every_guide_command_runs():
    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for fs in pool.map(run_block, all_blocks()) for f in fs]
    assert not failures, "\n\n".join(failures)
