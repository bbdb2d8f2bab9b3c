//! The fuzz targets' invariants on stable, in CI: every committed seed
//! (`fuzz/corpus/<target>/`), every minimized crash (`fuzz/regressions/<target>/`)
//! and every seed derived from the repository's fixture corpus, through the
//! same check libFuzzer runs; the seeds derived from the shared corpus
//! (`../shared/corpus`) in the module `shared`, ignored by default (`.ci/run`
//! runs them).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use skills_fuzz_invariants::{TARGETS, Target, seeds, skill_md};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `folder`, named, sorted; none when it does not exist.
fn inputs(folder: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut found: Vec<(String, Vec<u8>)> = entries
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.is_file())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("a readable input"))
        })
        .collect();
    found.sort();
    found
}

/// Runs `target` on every input; returns how many ran. Fails naming every
/// input that broke an invariant.
fn replay(target: &Target, origin: &str, inputs: &[(String, Vec<u8>)]) -> usize {
    let failed: Vec<String> = inputs
        .iter()
        .filter_map(|(name, bytes)| {
            catch_unwind(AssertUnwindSafe(|| (target.check)(bytes)))
                .err()
                .map(|_| format!("{origin}/{name}"))
        })
        .collect();
    assert!(
        failed.is_empty(),
        "{}: invariants broken by {failed:#?} (the panic messages are above)",
        target.name
    );
    inputs.len()
}

fn target(name: &str) -> &'static Target {
    TARGETS.iter().find(|t| t.name == name).expect("a target")
}

/// The committed seeds and regressions of target `name`, and the seeds
/// derived from the repository's fixture corpus.
fn replay_all(name: &str) {
    let target = target(name);
    let committed = inputs(&fuzz_dir().join("corpus").join(name));
    let regressions = inputs(&fuzz_dir().join("regressions").join(name));
    let derived = seeds::derive(name, &skills_test_paths::fixture_corpus());
    assert!(!committed.is_empty(), "fuzz/corpus/{name} holds no seed");
    assert!(!derived.is_empty(), "no seed derived for {name}");
    let ran = replay(target, &format!("fuzz/corpus/{name}"), &committed)
        + replay(target, &format!("fuzz/regressions/{name}"), &regressions)
        + replay(target, "derived from the fixtures", &derived);
    eprintln!(
        "{name}: {ran} inputs ({} committed seeds, {} regressions, {} derived from the fixtures)",
        committed.len(),
        regressions.len(),
        derived.len()
    );
}

/// The seeds of target `name` derived from the shared corpus (the cursor
/// target's seeds do not depend on a corpus: `replay_all` runs them).
fn replay_shared(name: &str) {
    let corpus = skills_test_paths::shared("corpus");
    let derived = seeds::derive(name, &corpus);
    assert!(!derived.is_empty(), "no seed derived for {name}");
    let ran = replay(target(name), "derived from ../shared/corpus", &derived);
    eprintln!("{name}: {ran} inputs derived from ../shared/corpus");
}

#[test]
fn skill_md_seeds_and_regressions() {
    replay_all("skill_md");
    skill_md::clean_up();
}

#[test]
fn names_seeds_and_regressions() {
    replay_all("names");
}

#[test]
fn uri_lookup_seeds_and_regressions() {
    replay_all("uri_lookup");
}

#[test]
fn cursor_seeds_and_regressions() {
    replay_all("cursor");
}

/// Every target has its folders and a test above.
#[test]
fn every_target_is_replayed() {
    let source = include_str!("replay.rs");
    for target in TARGETS {
        assert!(
            source.contains(&format!("fn {}_seeds_and_regressions()", target.name)),
            "{} has no replay test",
            target.name
        );
        assert!(
            fuzz_dir()
                .join("fuzz_targets")
                .join(format!("{}.rs", target.name))
                .is_file(),
            "{} has no fuzz target",
            target.name
        );
    }
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[test]
    #[ignore = "needs ../shared/corpus beside the clone"]
    fn skill_md_seeds_of_the_shared_corpus() {
        replay_shared("skill_md");
        skill_md::clean_up();
    }

    #[test]
    #[ignore = "needs ../shared/corpus beside the clone"]
    fn names_seeds_of_the_shared_corpus() {
        replay_shared("names");
    }

    #[test]
    #[ignore = "needs ../shared/corpus beside the clone"]
    fn uri_lookup_seeds_of_the_shared_corpus() {
        replay_shared("uri_lookup");
    }
}
