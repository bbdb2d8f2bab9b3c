//! The client side against our own server, in process, on both protocol
//! eras and on the legacy (pre-SEP) path: discovery sends listing requests
//! only, both manifest paths agree, a sync writes verified skills, keeps
//! edits, removes orphans, and a second sync changes nothing.

use skills_test_support as support;

use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::Path;

use skills_runtime::SkillsServer;
use skills_runtime::client::{
    DownloadOptions, SkillSource, SkillsPeerExt as _, Source, SyncOptions,
};
use skills_runtime::folder::{Action, State};
use support::client::{LegacyOnly, scratch, skill_methods, snapshot, tapped};
use support::{ERAS, Era};

use support::trees::EXAMPLES as SKILLS;

fn server() -> SkillsServer {
    SkillsServer::new(SKILLS.clone())
}

/// The source the host names our server by.
fn source() -> SkillSource {
    SkillSource::label("kitchen")
}

#[tokio::test]
async fn discovery_sends_listing_requests_only() {
    for era in ERAS {
        let (client, methods) = tapped(server(), era).await;
        assert!(
            skill_methods(&methods).is_empty(),
            "{era:?}: nothing on connect"
        );
        let skills = client.discover_skills().await.unwrap();
        let paths: Vec<&str> = skills.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(
            paths,
            ["kitchen/recipe-scaling", "purchase-orders", "stock-audit"]
        );
        assert!(skills.iter().all(|s| s.source == Source::Sep));
        assert_eq!(
            skills[2].field("description").and_then(|d| d.as_str()),
            Some(skills[2].description.as_str())
        );
        assert_eq!(skill_methods(&methods), ["skills/list"], "{era:?}");

        let (client, methods) = tapped(LegacyOnly(server()), era).await;
        let legacy = client.discover_skills().await.unwrap();
        assert_eq!(legacy.len(), 3);
        assert!(
            legacy
                .iter()
                .all(|s| s.source == Source::Legacy && s.frontmatter.is_none())
        );
        assert_eq!(skill_methods(&methods), ["resources/list"], "{era:?}");
    }
}

#[tokio::test]
async fn both_manifest_paths_agree() {
    let (sep, _) = tapped(server(), Era::Modern).await;
    let (legacy, methods) = tapped(LegacyOnly(server()), Era::Handshake).await;
    for skill in SKILLS.skills() {
        let from_entry = sep.skill_manifest(skill.name()).await.unwrap();
        let from_manifest = legacy.skill_manifest(skill.path()).await.unwrap();
        assert_eq!(from_entry.source, Source::Sep);
        assert_eq!(from_manifest.source, Source::Legacy);
        assert_eq!(from_entry.version, skill.version(), "the tables' revision");
        assert_eq!(from_manifest.version, from_entry.version);
        assert_eq!(from_manifest.files, from_entry.files);
        assert_eq!(from_manifest.executable, from_entry.executable);
        assert_eq!(from_manifest.path, skill.path());
    }
    let audit = sep.skill_manifest("stock-audit").await.unwrap();
    assert_eq!(audit.executable, ["scripts/variance_report.py"]);
    assert!(
        skill_methods(&methods)
            .iter()
            .all(|m| m == "resources/list" || m == "resources/read")
    );
}

