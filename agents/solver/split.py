"""Several threads on one exact score: each thread on its own null-window probe.

One thread solves a position by a sequence of null-window probes (``_solve`` in
:mod:`agents.solver.roots`): "is the score above ``t``?", each answer (fail-soft,
a bound) narrowing ``[lo, hi]`` until it closes. The probes run one after the other, and
the last two, at the score itself, cost the most (on ``begin.txt`` the dearest probe of
each position is 54% of all nodes).

With helper threads (:class:`agents.solver.solver.Solver` with ``threads > 1``) the
threads share the interval and the table, and each runs a probe of its own:

* the main thread probes where one thread would (c4's rule: the first probe halves the
  interval, each later one asks at the bound the last answer returned, whichever thread
  found it);
* a helper probes the nearest threshold no thread is on, on the side the interval last
  moved to (below, at the start: a search usually proves a loss bound before a win);
  when only the main thread's probe is left, it searches that one too, in its own move
  order (lazy SMP, as :meth:`agents.solver.solver.Solver._run` does);
* an answer that makes another thread's probe pointless (its threshold outside the
  interval now) stops that thread (``counters[S_STOP]``), which then takes a new probe.

This is Baudet's parallel aspiration search (1978: processors searching disjoint windows)
with null windows. Only answers of probes that ran to the end are used, so the score is
the one thread's. A deadline stops every thread and the score is None.
"""
import threading

from agents.solver.bits import G_DB
from agents.solver.kernel import _search
from agents.solver.roots import _sibling_floor
from agents.search.counters import S_ABORTED, S_NODES, S_STOP

FIRST_SIDE = -1  # a helper's first probe: below the main thread's


def next_probe(k, lo, hi, nxt, side, taken):
    """The threshold thread ``k`` probes next (the search asks: is the score above it?).

    ``[lo, hi]`` holds the score (``lo < hi``), ``nxt`` is where one thread would probe
    (clamped into ``[lo, hi - 1]``), ``side`` (+1 or -1) the way the interval last moved,
    ``taken`` the thresholds other threads are searching. Thread 0 (the main one) probes
    at ``nxt``; a helper at the threshold nearest ``nxt`` that no thread is on, on
    ``side`` first, or at ``nxt`` when every threshold is taken."""
    t = min(max(nxt, lo), hi - 1)
    if k == 0:
        return t
    for step in range(1, hi - lo):
        for u in (t + step * side, t - step * side):
            if lo <= u < hi and u not in taken:
                return u
    return t


def solve_split(solver, p, weak, deadline):
    """The score of ``p`` (weak: -1, 0, 1) by ``solver``'s threads, each on its own probe
    (module docstring); None past ``deadline``. ``solver.nodes`` counts every thread's,
    ``solver.probes`` lists ``(thread, t, answer)`` in order of completion, ``answer``
    None for a probe stopped as pointless."""
    n = solver.rows * solver.columns
    solver.nodes = 0
    solver.probes = []
    solver.counters[S_ABORTED] = 0
    if p.moves >= n:
        return 0
    if any(p.can_play(c) and p.is_winning_move(c) for c in range(solver.columns)):
        return 1 if weak else (n + 1 - p.moves) // 2
    lo, hi = (-1, 1) if weak else (-((n - p.moves) // 2), (n + 1 - p.moves) // 2)
    nxt = lo + (hi - lo) // 2
    if not weak and solver.dbk is not None and p.moves == solver.g[G_DB] + 1:
        # the database's bound of a position of one stone more (as _solve starts from)
        floor = int(_sibling_floor(p.pos, p.mask, solver.g, solver.dbk, solver.dbv))
        if floor > lo:
            lo = nxt = floor
    state = {"lo": lo, "hi": hi, "next": nxt, "side": FIRST_SIDE,
             "abort": False}
    workers = [(solver.g, solver.st, solver.mv, solver.sc, solver.counters)]
    for h in solver._helpers:
        workers.append((h.geometry(), h.st, h.mv, h.sc, h.counters))
    for w in workers:
        w[4][:] = 0
    inflight = {}  # thread -> the threshold it searches
    lock = threading.Lock()

    def settle(t, r):
        if r <= t:  # an upper bound
            if r < state["hi"]:
                state["hi"], state["side"] = r, -1
            state["next"] = r - 1
        else:  # a lower bound
            if r > state["lo"]:
                state["lo"], state["side"] = r, 1
            state["next"] = r
        for j, u in inflight.items():
            if not state["lo"] <= u < state["hi"]:
                workers[j][4][S_STOP] = 1

    def work(k):
        g, st, mv, sc, counters = workers[k]
        while True:
            with lock:
                if state["abort"] or state["lo"] >= state["hi"]:
                    return
                counters[S_STOP] = 0
                counters[S_ABORTED] = 0
                t = next_probe(k, state["lo"], state["hi"], state["next"], state["side"],
                               set(inflight.values()))
                inflight[k] = t
            r = _search(p.pos, p.mask, p.moves, t, t + 1, g, solver.tt, solver.dbk, solver.dbv,
                        st, mv, sc, counters, float(deadline))
            with lock:
                del inflight[k]
                if counters[S_ABORTED]:
                    if counters[S_STOP] and not state["abort"]:
                        solver.probes.append((k, t, None))
                        continue  # stopped as pointless: take another probe
                    state["abort"] = True  # the deadline: every thread stops
                    for w in workers:
                        w[4][S_STOP] = 1
                    return
                solver.probes.append((k, t, int(r)))
                settle(t, int(r))

    pool = solver._executor()
    futures = [pool.submit(work, k) for k in range(1, len(workers))]
    try:
        work(0)
    finally:
        with lock:
            if state["lo"] < state["hi"]:  # an exception in the main thread: stop the rest
                state["abort"] = True
            for w in workers[1:]:
                w[4][S_STOP] = 1
        for f in futures:
            f.result()
    solver.nodes = sum(int(w[4][S_NODES]) for w in workers)
    if state["abort"]:
        solver.counters[S_ABORTED] = 1
        return None
    lo = state["lo"]
    if weak:
        return 1 if lo > 0 else (-1 if lo < 0 else 0)
    return lo
