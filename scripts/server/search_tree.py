"""The search of a real Connect Four position drawn, each node's exact value beside the
value the depth-limited search gives it: :func:`position_tree` (the page's ``/api/tree``,
``connectx lessons tree MOVES`` and the notebooks call it); and a textbook tree typed as
nested lists (:func:`textbook_tree`). Both return a :class:`Picture`: the recorded
search (:func:`agents.games.pictures.trace`) and how to print its values.

The search is the lessons' reference alpha-beta (or minimax) on
:class:`agents.search.reference.ConnectX`, MAX the side to move, a heuristic of
:mod:`heuristics` at the horizon and ``+-(2**40 - stones)`` at a finished game (printed
``+win``/``-win``). The exact values are the solver's scores (Pascal Pons' scale: ``+n``
wins with ``n`` stones of the winner's own still to spare, 0 a draw), from MAX's side:
one :meth:`agents.solver.solver.Solver.analyze` a visited inner node gives its children
theirs; the root takes the best of its children's. Solving an early position without the
opening database takes many seconds, so the exact values stop where ``exact_time`` runs
out (the nodes left show none).
"""
import ast
import time
from dataclasses import dataclass

from agents.games.pictures import MAX, fmt_value, svg, text, trace, walk
from agents.games.trees import GameTree, depth_of
from scripts.server.game import clip

MAX_DEPTH = 4            # deeper trees of a 7-column board are too wide to draw
EXACT_TIME = 10.0        # seconds for the exact values of one picture
# nodes of a textbook tree the page's server draws (a lesson's tree has tens; 300
# leaves of three took 0.09 s to search and draw, 4000 of two 0.5 s and 3 MB of SVG)
MAX_TREE_NODES = 1000


@dataclass
class Picture:
    root: object          # the recorded search (agents.games.pictures.RecordedNode)
    title: str
    label: object = None  # label(action) -> the edge's text, or None
    value: object = fmt_value
    exact: object = None  # exact(v) -> text, or None when no node has an exact value

    def text(self, windows=True):
        return text(self.root, windows, self.label, self.value, self.exact)

    def svg(self, windows=True):
        return svg(self.root, windows, self.label, self.value, self.exact, self.title)


def textbook_tree(nodes, prune=True, max_nodes=None):
    """A textbook tree typed as nested lists (a string such as ``"[[3, 5], [2, 9]]"`` or
    the lists themselves), searched to its leaves; ``ValueError`` names what is wrong,
    or says that the tree has more than ``max_nodes`` nodes (when given)."""
    if isinstance(nodes, str):
        if max_nodes is not None and len(nodes) > 20 * max_nodes:
            raise ValueError(f"a tree typed in {len(nodes)} characters; at most "
                             f"{20 * max_nodes} here")
        try:
            nodes = ast.literal_eval(nodes)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            raise ValueError(f"not a tree of nested lists: {clip(nodes)}") from None
    if not isinstance(nodes, (list, tuple)):
        raise ValueError(f"a tree is a list of children, not {clip(nodes)}")
    if max_nodes is not None and _count_nodes(nodes, max_nodes) > max_nodes:
        raise ValueError(f"a tree of more than {max_nodes} nodes; at most {max_nodes} here")
    tree = GameTree(nodes)
    root = trace(tree, (), depth_of(tree), prune=prune)
    return Picture(root, f"{'alpha-beta' if prune else 'minimax'}: {nodes}")


def _count_nodes(nodes, limit):
    """The nodes of nested lists (the lists and what they hold), counted without
    recursion up to a little over ``limit``."""
    count, stack = 0, [nodes]
    while stack and count <= limit:
        node = stack.pop()
        count += 1
        if isinstance(node, (list, tuple)):
            stack.extend(node[:limit + 1])
    return count


