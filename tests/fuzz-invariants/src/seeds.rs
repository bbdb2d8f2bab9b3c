//! Seeds derived at fuzz time from the shared corpus of real skills
//! (`../shared/corpus`, read in place, never copied into the repository),
//! and cursors the server issues. The `fuzz-seeds` program writes them for
//! libFuzzer; the replay test runs the targets on them directly.

use std::path::Path;

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use skills_runtime::server::cursor_fuzzing::Position;

use crate::cursor::{FINGERPRINTS, KINDS, Listing, SCOPES};

/// The seeds of `target` (named, with their bytes) derived from `corpus`.
/// Panics when `corpus` cannot be read (a replay without its seeds proves
/// nothing).
pub fn derive(target: &str, corpus: &Path) -> Vec<(String, Vec<u8>)> {
    match target {
        "skill_md" => skill_mds(corpus),
        "names" => file_lists(corpus),
        "uri_lookup" => uris(corpus),
        "cursor" => cursors(),
        _ => panic!("no fuzz target is called {target}"),
    }
}

/// Every skill folder below `corpus` (a folder holding a `SKILL.md`), with
/// its path relative to `corpus`, sorted.
fn skill_folders(corpus: &Path) -> Vec<String> {
    files_below(corpus)
        .into_iter()
        .filter_map(|path| {
            path.strip_suffix("/SKILL.md")
                .map(str::to_owned)
                .or_else(|| (path == "SKILL.md").then(String::new))
        })
        .collect()
}

/// Every file below `folder`, by `/`-separated relative path, sorted.
fn files_below(folder: &Path) -> Vec<String> {
    fn visit(dir: &Path, prefix: &str, out: &mut Vec<String>) {
        let entries = std::fs::read_dir(dir)
            .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()));
        for entry in entries {
            let entry = entry.expect("a folder entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            if entry.file_type().expect("a file type").is_dir() {
                visit(&entry.path(), &format!("{rel}/"), out);
            } else {
                out.push(rel);
            }
        }
    }
    let mut out = Vec::new();
    visit(folder, "", &mut out);
    out.sort();
    out
}

fn seed_name(path: &str) -> String {
    format!("shared-{}", path.replace('/', "--"))
}

/// Every `SKILL.md` of the corpus, valid and invalid, as it is.
fn skill_mds(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    skill_folders(corpus)
        .into_iter()
        .map(|folder| {
            let path = format!("{folder}/SKILL.md");
            let bytes = std::fs::read(corpus.join(&path)).expect("a SKILL.md");
            (seed_name(&path), bytes)
        })
        .collect()
}

/// Each skill's file list (paths inside the skill, one per line), and the
/// whole corpus's (paths from the corpus root) in pieces of 64 lines.
fn file_lists(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    let mut seeds: Vec<(String, Vec<u8>)> = skill_folders(corpus)
        .into_iter()
        .map(|folder| {
            let files = files_below(&corpus.join(&folder));
            (seed_name(&folder), files.join("\n").into_bytes())
        })
        .collect();
    // The whole corpus in pieces the target reads whole.
    for (index, piece) in files_below(corpus).chunks(64).enumerate() {
        seeds.push((
            format!("shared-all-files-{index}"),
            piece.join("\n").into_bytes(),
        ));
    }
    seeds
}

/// For every file of every skill: its URI, then that skill's files as
/// paths from the corpus root (the set the URI is looked up in).
fn uris(corpus: &Path) -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for folder in skill_folders(corpus) {
        let files: Vec<String> = files_below(&corpus.join(&folder))
            .into_iter()
            .map(|file| format!("{folder}/{file}"))
            .collect();
        let set = files.join("\n");
        for file in &files {
            let uri = skills_core::uri::for_path(file);
            seeds.push((seed_name(file), format!("{uri}\n{set}").into_bytes()));
        }
    }
    seeds
}

/// Cursors the server issues in every listing (7 items, pages of 3), each
/// as sent and as its plain text (which the target encodes).
fn cursors() -> Vec<(String, Vec<u8>)> {
    let mut seeds = Vec::new();
    for (kind, scope, fingerprint, chained) in KINDS.into_iter().flat_map(|kind| {
        SCOPES.into_iter().flat_map(move |scope| {
            FINGERPRINTS.into_iter().flat_map(move |fingerprint| {
                [false, true].map(move |chained| (kind, scope, fingerprint, chained))
            })
        })
    }) {
        let listing = Listing {
            kind,
            scope,
            fingerprint,
            len: 7,
            size: 3,
            chained,
        };
        let head = listing.head();
        for (index, position) in [
            Position::Ours(3),
            Position::Ours(6),
            Position::Tail(None),
            Position::Tail(Some("their.cursor".to_owned())),
        ]
        .iter()
        .enumerate()
        {
            let sent = listing.encode(position);
            let plain = URL_SAFE_NO_PAD
                .decode(&sent)
                .expect("our cursors are base64");
            let name = format!("cursor-{:02x}-{index}", head[0]);
            seeds.push((
                format!("{name}-sent"),
                [&head[..], sent.as_bytes()].concat(),
            ));
            seeds.push((format!("{name}-plain"), [&head[..], &plain].concat()));
        }
    }
    seeds
}
