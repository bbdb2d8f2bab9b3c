//! Live reload (`SkillsServer::watch`) and change notices, in process on
//! both protocol eras: what a client sees after an edit, a broken save, a
//! fix, a new or deleted skill, an editor's rename, a checkout-sized burst,
//! a deleted root and a symlink; and the notices it is sent.
//!
//! Nothing here sleeps to let time pass: every wait is for an event (a
//! reload finishing, a notification arriving) under a generous deadline.

use skills_test_support as support;

use std::path::{Path, PathBuf};

use rmcp::model::{
    ErrorCode, PaginatedRequestParams, ReadResourceRequestParams, ServerCapabilities, ServerConfig,
    ServerNotification, SubscribeRequestParams, SubscriptionFilter, UnsubscribeRequestParams,
};
use rmcp::service::ServiceError;
use rmcp::{ServerHandler, ServiceExt};
use skills_runtime::load::{Options, Rule};
use skills_runtime::server::Access;
use skills_runtime::watch::{Reload, Reloads, Watch, WatchHandle};
use skills_runtime::{Skills, SkillsServer};
use support::live::{
    DEADLINE, Notice, NoticeClient, Notices, Receive, entry_digest, folder, list_changed_and,
    names, next_notice, next_on, write,
};
use support::{ERAS, Era, bytes_of, connect, skill_md};
use tokio::sync::mpsc;

/// A server watching `root`, with the reloads to wait on.
fn watched(root: &Path) -> (SkillsServer, WatchHandle, Reloads) {
    let server = SkillsServer::new(Skills::empty());
    let watch = server
        .watch(Watch::folder(root).options(Options::default()))
        .expect("watch");
    assert!(
        watch.last_report().is_none(),
        "the folder loads: {:?}",
        watch.last_report()
    );
    let reloads = watch.reloads();
    (server, watch, reloads)
}

/// Waits for the next reload to finish.
async fn next_reload(reloads: &mut Reloads) -> Reload {
    tokio::time::timeout(DEADLINE, reloads.next())
        .await
        .expect("a reload within the deadline")
        .expect("still watching")
}

/// Waits until the server serves what `root` loads as now (several reloads
/// may be needed while a burst of changes settles).
async fn settles_on(server: &SkillsServer, reloads: &mut Reloads, root: &Path) -> Skills {
    let expected = skills_core::load(root, &Options::default())
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills();
    while server.skills().fingerprint() != expected.fingerprint() {
        let reload = next_reload(reloads).await;
        assert!(reload.report().is_none(), "{:?}", reload.report());
    }
    expected
}

/// Waits for the next reload and requires it to keep the set, naming why.
async fn kept(reloads: &mut Reloads) -> skills_runtime::Report {
    loop {
        let reload = next_reload(reloads).await;
        if let Some(report) = reload.report() {
            assert!(!reload.changed());
            return report.clone();
        }
    }
}

/// A 2025-11-25 client whose notices arrive on the returned channel.
async fn handshake_client(
    handler: impl ServerHandler,
) -> (NoticeClient, mpsc::UnboundedReceiver<Notice>) {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    let (sender, receiver) = mpsc::unbounded_channel();
    let client = Notices(sender).serve(client_end).await.expect("initialize");
    (client, receiver)
}

impl Receive for UpdatesOnly<'_> {
    fn receive(&mut self) -> impl Future<Output = Option<Notice>> {
        self.recv()
    }
}

#[tokio::test]
async fn watching_advertises_list_changed_and_subscribe_on_both_eras() {
    let root = folder("capabilities", &[("alpha", &skill_md("alpha", "First."))]);
    for era in ERAS {
        let still = connect(SkillsServer::new(Skills::empty()), era).await;
        let resources = still.peer_info().unwrap().capabilities.resources.clone();
        let resources = resources.expect("resources are advertised");
        assert_eq!(
            (resources.list_changed, resources.subscribe),
            (None, None),
            "{era:?}: nothing changes on a server that does not watch"
        );
        let (server, _watch, _) = watched(&root);
        let client = connect(server, era).await;
        let resources = client.peer_info().unwrap().capabilities.resources.clone();
        let resources = resources.unwrap();
        assert_eq!(
            (resources.list_changed, resources.subscribe),
            (Some(true), Some(true)),
            "{era:?}"
        );
        assert_eq!(names(client.peer()).await, ["alpha"], "{era:?}");
    }
}

