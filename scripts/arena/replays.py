"""kaggle's HTML replay of recorded games: one game (:func:`replay_env`,
:func:`write_replay`), or every game of a match or tournament (``--replays DIR``).

``DIR/game0000.html`` ... one file a game (kaggle-environments replays the recorded
moves, the opening's included, with its own rules checks) and ``DIR/index.html``, a
table linking them with agents by colour, opening, result and status.
"""
import html
import os

from scripts.arena.extras import require


def replay_env(result, cfg):
    """A kaggle-environments ``connectx`` env that has replayed one recorded game:
    its moves, then the failure if there was one (as kaggle's own status)."""
    from kaggle_environments import make
    from kaggle_environments.errors import DeadlineExceeded

    moves = list(result["moves"])

    def replayer(mark):
        def agent(obs, config):
            step = sum(1 for v in obs.board if v)
            if step < len(moves):
                return moves[step]
            status = result["statuses"][mark - 1]
            if status == "TIMEOUT":
                return DeadlineExceeded(result["error"])
            if status == "INVALID":
                return -1
            raise RuntimeError(result["error"] or "no recorded move")
        return agent

    env = make("connectx", configuration={"rows": cfg.rows, "columns": cfg.columns,
                                          "inarow": cfg.inarow, "actTimeout": cfg.actTimeout},
               debug=False)
    env.run([replayer(1), replayer(2)])
    return env


def write_replay(result, cfg, path):
    """kaggle-environments' HTML replay of one recorded game."""
    html = replay_env(result, cfg).render(mode="html")
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)


def check_replays(path):
    """``ValueError`` (one line) if replays cannot be written to directory ``path``:
    kaggle-environments is missing (the ``games`` extra) or ``path`` is a file."""
    require("kaggle_environments", "--replays")
    if os.path.exists(path) and not os.path.isdir(path):
        raise ValueError(f"--replays {path!r} exists and is not a directory")


def game_file(result):
    return f"game{result['index']:04d}.html"


def write_replays(results, cfg, path, title_agents):
    """One replay per game of ``results`` and ``index.html`` in directory ``path``;
    returns the index's path. ``title_agents``: the spec texts named in the title."""
    check_replays(path)
    os.makedirs(path, exist_ok=True)
    rows = []
    for r in sorted(results, key=lambda r: r["index"]):
        name = game_file(r)
        write_replay(r, cfg, os.path.join(path, name))
        status = ", ".join(f"{m + 1}: {s}" for m, s in enumerate(r["statuses"]) if s != "DONE")
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in (
            r["index"], r["agents"][0], r["agents"][1], r.get("opening") or "-", r["result"],
            len(r["moves"]), status or "DONE")) + f'<td><a href="{name}">replay</a></td></tr>')
    title = html.escape(" vs ".join(title_agents))
    page = (f"<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>{title}</title>"
            "<style>td,th{padding:2px 8px;text-align:left}</style></head><body>"
            f"<h1>{title}</h1><p>{len(rows)} games, {cfg.columns}x{cfg.rows}, {cfg.inarow} in "
            "a row. Opening: 1-based columns played before the agents move. Result: mark 1 "
            "(first) - mark 2.</p><table><tr><th>game</th><th>mark 1</th><th>mark 2</th>"
            "<th>opening</th><th>result</th><th>moves</th><th>status</th><th></th></tr>\n"
            + "\n".join(rows) + "\n</table></body></html>\n")
    index = os.path.join(path, "index.html")
    with open(index, "w", encoding="utf-8") as f:
        f.write(page)
    return index
