//! Skill corpora embedded at compile time and loaded at run time, checked
//! file by file against the disk with independent code (`support`): sizes,
//! SHA-256 digests, URIs, file lists, revisions. The repository's fixture
//! corpus (`tests/fixtures/corpus`) always; the shared corpus of real skills
//! (`../shared/corpus/real`) in the module `shared`, ignored by default
//! (`.ci/run` runs it). The synthetic, invalid and name-clash corpora of
//! `../shared` go through `skills_core::load`, the code the macro runs.

use crate::support;

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use skills_core::{Options, Rule};
use support::{TempDir, corpus_dir, file_uri, files_on_disk, sha256_digest};

/// The repository's fixture corpus, relative to this package
/// (`tests/compile-tests`); the build script watches it.
static FIXTURES: skills::Skills = skills::embed_skills!("../fixtures/corpus");

/// `shared/corpus/real`, the repository's sibling, embedded when it was
/// there at build time: the build script then watches it and sets
/// `cfg(shared_corpus)`, so the package compiles on a clone alone.
#[cfg(shared_corpus)]
static REAL: skills::Skills = skills::embed_skills!("../../../shared/corpus/real");
#[cfg(not(shared_corpus))]
static REAL: skills::Skills = skills::Skills::empty();

/// The embedded real corpus, or a failure saying it was not there to embed.
fn real() -> &'static skills::Skills {
    // A run-time check on purpose: the package must compile without the
    // corpus, and only the tests that read it fail, naming what is missing.
    if !cfg!(shared_corpus) {
        panic!(
            "needs ../shared/corpus/real beside the clone when this package is built \
             (after adding it: touch tests/compile-tests/build.rs)"
        );
    }
    &REAL
}

/// Checks that `embedded` is what `skills_core::load` makes of `folder` at
/// run time, skill by skill and file by file.
fn check_embedded_equals_loaded(embedded: &skills::Skills, folder: &std::path::Path) {
    let loaded =
        skills_core::load(folder, &Options::default()).unwrap_or_else(|report| panic!("{report}"));
    let loaded = loaded.skills();
    assert_eq!(loaded.fingerprint(), embedded.fingerprint());
    assert_eq!(loaded.len(), embedded.len());
    for (runtime, embedded) in loaded.skills().iter().zip(embedded.skills()) {
        assert_eq!(runtime.path(), embedded.path());
        assert_eq!(runtime.version(), embedded.version());
        assert_eq!(runtime.extra_fields_json(), embedded.extra_fields_json());
        assert_eq!(runtime.body_offset(), embedded.body_offset());
        for (a, b) in runtime.files().iter().zip(embedded.files()) {
            assert_eq!(
                (a.path(), a.mime_type(), a.is_text(), a.is_executable()),
                (b.path(), b.mime_type(), b.is_text(), b.is_executable())
            );
            // Large text is embedded as `include_bytes!` and read as text
            // through a second UTF-8 check; it must read as the loader's.
            assert_eq!(a.text(), b.text(), "the text of {}", a.path());
            let embedded_text = b.static_text();
            assert_eq!(embedded_text.as_deref(), a.text(), "{}", a.path());
            assert!(
                matches!(embedded_text, None | Some(std::borrow::Cow::Borrowed(_))),
                "the embedded text of {} is borrowed from the binary",
                a.path()
            );
        }
    }
}

/// Checks every file of every skill in `set` against the folder each skill
/// was read from (`folder_of(skill path)`): the same files, and for each its
/// size, digest (unless `hash` says to skip it), URI and lookup by URI.
/// Returns how many files were checked.
fn check_against_disk(
    set: &skills::Skills,
    folder_of: impl Fn(&str) -> PathBuf,
    hash: impl Fn(usize) -> bool,
) -> usize {
    let mut checked = 0;
    for skill in set.skills() {
        let folder = folder_of(skill.path());
        let on_disk = files_on_disk(&folder);
        let embedded: Vec<&str> = skill.files().iter().map(|file| file.path()).collect();
        let expected: Vec<&str> = on_disk.keys().map(String::as_str).collect();
        assert_eq!(embedded, expected, "the files of `{}`", skill.path());
        for file in skill.files() {
            let source = &on_disk[file.path()];
            let what = format!("{}/{}", skill.path(), file.path());
            let length = std::fs::metadata(source).expect("the file exists").len();
            assert_eq!(file.size(), length, "size of {what}");
            if hash(checked) {
                let bytes = std::fs::read(source).expect("the file can be read");
                assert_eq!(
                    file.digest().to_string(),
                    sha256_digest(&bytes),
                    "digest of {what}"
                );
                assert_eq!(file.bytes(), bytes, "bytes of {what}");
            }
            let uri = skill.file_uri(file);
            assert_eq!(uri, file_uri(skill.path(), file.path()), "URI of {what}");
            let (owner, found) = set
                .file_by_uri(&uri)
                .unwrap_or_else(|| panic!("{uri} is not found by its URI"));
            // A nested skill's files are its outer skill's too; the lookup
            // names the innermost skill, and the same file.
            assert_eq!(format!("{}/{}", owner.path(), found.path()), what);
            checked += 1;
        }
    }
    checked
}

