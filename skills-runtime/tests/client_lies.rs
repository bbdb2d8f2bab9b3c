//! A server that lies: every lie is caught before anything is written, and
//! the folder is byte-identical before and after, on the SEP-2640 path
//! (`skills/list`) and on the pre-SEP one (`resources/list`, `_manifest`). Plus a legal skill of
//! 16 MiB, which rmcp's default transport drops and ours accepts.

use skills_test_support as support;

use std::time::Duration;

use rmcp::ServiceExt as _;
use skills_runtime::client::{
    ClientError, DownloadOptions, SkillSource, SkillsPeerExt as _, Source, SyncOptions, SyncReport,
};
use skills_runtime::folder::{Action, FileWrite, SkillWrite, State, Target};
use support::client::{LEGACY_LIES, LIES, Liar, Lie, Stranger, liar_files, scratch, snapshot};

/// What a sync of `liar` into `folder` reports, as the source the host
/// labels `liar`, with the default options.
async fn synced(liar: Liar, folder: &std::path::Path) -> SyncReport {
    synced_as(
        liar,
        folder,
        &SkillSource::label("liar"),
        SyncOptions::default(),
    )
    .await
}

/// What a sync of `liar` into `folder` as `source` reports.
async fn synced_as(
    liar: Liar,
    folder: &std::path::Path,
    source: &SkillSource,
    options: SyncOptions,
) -> SyncReport {
    liar.connect()
        .await
        .sync_skills(folder, source, &options)
        .await
        .unwrap()
}

/// A folder with something in it: an earlier version of `liar` this
/// writer wrote, and a foreign skill.
fn populated(name: &str) -> std::path::PathBuf {
    let folder = scratch(name);
    let old = [FileWrite::new(
        "SKILL.md",
        b"---\nname: liar\ndescription: Old.\n---\n".as_slice(),
        false,
    )];
    let plan = skills_runtime::folder::plan(
        &Target::new(&folder, "liar"),
        [SkillWrite::new("liar", "liar", "old", old)],
        &Default::default(),
    )
    .unwrap();
    assert!(plan.apply().iter().all(|item| item.error.is_none()));
    std::fs::create_dir_all(folder.join("mine")).unwrap();
    std::fs::write(folder.join("mine/SKILL.md"), "mine\n").unwrap();
    folder
}

/// Words the refusal of `lie` must hold; on the pre-SEP path (`legacy`) a
/// `_manifest` names files by path, not by URI.
fn expected_words(lie: Lie, legacy: bool) -> &'static str {
    match lie {
        Lie::Traversal if legacy => "the path has a `..` segment",
        Lie::WrongDigest => "has digest",
        Lie::WrongSize => "bytes, the manifest says",
        Lie::UnlistedFile | Lie::ChangedAfterRead => "changed while it was being fetched",
        Lie::FileOfAnotherSkill => "does not identify a file within the directory",
        Lie::Traversal => "does not identify a file within the directory",
        Lie::EncodedSlash => "percent-encoded /",
        Lie::UnportableName => "a device name Windows reserves",
        Lie::ContentUri => "not for the URI asked",
        Lie::TwoContents => "2 content items, not one",
        Lie::Frontmatter => "`description` is advertised as",
        Lie::ChangedBeforeRead => "has digest",
        Lie::UnknownExecutable => "marked executable but is not a file",
        Lie::SizesPastU64 => "sum past 2^64",
        Lie::ModelText => "`description` is advertised as",
        Lie::HugeCursor | Lie::HugeListing | Lie::TerminalError | Lie::Honest => "",
    }
}

#[tokio::test]
async fn every_lie_is_caught_and_nothing_is_written() {
    for lie in LIES {
        lie_is_caught(lie, false).await;
    }
    for lie in LEGACY_LIES {
        lie_is_caught(lie, true).await;
    }
}