#[tokio::test]
async fn an_edit_changes_the_digest_and_version_and_is_announced_on_both_eras() {
    for era in ERAS {
        let root = folder(
            &format!("edit-{era:?}"),
            &[("alpha", &skill_md("alpha", "First."))],
        );
        let (server, _watch, mut reloads) = watched(&root);
        let version = server.skills().get("alpha").unwrap().version().to_owned();
        let uri = "skill://alpha/SKILL.md";
        // The notice each era gets: a listen stream's list_changed and the
        // update of the subscribed file (2026-07-28), the update of the
        // subscribed file (2025-11-25, through resources/subscribe).
        let (client, mut notices, mut stream) = match era {
            Era::Modern => {
                let client = connect(server.clone(), era).await;
                let stream = client
                    .peer()
                    .listen(list_changed_and(&[uri]))
                    .await
                    .unwrap();
                let acknowledged = stream.acknowledged().clone();
                assert_eq!(acknowledged, list_changed_and(&[uri]));
                (client.peer().clone(), None, Some((client, stream)))
            }
            Era::Handshake => {
                let (client, notices) = handshake_client(server.clone()).await;
                #[allow(deprecated)] // 2025-11-25 clients still subscribe this way.
                client
                    .subscribe(SubscribeRequestParams::new(uri))
                    .await
                    .unwrap();
                (client.peer().clone(), Some((client, notices)), None)
            }
        };
        let before = entry_digest(&client, "alpha").await;

        write(
            &root,
            "alpha/SKILL.md",
            &skill_md("alpha", "First, edited."),
        );
        let reload = next_reload(&mut reloads).await;
        assert!(reload.changed() && reload.report().is_none(), "{era:?}");

        // Both eras: the list changed (the skill's version did), and the
        // subscribed file was updated. The two notices travel apart, in
        // either order.
        let mut got = match (&mut notices, &mut stream) {
            (Some((_, notices)), None) => {
                vec![next_notice(notices).await, next_notice(notices).await]
            }
            (None, Some((_, stream))) => vec![next_on(stream).await, next_on(stream).await],
            _ => unreachable!(),
        };
        got.sort_by_key(|notice| format!("{notice:?}"));
        assert_eq!(
            got,
            [Notice::ListChanged, Notice::Updated(uri.into())],
            "{era:?}"
        );
        let after = entry_digest(&client, "alpha").await;
        assert_ne!(before, after, "{era:?}");
        assert_eq!(
            after,
            rmcp::model::sha256_digest(skill_md("alpha", "First, edited.").as_bytes())
        );
        assert_ne!(
            server.skills().get("alpha").unwrap().version(),
            version,
            "{era:?}"
        );
        let read = client
            .read_resource(ReadResourceRequestParams::new(uri))
            .await
            .unwrap();
        assert_eq!(
            bytes_of(&read.contents[0]),
            skill_md("alpha", "First, edited.").as_bytes(),
            "{era:?}: the read is not served from a stale cache"
        );
    }
}

#[tokio::test]
async fn a_broken_skill_keeps_the_last_good_set_and_says_where_then_a_fix_recovers() {
    let root = folder(
        "broken",
        &[
            ("alpha", &skill_md("alpha", "First.")),
            ("beta", &skill_md("beta", "Second.")),
        ],
    );
    let (server, watch, mut reloads) = watched(&root);
    for era in ERAS {
        let client = connect(server.clone(), era).await;
        assert_eq!(names(client.peer()).await, ["alpha", "beta"]);
    }

    // An unquoted `: ` in a value is invalid YAML, at line 3.
    write(
        &root,
        "beta/SKILL.md",
        "---\nname: beta\ndescription: Second: broken\n---\n",
    );
    let report = kept(&mut reloads).await;
    let problem = &report.diagnostics()[0];
    assert_eq!(problem.file, "beta/SKILL.md");
    assert_eq!(problem.rule, Rule::YamlSyntax);
    assert_eq!((problem.line, problem.column.is_some()), (Some(3), true));
    let rendered = report.to_string();
    assert!(
        rendered.contains(&format!(
            "beta/SKILL.md:3:{}: yaml-syntax",
            problem.column.unwrap()
        )),
        "{rendered}"
    );
    assert_eq!(watch.last_report().as_ref(), Some(&report));
    for era in ERAS {
        let client = connect(server.clone(), era).await;
        assert_eq!(
            names(client.peer()).await,
            ["alpha", "beta"],
            "{era:?}: the last good set is still served"
        );
        let read = client
            .read_resource(ReadResourceRequestParams::new("skill://beta/SKILL.md"))
            .await
            .unwrap();
        assert_eq!(
            bytes_of(&read.contents[0]),
            skill_md("beta", "Second.").as_bytes()
        );
    }

    write(&root, "beta/SKILL.md", &skill_md("beta", "Second, fixed."));
    settles_on(&server, &mut reloads, &root).await;
    assert!(watch.last_report().is_none());
    assert_eq!(
        server.skills().get("beta").unwrap().description(),
        "Second, fixed."
    );
}