#[tokio::test]
async fn sync_writes_every_skill_and_a_second_run_changes_nothing() {
    for (index, era) in ERAS.into_iter().enumerate() {
        for legacy in [false, true] {
            let folder = scratch(&format!("sync-{index}-{legacy}"));
            let (client, methods) = if legacy {
                tapped(LegacyOnly(server()), era).await
            } else {
                tapped(server(), era).await
            };
            let report = client
                .sync_skills(&folder, &source(), &SyncOptions::default())
                .await
                .unwrap();
            assert_eq!(report.exit_code(), 0, "{report}");
            assert!(
                report
                    .skills
                    .iter()
                    .all(|s| s.state == State::Missing && s.action == Action::Write)
            );
            for skill in SKILLS.skills() {
                for file in skill.files() {
                    let path = folder.join(skill.path()).join(file.path());
                    assert_eq!(
                        std::fs::read(&path).unwrap(),
                        file.bytes(),
                        "{}",
                        path.display()
                    );
                    let executable =
                        std::fs::metadata(&path).unwrap().permissions().mode() & 0o111 != 0;
                    assert_eq!(executable, file.is_executable(), "{}", path.display());
                }
            }
            let before = snapshot(&folder);
            let files_before = inodes(&folder);
            methods.lock().unwrap().clear();

            let again = client
                .sync_skills(&folder, &source(), &SyncOptions::default())
                .await
                .unwrap();
            assert!(
                again
                    .skills
                    .iter()
                    .all(|s| s.state == State::UpToDate && s.action == Action::None),
                "{again}"
            );
            assert!(!again.changed_anything());
            assert_eq!(snapshot(&folder), before);
            assert_eq!(inodes(&folder), files_before);
            assert!(
                !skill_methods(&methods)
                    .iter()
                    .any(|m| m == "resources/read" && !legacy),
                "an up-to-date skill is not read: {:?}",
                skill_methods(&methods)
            );
            std::fs::remove_dir_all(&folder).unwrap();
        }
    }
}

/// Inode and modification time of every file under `root`.
fn inodes(root: &Path) -> Vec<(String, u64, i64, i64)> {
    let mut found: Vec<_> = snapshot(root)
        .keys()
        .map(|path| {
            let meta = std::fs::metadata(root.join(path)).unwrap();
            (path.clone(), meta.ino(), meta.mtime(), meta.mtime_nsec())
        })
        .collect();
    found.sort();
    found
}

