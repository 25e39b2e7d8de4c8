"""The adversarial-search lesson's Isolation experiments: mini-Isolation's values,
5x5 Isolation under the reference searches and its symmetries, the lesson's two
evaluation functions against each other, 3-player search (max^n, shallow pruning,
paranoid) and sloppy Isolation (expectimax against minimax that ignores chance)."""
import math
import random

from agents.games.protocol import (Counter, alphabeta_value, best_actions, minimax_value, play,
                               random_playout)
from agents.games.isolation import (Isolation, MultiIsolation, SloppyIsolation, mini_isolation,
                                    my_moves, my_moves_minus_opponent_moves)
from agents.games.searches.deepening import iterative_deepening
from agents.games.searches.expectimax import expectimax_best
from agents.games.searches.maxn import maxn_best
from agents.games.searches.paranoid import paranoid_best
from scripts.arena.bars import ProgressCallback
from scripts.lessons.rows import Row, better_than_even


def fmt(v):
    return "+inf" if v == math.inf else ("-inf" if v == -math.inf else f"{v:g}")



# ---------------------------------------------------------------------------


def mini(quick=False, seed=0, progress=False):
    g = mini_isolation()
    s = g.initial()
    values, nodes_mm, nodes_ab = [], 0, 0
    for a in g.actions(s):
        mm, ab = Counter(), Counter()
        values.append(minimax_value(g, g.result(s, a), 10, 0, mm))
        alphabeta_value(g, g.result(s, a), 10, 0, ab)
        nodes_mm, nodes_ab = nodes_mm + mm.nodes, nodes_ab + ab.nodes
    finished = 0
    for i in range(20 if quick else 1000):
        end = random_playout(g, None, random.Random(seed * 1000003 + i), 10)
        finished += g.is_terminal(end) and not g.liberties(end, g.to_move(end))
    ours = " ".join(fmt(v) for v in values)
    material = "+inf -inf +inf +inf -inf"
    _, best = best_actions(g, s, 10)
    runs = 20 if quick else 1000
    depth1 = Counter()
    minimax_value(g, s, 1, 0, depth1)
    return [
        Row("first player's opening moves", "5", str(len(g.actions(s))),
            "same" if len(g.actions(s)) == 5 else "differs"),
        Row("nodes a depth-1 search visits from the empty board", "5", str(depth1.nodes),
            "same" if depth1.nodes == 5 else "differs"),
        Row("second player's replies to (0, 0)", "4", str(len(g.actions(g.result(s, (0, 0))))),
            "same" if len(g.actions(g.result(s, (0, 0)))) == 4 else "differs"),
        Row("random playouts that end at a terminal state (the mover stuck)",
            "a played-out game is terminal", f"{finished}/{runs}",
            "same" if finished == runs else "differs"),
        Row("values of the openings (0,0) (1,0) (2,0) (0,1) (1,1)", material, ours,
            "same" if ours == material else "differs"),
        Row("minimax_decision's best moves", "-", " ".join(f"({x},{y})" for x, y in best),
            "package's reading holds: the openings valued +inf above" if best == [
                a for a, v in zip(g.actions(s), values) if v == math.inf]
            else "package's reading fails: not the +inf openings"),
        Row("nodes below the 5 openings: minimax / alpha-beta", "-",
            f"{nodes_mm} / {nodes_ab}", f"package's reading {'holds' if nodes_ab < nodes_mm else 'fails'}"
            ": alpha-beta visits fewer"),
    ]


