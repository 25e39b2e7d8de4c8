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
values' parser, shared with the bundler), two small modules of :mod:`scripts.arena`
(extras, bars) and ``tqdm`` when a bar is made, so any command can use it without
pulling in the agents' kernels or kaggle-environments.
"""
import argparse
import sys

# re-exported, so a command finds its whole argument layer here: the option values' one
# parser, the optional-dependency check and the progress bars
from agents.options import parse_option, parse_options, parse_value  # noqa: F401
from scripts.arena.extras import require, skip_iri_grammar  # noqa: F401
from scripts.arena.bars import ProgressCallback, progress, progress_bar  # noqa: F401

SPEC_HELP = ("agent spec: NAME[:key=value,...] of the package (e.g. alphabeta:depth=6), "
             "a kaggle built-in (negamax, kaggle.random), a submission .py file or a text "
             "player text:ask=MODULE.FUNCTION[,format=gamearena|textarena|spinbench]")
CONFIG_HELP = ("board and clock, key=value pairs: rows=R,columns=C,inarow=K"
               "[,actTimeout=S,remainingOverageTime=S] (default: kaggle's 6, 7, 4, 2 s, 60 s)")
BOARD_KEYS = ("rows", "columns", "inarow")
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
    return _int_at_least(text, 1)


def positive_float_arg(text):
    """argparse type: a finite number > 0."""
    return _float_where(text, lambda v: 0 < v < float("inf"), "a number > 0")


def share_arg(text):
    """argparse type: a number from 0 to 1 (a share, a weight of a mix)."""
    return _float_where(text, lambda v: 0 <= v <= 1, "a number from 0 to 1")


def _float_where(text, ok, expected):
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
    return value


def count_arg(text):
    """argparse type: an integer >= 0."""
    return _int_at_least(text, 0)


def _int_at_least(text, least):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or value < least:
        raise argparse.ArgumentTypeError(f"expected an integer >= {least}, got {text!r}")
    return value


def add_config_argument(parser, board_only=False):
    """The ``--config rows=R,columns=C,inarow=K`` option every game command takes
    (parse its text with ``scripts.arena.specs.parse_match_config``)."""
    parser.add_argument("--config", metavar="KEY=VALUE,...", default=None,
                        help=BOARD_HELP if board_only else CONFIG_HELP)


def add_positions_arguments(parser, default, what):
    """A benchmark over seeded random positions: ``--positions N`` (``what``, ``default``
    of them), ``--seed`` and ``--quiet``."""
    parser.add_argument("--positions", type=positive_int_arg, default=default,
                        help=f"{what} (default {default})")
    add_seed_argument(parser, "the positions")
    add_quiet_argument(parser)


def add_seed_argument(parser, of):
    """``--seed`` (an integer, default 0), the seed of ``of`` ("the positions", ...)."""
    parser.add_argument("--seed", type=int, default=0, help=f"seed of {of} (default 0)")


def add_quiet_argument(parser):
    """``--quiet`` (or its other name ``--no-progress``): no progress bars; ``args.quiet``."""
    parser.add_argument("--quiet", "--no-progress", dest="quiet", action="store_true",
                        help="no progress bars")


def add_report_arguments(parser):
    """``--json`` (print the result as JSON, ``args.json``) and ``--quiet``
    (:func:`add_quiet_argument`): the output flags of the commands that judge moves
    (``score``, ``blunders``)."""
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    add_quiet_argument(parser)


def add_seconds_argument(parser, default, what):
    """``--seconds S`` (a number > 0, ``default``): ``what`` ("solver time a position ...")."""
    parser.add_argument("--seconds", type=positive_float_arg, default=default,
                        help=f"{what} (default {default:g})")


def board_fields(parser, text):
    """The fields a board-only ``--config`` text sets (``{}`` for None): ``{"rows": R, ...}``
    of :data:`BOARD_KEYS`, integers; anything else is ``parser.error``."""
    try:
        values = parse_options(text, "--config") if text else {}
    except ValueError as e:
        parser.error(str(e))
    for key, value in values.items():
        if key not in BOARD_KEYS:
            parser.error(f"unknown config field {key!r}; valid: {', '.join(BOARD_KEYS)}")
        if type(value) is not int:
            parser.error(f"config.{key} must be an integer, got {value!r}")
    return values


def board_shape(parser, text):
    """``(rows, columns, inarow)`` of a board-only ``--config`` text (kaggle's 6, 7, 4 for
    the fields it leaves out); anything else is ``parser.error``."""
    shape = {"rows": 6, "columns": 7, "inarow": 4, **board_fields(parser, text)}
    return shape["rows"], shape["columns"], shape["inarow"]


def add_games_arguments(parser):
    """``--config``, ``--workers`` and ``--dask``: where and how many-game commands
    (match, tournament) play."""
    add_config_argument(parser)
    add_pool_arguments(parser, "playing games", "play", exclusive=False)


def add_workers_argument(parser, doing, note=""):
    """``--workers N`` (an integer >= 1, default 1): processes ``doing`` ("judging games")
    in parallel; ``note`` ends the help's parenthesis ("; the result is the same")."""
    parser.add_argument("--workers", type=positive_int_arg, default=1,
                        help=f"processes {doing} in parallel (default 1{note})")


