"""The ``connectx`` command: one entry point, a subcommand per task.

    connectx match perfect negamax --games 4
    connectx bench solver --files end

Each subcommand is the ``main(argv, prog=...)`` of a module (:data:`COMMANDS`: name
-> (module, one-line summary), or a nested table for a group such as ``bench``); the
module still runs on its own (``python -m scripts.commands.match ...``). Adding a command is
one line in a table. Unknown commands exit 2 with one line, like bad arguments.

A reader that stops early (``connectx blunders games.json | head``) ends the command
quietly with exit status 141 (:data:`BROKEN_PIPE`), no traceback.
"""
import importlib
import inspect
import os
import sys

from scripts.args import report

# `connectx NAME` runs scripts/commands/NAME.py: name -> one-line summary
SUBCOMMANDS = {
    "match": "head-to-head match, colours alternating, with Elo interval",
    "tournament": "round robin with a cross table and ratings",
    "play": "play against an agent in the terminal",
    "solve": "exact solver: scores of move strings read on stdin",
    "table": "the table of outcomes: every board's empty position solved, checked twice",
    "blunders": "judge game records move by move (match, kaggle, Game Arena, TextArena, moves)",
    "score": "judge an agent against perfect play on a labelled set",
    "build": "write the one-file Kaggle submission (main.py)",
    "validate": "play a submission file the way Kaggle does",
    "dataset": "a labelled set: positions from play, every column's exact score",
    "learn": "train a policy/value network (numpy .npz), its curve and record",
    "fuzz": "random configurations and positions: no failure allowed",
    "lessons": "the seed material's experiments beside its figures",
    "serve": "play and analyse in the browser (a local web server)",
}

# `connectx bench NAME` runs scripts/bench/NAME.py: name -> one-line summary
BENCHMARKS = {
    "search": "minimax against the tutorial; nodes per second",
    "solver": "the solver on the labelled positions or given lines, against C solvers",
    "mcts": "MCTS iterations per second and playouts",
    "match": "match throughput with workers",
    "load": "move times while CPU hogs run",
    "value": "agents on labelled positions: how often the value is kept",
    "perfect": "the perfect agent on labelled positions: value kept",
    "warmup": "an opponent's moves beside the file's background compile",
    "levels": "perfect:skill=S and elo=E calibrated against anchors (ratings, scores)",
    "analysis": "every column of 0-12 stone positions, with and without the database",
    "env": "RL environments' agent steps/s: kaggle, PettingZoo, OpenSpiel, agents.envs",
    "judge": "the judge of game records: games/s, a 42-move game's time, levels' accuracy",
    "serve": "the page's server under 1-128 loopback clients, against http.server's defaults",
    "zero": "a --mode zero run's kept networks: search good moves, policy vs negamax and levels",
}


def _modules(package, summaries):
    """``{name: (package.name, summary)}``: a table of summaries as a dispatch table."""
    return {name: (f"{package}.{name}", summary) for name, summary in summaries.items()}


# The dispatch table: name -> (module, summary), or a nested table for a group.
COMMANDS = {
    **_modules("scripts.commands", SUBCOMMANDS),
    "bench": _modules("scripts.bench", BENCHMARKS),
    "database": {
        "build": ("scripts.commands.database", "an opening database: every position of N stones solved"),
    },
    # the former name of `database`, kept for one release
    "book": {
        "build": ("scripts.commands.database", "the former name of 'database build' (kept for one release)"),
    },
}


def leaves(table=COMMANDS, prefix="connectx"):
    """``(prog, module, summary)`` of every runnable command of ``table``, groups walked
    (``("connectx bench search", "scripts.bench.search", "minimax against ...")``)."""
    out = []
    for name, entry in table.items():
        if isinstance(entry, dict):
            out.extend(leaves(entry, f"{prefix} {name}"))
        else:
            out.append((f"{prefix} {name}", *entry))
    return out


def usage(prog, table):
    """The help text of a command table."""
    width = max(len(name) for name in table)
    lines = [f"usage: {prog} COMMAND [ARGS ...]", "", "commands:"]
    for name, entry in table.items():
        summary = entry[1] if isinstance(entry, tuple) else \
            ("benchmarks: " if name == "bench" else "subcommands: ") + ", ".join(entry)
        lines.append(f"  {name.ljust(width)}  {summary}")
    lines += ["", f"'{prog} COMMAND --help' documents the arguments of a command."]
    return "\n".join(lines)


def dispatch(argv, prog="connectx", table=COMMANDS):
    """Run the subcommand named by ``argv[0]`` with the rest of ``argv``; its exit status."""
    if argv and argv[0] in ("-h", "--help"):
        print(usage(prog, table))
        return 0
    if not argv:
        return report(f"{prog}: error: a command is required (choose from {', '.join(table)}); "
                      f"'{prog} --help' describes them")
    name, rest = argv[0], argv[1:]
    if name not in table:
        return report(f"{prog}: error: unknown command {name!r} "
                      f"(choose from {', '.join(table)})")
    entry = table[name]
    if isinstance(entry, dict):
        return dispatch(rest, f"{prog} {name}", entry)
    main = importlib.import_module(entry[0]).main
    if "prog" in inspect.signature(main).parameters:
        return main(rest, prog=f"{prog} {name}")
    return main(rest)


# the exit status when stdout's reader went away: the shell's status of a process killed
# by SIGPIPE (128 + 13), what `yes | head` reports, so `set -o pipefail` and callers
# that test for it see the command as they see any other one cut short by its reader;
# 1 would read as the command's own failure
BROKEN_PIPE = 141


def main(argv=None):
    """Console entry point (``connectx``)."""
    from scripts.args import skip_iri_grammar
    skip_iri_grammar()  # kaggle-environments' import: 3 s of CPU less
    try:
        try:
            return dispatch(sys.argv[1:] if argv is None else list(argv))
        finally:
            sys.stdout.flush()  # buffered output meets a closed pipe here, not at exit
    except BrokenPipeError:
        # Python's recipe (the signal module's "Note on SIGPIPE"): stdout to devnull, so
        # the interpreter's own flush at exit does not report the closed pipe again
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE


if __name__ == "__main__":
    sys.exit(main())
