"""The figures a study row takes from one mpisimrun / mpisim-replay JSON report."""
import json

CRITICAL_PARTS = ["compute", "send_overhead", "recv_overhead", "latency", "transfer",
                  "contention", "wait"]


def load_report(path):
    """The report at `path`, or None when the run wrote none (or an unreadable one)."""
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def shares(report):
    """Compute, communication and wait shares of all ranks' time (ranks x predicted time); the
    rest is time ranks spent finished, waiting for the slowest one."""
    ranks = report.get("ranks") or []
    total = report["predicted_time_ps"] * len(ranks)
    if total <= 0:
        return {"compute_share": 0.0, "comm_share": 0.0, "wait_share": 0.0, "finished_share": 0.0}
    compute = sum(r["compute_ps"] for r in ranks) / total
    comm = sum(r["comm_ps"] for r in ranks) / total
    wait = sum(r["wait_ps"] for r in ranks) / total
    return {"compute_share": compute, "comm_share": comm, "wait_share": wait,
            "finished_share": max(0.0, 1.0 - compute - comm - wait)}


def critical_path(report):
    """Flat cp_* columns from the report's critical_path (empty when the run had none)."""
    cp = report.get("critical_path")
    if not cp:
        return {}
    row = {f"cp_{part}_ps": cp["parts_ps"].get(part, 0) for part in CRITICAL_PARTS}
    top = cp.get("top") or []
    if top:
        t = top[0]
        row["cp_top"] = f"rank {t['rank']} {t['call']} {t['part']}"
    ranks = cp.get("ranks") or []
    if ranks:
        row["cp_top_ranks"] = " ".join(str(r["rank"]) for r in ranks[:5])
    return row


def figures(report):
    """The row's columns from a finished run's report."""
    row = {"predicted_time_ps": report["predicted_time_ps"],
           "predicted_time_s": report["predicted_time_ps"] / 1e12,
           "messages": report.get("messages", {}).get("count"),
           "bytes": report.get("messages", {}).get("bytes")}
    row.update(shares(report))
    row.update(critical_path(report))
    return row


def diverged(report):
    """Whether a replay's outcomes differ from its record's (the prediction is approximate)."""
    replay = report.get("replay") if report else None
    return bool(replay and replay.get("diverged"))
