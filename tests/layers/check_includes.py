#!/usr/bin/env python3
"""A layer cannot include a header of a layer above it or beside it.

Each layer's sources compile with only the include paths of the layers it may use (the link
edges of docs/architecture.md). This test takes the compile command CMake recorded for one real
source file of each layer, compiles a probe in its place, and checks that a header of a forbidden
layer is not found while the headers the layer may use are. It also checks that no source of a
lower layer reaches around its include paths with a relative path ("../").

usage: check_includes.py BUILD_DIR SOURCE_DIR
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

build, source = sys.argv[1], sys.argv[2]

# layer: (a source file of the layer, headers it may include, headers it must not find)
LAYERS = {
    "core": ("core/src/units.cpp",
             ["sim_time.hpp", "units.hpp"],
             ["message_timing.hpp", "world.hpp", "network_model.hpp", "sync_protocol.hpp",
              "config.hpp", "simulation.hpp"]),
    "mpilite": ("mpilite/src/p2p/p2p.cpp",
                ["sim_time.hpp", "message_timing.hpp", "world.hpp", "mpi.h"],
                ["network_model.hpp", "link_costs.hpp", "network_topology.hpp", "machine.hpp",
                 "contention.hpp", "sync_protocol.hpp", "protocol_registry.hpp", "transport.hpp",
                 "frames.hpp", "config.hpp", "simulation.hpp", "host_link.hpp"]),
    "protocols": ("protocols/src/sync/local_bound.cpp",
                  ["sim_time.hpp", "sync_protocol.hpp", "transport.hpp"],
                  ["message_timing.hpp", "world.hpp", "message.hpp", "mpi.h", "network_model.hpp",
                   "config.hpp", "simulation.hpp"]),
    "machine": ("mpisim/src/machine/network_model.cpp",
                ["sim_time.hpp", "units.hpp", "message_timing.hpp", "network_model.hpp"],
                ["world.hpp", "message.hpp", "matching.hpp", "mpi.h", "sync_protocol.hpp",
                 "config.hpp", "simulation.hpp", "host_link.hpp"]),
    "config": ("mpisim/src/config/config.cpp",
               ["machine.hpp", "protocol_registry.hpp", "units.hpp"],
               ["world.hpp", "message.hpp", "mpi.h", "simulation.hpp", "host_link.hpp"]),
}

commands = {}
with open(os.path.join(build, "compile_commands.json")) as f:
    for entry in json.load(f):
        commands[os.path.realpath(entry["file"])] = entry


def compile_probe(entry, header, probe_dir):
    probe = os.path.join(probe_dir, "probe.cpp")
    with open(probe, "w") as out:
        out.write(f'#include "{header}"\n')
    args = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    # Drop the output and the source; keep the compiler, its flags and the include paths. (CMake
    # records the compiler itself here, without the ccache launcher.)
    kept, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a == "-o":
            skip = True
        elif a != "-c" and os.path.realpath(os.path.join(entry["directory"], a)) != \
                os.path.realpath(entry["file"]):
            kept.append(a)
    p = subprocess.run(kept + ["-fsyntax-only", probe], cwd=entry["directory"],
                       capture_output=True, text=True)
    return p.returncode, p.stderr


failures = []
for layer, (sample, allowed, forbidden) in LAYERS.items():
    entry = commands.get(os.path.realpath(os.path.join(source, sample)))
    if entry is None:
        failures.append(f"{layer}: no compile command for {sample}")
        continue
    with tempfile.TemporaryDirectory() as tmp:
        for header in allowed:
            rc, err = compile_probe(entry, header, tmp)
            if rc != 0:
                failures.append(f"{layer}: may include {header} but it does not compile:\n{err}")
        for header in forbidden:
            rc, err = compile_probe(entry, header, tmp)
            if rc == 0:
                failures.append(f"{layer}: includes {header}, a header of a layer it must not use")
            elif f"{header}: No such file or directory" not in err:
                failures.append(f"{layer}: {header} failed for another reason than not being "
                                f"found:\n{err}")
    print(f"{layer}: checked {len(allowed)} headers it may use and {len(forbidden)} of layers it "
          f"must not")

# A relative include would reach a header whatever the include paths say.
relative = re.compile(r'#\s*include\s*"[^"]*\.\./')
for root_dir in ("core", "mpilite", "protocols", "mpisim/src/machine", "mpisim/src/config"):
    for dirpath, _, files in os.walk(os.path.join(source, root_dir)):
        for name in files:
            if not name.endswith((".cpp", ".hpp", ".h", ".c")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, errors="replace") as f:
                for number, line in enumerate(f, 1):
                    if relative.search(line):
                        failures.append(f"{os.path.relpath(path, source)}:{number}: a relative "
                                        f"include reaches around the layers: {line.strip()}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("every layer sees only the layers below it")
