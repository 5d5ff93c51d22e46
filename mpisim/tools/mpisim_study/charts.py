"""The report's charts, drawn by matplotlib as inline SVG (no file, no URL). Each function takes
the study's rows and returns the SVG text, or None when the rows give it nothing to draw."""
import io

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import NullFormatter, ScalarFormatter  # noqa: E402

from .report_figures import CRITICAL_PARTS  # noqa: E402
from .rows import ok  # noqa: E402

plt.rcParams.update({"svg.fonttype": "path", "svg.hashsalt": "mpisim-study",
                     "font.size": 9, "figure.dpi": 96})
SHARES = [("compute_share", "compute", "#4c9a5a"), ("comm_share", "communication", "#4a78b5"),
          ("wait_share", "wait", "#d9893b"), ("finished_share", "finished", "#c8c8c8")]


def svg(fig):
    buf = io.StringIO()
    # No date (the same rows draw the same page) and no metadata URLs.
    fig.savefig(buf, format="svg", bbox_inches="tight",
                metadata={"Date": None, "Creator": None, "Type": None, "Format": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def by_machine(rows):
    machines = {}
    for r in rows:
        if ok(r) and r["ranks"]:
            machines.setdefault(r["machine"], []).append(r)
    return {m: sorted(rs, key=lambda r: r["ranks"]) for m, rs in machines.items()}


def rank_axis(ax, machines):
    """Log axis of ranks labelled with the rank counts themselves, not powers."""
    ranks = sorted({r["ranks"] for rs in machines.values() for r in rs})
    ax.set_xscale("log", base=2)
    ax.set_xticks(ranks)
    ax.xaxis.set_major_formatter(ScalarFormatter())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("ranks")


def time_against_ranks(rows, weak):
    machines = by_machine(rows)
    if not machines:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 4))
    for machine, rs in machines.items():
        n = [r["ranks"] for r in rs]
        t = [r["predicted_time_s"] for r in rs]
        line, = ax.plot(n, t, marker="o", label=machine)
        ideal = [t[0] if weak else t[0] * n[0] / k for k in n]
        ax.plot(n, ideal, linestyle="--", color=line.get_color(), alpha=0.6,
                label=f"{machine}: ideal")
    rank_axis(ax, machines)
    ax.set_yscale("log")
    ax.set_ylabel("predicted time (s)")
    ax.set_title("Predicted time against ranks (dashed: ideal scaling)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    return svg(fig)


def efficiency(rows):
    machines = by_machine(rows)
    if not machines:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    for machine, rs in machines.items():
        ax.plot([r["ranks"] for r in rs], [r["efficiency"] for r in rs], marker="o",
                label=machine)
    ax.axhline(1.0, linestyle="--", color="gray", alpha=0.6)
    rank_axis(ax, machines)
    ax.set_ylim(0, max(1.05, max(r["efficiency"] or 0 for rs in machines.values() for r in rs)
                       * 1.05))
    ax.set_ylabel("parallel efficiency")
    ax.set_title("Parallel efficiency against the smallest rank count")
    ax.grid(True, alpha=0.3)
    ax.legend()
    return svg(fig)


def label_of(r):
    return r["variant"] if r["study"] == "whatif" else f"{r['machine']}, {r['ranks']}"


def breakdown(rows):
    shown = [r for r in rows if ok(r)]
    if not shown:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 0.8 + 0.32 * len(shown)))
    labels = [label_of(r) for r in shown]
    left = [0.0] * len(shown)
    for key, name, color in SHARES:
        values = [100 * (r[key] or 0) for r in shown]
        ax.barh(labels, values, left=left, color=color, label=name)
        left = [a + b for a, b in zip(left, values)]
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of all ranks' time (%)")
    ax.set_title("Where the ranks' time goes")
    ax.legend(ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.6 / len(shown)))
    return svg(fig)


def whatif_bars(rows):
    shown = [r for r in rows if ok(r) and r["study"] == "whatif"]
    if not shown:
        return None
    base = next((r for r in shown if r["variant"] == "baseline"), None)
    fig, ax = plt.subplots(figsize=(6.4, 0.8 + 0.32 * len(shown)))
    colors = ["#7f7f7f" if r["variant"] == "baseline" else
              "#2a9d8f" if r["variant"].startswith("bound:") else
              "#b5651d" if r["mode"] == "approximate" else "#4a78b5" for r in shown]
    ax.barh([r["variant"] for r in shown], [r["predicted_time_s"] for r in shown], color=colors)
    if base:
        ax.axvline(base["predicted_time_s"], color="black", linestyle="--", linewidth=1)
    ax.invert_yaxis()
    ax.set_xlabel("predicted time (s); dashed: baseline")
    ax.set_title("What if: each variant against the baseline (green: bounds)")
    return svg(fig)


def critical_path(rows):
    shown = [r for r in rows if ok(r) and r.get("cp_compute_ps") is not None]
    if not shown:
        return None
    fig, ax = plt.subplots(figsize=(6.4, 0.8 + 0.32 * len(shown)))
    labels = [label_of(r) for r in shown]
    left = [0.0] * len(shown)
    cmap = plt.get_cmap("tab10")
    for k, part in enumerate(CRITICAL_PARTS):
        values = [r[f"cp_{part}_ps"] / 1e12 for r in shown]
        ax.barh(labels, values, left=left, color=cmap(k), label=part.replace("_", " "))
        left = [a + b for a, b in zip(left, values)]
    ax.invert_yaxis()
    ax.set_xlabel("time on the critical path (s)")
    ax.set_title("Critical path: what sets the predicted time")
    ax.legend(ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.6 / len(shown)))
    return svg(fig)