def add_pool_arguments(parser, doing, verb, exclusive=True, note=""):
    """``--workers N`` (processes ``doing`` in parallel, default 1; ``note`` as in
    :func:`add_workers_argument`) and ``--dask ADDRESS`` (``verb`` on a Dask scheduler):
    where a command's many tasks run; with ``exclusive`` the two may not be given
    together."""
    where = parser.add_mutually_exclusive_group() if exclusive else parser
    add_workers_argument(where, doing, note)
    where.add_argument("--dask", metavar="ADDRESS", default=None,
                       help=f"{verb} on a Dask scheduler, e.g. tcp://host:8786 (the cluster extra)")


def add_board_job_arguments(parser, out_help, doing, verb):
    """A command that works on one board and writes one file from many tasks (``database
    build``, ``dataset``): the board-only ``--config``, ``--out FILE`` (required,
    ``out_help``), the pool (:func:`add_pool_arguments`) and ``--quiet``."""
    add_config_argument(parser, board_only=True)
    parser.add_argument("--out", required=True, metavar="FILE", help=out_help)
    add_pool_arguments(parser, doing, verb)
    add_quiet_argument(parser)


def add_trust_arguments(parser, sprt=True):
    """The flags of issue 16: ``--openings``, ``--sprt`` (matches only), ``--replays``."""
    g = parser.add_argument_group("opening suites, SPRT and replays")
    g.add_argument("--openings", default=None, metavar="FILE|balanced:K|none",
                   help="openings, each played twice with colours swapped: a file of move "
                        "strings (1-based columns), a shipped balanced suite or none "
                        "(default: the largest balanced suite on 7x6, none on other boards)")
    if sprt:
        g.add_argument("--sprt", default=None, metavar="ELO0,ELO1[,ALPHA,BETA]",
                       help="stop when the pentanomial GSPRT decides; exit 0 for H1, 1 for H0, "
                            "3 if --games ran out first")
    g.add_argument("--replays", metavar="DIR", default=None,
                   help="write kaggle's HTML replay of every game and an index.html")


def trust_options(args, cfg):
    """(openings list or None, Sprt or None) of the parsed flags; ValueError if bad.
    Also checks early that ``--replays`` can be written."""
    from scripts.arena import suites
    from scripts.arena.replays import check_replays
    from scripts.arena.stats import parse_sprt
    if args.openings is None:
        args.openings = suites.default_openings(cfg.rows, cfg.columns, cfg.inarow)
    openings = suites.resolve(args.openings, cfg.rows, cfg.columns, cfg.inarow)
    openings = None if openings == [""] else openings
    sprt = parse_sprt(args.sprt) if getattr(args, "sprt", None) else None
    if args.replays:
        check_replays(args.replays)
    return openings, sprt
