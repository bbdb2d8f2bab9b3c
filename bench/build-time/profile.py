#!/usr/bin/env python3
"""Where embed_skills!'s build time goes, on the trees of run.py (Python 3 stdlib).

usage: python3 bench/build-time/profile.py [--scratch DIR] [--trees real,s1000] [--reps 5] [--no-wait] [--crates COPY]

1. Builds bench/build-time/macro-profile (a member of bench/Cargo.toml's workspace) twice: plain dev (opt-level 0, what
   the macro runs as by default) and with CARGO_PROFILE_DEV_OPT_LEVEL=3 (what
   `[profile.dev.build-override] opt-level = 3` gives the macro), and runs it on each tree:
   skills_core::load and its phases (with a warm read cache too; read, sha256, is_text, secrets, the rest = YAML + field and
   link checks + tables), token generation and rendering (see macro-profile/src/main.rs).
2. Writes the macro's expansion of each tree as a plain crate (<scratch>/ws-expanded/<tree>,
   depending on skills-runtime, no macro call) and times rustc on it after `cargo clean -p`
   and after touching main.rs, the same way run.py times the three crates: the difference to
   run.py's embed crate is the macro's own run inside rustc.
Results: bench/build-time/results/profile.jsonl and profile.md. Trees are reused from run.py's
scratch dir (run it first, or this script generates them).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (same folder: trees, wrapper, load wait)

HERE = Path(__file__).resolve().parent


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scratch", default=str(run.REPO / "target" / "bench-build"))
    ap.add_argument("--out", default=str(HERE / "results"))
    ap.add_argument("--trees", default="real,s1000")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-wait", action="store_true")
    ap.add_argument("--crates", help="profile this copy of the repository (as run.py --crates); the harness "
                    "is copied into it so that its #[path] modules are the copy's")
    a = ap.parse_args()
    crates = Path(a.crates).resolve() if a.crates else run.REPO
    harness = HERE / "macro-profile"
    if crates != run.REPO:
        import shutil
        harness = crates / "bench" / "build-time" / "macro-profile"
        if harness.exists():
            shutil.rmtree(harness)
        shutil.copytree(HERE / "macro-profile", harness, ignore=shutil.ignore_patterns("target", "Cargo.lock"))
        # A workspace of its own in the copy (whose bench/ may predate bench/Cargo.toml), starting
        # from this tree's bench/Cargo.lock: Cargo keeps its versions and drops what it does not use.
        with open(harness / "Cargo.toml", "a") as f:
            f.write("\n[workspace]\n")
        shutil.copy(HERE.parent / "Cargo.lock", harness / "Cargo.lock")
    scratch = Path(a.scratch).resolve()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    bins = {}
    for prof, extra in (("dev", {}), ("opt3", {"CARGO_PROFILE_DEV_OPT_LEVEL": "3"})):
        env = dict(os.environ, CARGO_TARGET_DIR=str(scratch / f"target-profile-{prof}"), **extra)
        # In this tree, a member of bench/Cargo.toml's workspace: `--locked` to bench/Cargo.lock.
        locked = ["--locked"] if crates == run.REPO else []
        subprocess.run(["cargo", "build", "--quiet", *locked, "-p", "macro-profile"], cwd=harness, env=env, check=True)
        bins[prof] = scratch / f"target-profile-{prof}" / "debug" / "macro-profile"
    rows = []
    for name in a.trees.split(","):
        tree = run.make_tree(scratch, name)
        ws = scratch / "ws-expanded" / name
        run.write_if_changed(ws / "Cargo.toml",
                             '[workspace]\n\n[package]\nname = "expanded"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
                             f'[dependencies]\nskills-runtime = {{ path = {run.rust_str(str(crates / "skills-runtime"))}, default-features = false }}\n')
        (ws / "src").mkdir(parents=True, exist_ok=True)
        expanded = ws / "src" / "main.rs.new"
        if not a.no_wait:
            w = run.wait_quiet(0.6, 30, 900)
            print(f"{name}: load {w['load_at_start']:.2f} (waited {w['waited_s']} s)", file=sys.stderr)
        for prof, b in bins.items():
            p = subprocess.run([str(b), str(tree), str(a.reps), str(expanded)], capture_output=True, text=True, check=True)
            r = json.loads(p.stdout)
            r.update(tree=name, macro_profile=prof, load=run.loadavg())
            rows.append(r)
            print(json.dumps(r), file=sys.stderr)
        main_rs = ws / "src" / "main.rs"
        if not main_rs.exists() or main_rs.read_text() != expanded.read_text():
            expanded.replace(main_rs)
        env = dict(os.environ, CARGO_TARGET_DIR=str(scratch / "target-expanded"), CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL="3")
        subprocess.run(["cargo", "build", "--quiet"], cwd=ws, env=env, check=True)
        for mode in ("clean", "touch"):
            for rep in range(a.reps):
                if mode == "clean":
                    subprocess.run(["cargo", "clean", "--offline", "-p", "expanded"], cwd=ws, env=env, check=True, capture_output=True)
                else:
                    now = time.time()
                    os.utime(main_rs, (now, now))
                t0 = time.perf_counter()
                subprocess.run(["cargo", "build", "--offline", "--quiet"], cwd=ws, env=env, check=True)
                wall = time.perf_counter() - t0
                rows.append({"tree": name, "expanded_crate": mode, "rep": rep, "wall_s": wall, "load": run.loadavg()})
    with open(out / "profile.jsonl", "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    md = ["| tree | macro built as | load (ms) | load, warm read cache | read | sha256 | is_text | secrets | YAML + checks + tables | generate | render | expanded chars |",
          "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "macro_profile" in r:
            md.append(f"| {r['tree']} ({r['files']} files, {r['bytes']:,} B) | {r['macro_profile']} | {r['load_ms']:.1f} | {r.get('load_cached_ms', float('nan')):.1f} | {r['read_ms']:.1f} | "
                      f"{r['sha256_ms']:.1f} | {r['is_text_ms']:.1f} | {r['secrets_ms']:.1f} | {r['yaml_fields_links_tables_ms']:.1f} | "
                      f"{r['generate_ms']:.1f} | {r['render_ms']:.1f} | {r['expanded_chars']:,} |")
    md.append("\n| tree | expanded crate (no macro) | wall of `cargo build`, s: median (min–max) |\n|---|---|---|")
    for name in a.trees.split(","):
        for mode in ("clean", "touch"):
            v = [r["wall_s"] for r in rows if r.get("expanded_crate") == mode and r["tree"] == name]
            if v:
                md.append(f"| {name} | {mode} | {statistics.median(v):.3f} ({min(v):.3f}–{max(v):.3f}) |")
    text = "\n".join(md)
    (out / "profile.md").write_text(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
