"""Pictures of a search: the tree a minimax or alpha-beta search walks, recorded node by
node (:func:`trace`), drawn as text for the terminal (:func:`text`) and as an SVG for
the browser page and the notebooks (:func:`svg`).

A recorded node holds what a textbook draws beside it: the side to move (MAX, the
searching ``player``, or MIN), the alpha-beta window ``[alpha, beta]`` it was entered
with and the value it backed up, both from MAX's side (not negamax: the pictures are the
textbooks' max/min trees), whether the search visited it at all, and whether it lies on
the principal variation. A value outside its entry window is a bound, drawn ``<=v``
(failed low) or ``>=v`` (failed high). The children a cut-off skips are kept, unvisited:
drawn grey; with ``reveal`` their subtrees are searched afterwards by plain minimax so the
picture can show what the search never read (an explicit textbook tree), otherwise they
stay stubs (a Connect Four position, where they would be thousands). ``exact`` is left
for the caller to fill (the Connect Four picture puts the solver's value there).

The search recorded is :func:`agents.games.protocol.alphabeta_value` (or, with
``prune=False``, :func:`agents.games.protocol.minimax_value`) step for step: the same
value, the same leaves read, in the game's action order. ::

    >>> from agents.games.trees import GameTree
    >>> root = trace(GameTree([[3, 5], [2, 9]]), (), 2)
    >>> root.value, [n.path for n in walk(root) if not n.visited]
    (3, [(1, 1)])
"""
import html
import math

from agents.games.protocol import leaf_value, minimax_value

MAX, MIN = "max", "min"
INFINITY = math.inf


class RecordedNode:
    """One node of a recorded search (see the module's docstring for each field)."""

    __slots__ = ("path", "state", "action", "side", "alpha", "beta", "value", "kind",
                 "visited", "pv", "exact", "children")

    def __init__(self, path, state, action, side):
        self.path, self.state, self.action, self.side = path, state, action, side
        self.alpha = self.beta = self.value = self.exact = None
        self.kind = "inner"   # "inner", "terminal" or "horizon" (the depth limit)
        self.visited = self.pv = False
        self.children = []

    @property
    def bound(self):
        """``"<="`` when the value failed low (at most ``alpha``), ``">="`` when it failed
        high (at least ``beta``), ``""`` when it is the node's exact minimax value (or the
        node was not searched with a window)."""
        if self.value is None or self.alpha is None or self.kind != "inner":
            return ""
        if self.value <= self.alpha and self.alpha > -INFINITY:
            return "<="
        if self.value >= self.beta and self.beta < INFINITY:
            return ">="
        return ""


def trace(game, state, depth, player=None, prune=True, reveal=True):
    """The search of ``state`` to ``depth`` plies for ``player`` (default: the side to
    move) as a tree of :class:`RecordedNode`: alpha-beta (``prune``) or minimax, children
    in ``game.actions`` order. ``reveal``: give the nodes a cut-off skipped their minimax
    values and subtrees (unvisited, so drawn grey); else they are childless stubs.

    ``ValueError`` for a negative ``depth``."""
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    player = game.to_move(state) if player is None else player

    def side(s):
        return MAX if game.to_move(s) == player else MIN

    def visit(node, d, alpha, beta):
        node.visited = True
        node.alpha, node.beta = (alpha, beta) if prune else (None, None)
        leaf = leaf_value(game, node.state, d, player)
        if leaf is not None:
            node.kind = "terminal" if game.is_terminal(node.state) else "horizon"
            node.value = leaf
            return leaf
        maximizing = node.side == MAX
        best = -INFINITY if maximizing else INFINITY
        actions = game.actions(node.state)
        for i, a in enumerate(actions):
            s = game.result(node.state, a)
            child = RecordedNode(node.path + (i,), s, a, side(s))
            node.children.append(child)
            v = visit(child, d - 1, alpha, beta)
            if maximizing:
                best, alpha = max(best, v), max(alpha, v)
            else:
                best, beta = min(best, v), min(beta, v)
            if prune and alpha >= beta:
                for j, skipped in enumerate(actions[i + 1:], i + 1):
                    s = game.result(node.state, skipped)
                    stub = RecordedNode(node.path + (j,), s, skipped, side(s))
                    node.children.append(_unvisited(game, stub, d - 1, player, side, reveal))
                break
        node.value = best
        return best

    root = RecordedNode((), state, None, side(state))
    visit(root, depth, -INFINITY, INFINITY)
    _mark_pv(root)
    return root


