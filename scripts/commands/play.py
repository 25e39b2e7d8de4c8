"""Play against an agent in the terminal: ``python -m scripts.commands.play AGENT [--second]``.

The board is drawn after every move with the columns numbered from 1; type a
column number and Enter (``q`` quits). Anything else -- a word, a number off the
board, a full column -- is explained and asked again. You are X (mark 1, moving
first) unless ``--second``. AGENT is a spec as in :mod:`scripts.arena.specs`. Also
``connectx play AGENT``. ``--game tictactoe|coins|isolation`` plays the lessons' other
games instead (:mod:`scripts.lessons.terminal`).
"""
import sys

import numpy as np

from scripts.arena.games import play_out
from scripts.arena.loading import build_agent, warm_up
from scripts.arena.specs import parse_match_config, parse_spec
from scripts.args import ArgumentParser, SPEC_HELP, add_config_argument, add_seed_argument
from scripts.lessons.terminal import Quit

SYMBOLS = {0: ".", 1: "X", 2: "O"}


def render(grid, cfg):
    """The board as text, row 0 at the top, columns numbered from 1 under it."""
    width = max(2, len(str(cfg.columns)) + 1)
    lines = []
    for r in range(cfg.rows):
        cells = grid[r * cfg.columns:(r + 1) * cfg.columns]
        lines.append("|" + "".join(SYMBOLS[int(v)].rjust(width) for v in cells) + " |")
    lines.append("+" + "-" * (width * cfg.columns + 1) + "+")
    lines.append(" " + "".join(str(c + 1).rjust(width) for c in range(cfg.columns)))
    return "\n".join(lines)


def read_column(heights, cfg, ask=input, say=print):
    """The human's column (0-based), asking again until it is legal; None to quit."""
    while True:
        try:
            text = ask(f"your move (1-{cfg.columns}, q to quit): ").strip()
        except EOFError:
            return None
        if text.lower() in ("q", "quit", "exit"):
            return None
        try:
            col = int(text) - 1
        except ValueError:
            say(f"{text!r} is not a column number; type a number from 1 to {cfg.columns}")
            continue
        if not 0 <= col < cfg.columns:
            say(f"there is no column {text}; type a number from 1 to {cfg.columns}")
        elif heights[col] >= cfg.rows:
            say(f"column {col + 1} is full; choose another")
        else:
            return col


def play(spec, cfg, human_mark=1, seed=0, ask=input, say=print):
    """One game, human against ``spec``, in the one game loop (untimed); returns 1 / 2
    (winning mark), 0 (draw) or None (the human quit)."""
    warm_up(spec, cfg)
    agent = build_agent(spec, seed)

    def human(obs, config):
        col = read_column(heights, cfg, ask, say)
        if col is None:
            raise Quit
        return col

    def shown(mark, col, grid):
        if mark != human_mark:
            say(f"{spec.text} plays column {col + 1}")
        say(render(grid, cfg))

    grid = np.zeros(cfg.rows * cfg.columns, dtype=np.int8)
    heights = np.zeros(cfg.columns, dtype=np.int64)
    say(f"you are {SYMBOLS[human_mark]}, {spec.text} is {SYMBOLS[3 - human_mark]}; "
        f"{cfg.inarow} in a row wins")
    say(render(grid, cfg))
    players = (human, agent) if human_mark == 1 else (agent, human)
    try:
        out = play_out(players, cfg, grid, heights, timed=False, on_move=shown)
    except Quit:
        say("game abandoned")
        return None
    status = out.statuses[2 - human_mark]
    if status == "ERROR":
        say(f"{spec.text} failed ({out.error}): you win")
    elif status == "INVALID":
        say(f"{spec.text} played an invalid column {out.action!r}: you win")
    elif out.winner:
        say("you win!" if out.winner == human_mark else f"{spec.text} wins")
    else:
        say("draw: the board is full")
    return out.winner


def main(argv=None, prog="python -m scripts.commands.play"):
    p = ArgumentParser(prog=prog, description="Play against an agent in the terminal: type a "
                       "column number (1 = leftmost) and Enter, q to quit.")
    p.add_argument("agent", metavar="AGENT", help="your opponent; " + SPEC_HELP + "; with "
                   "--game: tictactoe minimax|think1|think2|think3|random, coins "
                   "minimax|rules|random, isolation alphabeta[:depth=N]|random")
    p.add_argument("--second", action="store_true",
                   help="let the agent move first (you are O, mark 2)")
    p.add_argument("--game", default="connectx",
                   choices=("connectx", "tictactoe", "coins", "isolation"),
                   help="the game (default connectx); the lessons' games are drawn with "
                   "their cells numbered")
    p.add_argument("--board", default=None,
                   help="isolation's board: 5x5 (default) or mini (the lesson's 3x2)")
    add_config_argument(p)
    add_seed_argument(p, "the agent")
    args = p.parse_args(argv)
    if args.game != "connectx":
        from scripts.lessons.terminal import play as play_lesson, terminal
        if args.config is not None:
            p.error(f"--config is for connectx; {args.game} has its own board")
        if args.board is not None and args.game != "isolation":
            p.error("--board is for isolation")
        try:
            term = terminal(args.game, args.board)
            agent = term.agent(args.agent, args.seed)
        except ValueError as e:
            p.error(str(e))
        play_lesson(term, agent, args.agent, args.second)
        return 0
    if args.board is not None:
        p.error("--board is for isolation")
    try:
        cfg = parse_match_config(args.config)
        spec = parse_spec(args.agent)
    except ValueError as e:
        p.error(str(e))
    play(spec, cfg, 2 if args.second else 1, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
