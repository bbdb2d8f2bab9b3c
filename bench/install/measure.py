#!/usr/bin/env python3
"""skills-runtime's installer against skill-embed 0.1.0: binary size added and
install time of the repository's example skills.

    python3 bench/install/measure.py [--runs 30]

Builds four release binaries in scratch crates (under target/bench-install,
one shared target folder): a plain `fn main`, the same with clap (a tool that
already has a command line), skill-embed 0.1.0 (include_dir!, `intercept()`)
and skills-runtime (`embed_skills!`, feature `install`, `intercept()`), each
carrying the example skills, flattened (skill-embed reads `skills/<name>/`
only). Then times `<bin> skill install --dir <fresh folder>` (a first
install) and the same again on the installed folder (a no-op second run),
interleaved, and prints medians and ratios. Needs crates.io (or a warm
cargo cache). Measure on a quiet machine.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
WORK = REPO / "target" / "bench-install"

COMMON_TOML = """
[profile.release]
strip = true
[workspace]
"""

CRATES = {
    "plain": (
        "",
        'fn main() { println!("{}", std::env::args().count()); }\n',
    ),
    "plain-clap": (
        'clap = { version = "4.5", features = ["derive"] }\n',
        """use clap::Parser;
#[derive(Parser)]
struct Cli { #[arg(long)] name: Option<String> }
fn main() { println!("{:?}", Cli::parse().name); }
""",
    ),
    "skill-embed": (
        'skill-embed = "=0.1.0"\ninclude_dir = "0.7"\n',
        """use include_dir::{Dir, include_dir};
use skill_embed::{Installer, SkillSet};
static SKILLS_DIR: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/skills");
fn main() -> std::process::ExitCode {
    let installer = Installer::new(SkillSet::from_include_dir(&SKILLS_DIR).expect("valid skills"))
        .with_tool_name("bench");
    installer.intercept().unwrap_or(std::process::ExitCode::SUCCESS)
}
""",
    ),
    "skills-runtime": (
        f'skills-runtime = {{ path = "{REPO / "skills-runtime"}", default-features = false, features = ["install"] }}\n',
        """use skills_runtime::{Skills, embed_skills, install::Installer};
static SKILLS: Skills = embed_skills!("skills");
fn main() -> std::process::ExitCode {
    Installer::new(&SKILLS, "bench").intercept().unwrap_or(std::process::ExitCode::SUCCESS)
}
""",
    ),
}


def flat_skills(into: Path) -> None:
    """The example skills, one folder per skill at the top."""
    if into.exists():
        shutil.rmtree(into)
    into.mkdir(parents=True)
    for skill_md in sorted((REPO / "examples" / "skills").rglob("SKILL.md")):
        folder = skill_md.parent
        shutil.copytree(folder, into / folder.name, symlinks=True)


def build() -> dict:
    target = WORK / "target"
    binaries = {}
    for name, (deps, main) in CRATES.items():
        crate = WORK / name
        (crate / "src").mkdir(parents=True, exist_ok=True)
        (crate / "Cargo.toml").write_text(
            f'[package]\nname = "bench-{name}"\nversion = "0.0.0"\nedition = "2024"\n'
            f"[dependencies]\n{deps}{COMMON_TOML}"
        )
        (crate / "src" / "main.rs").write_text(main)
        if name == "skills-runtime":
            # What the Quickstart asks for: a new skill file rebuilds the crate.
            (crate / "build.rs").write_text(
                'fn main() { println!("cargo::rerun-if-changed=skills"); }\n'
            )
        flat_skills(crate / "skills")
        subprocess.run(
            ["cargo", "build", "--release", "--quiet"],
            cwd=crate,
            env={**os.environ, "CARGO_TARGET_DIR": str(target)},
            check=True,
        )
        binaries[name] = target / "release" / f"bench-{name}"
    return binaries


def timed(argv) -> float:
    started = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    binaries = build()

    print("Binary size (release, stripped):")
    sizes = {name: path.stat().st_size for name, path in binaries.items()}
    for name, size in sizes.items():
        print(f"  {name:15} {size / 1024:8.0f} KiB")
    # skill-embed parses its own command line; skills-runtime's group is
    # clap, which a tool that already uses clap has.
    print(f"  skill-embed adds {(sizes['skill-embed'] - sizes['plain']) / 1024:.0f} KiB to a plain binary")
    print(
        f"  skills-runtime adds {(sizes['skills-runtime'] - sizes['plain']) / 1024:.0f} KiB to a plain binary, "
        f"{(sizes['skills-runtime'] - sizes['plain-clap']) / 1024:.0f} KiB to one that already uses clap"
    )

    first = {name: [] for name in ("skill-embed", "skills-runtime")}
    again = {name: [] for name in first}
    scratch = Path(tempfile.mkdtemp(prefix="bench-install-"))
    try:
        for run in range(args.runs):
            # Interleaved, alternating which goes first.
            order = list(first) if run % 2 == 0 else list(reversed(first))
            for name in order:
                folder = scratch / f"{name}-{run}"
                command = [str(binaries[name]), "skill", "install", "--dir", str(folder)]
                first[name].append(timed(command))
                again[name].append(timed(command))
                shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    print(f"\nInstall of the {len(list((REPO / 'skills').rglob('SKILL.md')))} example skills, median of {args.runs} interleaved runs:")
    for label, table in (("first install", first), ("second run (no-op)", again)):
        medians = {name: statistics.median(times) * 1000 for name, times in table.items()}
        ratio = medians["skills-runtime"] / medians["skill-embed"]
        print(
            f"  {label:20} skill-embed {medians['skill-embed']:.2f} ms, "
            f"skills-runtime {medians['skills-runtime']:.2f} ms (ratio {ratio:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