#[tokio::test]
async fn only_changed_files_move_edits_are_kept_and_orphans_go() {
    let folder = scratch("update");
    let server = server();
    let (client, _) = tapped(server.clone(), Era::Handshake).await;
    client
        .sync_skills(&folder, &source(), &SyncOptions::default())
        .await
        .unwrap();
    let before = inodes(&folder);

    // A new version of stock-audit: one file changed, one removed, one added.
    let tree = support::tree(
        "client-update",
        &[
            (
                "stock-audit/SKILL.md",
                &std::fs::read_to_string("../examples/skills/stock-audit/SKILL.md").unwrap(),
            ),
            (
                "stock-audit/references/counting-procedure.md",
                "Count twice.\n",
            ),
            (
                "stock-audit/references/discrepancy-codes.md",
                &std::fs::read_to_string(
                    "../examples/skills/stock-audit/references/discrepancy-codes.md",
                )
                .unwrap(),
            ),
            (
                "stock-audit/assets/count-sheet-template.csv",
                &std::fs::read_to_string(
                    "../examples/skills/stock-audit/assets/count-sheet-template.csv",
                )
                .unwrap(),
            ),
            ("stock-audit/assets/new.md", "New.\n"),
            (
                "purchase-orders/SKILL.md",
                &std::fs::read_to_string("../examples/skills/purchase-orders/SKILL.md").unwrap(),
            ),
        ],
    );
    // purchase-orders loses its files but keeps its SKILL.md; recipe-scaling vanishes.
    let mut options = skills_core::Options::default();
    options.check_links = false;
    let next = skills_core::load(&tree, &options).unwrap().into_skills();
    server.replace(next).unwrap();

    // The user edits purchase-orders: it is kept, reported modified.
    std::fs::write(
        folder.join("purchase-orders/references/approval-matrix.md"),
        "mine\n",
    )
    .unwrap();
    let report = client
        .sync_skills(&folder, &source(), &SyncOptions::default())
        .await
        .unwrap();
    let by_path = |path: &str| {
        report
            .skills
            .iter()
            .find(|s| s.path == path)
            .unwrap()
            .clone()
    };
    let audit = by_path("stock-audit");
    assert_eq!(
        (audit.state, audit.action),
        (State::Outdated, Action::Update),
        "{report}"
    );
    assert_eq!(audit.files.changed, ["references/counting-procedure.md"]);
    assert_eq!(audit.files.added, ["assets/new.md"]);
    assert_eq!(audit.files.removed, ["scripts/variance_report.py"]);
    let orders = by_path("purchase-orders");
    assert_eq!(
        (orders.state, orders.action),
        (State::Modified, Action::Keep)
    );
    assert_eq!(orders.files.edited, ["references/approval-matrix.md"]);
    let gone = by_path("kitchen/recipe-scaling");
    assert_eq!((gone.state, gone.action), (State::Orphaned, Action::Remove));
    assert!(
        !folder.join("kitchen").exists(),
        "the orphan and its empty parent are gone"
    );
    assert_eq!(report.exit_code(), 1, "a user's edit was kept");

    // Unchanged files kept their inode and mtime; the changed one did not.
    let after = inodes(&folder);
    let find =
        |list: &[(String, u64, i64, i64)], path: &str| list.iter().find(|e| e.0 == path).cloned();
    for path in [
        "stock-audit/SKILL.md",
        "stock-audit/references/discrepancy-codes.md",
    ] {
        assert_eq!(find(&before, path), find(&after, path), "{path}");
    }
    assert_ne!(
        find(&before, "stock-audit/references/counting-procedure.md")
            .unwrap()
            .1,
        find(&after, "stock-audit/references/counting-procedure.md")
            .unwrap()
            .1
    );
    assert!(!folder.join("stock-audit/scripts").exists());

    // --force overwrites the edit.
    let forced = client
        .sync_skills(&folder, &source(), &SyncOptions::default().force(true))
        .await
        .unwrap();
    assert_eq!(forced.exit_code(), 0, "{forced}");
    assert!(
        !folder
            .join("purchase-orders/references/approval-matrix.md")
            .exists()
    );
    let settled = client
        .sync_skills(&folder, &source(), &SyncOptions::default())
        .await
        .unwrap();
    assert!(
        settled.skills.iter().all(|s| s.state == State::UpToDate),
        "{settled}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
    std::fs::remove_dir_all(&tree).unwrap();
}

#[tokio::test]
async fn foreign_folders_and_dry_runs_are_left_alone() {
    let folder = scratch("foreign");
    std::fs::create_dir_all(folder.join("stock-audit")).unwrap();
    std::fs::write(folder.join("stock-audit/SKILL.md"), "my own skill\n").unwrap();
    let (client, methods) = tapped(server(), Era::Modern).await;
    let before = snapshot(&folder);
    let dry = client
        .sync_skills(&folder, &source(), &SyncOptions::default().dry_run(true))
        .await
        .unwrap();
    assert!(dry.dry_run);
    assert_eq!(snapshot(&folder), before, "a dry run writes nothing");
    assert!(
        !skill_methods(&methods)
            .iter()
            .any(|m| m == "resources/read"),
        "and reads nothing"
    );
    let planned: Vec<(&str, State, Action)> = dry
        .skills
        .iter()
        .map(|s| (s.path.as_str(), s.state, s.action))
        .collect();
    assert_eq!(
        planned,
        [
            ("kitchen/recipe-scaling", State::Missing, Action::Write),
            ("purchase-orders", State::Missing, Action::Write),
            ("stock-audit", State::Foreign, Action::Keep),
        ]
    );
    let report = client
        .sync_skills(&folder, &source(), &SyncOptions::default())
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(folder.join("stock-audit/SKILL.md")).unwrap(),
        "my own skill\n"
    );
    assert_eq!(report.exit_code(), 1);
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn a_link_in_the_folder_is_never_followed() {
    let folder = scratch("links");
    let outside = scratch("links-outside");
    std::os::unix::fs::symlink(&outside, folder.join("stock-audit")).unwrap();
    std::fs::create_dir_all(folder.join("kitchen")).unwrap();
    std::os::unix::fs::symlink(&outside, folder.join("kitchen/recipe-scaling")).unwrap();
    let (client, _) = tapped(server(), Era::Handshake).await;
    for force in [false, true] {
        let report = client
            .sync_skills(&folder, &source(), &SyncOptions::default().force(force))
            .await
            .unwrap();
        for path in ["stock-audit", "kitchen/recipe-scaling"] {
            let item = report.skills.iter().find(|s| s.path == path).unwrap();
            assert_eq!(
                (item.state, item.action),
                (State::Foreign, Action::Keep),
                "{report}"
            );
            assert!(item.reason.as_deref().unwrap().contains("symbolic link"));
        }
    }
    assert_eq!(
        std::fs::read_dir(&outside).unwrap().count(),
        0,
        "nothing written through a link"
    );
    std::fs::remove_dir_all(&folder).unwrap();
    std::fs::remove_dir_all(&outside).unwrap();
}

#[tokio::test]
async fn a_nested_skill_travels_inside_its_parent() {
    let tree = support::tree(
        "client-nested",
        &[
            (
                "outer/SKILL.md",
                &support::skill_md("outer", "The outer skill."),
            ),
            (
                "outer/inner/SKILL.md",
                &support::skill_md("inner", "A skill inside the outer one."),
            ),
            ("outer/inner/notes.md", "notes\n"),
        ],
    );
    let server = SkillsServer::new(support::load(&tree));
    let folder = scratch("nested");
    let (client, _) = tapped(server, Era::Modern).await;
    let report = client
        .sync_skills(&folder, &source(), &SyncOptions::default())
        .await
        .unwrap();
    let inner = report
        .skills
        .iter()
        .find(|s| s.path == "outer/inner")
        .unwrap();
    assert_eq!(inner.part_of.as_deref(), Some("outer"));
    assert_eq!((inner.state, inner.action), (State::Missing, Action::Write));
    assert_eq!(
        std::fs::read_to_string(folder.join("outer/inner/notes.md")).unwrap(),
        "notes\n"
    );
    assert!(folder.join("outer/.skills-runtime.json").exists());
    assert!(
        !folder.join("outer/inner/.skills-runtime.json").exists(),
        "recorded once, by its parent"
    );
    let again = client
        .sync_skills(&folder, &source(), &SyncOptions::default())
        .await
        .unwrap();
    assert!(
        again.skills.iter().all(|s| s.state == State::UpToDate),
        "{again}"
    );
    std::fs::remove_dir_all(&folder).unwrap();
    std::fs::remove_dir_all(&tree).unwrap();
}

#[tokio::test]
async fn download_one_skill_by_name_or_uri() {
    let folder = scratch("download");
    let (client, _) = tapped(server(), Era::Modern).await;
    let report = client
        .download_skill(
            "stock-audit",
            &folder,
            &source(),
            &DownloadOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(
        (report.state, report.action),
        (State::Missing, Action::Write)
    );
    assert!(
        folder
            .join("stock-audit/scripts/variance_report.py")
            .exists()
    );
    let by_uri = client
        .download_skill(
            "skill://kitchen/recipe-scaling/SKILL.md",
            &folder,
            &source(),
            &DownloadOptions::default(),
        )
        .await
        .unwrap();
    assert_eq!(by_uri.path, "kitchen/recipe-scaling");
    let unknown = client
        .download_skill(
            "no-such-skill",
            &folder,
            &source(),
            &DownloadOptions::default(),
        )
        .await
        .unwrap_err();
    assert_eq!(unknown.to_string(), "no skill `no-such-skill` is served");
    let fetched = client
        .fetch_skill("purchase-orders", &DownloadOptions::default())
        .await
        .unwrap();
    assert!(fetched.findings.is_none());
    assert!(fetched.skill_md().starts_with("---\nname: purchase-orders"));
    std::fs::remove_dir_all(&folder).unwrap();
}

#[tokio::test]
async fn a_server_that_cannot_start_is_named_in_the_error() {
    let missing = "target/debug/examples/no_such_stdio_server";
    let Err(error) =
        skills_runtime::client::transport::ChildProcess::spawn(missing, [] as [&str; 0])
    else {
        panic!("{missing} started");
    };
    assert_eq!(error.kind(), std::io::ErrorKind::NotFound);
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("cannot start `{missing}`: ")),
        "{message}"
    );
    assert!(message.contains("is the program built?"), "{message}");
}