def _unvisited(game, node, depth, player, side, reveal):
    """A node the search skipped: with ``reveal`` its minimax value and subtree (the
    reference minimax reads them, the recorded search never did)."""
    if not reveal:
        return node
    node.value = minimax_value(game, node.state, depth, player)
    if game.is_terminal(node.state) or depth == 0:
        node.kind = "terminal" if game.is_terminal(node.state) else "horizon"
        return node
    for i, a in enumerate(game.actions(node.state)):
        s = game.result(node.state, a)
        node.children.append(_unvisited(game, RecordedNode(node.path + (i,), s, a, side(s)),
                                        depth - 1, player, side, reveal))
    return node


def _mark_pv(root):
    """The principal variation: from the root, the first visited child whose value is its
    parent's (the child that set the parent's value, searched inside its window)."""
    node = root
    node.pv = True
    while node.children:
        node = next((c for c in node.children if c.visited and c.value == node.value), None)
        if node is None:
            return
        node.pv = True


def walk(node):
    """Every node of the tree below ``node`` (itself first), depth first, left to right."""
    yield node
    for c in node.children:
        yield from walk(c)


def principal_variation(root):
    """The actions along the principal variation."""
    return [n.action for n in walk(root) if n.pv and n.action is not None]


def fmt_value(v):
    """A value as the pictures print it: ``+inf``/``-inf``, else ``%g``."""
    if v is None:
        return "?"
    if v in (INFINITY, -INFINITY):
        return "+inf" if v > 0 else "-inf"
    return f"{v:g}"


# ---------------------------------------------------------------------------
# Text
# ---------------------------------------------------------------------------


