//! A server that lies: every lie is caught before anything is written, and
//! the folder is byte-identical before and after. Plus a legal skill of
//! 16 MiB, which rmcp's default transport drops and ours accepts.

use skills_test_support as support;

use std::time::Duration;

use rmcp::ServiceExt as _;
use skills_runtime::client::{
    ClientError, DownloadOptions, SkillsPeerExt as _, SyncOptions, transport,
};
use skills_runtime::folder::{Action, FileWrite, SkillWrite, State, Target};
use support::client::{LIES, Liar, Lie, liar_files, scratch, snapshot};

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

fn expected_words(lie: Lie) -> &'static str {
    match lie {
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
        Lie::Honest => "",
    }
}

#[tokio::test]
async fn every_lie_is_caught_and_nothing_is_written() {
    for lie in LIES {
        let folder = populated(&format!("lie-{lie:?}"));
        let before = snapshot(&folder);

        let client = transport::connect(transport::stream(Liar::new(lie).spawn()))
            .await
            .unwrap();
        let report = client
            .sync_skills(&folder, &SyncOptions::default().writer("liar"))
            .await
            .unwrap();
        let item = report.skills.iter().find(|s| s.name == "liar").unwrap();
        let error = item
            .error
            .as_deref()
            .unwrap_or_else(|| panic!("{lie:?} not caught: {report}"));
        assert!(error.contains(expected_words(lie)), "{lie:?}: {error}");
        assert!(item.refused, "{lie:?}: a verification failure");
        assert_eq!(item.action, Action::None);
        assert_eq!(report.exit_code(), 1, "{lie:?}");
        assert_eq!(snapshot(&folder), before, "{lie:?}: the folder changed");

        let client = transport::connect(transport::stream(Liar::new(lie).spawn()))
            .await
            .unwrap();
        let download = client
            .download_skill("liar", &folder, &DownloadOptions::default().writer("liar"))
            .await
            .unwrap_err();
        assert!(download.is_verification(), "{lie:?}: {download}");
        assert!(
            download.to_string().contains(expected_words(lie)),
            "{lie:?}: {download}"
        );
        assert_eq!(snapshot(&folder), before, "{lie:?}: the folder changed");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

#[tokio::test]
async fn the_honest_liar_is_written() {
    let folder = populated("honest");
    let client = transport::connect(transport::stream(Liar::new(Lie::Honest).spawn()))
        .await
        .unwrap();
    let report = client
        .sync_skills(&folder, &SyncOptions::default().writer("liar"))
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
