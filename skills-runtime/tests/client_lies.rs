//! A server that lies: every lie is caught before anything is written, and
//! the folder is byte-identical before and after, on the SEP-2640 path
//! (`skills/list`) and on the pre-SEP one (`resources/list`, `_manifest`). Plus a legal skill of
//! 16 MiB, which rmcp's default transport drops and ours accepts.

use skills_test_support as support;

use std::time::Duration;

use rmcp::ServiceExt as _;
use skills_runtime::client::{
    ClientError, DownloadOptions, SkillSource, SkillsPeerExt as _, Source, SyncOptions, transport,
};
use skills_runtime::folder::{Action, FileWrite, SkillWrite, State, Target};
use support::client::{LEGACY_LIES, LIES, Liar, Lie, Stranger, liar_files, scratch, snapshot};

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
        Lie::Honest => "",
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
    let liar = || {
        let liar = Liar::new(lie);
        if legacy { liar.legacy() } else { liar }
    };
    let words = expected_words(lie, legacy);

    let client = transport::connect(transport::stream(liar().spawn()))
        .await
        .unwrap();
    let report = client
        .sync_skills(
            &folder,
            &SkillSource::label("liar"),
            &SyncOptions::default(),
        )
        .await
        .unwrap();
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

    let client = transport::connect(transport::stream(liar().spawn()))
        .await
        .unwrap();
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

        let liar = Liar::new(Lie::Honest).with_stranger(stranger);
        let liar = if legacy { liar.legacy() } else { liar };
        let client = transport::connect(transport::stream(liar.clone().spawn()))
            .await
            .unwrap();
        let report = client
            .sync_skills(
                &folder,
                &SkillSource::label("liar"),
                &SyncOptions::default(),
            )
            .await
            .unwrap();
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
            let client = transport::connect(transport::stream(liar.spawn()))
                .await
                .unwrap();
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
    let client = transport::connect(transport::stream(Liar::new(Lie::Honest).spawn()))
        .await
        .unwrap();
    let report = client
        .sync_skills(
            &folder,
            &SkillSource::label("liar"),
            &SyncOptions::default(),
        )
        .await
        .unwrap();
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
    let client = transport::connect(transport::stream(
        Liar::with_files(Lie::Honest, files.clone()).spawn(),
    ))
    .await
    .unwrap();
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
    let ours = transport::connect(transport::stream(
        Liar::with_files(Lie::Honest, files.clone()).spawn(),
    ))
    .await
    .unwrap();
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
    let client = transport::connect(transport::stream(first.spawn()))
        .await
        .unwrap();
    let docs = SkillSource::label("docs");
    let report = client
        .sync_skills(&folder, &docs, &SyncOptions::default())
        .await
        .unwrap();
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
        let client = transport::connect(transport::stream(second.clone().spawn()))
            .await
            .unwrap();
        let report = client
            .sync_skills(&folder, &source, &SyncOptions::default())
            .await
            .unwrap();
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
    let client = transport::connect(transport::stream(second.clone().spawn()))
        .await
        .unwrap();
    let forced = client
        .sync_skills(
            &folder,
            &SkillSource::label("tools"),
            &SyncOptions::default().force(true).remove_orphans(false),
        )
        .await
        .unwrap();
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
    let client = transport::connect(transport::stream(Liar::new(Lie::Honest).spawn()))
        .await
        .unwrap();
    let report = client
        .sync_skills(&folder, &url, &SyncOptions::default())
        .await
        .unwrap();
    let liar = report.skills.iter().find(|s| s.path == "liar").unwrap();
    assert_eq!((liar.state, liar.action), (State::Foreign, Action::Keep));
    let reason = liar.reason.as_deref().unwrap_or_default();
    assert!(
        reason.contains("sync with the label `liar` to adopt it"),
        "{reason}"
    );
    assert_eq!(snapshot(&folder), before);

    // The host's label equal to the recorded writer adopts it.
    let client = transport::connect(transport::stream(Liar::new(Lie::Honest).spawn()))
        .await
        .unwrap();
    let report = client
        .sync_skills(
            &folder,
            &SkillSource::label("liar"),
            &SyncOptions::default(),
        )
        .await
        .unwrap();
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
                .with_stranger(other);
            let liar = if legacy { liar.legacy() } else { liar };
            let client = transport::connect(transport::stream(liar.spawn()))
                .await
                .unwrap();
            let report = client
                .sync_skills(
                    &folder,
                    &SkillSource::label("liar"),
                    &SyncOptions::default(),
                )
                .await
                .unwrap();
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
    let client = transport::connect(transport::stream(
        Liar::new(Lie::Honest).with_stranger(NOTES).spawn(),
    ))
    .await
    .unwrap();
    let report = client
        .sync_skills(
            &folder,
            &SkillSource::label("liar"),
            &SyncOptions::default(),
        )
        .await
        .unwrap();
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
const UNPORTABLE_FILES: [(&[&str], &str); 7] = [
    (&["\u{3c3}.md", "\u{3c2}.md"], "differ only in letter case"),
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
            let liar = Liar::with_files(Lie::Honest, files);
            let liar = if legacy { liar.legacy() } else { liar };
            let client = transport::connect(transport::stream(liar.spawn()))
                .await
                .unwrap();
            let report = client
                .sync_skills(
                    &folder,
                    &SkillSource::label("liar"),
                    &SyncOptions::default(),
                )
                .await
                .unwrap();
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
        let liar = if legacy { liar.legacy() } else { liar };
        let client = transport::connect(transport::stream(liar.spawn()))
            .await
            .unwrap();
        let report = client
            .sync_skills(
                &folder,
                &SkillSource::label("liar"),
                &SyncOptions::default(),
            )
            .await
            .unwrap();
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
    let client = transport::connect(transport::stream(liar.clone().spawn()))
        .await
        .unwrap();
    let report = client
        .sync_skills(
            &folder,
            &SkillSource::label("liar"),
            &SyncOptions::default().concurrency(1),
        )
        .await
        .unwrap();
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
    let client = transport::connect(transport::stream(liar.spawn()))
        .await
        .unwrap();
    let liar_bytes: u64 = liar_files().iter().map(|(_, b)| b.len() as u64).sum();
    let report = client
        .sync_skills(
            &folder,
            &SkillSource::label("liar"),
            &SyncOptions::default().max_bytes(liar_bytes),
        )
        .await
        .unwrap();
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
