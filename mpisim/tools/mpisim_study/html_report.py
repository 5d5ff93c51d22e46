"""report.html: one self-contained page (charts inline as SVG, no URL) with the charts, the
table of every row, and the command that reproduces each. Every chart is a <figure> with a stable
id, every table cell carries data-col and data-value, so that a test can read what is shown; a
small script writes each figure's box into #layout for a headless browser to dump."""
import html

from . import charts
from .outputs import TERMINAL

STYLE = """body{font-family:sans-serif;margin:16px;background:#fff;color:#222;width:1100px}
figure{margin:12px 0;display:inline-block;vertical-align:top}figure svg{display:block}
table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px}
td.num{text-align:right}pre{font-size:11px;white-space:pre-wrap}.failed{color:#a00}
.missing{color:#666;font-style:italic}#layout{display:none}"""

LAYOUT_SCRIPT = """<script>
document.getElementById('layout').textContent = JSON.stringify(
  Array.from(document.querySelectorAll('figure[id]')).map(function (f) {
    var b = f.querySelector('svg').getBoundingClientRect();
    return {id: f.id, x: b.left + window.scrollX, y: b.top + window.scrollY,
            width: b.width, height: b.height};
  }).concat([{id: 'page', x: 0, y: 0, width: document.documentElement.scrollWidth,
              height: document.documentElement.scrollHeight}]));
</script>"""


def figure(id, title, svg_text, missing):
    if svg_text is None:
        return f'<p id="{id}" class="missing">{html.escape(title)}: {html.escape(missing)}</p>'
    return f'<figure id="{id}">{svg_text}</figure>'


def cell(key, value, text):
    """A table cell whose data-value is the exact value (repr of a float parses back)."""
    exact = repr(value) if isinstance(value, float) else "" if value is None else str(value)
    kind = "num" if isinstance(value, (int, float)) else "failed" if (
        key == "status" and value != "ok") else "text"
    return (f'<td data-col="{key}" data-value="{html.escape(exact)}" class="{kind}">'
            f"{html.escape(text)}</td>")


def table(rows):
    cols = [(h, f) for h, f in TERMINAL if any(f(r) for r in rows)]
    keys = {"predicted s": "predicted_time_s", "speedup": "speedup", "efficiency": "efficiency",
            "vs base": "vs_baseline", "compute": "compute_share", "comm": "comm_share",
            "wait": "wait_share", "messages": "messages", "bytes": "bytes", "wall s": "wall_s",
            "ranks": "ranks", "configuration": "id", "machine": "machine", "variant": "variant",
            "mode": "mode", "peak MiB": "peak_memory_kib",
            "critical path: largest": "cp_top"}
    notes = any(r.get("note") for r in rows)
    out = ['<table id="results"><tr>' + "".join(f"<th>{html.escape(h)}</th>" for h, _ in cols)
           + "<th>status</th>" + ("<th>note</th>" if notes else "") + "</tr>"]
    for r in rows:
        cells = []
        for h, f in cols:
            key = keys[h]
            cells.append(cell(key, r.get(key), f(r)))
        status = r["status"] if r["status"] == "ok" else f"{r['status']}: {r['error'] or ''}"
        if r["status"] == "ok" and r["error"]:
            status += f" ({r['error']})"
        cells.append(cell("status", r["status"], status))
        if notes:
            cells.append(cell("note", r.get("note"), r.get("note") or ""))
        out.append(f'<tr data-id="{html.escape(r["id"])}">' + "".join(cells) + "</tr>")
    return "\n".join(out) + "</table>"


def critical_path_text(rows):
    notes = [f"{r['id']}: the largest part is {r['cp_top']}; ranks {r['cp_top_ranks']}"
             for r in rows if r.get("cp_top")]
    return "".join(f"<li>{html.escape(n)}</li>" for n in notes)


def write(rows, settings, path):
    study = settings["study"]
    weak = settings.get("weak_scaling", False)
    parts = [f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>mpisim-study "
             f"{study}</title><style>{STYLE}</style></head><body>",
             f"<h1>mpisim-study {html.escape(study)}</h1>",
             f"<p>Program: <code>{html.escape(' '.join(settings['program']) or '-')}</code>. "
             f"Run options: <code>{html.escape(' '.join(settings['run_options_given']) or '-')}"
             f"</code>. {len(rows)} configurations.</p>"]
    if study == "scaling":
        parts.append(figure("chart-time", "time against ranks", charts.time_against_ranks(
            rows, weak), "no configuration finished"))
        parts.append(figure("chart-efficiency", "efficiency", charts.efficiency(rows),
                            "no configuration finished"))
    else:
        parts.append(figure("chart-whatif", "what-if", charts.whatif_bars(rows),
                            "no variant finished"))
    parts.append(figure("chart-breakdown", "breakdown", charts.breakdown(rows),
                        "no configuration finished"))
    parts.append(figure("chart-critical-path", "Critical path", charts.critical_path(rows),
                        "not available (this build of mpisimrun has no --critical-path, or the "
                        "reports have none)"))
    cp = critical_path_text(rows)
    if cp:
        parts.append(f"<ul id=\"critical-path-notes\">{cp}</ul>")
    parts.append("<h2>Results</h2>" + table(rows))
    parts.append("<h2>Commands that reproduce each row</h2><ul id=\"commands\">")
    for r in rows:
        if r["command"]:
            parts.append(f'<li data-id="{html.escape(r["id"])}"><b>{html.escape(r["id"])}</b>'
                         f"<pre>{html.escape(r['command'])}</pre></li>")
    parts.append("</ul><pre id=\"layout\"></pre>" + LAYOUT_SCRIPT + "</body></html>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")
