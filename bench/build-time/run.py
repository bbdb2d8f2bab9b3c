#!/usr/bin/env python3
"""Build-time benchmark: embed_skills! vs include_dir! vs one include_bytes! per file.

usage (from anywhere; Python 3 standard library only):
    python3 bench/build-time/run.py [--scratch DIR] [--trees real,s10,s100,s1000,s200x50]
        [--profiles dev,override] [--modes clean,touch] [--reps 5] [--no-wait]
        [--load-max 0.6] [--load-hold 30] [--load-timeout 900] [--no-sizes] [--out DIR]
    python3 bench/build-time/run.py --summarize-only     (re-print the tables from the JSONL)
    python3 bench/build-time/run.py --crates /tmp/snap/<commit>   (measure a frozen copy: see --help)

What it does (idempotent: files are rewritten only when their content changes, trees are
generated once and reused):
  1. Trees under <scratch>/trees/: `real` is ../shared/corpus/real used in place (never copied
     into the repository); `sN` are `gen-synthetic.py --skills N --files-per-skill 10
     --bytes-per-file 2048 --seed 1` for N = 10, 100, 1000; `s200x50` is the issue's example
     scale, 200 skills x 50 files x 2048 B.
  2. For each tree a Cargo workspace <scratch>/ws/<tree>/ (its own [workspace], outside ours)
     with three binary crates that embed the tree and print the same checksum over every byte
     of every file (file count, total bytes, wrapping sum of per-file FNV-1a):
       embed         skills-runtime (path, default-features = false), build.rs
                     `cargo::rerun-if-changed=<tree>`, `static S: Skills = embed_skills!(tree)`
       include-dir   include_dir = "0.7", the same build.rs, `static D: Dir = include_dir!(tree)`
       include-bytes no build.rs; generated main.rs with one `include_bytes!` per file (floor)
  3. Two profiles, each with its own target dir <scratch>/target-<profile>:
       dev       Cargo's default dev profile
       override  dev + `[profile.dev.build-override] opt-level = 3`, passed as the equivalent
                 CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL=3 (release sizes are built here too,
                 with CARGO_PROFILE_RELEASE_BUILD_OVERRIDE_OPT_LEVEL=3)
  4. Per (tree, profile) series: wait until the 1-minute load average has been below
     --load-max for --load-hold seconds (recorded), build everything once untimed (dependencies
     prebuilt, checksums compared), then --reps rounds; in each round the three crates are
     interleaved (rotating order):
       clean: `cargo clean -p <crate>` then a timed `cargo build -p <crate>` (build script
              compiled and run too, for the two crates that have one)
       touch: the mtime of one file of the tree is set explicitly to now, then a timed
              `cargo build -p <crate>` (build script re-run, crate recompiled)
     Timed: the wall time of `cargo build --offline -p <crate>`, and the crate's own rustc
     time and peak RSS, measured by a RUSTC_WRAPPER (<scratch>/rustc-wrap.sh) that logs every
     rustc run of the three bench packages.
  5. Sizes: debug binaries (dev profile) and release binaries (plain and stripped).
Results: <out>/build.jsonl, <out>/sizes.jsonl, <out>/summary.md (default out:
bench/build-time/results/). Medians with min-max; ratios are medians of per-round ratios.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
SHARED = REPO.parent / "shared"
CRATES = ["embed", "include-dir", "include-bytes"]
BIN_CRATE = {"embed": "embed", "include-dir": "include_dir", "include-bytes": "include_bytes"}
TREES = {  # name -> None (the real corpus) or (skills, files per skill, bytes per file)
    "real": None,
    "s10": (10, 10, 2048),
    "s100": (100, 10, 2048),
    "s1000": (1000, 10, 2048),
    "s200x50": (200, 50, 2048),
}
PROFILES = {
    "dev": {},
    "override": {
        "CARGO_PROFILE_DEV_BUILD_OVERRIDE_OPT_LEVEL": "3",
        "CARGO_PROFILE_RELEASE_BUILD_OVERRIDE_OPT_LEVEL": "3",
    },
}

CHECKSUM_RS = r"""
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

struct Sum { files: u64, bytes: u64, sum: u64 }

