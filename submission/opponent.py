"""A package agent playing in a process of its own, for :mod:`submission.validate`.

    python -m submission.opponent SPEC

``SPEC`` is a registry agent with options (``alphabeta``, ``mcts:iterations=2000``,
the same ``name[:key=value,...]`` form as the match scripts). The process builds
the agent, plays one warm-up move on the empty board (numba compiles before the
game, as it would for an opponent loaded long before), prints ``READY``, then
answers one JSON line per move on stdin::

    {"obs": {...}, "config": {...}}   ->   {"action": 3}   or   {"error": "..."}

A submission file under test runs in its own process (``python -I``: it can only
use what it embeds), so the file's embedded modules never meet the package's,
and each side has a core's worth of its own process, as on Kaggle.
"""
import json
import sys


def serve(spec, stdin=sys.stdin, stdout=sys.stdout):
    import agents
    from agents.options import split_spec
    name, options = split_spec(spec)
    player = agents.make(name, **options)
    config = {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2.0}
    player({"board": [0] * 42, "mark": 1, "remainingOverageTime": 60.0}, config)
    if hasattr(player, "reset_opponent_model"):
        player.reset_opponent_model()
    stdout.write("READY\n")
    stdout.flush()
    for line in stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        try:
            reply = {"action": int(player(msg["obs"], msg["config"]))}
        except Exception as exc:  # noqa: BLE001 - the episode reports it as the agent's error
            reply = {"error": f"{type(exc).__name__}: {exc}"}
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


if __name__ == "__main__":
    # the process validate starts (its entry point, not a command: connectx validate is)
    if sys.argv[1:] in (["-h"], ["--help"]):
        print("usage: python -m submission.opponent SPEC (a package agent answering one JSON "
              "move a line; connectx validate starts it)")
        sys.exit(0)
    if len(sys.argv) != 2:
        print("usage: python -m submission.opponent SPEC", file=sys.stderr)
        sys.exit(2)
    try:
        serve(sys.argv[1])
    except ValueError as exc:
        print(f"opponent: {exc}", file=sys.stderr)
        sys.exit(2)
