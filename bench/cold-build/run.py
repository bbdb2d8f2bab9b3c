#!/usr/bin/env python3
"""Cold build of a user's crate: the README's Quickstart against an rmcp stdio hello-world.

usage (from anywhere; Python 3 standard library only):
    python3 bench/cold-build/run.py [--crates DIR] [--variants quickstart,hello,...] [--rounds 3]
        [--quick] [--no-wait] [--load-max 0.6] [--load-hold 30] [--load-timeout 900]
        [--scratch DIR] [--out DIR] [--tag NAME]

What it builds (each crate is its own Cargo workspace under <scratch>, outside ours):
  quickstart   the README's Quickstart, read from README.md at run time (the ```toml block's
               dependencies: skills-runtime by path, rmcp, tokio; the one-line build.rs and the
               main.rs that serves the embedded folder) plus the blanket
               `[profile.dev.build-override] opt-level = 3`, which the Quickstart recommended
               until 2026-12-01 and the Rebuilds section now offers as an option; the path
               dependency points at <crates>/skills-runtime, a `git archive` snapshot of HEAD
               unless --crates names one; the folder embedded is the snapshot's own examples/skills/
  quickstart-no-override
               the same without any profile table: the Quickstart as the README writes it now
  quickstart-narrow-override (only with --variants)
               the same with the override narrowed to the crates whose code runs in the macro
               (skills-macros, skills-core, sha2, aho-corasick, granit-parser,
               proc-macro2, quote), as `[profile.dev.package]` opt-level = 3
  demo         the README's run command, `cargo build --example demo`, in the snapshot itself (its
               own workspace and Cargo.lock): the first build a newcomer waits for
  hello        an rmcp stdio hello-world with the same rmcp and tokio dependency lines as the
               Quickstart: a ServerHandler with get_info and one tool, served on stdio, no
               build-override (it has no macro of its own to speed up)
Every crate starts from the snapshot's Cargo.lock (Cargo drops what it does not use), so both
sides compile the same versions of rmcp, tokio, serde and syn.

How it measures: per round, every variant in a rotating order, each a cold build: its target
dir deleted, then `cargo build --offline` (the registry is already downloaded: a cold build of
the crate, not a download). Recorded: wall time, CPU time (user + system of cargo and every
rustc, build script and linker it ran: getrusage of the waited children), the number of units
compiled, the 1-minute load before and after. Round 0 runs with `--timings`; its HTML report is
kept in <out>/timings-[<tag>-]<variant>.html and the units on the critical path and the slowest units are
summarised in <out>/timings.jsonl. The environment's CARGO_PROFILE_*, CARGO_TARGET_DIR,
RUSTC_WRAPPER and CARGO_BUILD_* are cleared so the build is what a user gets.
Before the series the script waits for the 1-minute load to stay below --load-max for
--load-hold s (--no-wait skips; the load is recorded either way). With two shared cores the wall
time is noisy; CPU time and the per-round ratios are the figures to read.

Results: <out>/cold.jsonl (one row per build, appended: rows carry the tag, commit and
round), <out>/timings.jsonl. Default out: bench/cold-build/results/.
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
VARIANTS = ["quickstart", "hello", "quickstart-no-override", "demo"]
# Not measured unless named in --variants: the Quickstart with the build-override narrowed to the
# crates whose code runs inside embed_skills! (its phases in bench/build-time/profile.py: SHA-256,
# the secret scan, YAML, token generation), so that the other proc macros compile unoptimised.
NARROW_OVERRIDE = """[profile.dev.package]
skills-macros.opt-level = 3
skills-core.opt-level = 3
sha2.opt-level = 3
aho-corasick.opt-level = 3
granit-parser.opt-level = 3
proc-macro2.opt-level = 3
quote.opt-level = 3
"""
# The variant `quickstart`'s profile when the README's Quickstart has none (the README dropped it
# on 2026-12-01), so that the variant keeps meaning what its committed rows measured.
BLANKET_OVERRIDE = """[profile.dev.build-override]
opt-level = 3
"""
ALL_VARIANTS = VARIANTS + ["quickstart-narrow-override"]
# What `cargo build` builds besides the crate's binary, per variant.
EXTRA_ARGS = {"demo": ("--example", "demo")}

HELLO_RS = r"""//! An rmcp stdio hello-world: one tool, served on stdio.
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServiceExt};
use std::sync::Arc;