/// Checks each skill's version and the set's fingerprint against the
/// formulas, and that the loader's revision changes when one digest does, for
/// the files (numbered across the set) that `alter` picks.
fn check_versions(set: &skills::Skills, alter: impl Fn(usize) -> bool) {
    let altered_digest = sha256_digest(b"altered");
    let mut first_file = 0;
    for skill in set.skills() {
        let owned: Vec<(String, String, u64)> = skill
            .files()
            .iter()
            .map(|file| (skill.file_uri(file), file.digest().to_string(), file.size()))
            .collect();
        let items: Vec<(&str, &str, u64)> = owned
            .iter()
            .map(|(uri, digest, size)| (uri.as_str(), digest.as_str(), *size))
            .collect();
        assert_eq!(
            skill.version(),
            support::revision(items.iter().copied()),
            "version of `{}`",
            skill.path()
        );
        for index in (0..items.len()).filter(|index| alter(first_file + index)) {
            let mut altered = items.clone();
            altered[index].1 = &altered_digest;
            assert_ne!(
                skill.version(),
                skills_core::digest::revision(altered),
                "the version of `{}` ignores {}",
                skill.path(),
                items[index].0
            );
        }
        first_file += items.len();
    }
    let fingerprint = support::fingerprint(
        set.skills()
            .iter()
            .map(|skill| (skill.uri(), skill.version())),
    );
    assert_eq!(set.fingerprint(), fingerprint);
}

#[test]
fn every_fixture_skill_is_embedded() {
    let root = support::fixture_corpus();
    let paths: Vec<&str> = FIXTURES.skills().iter().map(|skill| skill.path()).collect();
    assert_eq!(
        paths,
        [
            "bird-survey",
            "greenhouse",
            "greenhouse/seedlings",
            "lab/microscopy",
            "lab/specimen-labels",
            "sample-archive",
            "tide-log",
        ]
    );
    for path in &paths {
        assert!(root.join(path).join("SKILL.md").is_file(), "{path}");
    }
    for skill in FIXTURES.skills() {
        // Grouped and nested skills: the name is the folder's, the path the whole way.
        assert!(skill.path().ends_with(skill.name()), "{}", skill.path());
        assert_eq!(skill.uri(), format!("skill://{}/SKILL.md", skill.path()));
    }
    let nested = FIXTURES
        .get("greenhouse/seedlings")
        .expect("the nested skill");
    assert_eq!(nested.name(), "seedlings");
    // The outer skill lists the nested one's files too (SEP-2640
    // completeness); the innermost skill owns them.
    let parent = FIXTURES.get("greenhouse").expect("the outer skill");
    assert!(parent.file("seedlings/SKILL.md").is_some());
    let (owner, _) = FIXTURES
        .file_by_uri("skill://greenhouse/seedlings/SKILL.md")
        .expect("the nested SKILL.md");
    assert_eq!(owner.path(), "greenhouse/seedlings");
}

#[test]
fn every_fixture_file_matches_the_disk() {
    let root = support::fixture_corpus();
    let checked = check_against_disk(&FIXTURES, |path| root.join(path), |_| true);
    // 21 files on disk; the two of the nested skill are listed by both skills.
    assert_eq!(checked, 23);
    assert_eq!(FIXTURES.files().count(), 21);
    let executable: Vec<String> = FIXTURES
        .skills()
        .iter()
        .flat_map(|skill| {
            skill
                .files()
                .iter()
                .filter(|file| file.is_executable())
                .map(move |file| format!("{}/{}", skill.path(), file.path()))
        })
        .collect();
    assert_eq!(
        executable,
        [
            "bird-survey/scripts/tally.py",
            "lab/specimen-labels/scripts/print-labels.sh",
            "tide-log/scripts/next-tide.sh",
        ]
    );
    let binary = FIXTURES.files().filter(|(_, file)| !file.is_text()).count();
    assert_eq!(binary, 3, "the PNG, the PDF and the tarball");
}

