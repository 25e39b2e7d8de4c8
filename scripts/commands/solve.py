"""``connectx solve``: the exact solver's command line (``python -m agents.solver``)
with the shared ``--config rows=R,columns=C,inarow=K`` and one-line errors.

    echo 4453 | connectx solve
    connectx solve -a < tests/data/positions/end.txt
"""
import sys

from scripts.args import ArgumentParser, add_config_argument, board_fields


class SolveParser(ArgumentParser):
    """The solver's parser plus ``--config``, which sets ``rows``, ``columns`` and
    ``inarow`` (overriding ``--rows``/``--columns``/``--inarow``)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        add_config_argument(self, board_only=True)

    def parse_args(self, args=None, namespace=None):
        parsed = super().parse_args(args, namespace)
        for key, value in board_fields(self, parsed.config).items():
            setattr(parsed, key, value)
        return parsed


def main(argv=None, prog="python -m scripts.commands.solve"):
    from agents.solver import main as solver_main
    return solver_main(argv, prog=prog, parser_class=SolveParser)


if __name__ == "__main__":
    sys.exit(main())