def search5(quick=False, seed=0, progress=False):
    rng = random.Random(seed)
    rows = []
    for name, ev in (("my_moves", my_moves), ("my_moves - opponent_moves",
                                              my_moves_minus_opponent_moves)):
        g = Isolation(5, 5, evaluation=ev)
        states = [random_playout(g, None, rng, 4) for _ in range(1 if quick else 3)]
        for depth in ((1, 2) if quick else (1, 2, 3, 4)):
            mm, ab = Counter(), Counter()
            same = True
            for s in states:
                same &= minimax_value(g, s, depth, 0, mm) == alphabeta_value(g, s, depth, 0, ab)
            rows.append(Row(f"{name}, depth {depth}, {len(states)} positions: nodes "
                            f"minimax / alpha-beta", ALPHABETA_CLAIM,
                            f"{mm.nodes} / {ab.nodes} ({ab.nodes / mm.nodes:.2f}x)",
                            "differs: another value" if not same else "same" if ab.nodes <
                            mm.nodes else "not shown at this depth: same value, no node "
                            "pruned"))
    g = Isolation(5, 5)
    budget = 2000 if quick else 50000
    s = random_playout(g, None, random.Random(seed + 1), 4)
    its = iterative_deepening(g, s, max_nodes=budget)
    spent = sum(it.nodes for it in its)
    rows.append(Row(f"iterative deepening within {budget} nodes (alpha-beta)", "-",
                    f"depth {its[-1].depth}, value {fmt(its[-1].value)}, "
                    f"{spent} nodes over depths 1-{its[-1].depth}",
                    f"package's reading {'holds' if spent <= budget else 'fails'}: an answer "
                    f"from the deepest search that fits the budget"))
    openings = [g.result(g.initial(), a) for a in g.actions(g.initial())]
    rows.append(_symmetry_row(g, "5x5 openings", openings))
    if not quick:
        second = list({g.result(t, a) for t in openings for a in g.actions(t)})
        rows.append(_symmetry_row(g, "positions after 2 plies", second))
    return rows


ALPHABETA_CLAIM = "alpha-beta: same move as minimax, fewer nodes"


def _symmetry_row(g, label, states):
    """The package's count of ``states`` up to the board's symmetries (the lesson names
    the symmetries of 5x5 Isolation but counts nothing), checked by Burnside's lemma:
    the classes are the average number of states each symmetry leaves unchanged."""
    classes = len({g.canonical(t) for t in states})
    perms = g.transforms()
    fixed = sum(g.transform(t, perm) == t for perm in perms for t in states)
    burnside = fixed / len(perms)
    return Row(f"{label} / up to the board's {len(perms)} symmetries", "-",
               f"{len(states)} / {classes}",
               f"package's reading (its count) {'holds' if burnside == classes else 'fails'}"
               f": Burnside's lemma gives {burnside:g}")


def mobility_player(evaluation, depth):
    """A player searching alpha-beta ``depth`` plies with ``evaluation`` (5x5 boards)."""
    searcher = Isolation(5, 5, evaluation=evaluation)

    def player(game, state):
        return best_actions(searcher, state, depth, alphabeta_value)[1][0]
    return player


def wins_in_both_seats(g, a, b, pairs, opening_seed, chance_seed, bar):
    """The games ``a`` wins against ``b`` from ``pairs`` seeded random openings (both
    players placed at random), each opening played in both seats; ``chance_seed`` seeds
    the outcomes of a sloppy game's moves. ``bar`` counts the games and is closed."""
    wins = 0
    for i in range(pairs):
        start = random_playout(g, None, random.Random(opening_seed + i), 2)
        for seat in (0, 1):
            players = [a, b] if seat == 0 else [b, a]
            end, _ = play(g, players, start, random.Random(chance_seed + 2 * i + seat))
            wins += g.winner(end) == seat
            bar.update()
    bar.close()
    return wins


