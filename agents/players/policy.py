"""``policy``: the network of ``connectx learn`` as a player (numpy forward pass,
:mod:`agents.players.network`): the legal column of highest logit, no search.

    agents.make("policy", file="net.npz")                 # the pure policy
    agents.make("policy", file="net.npz", tactics=True)   # win now / block first

A generated Kaggle file embeds the network (the agent's ``RESOURCE_PATHS``; read back
by :func:`agents.resources.read_file`), so the file runs without the ``.npz`` beside it.
"""
from agents.board.grid import planes_of
from agents.players.base import Agent, boolean, checks_units, warmup_option
from agents.players.network import check_board, load_network, network_file


class PolicyAgent(Agent):
    """The legal column of highest policy logit (the lowest column among equal ones);
    with ``tactics`` the package's immediate win, else forced block
    (:func:`agents.search.tactics.tactical_move`), comes first. ``last``: ``source``
    (``"policy"`` or ``"tactics"``), ``column``, ``value`` (the network's value of the
    position for the side to move, -1..1). ``ValueError`` if the file is not a network,
    or, at a move, if the board is not the network's."""

    name = "policy"
    OPTIONS = {"file": (network_file, None), "tactics": (boolean("tactics"), False),
               "warmup": warmup_option()}

    def __init__(self, **options):
        super().__init__(**options)
        if self.file is None:
            raise ValueError("agent 'policy' needs option file=PATH: a network .npz written "
                             "by connectx learn")
        self.net = load_network(self, self.file, "policy")

    def ready_to_move(self, grid, heights, mark, cfg):
        return True  # numpy, and the tactics in plain Python until their kernel compiled

    def warmup_units(self, cfg):
        return checks_units(cfg) if self.tactics else checks_units(cfg)[:1]

    def choose(self, grid, heights, mark, cfg, clock):
        check_board(self.net, self.file, cfg)
        if self.tactics:
            col = tactic(grid, heights, cfg, mark)
            if col >= 0:
                self.last = {"source": "tactics", "column": col}
                return col
        logits, value = self.net.evaluate(planes_of(grid, mark, cfg.rows, cfg.columns)[None])
        col = int(logits[0].argmax())
        self.last = {"source": "policy", "column": col, "value": float(value[0])}
        return col


def tactic(grid, heights, cfg, mark):
    """:func:`agents.search.tactics.tactical_move` (win now, else block the opponent's
    win: the first such column), through its kernel once compiled, else the same rule on
    the plain-Python reference rules (a Kaggle file's first moves, while it compiles)."""
    from agents.board.jit import is_compiled
    from agents.search.tactics import tactical_column, tactical_move
    if is_compiled(tactical_column):
        return tactical_move(grid, heights, cfg, mark)
    from agents.board.rules_reference import ref_drop, ref_winner
    board = [int(v) for v in grid]
    legal = [c for c in range(cfg.columns) if heights[c] < cfg.rows]
    for who in (mark, 3 - mark):
        for c in legal:
            if ref_winner(ref_drop(board, c, who, cfg.rows, cfg.columns), cfg.rows, cfg.columns,
                          cfg.inarow) == who:
                return c
    return -1
