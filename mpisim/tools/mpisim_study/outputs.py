"""The study's table on the terminal, results.csv and results.json."""
import csv
import json

from .rows import COLUMNS


def seconds(x):
    return "" if x is None else f"{x:.6g}"


def percent(x):
    return "" if x is None else f"{100 * x:.1f}%"


def number(x, digits=3):
    return "" if x is None else f"{x:.{digits}g}"


# Terminal columns: header, how a row shows it.
TERMINAL = [
    ("configuration", lambda r: r["id"]),
    ("machine", lambda r: r["machine"] or ""),
    ("ranks", lambda r: "" if r["ranks"] is None else str(r["ranks"])),
    ("variant", lambda r: r["variant"] or ""),
    ("mode", lambda r: r["mode"] or ""),
    ("predicted s", lambda r: seconds(r["predicted_time_s"])),
    ("speedup", lambda r: number(r["speedup"])),
    ("efficiency", lambda r: percent(r["efficiency"])),
    ("vs base", lambda r: number(r["vs_baseline"], 4)),
    ("compute", lambda r: percent(r["compute_share"])),
    ("comm", lambda r: percent(r["comm_share"])),
    ("wait", lambda r: percent(r["wait_share"])),
    ("messages", lambda r: "" if r["messages"] is None else str(r["messages"])),
    ("bytes", lambda r: "" if r["bytes"] is None else str(r["bytes"])),
    ("wall s", lambda r: number(r["wall_s"])),
    ("peak MiB", lambda r: "" if r["peak_memory_kib"] is None else
     f"{r['peak_memory_kib'] / 1024:.0f}"),
    ("critical path: largest", lambda r: r.get("cp_top") or ""),
]


def terminal_table(rows):
    """The table as text; columns that no row fills are left out, a row's error and note
    follow it."""
    cols = [(h, f) for h, f in TERMINAL if any(f(r) for r in rows)]
    cells = [[f(r) for _, f in cols] for r in rows]
    widths = [max([len(h)] + [len(c[i]) for c in cells]) for i, (h, _) in enumerate(cols)]
    lines = ["  ".join(h.ljust(w) for (h, _), w in zip(cols, widths)).rstrip()]
    for r, c in zip(rows, cells):
        lines.append("  ".join(x.ljust(w) for x, w in zip(c, widths)).rstrip())
        if r["status"] != "ok":
            lines.append(f"    {r['status'].upper()}: {r['error'] or ''}")
        elif r["error"]:
            lines.append(f"    note: {r['error']}")
        if r.get("note"):
            lines.append(f"    note: {r['note']}")
    return "\n".join(lines)


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        for r in rows:
            w.writerow({k: "" if r.get(k) is None else r[k] for k in COLUMNS})


def write_json(rows, settings, path):
    with open(path, "w") as f:
        json.dump({"mpisim_study": 1, "settings": settings, "columns": COLUMNS, "rows": rows}, f,
                  indent=1)
        f.write("\n")