def evaluations(quick=False, seed=0, progress=False):
    """The lesson's two evaluations, alpha-beta at the same depth, from seeded random
    openings (both players placed at random), each opening played in both seats."""
    g = Isolation(5, 5)
    depth = 2 if quick else 3
    pairs = 2 if quick else 20
    a = mobility_player(my_moves_minus_opponent_moves, depth)
    b = mobility_player(my_moves, depth)
    wins = wins_in_both_seats(g, a, b, pairs, seed * 7919, 0,
                              ProgressCallback("evaluations", "game", progress, 2 * pairs))
    n = 2 * pairs
    return [Row(f"my_moves - opponent_moves against my_moves, alpha-beta depth {depth}, "
                f"{n} games", "my_moves - opponent_moves is the better evaluation",
                f"{wins}/{n} won ({wins / n:.0%})", better_than_even(wins, n))]


def multiplayer(quick=False, seed=0, progress=False):
    """max^n with and without shallow pruning and paranoid alpha-beta, on seeded 4x4
    3-player positions: total nodes and how often paranoid picks max^n's move."""
    g = MultiIsolation(4, 4)
    rng = random.Random(seed)
    states = [random_playout(g, None, rng, rng.randrange(3, 7)) for _ in range(3 if quick else 20)]
    states = [s for s in states if not g.is_terminal(s)]
    rows = []
    depths = (2,) if quick else (2, 3, 4, 5)
    bar = ProgressCallback("3 players", "position", progress, len(depths) * len(states))
    for depth in depths:
        plain, shallow, para = Counter(), Counter(), Counter()
        same_vector = agree = 0
        for s in states:
            v1, m1 = maxn_best(g, s, depth, None, plain)
            v2, m2 = maxn_best(g, s, depth, g.total, shallow)
            _, m3 = paranoid_best(g, s, depth, para)
            same_vector += v1 == v2 and m1 == m2
            agree += m3 == m1
            bar.update()
        rows.append(Row(f"depth {depth}, {len(states)} positions: nodes max^n / shallow "
                        f"pruning / paranoid alpha-beta (the package's reading of 3-player "
                        f"Isolation: a stuck player is out, the last one standing wins)",
                        KORF_CLAIM, f"{plain.nodes} / {shallow.nodes} / {para.nodes}; "
                        f"pruned = plain {same_vector}/{len(states)}, paranoid's move = "
                        f"max^n's {agree}/{len(states)}",
                        pruning_verdict(plain.nodes, shallow.nodes, para.nodes,
                                        same_vector == len(states))))
    bar.close()
    return rows


KORF_CLAIM = "alpha-beta prunes less well with more than two players (Korf 1991)"


def pruning_verdict(plain, shallow, paranoid, exact):
    """Korf's claim on one row: max^n's shallow pruning saves less of the tree than
    alpha-beta does on the two-player (paranoid) reduction of the same tree, whose
    unpruned size is ``plain``'s."""
    if not exact:
        return "differs: shallow pruning changed a value"
    if shallow == paranoid == plain:
        return "not shown at this depth: neither search prunes a node"
    return "same" if shallow > paranoid else \
        "differs: shallow pruning saved at least as much at this depth"


def sloppy(quick=False, seed=0, progress=False):
    """Expectimax (chance nodes) against alpha-beta that assumes every move lands
    where aimed, same depth, sloppy 5x5 Isolation, both seats of seeded openings."""
    slip = 0.3
    g = SloppyIsolation(5, 5, slip=slip)
    depth = 2
    pairs = 2 if quick else 50

    def expecting(game, state):
        return expectimax_best(game, state, depth)[1]

    def ignoring(game, state):
        return best_actions(game, state, depth, alphabeta_value)[1][0]

    wins = wins_in_both_seats(g, expecting, ignoring, pairs, seed * 104729, seed * 31,
                              ProgressCallback("sloppy", "game", progress, 2 * pairs))
    n = 2 * pairs
    return [Row(f"expectimax against minimax ignoring chance, {n} games, depth {depth} (the "
                f"package's rules of sloppy Isolation: a move lands on a random open cell "
                f"next to the one aimed at with probability {slip})", "-",
                f"{wins}/{n} won ({wins / n:.0%})",
                "package's reading (expectimax plays better): " + better_than_even(wins, n))]
