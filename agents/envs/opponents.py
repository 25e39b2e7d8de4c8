"""The environments' opponents: an agent spec of the package or a Python callable, and
its kernel form where it has one (played inside :func:`agents.envs.core.step_boards`).

An opponent is given as

* ``None``: no opponent, self-play (the batched and the AEC environments);
* a spec of the package's registry, ``name[:key=value,...]`` (:mod:`agents.options`),
  ``"random"`` to ``"perfect"``; its options are checked by building the agent;
* a callable ``agent(obs, config) -> int``, Kaggle's convention (``obs.board``,
  ``obs.mark``; ``config.rows`` ...): another agent of the package, a Kaggle built-in
  (``scripts.arena.loading.build_agent(scripts.arena.specs.parse_spec("negamax"), seed)``:
  the environments never import the command-line tools), a submission's agent.

Kernel forms (the same moves as the agent, computed in numba, several boards a call):

* ``random``: a uniform legal column from the board's own random numbers (the agent's
  ``seed`` option is replaced by the environment's seed);
* ``onestep`` with its default ``windows`` heuristic: the agent's best columns (its
  safety net with ``tactics``), one drawn from the board's random numbers;
* ``rules``: the agent's best columns (win, block, safe moves, forced results within its
  ``lookahead``), one drawn from the board's random numbers;
* ``alphabeta`` with a fixed ``depth``, no ``time_limit`` and no ``aspiration``: the
  agent's move (:func:`agents.envs.core.alphabeta_move`; with ``deepening=false``, one
  search at the depth), any registered heuristic with a compiled hookup. Its table has ``2**tt_bits`` slots, :data:`ALPHABETA_TT_BITS` unless
  the spec gives ``tt_bits`` (the agent's 2**20 would take longer to clear than a
  depth-4 search takes); it then plays as ``alphabeta:...,tt_bits=10`` does.

Any other opponent is called from Python between two kernel calls.
"""
import numpy as np

from agents import AGENTS, make
from agents.board.bitboard import fits_bitboard
from agents.board.grid import cell_window_table, center_order, window_table
from agents.envs.core import (ALPHABETA, EXTERNAL, ONESTEP, RANDOM, RULES, SELF_PLAY,
                              alphabeta_replies, onestep_replies, play_replies, rules_replies)
from agents.options import split_spec
from agents.players.base import Struct
from agents.search.alphabeta import Tables
from agents.search.alphabeta_bb import OPT_HISTORY, OPT_KILLERS, OPT_PVS, packed_table
from agents.search.horizon import QUIESCENCE_PLIES
from agents.search.counters import new_counters
from heuristics import entry
from heuristics.bitboard_eval import eval_geometry

# 1024 slots (the agent's least) for a depth-4 search's ~300 nodes: clearing the agent's
# 2**20 (24 MB) before each move would cost far more than the search; 2**14 cost ~20 us
# a move more than 2**10 (128 against 107 us, connectx bench env's positions, load 6)
ALPHABETA_TT_BITS = 10