#[tokio::test]
async fn a_cursor_issued_before_a_reload_is_refused_on_both_eras() {
    let root = folder(
        "cursor",
        &[
            ("alpha", &skill_md("alpha", "First.")),
            ("beta", &skill_md("beta", "Second.")),
        ],
    );
    let server = SkillsServer::builder(Skills::empty())
        .skills_page_size(1)
        .resources_page_size(1)
        .build()
        .unwrap();
    let watch = server
        .watch(Watch::folder(&root).options(Options::default()))
        .unwrap();
    let mut reloads = watch.reloads();
    let mut cursors = Vec::new();
    for era in ERAS {
        let client = connect(server.clone(), era).await;
        let skills = client.list_skills(None).await.unwrap();
        let resources = client.list_resources(None).await.unwrap();
        cursors.push((
            era,
            skills.next_cursor.expect("two pages"),
            resources.next_cursor.expect("two pages"),
        ));
    }

    write(
        &root,
        "alpha/SKILL.md",
        &skill_md("alpha", "First, edited."),
    );
    assert!(next_reload(&mut reloads).await.changed());

    for (era, skills_cursor, resources_cursor) in cursors {
        let client = connect(server.clone(), era).await;
        let page =
            |cursor: String| Some(PaginatedRequestParams::default().with_cursor(Some(cursor)));
        for result in [
            client
                .list_skills(page(skills_cursor.clone()))
                .await
                .map(|_| ()),
            client
                .list_resources(page(resources_cursor.clone()))
                .await
                .map(|_| ()),
        ] {
            let Err(ServiceError::McpError(error)) = result else {
                panic!("{era:?}: a stale cursor was accepted: {result:?}");
            };
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{era:?}");
            assert!(error.message.contains("changed"), "{}", error.message);
        }
    }
}

#[tokio::test]
async fn adding_a_skill_folder_makes_it_appear_and_deleting_one_makes_it_vanish() {
    let root = folder("add-delete", &[("alpha", &skill_md("alpha", "First."))]);
    let (server, _watch, mut reloads) = watched(&root);
    let client = connect(server.clone(), Era::Modern).await;
    let mut stream = client.peer().listen(list_changed_and(&[])).await.unwrap();

    write(&root, "gamma/references/notes.md", "Notes.\n");
    write(&root, "gamma/SKILL.md", &skill_md("gamma", "Third."));
    settles_on(&server, &mut reloads, &root).await;
    assert_eq!(next_on(&mut stream).await, Notice::ListChanged);
    assert_eq!(names(client.peer()).await, ["alpha", "gamma"]);
    let notes = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://gamma/references/notes.md",
        ))
        .await
        .unwrap();
    assert_eq!(bytes_of(&notes.contents[0]), b"Notes.\n");

    std::fs::remove_dir_all(root.join("alpha")).unwrap();
    settles_on(&server, &mut reloads, &root).await;
    assert_eq!(next_on(&mut stream).await, Notice::ListChanged);
    assert_eq!(names(client.peer()).await, ["gamma"]);
    let gone = client
        .read_resource(ReadResourceRequestParams::new("skill://alpha/SKILL.md"))
        .await
        .unwrap_err();
    let ServiceError::McpError(error) = gone else {
        panic!("{gone:?}");
    };
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
}

#[tokio::test]
async fn a_relative_folder_is_watched_like_an_absolute_one() {
    let root = folder("relative", &[("alpha", &skill_md("alpha", "First."))]);
    let here = std::env::current_dir().unwrap();
    let relative: PathBuf = here
        .components()
        .skip(1)
        .map(|_| Path::new(".."))
        .chain(
            root.components()
                .skip(1)
                .map(|part| Path::new(part.as_os_str())),
        )
        .collect();
    assert!(relative.is_relative() && relative.is_dir(), "{relative:?}");
    let (server, watch, mut reloads) = watched(&relative);
    assert!(watch.dirs().iter().all(|dir| dir.is_absolute()));
    write(&root, "alpha/SKILL.md", &skill_md("alpha", "Edited."));
    settles_on(&server, &mut reloads, &root).await;
}

#[tokio::test]
async fn an_editors_save_by_rename_ends_in_the_saved_text() {
    let root = folder("rename", &[("alpha", &skill_md("alpha", "First."))]);
    let (server, _watch, mut reloads) = watched(&root);
    // What vim, VS Code and JetBrains do: write a hidden temporary file
    // beside the original, then rename it over the original.
    let saved = skill_md("alpha", "Saved by rename.");
    write(&root, "alpha/.SKILL.md.tmp~", &saved);
    std::fs::rename(
        root.join("alpha/.SKILL.md.tmp~"),
        root.join("alpha/SKILL.md"),
    )
    .unwrap();
    settles_on(&server, &mut reloads, &root).await;
    assert_eq!(
        server.skills().get("alpha").unwrap().description(),
        "Saved by rename."
    );
    // A swap file beside the edit changes nothing the loader reads.
    write(&root, "alpha/.SKILL.md.swp", "swap");
    write(
        &root,
        "alpha/SKILL.md",
        &skill_md("alpha", "After the swap file."),
    );
    let reload = next_reload(&mut reloads).await;
    assert!(reload.changed());
    assert_eq!(
        server.skills().get("alpha").unwrap().description(),
        "After the swap file."
    );
}

