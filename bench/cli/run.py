#!/usr/bin/env python3
"""CLI benchmark: `skills check` against the reference validator on the same tree.

usage (from anywhere; Python 3 standard library only):
    python3 bench/cli/run.py [--tree ../shared/corpus/real] [--reps 15] [--no-wait]
        [--load-max 0.6] [--load-hold 30] [--load-timeout 900] [--out bench/cli/results]
        [--agentskills PATH] [--baseline COMMIT]

What it does:
  1. Builds `skills` in release mode (`cargo build --release --locked -p skills-cli`, what
     `cargo install --path skills-cli` builds) and finds `agentskills` (skills-ref 0.1.1) in
     $SKILLS_E2E_VENVS/skills-ref (default <repo>/target/e2e-venvs; made by
     tests/e2e/clients/setup.sh).
  2. The tree's skills are its folders holding a SKILL.md (default: ../shared/corpus/real,
     23 skills, read in place).
  3. Three variants, each checking every skill of the tree:
       skills          `skills check <tree>`: one process for the whole tree (every rule,
                       every file read and hashed)
       agentskills     `agentskills validate <skill>` once per skill, as CI scripts call it
                       (it takes one folder per call)
       skills_ref-api  `skills_ref.validator.validate()` on every skill in one Python
                       process (the reference without one interpreter start per skill)
       skills-baseline `skills check <tree>` built at --baseline COMMIT (in a detached git
                       worktree, its own target folder): the same job before a change, to
                       measure what the change costs (issue 32: what every reader does with
                       each skill, predicted by default, within 10 % of the time before it).
                       With --baseline only `skills` and this variant run, and the rows go to
                       <out>/cli-baseline.jsonl (the other variants' file stays as it is).
     Each variant's verdicts are checked once before timing (all must pass on `real`).
     Timed: wall time, and the CPU time (user + system) of the variant's processes, from
     getrusage(RUSAGE_CHILDREN), which a loaded machine disturbs far less.
  4. Waits until the 1-minute load average has stayed below --load-max for --load-hold
     seconds (recorded), runs every variant once untimed (warm caches), then --reps rounds;
     in each round the variants run one after another in a rotating order. Timed: the wall
     time of the variant (all its processes), with time.perf_counter.
Results: <out>/cli.jsonl (one row per timed run) and <out>/summary.md: medians with min-max,
and ratios as the median of the per-round ratios (agentskills / skills, target >= 10).
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
VARIANTS = ["skills", "agentskills", "skills_ref-api"]
BASELINE = "skills-baseline"

API_SCRIPT = r"""
import sys
from pathlib import Path
from skills_ref.validator import validate
bad = [(p, e) for p in sys.argv[1:] for e in [validate(Path(p))] if e]
for path, errors in bad:
    print(path, errors, file=sys.stderr)
