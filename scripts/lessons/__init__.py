"""The lessons' scripts: the seed material's experiments re-run by the package
(``connectx lessons``, whose command line is :mod:`scripts.commands.lessons`), the
lessons' games in the terminal (:mod:`scripts.lessons.terminal`, for ``connectx play
--game``) and the older one-lesson scripts (:mod:`scripts.lessons.coin_game`,
:mod:`scripts.lessons.tictactoe_match`, :mod:`scripts.lessons.seed_experiments`).

Each :class:`Experiment` names its source as the source names itself (the book's chapter 4
and chapter 5 by their titles, the Kaggle Learn tutorial, the lesson, the article: the
constants below),
what it measures, and a ``run(quick, seed, progress)`` returning a list of :class:`Row`: a
figure, what the material reports (or why it gives no number), what the package
measures now, and whether they agree. ``quick`` shrinks every size so that the
tests can run each experiment in a second or two; the full sizes take from under a
second to about 40 s each on the team's 2-core machine when it is quiet (horizon-effect
the longest; about two minutes under load). Everything is seeded.

    connectx lessons                 list the experiments
    connectx lessons NAME [NAME ...] run them (``all``: every one, in the tour's order)
        [--quick] [--seed 0]

Each experiment prints its rows: what is measured, what the material reports ("-"
when it gives no number), what the package measures now, and the verdict, then the
command that reproduces it and the time it took. Seeded: the same seed prints the
same figures. ``--quick`` runs every experiment at tiny sizes (what the tests run).
docs/lessons.md is the guided tour with this round's figures.
"""
import textwrap

from scripts.lessons.rows import Experiment


# The seed material, each work as it names itself; the book's chapters by number and
# title (tests/test_lesson_sources.py holds the titles as the material writes them).
BOOK4 = 'the book, chapter 4 "Recursion and MiniMax Tree Search"'  # the 21-coin game
BOOK5 = 'the book, chapter 5 "Depth Pruning in Minimax"'  # tic-tac-toe, then Connect Four
TUTORIAL = 'the Kaggle Learn tutorial "N-step lookahead"'
LESSON = 'the lesson "Adversarial Search"'
ARTICLE = ('the article "An AI agent plays tic-tac-toe (part 1): building the opponent to '
           'play against"')


def experiments():
    """Every experiment, in the order of the tour (docs/lessons.md): name, source,
    title, the function that runs it."""
    from scripts.lessons import (adversarial, branching, chapters, horizon_effect, pruning,
                                 sampling)
    return [Experiment(*row) for row in [
        ("mini-isolation", LESSON, "mini-Isolation 3x2: the lesson's checks and the values of "
         "the five openings", adversarial.mini),
        ("isolation-search", LESSON, "5x5 Isolation: minimax against alpha-beta, iterative "
         "deepening, symmetries", adversarial.search5),
        ("textbook-trees", ARTICLE, "a small tree backed up by minimax, and the "
         "leaves alpha-beta never reads", pruning.trees),
        ("search-windows", LESSON, "aspiration, null windows, SSS* (MT form) and the "
         "package's MTD(f) against alpha-beta, by nodes", pruning.windows),
        ("branching-factor", LESSON, "Connect Four: the effective branching factor per "
         "depth of minimax, alpha-beta and each ordering option, and a depth limit "
         "chosen from it", branching.experiment),
        ("horizon-effect", LESSON, "Connect Four: a threat beyond the horizon, two "
         "quiescence searches and two more plies, judged by the exact value",
         horizon_effect.horizon),
        ("isolation-evaluations", LESSON, "5x5 Isolation: my_moves - opponent_moves against "
         "my_moves", adversarial.evaluations),
        ("isolation-3-players", LESSON + " (Korf 1991)", "3-player Isolation: max^n, shallow "
         "pruning and paranoid", adversarial.multiplayer),
        ("isolation-sloppy", LESSON, "sloppy Isolation: expectimax against minimax that "
         "ignores chance", adversarial.sloppy),
        ("rollout-book", LESSON, "mini-Isolation: the lesson's opening book from random "
         "rollouts, judged by exact values and played as a book", sampling.book_experiment),
        ("mcts-uniform-vs-uct", LESSON, "MCTS with a uniform tree policy against UCT: how "
         "fast each converges to the minimax value", sampling.uct_experiment),
        ("tictactoe-think", BOOK5, "tic-tac-toe: think-1, think-2, think-3 against minimax, "
         "and the chapter's 10-game test", chapters.think),
        ("tictactoe-depth", BOOK5, "tic-tac-toe: the full minimax against the book's "
         "depth-limited one, move by move, timed; then Connect Four's depth-limited moves, "
         "timed", chapters.depth_limited),
        ("tictactoe-solved", ARTICLE, "tic-tac-toe solved by minimax and "
         "alpha-beta", chapters.solved),
        ("coin-game", BOOK4, "the coin game: 21 coins, take 1 or 2, the last coin "
         "wins", chapters.coins),
        ("coin-game-times", BOOK4, "the coin game: minimax timed at each of its moves of "
         "the book's game", chapters.coin_times),
        ("connect4-think3", BOOK5, "Connect Four: depth-3 minimax against the think-3 player",
         chapters.connect4_think),
        ("tutorial-lookahead", TUTORIAL, "the tutorial's depth-3 "
         "minimax: its columns, and against random", chapters.tutorial),
    ]]


def by_name():
    return {e.name: e for e in experiments()}


def listing(experiments):
    width = max(len(e.name) for e in experiments)
    lines = [f"{e.name.ljust(width)}  {e.title} ({e.source})" for e in experiments]
    return "\n".join(lines + ["", "run one with 'connectx lessons NAME', every one with "
                              "'connectx lessons all'"])


def format_rows(rows):
    out = []
    for r in rows:
        out.append(textwrap.fill(r.figure, 96, initial_indent="  - ",
                                 subsequent_indent="    "))
        line = f"material: {r.material}  |  package: {r.ours}"
        if r.verdict:
            line += f"  |  {r.verdict}"
        out.append(textwrap.fill(line, 96, initial_indent="      ",
                                 subsequent_indent="        "))
    return "\n".join(out)