impl Sum {
    fn add(&mut self, bytes: &[u8]) {
        self.files += 1;
        self.bytes += bytes.len() as u64;
        self.sum = self.sum.wrapping_add(fnv(bytes));
    }
    fn print(&self) {
        println!("files={} bytes={} checksum={:016x}", self.files, self.bytes, self.sum);
    }
}
"""

WRAPPER = r"""#!/bin/sh
# RUSTC_WRAPPER for bench/build-time/run.py: runs rustc; for the bench packages, appends
# "<package> <crate-name> <crate-type> <microseconds> <peak RSS kB> <user s> <sys s>" to $BENCH_RUSTC_LOG.
case "$CARGO_PKG_NAME" in
  embed|embed-variant|include-dir|include-bytes) ;;
  *) exec "$@" ;;
esac
[ -n "$BENCH_RUSTC_LOG" ] || exec "$@"
name=; type=; prev=
for a in "$@"; do
  case "$prev" in --crate-name) name=$a ;; --crate-type) type=$a ;; esac
  prev=$a
done
[ -n "$name" ] || exec "$@"
export BENCH_NAME="$name" BENCH_TYPE="${type:-bin}"
# Python measures the child itself (wall, and user/sys/peak RSS from wait4 to the microsecond),
# so its own start-up is not counted.
exec python3 -c '
import os, sys, time
argv = sys.argv[1:]
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
rc = os.waitstatus_to_exitcode(status)
with open(os.environ["BENCH_RUSTC_LOG"], "a") as log:
    log.write(" ".join([os.environ["CARGO_PKG_NAME"], os.environ["BENCH_NAME"], os.environ["BENCH_TYPE"], str(int(wall * 1e6)), str(ru.ru_maxrss), "%.6f" % ru.ru_utime, "%.6f" % ru.ru_stime]) + "\n")