def text(root, windows=True, label=None, value=fmt_value, exact=None):
    """The tree as indented text, one node a line: ``*`` on the principal variation,
    the value (``<=``/``>=`` for a bound), ``max``/``min`` at inner nodes, the entry
    window when ``windows``, ``(pruned)`` at the nodes the search never visited.
    ``label(action)`` prefixes each node's action (e.g. ``"col 4"``); ``value(v)`` and
    ``exact(v)`` format the search's and the exact value (no exact column when None)."""
    lines = []
    for n in walk(root):
        parts = []
        if label is not None and n.action is not None:
            parts.append(f"{label(n.action)}:")
        parts.append((n.bound if n.visited else "") + value(n.value)
                     if n.value is not None else "-")
        if n.kind == "inner" and (n.children or n.visited):
            parts.append(n.side)
        if windows and n.visited and n.alpha is not None:
            parts.append(f"[{fmt_value(n.alpha)}, {fmt_value(n.beta)}]")
        if exact is not None and n.exact is not None:
            parts.append(f"exact {exact(n.exact)}")
        if not n.visited:
            parts.append("(pruned)")
        lines.append(f"{'    ' * len(n.path)}{'*' if n.pv else ' '} {' '.join(parts)}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------

# presentation attributes, not a <style> block: the page's Content-Security-Policy
# (default-src 'self') drops inline style sheets, and a notebook shares one page's CSS
FONT = 'font-family="sans-serif" text-anchor="middle"'
INK = {"window": 'font-size="10" fill="#555"', "exact": 'font-size="10" fill="#1565c0"',
       "action": 'font-size="10" fill="#6a1b9a"', "value": 'font-size="12" fill="#111"',
       "grey": 'font-size="12" fill="#aaa"'}
EDGE = {"plain": 'stroke="#444" stroke-width="1.2"', "pv": 'stroke="#000" stroke-width="3.5"',
        "pruned": 'stroke="#bbb" stroke-width="1.2" stroke-dasharray="4 3"'}
SHAPE = {"plain": 'fill="#fff" stroke="#222" stroke-width="1.2"',
         "pv": 'fill="#fff" stroke="#000" stroke-width="3.5"',
         "pruned": 'fill="#eee" stroke="#bbb" stroke-width="1.2"'}
SLOT, LEVEL, RADIUS = 62, 96, 15


def svg(root, windows=True, label=None, value=fmt_value, exact=None, title=None):
    """The tree as a standalone SVG document (a string): MAX nodes as upward triangles,
    MIN as downward ones, leaves as squares; the value inside, the entry window and the
    exact value (``exact`` formats it; None: not drawn) below; the principal variation
    bold; the nodes and edges the search never visited grey and dashed. Every node is a
    ``<g class="node ...">`` with ``data-path`` (the child indices, dot-separated),
    ``data-value`` and the classes ``max``/``min``/``leaf``, ``pv``, ``pruned``."""
    xs, leaves = {}, [0]

    def place(n):
        if not n.children:
            xs[n.path] = leaves[0] * SLOT + SLOT / 2
            leaves[0] += 1
        else:
            for c in n.children:
                place(c)
            xs[n.path] = (xs[n.children[0].path] + xs[n.children[-1].path]) / 2

    place(root)
    depth = max(len(n.path) for n in walk(root))
    top = 34 if title else 14
    width, height = max(leaves[0] * SLOT, 240), top + depth * LEVEL + 3 * RADIUS + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="cx-tree" width="{width:.0f}" '
           f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}">',
           f'<rect width="100%" height="100%" fill="#fff"/>']
    if title:
        out.append(f'<text x="{width / 2:.0f}" y="18" class="title" {FONT} font-size="13">'
                   f'{html.escape(title)}</text>')

    def y_of(n):
        return top + RADIUS + len(n.path) * LEVEL

    for n in walk(root):  # the edges first, under the nodes
        for c in n.children:
            kind = "pv" if c.pv else ("plain" if c.visited else "pruned")
            cls = "edge" + ("" if kind == "plain" else " " + kind)
            # from below the node's two lines of text (window, exact) to the child's top
            x1, y1, x2, y2 = xs[n.path], y_of(n) + RADIUS + 26, xs[c.path], y_of(c) - RADIUS
            out.append(f'<line class="{cls}" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                       f'y2="{y2:.1f}" {EDGE[kind]}/>')
            if label is not None:
                out.append(f'<text class="action" x="{(x1 + x2) / 2 + 5:.1f}" '
                           f'y="{(y1 + y2) / 2:.1f}" {FONT} {INK["action"]}>{html.escape(str(label(c.action)))}</text>')
    for n in walk(root):
        out.append(_node_svg(n, xs[n.path], y_of(n), windows, value, exact))
    out.append("</svg>")
    return "\n".join(out)


def _node_svg(n, x, y, windows, value, exact):
    leaf = not n.children and n.kind != "inner" or (not n.children and not n.visited)
    cls = ["node", "leaf" if leaf else n.side]
    if n.pv:
        cls.append("pv")
    if not n.visited:
        cls.append("pruned")
    r = RADIUS
    kind = "pv" if n.pv else ("plain" if n.visited else "pruned")
    paint = f'{FONT} {INK["value" if n.visited else "grey"]}'
    if n.pv:
        paint += ' font-weight="bold"'
    if leaf:
        shape = f'<rect class="shape" x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r}" ' \
                f'height="{2 * r}" {SHAPE[kind]}/>'
    else:
        dy = -1 if n.side == MAX else 1
        pts = [(x, y + dy * r * 1.15), (x - r * 1.25, y - dy * r * 0.85),
               (x + r * 1.25, y - dy * r * 0.85)]
        shape = '<polygon class="shape" points="' + \
                " ".join(f"{px:.1f},{py:.1f}" for px, py in pts) + f'" {SHAPE[kind]}/>'
    bound = {"<=": "\u2264", ">=": "\u2265"}.get(n.bound, "") if n.visited else ""
    shown = "" if n.value is None else bound + value(n.value)
    parts = [f'<g class="{" ".join(cls)}" data-path="{".".join(map(str, n.path))}" '
             f'data-value="{html.escape(fmt_value(n.value))}">', shape,
             f'<text class="value" x="{x:.1f}" y="{y + 4:.1f}" {paint}>{html.escape(shown)}</text>']
    below = y + r + 12
    if windows and n.visited and n.alpha is not None:
        parts.append(f'<text class="window" x="{x:.1f}" y="{below:.1f}" {FONT} {INK["window"]}>'
                     f'[{fmt_value(n.alpha)}, {fmt_value(n.beta)}]</text>')
        below += 12
    if exact is not None and n.exact is not None:
        parts.append(f'<text class="exact" x="{x:.1f}" y="{below:.1f}" {FONT} {INK["exact"]}>'
                     f'{html.escape(exact(n.exact))}</text>')
    parts.append("</g>")
    return "".join(parts)
