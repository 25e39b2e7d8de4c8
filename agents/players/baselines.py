"""Baseline agents: ``random``, ``onestep`` (the tutorial's one-step lookahead) and
``rules`` (the rule-based "think" player: win, block, avoid, then look ahead)."""
import numpy as np

from heuristics import entry, get as get_heuristic

from agents.players.base import (Agent, boolean, checks_units, heuristic_name, legal_columns, pick,
                                 positive_int, seed_value, warmup_option)
from agents.search.tactics import forced_result, safe_moves, safety_net, tactical_move
from agents.players.kaggle_tutorial import tutorial_best_columns
from agents.board.grid import cell_window_table, drop, undo, window_table
from agents.search.minimax import minimax_scores, minimax_scores_counts
from agents.search.counters import S_NODES, new_counters


class RandomAgent(Agent):
    """Uniformly random legal column (no tactics: the weakest baseline)."""

    name = "random"
    OPTIONS = {"seed": (seed_value, None), "warmup": warmup_option()}

    def ready_to_move(self, grid, heights, mark, cfg):
        return True  # no kernel in a move (the input checks run numpy until compiled)

    def warmup_units(self, cfg):
        return checks_units(cfg)[:1]

    def choose(self, grid, heights, mark, cfg, clock):
        return pick(self.rng, legal_columns(heights, cfg), cfg)


class OneStepAgent(Agent):
    """The tutorial's one-step lookahead: drop each column, score the result with the
    window heuristic, random among the best. With ``tactics`` (default) the safety net
    of ``agents.search.tactics.safety_net`` makes sure a lone immediate threat is blocked (the
    tutorial's one-step score can prefer removing two distant opponent threes)."""

    name = "onestep"
    OPTIONS = {"seed": (seed_value, None), "heuristic": (heuristic_name, "windows"),
               "tactics": (boolean("tactics"), True), "warmup": warmup_option()}
    MOVE_COMPILE_SECONDS = 3.0

    def __init__(self, **options):
        super().__init__(**options)
        self.evaluate = get_heuristic(self.heuristic)

    def choose(self, grid, heights, mark, cfg, clock):
        scores, _ = tutorial_scores(grid, heights, mark, cfg, self.heuristic, self.evaluate, 1)
        best = best_columns(scores, heights, cfg)
        if self.tactics:
            best = safety_net(grid, heights, cfg, mark, best)
        return pick(self.rng, best, cfg)


def tutorial_scores(grid, heights, mark, cfg, heuristic, evaluate, depth):
    """The tutorial's depth-``depth`` minimax score of each column (-INF for a full
    column) and the node count. A heuristic registered ``incremental`` (the tutorial's
    windows) runs on the incremental kernel, which walks the same tree to the same
    scores (``tests/test_search.py``) and is kept in numba's disk cache; any other
    ``evaluate`` kernel goes through the plain recursive one, compiled in each process."""
    counters = new_counters()
    if entry(heuristic).incremental:
        s = minimax_scores_counts(grid, heights, cfg.rows, cfg.columns, cfg.inarow,
                                  window_table(*cfg), cell_window_table(*cfg), depth, mark,
                                  counters)
    else:
        s = minimax_scores(grid, heights, cfg.rows, cfg.columns, cfg.inarow,
                           window_table(*cfg), evaluate, depth, mark, counters)
    return s, int(counters[S_NODES])


def best_columns(scores, heights, cfg):
    legal = legal_columns(heights, cfg)
    top = max(scores[c] for c in legal)
    return [c for c in legal if scores[c] == top]


class RulesAgent(Agent):
    """Rule-based "think-N" player: win now; else block the opponent's immediate win;
    else drop the moves that hand the opponent a win on top of them; else look ahead
    ``lookahead`` plies for a forced win (or away from a forced loss); random among
    what is left."""

    name = "rules"
    OPTIONS = {"seed": (seed_value, None), "lookahead": (positive_int("lookahead", 8), 3),
               "warmup": warmup_option()}
    PRIVATE_OPTIONS = {"lookahead": 1}
    MOVE_COMPILE_SECONDS = 2.0

    def choose(self, grid, heights, mark, cfg, clock):
        t = tactical_move(grid, heights, cfg, mark)
        if t >= 0:
            return t
        safe = safe_moves(grid, heights, cfg.rows, cfg.columns, cfg.inarow, mark)
        candidates = [c for c in legal_columns(heights, cfg) if safe[c]] \
            or legal_columns(heights, cfg)
        values = {}
        for c in candidates:
            idx = drop(grid, heights, cfg.rows, cfg.columns, c, mark)
            values[c] = -forced_result(grid, heights, cfg.rows, cfg.columns, cfg.inarow,
                                        3 - mark, self.lookahead - 1, idx)
            undo(grid, heights, cfg.rows, cfg.columns, c)
        top = max(values.values())
        return pick(self.rng, [c for c in candidates if values[c] == top], cfg)


class TutorialAgent(Agent):
    """The Kaggle tutorial's N-step lookahead agent itself (pure Python, from
    ``agents.players.kaggle_tutorial``): slow (0.2-0.5 s a move at depth 3), for comparisons."""

    name = "tutorial"
    OPTIONS = {"nsteps": (positive_int("nsteps", 5), 3), "seed": (seed_value, None),
               "warmup": warmup_option()}
    ready_to_move = RandomAgent.ready_to_move  # plain Python: only the input checks compile
    warmup_units = RandomAgent.warmup_units

    def choose(self, grid, heights, mark, cfg, clock):
        best = tutorial_best_columns([int(v) for v in grid], mark, cfg, self.nsteps)
        return best[int(self.rng.integers(len(best)))]
