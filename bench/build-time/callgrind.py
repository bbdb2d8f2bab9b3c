#!/usr/bin/env python3
"""Instructions of one rebuild, counted by callgrind: the noise-free twin of run.py's CPU times.

usage (Python 3 standard library, valgrind):
    python3 bench/build-time/callgrind.py [--crates DIR] [--trees real,s200x50] [--modes touch,clean]
        [--crates-list embed,include-dir] [--label NAME] [--scratch DIR] [--out FILE]

For each tree, run.py's workspace (same crates, same touched file, Cargo's default dev profile,
under which the macro runs unoptimised) is built once untimed; then for each mode and crate:
  touch: the touched file's mtime set to now, one plain build (so the read cache holds every
         other file), the mtime set to now again, and the rebuild counted;
  clean: `cargo clean -p <crate>`, and the build counted.
Only the crate's own rustc runs under `valgrind --tool=callgrind` (a RUSTC_WRAPPER; build scripts
and dependencies run natively). Instruction counts do not depend on what else the machine is
doing, so two commits can be compared on a busy machine; they are not time (I/O, page faults
and the kernel are not counted), which run.py measures.

Rows, appended to --out (default bench/build-time/results/levers/callgrind.jsonl):
  {"label", "commit", "tree", "mode", "crate", "instructions", "macro": instructions inside
   embed_skills! (inclusive), "load", "generate"}  (the last three only for embed)
--crates takes skills-runtime from a copy of the repository (a `git archive` snapshot), as in
run.py; --label names the row (default: the commit).
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

# Runs the bench crate's own rustc under callgrind; everything else as it is.
WRAPPER = r"""#!/bin/sh
name=; prev=
for a in "$@"; do
  case "$prev" in --crate-name) name=$a ;; esac
  prev=$a
done
case "$name" in
  embed|include_dir|include_bytes)
    [ -n "$CALLGRIND_OUT" ] || exec "$@"
    exec valgrind --tool=callgrind --callgrind-out-file="$CALLGRIND_OUT" "$@" 2>>"$CALLGRIND_OUT.log" ;;
  *) exec "$@" ;;
esac
"""

# Inclusive cost of these functions, from callgrind_annotate --inclusive=yes: the first name
# found of each (`load_with` since `load_listed`; a rebuild that reuses the expansion memo runs
# no load and no generate at all, and records none).
PHASES = {"macro": ["skills_macros::expand"],
          "load": ["skills_core::load::load_with", "skills_core::load::load"],
          "generate": ["skills_macros::generate::source"]}


def counted(cargo, crate, out: Path) -> dict:
    if out.exists():
        out.unlink()
    env = dict(cargo.env, RUSTC_WRAPPER=str(out.parent / "callgrind-wrap.sh"), CALLGRIND_OUT=str(out))
    p = subprocess.run(["cargo", "build", "--offline", "-p", crate], cwd=cargo.ws, env=env,
                       capture_output=True, text=True)
    if p.returncode != 0 or not out.exists():
        sys.exit(f"callgrind.py: the build of {crate} failed or was not recompiled:\n{p.stderr[-3000:]}")
    total = next(int(l.split()[1]) for l in out.read_text(errors="replace").splitlines() if l.startswith("summary:"))
    row = {"instructions": total}
    if crate == "embed":
        listing = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", str(out)],
                                 capture_output=True, text=True).stdout
        for key, functions in PHASES.items():
            row[key] = None
            for function in functions:
                m = re.search(r"^\s*([\d,]+)\s+\([^)]*\)\s+\S*?" + re.escape(function) + r" ", listing, re.M)
                if m:
                    row[key] = int(m.group(1).replace(",", ""))
                    break
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crates", help="take skills-runtime from this copy of the repository")
    ap.add_argument("--trees", default="real,s200x50")
    ap.add_argument("--modes", default="touch,clean")
    ap.add_argument("--crates-list", default="embed,include-dir")
    ap.add_argument("--label")
    ap.add_argument("--scratch", default=str(run.REPO / "target" / "bench-callgrind"))
    ap.add_argument("--out", default=str(HERE / "results" / "levers" / "callgrind.jsonl"))
    a = ap.parse_args()
    if a.crates:
        run.CRATES_REPO = Path(a.crates).resolve()
    label = a.label or run.commit()
    scratch = Path(a.scratch).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    run.write_if_changed(scratch / "rustc-wrap.sh", run.WRAPPER, 0o755)
    run.write_if_changed(scratch / "callgrind-wrap.sh", WRAPPER, 0o755)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    for name in a.trees.split(","):
        tree, cargo = run.built_workspace(scratch, name)
        touched = run.touch_target(tree)
        for mode in a.modes.split(","):
            for crate in a.crates_list.split(","):
                if mode == "clean":
                    cargo.run("clean", "--offline", "-p", crate)
                else:
                    now = time.time()
                    os.utime(touched, (now, now))
                    cargo.run("build", "--offline", "-p", crate)
                    now = time.time()
                    os.utime(touched, (now, now))
                row = {"label": label, "commit": run.commit(), "tree": name, "mode": mode, "crate": crate,
                       **counted(cargo, crate, scratch / f"{name}-{mode}-{crate}.callgrind")}
                print(json.dumps(row), flush=True)
                with open(a.out, "a") as f:
                    f.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