class Opponent:
    """An opponent on one board configuration ``cfg``: ``kind`` (a kind of
    :mod:`agents.envs.core`), ``label`` (the spec's text), ``agent`` (the callable the
    EXTERNAL kind calls; the built agent for a spec); :meth:`finish` plays its replies."""

    def __init__(self, spec, cfg):
        self.cfg = cfg
        self.agent = None
        depth, deepening, heuristic, opts, quiescence = 0, True, 0, 0, QUIESCENCE_PLIES
        if spec is None:
            self.kind, self.label = SELF_PLAY, "self-play"
        elif callable(spec):
            self.kind = EXTERNAL
            self.label = getattr(spec, "__name__", None) or type(spec).__name__
            self.agent = spec
        elif isinstance(spec, str):
            self.label = spec.strip()
            name, options = split_spec(spec)
            if name not in AGENTS:
                raise ValueError(
                    f"unknown opponent {spec!r}; valid: a spec of {', '.join(sorted(AGENTS))} "
                    "(name[:key=value,...]), None (self-play) or a callable agent(obs, config) "
                    "(kaggle built-ins: build one with scripts.arena.loading.build_agent)")
            if name == "alphabeta" and "tt_bits" not in options:
                options = dict(options, tt_bits=ALPHABETA_TT_BITS)
            try:
                self.agent = make(name, **options)
            except ValueError as e:
                raise ValueError(f"opponent {spec!r}: {e}") from None
            a = self.agent
            self.kind = EXTERNAL
            if name == "random":
                self.kind = RANDOM
            elif name == "onestep" and a.heuristic == "windows":
                self.kind, depth = ONESTEP, int(a.tactics)
            elif name == "rules":
                self.kind, depth = RULES, a.lookahead
            elif name == "alphabeta" and a.depth is not None and a.time_limit is None \
                    and not a.aspiration and a.record.id is not None:
                self.kind, depth, heuristic = ALPHABETA, a.depth, a.record.id
                deepening = a.deepening
                opts = ((OPT_KILLERS if a.killers else 0) | (OPT_HISTORY if a.history else 0)
                        | (OPT_PVS if a.pvs else 0))
                quiescence = QUIESCENCE_PLIES if a.quiescence else None
        else:
            raise TypeError(f"opponent must be an agent spec (str), a callable or None, "
                            f"got {type(spec).__name__}")
        self.params = (depth, deepening, heuristic, opts, quiescence)
        self.memory = self._memory() if self.kind in (ONESTEP, ALPHABETA) else ()

    def _memory(self):
        """The kernel form's search memory: the agent's (its tables; the evaluation's
        geometry on bitboards, else the window table), or onestep's window tables."""
        rows, columns, inarow = self.cfg
        if self.kind == ONESTEP:
            return (window_table(rows, columns, inarow), cell_window_table(rows, columns, inarow),
                    new_counters())
        bits = fits_bitboard(rows, columns)
        t = Tables(rows, columns, self.agent.table_bits(self.cfg))
        return (eval_geometry(rows, columns, inarow) if bits else np.zeros(1, dtype=np.int64),
                center_order(columns), t.zobrist.view(np.int64),
                packed_table(self.agent.table_bits(self.cfg)), t.killers, t.moves, t.history,
                t.pv, t.pvlen, new_counters(), np.zeros(columns, dtype=np.int64),
                None if bits else window_table(rows, columns, inarow))

    def finish(self, boards):
        """Play this opponent's reply on every pending board of ``boards``
        (:class:`agents.envs.boards.Boards`, after its ``step_boards`` call)."""
        b = boards
        rows, columns, inarow = self.cfg
        head = (b.grid, b.heights, b.stones, b.bits, b.me)
        tail = (b.obs, b.mask, b.rewards, b._terminated)
        if self.kind == ONESTEP:
            onestep_replies(*head, b.rngs, b.done, b.pending, rows, columns, inarow,
                            self.params[0] != 0, *self.memory, *tail)
        elif self.kind == RULES:
            rules_replies(*head, b.rngs, b.done, b.pending, rows, columns, inarow,
                          self.params[0], *tail)
        elif self.kind == ALPHABETA:
            alphabeta_replies(*head, b.done, b.pending, rows, columns, inarow, *self.params,
                              *self.memory, *tail)
        elif self.kind == EXTERNAL:
            for i in np.flatnonzero(b.pending):
                b.replies[i] = self.move([int(v) for v in b.grid[i]], 3 - int(b.me[i]))
            play_replies(*head, b.done, b.pending, b.replies, rows, columns, inarow, *tail)

    def __repr__(self):
        return f"Opponent({self.label!r})"

    def move(self, board, mark):
        """The EXTERNAL opponent's column on ``board`` (Kaggle's flat list) for ``mark``:
        a plain int with room, else ``RuntimeError`` naming the opponent."""
        rows, columns, inarow = self.cfg
        obs = Struct(board=board, mark=mark, step=sum(1 for v in board if v),
                     remainingOverageTime=60.0)
        config = Struct(rows=rows, columns=columns, inarow=inarow, actTimeout=2.0, timeout=2.0,
                        agentTimeout=60.0, episodeSteps=1000, runTimeout=1200)
        col = self.agent(obs, config)
        if isinstance(col, (bool, np.bool_)) or not isinstance(col, (int, np.integer)) \
                or not 0 <= col < columns or board[col] != 0:
            raise RuntimeError(f"opponent {self.label!r} returned {col!r}, not a column with "
                               f"room in 0..{columns - 1}")
        return int(col)
