#!/usr/bin/env python3
"""The link step of a rebuild, which callgrind.py does not count: its CPU time, and what it links.

usage (Python 3 standard library):
    python3 bench/build-time/link.py [--crates DIR] [--trees s10,real] [--rounds 15]
        [--no-wait] [--load-max 0.6] [--load-hold 30] [--load-timeout 900]
        [--label NAME] [--scratch DIR] [--out FILE]

For each tree, run.py's workspace (same crates, Cargo's default dev profile) is built once; then,
per round and per crate (embed, include-dir, interleaved), the touched file's mtime is set to now
and the crate rebuilt with `cargo rustc -- -C linker=<wrapper>`: the wrapper runs `cc` (rustc's
own linker driver, which runs rust-lld) and records the CPU time (user + system, from wait4) of
it and its children. `cargo rustc`'s extra flags reach only the bench crate, whose rustc runs
after every touch anyway, so dependencies are not rebuilt. Round 0 also passes
`-Wl,--why-extract=<file>` and is not timed: from lld's answer come, per library, how many of its
archive members (codegen units) the binary pulled in and how many the library has. Before
each tree, as run.py, it waits for a quiet machine and records the load.

Rows, appended to --out (default bench/build-time/results/levers/link.jsonl):
  {"label", "commit", "tree", "crate", "rounds", "link_cpu_ms": [per round],
   "extracted": {"<library>": [members pulled in, members in the archive]}, "binary_bytes",
   "debug_bytes": size of the binary's .debug_* sections, "load_at_start", "quiet"}
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("buildtime", HERE / "run.py")
run = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run)

# A linker for rustc: `cc` as rustc would run it, timed with wait4 (user + system of cc and of
# the rust-lld it waits for), one "<microseconds>" line appended to $BENCH_LINK_LOG.
LINKER = r"""#!/bin/sh
exec python3 -c '
import os, sys
pid = os.fork()
if pid == 0:
    os.execvp("cc", ["cc", *sys.argv[1:]])
_, status, usage = os.wait4(pid, 0)
with open(os.environ["BENCH_LINK_LOG"], "a") as log:
    log.write(f"{round((usage.ru_utime + usage.ru_stime) * 1e6)}\n")
sys.exit(os.waitstatus_to_exitcode(status))
' "$@"
"""

LIBRARY = re.compile(r"/lib([A-Za-z0-9_]+)-[0-9a-f]+\.rlib\(")


def members(rlib: Path) -> int:
    names = subprocess.run(["ar", "t", str(rlib)], capture_output=True, text=True, check=True).stdout.split()
    return sum(1 for n in names if n.endswith(".o"))


def extracted(why: Path, deps: Path) -> dict:
    """Per library: [archive members pulled in, object members in the archive]."""
    pulled = {}
    # Lines of "<reference>\t<extracted member>\t<symbol>", after a header line.
    for line in why.read_text(errors="replace").splitlines()[1:]:
        fields = line.split("\t")
        m = LIBRARY.search(fields[1]) if len(fields) > 1 else None
        if m:
            pulled.setdefault(m.group(1), set()).add(fields[1])
    out = {}
    for lib, got in sorted(pulled.items()):
        rlib = Path(next(iter(got)).split("(")[0])
        if rlib.parent == deps and rlib.exists():
            out[lib] = [len(got), members(rlib)]
        else:
            out[lib] = [len(got), None]  # the standard library's own archives
    return out


def debug_bytes(binary: Path) -> int:
    sections = subprocess.run(["readelf", "-SW", str(binary)], capture_output=True, text=True).stdout
    total = 0
    for line in sections.splitlines():
        m = re.search(r"\]\s+(\.debug_\S+)\s+\S+\s+[0-9a-f]+\s+[0-9a-f]+\s+([0-9a-f]+)", line)
        if m:
            total += int(m.group(2), 16)
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crates", help="take skills-runtime from this copy of the repository")
    ap.add_argument("--trees", default="s10,real")
    ap.add_argument("--rounds", type=int, default=15)
    run.add_wait_arguments(ap)
    ap.add_argument("--label")
    ap.add_argument("--scratch", default=str(run.REPO / "target" / "bench-link"))
    ap.add_argument("--out", default=str(HERE / "results" / "levers" / "link.jsonl"))
    a = ap.parse_args()
    if a.crates:
        run.CRATES_REPO = Path(a.crates).resolve()
    label = a.label or run.commit()
    scratch = Path(a.scratch).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    run.write_if_changed(scratch / "rustc-wrap.sh", run.WRAPPER, 0o755)
    linker = scratch / "link-wrap.sh"
    run.write_if_changed(linker, LINKER, 0o755)
    link_log = scratch / "link.log"
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    crates = ["embed", "include-dir"]
    for name in a.trees.split(","):
        tree, cargo = run.built_workspace(scratch, name)
        cargo.env["BENCH_LINK_LOG"] = str(link_log)
        touched = run.touch_target(tree)
        load = {k: v for k, v in run.wait_as_asked(a).items() if k != "waited_s"}
        times = {c: [] for c in crates}
        facts = {}
        for round_ in range(a.rounds + 1):
            for crate in crates if round_ % 2 == 0 else reversed(crates):
                now = time.time()
                os.utime(touched, (now, now))
                flags = ["-C", f"linker={linker}"]
                why = scratch / f"{name}-{crate}.why"
                if round_ == 0:
                    flags += ["-C", f"link-arg=-Wl,--why-extract={why}"]
                link_log.write_text("")
                cargo.run("rustc", "--offline", "-p", crate, "--bins", "--", *flags)
                lines = link_log.read_text().split()
                if len(lines) != 1:
                    sys.exit(f"link.py: expected one link of {crate}, the log holds {lines}")
                if round_ == 0:
                    binary = cargo.binary(crate)
                    facts[crate] = {"extracted": extracted(why, cargo.target / "debug" / "deps"),
                                    "binary_bytes": binary.stat().st_size, "debug_bytes": debug_bytes(binary)}
                else:
                    times[crate].append(round(int(lines[0]) / 1000, 1))
        for crate in crates:
            row = {"label": label, "commit": run.commit(), "tree": name, "crate": crate, "rounds": a.rounds,
                   "link_cpu_ms": times[crate], **facts[crate], **load}
            print(json.dumps(row), flush=True)
            with open(a.out, "a") as f:
                f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