/// `lie`, told on the SEP-2640 path or on the pre-SEP one (`legacy`), is
/// refused by a sync and by a download, and the folder stays as it was.
async fn lie_is_caught(lie: Lie, legacy: bool) {
    let folder = populated(&format!("lie-{lie:?}-{legacy}"));
    let before = snapshot(&folder);
    // A fresh server for each client: some lies depend on what was read.
    let liar = || Liar::new(lie).legacy_if(legacy);
    let words = expected_words(lie, legacy);

    let report = synced(liar(), &folder).await;
    let item = report.skills.iter().find(|s| s.name == "liar").unwrap();
    let path = if legacy { Source::Legacy } else { Source::Sep };
    assert_eq!(item.source, Some(path), "{lie:?}: {report}");
    let error = item
        .error
        .as_deref()
        .unwrap_or_else(|| panic!("{lie:?} not caught: {report}"));
    assert!(error.contains(words), "{lie:?}: {error}");
    assert!(item.refused, "{lie:?}: a verification failure");
    assert_eq!(item.action, Action::None);
    assert_eq!(report.exit_code(), 1, "{lie:?}");
    assert_eq!(snapshot(&folder), before, "{lie:?}: the folder changed");

    let client = liar().connect().await;
    let download = client
        .download_skill(
            "liar",
            &folder,
            &SkillSource::label("liar"),
            &DownloadOptions::default(),
        )
        .await
        .unwrap_err();
    assert!(download.is_verification(), "{lie:?}: {download}");
    assert!(download.to_string().contains(words), "{lie:?}: {download}");
    assert_eq!(snapshot(&folder), before, "{lie:?}: the folder changed");
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Skills that lie about where they live, beside an honest `liar`, each
/// with words its refusal must hold, and those on the pre-SEP path: there a
/// server advertises no name, so a skill's URI is the one word on where it
/// lives; a name that differs from it is no lie but a finding of its
/// `SKILL.md` (`None`: the skill is written where its URI says).
const STRANGERS: [(Stranger, &str, Option<&str>); 11] = [
    (
        Stranger {
            uri: "skill://liar/../../outside/SKILL.md",
            name: "outside",
        },
        "a . or .. segment",
        Some("a . or .. segment"),
    ),
    (
        Stranger {
            uri: "skill://liar/./inner/SKILL.md",
            name: "inner",
        },
        "a . or .. segment",
        Some("a . or .. segment"),
    ),
    (
        Stranger {
            uri: "skill://%2E%2E/outside/SKILL.md",
            name: "outside",
        },
        "a . or .. segment",
        Some("a . or .. segment"),
    ),
    (
        Stranger {
            uri: "skill://liar//inner/SKILL.md",
            name: "inner",
        },
        "an empty path segment",
        Some("an empty path segment"),
    ),
    (
        Stranger {
            uri: "skill:///outside/SKILL.md",
            name: "outside",
        },
        "an empty path segment",
        Some("an empty path segment"),
    ),
    (
        Stranger {
            uri: "skill://liar%2F..%2Foutside/SKILL.md",
            name: "outside",
        },
        "percent-encoded /",
        Some("percent-encoded /"),
    ),
    (
        Stranger {
            uri: "skill://liar%5Cinner/SKILL.md",
            name: "inner",
        },
        "percent-encoded /",
        Some("percent-encoded /"),
    ),
    (
        Stranger {
            uri: "skill://aux/SKILL.md",
            name: "aux",
        },
        "a device name Windows reserves",
        Some("a device name Windows reserves"),
    ),
    (
        Stranger {
            uri: "skill://elsewhere/SKILL.md",
            name: "outside",
        },
        "`elsewhere`",
        None,
    ),
    (
        Stranger {
            uri: "skill://liar/inner/SKILL.md",
            name: "outside",
        },
        "`liar/inner`",
        Some("whose files do not include its `SKILL.md`"),
    ),
    // A well-placed nested skill whose file its outer skill does not hold:
    // writing `liar` would not write it.
    (
        Stranger {
            uri: "skill://liar/inner/SKILL.md",
            name: "inner",
        },
        "whose files do not include its `SKILL.md`",
        Some("whose files do not include its `SKILL.md`"),
    ),
];

/// Everything under `root` except the honest `liar`'s folder, which the
/// sync rewrites.
fn outside_liar(root: &std::path::Path) -> support::client::Snapshot {
    let mut all = snapshot(root);
    all.retain(|path, _| path != "target/liar" && !path.starts_with("target/liar/"));
    all
}

#[tokio::test]
async fn every_lie_about_where_a_skill_lives_is_refused() {
    for legacy in [false, true] {
        lies_about_where_skills_live(legacy).await;
    }
}

/// Each [`STRANGERS`] lie, told on the SEP-2640 path (`skills/list`) or on
/// the pre-SEP one (`resources/list` and `_manifest`).
async fn lies_about_where_skills_live(legacy: bool) {
    for (index, (stranger, words, legacy_words)) in STRANGERS.into_iter().enumerate() {
        let root = scratch(&format!("stranger-{index}-{legacy}"));
        let folder = root.join("target");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::create_dir_all(folder.join("mine")).unwrap();
        std::fs::write(folder.join("mine/SKILL.md"), "mine\n").unwrap();
        let before = outside_liar(&root);

        let liar = Liar::new(Lie::Honest)
            .with_stranger(stranger)
            .legacy_if(legacy);
        let report = synced(liar.clone(), &folder).await;
        let item = report
            .skills
            .iter()
            .find(|s| s.uri.as_deref() == Some(stranger.uri))
            .unwrap_or_else(|| panic!("{stranger:?} is not named in the report: {report}"));
        let Some(words) = (if legacy { legacy_words } else { Some(words) }) else {
            assert_eq!(
                (item.action, &item.error),
                (Action::Write, &None),
                "{report}"
            );
            assert_eq!(item.source, Some(Source::Legacy), "{report}");
            let findings = item.findings.as_deref().unwrap_or_default();
            assert!(findings.contains("name-mismatch"), "{stranger:?}: {report}");
            std::fs::remove_dir_all(&root).unwrap();
            continue;
        };
        let error = item
            .error
            .as_deref()
            .unwrap_or_else(|| panic!("{stranger:?} not refused: {report}"));
        assert!(error.contains(words), "{stranger:?}: {error}");
        assert!(
            error.contains(stranger.uri),
            "{stranger:?} names the URI: {error}"
        );
        assert!(item.refused, "{stranger:?}: a verification failure");
        assert_eq!(item.action, Action::None, "{stranger:?}: {report}");
        assert_eq!(report.exit_code(), 1, "{stranger:?}: {report}");
        let json = serde_json::to_value(&report).unwrap();
        let listed = json["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["uri"] == stranger.uri)
            .unwrap();
        assert_eq!(listed["action"], "none", "{stranger:?}: {json}");
        assert_eq!(listed["error"], error, "{stranger:?}: {json}");

        // The honest skill is written all the same, and nothing else is.
        let honest = report.skills.iter().find(|s| s.path == "liar").unwrap();
        assert_eq!(
            (honest.action, &honest.error),
            (Action::Write, &None),
            "{stranger:?}: {report}"
        );
        let path = if legacy { Source::Legacy } else { Source::Sep };
        assert_eq!(honest.source, Some(path), "{stranger:?}: {report}");
        assert!(folder.join("liar/SKILL.md").exists());
        assert!(!folder.join("liar/inner").exists(), "{stranger:?}");
        assert_eq!(
            outside_liar(&root),
            before,
            "{stranger:?}: something beside `liar` was written"
        );

        // Asked for by its URI, it is refused too.
        if !words.starts_with("whose files") {
            let client = liar.connect().await;
            let before = snapshot(&root);
            let download = client
                .download_skill(
                    stranger.uri,
                    &folder,
                    &SkillSource::label("liar"),
                    &DownloadOptions::default(),
                )
                .await
                .unwrap_err();
            assert!(download.is_verification(), "{stranger:?}: {download}");
            assert!(
                download.to_string().contains(stranger.uri),
                "{stranger:?}: {download}"
            );
            assert_eq!(snapshot(&root), before, "{stranger:?}: the folder changed");
        }
        std::fs::remove_dir_all(&root).unwrap();
    }
}

#[tokio::test]
async fn the_honest_liar_is_written() {
    let folder = populated("honest");
    let report = synced(Liar::new(Lie::Honest), &folder).await;
    let item = report.skills.iter().find(|s| s.name == "liar").unwrap();
    assert_eq!(
        (item.state, item.action, &item.error),
        (State::Outdated, Action::Update, &None),
        "{report}"
    );
    for (path, bytes) in liar_files() {
        assert_eq!(
            std::fs::read(folder.join("liar").join(&path)).unwrap(),
            bytes
        );
    }
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(folder.join("liar/scripts/run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "the executable bit travels");
    assert_eq!(
        std::fs::read_to_string(folder.join("mine/SKILL.md")).unwrap(),
        "mine\n"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn strict_refuses_rule_findings_that_are_otherwise_reported() {
    let mut files = liar_files();
    files[0].1 = b"---\nname: liar\ndescription: A skill served by a server that lies.\n---\n# Liar\nSee [the guide](references/guide.md).\n".to_vec();
    let client = Liar::with_files(Lie::Honest, files.clone()).connect().await;
    let fetched = client
        .fetch_skill("liar", &DownloadOptions::default())
        .await
        .unwrap();
    let findings = fetched.findings.expect("a broken link is a finding");
    assert!(
        findings.contains("liar/SKILL.md:6:17: broken-link"),
        "{findings}"
    );
    let strict = client
        .fetch_skill("liar", &DownloadOptions::default().strict(true))
        .await
        .unwrap_err();
    assert!(matches!(strict, ClientError::Rules { .. }), "{strict}");
}

/// A legal skill: SKILL.md plus one binary file that fills the 16 MiB
/// allowance (about 21.4 MiB as base64).
fn sixteen_mib() -> Vec<(String, Vec<u8>)> {
    let mut files = liar_files();
    files.truncate(1);
    let used: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    let size = skills_core::MAX_SKILL_BYTES as usize - used;
    let big: Vec<u8> = (0..size).map(|i| (i % 251) as u8 | 0x80).collect();
    files.push(("assets/big.bin".into(), big));
    files
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sixteen_mib_skill_needs_the_raised_limits() {
    let files = sixteen_mib();

    // rmcp's own transport drops the 21 MiB answer: the read never completes.
    let default = ().serve(Liar::with_files(Lie::Honest, files.clone()).spawn()).await.unwrap();
    let dropped = default
        .fetch_skill(
            "liar",
            &DownloadOptions::default().timeout(Duration::from_secs(5)),
        )
        .await
        .unwrap_err();
    assert!(matches!(dropped, ClientError::Timeout { .. }), "{dropped}");

    // Ours reads and verifies it.
    let ours = Liar::with_files(Lie::Honest, files.clone()).connect().await;
    let fetched = ours
        .fetch_skill("liar", &DownloadOptions::default())
        .await
        .unwrap();
    assert_eq!(fetched.file("assets/big.bin").unwrap().bytes, files[1].1);
    assert_eq!(fetched.manifest.total_size(), skills_core::MAX_SKILL_BYTES);
}

// ---------------------------------------------------------------------------
// Lies a server tells about itself and about names (issue 30)

/// `liar` with other bytes: what a second server serves under the same path.
fn other_liar() -> Vec<(String, Vec<u8>)> {
    let mut files = liar_files();
    files[1].1 = b"Notes from another server.\n".to_vec();
    files
}

const NOTES: Stranger = Stranger {
    uri: "skill://notes/SKILL.md",
    name: "notes",
};

#[tokio::test]
async fn a_server_that_gives_another_ones_name_owns_none_of_its_folders() {
    let folder = scratch("owner");
    // The first server, configured by the host as `docs`, calls itself `shared`.
    let first = Liar::new(Lie::Honest).named("shared").with_stranger(NOTES);
    let docs = SkillSource::label("docs");
    let report = synced_as(first, &folder, &docs, SyncOptions::default()).await;
    assert_eq!(report.exit_code(), 0, "{report}");
    assert_eq!(report.source, "docs");
    let before = snapshot(&folder);

    // A second server, configured as another source, gives the same name,
    // serves other bytes at `liar` and no `notes`: it owns neither.
    let second = Liar::with_files(Lie::Honest, other_liar()).named("shared");
    for source in [
        SkillSource::label("tools"),
        SkillSource::url("http://127.0.0.1:9/mcp").unwrap(),
        SkillSource::command("skills-server", ["--stdio"]),
    ] {
        let report = synced_as(second.clone(), &folder, &source, SyncOptions::default()).await;
        let liar = report.skills.iter().find(|s| s.path == "liar").unwrap();
        assert_eq!(
            (liar.state, liar.action),
            (State::Foreign, Action::Keep),
            "{source}: {report}"
        );
        let reason = liar.reason.as_deref().unwrap_or_default();
        assert!(reason.contains("written by `docs`"), "{source}: {reason}");
        assert!(
            !report.skills.iter().any(|s| s.path == "notes"),
            "{source}: `notes` is not its orphan: {report}"
        );
        assert_eq!(report.exit_code(), 1, "{source}: {report}");
        assert_eq!(snapshot(&folder), before, "{source}: the folder changed");
    }

    // The same source again updates as before; `--force` takes the folder.
    let forced = synced_as(
        second.clone(),
        &folder,
        &SkillSource::label("tools"),
        SyncOptions::default().force(true).remove_orphans(false),
    )
    .await;
    let liar = forced.skills.iter().find(|s| s.path == "liar").unwrap();
    assert_eq!((liar.state, liar.action), (State::Foreign, Action::Update));
    assert!(folder.join("notes/SKILL.md").exists());
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn a_record_of_an_earlier_version_is_adopted_by_its_label_only() {
    let folder = scratch("format-1");
    std::fs::create_dir_all(folder.join("liar")).unwrap();
    for (path, bytes) in liar_files() {
        let at = folder.join("liar").join(&path);
        std::fs::create_dir_all(at.parent().unwrap()).unwrap();
        std::fs::write(at, bytes).unwrap();
    }
    // What a sync wrote before records named sources: the server's own name.
    let files: serde_json::Map<String, serde_json::Value> = liar_files()
        .iter()
        .map(|(path, bytes)| {
            let mut file =
                serde_json::json!({"digest": skills_core::digest::of(bytes).to_string()});
            if path.starts_with("scripts/") {
                file["executable"] = true.into();
            }
            (path.clone(), file)
        })
        .collect();
    let record = serde_json::json!({"format": 1, "writer": "liar", "name": "liar",
        "version": "old", "files": files});
    std::fs::write(
        folder.join("liar/.skills-runtime.json"),
        serde_json::to_vec_pretty(&record).unwrap(),
    )
    .unwrap();
    let before = snapshot(&folder);

    // By URL or command line, whose it was cannot be known: kept, and said.
    let url = SkillSource::url("http://127.0.0.1:9/mcp").unwrap();
    let report = synced_as(
        Liar::new(Lie::Honest),
        &folder,
        &url,
        SyncOptions::default(),
    )
    .await;
    let liar = report.skills.iter().find(|s| s.path == "liar").unwrap();
    assert_eq!((liar.state, liar.action), (State::Foreign, Action::Keep));
    let reason = liar.reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains("sync with the label `liar` to adopt it"),
        "{reason}"
    );
    assert_eq!(snapshot(&folder), before);

    // The host's label equal to the recorded writer adopts it.
    let report = synced(Liar::new(Lie::Honest), &folder).await;
    let liar = report.skills.iter().find(|s| s.path == "liar").unwrap();
    assert_eq!(
        (liar.state, liar.action),
        (State::Outdated, Action::Update),
        "{report}"
    );
    let record = std::fs::read_to_string(folder.join("liar/.skills-runtime.json")).unwrap();
    assert!(record.contains("\"source\": \"label:liar\""), "{record}");
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Skills whose folders are one folder on macOS and Windows.
const CLASHES: [(Stranger, Stranger); 2] = [
    (
        Stranger {
            uri: "skill://Team/pdf/SKILL.md",
            name: "pdf",
        },
        Stranger {
            uri: "skill://team/pdf/SKILL.md",
            name: "pdf",
        },
    ),
    (
        Stranger {
            uri: "skill://caf%C3%A9/menu/SKILL.md",
            name: "menu",
        },
        Stranger {
            uri: "skill://cafe%CC%81/menu/SKILL.md",
            name: "menu",
        },
    ),
];

#[tokio::test]
async fn skills_whose_folders_collide_on_other_systems_are_refused() {
    for legacy in [false, true] {
        for (index, (one, other)) in CLASHES.into_iter().enumerate() {
            let folder = scratch(&format!("clash-{index}-{legacy}"));
            let liar = Liar::new(Lie::Honest)
                .with_stranger(one)
                .with_stranger(other)
                .legacy_if(legacy);
            let report = synced(liar, &folder).await;
            for stranger in [one, other] {
                let item = report
                    .skills
                    .iter()
                    .find(|s| s.uri.as_deref() == Some(stranger.uri))
                    .unwrap();
                assert_eq!(item.action, Action::Keep, "{stranger:?}: {report}");
                let reason = item.reason.as_deref().unwrap_or_default();
                assert!(
                    reason.contains("differ only in letter case or Unicode normalization"),
                    "{reason}"
                );
            }
            assert_eq!(report.exit_code(), 1, "{report}");
            // Only the honest skill was written.
            let written: Vec<String> = snapshot(&folder)
                .into_keys()
                .filter(|path| !path.contains('/'))
                .collect();
            assert_eq!(written, ["liar"], "{legacy} {index}: {report}");
            std::fs::remove_dir_all(&folder).unwrap();
        }
    }
}

#[tokio::test]
async fn a_skill_that_collides_with_what_the_folder_holds_is_refused() {
    let folder = scratch("clash-existing");
    std::fs::create_dir_all(folder.join("Notes")).unwrap();
    std::fs::write(folder.join("Notes/SKILL.md"), "mine\n").unwrap();
    let before = snapshot(&folder);
    let report = synced(Liar::new(Lie::Honest).with_stranger(NOTES), &folder).await;
    let notes = report.skills.iter().find(|s| s.path == "notes").unwrap();
    assert_eq!(notes.action, Action::Keep, "{report}");
    let reason = notes.reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains("`notes` and `Notes` differ only in letter case")
            && reason.contains("`Notes` is already in the folder"),
        "{reason}"
    );
    let mut after = snapshot(&folder);
    after.retain(|path, _| path != "liar" && !path.starts_with("liar/"));
    assert_eq!(after, before);
    std::fs::remove_dir_all(&folder).unwrap();
}

/// File names one skill cannot hold and still be copied to macOS or Windows.
const UNPORTABLE_FILES: [(&[&str], &str); 8] = [
    (&["\u{3c3}.md", "\u{3c2}.md"], "differ only in letter case"),
    // One name on Windows, which compares uppercase: `ı` is `I` there.
    (&["\u{131}.md", "i.md"], "differ only in letter case"),
    (&["s.md", "\u{17f}.md"], "differ only in letter case"),
    (&["COM\u{b9}.md"], "a device name Windows reserves"),
    (&["lpt\u{b2}.txt"], "a device name Windows reserves"),
    (&["COM0.md"], "a device name Windows reserves"),
    (&["CONIN$"], "a device name Windows reserves"),
    (&["CONOUT$"], "a device name Windows reserves"),
];

#[tokio::test]
async fn file_names_that_collide_or_name_devices_are_refused() {
    for legacy in [false, true] {
        for (names, words) in UNPORTABLE_FILES {
            let folder = scratch(&format!("unportable-{}-{legacy}", names[0].len()));
            let before = snapshot(&folder);
            let mut files = liar_files();
            files.extend(
                names
                    .iter()
                    .map(|name| (format!("references/{name}"), name.as_bytes().to_vec())),
            );
            let liar = Liar::with_files(Lie::Honest, files).legacy_if(legacy);
            let report = synced(liar, &folder).await;
            let item = &report.skills[0];
            let error = item
                .error
                .as_deref()
                .unwrap_or_else(|| panic!("{names:?} ({legacy}) written: {report}"));
            assert!(error.contains(words), "{names:?}: {error}");
            assert!(
                names.iter().all(|name| error.contains(name)),
                "{names:?} all named: {error}"
            );
            assert!(item.refused);
            assert_eq!(snapshot(&folder), before, "{names:?}");
            std::fs::remove_dir_all(&folder).unwrap();
        }
    }
}

#[tokio::test]
async fn sizes_that_sum_past_u64_are_refused_before_anything_is_read() {
    for legacy in [false, true] {
        let folder = scratch(&format!("u64-{legacy}"));
        let liar = Liar::new(Lie::SizesPastU64);
        let log = liar.read_log.clone();
        let report = synced(liar.legacy_if(legacy), &folder).await;
        let error = report.skills[0].error.as_deref().unwrap_or_default();
        assert!(error.contains("sum past 2^64"), "{report}");
        let reads: Vec<String> = log
            .lock()
            .unwrap()
            .iter()
            .map(|(uri, _)| uri.clone())
            .collect();
        assert!(
            reads.iter().all(|uri| uri.ends_with("/_manifest")),
            "nothing of the skill was read: {reads:?}"
        );
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

#[tokio::test]
async fn each_skill_is_written_once_verified_within_the_total_limit() {
    let folder = scratch("streamed");
    let liar = Liar::new(Lie::Honest)
        .with_stranger(NOTES)
        .watching(folder.join("liar/SKILL.md"));
    let log = liar.read_log.clone();
    let report = synced_as(
        liar.clone(),
        &folder,
        &SkillSource::label("liar"),
        SyncOptions::default().concurrency(1),
    )
    .await;
    assert_eq!(report.exit_code(), 0, "{report}");
    let reads = log.lock().unwrap().clone();
    let (_, written) = reads.iter().find(|(uri, _)| uri == NOTES.uri).unwrap();
    assert!(
        written,
        "`liar` was on disk before `notes` was read: {reads:?}"
    );

    // A limit below the second skill: it is refused, and never read.
    let folder = scratch("limited");
    let liar = Liar::new(Lie::Honest).with_stranger(NOTES);
    let log = liar.read_log.clone();
    let liar_bytes: u64 = liar_files().iter().map(|(_, b)| b.len() as u64).sum();
    let report = synced_as(
        liar,
        &folder,
        &SkillSource::label("liar"),
        SyncOptions::default().max_bytes(liar_bytes),
    )
    .await;
    let notes = report.skills.iter().find(|s| s.path == "notes").unwrap();
    let error = notes.error.as_deref().unwrap_or_default();
    assert!(
        error.contains(&format!("past its limit of {liar_bytes} bytes")),
        "{report}"
    );
    assert!(notes.refused);
    assert_eq!(report.exit_code(), 1);
    assert!(folder.join("liar/SKILL.md").exists());
    assert!(!folder.join("notes").exists());
    assert!(
        !log.lock().unwrap().iter().any(|(uri, _)| uri == NOTES.uri),
        "a refused skill is never read"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

// ---------------------------------------------------------------------------
// Review of issues 30 and 33: what a server could still do to a folder

/// A skill listed inside a folder that holds another skill: the user's own
/// (no record), or one another source wrote.
const INSIDE_MINE: Stranger = Stranger {
    uri: "skill://mine/evil/SKILL.md",
    name: "evil",
};
const INSIDE_DOCS: Stranger = Stranger {
    uri: "skill://notes/evil/SKILL.md",
    name: "evil",
};

#[tokio::test]
async fn a_skill_is_never_written_into_another_skills_folder() {
    for legacy in [false, true] {
        let folder = scratch(&format!("inside-{legacy}"));
        std::fs::create_dir_all(folder.join("mine")).unwrap();
        std::fs::write(folder.join("mine/SKILL.md"), "mine\n").unwrap();
        // `notes`, written by the source `docs`.
        let docs = Liar::new(Lie::Honest).with_stranger(NOTES);
        let report = synced_as(
            docs,
            &folder,
            &SkillSource::label("docs"),
            SyncOptions::default(),
        )
        .await;
        assert_eq!(report.exit_code(), 0, "{report}");
        let before = snapshot(&folder);

        // Another source lists skills inside both folders.
        let liar = Liar::with_files(Lie::Honest, other_liar())
            .with_stranger(INSIDE_MINE)
            .with_stranger(INSIDE_DOCS)
            .legacy_if(legacy);
        let report = synced_as(
            liar,
            &folder,
            &SkillSource::label("tools"),
            SyncOptions::default(),
        )
        .await;
        for (stranger, outer) in [(INSIDE_MINE, "mine"), (INSIDE_DOCS, "notes")] {
            let item = report
                .skills
                .iter()
                .find(|s| s.uri.as_deref() == Some(stranger.uri))
                .unwrap();
            assert_eq!(item.action, Action::Keep, "{legacy} {stranger:?}: {report}");
            let reason = item.reason.as_deref().unwrap_or_default();
            assert!(
                reason.contains(&format!("inside `{outer}`")),
                "{stranger:?}: {reason}"
            );
        }
        assert_eq!(report.exit_code(), 1, "{report}");
        assert_eq!(snapshot(&folder), before, "{legacy}: a folder changed");
        std::fs::remove_dir_all(&folder).unwrap();
    }
    // Given together, the inner one is refused: the outer one's folder holds it.
    let folder = scratch("inside-given");
    let skill_md = |name: &str| format!("---\nname: {name}\ndescription: D.\n---\n");
    let (team, pdf) = (skill_md("team"), skill_md("pdf"));
    let plan = skills_runtime::folder::plan(
        &Target::new(&folder, "tool"),
        [
            SkillWrite::new(
                "team",
                "team",
                "1",
                [FileWrite::new("SKILL.md", team.as_bytes(), false)],
            ),
            SkillWrite::new(
                "pdf",
                "team/pdf",
                "1",
                [FileWrite::new("SKILL.md", pdf.as_bytes(), false)],
            ),
        ],
        &Default::default(),
    )
    .unwrap();
    let items = plan.apply();
    assert_eq!((items[0].action, &items[0].error), (Action::Write, &None));
    assert_eq!(items[1].action, Action::Keep, "{:?}", items[1]);
    assert!(
        items[1]
            .reason
            .as_deref()
            .unwrap()
            .contains("inside `team`")
    );
    assert!(!folder.join("team/pdf").exists());
    std::fs::remove_dir_all(&folder).unwrap();
}

/// A skill `name` at `version` whose SKILL.md says `body`, with a reference.
fn versioned(name: &'static str, version: &'static str, body: &str) -> SkillWrite<'static> {
    SkillWrite::new(
        name,
        name,
        version,
        [
            FileWrite::new(
                "SKILL.md",
                format!("---\nname: {name}\ndescription: D.\n---\n{body}\n").into_bytes(),
                false,
            ),
            FileWrite::new("references/notes.md", b"Notes.\n".to_vec(), false),
        ],
    )
}

fn written(target: &Target, skills: Vec<SkillWrite<'static>>) {
    let plan = skills_runtime::folder::plan(target, skills, &Default::default()).unwrap();
    let done = plan.apply();
    assert!(done.iter().all(|item| item.error.is_none()), "{done:?}");
}

#[test]
fn what_changed_between_plan_and_apply_is_left_as_it_is() {
    use skills_runtime::folder::WriteOptions;
    let root = scratch("between");
    let outside = root.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("notes.md"), "a secret\n").unwrap();
    let folder = root.join("skills");
    let ours = Target::new(&folder, "ours");

    // Planned missing; another source writes it first (two syncs at once):
    // applying the plan must not swap the other one's folder away.
    let plan =
        skills_runtime::folder::plan(&ours, [versioned("pdf", "1", "ours")], &Default::default())
            .unwrap();
    assert_eq!(plan.items()[0].state, State::Missing);
    written(
        &Target::new(&folder, "theirs"),
        vec![versioned("pdf", "9", "theirs")],
    );
    let before = snapshot(&folder);
    let done = plan.apply();
    assert!(done[0].error.is_some(), "{done:?}");
    assert_eq!(
        snapshot(&folder),
        before,
        "the other writer's folder was replaced"
    );
    std::fs::remove_dir_all(&folder).unwrap();

    // Planned as an unedited update, an orphan to remove, and an update
    // whose unchanged file is linked from the current folder; then a user
    // edits the first, the second, and swaps the third's folder for a link
    // to a folder outside.
    written(
        &ours,
        vec![
            versioned("pdf", "1", "one"),
            versioned("notes", "1", "one"),
            versioned("docs", "1", "one"),
        ],
    );
    let plan = skills_runtime::folder::plan(
        &ours,
        [versioned("pdf", "2", "two"), versioned("docs", "2", "two")],
        &WriteOptions::default().remove_orphans(true),
    )
    .unwrap();
    let actions: Vec<(&str, Action)> = plan
        .items()
        .iter()
        .map(|item| (item.path.as_str(), item.action))
        .collect();
    assert_eq!(
        actions,
        [
            ("pdf", Action::Update),
            ("docs", Action::Update),
            ("notes", Action::Remove)
        ]
    );
    std::fs::write(folder.join("pdf/SKILL.md"), "my edit\n").unwrap();
    std::fs::write(folder.join("notes/references/notes.md"), "my notes\n").unwrap();
    std::fs::remove_dir_all(folder.join("docs/references")).unwrap();
    std::os::unix::fs::symlink(&outside, folder.join("docs/references")).unwrap();
    let before = snapshot(&folder);
    let done = plan.apply();
    for item in &done {
        let error = item.error.as_deref().unwrap_or_else(|| panic!("{item:?}"));
        assert!(error.contains("since it was planned"), "{error}");
    }
    assert_eq!(
        snapshot(&folder),
        before,
        "an edit was lost or a link followed"
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listing_cannot_fill_the_hosts_memory() {
    for (lie, words) in [
        (Lie::HugeCursor, "a cursor of 1048577 bytes"),
        (Lie::HugeListing, "more than 64 MiB of entries"),
    ] {
        let folder = scratch(&format!("listing-{lie:?}"));
        let client = Liar::new(lie).connect().await;
        let error = client
            .sync_skills(
                &folder,
                &SkillSource::label("liar"),
                &SyncOptions::default(),
            )
            .await
            .unwrap_err();
        assert!(
            matches!(&error, ClientError::Listing(reason) if reason.contains(words)),
            "{lie:?}: {error}"
        );
        assert_eq!(snapshot(&folder), Default::default(), "{lie:?}");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

#[tokio::test]
async fn the_writers_scratch_folders_are_its_own() {
    // A server's skill under a name the writer keeps for its scratch folders
    // would be invisible to it (never an orphan, never compared).
    const SCRATCH: Stranger = Stranger {
        uri: "skill://.skills-runtime-old-pdf-1-0/pdf/SKILL.md",
        name: "pdf",
    };
    for legacy in [false, true] {
        let folder = scratch(&format!("scratch-name-{legacy}"));
        let liar = Liar::new(Lie::Honest)
            .with_stranger(SCRATCH)
            .legacy_if(legacy);
        let report = synced(liar, &folder).await;
        let item = report
            .skills
            .iter()
            .find(|s| s.uri.as_deref() == Some(SCRATCH.uri))
            .unwrap();
        assert_eq!(item.action, Action::Keep, "{report}");
        assert!(
            item.reason
                .as_deref()
                .unwrap_or_default()
                .contains("scratch"),
            "{report}"
        );
        assert!(!folder.join(".skills-runtime-old-pdf-1-0").exists());
        std::fs::remove_dir_all(&folder).unwrap();
    }

    // Scratch folders a crash left behind hold a whole skill, which agents
    // that scan hidden folders would load: a write removes those of
    // processes that are gone, never those of one still running.
    let folder = scratch("scratch-stale");
    let stale = folder.join(".skills-runtime-staging-liar-4294967-0");
    let running = folder.join(".skills-runtime-old-liar-1-0");
    for left in [&stale, &running] {
        std::fs::create_dir_all(left).unwrap();
        std::fs::write(left.join("SKILL.md"), "---\nname: liar\n---\n").unwrap();
    }
    let report = synced(Liar::new(Lie::Honest), &folder).await;
    assert_eq!(report.exit_code(), 0, "{report}");
    assert!(!stale.exists(), "a dead process's staging folder is left");
    assert!(
        running.exists(),
        "a running process's scratch folder is removed"
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

/// Whether `text` could act on a terminal or a CI log: an escape, a bell, a
/// carriage return, a bidirectional override, or more lines than `lines`.
fn acts_on_a_terminal(text: &str, lines: usize) -> bool {
    text.chars()
        .any(|c| matches!(c, '\u{1b}' | '\u{7}' | '\r' | '\u{202e}' | '\u{9b}'))
        || text.lines().count() > lines
}

#[tokio::test]
async fn what_a_server_says_prints_on_one_line_and_acts_on_nothing() {
    // A skill whose URI (kept to name it in the report) holds a title
    // sequence, a clear-screen, a line break and an annotation.
    let hostile: &'static str =
        Box::leak(format!("skill://x{}/pdf/SKILL.md", support::client::TERMINAL).into_boxed_str());
    // And a server that names itself with the same and 100,000 more
    // characters (the report's `server`, which a host prints).
    let name: &'static str =
        Box::leak(format!("{}{}", support::client::TERMINAL, "n".repeat(100_000)).into_boxed_str());
    for legacy in [false, true] {
        let folder = scratch(&format!("terminal-{legacy}"));
        let liar = Liar::new(Lie::Honest)
            .with_stranger(Stranger {
                uri: hostile,
                name: "pdf",
            })
            .named(name)
            .legacy_if(legacy);
        let report = synced(liar, &folder).await;
        assert_eq!(report.skills.len(), 2, "{report:?}");
        let shown = report.to_string();
        assert!(!acts_on_a_terminal(&shown, 2), "{legacy}: {shown:?}");
        assert!(
            !acts_on_a_terminal(&report.server, 1)
                && report.server.ends_with('…')
                && report.server.chars().filter(|c| *c == 'n').count() < 200,
            "{legacy}: the server's name as shown: {:?}",
            report.server
        );
        assert!(report.server.contains("pwned"), "{:?}", report.server);
        for skill in &report.skills {
            assert!(!acts_on_a_terminal(&skill.to_string(), 1), "{skill:?}");
        }
        std::fs::remove_dir_all(&folder).unwrap();
    }
    // An error a server answers with, as a caller prints it.
    for legacy in [false, true] {
        let liar = Liar::new(Lie::TerminalError).legacy_if(legacy);
        let client = liar.connect().await;
        let error = client.discover_skills().await.unwrap_err();
        let shown = error.to_string();
        assert!(shown.contains("pwned"), "{shown}");
        assert!(!acts_on_a_terminal(&shown, 1), "{legacy}: {shown:?}");
    }
}

#[tokio::test]
async fn a_name_no_file_system_holds_is_refused_before_it_is_read() {
    for legacy in [false, true] {
        let folder = scratch(&format!("long-name-{legacy}"));
        let mut files = liar_files();
        let long = format!("references/{}.md", "a".repeat(300));
        files.push((long.clone(), b"x".to_vec()));
        let liar = Liar::with_files(Lie::Honest, files);
        let log = liar.read_log.clone();
        let report = synced(liar.legacy_if(legacy), &folder).await;
        let item = &report.skills[0];
        let error = item.error.as_deref().unwrap_or_default();
        assert!(error.contains("303 bytes long"), "{legacy}: {report}");
        assert!(item.refused, "a verification failure, not a disk error");
        assert_eq!(report.exit_code(), 1);
        assert!(
            log.lock()
                .unwrap()
                .iter()
                .all(|(uri, _)| uri.ends_with("/_manifest")),
            "nothing of the skill was read"
        );
        assert_eq!(snapshot(&folder), Default::default());
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

#[tokio::test]
async fn force_never_removes_the_skills_a_folder_groups() {
    // `docs` wrote `team/pdf`; another source, forced, lists a skill at
    // `team`: the folder is no skill's, it groups one.
    let folder = scratch("force-group");
    const TEAM_PDF: Stranger = Stranger {
        uri: "skill://team/pdf/SKILL.md",
        name: "pdf",
    };
    const TEAM: Stranger = Stranger {
        uri: "skill://team/SKILL.md",
        name: "team",
    };
    let report = synced_as(
        Liar::new(Lie::Honest).with_stranger(TEAM_PDF),
        &folder,
        &SkillSource::label("docs"),
        SyncOptions::default(),
    )
    .await;
    assert_eq!(report.exit_code(), 0, "{report}");
    let before = snapshot(&folder);
    let report = synced_as(
        Liar::with_files(Lie::Honest, other_liar()).with_stranger(TEAM),
        &folder,
        &SkillSource::label("tools"),
        SyncOptions::default().force(true).remove_orphans(false),
    )
    .await;
    let team = report.skills.iter().find(|s| s.path == "team").unwrap();
    assert_eq!(team.action, Action::Keep, "{report}");
    assert!(
        team.reason
            .as_deref()
            .unwrap_or_default()
            .contains("team/pdf"),
        "{report}"
    );
    let mut after = snapshot(&folder);
    after.retain(|path, _| path.starts_with("team"));
    let mut kept = before;
    kept.retain(|path, _| path.starts_with("team"));
    assert_eq!(after, kept, "another source's skill was removed");
    std::fs::remove_dir_all(&folder).unwrap();
}