#[tokio::test]
async fn a_burst_like_a_git_checkout_ends_in_the_checked_out_set() {
    let originals: Vec<(String, String)> = (0..20)
        .map(|index| {
            let name = format!("skill-{index:02}");
            let text = skill_md(&name, "Before the checkout.");
            (name, text)
        })
        .collect();
    let pairs: Vec<(&str, &str)> = originals
        .iter()
        .map(|(name, text)| (name.as_str(), text.as_str()))
        .collect();
    let root = folder("burst", &pairs);
    let (server, _watch, mut reloads) = watched(&root);
    // A checkout rewrites, deletes and adds many files in one go.
    for index in 0..20 {
        let name = format!("skill-{index:02}");
        match index % 4 {
            0 => std::fs::remove_dir_all(root.join(&name)).unwrap(),
            1 => write(
                &root,
                &format!("{name}/SKILL.md"),
                &skill_md(&name, "After."),
            ),
            2 => write(&root, &format!("{name}/references/new.md"), "New.\n"),
            _ => {}
        }
    }
    for index in 20..30 {
        let name = format!("skill-{index:02}");
        write(
            &root,
            &format!("{name}/SKILL.md"),
            &skill_md(&name, "Added."),
        );
        write(&root, &format!("{name}/scripts/run.sh"), "#!/bin/sh\n");
    }
    let expected = settles_on(&server, &mut reloads, &root).await;
    assert_eq!(expected.len(), 25);
    assert_eq!(server.skills().len(), 25);
    assert_eq!(
        server.skills().get("skill-01").unwrap().description(),
        "After."
    );
    assert!(server.skills().get("skill-00").is_none());
    assert!(
        server
            .skills()
            .get("skill-02")
            .unwrap()
            .file("references/new.md")
            .is_some()
    );
}

#[tokio::test]
async fn the_root_deleted_then_recreated_ends_in_the_new_set() {
    let root = folder("root", &[("alpha", &skill_md("alpha", "First."))]);
    let (server, watch, mut reloads) = watched(&root);

    std::fs::remove_dir_all(&root).unwrap();
    let report = kept(&mut reloads).await;
    assert_eq!(report.diagnostics()[0].rule, Rule::RootMissing);
    assert_eq!(
        server.skills().len(),
        1,
        "the last good set is still served"
    );

    std::fs::create_dir_all(root.join("beta")).unwrap();
    write(&root, "beta/SKILL.md", &skill_md("beta", "Recreated."));
    settles_on(&server, &mut reloads, &root).await;
    assert!(server.skills().get("alpha").is_none());
    assert!(server.skills().get("beta").is_some());
    assert!(watch.last_report().is_none());

    // The recreated folder is watched as closely as the first one.
    write(&root, "beta/SKILL.md", &skill_md("beta", "Edited after."));
    settles_on(&server, &mut reloads, &root).await;
    assert_eq!(
        server.skills().get("beta").unwrap().description(),
        "Edited after."
    );
}

#[cfg(unix)]
#[tokio::test]
async fn a_symlink_added_while_watching_is_reported_and_never_followed() {
    let root = folder("symlink", &[("alpha", &skill_md("alpha", "First."))]);
    let outside = root.with_extension("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "outside the folder\n").unwrap();
    let (server, watch, mut reloads) = watched(&root);
    let client = connect(server.clone(), Era::Handshake).await;

    std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("alpha/leak.txt")).unwrap();
    let report = kept(&mut reloads).await;
    let problem = &report.diagnostics()[0];
    assert_eq!(
        (problem.rule, problem.file.as_str()),
        (Rule::Symlink, "alpha/leak.txt")
    );
    assert_eq!(watch.last_report().unwrap(), report);
    let entries = client.list_all_skills().await.unwrap();
    assert_eq!(entries.len(), 1, "the last good set keeps serving");
    let leak = client
        .read_resource(ReadResourceRequestParams::new("skill://alpha/leak.txt"))
        .await;
    assert!(leak.is_err(), "the link's target is never served: {leak:?}");

    std::fs::remove_file(root.join("alpha/leak.txt")).unwrap();
    while next_reload(&mut reloads).await.report().is_some() {}
    assert!(watch.last_report().is_none(), "removing the link recovers");
    let _ = std::fs::remove_dir_all(&outside);
}

