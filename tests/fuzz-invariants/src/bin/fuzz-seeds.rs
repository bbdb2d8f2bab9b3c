//! Writes the seeds of one fuzz target, derived from the shared corpus, into
//! a folder for libFuzzer: `fuzz-seeds <target> <folder> [<corpus>]`.
//! `fuzz/run` calls it before each run; the folder is scratch, never
//! committed.

use std::path::PathBuf;
use std::process::ExitCode;

use skills_fuzz_invariants::{TARGETS, seeds};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (target, out, corpus) = match args.as_slice() {
        [target, out] => (
            target,
            PathBuf::from(out),
            skills_test_paths::shared_path("corpus"),
        ),
        [target, out, corpus] => (target, PathBuf::from(out), PathBuf::from(corpus)),
        _ => {
            eprintln!("usage: fuzz-seeds <target> <folder> [<shared corpus>]");
            return ExitCode::from(2);
        }
    };
    if !TARGETS.iter().any(|known| known.name == target) {
        let names: Vec<&str> = TARGETS.iter().map(|known| known.name).collect();
        eprintln!("error: no fuzz target `{target}`; the targets are {names:?}");
        return ExitCode::from(2);
    }
    if let Err(error) = std::fs::create_dir_all(&out) {
        eprintln!("error: cannot create {}: {error}", out.display());
        return ExitCode::from(2);
    }
    let derived = seeds::derive(target, &corpus);
    for (name, bytes) in &derived {
        if let Err(error) = std::fs::write(out.join(name), bytes) {
            eprintln!("error: cannot write {}: {error}", out.join(name).display());
            return ExitCode::from(2);
        }
    }
    println!("{} seeds for {target} in {}", derived.len(), out.display());
    ExitCode::SUCCESS
}
