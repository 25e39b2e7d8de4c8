"""The printed and written forms of a match's results: summaries, SPRT verdicts, Elo
figures, JSON-safe values, and the reading of a match's ``--out`` file. Text in, text
out: the commands print it.
"""
import json
import math


def format_elo(value):
    """An Elo figure as printed: ``+35``, ``-120``, ``+inf``, ``-inf``."""
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def json_safe(value):
    """``value`` with infinite floats written as the strings "+inf" / "-inf"."""
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, float) and math.isinf(value):
        return format_elo(value)
    return value


def no_nan(value):
    """``value`` with NaN (an empty stage's rates, an unjudged move's loss) as None: JSON
    has no NaN (``connectx score --json``, ``connectx blunders --json``)."""
    if isinstance(value, dict):
        return {k: no_nan(v) for k, v in value.items()}
    if isinstance(value, list):
        return [no_nan(v) for v in value]
    return None if isinstance(value, float) and value != value else value


def load_games(path):
    """``(games, config)`` of a match's ``--out`` file; ValueError names what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        return data["games"], data["config"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path}: not a match --out file ({e})") from None


def format_pairs(s, games):
    """Lines for :func:`pair_summary` ``s`` (``games``: games played)."""
    p = s["pentanomial"]
    lines = [f"pairs {s['pairs']} (A's points per pair 0, 0.5, 1, 1.5, 2: "
             f"{p[0]}, {p[1]}, {p[2]}, {p[3]}, {p[4]}); draw ratio {s['draw_ratio']:.3f}",
             f"pair-based Elo {format_elo(s['elo'])} (95% interval {format_elo(s['elo_ci'][0])} "
             f"to {format_elo(s['elo_ci'][1])}), LOS {100 * s['los']:.1f}%"]
    if s["unpaired"]:
        lines.append(f"{s['unpaired']} game(s) without a partner game (odd --games or an "
                     "early stop): in W-D-L, not in the pair statistics")
    if s["effective_pairs"] < s["pairs"]:
        lines.append(f"only {s['effective_pairs']} distinct pairs among {s['pairs']} "
                     f"({s['distinct_games']} distinct games among {games}): repeated games are "
                     "no new evidence; the pair statistics count distinct pairs, the per-game "
                     "interval above does not")
    return lines


def format_summary(s):
    a, b = s["agents"]
    lines = [
        f"{a} vs {b}: {s['games']} games, colours alternating",
        f"W-D-L for {a}: {s['wins']}-{s['draws']}-{s['losses']}",
        f"score {s['score']:.3f} (per-game Wilson 95% interval {s['score_ci'][0]:.3f} to "
        f"{s['score_ci'][1]:.3f}: assumes independent games)",
        f"Elo difference {format_elo(s['elo'])} (per-game 95% interval "
        f"{format_elo(s['elo_ci'][0])} to {format_elo(s['elo_ci'][1])})",
    ]
    if "pairs" in s:
        lines += format_pairs(s["pairs"], s["games"])
    for who, spec in (("A", a), ("B", b)):
        t = s["times"][who]
        fails = ", ".join(f"{k} {v}" for k, v in s["failures"][who].items() if v) or "none"
        lines.append(f"{who} {spec}: move time mean {1000 * t['mean']:.1f} ms, "
                     f"max {1000 * t['max']:.1f} ms over {t['moves']} moves; failures: {fails}")
        text = s.get("text", {}).get(who)
        if text is not None:
            lines.append(f"{who} {spec}: " + format_text_answers(text))
    if len(s.get("workers", {})) > 1:
        lines.append("CPU share per worker (CPU s / wall s while playing): " + ", ".join(
            f"{w['share']:.2f} ({w['games']} games)" for w in s["workers"].values()))
    return "\n".join(lines)


def format_text_answers(t):
    """A text player's invalid answers over a match (``summary["text"]["A"]``), as text."""
    n = sum(t["invalid"].values())
    if not n:
        return f"no invalid answers in {t['games']} game(s)"
    kinds = ", ".join(f"{k} {v}" for k, v in t["invalid"].items())
    return (f"{n} invalid answer(s) ({kinds}); {t['fallbacks']} fallback move(s), in "
            f"{t['forfeits']} of {t['games']} game(s) (the arena's forfeits)")


def format_sprt(s):
    """One line for ``summary["sprt"]``."""
    t = s["sprt"]
    what = {"H1": f"H1 accepted (Elo >= {t['elo1']:g} more likely than <= {t['elo0']:g})",
            "H0": f"H0 accepted (Elo <= {t['elo0']:g} more likely than >= {t['elo1']:g})",
            None: "inconclusive (no bound reached within --games)"}[t["verdict"]]
    return (f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g} alpha={t['alpha']:g} "
            f"beta={t['beta']:g}: LLR {t['llr']:+.2f}, bounds [{t['lower']:.2f}, "
            f"{t['upper']:.2f}] after {s['games']} games: {what}")
