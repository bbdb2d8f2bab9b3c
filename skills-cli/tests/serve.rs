//! `skills serve` as a client meets it: the real process, over stdio on
//! both protocol eras and over streamable HTTP, while the folder it serves
//! is edited, broken, fixed, added to, renamed into, checked out over and
//! deleted. The client side (the notices handler, the waits, what a listing
//! says) is the in-process live tests' own, from `skills_test_support::live`.
//!
//! Nothing here sleeps to let time pass: every wait is for an event (a
//! notice, a line on stderr) under a generous deadline.

use skills_test_support::live;

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use live::{
    DEADLINE, Notice, NoticeClient, Notices, entry_digest, folder, list_changed_and, names,
    next_notice, next_on, skill_md, write,
};
use rmcp::model::{ErrorCode, PaginatedRequestParams, ProtocolVersion, ReadResourceRequestParams};
use rmcp::service::{ServiceError, Subscription};
use rmcp::transport::TokioChildProcess;
use rmcp::{ClientLifecycleMode, ClientServiceExt, ServiceExt};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::{Notify, mpsc};

/// The two ways a client starts a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Era {
    /// `initialize`, protocol 2025-11-25: notices come to the session.
    Handshake,
    /// `server/discover`, protocol 2026-07-28: notices come on a listen stream.
    Modern,
}

const ERAS: [Era; 2] = [Era::Handshake, Era::Modern];

/// What the server said on stderr so far, and a bell rung on every line.
#[derive(Clone, Default)]
struct Stderr {
    text: Arc<Mutex<String>>,
    line: Arc<Notify>,
}

impl Stderr {
    fn collect(&self, stderr: impl tokio::io::AsyncRead + Unpin + Send + 'static) {
        let this = self.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(stderr).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let mut text = this.text.lock().unwrap();
                text.push_str(&line);
                text.push('\n');
                drop(text);
                this.line.notify_waiters();
            }
        });
    }

    fn text(&self) -> String {
        self.text.lock().unwrap().clone()
    }

    /// Waits until stderr holds `needle` at least `times` times.
    async fn wait_for(&self, needle: &str, times: usize) -> String {
        let deadline = tokio::time::Instant::now() + DEADLINE;
        loop {
            let notified = self.line.notified();
            let text = self.text();
            if text.matches(needle).count() >= times {
                return text;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!("no `{needle}` (×{times}) on stderr within the deadline:\n{text}");
            }
        }
    }
}

/// A session with `skills serve`, and where its notices arrive.
struct Session {
    client: NoticeClient,
    notices: mpsc::UnboundedReceiver<Notice>,
    /// The 2026-07-28 listen stream (list changes, and the URIs subscribed).
    stream: Option<Subscription>,
    stderr: Stderr,
}

impl Session {
    /// Starts `skills serve ROOT ARGS…` and connects in `era`, subscribed
    /// to list changes and to `subscribed` files.
    async fn start(root: &Path, era: Era, args: &[&str], subscribed: &[&str]) -> Session {
        let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills"));
        command.arg("serve").arg(root).args(args);
        Self::spawn(command, era, subscribed).await
    }

    /// Starts `command` (a `skills serve`) and connects in `era`.
    async fn spawn(command: tokio::process::Command, era: Era, subscribed: &[&str]) -> Session {
        let (transport, stderr) = TokioChildProcess::builder(command)
            .stderr(Stdio::piped())
            .spawn()
            .expect("skills serve starts");
        let collected = Stderr::default();
        collected.collect(stderr.expect("stderr is piped"));
        let (sender, notices) = mpsc::unbounded_channel();
        let client = match era {
            Era::Handshake => Notices(sender).serve(transport).await.expect("initialize"),
            Era::Modern => Notices(sender)
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
                .expect("server/discover"),
        };
        let stream = match era {
            Era::Modern => Some(
                client
                    .peer()
                    .listen(list_changed_and(subscribed))
                    .await
                    .expect("subscriptions/listen"),
            ),
            Era::Handshake => {
                for uri in subscribed {
                    #[allow(deprecated)] // 2025-11-25 clients still subscribe this way.
                    client
                        .subscribe(rmcp::model::SubscribeRequestParams::new(*uri))
                        .await
                        .expect("resources/subscribe");
                }
                None
            }
        };
        Session {
            client,
            notices,
            stream,
            stderr: collected,
        }
    }