def position_tree(moves, depth=2, config=(6, 7, 4), heuristic="threats", prune=True,
                  exact=True, exact_time=EXACT_TIME, solver=None):
    """The search of the position after ``moves`` (1-based column digits, as
    ``connectx solve`` takes them) to ``depth`` plies (1 to :data:`MAX_DEPTH`) on the
    board ``config`` (rows, columns, inarow); ``exact``: the solver's values beside
    (``solver``: one to reuse, else a new one with the installed opening database).
    ``ValueError`` for a bad depth, heuristic or move string, or a finished game."""
    from agents.board.rules_reference import board_from_moves
    from agents.search.reference import WIN, ConnectX, flat_heuristic
    rows, columns, inarow = config
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an integer from 1 to {MAX_DEPTH}, not {depth!r}")
    if columns > 9:
        raise ValueError(f"the pictures take boards of at most 9 columns, not {columns}")
    if any(not ch.isdigit() or not 1 <= int(ch) <= columns for ch in moves):
        raise ValueError(f"moves must be column digits 1-{columns}, not {moves!r}")
    game = ConnectX(rows, columns, inarow, heuristic=flat_heuristic(heuristic, *config))
    state = (tuple(board_from_moves(moves, rows, columns)), 1 + len(moves) % 2)
    if game.is_terminal(state):
        raise ValueError(f"the game after {moves!r} is over")
    root = trace(game, state, depth, prune=prune, reveal=False)
    found = exact and _exact_values(root, moves, config, solver, exact_time)

    def value(v):
        if v is not None and abs(v) >= WIN // 2:
            return "+win" if v > 0 else "-win"
        return fmt_value(v)

    return Picture(root, f"{'alpha-beta' if prune else 'minimax'} to depth {depth} after "
                   f"{moves or 'no move'} ({heuristic} at the horizon)",
                   label=lambda c: str(c + 1), value=value,
                   exact=(lambda v: f"{v:+d}") if found else None)


def _exact_values(root, moves, config, solver, seconds):
    """Fill ``node.exact`` (MAX's side) from one ``analyze`` a visited inner node, until
    ``seconds`` run out; True if any value was found."""
    if solver is None:  # compiled before the clock starts (tens of seconds, once)
        from agents.solver.database import attach
        from agents.solver.solver import Solver, warm_up
        solver = Solver(*config)
        attach(solver, tuple(config) == (6, 7, 4))
        warm_up(solver)
    deadline = time.perf_counter() + seconds
    for node in walk(root):
        if not node.visited or node.kind != "inner":
            continue
        line = moves + "".join(str(c + 1) for c in _actions(root, node.path))
        scores = solver.analyze(line, deadline=deadline)
        if scores is None:
            break
        for child in node.children:
            child.exact = scores[child.action] * (1 if node.side == MAX else -1)
    if root.children and all(c.exact is not None for c in root.children):
        root.exact = max(c.exact for c in root.children)
    return root.exact is not None or any(n.exact is not None for n in walk(root))


def _actions(root, path):
    node, out = root, []
    for i in path:
        node = node.children[i]
        out.append(node.action)
    return out


def tree_request(app, request):
    """The page's ``/api/tree``: ``{"svg", "text", "pv"}`` of a textbook tree
    (``tree``: nested lists as text) or of the position after ``moves`` (with
    ``config``, ``depth`` (default 2) and ``heuristic`` (default ``threats``)) searched
    by alpha-beta (``prune``, default true) or minimax, the exact values from the app's
    pooled solver. ``BadRequest`` names a bad field."""
    from scripts.server.game import BadRequest, parse_game
    prune = request.get("prune", True)
    if not isinstance(prune, bool):
        raise BadRequest(f"prune must be true or false, not {prune!r}")
    try:
        if request.get("tree"):
            picture = textbook_tree(request["tree"], prune, MAX_TREE_NODES)
        else:
            cfg, moves = parse_game(request)
            line = "".join(str(c + 1) for c in moves)
            with app.slot(), app.solver(cfg) as solver:
                picture = position_tree(line, request.get("depth", 2), tuple(cfg),
                                        request.get("heuristic", "threats"), prune,
                                        solver=solver, exact_time=app.analysis_time)
                solver.reset()
    except ValueError as e:
        raise BadRequest(str(e)) from None
    from agents.games.pictures import principal_variation
    return {"svg": picture.svg(), "text": picture.text(), "title": picture.title,
            "pv": [str(picture.label(a) if picture.label else a)
                   for a in principal_variation(picture.root)]}
