"""``connectx bench env``: agent steps a second of the reinforcement-learning environments,
side by side in one run (issue 44):

* kaggle-environments' ``env.train([None, opponent])`` wrapper, the Kaggle course's
  Gym environment, against ``random`` and against ``negamax`` (a few steps: it is slow);
* PettingZoo's ``connect_four_v3`` and OpenSpiel's ``connect_four`` from a Python loop;
* the package's environments (:mod:`agents.envs`): ``ConnectXEnv`` (Gymnasium, one
  board), the PettingZoo AEC environment and ``ConnectXVectorEnv`` (``--boards`` boards
  in numba), against ``random``, a depth-4 ``alphabeta`` and ``perfect``;

each with its ratio to the kaggle wrapper against the same opponent (and the AEC rows to
PettingZoo's), and the score of the depth-4 alpha-beta against kaggle's ``negamax``
and of the lean one (one search at depth 4, no quiescence: ``LEAN``) against kaggle's
``negamax`` (``--games`` games each, colours alternating). The learner plays a uniformly random legal
column everywhere (random numbers drawn beforehand: the same small cost everywhere); its
choice is part of the loop timed. Times are CPU seconds of this process (the machine is
shared; everything runs here, numba on one thread: one core), wall seconds beside them.
An *agent step* is one move of
the learner with the opponent's reply: one ``step`` of a Gymnasium environment, one
``step`` of an AEC environment or one ``apply_action`` of OpenSpiel (the loop plays both
sides there, each ply a step), ``num_envs`` of a vector step (the steps that only reset
a board are not counted). Everything runs in this process: numba on one core.

    connectx bench env [--seconds 2] [--boards 4096] [--kaggle-steps 300] [--negamax-steps 100]
                       [--games 10] [--tiny]
    connectx bench env --search [--positions 1000] [--rounds 5]

The baseline against ``negamax`` plays ``--negamax-steps`` steps whatever ``--seconds``
(about 10 CPU seconds): its cost a step varies with the game's phase several times over,
and 15-20 steps (what 2 seconds gave) moved the ratios by half between runs.

``--search`` times the depth-4 opponent's move alone (``SEARCH_SPECS``: the default
``alphabeta:depth=4``, the baseline, and the same without iterative deepening, without
quiescence, without both), the reply loop the vector environment calls
(:func:`agents.envs.core.alphabeta_replies`, the environments' ``tt_bits=10``) over
``--positions`` positions the opponent met in the vector environment's games against a
random learner: microseconds a move (CPU, the least of ``--rounds`` rounds, the specs
interleaved), nodes a move, the ratio to the default's time and how often each plays
the default's move.
"""
import os
import sys
import time

import numpy as np

from agents.envs.opponents import ALPHABETA_TT_BITS
from scripts.arena.extras import require
from scripts.arena.match import match
from scripts.args import ArgumentParser, add_seconds_argument, positive_int_arg

ALPHABETA = "alphabeta:depth=4"
# the same depth without its iterative deepening and quiescence: one plain search at 4
LEAN = "alphabeta:depth=4,deepening=false,quiescence=false"
SEARCHES = (ALPHABETA, LEAN)
OPPONENTS = ("random", *SEARCHES, "perfect")
# --search: the depth-4 move with and without each of its two additions, the default first
# (the baseline of the ratios)
SEARCH_SPECS = (ALPHABETA, "alphabeta:depth=4,quiescence=false",
                "alphabeta:depth=4,deepening=false", LEAN)


class Policy:
    """The learner of every loop: a uniformly random legal column, from random numbers
    drawn beforehand (so that the policy costs every environment the same, little)."""

    def __init__(self, seed=0):
        self.u = np.random.default_rng(seed).random(1 << 16).tolist()
        self.i = 0

    def __call__(self, legal):
        """A random one of ``legal`` (a sequence of columns, or a 0/1 mask array)."""
        if isinstance(legal, np.ndarray):
            legal = np.flatnonzero(legal)
        self.i = (self.i + 1) & 0xFFFF
        return int(legal[int(self.u[self.i] * len(legal))])


def _timed(loop, seconds, limit):
    """Run ``loop(k)`` (plays up to ``k`` agent steps, returns how many it played) in
    chunks until ``seconds`` of CPU time have passed or ``limit`` steps: (steps, CPU
    seconds, wall seconds). One step first, untimed: the kernels compile or load there."""
    loop(1)
    steps, chunk = 0, 1
    c0, t0 = time.process_time(), time.perf_counter()
    while True:
        steps += loop(min(chunk, limit - steps))
        cpu = time.process_time() - c0
        if cpu >= seconds or steps >= limit or time.perf_counter() - t0 >= 20 * seconds:
            return steps, cpu, time.perf_counter() - t0
        chunk = min(chunk * 2, 1 << 16)


