"""``connectx serve``: play and analyse in the browser (the server:
:mod:`scripts.server.app`; its endpoints: ``docs/serve.md``).

    connectx serve [--host 127.0.0.1] [--port 8017] [--searches N] [--queue N]
                   [--move-time S] [--files DIR]
"""
import argparse
import os
import sys

from scripts.args import ArgumentParser, count_arg, fail, positive_int_arg
from scripts.server.app import (DEFAULT_PORT, LINE_TIME, QUEUE, QUEUE_WAIT, SERVE_ANALYSIS_TIME,
                                SOLVER_THREADS, App, make_server, url_of)
from scripts.server.game import SERVE_MOVE_TIME


def positive_float_arg(text, least_ok=False):
    """A finite number > 0 (``least_ok``: >= 0)."""
    what = ">= 0" if least_ok else "> 0"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number {what}, got {text!r}") from None
    if not (value >= 0 if least_ok else value > 0) or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number {what}, got {text!r}")
    return value


def seconds_arg(text):
    """A finite number of seconds >= 0."""
    return positive_float_arg(text, least_ok=True)


# duplicates: an argparse type like scripts.args.positive_int_arg, with the port's range.
def port_arg(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port 0..65535, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port 0..65535, got {text!r}")
    return value


def folder_arg(text):
    """An existing folder."""
    if not os.path.isdir(text):
        raise argparse.ArgumentTypeError(f"no folder {text!r}")
    return text


def main(argv=None, prog="python -m scripts.commands.serve"):
    p = ArgumentParser(prog=prog,
                       description="Play and analyse ConnectX in the browser (a local web server).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=port_arg, default=DEFAULT_PORT,
                   help=f"port (default {DEFAULT_PORT}; 0 = any free port)")
    p.add_argument("--searches", type=positive_int_arg, default=None,
                   help="agent moves, analyses and position trees run at once (default: "
                        "the number of CPUs)")
    p.add_argument("--queue", type=count_arg, default=QUEUE,
                   help="agent moves and analyses that may wait for a search slot; one more, "
                        f"or one expected to wait over {QUEUE_WAIT:g} s, is answered 503 with "
                        f"Retry-After at once (default {QUEUE})")
    p.add_argument("--move-time", type=positive_float_arg, default=SERVE_MOVE_TIME,
                   help=f"seconds an agent may think per move (default {SERVE_MOVE_TIME:g})")
    p.add_argument("--analysis-time", type=positive_float_arg, default=SERVE_ANALYSIS_TIME,
                   help=f"longest analysis in seconds (default {SERVE_ANALYSIS_TIME:g})")
    p.add_argument("--line-time", type=seconds_arg, default=LINE_TIME,
                   help="an analysis extends the best column's line until this many seconds "
                        "after the request and answers with the scores; the page then asks for "
                        f"the rest of the line (default {LINE_TIME:g}; 0: the column alone)")
    p.add_argument("--files", metavar="DIR", type=folder_arg, default=None,
                   help="a folder of networks (.npz) and submission files (.py) that agent "
                        "specs may name (policy:file=NET.npz, mcts:prior=NET.npz, BOT.py), "
                        "relative to it; without it no agent may read a file")
    p.add_argument("--no-warm-up", action="store_true",
                   help="skip compiling the kernels at start (the first requests pay for it)")
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.add_argument("--no-database", action="store_true",
                   help="analyse without the installed opening database")
    p.add_argument("--solver-threads", type=positive_int_arg, default=SOLVER_THREADS,
                   help="threads of each exact analysis, splitting its columns and sharing its "
                        f"table (default {SOLVER_THREADS}: two when the machine has two cores)")
    args = p.parse_args(argv)
    from agents.solver.database import DatabaseError, missing_note
    try:
        app = App(args.searches, args.move_time, args.analysis_time, not args.no_database,
                  args.solver_threads, args.line_time, args.queue, args.files)
    except DatabaseError as e:
        fail(f"{prog}: {e}")
    if app.database is None and not args.no_database:
        print(missing_note(), file=sys.stderr)
    try:
        server = make_server(app, args.host, args.port, args.verbose)
    except OSError as e:
        fail(f"{prog}: cannot listen on {args.host}:{args.port}: {e.strerror or e}")
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {args.host}: other machines can use this server",
              file=sys.stderr)
    if not args.no_warm_up:
        print("compiling the search kernels...", file=sys.stderr, flush=True)
        print(f"ready after {app.warm_up():.1f} s", file=sys.stderr)
    print(f"connectx serve: {url_of(server)} (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