sys.exit(1 if bad else 0)
"""


def load1():
    return os.getloadavg()[0]


def wait_for_quiet(args):
    if args.no_wait:
        return {"waited_s": 0, "load_before": load1()}
    start = time.time()
    quiet_since = None
    while True:
        now = time.time()
        if load1() < args.load_max:
            quiet_since = quiet_since or now
            if now - quiet_since >= args.load_hold:
                return {"waited_s": round(now - start, 1), "load_before": load1()}
        else:
            quiet_since = None
        if now - start > args.load_timeout:
            print(f"warning: load stayed above {args.load_max} for {args.load_timeout} s; measuring anyway",
                  file=sys.stderr)
            return {"waited_s": round(now - start, 1), "load_before": load1(), "load_timeout": True}
        time.sleep(2)


def skill_folders(tree):
    return sorted(str(p.parent) for p in tree.glob("*/SKILL.md"))


def commands(variant, args, tree, skills):
    """The processes one run of `variant` starts, in order."""
    if variant == "skills":
        return [[str(args.skills_bin), "check", "--color", "never", str(tree)]]
    if variant == BASELINE:
        return [[str(args.baseline_bin), "check", "--color", "never", str(tree)]]
    if variant == "agentskills":
        return [[str(args.agentskills), "validate", folder] for folder in skills]
    python = str(Path(args.agentskills).parent / "python")
    return [[python, "-c", API_SCRIPT, *skills]]


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_variant(variant, args, tree, skills, check=False):
    """Wall and CPU seconds of one run of `variant`."""
    start, cpu = time.perf_counter(), children_cpu()
    for command in commands(variant, args, tree, skills):
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if check and result.returncode != 0:
            sys.exit(f"{variant}: {' '.join(command[:3])} … failed ({result.returncode}):\n"
                     f"{result.stdout.decode()}{result.stderr.decode()}")
    return time.perf_counter() - start, children_cpu() - cpu


def build_baseline(commit):
    """`skills` built at `commit`, in a detached worktree with a target folder of its own."""
    worktree = REPO / "target/bench-cli-baseline/src"
    target = REPO / "target/bench-cli-baseline/target"
    kept = REPO / f"target/bench-cli-baseline/skills-{commit}"
    if kept.exists():
        return kept
    if worktree.exists():
        subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=REPO, check=True)
    subprocess.run(["git", "worktree", "add", "--detach", str(worktree), commit], cwd=REPO, check=True,
                   stdout=subprocess.DEVNULL)
    try:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "-p", "skills-cli"],
                       cwd=worktree, env={**os.environ, "CARGO_TARGET_DIR": str(target)}, check=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(worktree)], cwd=REPO, check=True)
    shutil.copy2(target / "release/skills", kept)
    return kept


def summarize(rows, reps, variants=VARIANTS):
    by = {v: [r["seconds"] for r in rows if r["variant"] == v] for v in variants}
    rounds, cpu_rounds = {}, {}
    for r in rows:
        rounds.setdefault(r["round"], {})[r["variant"]] = r["seconds"]
        cpu_rounds.setdefault(r["round"], {})[r["variant"]] = r.get("cpu_seconds", 0)

    def cell(values):
        return f"{statistics.median(values):.3f} ({min(values):.3f}–{max(values):.3f})"

    def ratio(num, den):
        values = [rd[num] / rd[den] for rd in rounds.values() if num in rd and den in rd]
        return statistics.median(values), min(values), max(values)

    lines = [
        f"| variant | wall time, s (median, min–max over {reps} rounds) | ÷ skills |",
        "|---|---|---|",
    ]
    for v in variants:
        if v == BASELINE:
            med, lo, hi = ratio(v, "skills")
            lines.append(f"| `skills check <tree>` built at the baseline | {cell(by[v])} | {med:.3f} ({lo:.3f}–{hi:.3f}) |")
            continue
        if v == "skills":
            lines.append(f"| `skills check <tree>` | {cell(by[v])} | 1 |")
            continue
        med, lo, hi = ratio(v, "skills")
        label = {"agentskills": "`agentskills validate <skill>`, once per skill",
                 "skills_ref-api": "`skills_ref.validate()` per skill, one Python process"}[v]
        lines.append(f"| {label} | {cell(by[v])} | **{med:.1f}** ({lo:.1f}–{hi:.1f}) |")
    lines.append("")
    if "agentskills" in variants:
        med, _, _ = ratio("agentskills", "skills")
        lines.append(f"Target: `agentskills validate` ÷ `skills check` ≥ 10: **{'met' if med >= 10 else 'not met'}** ({med:.1f}).")
    if BASELINE in variants:
        med, lo, hi = ratio("skills", BASELINE)
        cpu = [rd["skills"] / rd[BASELINE] for rd in cpu_rounds.values() if "skills" in rd and BASELINE in rd and rd[BASELINE] > 0]
        lines.append(f"`skills check` ÷ the same built at the baseline, wall: **{med:.3f}** ({lo:.3f}–{hi:.3f}); "
                     f"CPU: **{statistics.median(cpu):.3f}** ({min(cpu):.3f}–{max(cpu):.3f}); "
                     f"target ≤ 1.10: **{'met' if statistics.median(cpu) <= 1.10 else 'not met'}**.")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", default=str(REPO.parent / "shared/corpus/real"))
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--no-wait", action="store_true")
    parser.add_argument("--load-max", type=float, default=0.6)
    parser.add_argument("--load-hold", type=float, default=30)
    parser.add_argument("--load-timeout", type=float, default=900)
    parser.add_argument("--out", default=str(HERE / "results"))
    parser.add_argument("--agentskills")
    parser.add_argument("--baseline", help="also time `skills check` built at this commit")
    args = parser.parse_args()
    variants = ["skills", BASELINE] if args.baseline else VARIANTS

    tree = Path(args.tree).resolve()
    skills = skill_folders(tree)
    if not skills:
        sys.exit(f"{tree} holds no skill folder")
    venvs = Path(os.environ.get("SKILLS_E2E_VENVS", REPO / "target/e2e-venvs"))
    args.agentskills = Path(args.agentskills or venvs / "skills-ref/bin/agentskills")
    if not args.agentskills.exists():
        sys.exit(f"{args.agentskills} is missing: run `bash tests/e2e/clients/setup.sh`")
    subprocess.run(["cargo", "build", "--release", "--locked", "--quiet", "-p", "skills-cli"],
                   cwd=REPO, check=True)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    args.skills_bin = target / "release/skills"
    if args.baseline:
        args.baseline_commit = subprocess.run(["git", "rev-parse", args.baseline], cwd=REPO, check=True,
                                              capture_output=True, text=True).stdout.strip()
        args.baseline_bin = build_baseline(args.baseline_commit)

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    print(f"tree: {tree} ({len(skills)} skills); verdicts first", file=sys.stderr)
    for variant in variants:
        run_variant(variant, args, tree, skills, check=True)
    quiet = wait_for_quiet(args)
    for variant in variants:  # warm caches, untimed
        run_variant(variant, args, tree, skills)
    rows = []
    for round_ in range(args.reps):
        order = variants[round_ % len(variants):] + variants[:round_ % len(variants)]
        for variant in order:
            seconds, cpu = run_variant(variant, args, tree, skills)
            rows.append({"round": round_, "variant": variant, "seconds": seconds, "cpu_seconds": cpu,
                         "tree": str(tree), "skills": len(skills)})
        print(f"round {round_ + 1}/{args.reps} done (load {load1():.2f})", file=sys.stderr)
    meta = {**quiet, "load_after": load1(), "reps": args.reps, "tree": str(tree),
            "skills": len(skills), "cpus": os.cpu_count(),
            "agentskills": str(args.agentskills), "skills_bin": str(args.skills_bin)}
    if args.baseline:
        meta["baseline"] = args.baseline_commit
    name = "cli-baseline" if args.baseline else "cli"
    with open(out / f"{name}.jsonl", "w") as jsonl:
        jsonl.write(json.dumps({"meta": meta}) + "\n")
        for row in rows:
            jsonl.write(json.dumps(row) + "\n")
    summary = (f"# `skills check` against the reference validator\n\n"
               f"Tree: `{tree.name}` ({len(skills)} skills). Load before: {meta['load_before']:.2f}"
               f" (waited {meta['waited_s']} s), after: {meta['load_after']:.2f}.\n\n"
               + summarize(rows, args.reps, variants) + "\n")
    (out / ("summary-baseline.md" if args.baseline else "summary.md")).write_text(summary)
    print(summary)


if __name__ == "__main__":
    main()