def kaggle_rate(opponent, seconds, limit):
    """The course's wrapper: ``make("connectx").train([None, opponent])``."""
    from kaggle_environments import make
    trainer = make("connectx", debug=False).train([None, opponent])
    pick = Policy()
    state = {"obs": trainer.reset()}

    def loop(k):
        for _ in range(k):
            board = state["obs"]["board"]
            col = pick([c for c in range(7) if board[c] == 0])
            obs, _, done, _ = trainer.step(col)
            state["obs"] = trainer.reset() if done else obs
        return k
    return _timed(loop, seconds, limit)


def pettingzoo_rate(env, seconds, limit):
    """Plies of an AEC environment, random legal columns for both players."""
    pick = Policy()
    env.reset(seed=0)

    def loop(k):
        for _ in range(k):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.reset()
                obs = env.last()[0]
            env.step(pick(obs["action_mask"]))
        return k
    return _timed(loop, seconds, limit)


def openspiel_rate(seconds, limit):
    import pyspiel
    game = pyspiel.load_game("connect_four")
    pick = Policy()
    state = {"s": game.new_initial_state()}

    def loop(k):
        for _ in range(k):
            s = state["s"]
            if s.is_terminal():
                s = state["s"] = game.new_initial_state()
            s.apply_action(pick(s.legal_actions()))
        return k
    return _timed(loop, seconds, limit)


def single_rate(opponent, seconds, limit):
    from agents.envs.single import ConnectXEnv
    env = ConnectXEnv(opponent=opponent, seat="random")
    pick = Policy()
    state = {"obs": env.reset(seed=0)[0]}

    def loop(k):
        for _ in range(k):
            obs, _, terminated, _, _ = env.step(pick(state["obs"]["action_mask"]))
            state["obs"] = env.reset()[0] if terminated else obs
        return k
    return _timed(loop, seconds, limit)


def vector_rate(opponent, boards, seconds, limit):
    from agents.envs.vector import ConnectXVectorEnv
    env = ConnectXVectorEnv(boards, opponent=opponent, seat="random", copy=False)
    obs, _ = env.reset(seed=0)
    # a random legal column a board: the largest of (uniform + mask), from 8 batches of
    # uniform numbers drawn beforehand
    u = np.random.default_rng(0).random((8, boards, obs["action_mask"].shape[1]))
    state = {"ended": np.zeros(boards, dtype=bool), "i": 0}

    def loop(k):
        played = 0
        while played < k:
            state["i"] = (state["i"] + 1) & 7
            actions = np.argmax(u[state["i"]] + obs["action_mask"], axis=1)
            played += boards - int(state["ended"].sum())  # reset steps play nothing
            _, _, terminated, _, _ = env.step(actions)
            state["ended"] = terminated.copy()
        return played
    return _timed(loop, seconds, limit)