#[tokio::test]
async fn a_subscribed_file_is_announced_only_when_its_own_bytes_change() {
    let root = folder(
        "subscribe",
        &[
            ("alpha", &skill_md("alpha", "First.")),
            ("beta", &skill_md("beta", "Second.")),
        ],
    );
    write(&root, "alpha/references/guide.md", "Guide v1.\n");
    let (server, _watch, mut reloads) = watched(&root);
    let guide = "skill://alpha/references/guide.md";
    let (client, mut notices) = handshake_client(server.clone()).await;
    #[allow(deprecated)] // 2025-11-25 clients still subscribe this way.
    {
        client
            .subscribe(SubscribeRequestParams::new(guide))
            .await
            .unwrap();
        // A file that does not exist yet may be subscribed to.
        client
            .subscribe(SubscribeRequestParams::new(
                "skill://beta/references/later.md",
            ))
            .await
            .unwrap();
        let malformed = client
            .subscribe(SubscribeRequestParams::new("skill://alpha/../etc"))
            .await
            .unwrap_err();
        let ServiceError::McpError(error) = malformed else {
            panic!("{malformed:?}");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            error.data,
            Some(serde_json::json!({"uri": "skill://alpha/../etc"}))
        );
    }

    // Updates only: the session also hears that its list changed whenever
    // a skill it sees changes, which is not what this test is about.
    let mut notices = UpdatesOnly(&mut notices);
    // Another file changes: no notice for the guide. Then the guide does.
    write(&root, "beta/SKILL.md", &skill_md("beta", "Second, edited."));
    assert!(next_reload(&mut reloads).await.changed());
    write(&root, "alpha/references/guide.md", "Guide v2.\n");
    assert!(next_reload(&mut reloads).await.changed());
    assert_eq!(
        next_notice(&mut notices).await,
        Notice::Updated(guide.into())
    );

    // The file subscribed to before it existed is announced when it appears.
    write(&root, "beta/references/later.md", "Later.\n");
    assert!(next_reload(&mut reloads).await.changed());
    assert_eq!(
        next_notice(&mut notices).await,
        Notice::Updated("skill://beta/references/later.md".into())
    );

    // After unsubscribing, an edit of the guide is not announced; the
    // next notice is the one for the file still subscribed to.
    #[allow(deprecated)]
    client
        .unsubscribe(UnsubscribeRequestParams::new(guide))
        .await
        .unwrap();
    write(&root, "alpha/references/guide.md", "Guide v3.\n");
    assert!(next_reload(&mut reloads).await.changed());
    write(&root, "beta/references/later.md", "Later, edited.\n");
    assert!(next_reload(&mut reloads).await.changed());
    assert_eq!(
        next_notice(&mut notices).await,
        Notice::Updated("skill://beta/references/later.md".into())
    );
    assert!(notices.try_recv().is_none(), "nothing else was announced");
}

/// The `resources/updated` notices of a session, skipping its
/// `list_changed` ones.
struct UpdatesOnly<'n>(&'n mut mpsc::UnboundedReceiver<Notice>);

impl UpdatesOnly<'_> {
    async fn recv(&mut self) -> Option<Notice> {
        loop {
            match self.0.recv().await? {
                Notice::ListChanged => continue,
                notice => return Some(notice),
            }
        }
    }

    fn try_recv(&mut self) -> Option<Notice> {
        loop {
            match self.0.try_recv().ok()? {
                Notice::ListChanged => continue,
                notice => return Some(notice),
            }
        }
    }
}

#[tokio::test]
async fn a_change_is_announced_only_to_the_streams_whose_view_changed() {
    let root = folder(
        "per-view",
        &[
            ("public", &skill_md("public", "Everyone.")),
            ("secret", &skill_md("secret", "Admins only.")),
        ],
    );
    let server = SkillsServer::builder(Skills::empty())
        .access(|skill, caller| {
            let admin = caller
                .mcp()
                .and_then(|context| context.client_info())
                .is_some_and(|client| client.name == "admin");
            if skill.name() != "secret" || admin {
                Access::Owned
            } else {
                Access::Absent
            }
        })
        .build()
        .unwrap();
    let watch = server
        .watch(Watch::folder(&root).options(Options::default()))
        .unwrap();
    let mut reloads = watch.reloads();
    let admin = support::connect_as(server.clone(), Era::Modern, "admin").await;
    let guest = support::connect_as(server.clone(), Era::Modern, "guest").await;
    let public = "skill://public/SKILL.md";
    let mut admin_stream = admin.peer().listen(list_changed_and(&[])).await.unwrap();
    let mut guest_stream = guest
        .peer()
        .listen(list_changed_and(&[public]))
        .await
        .unwrap();
    assert_eq!(names(guest.peer()).await, ["public"]);

    // Only admins see this change.
    write(
        &root,
        "secret/SKILL.md",
        &skill_md("secret", "Admins, edited."),
    );
    assert!(next_reload(&mut reloads).await.changed());
    assert_eq!(next_on(&mut admin_stream).await, Notice::ListChanged);

    // Everyone sees this one. The guest's first notices are this change's
    // list_changed and update: had it been told of the first change, a
    // list_changed would come first.
    write(
        &root,
        "public/SKILL.md",
        &skill_md("public", "Everyone, edited."),
    );
    assert!(next_reload(&mut reloads).await.changed());
    assert_eq!(next_on(&mut admin_stream).await, Notice::ListChanged);
    assert_eq!(next_on(&mut guest_stream).await, Notice::ListChanged);
    assert_eq!(
        next_on(&mut guest_stream).await,
        Notice::Updated(public.into())
    );
    assert_eq!(names(guest.peer()).await, ["public"]);
}

/// An author's handler that announces its own tool list changes.
#[derive(Clone)]
struct Tools;

impl ServerHandler for Tools {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
    }

    fn accepted_subscription_filter(
        &self,
        _requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        Some(SubscriptionFilter::builder().tools_list_changed().build())
    }

    async fn listen(
        &self,
        context: rmcp::service::SubscriptionContext,
    ) -> Result<(), rmcp::ErrorData> {
        // Announces one tool list change as soon as a client listens.
        context.sink().notify_tool_list_changed().await.ok();
        context.cancelled().await;
        Ok(())
    }
}

