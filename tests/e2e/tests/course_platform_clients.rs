//! The course platform example (`examples/course-platform`, run exactly as
//! its users run it: `serve --bind 127.0.0.1:0 --db PATH`, `token LEARNER`,
//! `grant LEARNER SKILL`) against real clients, each connecting as one
//! learner with a bearer header:
//!
//! - the `mcp` SDK (`clients/sdk_client.py --header`) sees exactly that
//!   learner's skills in `skills/list` and `resources/list`, verifies every
//!   digest, gets the same error for the other learner's course, a course on
//!   sale and one in preparation as for a course that does not exist, and,
//!   after a `grant` from another process, is told (`list_changed`) and
//!   lists the course;
//! - fast-agent (`clients/fastagent_client.py --header`: its OAuth flow never
//!   runs, the token is sent as a header) installs exactly that learner's
//!   skills;
//! - the teasers of courses on sale appear on `GET /skills` only.
//!
//! Needs the Python venvs of `clients/setup.sh`, like `python_clients.rs`, so
//! the tests are `#[ignore = "needs …"]` (`.ci/run` runs them).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::Value;
use skills_runtime::{Skills, embed_skills};
use skills_test_support::process::{self, Listening};
use skills_test_support::{examples, needs};

/// The platform's skills, as the example embeds them.
static COURSES: Skills = embed_skills!(
    "../../examples/course-platform/skills",
    gated = ["courses/*"]
);

const CLIENT_TIMEOUT: Duration = Duration::from_secs(180);

fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The platform's binary, built with the Cargo running this test, once.
fn example() -> &'static Path {
    static BINARY: OnceLock<PathBuf> = OnceLock::new();
    BINARY.get_or_init(|| examples::binary("course-platform"))
}

/// `course-platform serve` on a fresh database, killed when dropped.
struct Platform {
    server: Listening,
    folder: PathBuf,
}

