#!/usr/bin/python3
"""report.html of mpisim-study renders in headless Chromium: every chart's box holds drawn
(non-background) pixels in a screenshot, the numbers of the table equal results.json, and the page
names no URL to fetch. A study whose reports carry a critical path (here a row made from a JSON
report built by hand, schema of docs/studies.md) draws it, its parts adding up to the predicted
time exactly.

usage: study_report_html.py CHROMIUM STUDY-LIB-DIR WORK-DIR STUDY-DIR...
"""
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

import matplotlib.image

WIDTH = 1200


def fail(what, output=""):
    sys.exit(f"FAIL: {what}\n{output[-3000:]}")


def chromium(browser, profile, args):
    cmd = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--user-data-dir={profile}"] + args
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"chromium exit code {p.returncode}: {' '.join(cmd)}", p.stderr)
    return p.stdout


class Page(HTMLParser):
    """The table cells (row id -> column -> data-value) and the #layout text of a dumped DOM."""

    def __init__(self):
        super().__init__()
        self.cells, self.row, self.in_layout, self.layout = {}, None, False, ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "tr" and "data-id" in a:
            self.row = self.cells.setdefault(a["data-id"], {})
        elif tag == "td" and self.row is not None and "data-col" in a:
            self.row[a["data-col"]] = a["data-value"]
        elif tag == "pre" and a.get("id") == "layout":
            self.in_layout = True

    def handle_endtag(self, tag):
        if tag == "pre":
            self.in_layout = False

    def handle_data(self, data):
        if self.in_layout:
            self.layout += data


def check_numbers(page, rows, where):
    if set(page.cells) != {r["id"] for r in rows}:
        fail(f"{where}: table rows {sorted(page.cells)} != results.json {[r['id'] for r in rows]}")
    for r in rows:
        for col, shown in page.cells[r["id"]].items():
            want = r[col]
            same = (shown == "" if want is None else float(shown) == want
                    if isinstance(want, (int, float)) else shown == str(want))
            if not same:
                fail(f"{where}: row {r['id']} {col} shows {shown!r}, results.json has {want!r}")


def check_drawn(image, box, where):
    """At least 2% of the chart's box differs from the white page."""
    x0, y0 = int(box["x"]), int(box["y"])
    x1, y1 = int(box["x"] + box["width"]), int(box["y"] + box["height"])
    if box["width"] < 100 or box["height"] < 100 or y1 > image.shape[0] or x1 > image.shape[1]:
        fail(f"{where}: chart {box['id']} box {box} is not on the screenshot {image.shape}")
    region = image[y0:y1, x0:x1, :3]
    drawn = (abs(region - 1.0).max(axis=2) > 0.1).mean()
    if drawn < 0.02:
        fail(f"{where}: chart {box['id']} has {100 * drawn:.2f}% drawn pixels")
    return drawn


def check_report(browser, work, study_dir, expected_charts):
    page_file = os.path.join(study_dir, "report.html")
    text = open(page_file).read()
    if re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?https?:""", text):
        fail(f"{page_file} refers to an external URL")
    rows = json.load(open(os.path.join(study_dir, "results.json")))["rows"]
    profile = os.path.join(work, "profile")
    page = Page()
    page.feed(chromium(browser, profile, ["--dump-dom", f"file://{os.path.abspath(page_file)}"]))
    check_numbers(page, rows, page_file)
    boxes = {b["id"]: b for b in json.loads(page.layout)}
    if not set(expected_charts) <= set(boxes):
        fail(f"{page_file}: charts {sorted(boxes)}, wanted {expected_charts}")
    shot = os.path.join(work, os.path.basename(study_dir.rstrip("/")) + ".png")
    height = int(boxes["page"]["height"]) + 20
    chromium(browser, profile, [f"--screenshot={shot}", f"--window-size={WIDTH},{height}",
                                f"file://{os.path.abspath(page_file)}"])
    image = matplotlib.image.imread(shot)
    drawn = {id: check_drawn(image, boxes[id], page_file) for id in expected_charts}
    print(f"{page_file}: " + ", ".join(f"{id} {100 * d:.1f}% drawn" for id, d in drawn.items()))


def critical_path_study(lib, work):
    """A study directory whose one row comes from a hand-built report with a critical path."""
    sys.path.insert(0, lib)
    from mpisim_study import html_report, outputs, rows as rowlib, runner
    parts = {"compute": 500, "send_overhead": 200, "recv_overhead": 200, "latency": 3000,
             "transfer": 1700, "contention": 400, "wait": 4000}
    total = sum(parts.values())
    report = {"outcome": "finished", "predicted_time_ps": total, "messages": {"count": 4,
              "bytes": 64}, "ranks": [{"rank": k, "compute_ps": 500, "comm_ps": 400,
                                       "wait_ps": 4000} for k in range(2)],
              "critical_path": {"total_ps": total, "parts_ps": parts,
                                "top": [{"rank": 1, "call": "MPI_Allreduce", "part": "wait",
                                         "ps": 4000}],
                                "ranks": [{"rank": 1, "ps": 6000}, {"rank": 0, "ps": 4000}]}}
    out = os.path.join(work, "critical")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "runs"))
    config = runner.Config(id="cluster-np2", label="", command=["mpisimrun", "-np", "2", "./p"],
                           report_path=os.path.join(out, "runs", "x.json"),
                           log_path=os.path.join(out, "runs", "x.log"),
                           fields={"machine": "cluster", "ranks": 2})
    config.runs.append(runner.Run(0, False, 0.5, 1024, report, ""))
    row = rowlib.row_of(config, "scaling")
    if sum(row[f"cp_{p}_ps"] for p in parts) != row["predicted_time_ps"]:
        fail(f"critical-path columns {row} do not add up to the predicted time")
    if row["cp_top"] != "rank 1 MPI_Allreduce wait" or row["cp_top_ranks"] != "1 0":
        fail(f"critical path named {row['cp_top']!r}, ranks {row['cp_top_ranks']!r}")
    row["speedup"] = row["efficiency"] = 1.0
    settings = {"study": "scaling", "program": ["./p"], "run_options_given": []}
    outputs.write_json([row], settings, os.path.join(out, "results.json"))
    html_report.write([row], settings, os.path.join(out, "report.html"))
    return out


def main():
    browser, lib, work = sys.argv[1:4]
    if not shutil.which(browser):
        fail(f"{browser} not found: scripts/install-deps installs Debian's chromium")
    os.makedirs(work, exist_ok=True)
    for study_dir in sys.argv[4:]:
        study = json.load(open(os.path.join(study_dir, "results.json")))["settings"]["study"]
        charts = (["chart-time", "chart-efficiency"] if study == "scaling" else ["chart-whatif"])
        rows = json.load(open(os.path.join(study_dir, "results.json")))["rows"]
        if any(r["cp_compute_ps"] is not None for r in rows):  # runs with --critical-path
            charts.append("chart-critical-path")
        check_report(browser, work, study_dir, charts + ["chart-breakdown"])
    check_report(browser, work, critical_path_study(lib, work),
                 ["chart-time", "chart-breakdown", "chart-critical-path"])
    print("reports render")


main()