#[tokio::test]
async fn with_skills_merges_its_subscription_filter_with_the_inner_handlers() {
    let root = folder("merged", &[("alpha", &skill_md("alpha", "First."))]);
    let skills = SkillsServer::new(Skills::empty());
    let watch = skills
        .watch(Watch::folder(&root).options(Options::default()))
        .unwrap();
    let mut reloads = watch.reloads();
    let client = connect(skills.clone().wrap(Tools), Era::Modern).await;
    let requested = SubscriptionFilter::builder()
        .tools_list_changed()
        .resources_list_changed()
        .build();
    let mut stream = client.peer().listen(requested.clone()).await.unwrap();
    assert_eq!(
        stream.acknowledged(),
        &requested,
        "both handlers' categories are accepted"
    );
    let first = tokio::time::timeout(DEADLINE, stream.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(
        matches!(first, ServerNotification::ToolListChangedNotification(_)),
        "the inner handler runs the stream: {first:?}"
    );
    write(&root, "alpha/SKILL.md", &skill_md("alpha", "Edited."));
    assert!(next_reload(&mut reloads).await.changed());
    assert_eq!(next_on(&mut stream).await, Notice::ListChanged);
}

#[tokio::test]
async fn a_server_that_does_not_notify_refuses_subscriptions() {
    for era in ERAS {
        let client = connect(SkillsServer::new(Skills::empty()), era).await;
        let result = match era {
            #[allow(deprecated)]
            Era::Handshake => client
                .subscribe(SubscribeRequestParams::new("skill://alpha/SKILL.md"))
                .await
                .map(|_| ()),
            Era::Modern => client
                .peer()
                .listen(list_changed_and(&[]))
                .await
                .map(|_| ()),
        };
        let Err(ServiceError::McpError(error)) = result else {
            panic!("{era:?}: {result:?}");
        };
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND, "{era:?}");
    }
}

#[tokio::test]
async fn a_watch_serves_the_folder_over_the_embedded_set_and_turns_on_change_notices() {
    let root = folder(
        "debug",
        &[("alpha", &skill_md("alpha", "From the folder."))],
    );
    // What a binary that embeds its skills does in debug builds.
    let server = SkillsServer::new(support::trees::EXAMPLES.clone());
    let watch = server.watch(Watch::folder(&root)).unwrap();
    assert_eq!(watch.dirs(), std::slice::from_ref(&root));
    assert_eq!(
        server
            .config(&skills_runtime::server::Caller::anonymous())
            .capabilities
            .resources
            .and_then(|resources| resources.subscribe),
        Some(true)
    );
    let mut reloads = watch.reloads();
    let client = connect(server.clone(), Era::Handshake).await;
    assert_eq!(names(client.peer()).await, ["alpha"]);
    write(&root, "alpha/SKILL.md", &skill_md("alpha", "Edited."));
    settles_on(&server, &mut reloads, &root).await;
    assert_eq!(
        server.skills().get("alpha").unwrap().description(),
        "Edited."
    );
}

// The example skills, checked strictly and with links unchecked.
use support::trees::{EXAMPLES as STRICT, EXAMPLES_LINKS_UNCHECKED as LINKS_UNCHECKED};

#[tokio::test]
async fn a_watch_without_options_applies_the_options_the_set_was_embedded_with() {
    assert_eq!(
        STRICT.embed_options().map(|options| options.check_links()),
        Some(true)
    );
    let recorded = LINKS_UNCHECKED
        .embed_options()
        .expect("embedded sets record their options");
    assert!(!recorded.check_links());
    assert_eq!(recorded.allow_fields().collect::<Vec<_>>(), ["x-team"]);
    // A SKILL.md naming a file the skill lacks, with a key outside the specification.
    let text = "---\nname: alpha\ndescription: First.\nx-team: kitchen\n---\nSee [the guide](references/guide.md).\n";
    let root = folder("recorded-options", &[("alpha", text)]);

    let lenient = SkillsServer::new(LINKS_UNCHECKED.clone());
    let watch = lenient.watch(Watch::folder(&root)).unwrap();
    assert!(watch.last_report().is_none(), "{:?}", watch.last_report());
    assert_eq!(lenient.skills().len(), 1);

    let strict = SkillsServer::new(STRICT.clone());
    let strict_watch = strict.watch(Watch::folder(&root)).unwrap();
    let report = strict_watch.last_report().expect("refused");
    let rules: Vec<Rule> = report
        .diagnostics()
        .iter()
        .map(|problem| problem.rule)
        .collect();
    assert!(
        rules.contains(&Rule::BrokenLink) && rules.contains(&Rule::UnknownField),
        "{report}"
    );
    assert_eq!(
        strict.skills().len(),
        STRICT.len(),
        "the embedded set is served while the folder does not load"
    );
}

