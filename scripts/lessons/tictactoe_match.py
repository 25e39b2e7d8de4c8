"""The perfect tic-tac-toe agent in kaggle-environments' ``open_spiel_tic_tac_toe``.

    connectx lessons tictactoe [--games 100] [--seed 0] [--opponent random|minimax|both]

(its command line: :mod:`scripts.commands.lessons`) plays ``--games`` games against
each opponent in each colour (x moves first) and prints wins/draws/losses for the agent,
the env's final statuses, and the agent's per-move time, measured around the call in
wall-clock and in CPU time (on a loaded machine the wall-clock maximum is the
scheduler's, not the agent's; the env's own ``timeTaken`` is rounded to milliseconds).
Exits with status 1 if the agent loses a game, a status is not DONE, or a game did not
reach a terminal position.

Opponents: the env's built-in ``random`` agent (it needs ``includeLegalActions``,
otherwise it submits nothing and forfeits), and :class:`agents.games.tictactoe.
ReferencePlayer`: the plain reference minimax searched to the end of the game, random
among its best cells. Games run with ``strictMode`` so that an action other than
``{"submission": int}`` or an illegal cell counts against the player who made it.
"""
import random
import sys
import time
from dataclasses import dataclass, field

ENV_NAME = "open_spiel_tic_tac_toe"
CONFIGURATION = {"includeLegalActions": True, "strictMode": True}


@dataclass
class GameRecord:
    player: int            # the agent's OpenSpiel player: 0 = x (first), 1 = o
    result: int            # +1 win, 0 draw, -1 loss, for the agent
    statuses: tuple        # final kaggle statuses, (player 0, player 1)
    terminal: bool         # the OpenSpiel state is terminal (not ended by a forfeit)
    moves: list            # cells played, in order
    times: list = field(default_factory=list)      # agent's seconds per move, wall clock
    cpu_times: list = field(default_factory=list)  # the same moves in process CPU seconds
    env_times: list = field(default_factory=list)  # the env's timeTaken for the agent


def make_env():
    """The env, or ``ValueError`` if this kaggle-environments has no such env."""
    from kaggle_environments import make
    try:
        return make(ENV_NAME, configuration=dict(CONFIGURATION))
    except Exception as exc:  # kaggle raises InvalidArgument for unknown envs
        raise ValueError(f"kaggle-environments cannot make {ENV_NAME!r} ({exc}); "
                         f"it needs a release with the OpenSpiel envs (1.33.2 has it)") from exc


def play_game(agent, opponent, player, seed=None):
    """One game, ``agent`` as OpenSpiel ``player`` (0 = x, 1 = o) against ``opponent``
    (a callable or the env's agent name such as ``"random"``). ``seed`` seeds Python's
    global ``random``, which the env's random agent draws from."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 (x) or 1 (o), got {player!r}")
    saved = random.getstate()
    if seed is not None:
        random.seed(seed)
    try:
        return _play(agent, opponent, player)
    finally:
        random.setstate(saved)  # leave the caller's global random as it was


def _play(agent, opponent, player):
    env = make_env()
    times, cpu_times = [], []

    def timed(obs, config):
        start, cpu = time.perf_counter(), time.process_time()
        action = agent(obs, config)
        if obs.get("observationString") is not None:  # not the env's step-0 call
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu)
        return action

    steps = env.run([timed, opponent] if player == 0 else [opponent, timed])
    last = steps[-1]
    reward = last[player]["reward"]
    moves, env_times = [], []
    for step in steps[1:]:
        for p in (0, 1):
            info = step[p].get("info") or {}
            if info.get("actionApplied") is not None:
                moves.append(info["actionApplied"])
                if p == player:
                    env_times.append(info.get("timeTaken"))
    return GameRecord(player=player,
                      result=0 if not reward else (1 if reward > 0 else -1),
                      statuses=(last[0]["status"], last[1]["status"]),
                      terminal=bool(last[player]["observation"].get("isTerminal")),
                      moves=moves, times=times, cpu_times=cpu_times, env_times=env_times)


def is_clean(record):
    """The agent did not lose, both statuses are DONE and the game reached its end."""
    return record.result >= 0 and record.statuses == ("DONE", "DONE") and record.terminal


def summary(records):
    """One line: W-D-L, statuses, terminal count, agent's per-move time."""
    wins = sum(r.result == 1 for r in records)
    draws = sum(r.result == 0 for r in records)
    losses = sum(r.result == -1 for r in records)
    statuses = {}
    for r in records:
        for s in r.statuses:
            statuses[s] = statuses.get(s, 0) + 1
    times = [t for r in records for t in r.times]
    cpu_worst = 1e3 * max((t for r in records for t in r.cpu_times), default=float("nan"))
    env_times = [t for r in records for t in r.env_times if t is not None]
    mean = 1e3 * sum(times) / len(times) if times else float("nan")
    median = 1e3 * sorted(times)[len(times) // 2] if times else float("nan")
    worst = 1e3 * max(times) if times else float("nan")
    env_worst = 1e3 * max(env_times) if env_times else float("nan")
    status_text = ", ".join(f"{k} x{v}" for k, v in sorted(statuses.items()))
    return (f"W-D-L {wins}-{draws}-{losses}  statuses: {status_text}  "
            f"terminal {sum(r.terminal for r in records)}/{len(records)}  "
            f"move time: median {median:.3f} ms, mean {mean:.3f} ms, max {worst:.3f} ms "
            f"over {len(times)} moves (max CPU {cpu_worst:.3f} ms; "
            f"env timeTaken max {env_worst:.0f} ms)")


if __name__ == "__main__":
    # the library, not a command: say which command runs it
    print("scripts.lessons.tictactoe_match is a library: run `connectx lessons tictactoe` "
          "(python -m scripts.commands.lessons tictactoe)", file=sys.stderr)
    sys.exit(2)