sys.exit(rc if rc >= 0 else 1)
' "$@"
"""


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def write_if_changed(path: Path, text: str, mode=None):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    if mode is not None:
        path.chmod(mode)


def rust_str(s: str) -> str:
    out = ['"']
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def tree_files(root: Path):
    """Regular files that embed_skills! embeds: everything but hidden entries, sorted."""
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for f in filenames:
            if not f.startswith("."):
                files.append(Path(dirpath) / f)
    return sorted(files, key=lambda p: p.relative_to(root).as_posix())


def make_tree(scratch: Path, name: str) -> Path:
    if TREES[name] is None:
        return (SHARED / "corpus" / "real").resolve()
    n, m, b = TREES[name]
    out = scratch / "trees" / name
    stamp = scratch / "trees" / f"{name}.args"
    args = f"--skills {n} --files-per-skill {m} --bytes-per-file {b} --seed 1"
    if out.exists() and stamp.exists() and stamp.read_text() == args:
        return out
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, str(SHARED / "corpus" / "gen-synthetic.py"), str(out), *args.split(), "--quiet"],
        check=True,
    )
    stamp.write_text(args)
    return out


CRATES_REPO = REPO  # where skills-runtime is taken from (--crates: e.g. a `git archive` snapshot)


def make_workspace(scratch: Path, name: str, tree: Path) -> Path:
    ws = scratch / "ws" / name
    runtime = CRATES_REPO / "skills-runtime"
    tree_lit = rust_str(str(tree))
    write_if_changed(
        ws / "Cargo.toml",
        '# Generated by bench/build-time/run.py. Its own workspace: never part of the repository\'s.\n'
        '[workspace]\nresolver = "3"\nmembers = ["embed", "include-dir", "include-bytes"]\n',
    )
    build_rs = f'fn main() {{ println!("cargo::rerun-if-changed={{}}", {tree_lit}); }}\n'
    write_if_changed(
        ws / "embed" / "Cargo.toml",
        '[package]\nname = "embed"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        f'[dependencies]\nskills-runtime = {{ path = {rust_str(str(runtime))}, default-features = false }}\n',
    )
    write_if_changed(ws / "embed" / "build.rs", build_rs)
    write_if_changed(
        ws / "embed" / "src" / "main.rs",
        f"use skills_runtime::{{Skills, embed_skills}};\n\nstatic SKILLS: Skills = embed_skills!({tree_lit});\n"
        + CHECKSUM_RS
        + "\nfn main() {\n    let mut s = Sum { files: 0, bytes: 0, sum: 0 };\n"
        "    for (_, file) in SKILLS.files() {\n        s.add(file.bytes());\n    }\n    s.print();\n}\n",
    )
    write_if_changed(
        ws / "include-dir" / "Cargo.toml",
        '[package]\nname = "include-dir"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n\n'
        '[dependencies]\ninclude_dir = "0.7"\n',
    )
    write_if_changed(ws / "include-dir" / "build.rs", build_rs)
    write_if_changed(
        ws / "include-dir" / "src" / "main.rs",
        f"use include_dir::{{Dir, DirEntry, include_dir}};\n\nstatic DIR: Dir<'static> = include_dir!({tree_lit});\n"
        + CHECKSUM_RS
        + "\nfn walk(dir: &Dir<'_>, s: &mut Sum) {\n    for entry in dir.entries() {\n"
        "        match entry {\n            DirEntry::Dir(d) => walk(d, s),\n"
        "            DirEntry::File(f) => s.add(f.contents()),\n        }\n    }\n}\n\n"
        "fn main() {\n    let mut s = Sum { files: 0, bytes: 0, sum: 0 };\n    walk(&DIR, &mut s);\n    s.print();\n}\n",
    )
    write_if_changed(
        ws / "include-bytes" / "Cargo.toml",
        '[package]\nname = "include-bytes"\nversion = "0.0.0"\nedition = "2024"\npublish = false\n',
    )
    lines = ",\n".join(f"    include_bytes!({rust_str(str(p))})" for p in tree_files(tree))
    write_if_changed(
        ws / "include-bytes" / "src" / "main.rs",
        f"// Generated: one include_bytes! per file of {tree} (the floor).\n"
        f"static FILES: &[&[u8]] = &[\n{lines},\n];\n"
        + CHECKSUM_RS
        + "\nfn main() {\n    let mut s = Sum { files: 0, bytes: 0, sum: 0 };\n"
        "    for f in FILES {\n        s.add(f);\n    }\n    s.print();\n}\n",
    )
    return ws


def commit() -> str:
    """The repository commit measured (with `+dirty` when crates have uncommitted changes), or
    the name of the --crates folder when that is not the repository."""
    if CRATES_REPO != REPO:
        return CRATES_REPO.name
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "skills-core", "skills-macros", "skills-runtime"],
                           capture_output=True, text=True).stdout.strip()
    return head + ("+dirty" if dirty else "")


def loadavg() -> float:
    return float(Path("/proc/loadavg").read_text().split()[0])


def wait_quiet(limit: float, hold: float, timeout: float) -> dict:
    """Waits until the 1-minute load average stays below `limit` for `hold` seconds."""
    t0 = time.time()
    below_since = None
    while True:
        load = loadavg()
        now = time.time()
        if load < limit:
            below_since = below_since or now
            if now - below_since >= hold:
                return {"waited_s": round(now - t0, 1), "load_at_start": load, "quiet": True}
        else:
            below_since = None
        if now - t0 > timeout:
            log(f"  load still {load:.2f} after {timeout:.0f} s; measuring anyway (recorded)")
            return {"waited_s": round(now - t0, 1), "load_at_start": load, "quiet": False}
        time.sleep(2)


class Cargo:
    def __init__(self, scratch: Path, profile: str, ws: Path):
        self.ws = ws
        self.log_path = scratch / f"rustc-{profile}.log"
        self.env = dict(os.environ)
        self.env.update(PROFILES[profile])
        self.env["CARGO_TARGET_DIR"] = str(scratch / f"target-{profile}")
        self.env["RUSTC_WRAPPER"] = str(scratch / "rustc-wrap.sh")
        self.env["BENCH_RUSTC_LOG"] = str(self.log_path)
        self.env.pop("CARGO_BUILD_RUSTC_WRAPPER", None)
        self.target = Path(self.env["CARGO_TARGET_DIR"])

    def run(self, *args, check=True):
        p = subprocess.run(["cargo", *args], cwd=self.ws, env=self.env, capture_output=True, text=True)
        if check and p.returncode != 0:
            log(p.stderr[-4000:])
            raise SystemExit(f"cargo {' '.join(args)} failed in {self.ws}")
        return p

    def timed_build(self, crate: str) -> dict:
        self.log_path.write_text("")
        t0 = time.perf_counter()
        self.run("build", "--offline", "-p", crate)
        wall = time.perf_counter() - t0
        rows = [l.split() for l in self.log_path.read_text().splitlines() if l.strip()]
        rustc = [r for r in rows if r[0] == crate and r[1] == BIN_CRATE[crate]]
        script = [r for r in rows if r[0] == crate and r[1] == "build_script_build"]
        if not rustc:
            raise SystemExit(f"{crate} was not recompiled: {rows}")
        return {
            "wall_s": wall,
            "rustc_s": sum(int(r[3]) for r in rustc) / 1e6,
            "rustc_rss_mb": max(int(r[4]) for r in rustc) / 1024,
            # CPU time (user + sys) of the crate's rustc: steadier than wall time on a shared machine.
            "rustc_cpu_s": sum(float(r[5]) + float(r[6]) for r in rustc if len(r) >= 7),
            "build_rs_compile_s": sum(int(r[3]) for r in script) / 1e6,
        }

    def binary(self, crate: str, release=False) -> Path:
        return self.target / ("release" if release else "debug") / crate


def checksum_of(path: Path) -> str:
    return subprocess.run([str(path)], capture_output=True, text=True, check=True).stdout.strip()


def add_wait_arguments(ap):
    """The quiet-machine options every timed script takes (run-all passes them through)."""
    ap.add_argument("--no-wait", action="store_true", help="do not wait for a quiet machine (smoke tests)")
    ap.add_argument("--load-max", type=float, default=0.6)
    ap.add_argument("--load-hold", type=float, default=30)
    ap.add_argument("--load-timeout", type=float, default=900)


def wait_as_asked(a) -> dict:
    """Waits for a quiet machine unless --no-wait; the load it measured at, to record."""
    if a.no_wait:
        return {"waited_s": 0, "load_at_start": loadavg(), "quiet": None}
    return wait_quiet(a.load_max, a.load_hold, a.load_timeout)


def build_untimed(cargo: "Cargo"):
    """Every crate of the workspace built, untimed. The workspaces of all trees share a target dir
    and their crates' names, so artifacts (build-script output included) of the previous tree are
    cleaned first."""
    cargo.run("clean", "--offline", *[x for c in CRATES for x in ("-p", c)], check=False)
    cargo.run("build", "--workspace")


def built_workspace(scratch: Path, name: str):
    """Tree `name` and its workspace, every crate built in the dev profile: (tree, Cargo)."""
    tree = make_tree(scratch, name)
    cargo = Cargo(scratch, "dev", make_workspace(scratch, name, tree))
    build_untimed(cargo)
    return tree, cargo


def tree_stats(tree: Path) -> dict:
    files = tree_files(tree)
    skills = sum(1 for f in files if f.name == "SKILL.md")
    return {"skills": skills, "files": len(files), "bytes": sum(f.stat().st_size for f in files)}


def touch_target(tree: Path) -> Path:
    # A supporting text file (not SKILL.md), so every crate's content is unchanged.
    files = tree_files(tree)
    for f in files:
        if f.name != "SKILL.md" and f.suffix == ".md":
            return f
    return files[len(files) // 2]


def fmt(vals, nd=3):
    return f"{statistics.median(vals):.{nd}f} ({min(vals):.{nd}f}–{max(vals):.{nd}f})"


def ratio(rows, key, num, den):
    by = {}
    for r in rows:
        by.setdefault(r["rep"], {})[r["crate"]] = r[key]
    rs = [d[num] / d[den] for d in by.values() if num in d and den in d and d[den]]
    return f"{statistics.median(rs):.2f} ({min(rs):.2f}–{max(rs):.2f})" if rs else "–"


def summarize(out: Path) -> str:
    rows = [json.loads(l) for l in (out / "build.jsonl").read_text().splitlines() if l.strip()] \
        if (out / "build.jsonl").exists() else []
    sizes = [json.loads(l) for l in (out / "sizes.jsonl").read_text().splitlines() if l.strip()] \
        if (out / "sizes.jsonl").exists() else []
    series = [json.loads(l) for l in (out / "series.jsonl").read_text().splitlines() if l.strip()] \
        if (out / "series.jsonl").exists() else []
    md = []
    if series:
        md.append("### Trees and load per series\n")
        md.append("| tree | skills | files | bytes | profile | commit | load before (1-min) | waited s | quiet | load after |")
        md.append("|---|---|---|---|---|---|---|---|---|---|")
        for s in series:
            md.append(f"| {s['tree']} | {s['skills']} | {s['files']} | {s['bytes']:,} | {s['profile']} | {s.get('commit', '?')} | "
                      f"{s['load_at_start']:.2f} | {s['waited_s']} | {s['quiet']} | {s.get('load_after', float('nan')):.2f} |")
        md.append("")
    cpu = any("rustc_cpu_s" in r for r in rows)
    for key, title in (("rustc_s", "crate's own rustc time, s"),
                       *((("rustc_cpu_s", "CPU time (user + sys) of the crate's rustc, s"),) if cpu else ()),
                       ("wall_s", "wall time of `cargo build -p`, s")):
        md.append(f"### {title}: median (min–max); ratios are medians of per-round ratios\n")
        md.append("| tree | profile | mode | embed | include-dir | include-bytes | embed ÷ include-dir | embed ÷ include-bytes | n |")
        md.append("|---|---|---|---|---|---|---|---|---|")
        keys = list(dict.fromkeys((r["tree"], r["profile"], r["mode"]) for r in rows))
        for tree, profile, mode in keys:
            rs = [r for r in rows if (r["tree"], r["profile"], r["mode"]) == (tree, profile, mode)]
            cells = []
            for c in CRATES:
                v = [r[key] for r in rs if r["crate"] == c and key in r]
                cells.append(fmt(v) if v else "–")
            n = len([r for r in rs if r["crate"] == "embed"])
            md.append(f"| {tree} | {profile} | {mode} | " + " | ".join(cells) + f" | {ratio(rs, key, 'embed', 'include-dir')} | "
                      f"{ratio(rs, key, 'embed', 'include-bytes')} | {n} |")
        md.append("")
    if rows:
        md.append("### Peak RSS of the crate's rustc, MB (median)\n")
        md.append("| tree | profile | mode | embed | include-dir | include-bytes |")
        md.append("|---|---|---|---|---|---|")
        for tree, profile, mode in dict.fromkeys((r["tree"], r["profile"], r["mode"]) for r in rows):
            rs = [r for r in rows if (r["tree"], r["profile"], r["mode"]) == (tree, profile, mode)]
            cells = [f"{statistics.median(v):.0f}" if (v := [r['rustc_rss_mb'] for r in rs if r['crate'] == c]) else "–"
                     for c in CRATES]
            md.append(f"| {tree} | {profile} | {mode} | " + " | ".join(cells) + " |")
        md.append("")
    if sizes:
        md.append("### Binary sizes, bytes (ratio to include-dir)\n")
        md.append("| tree | build | embed | include-dir | include-bytes | embed ÷ include-dir |")
        md.append("|---|---|---|---|---|---|")
        for s in sizes:
            for kind in ("debug", "release", "release_stripped"):
                e, d, b = (s.get(c, {}).get(kind) for c in CRATES)
                if not (e and d and b):
                    continue
                md.append(f"| {s['tree']} | {kind} | {e:,} | {d:,} | {b:,} | {e / d:.4f} |")
        md.append("")
    text = "\n".join(md)
    (out / "summary.md").write_text(text + "\n")
    return text


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scratch", default=str(REPO / "target" / "bench-build"))
    ap.add_argument("--out", default=str(HERE / "results"))
    ap.add_argument("--trees", default="real,s10,s100,s1000,s200x50")
    ap.add_argument("--profiles", default="dev,override")
    ap.add_argument("--modes", default="clean,touch")
    ap.add_argument("--reps", type=int, default=5)
    add_wait_arguments(ap)
    ap.add_argument("--no-sizes", action="store_true")
    ap.add_argument("--append", action="store_true", help="append to the JSONL files instead of starting afresh")
    ap.add_argument("--summarize-only", action="store_true")
    ap.add_argument("--crates", help="take skills-runtime from this copy of the repository (for example "
                    "`git archive HEAD | tar -x -C /tmp/snap/<commit>`) so that commits landing during a run "
                    "do not change what is measured; default: this repository")
    a = ap.parse_args()
    global CRATES_REPO
    if a.crates:
        CRATES_REPO = Path(a.crates).resolve()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    if a.summarize_only:
        print(summarize(out))
        return
    scratch = Path(a.scratch).resolve()
    scratch.mkdir(parents=True, exist_ok=True)
    write_if_changed(scratch / "rustc-wrap.sh", WRAPPER, 0o755)
    if not a.append:
        for f in ("build.jsonl", "sizes.jsonl", "series.jsonl"):
            (out / f).write_text("")
    trees = a.trees.split(",")
    profiles = a.profiles.split(",")
    modes = a.modes.split(",")
    for name in trees:
        tree = make_tree(scratch, name)
        ws = make_workspace(scratch, name, tree)
        stats = tree_stats(tree)
        log(f"== tree {name}: {stats} at {tree}")
        sizes = {"tree": name, **stats}
        for profile in profiles:
            cargo = Cargo(scratch, profile, ws)
            # Untimed: dependencies and all three crates, then the checksums must agree.
            build_untimed(cargo)
            sums = {c: checksum_of(cargo.binary(c)) for c in CRATES}
            if len(set(sums.values())) != 1:
                raise SystemExit(f"checksums differ on {name}: {sums}")
            log(f"   {profile}: {sums['embed']}")
            if profile == "dev" and not a.no_sizes:
                for c in CRATES:
                    sizes.setdefault(c, {})["debug"] = cargo.binary(c).stat().st_size
            series = {"tree": name, "profile": profile, "commit": commit(), **stats}
            series.update(wait_as_asked(a))
            log(f"   series {profile}: load {series['load_at_start']:.2f} (waited {series['waited_s']} s)")
            touched = touch_target(tree)
            with open(out / "build.jsonl", "a") as f:
                for mode in modes:
                    for rep in range(a.reps):
                        order = CRATES[rep % 3:] + CRATES[: rep % 3]
                        for crate in order:
                            if mode == "clean":
                                cargo.run("clean", "--offline", "-p", crate)
                            else:
                                now = time.time()
                                os.utime(touched, (now, now))
                            r = cargo.timed_build(crate)
                            row = {"tree": name, "profile": profile, "mode": mode, "rep": rep, "crate": crate,
                                   **r, "load": loadavg()}
                            f.write(json.dumps(row) + "\n")
                            f.flush()
                            log(f"   {mode} #{rep} {crate:13} wall {r['wall_s']:.3f} rustc {r['rustc_s']:.3f}")
            series["load_after"] = loadavg()
            with open(out / "series.jsonl", "a") as f:
                f.write(json.dumps(series) + "\n")
        if not a.no_sizes:
            # Release sizes (the override only makes the macro faster; it does not change the output).
            cargo = Cargo(scratch, "override", ws)
            cargo.run("clean", "--offline", "--release", *[a for c in CRATES for a in ("-p", c)], check=False)
            cargo.run("build", "--release", "--workspace")
            sums = {c: checksum_of(cargo.binary(c, release=True)) for c in CRATES}
            if len(set(sums.values())) != 1:
                raise SystemExit(f"release checksums differ on {name}: {sums}")
            for c in CRATES:
                b = cargo.binary(c, release=True)
                stripped = scratch / f"{c}.stripped"
                subprocess.run(["strip", "-o", str(stripped), str(b)], check=True)
                sizes.setdefault(c, {})["release"] = b.stat().st_size
                sizes[c]["release_stripped"] = stripped.stat().st_size
            with open(out / "sizes.jsonl", "a") as f:
                f.write(json.dumps(sizes) + "\n")
    print(summarize(out))


if __name__ == "__main__":
    main()