impl Platform {
    fn start(name: &str) -> Platform {
        let folder = std::env::temp_dir().join(format!(
            "course-platform-clients-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).unwrap();
        let server = Listening::start(
            Command::new(example())
                .args(["serve", "--bind", "127.0.0.1:0", "--db"])
                .arg(folder.join("platform.db")),
        );
        Platform { server, folder }
    }

    fn db(&self) -> PathBuf {
        self.folder.join("platform.db")
    }

    fn url(&self) -> String {
        format!("{}/mcp", self.server.base)
    }

    /// `course-platform ARGS --db DB`, as a command line for a client to run.
    fn command(&self, args: &[&str]) -> String {
        let mut words = vec![example().display().to_string()];
        words.extend(args.iter().map(|arg| (*arg).to_owned()));
        words.extend(["--db".to_owned(), self.db().display().to_string()]);
        words.join(" ")
    }

    fn token(&self, learner: &str) -> String {
        let output = Command::new(example())
            .args(["token", learner, "--db"])
            .arg(self.db())
            .output()
            .expect("token runs");
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_owned()
    }
}

impl Drop for Platform {
    fn drop(&mut self) {
        // `server` is killed after this body: the database may go first, as before.
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// Runs `python clients/SCRIPT ARGS` with a time limit; its JSON report.
fn run_client(python: &Path, script: &str, args: &[String]) -> Value {
    let finished = process::run(
        Command::new(python)
            .arg(package_dir().join("clients").join(script))
            .args(args),
        CLIENT_TIMEOUT,
    )
    .expect("the client starts");
    assert!(
        finished.status.is_some(),
        "{script} {args:?} killed after {CLIENT_TIMEOUT:?}"
    );
    let text = finished.stdout;
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("{script} printed no report: {text}"))
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter_map(|item| item.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// What each learner owns in a fresh database (examples/course-platform/src/db.rs).
fn owned_by(learner: &str) -> &'static [&'static str] {
    match learner {
        "learner-a" => &["academy", "courses/rust-ownership"],
        _ => &["academy", "courses/sql-joins"],
    }
}

/// Courses the learner does not own: the other's, one on sale, one in preparation.
fn refused_for(learner: &str) -> String {
    let other = if learner == "learner-a" {
        "sql-joins"
    } else {
        "rust-ownership"
    };
    [other, "async-rust", "kubernetes-basics"]
        .map(|name| format!("skill://courses/{name}/SKILL.md"))
        .join(",")
}

fn uris(paths: &[&str]) -> Vec<String> {
    let mut uris: Vec<String> = paths
        .iter()
        .map(|path| COURSES.get(path).unwrap().uri().to_owned())
        .collect();
    uris.sort();
    uris
}

fn files(paths: &[&str]) -> u64 {
    paths
        .iter()
        .map(|path| COURSES.get(path).unwrap().files().len() as u64)
        .sum()
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_each_learner_sees_their_own_skills_and_is_told_of_a_purchase() {
    let python = needs::python("py311");
    let platform = Platform::start("sdk");
    let mut failures = Vec::new();
    for learner in ["learner-a", "learner-b"] {
        let owned = owned_by(learner);
        let header = format!("Authorization: Bearer {}", platform.token(learner));
        for (mode, protocol) in [("legacy", "2025-11-25"), ("auto", "2026-07-28")] {
            let label = format!("{learner}, {mode}");
            let report = run_client(
                &python,
                "sdk_client.py",
                &[
                    "--mode".into(),
                    mode.into(),
                    "--expect-protocol".into(),
                    protocol.into(),
                    "--header".into(),
                    header.clone(),
                    "--refused".into(),
                    refused_for(learner),
                    platform.url(),
                ],
            );
            if report["ok"] != true {
                failures.push(format!("{label}: {}", report["problems"]));
            }
            let mut listed = strings(&report["skill_uris"]);
            listed.sort();
            if listed != uris(owned) {
                failures.push(format!("{label}: skills/list {listed:?}"));
            }
            // resources/list: every resource belongs to an owned skill, and
            // each owned SKILL.md is there.
            let resources = strings(&report["resource_uris"]);
            let roots: Vec<&str> = owned
                .iter()
                .map(|path| COURSES.get(path).unwrap().root_uri())
                .collect();
            for uri in &resources {
                if !roots
                    .iter()
                    .any(|root| uri.starts_with(&format!("{root}/")))
                {
                    failures.push(format!("{label}: resources/list shows {uri}"));
                }
            }
            for uri in uris(owned) {
                if !resources.contains(&uri) {
                    failures.push(format!("{label}: resources/list lacks {uri}"));
                }
            }
            let counts = &report["counts"];
            let expected = files(owned);
            if counts["files_listed"] != expected || counts["files_verified"] != expected {
                failures.push(format!(
                    "{label}: {expected} files expected, counts {counts}"
                ));
            }
            if counts["refused_alike"] != 3 {
                failures.push(format!(
                    "{label}: refused alike {}",
                    counts["refused_alike"]
                ));
            }
        }
    }

    // Teasers are on the catalog route only (skills/list and resources/list
    // above hold owned skills alone).
    let token = platform.token("learner-a");
    let catalog = tokio::runtime::Runtime::new().unwrap().block_on(async {
        reqwest::Client::builder()
            .no_proxy()
            .build()
            .unwrap()
            .get(format!("{}/skills", platform.server.base))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    });
    let catalog: Value = serde_json::from_str(&catalog).unwrap();
    let names = |key: &str| -> Vec<String> {
        catalog[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(names("skills"), ["academy", "rust-ownership"]);
    assert_eq!(names("locked"), ["async-rust", "sql-joins"]);

    // A purchase from another process: the learner's session is told, and
    // lists the course (whose files the client reads and verifies).
    let report = run_client(
        &python,
        "sdk_client.py",
        &[
            "--mode".into(),
            "legacy".into(),
            "--header".into(),
            format!("Authorization: Bearer {token}"),
            "--then".into(),
            platform.command(&["grant", "learner-a", "async-rust"]),
            platform.url(),
        ],
    );
    if report["ok"] != true {
        failures.push(format!("purchase: {}", report["problems"]));
    }
    if report["counts"]["list_changed"].as_u64().unwrap_or(0) < 1 {
        failures.push(format!("purchase: not told, counts {}", report["counts"]));
    }
    let mut after = strings(&report["skill_uris_after"]);
    after.sort();
    let mut expected = uris(owned_by("learner-a"));
    expected.push("skill://courses/async-rust/SKILL.md".to_owned());
    expected.sort();
    if after != expected {
        failures.push(format!("purchase: skills/list afterwards {after:?}"));
    }
    assert!(failures.is_empty(), "\n{}\n", failures.join("\n"));
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastagent_installs_exactly_the_learners_skills_with_a_bearer_header() {
    let python = needs::python("py313");
    let platform = Platform::start("fastagent");
    for learner in ["learner-a", "learner-b"] {
        let report = run_client(
            &python,
            "fastagent_client.py",
            &[
                "--mode".into(),
                "legacy".into(),
                "--header".into(),
                format!("Authorization: Bearer {}", platform.token(learner)),
                platform.url(),
            ],
        );
        assert_eq!(report["ok"], true, "{learner}: {}", report["problems"]);
        let mut installed: Vec<String> = report["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|skill| skill["uri"].as_str().unwrap().to_owned())
            .collect();
        installed.sort();
        assert_eq!(installed, uris(owned_by(learner)), "{learner}");
        let counts = &report["counts"];
        assert_eq!(counts["installed"], owned_by(learner).len(), "{learner}");
        assert_eq!(
            counts["files_matched"],
            files(owned_by(learner)),
            "{learner}"
        );
    }
    // Without the header the server refuses the connection (401).
    let report = run_client(
        &python,
        "fastagent_client.py",
        &["--mode".into(), "legacy".into(), platform.url()],
    );
    assert_eq!(report["ok"], false, "{report}");
    assert_eq!(report["counts"]["installed"], 0);
}
