"""``connectx build``: write the one-file Kaggle submission (the library: :mod:`submission.build`).

    connectx build [--agent NAME] [--option key=value ...] --out main.py
"""
import sys

from scripts.args import ArgumentParser, report
from submission.build import BuildError, build, parse_option


def main(argv=None, prog="python -m scripts.commands.build"):
    parser = ArgumentParser(
        prog=prog, description="Write one self-contained Kaggle ConnectX submission file "
                               "(upload it as is; check it first with validate).")
    parser.add_argument("--agent", default=None,
                        help="registry name, e.g. alphabeta (default: the package's best "
                             "agent, agents.BEST)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="an agent option (repeatable), e.g. --option time_limit=1.5")
    parser.add_argument("--out", "--output", metavar="PATH", default="main.py",
                        help="file to write (default main.py)")
    args = parser.parse_args(argv)
    try:
        options = dict(parse_option(o) for o in args.option)
        bundle = build(args.agent, options)
    except BuildError as exc:
        return report(f"{prog}: error: build failed: {exc}")
    try:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(bundle.text)
    except OSError as exc:
        return report(f"{prog}: error: build failed: cannot write {args.out}: {exc.strerror}")
    print(f"wrote {args.out}")
    print(bundle.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
