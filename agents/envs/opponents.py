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

An agent with a kernel form (:meth:`agents.players.base.Agent.kernel_form`: the move
kernel the agent itself plays, with its options and search memory) replies inside the
batched core, several boards a call (:mod:`agents.envs.core`), with the board's own
random numbers for its tie-breaks (the agent's ``seed`` option is replaced by the
environment's seed). Every option of the agent thus plays as it does in a match.
Today: ``random``, ``onestep`` (an ``incremental`` heuristic, the default ``windows``),
``rules``, and ``alphabeta`` with a fixed ``depth`` and no ``time_limit`` or
``aspiration`` (any heuristic with a compiled hookup); its table has ``2**tt_bits``
slots, :data:`ALPHABETA_TT_BITS` unless the spec gives ``tt_bits`` (the agent's 2**20
would take longer to clear than a depth-4 search takes): it then plays as
``alphabeta:...,tt_bits=10`` does.

Any other opponent is called from Python between two kernel calls.
"""
import numpy as np

from agents import AGENTS, make
from agents.envs.core import (EXTERNAL, KERNEL, RANDOM, SELF_PLAY, alphabeta_replies,
                              onestep_replies, play_replies, rules_replies)
from agents.options import split_spec
from agents.players.base import config_struct, observation
from agents.search.alphabeta_bb import alphabeta_move
from agents.search.minimax import onestep_move
from agents.search.tactics import rules_move

# the reply loop of each move kernel (agents.envs.core)
REPLIES = {onestep_move: onestep_replies, rules_move: rules_replies,
           alphabeta_move: alphabeta_replies}

# 1024 slots (the agent's least) for a depth-4 search's ~300 nodes: clearing the agent's
# 2**20 (24 MB) before each move would cost far more than the search; 2**14 cost ~20 us
# a move more than 2**10 (128 against 107 us, connectx bench env's positions, load 6)
ALPHABETA_TT_BITS = 10


class Opponent:
    """An opponent on one board configuration ``cfg``: ``kind`` (a kind of
    :mod:`agents.envs.core`), ``label`` (the spec's text), ``agent`` (the callable the
    EXTERNAL kind calls; the built agent for a spec), ``form`` (the agent's kernel form,
    or None); :meth:`finish` plays its replies."""

    def __init__(self, spec, cfg):
        self.cfg = cfg
        self.agent = None
        self.form = None
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
            self.form = self.agent.kernel_form(self.cfg)
            if self.form is None or (self.form.move is not None
                                     and self.form.move not in REPLIES):
                self.kind = EXTERNAL
            else:
                self.kind = RANDOM if self.form.move is None else KERNEL
        else:
            raise TypeError(f"opponent must be an agent spec (str), a callable or None, "
                            f"got {type(spec).__name__}")

    def finish(self, boards):
        """Play this opponent's reply on every pending board of ``boards``
        (:class:`agents.envs.boards.Boards`, after its ``step_boards`` call)."""
        b = boards
        head = (b.grid, b.heights, b.stones, b.bits, b.me)
        tail = (b.obs, b.mask, b.rewards, b._terminated)
        if self.kind == KERNEL:
            REPLIES[self.form.move](*head, b.rngs, b.done, b.pending, *self.cfg, *self.form.args,
                                    *tail)
        elif self.kind == EXTERNAL:
            for i in np.flatnonzero(b.pending):
                b.replies[i] = self.move([int(v) for v in b.grid[i]], 3 - int(b.me[i]))
            play_replies(*head, b.done, b.pending, b.replies, *self.cfg, *tail)

    def __repr__(self):
        return f"Opponent({self.label!r})"

    def move(self, board, mark):
        """The EXTERNAL opponent's column on ``board`` (Kaggle's flat list) for ``mark``:
        a plain int with room, else ``RuntimeError`` naming the opponent."""
        columns = self.cfg.columns
        col = self.agent(observation(board, mark), config_struct(self.cfg))
        if isinstance(col, (bool, np.bool_)) or not isinstance(col, (int, np.integer)) \
                or not 0 <= col < columns or board[col] != 0:
            raise RuntimeError(f"opponent {self.label!r} returned {col!r}, not a column with "
                               f"room in 0..{columns - 1}")
        return int(col)