def rows(args):
    """``(label, opponent, steps, seconds)`` for every environment measured."""
    out = []
    s = args.seconds
    big = 10 ** 9
    out.append(("kaggle env.train", "random", *kaggle_rate("random", s, args.kaggle_steps)))
    out.append(("kaggle env.train", "negamax",
                *kaggle_rate("negamax", float("inf"), args.negamax_steps)))
    from pettingzoo.classic import connect_four_v3
    out.append(("PettingZoo connect_four_v3", "(both sides)",
                *pettingzoo_rate(connect_four_v3.env(), s, big)))
    out.append(("OpenSpiel connect_four", "(both sides)", *openspiel_rate(s, big)))
    from agents.envs import aec
    out.append(("agents.envs AEC", "(both sides)", *pettingzoo_rate(aec.env(), s, big)))
    for opponent in OPPONENTS:
        limit = args.perfect_steps if opponent == "perfect" else big
        out.append(("ConnectXEnv", opponent, *single_rate(opponent, s, limit)))
        boards = args.boards if opponent == "random" else \
            max(1, args.boards // 64) if opponent in SEARCHES else 4
        out.append((f"ConnectXVectorEnv x{boards}", opponent,
                    *vector_rate(opponent, boards, s, max(limit, boards))))
    return out


def table(measured):
    """The printed table: agent steps per CPU second (one core: everything runs in this
    process, numba on one thread) and per wall second, the ratios (CPU) to kaggle's
    wrapper against the same opponent (negamax for the searching opponents) and to
    PettingZoo's environment."""
    rate = {(label, opp): n / cpu for label, opp, n, cpu, _ in measured}
    base = {opp: r for (label, opp), r in rate.items() if label == "kaggle env.train"}
    pz = rate.get(("PettingZoo connect_four_v3", "(both sides)"))
    w = max(len(opp) for _, opp, *_ in measured) + 2
    lines = [f"{'environment':28}{'opponent':{w}}{'steps':>9}{'CPU s':>7}{'steps/CPU s':>13}"
             f"{'steps/s':>12}{'/ kaggle':>10}{'/ PettingZoo':>13}"]
    for label, opp, n, cpu, wall in measured:
        r = n / cpu
        k = base.get("random" if opp in ("random", "(both sides)") else "negamax")
        ratio_k = f"{r / k:9,.0f}x" if k else f"{'':10}"
        ratio_pz = f"{r / pz:12.1f}x" if pz else ""
        lines.append(f"{label:28}{opp:{w}}{n:9d}{cpu:7.2f}{r:13,.{int(r < 10)}f}"
                     f"{n / wall:12,.{int(n / wall < 10)}f}"
                     f"{ratio_k}{ratio_pz}")
    return "\n".join(lines)


def search_positions(count, seed=0, boards=64):
    """``count`` positions the depth-4 opponent met in the vector environment's games
    against a random learner (seeded): the :class:`agents.envs.boards.Boards` arrays of
    ``count`` boards, each waiting for that opponent's reply."""
    from agents.envs.boards import Boards
    b = Boards(boards, opponent=ALPHABETA, seat="random")
    b.seed(seed)
    fields = ("grid", "heights", "stones", "me")
    met = {f: [] for f in fields}
    reply = b.opponent.finish

    def finish(bs):  # the opponent's turn: keep what it sees, then let it play
        for i in np.flatnonzero(bs.pending):
            for f in fields:
                met[f].append(getattr(bs, f)[i].copy())
        reply(bs)
    b.opponent.finish = finish
    rng = np.random.default_rng(seed)
    b.reset()
    while len(met["me"]) < count:
        b.step(np.argmax(rng.random(b.mask.shape) + b.mask, axis=1))
    out = Boards(count, opponent="random")  # the arrays' shapes and kinds
    for f in fields:
        getattr(out, f)[:] = np.array(met[f][:count])
    return out


def search_times(specs, positions, rounds):
    """Each of ``specs`` (alpha-beta specs with a kernel form) replying on every board
    of ``positions`` (:func:`search_positions`) through the environments' reply loop:
    ``{spec: (CPU microseconds a move, the least of rounds; nodes a move; its columns)}``.
    The specs take turns within each round; every call starts from copies of the
    positions, made outside the time."""
    from agents.envs.opponents import REPLIES, Opponent
    from agents.search.alphabeta_bb import alphabeta_move
    from agents.search.scores import S_NODES
    n, cfg = len(positions.me), positions.cfg
    forms = {spec: Opponent(spec, cfg).form for spec in specs}
    best = np.zeros(cfg.columns, dtype=np.bool_)
    out = {}
    for spec, form in forms.items():  # nodes and columns, one move at a time
        stats, nodes, cols = form.args[14], 0, []
        for i in range(n):
            stats[:] = 0
            cols.append(alphabeta_move(positions.grid[i], positions.heights[i], *cfg,
                                       3 - int(positions.me[i]), best, *form.args))
            nodes += int(stats[S_NODES])
        out[spec] = [float("inf"), nodes / n, cols]
    state = ("grid", "heights", "stones", "me", "rngs")
    for _ in range(rounds):
        for spec, form in forms.items():
            head = [getattr(positions, f).copy() for f in state]
            done = np.zeros(n, dtype=np.int8)
            pending = np.ones(n, dtype=np.int8)
            tail = (positions.obs.copy(), positions.mask.copy(), positions.rewards.copy(),
                    positions._terminated.copy())
            c0 = time.process_time()
            REPLIES[form.move](*head[:3], positions.bits, *head[3:], done, pending, *cfg,
                               *form.args, *tail)
            out[spec][0] = min(out[spec][0], (time.process_time() - c0) / n * 1e6)
    return {spec: tuple(v) for spec, v in out.items()}


def search_table(times):
    """The printed table of :func:`search_times`: the first spec is the baseline."""
    (_, (base, _, base_cols)), w = next(iter(times.items())), max(map(len, times)) + 2
    lines = [f"{'opponent':{w}}{'us a move':>10}{'nodes a move':>14}{'/ default':>11}"
             f"{'same move':>11}"]
    for spec, (us, nodes, cols) in times.items():
        same = np.mean(np.array(cols) == np.array(base_cols))
        lines.append(f"{spec:{w}}{us:10.1f}{nodes:14.0f}{us / base:10.2f}x{same:11.1%}")
    return "\n".join(lines)


def search_main(args):
    """``--search``: warm the kernels up (compiling is not timed), then the table."""
    warm = search_positions(4, seed=1)
    search_times(SEARCH_SPECS, warm, 1)
    positions = search_positions(args.positions, seed=0)
    times = search_times(SEARCH_SPECS, positions, args.rounds)
    print(f"{args.positions} positions, CPU time of the reply loop, the least of "
          f"{args.rounds} rounds")
    print(search_table(times))


def alphabeta_score(spec, games):
    """The alpha-beta ``spec`` (as the environments' kernel form plays it: ``tt_bits=10``)
    against kaggle's ``negamax``: (wins, draws, losses)."""
    s = match(f"{spec},tt_bits={ALPHABETA_TT_BITS}", "negamax", games=games,
              progress=False).summary
    return s["wins"], s["draws"], s["losses"]


# duplicates: each benchmark has a command line of its own (connectx bench NAME), built
# the same way as the others from scripts.args.
def main(argv=None, prog="python -m scripts.bench.env"):
    p = ArgumentParser(prog=prog, description=__doc__.splitlines()[0])
    add_seconds_argument(p, 2.0, "time each environment for about this long")
    p.add_argument("--boards", type=positive_int_arg, default=4096,
                   help="boards of the vector environment against random (default 4096; "
                        "1/64 of it against alphabeta, 4 against perfect)")
    p.add_argument("--kaggle-steps", type=positive_int_arg, default=300,
                   help="at most this many steps of kaggle's wrapper against random")
    p.add_argument("--negamax-steps", type=positive_int_arg, default=100,
                   help="steps of kaggle's wrapper against negamax (default 100, whatever "
                        "--seconds: the baseline of the searching opponents' ratios)")
    p.add_argument("--perfect-steps", type=positive_int_arg, default=200,
                   help="at most this many steps against perfect")
    p.add_argument("--games", type=int, default=10,
                   help="games of each depth-4 alpha-beta against negamax (default 10; 0: none)")
    p.add_argument("--search", action="store_true",
                   help="time the depth-4 opponent's move alone instead: the default "
                        "alphabeta:depth=4 (the baseline) and the same without iterative "
                        "deepening, quiescence or both, on positions of these games")
    p.add_argument("--positions", type=positive_int_arg, default=1000,
                   help="with --search: positions to search (default 1000)")
    p.add_argument("--rounds", type=positive_int_arg, default=5,
                   help="with --search: rounds, the least time kept (default 5)")
    p.add_argument("--tiny", action="store_true",
                   help="a smoke run (the suite's): 0.01 s, a few steps and boards of each "
                        "(with --search: 20 positions, one round)")
    args = p.parse_args(argv)
    if args.tiny:
        args.seconds, args.boards, args.games = 0.01, 64, 0
        args.kaggle_steps = args.negamax_steps = args.perfect_steps = 2
        args.positions, args.rounds = 20, 1
    if args.games < 0:
        p.error("--games must be >= 0")
    if args.search:
        print(f"connectx bench env {' '.join(argv if argv is not None else sys.argv[1:])}")
        print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, load average "
              f"{os.getloadavg()[0]:.2f} at the start, {os.cpu_count()} cores")
        search_main(args)
        print(f"load average {os.getloadavg()[0]:.2f} at the end")
        return
    try:
        require("kaggle_environments", "connectx bench env (kaggle's env.train)")
    except ValueError as e:
        p.error(str(e))
    print(f"connectx bench env {' '.join(argv if argv is not None else sys.argv[1:])}".strip())
    print(f"{time.strftime('%Y-%m-%d %H:%M %Z')}, load average {os.getloadavg()[0]:.2f} "
          f"at the start, {os.cpu_count()} cores")
    measured = rows(args)
    print(table(measured))
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    for spec in SEARCHES if args.games else ():
        w, d, lost = alphabeta_score(spec, args.games)
        print(f"{spec},tt_bits={ALPHABETA_TT_BITS} (the environments' opponent) against "
              "kaggle's negamax: "
              f"W-D-L {w}-{d}-{lost} in {args.games} games, colours alternating")


if __name__ == "__main__":
    main()