struct Hello;

impl ServerHandler for Hello {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("hello", "0.1.0"))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let schema = serde_json::json!({"type": "object", "properties": {}});
        let serde_json::Value::Object(schema) = schema else { unreachable!() };
        Ok(ListToolsResult::with_all_items(vec![Tool::new("hello", "Says hello.", Arc::new(schema))]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if request.name != "hello" {
            return Err(ErrorData::invalid_params("unknown tool", None));
        }
        Ok(CallToolResult::success(vec![ContentBlock::text("hello")]).into())
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    eprintln!("waiting for an MCP client on stdin");
    Hello.serve(rmcp::transport::stdio()).await?.waiting().await?;
    Ok(())
}
"""


def log(*a):
    print(*a, file=sys.stderr, flush=True)


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


def quickstart_blocks(readme: str) -> dict:
    """The Quickstart's Cargo.toml lines, build.rs and main.rs, as the README shows them."""
    start = readme.index("\n## Quickstart")
    end = readme.index("\n## ", start + 1)
    section = readme[start:end]
    blocks = re.findall(r"```([^\n]*)\n(.*?)```", section, re.S)
    toml = [b for lang, b in blocks if lang.strip() == "toml"]
    rust = [b for lang, b in blocks if lang.strip().startswith("rust")]
    build_rs = [b for b in rust if "rerun-if-changed" in b]
    main_rs = [b for b in rust if "embed_skills!" in b and "fn main" in b]
    if len(toml) != 1 or len(build_rs) != 1 or len(main_rs) != 1:
        raise SystemExit("README.md's Quickstart no longer has one toml block, one build.rs and one main.rs")
    return {"toml": toml[0], "build_rs": build_rs[0], "main_rs": main_rs[0]}


def split_toml(toml: str) -> tuple[list, str]:
    """The Quickstart's [dependencies] lines and everything after them (the profile tables)."""
    deps, rest, section = [], [], None
    for line in toml.splitlines():
        if line.startswith("["):
            section = line.strip()
        if section == "[dependencies]":
            if line.strip() and not line.startswith("[") and not line.lstrip().startswith("#"):
                deps.append(line)
        elif section is not None:
            rest.append(line)
    return deps, "\n".join(rest).strip() + "\n"


def write(path: Path, text: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def make_crates(scratch: Path, crates: Path) -> dict:
    qs = quickstart_blocks((crates / "README.md").read_text())
    deps, profile = split_toml(qs["toml"])
    runtime_line = [d for d in deps if d.startswith("skills-runtime")]
    other = [d for d in deps if not d.startswith("skills-runtime")]
    if len(runtime_line) != 1 or not any(d.startswith("rmcp") for d in other):
        raise SystemExit(f"unexpected Quickstart dependencies: {deps}")
    ours = re.sub(r'path\s*=\s*"[^"]*"', f'path = {json.dumps(str(crates / "skills-runtime"))}', runtime_line[0])
    head = '[package]\nname = "{}"\nversion = "0.1.0"\nedition = "2024"\npublish = false\n\n' \
           "# Generated by bench/cold-build/run.py; its own workspace.\n[workspace]\n\n[dependencies]\n"
    dirs = {}
    for variant in ALL_VARIANTS:
        if variant == "demo":
            dirs[variant] = crates
            continue
        d = scratch / variant
        if variant == "hello":
            # serde_json builds the tool's schema; rmcp depends on it already, so it adds no crate.
            body = head.format(variant) + "\n".join(other) + '\nserde_json = "1"\n'
            write(d / "src" / "main.rs", HELLO_RS)
        else:
            body = head.format(variant) + "\n".join([ours, *other]) + "\n"
            if variant == "quickstart":
                body += "\n" + (profile if "build-override" in profile else BLANKET_OVERRIDE)
            elif variant == "quickstart-narrow-override":
                body += "\n" + NARROW_OVERRIDE
            write(d / "build.rs", qs["build_rs"])
            write(d / "src" / "main.rs", qs["main_rs"])
            skills = d / "skills"
            if skills.exists():
                shutil.rmtree(skills)
            # The example skills: examples/skills/ since the root became a
            # workspace only; skills/ in snapshots from before.
            examples = crates / "examples" / "skills"
            shutil.copytree(examples if examples.is_dir() else crates / "skills", skills)
        write(d / "Cargo.toml", body)
        lock = d / "Cargo.lock"
        if not lock.exists():
            shutil.copy(crates / "Cargo.lock", lock)
        dirs[variant] = d
    return dirs


def clean_env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("CARGO_PROFILE_") or k.startswith("CARGO_BUILD_")
                   or k in ("CARGO_TARGET_DIR", "RUSTC_WRAPPER", "RUSTFLAGS", "CARGO_INCREMENTAL"))}
    return env


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cold_build(d: Path, timings: bool, args: tuple = ()) -> dict:
    target = d / "target"
    if target.exists():
        shutil.rmtree(target)
    cmd = ["cargo", "build", "--offline", *args] + (["--timings"] if timings else [])
    load = loadavg()
    cpu0, t0 = children_cpu(), time.perf_counter()
    p = subprocess.run(cmd, cwd=d, env=clean_env(), capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t0, children_cpu() - cpu0
    if p.returncode != 0:
        log(p.stderr[-4000:])
        raise SystemExit(f"cargo build failed in {d}")
    units = sum(1 for l in p.stderr.splitlines() if l.strip().startswith("Compiling "))
    return {"wall_s": round(wall, 3), "cpu_s": round(cpu, 3), "units": units,
            "load_before": load, "load_after": loadavg()}


def timings_summary(d: Path, variant: str, out: Path, tag: str = "") -> dict:
    """Keeps Cargo's HTML report and summarises its unit data: critical path and slowest units."""
    html = d / "target" / "cargo-timings" / "cargo-timing.html"
    shutil.copy(html, out / f"timings-{tag + '-' if tag else ''}{variant}.html")
    text = html.read_text()
    m = re.search(r"const UNIT_DATA = (\[.*?\]);\n", text, re.S)
    units = json.loads(m.group(1)) if m else []
    for u in units:
        u["end"] = u["start"] + u["duration"]
    by_index = {u["i"]: u for u in units}
    # The critical path: from the unit that ends last, step back to the dependency that
    # unblocked it (the one of its dependencies that finished last).
    unblocked_by = {}
    for u in units:
        for j in u.get("unblocked_units", []) + u.get("unblocked_rmeta_units", []):
            unblocked_by.setdefault(j, []).append(u["i"])
    path = []
    cur = max(units, key=lambda u: u["end"]) if units else None
    while cur is not None:
        path.append(cur)
        parents = [by_index[i] for i in unblocked_by.get(cur["i"], [])]
        cur = max(parents, key=lambda u: u["end"]) if parents else None
    name = lambda u: f'{u["name"]} {u["version"]}' + (f' ({u["target"].strip()})' if u.get("target", "").strip() else "") \
        + (" [host]" if u.get("mode") == "run-custom-build" else "")
    return {
        "variant": variant,
        "total_s": round(max((u["end"] for u in units), default=0), 2),
        "critical_path": [{"unit": name(u), "start_s": round(u["start"], 2), "duration_s": round(u["duration"], 2)}
                          for u in reversed(path)],
        "slowest": [{"unit": name(u), "duration_s": round(u["duration"], 2)}
                    for u in sorted(units, key=lambda u: -u["duration"])[:12]],
        # Every unit, to tell what the Quickstart adds to the hello-world from what both build.
        "units": sorted([name(u), round(u["duration"], 2)] for u in units),
    }


def snapshot_head(scratch: Path) -> Path:
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True, check=True).stdout.strip()
    snap = scratch / "snap" / commit
    if not (snap / "Cargo.toml").exists():
        snap.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD"], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(snap)], input=archive.stdout, check=True)
    return snap


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--crates", type=Path, help="a copy of the repository (default: a git archive of HEAD)")
    ap.add_argument("--variants", default=",".join(VARIANTS))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="one round, quickstart and hello only")
    ap.add_argument("--no-wait", action="store_true")
    ap.add_argument("--load-max", type=float, default=0.6)
    ap.add_argument("--load-hold", type=float, default=30)
    ap.add_argument("--load-timeout", type=float, default=900)
    ap.add_argument("--scratch", type=Path, default=REPO / "target" / "cold-build")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    ap.add_argument("--tag", default="", help="a label stored in every row (e.g. before/after a change)")
    ap.add_argument("--first-round", type=int, default=0,
                    help="number the rounds from here (more rounds of a tag already measured; round 0 keeps --timings)")
    a = ap.parse_args()
    if a.quick:
        a.rounds, a.variants = 1, "quickstart,hello"
    variants = a.variants.split(",")
    a.scratch = a.scratch.resolve()
    crates = (a.crates or snapshot_head(a.scratch)).resolve()
    commit = crates.name if a.crates else subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirs = make_crates(a.scratch / "crates", crates)
    a.out.mkdir(parents=True, exist_ok=True)
    series = {"series": "cold-build", "commit": commit, "tag": a.tag, "crates": str(crates),
              "rustc": subprocess.run(["rustc", "--version"], capture_output=True, text=True).stdout.strip(),
              "nproc": os.cpu_count()}
    series.update({"waited_s": 0, "load_at_start": loadavg(), "quiet": None} if a.no_wait
                  else wait_quiet(a.load_max, a.load_hold, a.load_timeout))
    log(f"cold builds of {variants} from {crates}: {a.rounds} rounds, load {series['load_at_start']}")
    rows = []
    with open(a.out / "cold.jsonl", "a") as f:
        f.write(json.dumps(series) + "\n")
        for r in range(a.first_round, a.first_round + a.rounds):
            order = variants[r % len(variants):] + variants[:r % len(variants)]
            for v in order:
                row = {"commit": commit, "tag": a.tag, "round": r, "variant": v, "timings": r == 0,
                       **cold_build(dirs[v], timings=(r == 0), args=EXTRA_ARGS.get(v, ()))}
                log(f"  round {r} {v}: wall {row['wall_s']:.1f} s, cpu {row['cpu_s']:.1f} s, "
                    f"{row['units']} units, load {row['load_before']:.2f}")
                f.write(json.dumps(row) + "\n")
                f.flush()
                rows.append(row)
                if r == 0:
                    with open(a.out / "timings.jsonl", "a") as t:
                        t.write(json.dumps({"commit": commit, "tag": a.tag, **timings_summary(dirs[v], v, a.out, a.tag)}) + "\n")
                shutil.rmtree(dirs[v] / "target")
        f.write(json.dumps({"series_end": "cold-build", "commit": commit, "tag": a.tag, "load_after": loadavg()}) + "\n")
    by = {v: [x for x in rows if x["variant"] == v] for v in variants}
    for v in variants:
        w = sorted(x["wall_s"] for x in by[v]); c = sorted(x["cpu_s"] for x in by[v])
        log(f"{v}: wall median {w[len(w) // 2]:.1f} s, cpu median {c[len(c) // 2]:.1f} s")


if __name__ == "__main__":
    main()
