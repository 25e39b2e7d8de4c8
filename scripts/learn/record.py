"""What a ``connectx learn`` run leaves behind: the network (``net.npz``), its learning
curve (``curve.png``) and the JSON record of the run (``record.json``), in one folder."""
import json
import os

CURVE = "curve.png"
RECORD = "record.json"
NETWORK = "net.npz"


def plot_curve(record, path):
    """The learning curve of ``record`` as a PNG: the loss, the score (wins + half the
    draws) against each evaluation opponent and the good-move rate by stage, over
    training seconds (matplotlib, the Agg backend)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    curve = record["curve"]
    t = [p["seconds"] / 60 for p in curve]
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    if any("loss" in p for p in curve):
        pts = [(p["seconds"] / 60, p["loss"]) for p in curve if "loss" in p]
        axes[0].plot(*zip(*pts), marker="o", label="loss")
        pts = [(p["seconds"] / 60, p["policy_loss"]) for p in curve if "policy_loss" in p]
        axes[0].plot(*zip(*pts), marker=".", label="policy")
        pts = [(p["seconds"] / 60, p["value_loss"]) for p in curve if "value_loss" in p]
        axes[0].plot(*zip(*pts), marker=".", label="value")
        axes[0].legend()
    axes[0].set_title("training loss")
    for opp in curve[0]["win_rates"] if curve else ():
        axes[1].plot(t, [p["win_rates"][opp]["score"] for p in curve], marker="o", label=opp)
    axes[1].set_ylim(0, 1.02)
    axes[1].set_title("score against (pure policy)")
    axes[1].legend()
    if curve and "good" in curve[0]:
        for stage in curve[0]["good"]:
            axes[2].plot(t, [p["good"][stage] for p in curve], marker="o", label=stage)
        axes[2].legend()
    axes[2].set_title("good-move rate by stage (judge set)")
    for ax in axes:
        ax.set_xlabel("minutes")
        ax.grid(alpha=0.3)
    title = f"connectx learn --mode {record.get('mode')}: {record.get('board', '')}"
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)


def write_run(out, net, record, save_network, plot=True):
    """Write ``net`` (with ``save_network``), the curve (unless not ``plot``: a checkpoint
    in the middle of a run) and the record into the folder ``out`` (made if missing);
    the three paths."""
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, name) for name in (NETWORK, CURVE, RECORD)]
    save_network(paths[0], net)
    if plot:
        plot_curve(record, paths[1])
    with open(paths[2], "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    return paths
