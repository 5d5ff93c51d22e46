#!/usr/bin/env python3
"""The build's link edges are the architecture's arrows (docs/architecture.md, "Layers").

Configures the project afresh with `cmake --graphviz` and checks every edge that leaves a
target of the project: a layer links only the layers below it, and each library's unit tests
link only that library and what it may use. Libraries outside the project (fmt, Boost, MPICH,
GoogleTest) are not layers.

usage: check_link_arrows.py SOURCE_DIR SCRATCH_DIR [cmake arguments...]
"""
import os
import re
import subprocess
import sys

source, scratch, extra = sys.argv[1], sys.argv[2], sys.argv[3:]

# What each target of a layer may link (the tools on top may link any layer).
CORE = {"mpisim_core"}
KERNEL = CORE | {"mpilite_kernel"}
MPILITE = KERNEL | {"mpilite"}
PROTOCOLS = CORE | {"mpisim_protocols", "mpisim_transport_mpich"}
MACHINE = KERNEL | {"mpisim_machine"}
CONFIG = MACHINE | PROTOCOLS | {"mpisim_config"}
SIMULATION = MPILITE | CONFIG | {"mpisim_simulation"}
ALLOWED = {
    "mpisim_core": set(),
    "mpilite_kernel": CORE,
    "mpilite": KERNEL,
    "mpisim_protocols": CORE | {"mpisim_transport_mpich"},  # loaded at run time, built first
    "mpisim_transport_mpich": CORE,
    "mpisim_machine": KERNEL,
    "mpisim_config": MACHINE | PROTOCOLS,
    "mpisim_simulation": MPILITE | CONFIG,
    "mpisim": SIMULATION,
    # each library's unit tests
    "core_unit_tests": CORE,
    "mpilite_unit_tests": MPILITE,
    "protocols_unit_tests": PROTOCOLS,
    "machine_unit_tests": CONFIG,
}

os.makedirs(scratch, exist_ok=True)
dot = os.path.join(scratch, "layers.dot")
p = subprocess.run(["cmake", "-S", source, "-B", scratch, f"--graphviz={dot}", *extra],
                   capture_output=True, text=True)
if p.returncode != 0:
    sys.exit(f"cmake failed:\n{p.stdout}\n{p.stderr}")

names, edges = {}, []
with open(dot) as f:
    for line in f:
        m = re.match(r'\s*"(node\d+)" \[ label = "([^"]+)"', line)
        if m:
            names[m.group(1)] = m.group(2).replace("\\n", "")
        m = re.match(r'\s*"(node\d+)" -> "(node\d+)"', line)
        if m:
            edges.append((m.group(1), m.group(2)))

layers = set(ALLOWED)
failures, checked = [], 0
for a, b in edges:
    src, dst = names.get(a, a), names.get(b, b)
    if src in ALLOWED and src != dst:
        checked += 1
        if dst in layers and dst not in ALLOWED[src]:
            failures.append(f"{src} links {dst}: an arrow the architecture does not have")
missing = layers - set(names.values())
for name in sorted(missing):
    failures.append(f"{name}: no such target in the graph (renamed? update this test and "
                    f"docs/architecture.md)")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"{checked} link edges of {len(ALLOWED)} layer targets follow the arrows")