#[tokio::test]
async fn a_set_the_server_refuses_keeps_the_last_good_one_and_says_why() {
    // A SKILL.md linking a file declared generated loads, but cannot be
    // served until the program adds the file: try_replace refuses it.
    let root = folder("refused", &[("alpha", &skill_md("alpha", "First."))]);
    let initial = support::load(&root);
    let server = SkillsServer::new(initial.clone());
    let mut options = Options::default();
    options.generated = vec!["alpha/references/api.md".to_owned()];
    write(
        &root,
        "alpha/SKILL.md",
        &format!(
            "{}See [the API](references/api.md).\n",
            skill_md("alpha", "Edited.")
        ),
    );
    let watch = server.watch(Watch::folder(&root).options(options)).unwrap();
    let report = watch.last_report().expect("the set is refused");
    assert!(
        report
            .diagnostics()
            .iter()
            .any(|problem| problem.rule == Rule::Generated),
        "{report}"
    );
    assert_eq!(
        server.skills().fingerprint(),
        initial.fingerprint(),
        "the last good set is still served"
    );
}

/// A home folder with Claude Code's skills: a good one, one using Claude
/// Code's own keys (refused by the strict rules, accepted by its profile),
/// a broken one, and one linked from a dotfiles folder outside.
fn claude_home(test: &str) -> (PathBuf, PathBuf) {
    let base = folder(test, &[]);
    let skills = base.join("home/.claude/skills");
    write(&skills, "plain/SKILL.md", &skill_md("plain", "Plain."));
    write(
        &skills,
        "claudes/SKILL.md",
        "---\nname: claudes\ndescription: Uses Claude Code's keys.\ndisable-model-invocation: true\nallowed-tools:\n  - Read\n  - Grep\n---\n# claudes\n",
    );
    write(
        &skills,
        "broken/SKILL.md",
        "---\nname: broken\ndescription: Broken: here\n---\n",
    );
    write(
        &base,
        "dotfiles/linked/SKILL.md",
        &skill_md("linked", "Linked."),
    );
    std::os::unix::fs::symlink(base.join("dotfiles/linked"), skills.join("linked")).unwrap();
    (base.join("home"), base)
}

#[cfg(unix)]
#[tokio::test]
async fn an_agents_folders_are_served_skill_by_skill_with_its_rules_and_watched() {
    use skills_runtime::load::vendor::{Agent, Environment};

    let (home, base) = claude_home("agent");
    let env = Environment::new(&home);
    let server = SkillsServer::new(Skills::empty());
    let watch = server
        .watch(Watch::agent(&Agent::CLAUDE_CODE, &env))
        .unwrap();
    let first = watch.last_reload();
    assert!(first.report().is_none());
    let refused: Vec<&str> = first.refused().iter().map(|r| r.folder.as_str()).collect();
    assert_eq!(refused, ["broken"], "one broken skill refuses only itself");
    assert_eq!(first.refused()[0].errors[0].rule, Rule::YamlSyntax);
    assert_eq!(first.refused()[0].errors[0].line, Some(3));
    let client = connect(server.clone(), Era::Modern).await;
    assert_eq!(
        names(client.peer()).await,
        ["claudes", "linked", "plain"],
        "Claude Code's keys pass its profile; the linked skill is followed"
    );

    // The linked skill's own folder is watched: an edit there is served.
    let mut reloads = watch.reloads();
    write(
        &base,
        "dotfiles/linked/SKILL.md",
        &skill_md("linked", "Edited."),
    );
    loop {
        next_reload(&mut reloads).await;
        if server.skills().get("linked").unwrap().description() == "Edited." {
            break;
        }
    }
    // Fixing the broken one serves it.
    write(
        &home,
        ".claude/skills/broken/SKILL.md",
        &skill_md("broken", "Fixed."),
    );
    loop {
        let reload = next_reload(&mut reloads).await;
        if reload.refused().is_empty() {
            break;
        }
    }
    assert_eq!(
        names(client.peer()).await,
        ["broken", "claudes", "linked", "plain"]
    );
}

#[cfg(unix)]
#[tokio::test]
async fn an_agents_override_is_honoured_and_roots_merge_first_wins() {
    use skills_runtime::load::vendor::{Agent, Environment};

    let base = folder("agent-override", &[]);
    let config = base.join("claude-config");
    write(
        &config,
        "skills/alpha/SKILL.md",
        &skill_md("alpha", "From the override."),
    );
    write(
        &base,
        "home/.claude/skills/beta/SKILL.md",
        &skill_md("beta", "Ignored."),
    );
    let env = Environment::new(base.join("home")).var("CLAUDE_CONFIG_DIR", &config);
    let server = SkillsServer::new(Skills::empty());
    let _watch = server
        .watch(Watch::agent(&Agent::CLAUDE_CODE, &env))
        .unwrap();
    assert_eq!(
        server.skills().get("alpha").unwrap().description(),
        "From the override."
    );
    assert!(
        server.skills().get("beta").is_none(),
        "CLAUDE_CONFIG_DIR replaces ~/.claude"
    );

    // Several roots: the first wins on a name, the duplicate is reported;
    // a root that does not exist yet is served as it appears.
    let first = base.join("first");
    let second = base.join("second");
    let later = base.join("not-yet/skills");
    write(&first, "gamma/SKILL.md", &skill_md("gamma", "First root."));
    write(
        &second,
        "gamma/SKILL.md",
        &skill_md("gamma", "Second root."),
    );
    let server = SkillsServer::new(Skills::empty());
    let watch = server
        .watch(Watch::roots([&first, &second, &later]).options(Options::default()))
        .unwrap();
    assert_eq!(
        server.skills().get("gamma").unwrap().description(),
        "First root."
    );
    let loaded = skills_core::load_roots(&[&first, &second], &Options::default());
    assert!(
        loaded.reports()[1]
            .diagnostics()
            .iter()
            .any(|problem| problem.rule == Rule::DuplicateName),
        "the duplicate is reported"
    );
    let mut reloads = watch.reloads();
    write(&later, "delta/SKILL.md", &skill_md("delta", "Came later."));
    while server.skills().get("delta").is_none() {
        next_reload(&mut reloads).await;
    }
}