#[test]
fn fixture_versions_and_fingerprint_follow_the_formulas() {
    check_versions(&FIXTURES, |_| true);
}

#[test]
fn the_embedded_fixtures_equal_the_ones_loaded_at_run_time() {
    check_embedded_equals_loaded(&FIXTURES, &support::fixture_corpus());
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    fn every_real_skill_is_embedded() {
        let real_dir = corpus_dir().join("real");
        let paths: Vec<&str> = real().skills().iter().map(|skill| skill.path()).collect();
        assert_eq!(paths.len(), 23);
        assert_eq!(paths, support::skill_folders(&real_dir));
        for skill in real().skills() {
            assert_eq!(skill.name(), skill.path());
            assert_eq!(skill.uri(), format!("skill://{}/SKILL.md", skill.path()));
        }
    }

    #[test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    fn every_real_file_matches_the_disk() {
        let real_dir = corpus_dir().join("real");
        let checked = check_against_disk(real(), |path| real_dir.join(path), |_| true);
        assert_eq!(checked, real().files().count());
    }

    #[test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    fn real_versions_and_fingerprint_follow_the_formulas() {
        check_versions(real(), |_| true);
    }

    #[test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    fn the_embedded_corpus_equals_the_one_loaded_at_run_time() {
        check_embedded_equals_loaded(real(), &corpus_dir().join("real"));
    }

    /// `gen-synthetic.py`'s documented reference tree: 200 skills of 50 files,
    /// with nested folders, spaces in names, BOMs, empty and executable files.
    #[test]
    #[ignore = "needs ../shared/corpus beside the clone and python3"]
    fn a_synthetic_tree_of_ten_thousand_files_loads() {
        let scratch = TempDir::new("synthetic");
        let root = scratch.path().join("skills");
        let status = Command::new("python3")
            .arg(corpus_dir().join("gen-synthetic.py"))
            .arg(&root)
            .args(["--skills", "200", "--files-per-skill", "50", "--seed", "42"])
            .arg("--quiet")
            .status()
            .expect("python3 runs");
        assert!(status.success(), "gen-synthetic.py failed: {status}");

        let loaded = skills_core::load(&root, &Options::default())
            .unwrap_or_else(|report| panic!("{report}"));
        let set = loaded.skills();
        assert_eq!(set.len(), 200);
        let files: usize = set.skills().iter().map(|skill| skill.files().len()).sum();
        assert_eq!(files, 10_000);
        assert_eq!(set.files().count(), 10_000);
        assert_eq!(
            support::skill_folders(&root),
            set.skills()
                .iter()
                .map(|skill| skill.path().to_owned())
                .collect::<Vec<_>>()
        );
        // Every file is listed, sized, addressed and found; one in seven is hashed
        // again here, and one in 47 has its digest altered in a recomputed revision.
        let checked = check_against_disk(set, |path| root.join(path), |index| index % 7 == 0);
        assert_eq!(checked, 10_000);
        check_versions(set, |index| index % 47 == 0);
        #[cfg(unix)]
        for (index, skill) in set.skills().iter().enumerate() {
            use std::os::unix::fs::PermissionsExt as _;
            for file in skill.files() {
                let mode = std::fs::metadata(loaded.source_path(index, file))
                    .expect("the file exists")
                    .permissions()
                    .mode();
                assert_eq!(
                    file.is_executable(),
                    mode & 0o111 != 0,
                    "{}",
                    skill.file_uri(file)
                );
            }
        }
    }

    /// What `NOTES.md` says each invalid skill breaks, read from its table rows:
    /// `` | `<folder>` | <source> | `<skills-ref message>` | <rule> | ``.
    fn documented_failures(notes: &str) -> Vec<(String, String)> {
        notes
            .lines()
            .filter_map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                let folder = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
                let message = cells.get(3)?.trim_matches('`');
                Some((folder.to_owned(), message.to_owned()))
            })
            .collect()
    }

    /// `'<x>'` after `before` in `text`.
    fn quoted_after<'t>(text: &'t str, before: &str) -> &'t str {
        let start = text.find(before).expect("the marker is present") + before.len();
        let rest = text[start..].strip_prefix('\'').expect("a quoted name");
        &rest[..rest.find('\'').expect("a closing quote")]
    }

    /// `1068` in `… (1068 chars)`.
    fn number_in_parentheses(text: &str) -> &str {
        let start = text.rfind('(').expect("an opening parenthesis") + 1;
        text[start..].split_whitespace().next().expect("a number")
    }

    #[test]
    #[ignore = "needs ../shared/corpus/real-invalid beside the clone"]
    fn each_invalid_real_skill_fails_as_its_notes_say() {
        let invalid = corpus_dir().join("real-invalid");
        let notes = std::fs::read_to_string(invalid.join("NOTES.md")).expect("NOTES.md exists");
        let documented = documented_failures(&notes);
        let folders = support::skill_folders(&invalid);
        assert_eq!(folders.len(), 5);
        let documented_folders: BTreeSet<&str> =
            documented.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(
            documented_folders,
            folders.iter().map(String::as_str).collect::<BTreeSet<_>>()
        );

        for (folder, reason) in &documented {
            let report = match skills_core::load(&invalid.join(folder), &Options::default()) {
                Ok(_) => panic!("{folder} loaded, but it is invalid"),
                Err(report) => report,
            };
            // Exactly the documented error, in the skill's SKILL.md (warnings
            // about its length are not why it fails).
            let errors: Vec<&skills_core::Diagnostic> = report.errors().collect();
            let [diagnostic] = errors.as_slice() else {
                panic!("one problem expected in {folder}:\n{report}");
            };
            assert_eq!(diagnostic.file, "SKILL.md", "{report}");
            if reason.starts_with("Description exceeds") {
                // `Description exceeds 1024 character limit (1068 chars)`
                let limit = reason.split_whitespace().nth(2).expect("the limit");
                let length = number_in_parentheses(reason);
                assert_eq!(diagnostic.rule, Rule::FieldLength, "{report}");
                for fact in ["`description`", limit, length] {
                    assert!(diagnostic.message.contains(fact), "{fact} in {report}");
                }
            } else if reason.starts_with("Directory name") {
                // `Directory name 'x' must match skill name 'vercel-x'`
                let directory = quoted_after(reason, "Directory name ");
                let name = quoted_after(reason, "skill name ");
                assert_eq!(directory, folder);
                assert_eq!(diagnostic.rule, Rule::NameMismatch, "{report}");
                assert_eq!(diagnostic.line, Some(2), "{report}");
                for fact in [directory, name] {
                    assert!(
                        diagnostic.message.contains(&format!("`{fact}`")),
                        "{fact} in {report}"
                    );
                }
            } else {
                panic!("NOTES.md gives a reason this test does not know: {reason}");
            }
        }
    }

    #[test]
    #[ignore = "needs ../shared/corpus beside the clone"]
    fn two_skills_with_one_name_clash() {
        let corpus = corpus_dir();
        let clash = corpus.join("real-name-clash");
        // This skill-creator names example files it does not hold (`scripts/rotate_pdf.py`,
        // `references/finance.md`), which the link check reports; that is not what
        // this test is about.
        let mut options = Options::default();
        options.check_links = false;
        // Each half is valid on its own.
        skills_core::load(&clash, &options).unwrap_or_else(|report| panic!("{report}"));
        assert!(real().get("skill-creator").is_some());

        let scratch = TempDir::new("name-clash");
        support::copy_dir(
            &corpus.join("real/skill-creator"),
            &scratch.path().join("a/skill-creator"),
        );
        support::copy_dir(
            &clash.join("skill-creator"),
            &scratch.path().join("b/skill-creator"),
        );
        let report = match skills_core::load(scratch.path(), &options) {
            Ok(_) => panic!("two skills named `skill-creator` loaded"),
            Err(report) => report,
        };
        let errors: Vec<&skills_core::Diagnostic> = report.errors().collect();
        let [clash] = errors.as_slice() else {
            panic!("one error expected:\n{report}");
        };
        assert_eq!(clash.rule, Rule::DuplicateName);
        assert_eq!(clash.file, "b/skill-creator/SKILL.md");
        assert!(
            clash.message.contains("`skill-creator`")
                && clash.message.contains("`a/skill-creator`"),
            "{report}"
        );
    }
}
