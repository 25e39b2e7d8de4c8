"""``connectx score``: judge any player against perfect play on a labelled set (the
library: :func:`scripts.arena.judging.score`, which defines the rates).

    connectx score negamax
    connectx score perfect:skill=10 --json
    connectx score my_submission.py --set my7x6.npz
    connectx score alphabeta:depth=4 --config rows=5,columns=6,inarow=4 --positions 300
    connectx score runs/zero/net.npz --simulations 800 --first 200 --json

A network file (``NET.npz`` of ``connectx learn``) is judged in one batch: as a pure
policy (as ``policy:file=NET`` plays), or with ``--simulations N`` by the package's MCTS
guided by it (a fresh tree of N simulations a position, as
``mcts:prior=NET,iterations=N`` plays; positions in chunks on ``--workers`` processes);
no clock (:func:`scripts.learn.evaluate.judge_network`).

Default set: the shipped ``scripts/data/labelled/7x6.npz`` (1000 positions, see
``connectx dataset``). ``--config`` on another board makes a set first (``--positions``,
``--seed``; kept with ``--out``). Every position is one call of the agent with
``actTimeout`` = ``--act`` and a fresh ``remainingOverageTime`` = ``--overage`` (default
0: each move must fit the act time). A failing agent is judged, never stops the run.
"""
import json
import sys

from scripts.arena.report import no_nan
from scripts.args import (ArgumentParser, SPEC_HELP, add_config_argument, add_report_arguments,
                          add_pool_arguments, board_shape, count_arg, positive_int_arg,
                          progress_bar)



def main(argv=None, prog="python -m scripts.commands.score"):
    ap = ArgumentParser(prog=prog, description="Judge an agent against perfect play: perfect- "
                        "and good-move rates by stage, with 95% intervals.")
    ap.add_argument("agent", help=SPEC_HELP + "; or a network file NET.npz")
    ap.add_argument("--set", metavar="FILE", default=None,
                    help="a labelled set (connectx dataset; default: the shipped 7x6 set)")
    add_config_argument(ap, board_only=True)
    ap.add_argument("--positions", type=positive_int_arg, default=300,
                    help="with --config: positions of the set to make (default 300)")
    ap.add_argument("--seed", type=int, default=0,
                    help="the agent's seed, and with --config the set's (default 0)")
    ap.add_argument("--out", metavar="FILE", default=None,
                    help="with --config: keep the set made in FILE")
    ap.add_argument("--act", type=float, default=2.0, help="seconds a move (default 2)")
    ap.add_argument("--overage", type=float, default=0.0,
                    help="overage seconds a position (default 0)")
    ap.add_argument("--first", type=positive_int_arg, default=None, metavar="N",
                    help="judge only the set's first N positions (default: all)")
    ap.add_argument("--simulations", type=count_arg, default=None, metavar="N",
                    help="with a network file: judge it with the MCTS at N simulations a "
                         "move (default 0: its pure policy)")
    add_pool_arguments(ap, "judging positions", "judge positions", note="; the result is the same")
    add_report_arguments(ap)
    args = ap.parse_args(argv)
    if args.set and args.config:
        ap.error("give --set or --config, not both")
    if args.act <= 0 or args.overage < 0:
        ap.error("--act must be > 0 and --overage >= 0")

    network = args.agent.endswith(".npz")
    if args.simulations is not None and not network:
        ap.error("--simulations judges a network file (NET.npz), not an agent spec")

    from agents.solver.labels import load_labels, save_labels
    from scripts.arena.judging import DEFAULT_SET, format_report, score
    from scripts.arena.specs import parse_spec
    try:
        if not network:
            parse_spec(args.agent)
        if args.config:
            from scripts.arena.dataset import make_set
            labelled = make_set(*board_shape(ap, args.config), args.positions, args.seed,
                                args.workers, args.dask)
            if args.out:
                save_labels(args.out, labelled)
        else:
            labelled = load_labels(args.set or DEFAULT_SET)
        if args.first is not None:
            import numpy as np
            labelled = labelled.subset(np.arange(min(args.first, len(labelled))))
        if network:
            from scripts.learn.evaluate import judge_network
            result = judge_network(args.agent, labelled, args.simulations or 0,
                                   workers=args.workers, dask=args.dask)
    except ValueError as e:
        ap.error(str(e))
    if network:
        return _report(result, args.json)
    bar = None

    def on_move():  # the bar starts at the first judged move (after the agent's warm-up)
        nonlocal bar
        if bar is None:
            bar = progress_bar(len(labelled), "positions", "pos")
        bar.update(1)
    try:
        result = score(args.agent, labelled, args.act, args.overage, args.seed,
                       on_move=None if args.quiet or args.json else on_move,
                       workers=args.workers, dask=args.dask)
    except ValueError as e:
        ap.error(str(e))
    finally:
        if bar is not None:
            bar.close()
    return _report(result, args.json)


def _report(result, as_json):
    """Print a judged player's ``result`` as the table or (``as_json``) as JSON; 0."""
    from scripts.arena.judging import format_report
    if as_json:
        out = {k: v for k, v in result.items() if k != "columns"}
        print(json.dumps(no_nan(out), indent=1))
    else:
        print(format_report(result))
    return 0




if __name__ == "__main__":
    sys.exit(main())