/// Swaps `alpha/notes.md` between a regular file and what `other` puts in
/// its place, as fast as it can, until told to stop: a folder racing the
/// loader's walk against its read. Hidden names (which the loader skips)
/// stage each swap.
#[cfg(unix)]
struct Swapper {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<usize>>,
}

#[cfg(unix)]
impl Swapper {
    fn start(root: &Path, other: impl Fn(&Path) + Send + 'static) -> Self {
        use std::sync::atomic::{AtomicBool, Ordering};
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let (dir, flag) = (root.join("alpha"), stop.clone());
        let thread = std::thread::spawn(move || {
            let mut swaps = 0;
            let mut touched = std::time::Instant::now();
            while !flag.load(Ordering::Relaxed) {
                std::fs::write(dir.join(".regular"), "the notes\n").unwrap();
                std::fs::rename(dir.join(".regular"), dir.join("notes.md")).unwrap();
                other(&dir.join(".other"));
                std::fs::rename(dir.join(".other"), dir.join("notes.md")).unwrap();
                swaps += 1;
                // A name swapped without pause never settles for the
                // debouncer; an edit elsewhere does, and each reload it
                // starts reads the folder while the swaps go on.
                if touched.elapsed() > std::time::Duration::from_millis(80) {
                    std::fs::write(dir.join("trigger.md"), format!("{swaps}\n")).unwrap();
                    touched = std::time::Instant::now();
                }
            }
            swaps
        });
        Self {
            stop,
            thread: Some(thread),
        }
    }

    fn stop(mut self) -> usize {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        self.thread.take().unwrap().join().unwrap()
    }
}

/// Lets the swapper race `reloads` reloads, checking after each that the
/// server serves nothing but bytes from inside the folder; then stops it,
/// removes the notes, adds a skill and waits for the watch to serve it.
#[cfg(unix)]
async fn races_then_recovers(
    root: &Path,
    server: &SkillsServer,
    reloads: &mut Reloads,
    swapper: Swapper,
) {
    for _ in 0..20 {
        next_reload(reloads).await;
        for skill in server.skills().skills() {
            for file in skill.files() {
                assert!(
                    !file.bytes().windows(6).any(|window| window == b"SECRET"),
                    "served bytes from outside the folder: {}",
                    file.path()
                );
            }
        }
    }
    let swaps = swapper.stop();
    assert!(swaps > 20, "the folder was swapped {swaps} times");
    std::fs::remove_file(root.join("alpha/notes.md")).unwrap();
    write(
        root,
        "beta/SKILL.md",
        &skill_md("beta", "Added after the race."),
    );
    // Reloads that saw the last swap may still report it; the watch goes
    // on and serves the skill added after the race.
    while server.skills().get("beta").is_none() {
        next_reload(reloads).await;
    }
    assert_eq!(server.skills().len(), 2);
}

#[cfg(unix)]
#[tokio::test]
async fn a_link_swapped_in_between_walk_and_read_is_never_served() {
    let root = folder("swap-link", &[("alpha", &skill_md("alpha", "First."))]);
    let secret = root.with_extension("secret");
    std::fs::write(&secret, "SECRET from outside the folder\n").unwrap();
    let (server, _watch, mut reloads) = watched(&root);
    let target = secret.clone();
    let swapper = Swapper::start(&root, move |staged| {
        std::os::unix::fs::symlink(&target, staged).unwrap();
    });
    races_then_recovers(&root, &server, &mut reloads, swapper).await;
    let _ = std::fs::remove_file(&secret);
}

#[cfg(unix)]
#[tokio::test]
async fn a_fifo_swapped_in_between_walk_and_read_does_not_stop_the_watch() {
    let root = folder("swap-fifo", &[("alpha", &skill_md("alpha", "First."))]);
    let fifo = root.with_extension("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let (server, _watch, mut reloads) = watched(&root);
    let master = fifo.clone();
    // A hard link to one FIFO: a FIFO at the name with no writer ever.
    let swapper = Swapper::start(&root, move |staged| {
        std::fs::hard_link(&master, staged).unwrap();
    });
    races_then_recovers(&root, &server, &mut reloads, swapper).await;
    let _ = std::fs::remove_file(&fifo);
}
