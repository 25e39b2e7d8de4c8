"""The command lines' shared argument layer: one parser class, one option-value
parser, the agent-spec and ``--config`` arguments, optional-dependency checks and
progress bars.

Every command (``connectx <command>``, ``python -m scripts.<name>``,
``python -m scripts.commands.build``) reports bad input the same way: one line on
stderr, ``<prog>: error: <what is wrong>``, and exit status 2 -- never a
traceback. That covers argparse's own errors, :class:`ValueError` from parsing
(raise it, then ``parser.error(str(e))``) and a missing optional dependency
(:func:`require`).

This module imports only the standard library, :mod:`agents.options` (the option
values' parser, shared with the bundler) and ``tqdm`` when a bar is made, so any
command can use it without pulling in the agents' kernels or kaggle-environments.
"""
import argparse
import importlib.util
import sys

# the option values' one parser (re-exported: the commands import it from here)
from agents.options import parse_option, parse_options, parse_value  # noqa: F401

PACKAGE = "connectx-search"

SPEC_HELP = ("agent spec: NAME[:key=value,...] of the package (e.g. alphabeta:depth=6), "
             "a kaggle built-in (negamax, kaggle.random) or a submission .py file")
CONFIG_HELP = ("board and clock, key=value pairs: rows=R,columns=C,inarow=K"
               "[,actTimeout=S,remainingOverageTime=S] (default: kaggle's 6, 7, 4, 2 s, 60 s)")
BOARD_HELP = "board, key=value pairs: rows=R,columns=C,inarow=K (default 6, 7, 4)"


class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors and exit status 2."""

    def error(self, message):
        fail(f"{self.prog}: error: {message}")


def fail(message):
    """Print ``message`` on one line to stderr and exit with status 2 (bad input)."""
    report(message)
    raise SystemExit(2)


def report(message):
    """Print ``message`` on one line to stderr; return 2, the bad-input exit status
    (for a ``main`` that returns its status instead of exiting)."""
    print(" ".join(str(message).split()), file=sys.stderr)
    return 2


def positive_int_arg(text):
    """argparse type: an integer >= 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {text!r}")
    return value


def add_config_argument(parser, board_only=False):
    """The ``--config rows=R,columns=C,inarow=K`` option every game command takes
    (parse its text with ``scripts.arena.runner.parse_match_config``)."""
    parser.add_argument("--config", metavar="KEY=VALUE,...", default=None,
                        help=BOARD_HELP if board_only else CONFIG_HELP)


def add_games_arguments(parser):
    """``--config``, ``--workers`` and ``--dask``: where and how many-game commands
    (match, tournament) play."""
    add_config_argument(parser)
    parser.add_argument("--workers", type=positive_int_arg, default=1,
                        help="processes playing games in parallel (default 1)")
    parser.add_argument("--dask", metavar="ADDRESS", default=None,
                        help="play on a Dask scheduler, e.g. tcp://host:8786 (the cluster extra)")


# ---------------------------------------------------------------------------
# Optional dependencies
# ---------------------------------------------------------------------------

EXTRAS = {"kaggle_environments": ("kaggle-environments", "games"),
          "matplotlib": ("matplotlib", "games"),
          "distributed": ("dask[distributed]", "cluster")}


def require(module, feature):
    """``ValueError`` naming the extra to install if ``module`` (a key of
    :data:`EXTRAS`) cannot be imported; ``feature`` says what needs it."""
    if importlib.util.find_spec(module) is None:
        dist, extra = EXTRAS[module]
        raise ValueError(f"{feature} needs {dist}, which is not installed: "
                         f"pip install '{PACKAGE}[{extra}]'")


# ---------------------------------------------------------------------------
# Progress
# ---------------------------------------------------------------------------


def progress_bar(total, desc, unit, enabled=True):
    """A ``tqdm.auto`` bar on stderr (a widget in notebooks), or None when not
    ``enabled``. No monitor thread: worker processes may be forked while it runs."""
    if not enabled:
        return None
    from tqdm.auto import tqdm
    tqdm.monitor_interval = 0
    return tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False)


def progress(items, desc, unit, enabled=True):
    """``items`` wrapped in a ``tqdm.auto`` bar on stderr when ``enabled``."""
    if not enabled:
        return items
    from tqdm.auto import tqdm
    return tqdm(items, desc=desc, unit=unit, file=sys.stderr, leave=False)
