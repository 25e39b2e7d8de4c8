"""``connectx serve`` (``scripts.server``): agents' moves and failures, the search slots,
the replay of a real match file, a bounded load test.

The server (``tests/conftest.py``'s ``server``) runs in this process on a free loopback
port (``port=0``)."""
import threading
import time

import numpy as np
import pytest

import agents
from agents.players.base import Agent
from agents.board.rules import legal_moves, winner
from conftest import api_call, board_after, match_doc
from scripts.server import app as serve
from scripts.server import game as serve_game


# ---------------------------------------------------------------------------
# Agents: moves, failures, the search slots
# ---------------------------------------------------------------------------


def test_agent_moves_follow_the_rules(server):
    cfg = {"rows": 5, "columns": 6, "inarow": 4}
    for spec in ("alphabeta:depth=4", "rules", "mcts:iterations=200,seed=1", "random:seed=3"):
        status, reply = api_call(server, "/api/move", {"config": cfg, "moves": [2, 2], "agent": spec})
        assert status == 200, reply
        assert reply["column"] in legal_moves(board_after([2, 2], cfg), cfg)
        assert reply["state"]["moves"] == [2, 2, reply["column"]]
        assert reply["state"]["board"] == board_after([2, 2, reply["column"]], cfg)
        assert reply["time"] >= 0 and reply["agent"] == spec


def test_agent_takes_the_win_and_blocks(server):
    """Mark 1 to move with three in the bottom row (columns 0-2): alphabeta wins at 3.

        . . . . . . .
        2 2 2 . . . .
        1 1 1 . . . .
    """
    status, reply = api_call(server, "/api/move", {"moves": [0, 0, 1, 1, 2, 2],
                                               "agent": "alphabeta:depth=2"})
    assert status == 200 and reply["column"] == 3
    assert reply["state"]["winner"] == 1 and reply["state"]["over"]


class BrokenAgent(Agent):
    """Raises, or returns a full column, or a numpy int (kaggle rejects those)."""

    name = "broken"
    OPTIONS = {"mode": (str, "raise")}

    def __call__(self, obs, config):
        if self.mode == "raise":
            raise RuntimeError("kaboom")
        return 3 if self.mode == "full" else np.int64(0)


@pytest.mark.parametrize("mode,words", [("raise", "failed: RuntimeError: kaboom"),
                                        ("full", "invalid column 3 (int)"),
                                        ("numpy", "(int64)")])
def test_failing_agent_is_500_with_a_message_and_the_server_goes_on(server, monkeypatch,
                                                                     mode, words):
    monkeypatch.setitem(agents.AGENTS, "broken", f"{__name__}:BrokenAgent")
    status, reply = api_call(server, "/api/move", {"moves": "444444", "agent": f"broken:mode={mode}"})
    assert status == 500 and words in reply["error"], reply
    assert api_call(server, "/api/move", {"moves": "4", "agent": "random"})[0] == 200


def test_busy_slots_answer_503(server, monkeypatch):
    monkeypatch.setattr(serve, "QUEUE_WAIT", 0.05)
    app = server.app
    held = [app.workers.slots.acquire(timeout=10) for _ in range(app.searches)]
    try:
        assert all(held)
        for path, extra in (("/api/move", {"agent": "random"}), ("/api/analyze", {})):
            status, reply = api_call(server, path, {"moves": "4", **extra})
            assert status == 503 and "busy" in reply["error"]
        assert api_call(server, "/api/state", {"moves": "4"})[0] == 200  # no slot needed
    finally:
        for _ in held:
            app.workers.slots.release()
    assert api_call(server, "/api/move", {"moves": "4", "agent": "random"})[0] == 200


# ---------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------


def test_replay_gives_every_board_and_move_time(server, tmp_path):
    doc = match_doc(tmp_path, games=2)
    cfg = doc["config"]
    for i, game in enumerate(doc["games"]):
        status, reply = api_call(server, "/api/replay", {"match": doc, "game": i})
        assert status == 200
        assert [g["moves"] for g in reply["games"]] == [len(g["moves"]) for g in doc["games"]]
        r = reply["game"]
        assert r["moves"] == game["moves"] and r["agents"] == game["agents"]
        assert len(r["frames"]) == len(game["moves"]) + 1
        for k in range(len(game["moves"]) + 1):
            assert r["frames"][k] == board_after(game["moves"][:k], cfg)
        n = len(game["opening"])  # the opening's moves (a balanced suite on 7x6) have no time
        assert r["times"][:n] == [None] * n
        assert r["times"][n:] == [game["times"][(n + k) % 2][k // 2]
                                  for k in range(len(game["moves"]) - n)]
        assert winner(r["frames"][-1], cfg) == game["winner"]


# ---------------------------------------------------------------------------
# Load (loopback only; latency is printed, not asserted)
# ---------------------------------------------------------------------------


def test_load_200_requests_from_8_clients(server):
    rng = np.random.default_rng(17)
    bodies = []
    for _ in range(200):
        moves = []
        for _ in range(int(rng.integers(0, 12))):
            legal = serve_game.game_state(serve_game.parse_game_config({}), moves)["legal"]
            if not legal:
                break
            moves.append(int(rng.choice(legal)))
        bodies.append(moves)
    latencies, failures = [], []
    lock = threading.Lock()

    def client(mine):
        for moves in mine:
            t0 = time.perf_counter()
            status, reply = api_call(server, "/api/state", {"moves": moves})
            dt = time.perf_counter() - t0
            with lock:
                latencies.append(dt)
                if status != 200 or reply["moves"] != moves:
                    failures.append((status, reply))

    threads = [threading.Thread(target=client, args=(bodies[i::8],)) for i in range(8)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    assert not failures and len(latencies) == 200
    p50, p95, p99 = (1000 * np.percentile(latencies, q) for q in (50, 95, 99))
    print(f"\nload: 200 POST /api/state from 8 clients in {wall:.2f} s "
          f"({200 / wall:.0f} req/s); latency p50 {p50:.1f} ms, p95 {p95:.1f} ms, "
          f"p99 {p99:.1f} ms")
