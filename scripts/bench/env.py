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

The baseline against ``negamax`` plays ``--negamax-steps`` steps whatever ``--seconds``
(about 10 CPU seconds): its cost a step varies with the game's phase several times over,
and 15-20 steps (what 2 seconds gave) moved the ratios by half between runs.
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
    p.add_argument("--tiny", action="store_true",
                   help="a smoke run (the suite's): 0.01 s, a few steps and boards of each")
    args = p.parse_args(argv)
    if args.tiny:
        args.seconds, args.boards, args.games = 0.01, 64, 0
        args.kaggle_steps = args.negamax_steps = args.perfect_steps = 2
    if args.games < 0:
        p.error("--games must be >= 0")
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