    fn peer(&self) -> &rmcp::Peer<rmcp::RoleClient> {
        self.client.peer()
    }

    /// The next change notice, wherever this era receives it.
    async fn notice(&mut self) -> Notice {
        match &mut self.stream {
            Some(stream) => next_on(stream).await,
            None => next_notice(&mut self.notices).await,
        }
    }

    /// Waits for list changes until `settled` holds of what is served now.
    async fn until<F: AsyncFn(&Session) -> bool>(&mut self, settled: F) {
        while !settled(self).await {
            let notice = self.notice().await;
            assert_eq!(notice, Notice::ListChanged);
        }
    }

    async fn description(&self, name: &str) -> Option<String> {
        let entries = self.peer().list_all_skills().await.unwrap();
        entries
            .iter()
            .find(|entry| entry.name() == name)
            .map(|entry| entry.frontmatter.description.clone())
    }
}

/// The version the entry of `name` carries in `_meta`.
async fn entry_version(session: &Session, name: &str) -> String {
    let entries = session.peer().list_all_skills().await.unwrap();
    let entry = entries.iter().find(|entry| entry.name() == name).unwrap();
    let meta = entry.meta.as_ref().expect("entries carry _meta");
    meta.get("io.crates.skills-runtime/version")
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn the_first_line_on_stderr_says_what_is_served_and_the_name_is_reported() {
    let root = folder(
        "serve-first-line",
        &[("alpha", &skill_md("alpha", "First."))],
    );
    for (args, name) in [
        (&[][..], root.file_name().unwrap().to_str().unwrap()),
        (&["--name", "larder"][..], "larder"),
    ] {
        let session = Session::start(&root, Era::Handshake, args, &[]).await;
        let info = session.peer().peer_info().unwrap();
        assert_eq!(info.server_info.as_ref().unwrap().name, name);
        let first = session.stderr.wait_for("\n", 1).await;
        let first = first.lines().next().unwrap();
        assert!(
            first.contains(&root.display().to_string())
                && first.contains("stdio")
                && first.contains("waiting for an MCP client"),
            "{first}"
        );
        assert_eq!(names(session.peer()).await, ["alpha"]);
    }
}

#[tokio::test]
async fn an_edit_changes_the_digest_and_version_and_is_announced_on_both_eras() {
    for era in ERAS {
        let root = folder(
            &format!("serve-edit-{era:?}"),
            &[("alpha", &skill_md("alpha", "First."))],
        );
        let uri = "skill://alpha/SKILL.md";
        let mut session = Session::start(&root, era, &[], &[uri]).await;
        let (digest, version) = (
            entry_digest(session.peer(), "alpha").await,
            entry_version(&session, "alpha").await,
        );
        write(
            &root,
            "alpha/SKILL.md",
            &skill_md("alpha", "First, edited."),
        );
        let mut got = vec![session.notice().await, session.notice().await];
        got.sort_by_key(|notice| format!("{notice:?}"));
        assert_eq!(
            got,
            [Notice::ListChanged, Notice::Updated(uri.into())],
            "{era:?}"
        );
        let after = entry_digest(session.peer(), "alpha").await;
        assert_ne!(after, digest, "{era:?}");
        assert_eq!(
            after,
            rmcp::model::sha256_digest(skill_md("alpha", "First, edited.").as_bytes())
        );
        assert_ne!(entry_version(&session, "alpha").await, version, "{era:?}");
    }
}

#[tokio::test]
async fn a_broken_skill_md_keeps_the_last_good_set_and_stderr_says_where_then_a_fix_recovers() {
    for era in ERAS {
        let root = folder(
            &format!("serve-broken-{era:?}"),
            &[
                ("alpha", &skill_md("alpha", "First.")),
                ("beta", &skill_md("beta", "Second.")),
            ],
        );
        let mut session = Session::start(&root, era, &[], &[]).await;
        // An unquoted `: ` in a value is invalid YAML, at line 3, column 14.
        write(
            &root,
            "beta/SKILL.md",
            "---\nname: beta\ndescription: Second: broken\n---\n",
        );
        let text = session.stderr.wait_for("beta/SKILL.md:3:", 1).await;
        assert!(text.contains("yaml-syntax"), "{text}");
        assert!(text.contains("still serving the last good set"), "{text}");
        assert_eq!(names(session.peer()).await, ["alpha", "beta"], "{era:?}");
        let read = session
            .peer()
            .read_resource(ReadResourceRequestParams::new("skill://beta/SKILL.md"))
            .await
            .unwrap();
        let rmcp::model::ResourceContents::TextResourceContents { text, .. } = &read.contents[0]
        else {
            panic!("SKILL.md is text");
        };
        assert_eq!(text, &skill_md("beta", "Second."), "{era:?}");

        write(&root, "beta/SKILL.md", &skill_md("beta", "Second, fixed."));
        session
            .until(async |session| {
                session.description("beta").await.as_deref() == Some("Second, fixed.")
            })
            .await;
        session.stderr.wait_for("fixed: serving it again", 1).await;

        // Hints name the command line's flags, not the library's fields.
        write(
            &root,
            "beta/SKILL.md",
            "---\nname: beta\ndescription: Second.\nauthor: ada\n---\n",
        );
        let text = session.stderr.wait_for("--allow-field author", 1).await;
        assert!(!text.contains("Options::allow_fields"), "{text}");
    }
}

#[tokio::test]
async fn a_cursor_issued_before_a_reload_is_refused_on_both_eras() {
    for era in ERAS {
        let root = folder(
            &format!("serve-cursor-{era:?}"),
            &[
                ("alpha", &skill_md("alpha", "First.")),
                ("beta", &skill_md("beta", "Second.")),
            ],
        );
        let mut session = Session::start(&root, era, &["--skills-page-size", "1"], &[]).await;
        let page = session.peer().list_skills(None).await.unwrap();
        let cursor = page.next_cursor.expect("two pages");
        write(
            &root,
            "alpha/SKILL.md",
            &skill_md("alpha", "First, edited."),
        );
        assert_eq!(session.notice().await, Notice::ListChanged);
        let result = session
            .peer()
            .list_skills(Some(
                PaginatedRequestParams::default().with_cursor(Some(cursor)),
            ))
            .await;
        let Err(ServiceError::McpError(error)) = result else {
            panic!("{era:?}: a stale cursor was accepted: {result:?}");
        };
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{era:?}");
    }
}

#[tokio::test]
async fn skill_folders_added_renamed_into_checked_out_and_a_root_recreated_end_in_the_right_set() {
    for era in ERAS {
        let root = folder(
            &format!("serve-changes-{era:?}"),
            &[("alpha", &skill_md("alpha", "First."))],
        );
        let mut session = Session::start(&root, era, &[], &[]).await;

        // A new skill folder appears; a deleted one vanishes.
        write(&root, "beta/SKILL.md", &skill_md("beta", "Second."));
        session
            .until(async |s| names(s.peer()).await == ["alpha", "beta"])
            .await;
        std::fs::remove_dir_all(root.join("beta")).unwrap();
        session
            .until(async |s| names(s.peer()).await == ["alpha"])
            .await;

        // An editor's save: write a hidden temporary file, rename it over.
        let temporary = root.join("alpha/.SKILL.md.swp");
        std::fs::write(&temporary, skill_md("alpha", "Saved by rename.")).unwrap();
        std::fs::rename(&temporary, root.join("alpha/SKILL.md")).unwrap();
        session
            .until(async |s| s.description("alpha").await.as_deref() == Some("Saved by rename."))
            .await;

        // A checkout: many files at once, some removed, some added.
        std::fs::remove_dir_all(root.join("alpha")).unwrap();
        for name in ["gamma", "delta", "epsilon"] {
            write(
                &root,
                &format!("{name}/SKILL.md"),
                &skill_md(name, "Checked out."),
            );
            write(&root, &format!("{name}/references/notes.md"), "# Notes\n");
        }
        session
            .until(async |s| names(s.peer()).await == ["delta", "epsilon", "gamma"])
            .await;

        // The root deleted, then created again with another set.
        std::fs::remove_dir_all(&root).unwrap();
        write(
            &root,
            "zeta/SKILL.md",
            &skill_md("zeta", "After the root came back."),
        );
        session
            .until(async |s| names(s.peer()).await == ["zeta"])
            .await;
    }
}

#[tokio::test]
async fn over_http_it_prints_one_line_on_stdout_and_lists() {
    over_http("serve-http", &["--http", "127.0.0.1:0"]).await;
}

/// Bound to every interface with a public name allowed, the line on stdout
/// (and the URL on stderr) is one a client on this machine can use as it
/// is: a loopback address, whose `Host` the server accepts beside the name.
#[tokio::test]
async fn bound_to_every_interface_the_announced_url_passes_its_own_host_check() {
    let address = over_http(
        "serve-http-any",
        &["--http", "0.0.0.0:0", "--allow-host", "skills.example.com"],
    )
    .await;
    assert!(address.starts_with("127.0.0.1:"), "{address}");
}

/// Serves a folder with `args`, checks the one line on stdout, lists over
/// MCP at the address it names and finds that address on stderr; the address.
async fn over_http(test: &str, args: &[&str]) -> String {
    let root = folder(test, &[("alpha", &skill_md("alpha", "First."))]);
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills"))
        .arg("serve")
        .arg(&root)
        .args(args)
        .args(["--name", "larder"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let stderr = Stderr::default();
    stderr.collect(child.stderr.take().unwrap());
    let mut stdout = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = tokio::time::timeout(DEADLINE, stdout.next_line())
        .await
        .expect("the line within the deadline")
        .unwrap()
        .expect("one line");
    let address = line
        .strip_prefix("listening http://")
        .expect(&line)
        .to_owned();
    let client = ()
        .serve(rmcp::transport::StreamableHttpClientTransport::from_uri(
            format!("http://{address}/mcp"),
        ))
        .await
        .expect("initialize");
    assert_eq!(
        client
            .peer_info()
            .unwrap()
            .server_info
            .as_ref()
            .unwrap()
            .name,
        "larder"
    );
    assert_eq!(names(client.peer()).await, ["alpha"]);
    let first = stderr.wait_for("\n", 1).await;
    assert!(
        first
            .lines()
            .next()
            .unwrap()
            .contains(&format!("http://{address}/mcp")),
        "{first}"
    );
    drop(client);
    child.start_kill().unwrap();
    // Nothing else was printed on stdout.
    let rest = tokio::time::timeout(DEADLINE, stdout.next_line())
        .await
        .unwrap();
    assert!(matches!(rest, Ok(None)), "{rest:?}");
    address
}

/// A home folder holding Claude Code's skills: one plain, one using Claude
/// Code's own keys (which the strict rules refuse and its profile accepts),
/// one broken at line 3, and one linked from a dotfiles folder.
fn claude_home(test: &str) -> std::path::PathBuf {
    let base = folder(test, &[]);
    let skills = base.join("home/.claude/skills");
    write(&skills, "plain/SKILL.md", &skill_md("plain", "Plain."));
    write(
        &skills,
        "claudes/SKILL.md",
        "---\nname: claudes\ndescription: Uses Claude Code's keys.\ndisable-model-invocation: true\nallowed-tools:\n  - Read\n---\n# claudes\n",
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
    base.join("home")
}

/// `skills ARGS…` with `home` as HOME and no agent overrides set.
fn skills_at_home(home: &Path, args: &[&str]) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_skills"));
    command
        .args(args)
        .env("HOME", home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME");
    command
}

#[tokio::test]
async fn serve_claude_serves_the_users_skills_with_claude_codes_rules_skill_by_skill() {
    for era in ERAS {
        let home = claude_home(&format!("serve-claude-{era:?}"));
        let mut session =
            Session::spawn(skills_at_home(&home, &["serve", "--claude"]), era, &[]).await;
        assert_eq!(
            session
                .peer()
                .peer_info()
                .unwrap()
                .server_info
                .as_ref()
                .unwrap()
                .name,
            "claude-code"
        );
        assert_eq!(
            names(session.peer()).await,
            ["claudes", "linked", "plain"],
            "{era:?}: the broken skill alone is left out"
        );
        let text = session.stderr.wait_for("broken/SKILL.md:3:", 1).await;
        let first = text.lines().next().unwrap();
        assert!(
            first.contains("Claude Code") && first.contains(".claude/skills"),
            "{first}"
        );
        // Live: a skill added to the folder is served.
        let added = format!("added-{era:?}").to_lowercase();
        write(
            &home,
            &format!(".claude/skills/{added}/SKILL.md"),
            &skill_md(&added, "Added."),
        );
        session
            .until(async |s| names(s.peer()).await.contains(&added))
            .await;
    }
}

#[tokio::test]
async fn check_claude_and_agent_read_the_agents_folders_and_honour_overrides() {
    let home = claude_home("check-claude");
    let output = skills_at_home(&home, &["check", "--claude"])
        .output()
        .await
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("broken/SKILL.md:3:"), "{stdout}");
    assert!(
        !stdout.contains("claudes/SKILL.md:"),
        "Claude Code's keys pass: {stdout}"
    );
    // ... and the readers that refuse them are named.
    assert!(
        stdout.contains("refuse skills-ref@0.1.1: `agentskills validate` (skills-ref 0.1.1) refuses this skill: it allows no top-level field besides"),
        "{stdout}"
    );

    // CODEX_HOME moves Codex's own folder.
    let codex = home.join("elsewhere/codex");
    write(&codex, "skills/tidy/SKILL.md", &skill_md("tidy", "Tidies."));
    let mut command = skills_at_home(&home, &["check", "--agent", "codex"]);
    command.env("CODEX_HOME", &codex);
    let output = command.output().await.unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("1 skill") && stdout.contains("elsewhere/codex/skills"),
        "{stdout}"
    );

    let output = skills_at_home(&home, &["check", "--agent", "emacs"])
        .output()
        .await
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("claude-code, cursor"));
}

/// `--main-file README.md`: folders whose main file is `README.md` are
/// skills, listed under `SKILL.md` (SEP-2640), read live: an edit of the
/// README is served.
#[tokio::test]
async fn serve_main_file_serves_readme_folders_live() {
    let root = folder("serve-main-file", &[]);
    write(
        &root,
        "pantry/README.md",
        &skill_md("pantry", "Keeps stock."),
    );
    let mut session =
        Session::start(&root, Era::Handshake, &["--main-file", "README.md"], &[]).await;
    assert_eq!(names(session.peer()).await, ["pantry"]);
    let entries = session.peer().list_all_skills().await.unwrap();
    assert_eq!(entries[0].uri, "skill://pantry/SKILL.md");
    write(
        &root,
        "pantry/README.md",
        &skill_md("pantry", "Keeps the stock, edited."),
    );
    session
        .until(async |s| {
            s.description("pantry").await.as_deref() == Some("Keeps the stock, edited.")
        })
        .await;
    // Without the option the folder holds no skill: the first load fails, nothing is served.
    let plain = Session::start(&root, Era::Handshake, &[], &[]).await;
    assert!(names(plain.peer()).await.is_empty());
}
