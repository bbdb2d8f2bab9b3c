//! The well-known skills index of `SkillsRouter` (Agent Skills Discovery
//! 0.2.0), served on a real socket (port 0): the index's shape, each
//! entry's digest against the bytes served at its URL, archives holding
//! exactly the skill's files with their executable bits, byte-identical
//! archives from two snapshots and two routers (embedded and loaded at run
//! time), per-caller views under an access policy with locked, absent and
//! nonexistent skills answering alike, ETags and `304`, and the routes
//! nested under a path that carries a grant.

use std::collections::{BTreeMap, HashSet};
use std::io::Read as _;

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use sha2::{Digest as _, Sha256};
use skills_runtime::http::SkillsRouter;
use skills_runtime::protocol::{ARCHIVE_MTIME, INDEX_SCHEMA, TYPE_ARCHIVE, TYPE_SKILL_MD};
use skills_runtime::server::{Access, Offer};
use skills_runtime::{Skill, Skills, SkillsServer, embed_skills};

// Invented skills with binary files, executable scripts and a nested skill;
// the course platform's skills (`academy` free, the courses sold; three
// courses are a lone `SKILL.md`).
use skills_test_support::trees::{COURSES, FIXTURES};

use crate::serve_router;

const INDEX: &str = "/.well-known/agent-skills/index.json";

fn http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

async fn serve(server: SkillsServer) -> String {
    serve_router(SkillsRouter::new(server).build()).await
}

/// A response: status, headers but `Date` (sorted), body bytes.
#[derive(Debug, PartialEq)]
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| panic!("not JSON: {}", String::from_utf8_lossy(&self.body)))
    }
}

async fn get(url: &str, headers: &[(&str, &str)]) -> Answer {
    let mut request = http().get(url);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    let mut headers: Vec<(String, String)> = response
        .headers()
        .iter()
        .filter(|(name, _)| name.as_str() != "date")
        .map(|(name, value)| (name.to_string(), value.to_str().unwrap_or("?").to_owned()))
        .collect();
    headers.sort();
    let body = response.bytes().await.unwrap().to_vec();
    Answer {
        status,
        headers,
        body,
    }
}

fn sha256(bytes: &[u8]) -> String {
    let hash = Sha256::digest(bytes);
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// An entry's URL resolved against the index URL (RFC 3986 §5, for the
/// relative forms the server writes: `name.tar.gz`, `name/SKILL.md`).
fn resolve(index_url: &str, url: &str) -> String {
    assert!(
        !url.starts_with('/') && !url.contains("://") && !url.contains(".."),
        "the server writes URLs relative to the index: {url}"
    );
    let folder = index_url.rsplit_once('/').unwrap().0;
    format!("{folder}/{url}")
}

/// One file of an archive: its bytes, mode, time, owner and type.
#[derive(Debug)]
struct Entry {
    bytes: Vec<u8>,
    mode: u32,
    mtime: u64,
    owner: (u64, u64, String, String),
    regular: bool,
}

/// The archive's entries in their order.
fn unpack(archive: &[u8]) -> Vec<(String, Entry)> {
    assert_eq!(&archive[..2], [0x1f, 0x8b], "gzip");
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    tar.entries()
        .unwrap()
        .map(|entry| {
            let mut entry = entry.unwrap();
            let header = entry.header().clone();
            assert!(header.as_ustar().is_some(), "ustar headers");
            let path = entry.path().unwrap().to_str().unwrap().to_owned();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            let entry = Entry {
                bytes,
                mode: header.mode().unwrap(),
                mtime: header.mtime().unwrap(),
                owner: (
                    header.uid().unwrap(),
                    header.gid().unwrap(),
                    header.username().unwrap().unwrap_or_default().to_owned(),
                    header.groupname().unwrap().unwrap_or_default().to_owned(),
                ),
                regular: header.entry_type().is_file(),
            };
            (path, entry)
        })
        .collect()
}

/// Checks the index at `base` against `expected` (the skills the caller
/// owns): shape, every digest against the bytes at its URL, every archive
/// against the skill's files. The artifacts' bytes, by name.
async fn check_index(base: &str, expected: &[&Skill]) -> BTreeMap<String, Vec<u8>> {
    let index_url = format!("{base}{INDEX}");
    let answer = get(&index_url, &[]).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let index = answer.json();
    let keys: Vec<&String> = index.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["$schema", "skills"]);
    assert_eq!(index["$schema"], INDEX_SCHEMA);
    let entries = index["skills"].as_array().unwrap();
    let names: Vec<&str> = entries
        .iter()
        .map(|entry| entry["name"].as_str().unwrap())
        .collect();
    let wanted: Vec<&str> = expected.iter().map(|skill| skill.name()).collect();
    assert_eq!(names, wanted);
    let mut artifacts = BTreeMap::new();
    for (entry, skill) in entries.iter().zip(expected) {
        let mut fields: Vec<&String> = entry.as_object().unwrap().keys().collect();
        fields.sort();
        assert_eq!(fields, ["description", "digest", "name", "type", "url"]);
        assert_eq!(entry["description"], skill.description());
        let digest = entry["digest"].as_str().unwrap();
        assert!(
            digest.len() == 71
                && digest.starts_with("sha256:")
                && digest[7..]
                    .bytes()
                    .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')),
            "{digest}"
        );
        let url = resolve(&index_url, entry["url"].as_str().unwrap());
        let artifact = get(&url, &[]).await;
        assert_eq!(artifact.status, 200, "{url}");
        assert_eq!(
            sha256(&artifact.body),
            digest,
            "{url}: digest of the bytes served"
        );
        assert_eq!(
            artifact.header("etag").map(str::to_owned),
            Some(format!("\"{digest}\""))
        );
        let lone = skill.files().len() == 1 && !skill.skill_md().is_executable();
        if lone {
            assert_eq!(entry["type"], TYPE_SKILL_MD, "{}", skill.name());
            assert!(url.ends_with(&format!("/{}/SKILL.md", skill.name())));
            assert_eq!(artifact.body, skill.skill_md().bytes());
            assert_eq!(
                artifact.header("content-type"),
                Some("text/markdown; charset=utf-8")
            );
        } else {
            assert_eq!(entry["type"], TYPE_ARCHIVE, "{}", skill.name());
            assert!(url.ends_with(&format!("/{}.tar.gz", skill.name())));
            assert_eq!(artifact.header("content-type"), Some("application/gzip"));
            let unpacked = unpack(&artifact.body);
            let paths: Vec<&str> = unpacked.iter().map(|(path, _)| path.as_str()).collect();
            let mut sorted = paths.clone();
            sorted.sort();
            assert_eq!(paths, sorted, "entries in path order");
            let files: Vec<&str> = skill.files().iter().map(|file| file.path()).collect();
            assert_eq!(paths, files, "{}: exactly the skill's files", skill.name());
            for ((path, entry), file) in unpacked.iter().zip(skill.files()) {
                assert!(entry.regular, "{path}");
                assert_eq!(entry.bytes, file.bytes(), "{path}");
                let mode = if file.is_executable() { 0o755 } else { 0o644 };
                assert_eq!(entry.mode, mode, "{path}");
                assert_eq!(entry.mtime, ARCHIVE_MTIME, "{path}");
                assert_eq!(entry.owner, (0, 0, String::new(), String::new()), "{path}");
            }
        }
        artifacts.insert(skill.name().to_owned(), artifact.body);
    }
    artifacts
}

#[tokio::test]
async fn the_index_lists_every_skill_and_each_digest_is_that_of_the_bytes_served() {
    let base = serve(SkillsServer::new(FIXTURES.clone())).await;
    let all: Vec<&Skill> = FIXTURES.skills().iter().collect();
    let artifacts = check_index(&base, &all).await;
    assert_eq!(artifacts.len(), FIXTURES.len());
    // The fixtures hold executable scripts: the archives carry them as 0755.
    let executables = FIXTURES
        .skills()
        .iter()
        .flat_map(|skill| skill.files())
        .filter(|file| file.is_executable())
        .count();
    assert!(executables >= 3, "the fixtures have executable scripts");
    // The nested skill's files are part of its parent's folder.
    let parent = unpack(&artifacts["greenhouse"]);
    assert!(parent.iter().any(|(path, _)| path == "seedlings/SKILL.md"));
    // No policy: the index is the same for everyone and may be cached so.
    let index = get(&format!("{base}{INDEX}"), &[]).await;
    assert_eq!(index.header("cache-control"), Some("public, no-cache"));
    assert_eq!(index.header("vary"), None);
}

#[tokio::test]
async fn lone_skill_md_skills_are_served_as_that_file() {
    let base = serve(SkillsServer::new(COURSES.clone())).await;
    let all: Vec<&Skill> = COURSES.skills().iter().collect();
    let artifacts = check_index(&base, &all).await;
    let lone = COURSES
        .skills()
        .iter()
        .filter(|skill| skill.files().len() == 1)
        .count();
    assert!(lone >= 2, "the course platform has lone SKILL.md skills");
    assert_eq!(
        artifacts["async-rust"],
        COURSES
            .get("courses/async-rust")
            .unwrap()
            .skill_md()
            .bytes()
    );
}

#[tokio::test]
async fn archives_are_byte_identical_from_two_snapshots_and_two_routers() {
    // Two servers (two snapshots) of the embedded set, one of the same
    // folder loaded at run time (another build of the same files).
    let folder = skills_test_support::needs::fixture_corpus();
    let loaded = skills_core::load(&folder, &skills_core::Options::default())
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills();
    let mut bodies = Vec::new();
    for skills in [FIXTURES.clone(), FIXTURES.clone(), loaded] {
        let base = serve(SkillsServer::new(skills.clone())).await;
        let all: Vec<&Skill> = skills.skills().iter().collect();
        let artifacts = check_index(&base, &all).await;
        let index = get(&format!("{base}{INDEX}"), &[]).await.body;
        bodies.push((index, artifacts));
    }
    assert_eq!(bodies[0], bodies[1]);
    assert_eq!(bodies[0], bodies[2]);
    // And a replace() with the same set keeps every byte.
    let server = SkillsServer::new(FIXTURES.clone());
    let base = serve(server.clone()).await;
    let before = get(
        &format!("{base}/.well-known/agent-skills/tide-log.tar.gz"),
        &[],
    )
    .await;
    server.replace(FIXTURES.clone()).unwrap();
    let after = get(
        &format!("{base}/.well-known/agent-skills/tide-log.tar.gz"),
        &[],
    )
    .await;
    assert_eq!(before, after);
}

/// What the auth layer resolves per request: the learner and what they own.
#[derive(Clone, Debug)]
struct Learner {
    owned: HashSet<&'static str>,
}

fn owned_by(token: &str) -> Option<HashSet<&'static str>> {
    match token {
        "learner-a" => Some(HashSet::from(["academy", "rust-ownership"])),
        "learner-b" => Some(HashSet::from(["academy", "sql-joins"])),
        _ => None,
    }
}

/// A bearer token, or (for installers that send no header) the token as the
/// first segment of the path, `/install/{token}/…`.
async fn authenticate(mut request: Request, next: Next) -> Response {
    let from_header = request
        .headers()
        .get(http::header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(str::to_owned);
    let from_path = request
        .uri()
        .path()
        .strip_prefix("/install/")
        .and_then(|rest| rest.split('/').next())
        .map(str::to_owned);
    let Some(owned) = from_header.or(from_path).as_deref().and_then(owned_by) else {
        return StatusCode::UNAUTHORIZED.into_response();
    };
    request.extensions_mut().insert(Learner { owned });
    next.run(request).await
}

fn platform_server() -> SkillsServer {
    SkillsServer::builder(COURSES.clone())
        .access(move |skill, caller| {
            let Some(learner) = caller.extension::<Learner>() else {
                return Access::Absent;
            };
            if learner.owned.contains(skill.name()) {
                Access::Owned
            } else if ["rust-ownership", "sql-joins", "async-rust"].contains(&skill.name()) {
                Access::Locked(Offer::new(serde_json::json!({"price": "EUR 49.00"})))
            } else {
                Access::Absent
            }
        })
        .build()
        .unwrap()
}

async fn get_as(url: &str, token: &str, headers: &[(&str, &str)]) -> Answer {
    let bearer = format!("Bearer {token}");
    let mut all = vec![("authorization", bearer.as_str())];
    all.extend_from_slice(headers);
    get(url, &all).await
}

#[tokio::test]
async fn each_caller_sees_its_own_skills_and_what_it_does_not_own_answers_like_nothing() {
    let router = SkillsRouter::new(platform_server())
        .build()
        .layer(axum::middleware::from_fn(authenticate));
    let base = serve_router(router).await;
    for (learner, owned) in [
        ("learner-a", ["academy", "rust-ownership"]),
        ("learner-b", ["academy", "sql-joins"]),
    ] {
        let index = get_as(&format!("{base}{INDEX}"), learner, &[]).await;
        assert_eq!(index.status, 200);
        assert_eq!(index.header("cache-control"), Some("private, no-cache"));
        assert_eq!(index.header("vary"), Some("authorization"));
        let names: Vec<String> = index.json()["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_owned())
            .collect();
        assert_eq!(names, owned, "{learner}");
    }
    // learner-a: sql-joins and async-rust are on sale (locked),
    // kubernetes-basics in preparation (absent): their URLs, in both forms,
    // answer exactly like names no skill has.
    let well_known = format!("{base}/.well-known/agent-skills");
    let reference = get_as(
        &format!("{well_known}/no-such-course.tar.gz"),
        "learner-a",
        &[],
    )
    .await;
    assert_eq!(reference.status, 404);
    for path in [
        "no-such-course/SKILL.md",
        "sql-joins/SKILL.md",
        "sql-joins.tar.gz",
        "async-rust/SKILL.md",
        "async-rust.tar.gz",
        "kubernetes-basics/SKILL.md",
        "kubernetes-basics.tar.gz",
        // Owned, but not at that URL: academy is an archive, rust-ownership too.
        "academy/SKILL.md",
        "academy",
        "academy.zip",
        "courses.tar.gz",
        "..%2Facademy.tar.gz",
        "ACADEMY.tar.gz",
    ] {
        let answer = get_as(&format!("{well_known}/{path}"), "learner-a", &[]).await;
        assert_eq!(answer, reference, "{path}");
    }
    // The same URLs are real for their owner.
    let owner = get_as(
        &format!("{well_known}/sql-joins/SKILL.md"),
        "learner-b",
        &[],
    )
    .await;
    assert_eq!(owner.status, 200);
    assert_eq!(
        owner.body,
        COURSES.get("courses/sql-joins").unwrap().skill_md().bytes()
    );
    // Without a token, the author's layer answers (the index is inside it).
    assert_eq!(get(&format!("{base}{INDEX}"), &[]).await.status, 401);
}

#[tokio::test]
async fn etags_revalidate_the_index_and_the_artifacts() {
    let server = SkillsServer::new(FIXTURES.clone());
    let base = serve(server.clone()).await;
    let index_url = format!("{base}{INDEX}");
    let index = get(&index_url, &[]).await;
    let etag = index.header("etag").unwrap().to_owned();
    assert_eq!(etag, format!("\"{}\"", sha256(&index.body)));
    let again = get(&index_url, &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    assert_eq!(again.header("cache-control"), Some("public, no-cache"));
    let archive_url = format!("{base}/.well-known/agent-skills/bird-survey.tar.gz");
    let archive = get(&archive_url, &[]).await;
    let archive_etag = archive.header("etag").unwrap().to_owned();
    let weak = format!("W/{archive_etag}");
    assert_eq!(
        get(&archive_url, &[("if-none-match", &weak)]).await.status,
        304
    );
    assert_eq!(
        get(&archive_url, &[("if-none-match", "\"sha256:00\"")])
            .await
            .status,
        200
    );
    // A new set: a new index (one skill fewer) and a stale ETag.
    let fewer: Vec<Skill> = FIXTURES
        .skills()
        .iter()
        .filter(|skill| skill.name() != "tide-log")
        .cloned()
        .collect();
    server
        .replace(Skills::from_parts(
            fewer.into(),
            "sha256:fewer".into(),
            None,
        ))
        .unwrap();
    let changed = get(&index_url, &[("if-none-match", &etag)]).await;
    assert_eq!(changed.status, 200);
    assert_ne!(changed.header("etag"), Some(etag.as_str()));
    assert_eq!(
        get(
            &format!("{base}/.well-known/agent-skills/tide-log.tar.gz"),
            &[]
        )
        .await
        .status,
        404
    );
}

#[tokio::test]
async fn the_routes_turn_off_and_nest_under_a_path_that_carries_a_grant() {
    let off = serve_router(
        SkillsRouter::new(SkillsServer::new(FIXTURES.clone()))
            .well_known(false)
            .build(),
    )
    .await;
    assert_eq!(get(&format!("{off}{INDEX}"), &[]).await.status, 404);

    // Installers send no header: the grant travels in the path.
    let skills = SkillsRouter::new(platform_server());
    let router = skills
        .clone()
        .build()
        .nest("/install/{grant}", skills.well_known_routes())
        .layer(axum::middleware::from_fn(authenticate));
    let base = serve_router(router).await;
    let granted = format!("{base}/install/learner-b");
    let expected: Vec<&Skill> = ["academy", "courses/sql-joins"]
        .iter()
        .map(|path| COURSES.get(path).unwrap())
        .collect();
    check_index(&granted, &expected).await;
    // Another learner's grant, another index; a bad grant, no answer.
    let other = get(&format!("{base}/install/learner-a{INDEX}"), &[]).await;
    assert!(String::from_utf8_lossy(&other.body).contains("rust-ownership"));
    assert_eq!(
        get(&format!("{base}/install/nobody{INDEX}"), &[])
            .await
            .status,
        401
    );
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;
    use skills_test_support::needs;

    /// The real corpus (23 skills) through the index: every digest and
    /// archive checked, two snapshots byte-identical; prints what building
    /// the artifacts cost (the first index request of a snapshot builds
    /// them all) and the bytes they hold. The measurement of
    /// docs/guide/serve.md: `cargo test --release -p skills-runtime
    /// --test integration -- --include-ignored --nocapture real_corpus`.
    #[tokio::test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    async fn the_real_corpus_archives_are_deterministic_and_cheap() {
        let set = skills_test_support::load(&needs::shared("corpus/real"));
        assert_eq!(set.len(), 23);
        let mut runs = Vec::new();
        for _ in 0..2 {
            let base = serve(SkillsServer::new(set.clone())).await;
            let index_url = format!("{base}{INDEX}");
            let started = std::time::Instant::now();
            let first = get(&index_url, &[]).await;
            let cold = started.elapsed();
            let started = std::time::Instant::now();
            let second = get(&index_url, &[]).await;
            let warm = started.elapsed();
            assert_eq!(first, second);
            let all: Vec<&Skill> = set.skills().iter().collect();
            let artifacts = check_index(&base, &all).await;
            let held: usize = artifacts.values().map(Vec::len).sum();
            let archives = first.json()["skills"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|entry| entry["type"] == TYPE_ARCHIVE)
                .count();
            eprintln!(
                "real corpus: {} skills ({archives} archives, {} lone SKILL.md), {} bytes of files; \
                 first index request (builds every artifact) {cold:?}, next {warm:?}; artifacts hold {held} bytes",
                set.len(),
                set.len() - archives,
                set.skills().iter().map(Skill::total_size).sum::<u64>(),
            );
            runs.push((first.body, artifacts));
        }
        assert_eq!(runs[0], runs[1], "two snapshots, the same bytes");
    }
}

/// The messages of the warnings logged while `run` runs.
fn warnings_of<T>(run: impl FnOnce() -> T) -> (T, Vec<String>) {
    use std::sync::{Arc, Mutex};

    struct Warnings(Arc<Mutex<Vec<String>>>);
    struct Message<'a>(&'a mut String);
    impl tracing::field::Visit for Message<'_> {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
            if field.name() == "message" {
                *self.0 = format!("{value:?}");
            }
        }
    }
    impl tracing::Subscriber for Warnings {
        fn enabled(&self, metadata: &tracing::Metadata<'_>) -> bool {
            *metadata.level() <= tracing::Level::WARN
        }
        fn new_span(&self, _: &tracing::span::Attributes<'_>) -> tracing::span::Id {
            tracing::span::Id::from_u64(1)
        }
        fn record(&self, _: &tracing::span::Id, _: &tracing::span::Record<'_>) {}
        fn record_follows_from(&self, _: &tracing::span::Id, _: &tracing::span::Id) {}
        fn event(&self, event: &tracing::Event<'_>) {
            let mut message = String::new();
            event.record(&mut Message(&mut message));
            self.0.lock().unwrap().push(message);
        }
        fn enter(&self, _: &tracing::span::Id) {}
        fn exit(&self, _: &tracing::span::Id) {}
    }
    let found = Arc::new(Mutex::new(Vec::new()));
    let value = tracing::subscriber::with_default(Warnings(found.clone()), run);
    let found = found.lock().unwrap().clone();
    (value, found)
}

/// The `skills` CLI's conventions: a skill marked `metadata.internal: true`
/// is left out of the index unless the router lists internal skills (its
/// artifact still answers), and a skill the CLI would skip in the index
/// (here a description of 1,000 characters whose emoji make it 1,025
/// UTF-16 code units) is named in the start-up warnings.
#[tokio::test]
async fn internal_skills_are_left_out_and_what_the_cli_would_skip_is_warned_about() {
    let emoji = format!("Files reports. {}{}", "x".repeat(960), "📄".repeat(25));
    assert_eq!(emoji.chars().count(), 1000);
    let hidden = "---\nname: drafts\ndescription: Work in progress.\nmetadata:\n  internal: true\n---\nDraft.\n";
    let root = skills_test_support::tree(
        "well-known-internal",
        &[
            (
                "shown/SKILL.md",
                "---\nname: shown\ndescription: Shown.\n---\nBody.\n",
            ),
            ("drafts/SKILL.md", hidden),
            ("drafts/references/plan.md", "# Plan\n"),
            (
                "emoji/SKILL.md",
                &format!("---\nname: emoji\ndescription: \"{emoji}\"\n---\nBody.\n"),
            ),
        ],
    );
    let skills = skills_test_support::load(&root);
    let _ = std::fs::remove_dir_all(&root);
    let server = SkillsServer::new(skills);
    let (router, warnings) = warnings_of(|| SkillsRouter::new(server.clone()).build());
    assert_eq!(
        warnings,
        [
            "`npx skills add` (skills 1.7.4) will skip `emoji` in the well-known index: its description is 1025 UTF-16 code units long, over the 1024 the index allows (characters outside the Basic Multilingual Plane, such as emoji, count twice)"
        ]
    );
    let base = serve_router(router).await;
    let names = |index: &Answer| -> Vec<String> {
        let index: Value = serde_json::from_slice(&index.body).unwrap();
        index["skills"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let index = get(&format!("{base}{INDEX}"), &[]).await;
    assert_eq!(names(&index), ["emoji", "shown"]);
    let archive = get(
        &format!("{base}/.well-known/agent-skills/drafts.tar.gz"),
        &[],
    )
    .await;
    assert_eq!(archive.status, 200);
    // Listed when the server opts in.
    let base = serve_router(SkillsRouter::new(server).list_internal_skills(true).build()).await;
    let index = get(&format!("{base}{INDEX}"), &[]).await;
    assert_eq!(names(&index), ["drafts", "emoji", "shown"]);
}

/// A main file with another name (`main_file`) is `SKILL.md` in the
/// archives, where installers look for it (the `skills` CLI refuses an
/// archive without a root `SKILL.md`, dist/cli.mjs:3522).
#[tokio::test]
async fn a_main_file_with_another_name_is_skill_md_in_the_archives() {
    static README_MAIN: Skills = embed_skills!(
        "../tests/fixtures/main-file",
        main_file = "README.md",
        untracked
    );
    let base = serve(SkillsServer::new(README_MAIN.clone())).await;
    let archive = get(
        &format!("{base}/.well-known/agent-skills/pantry.tar.gz"),
        &[],
    )
    .await;
    assert_eq!(archive.status, 200);
    let paths: Vec<String> = unpack(&archive.body)
        .into_iter()
        .filter(|(_, entry)| entry.regular)
        .map(|(path, _)| path)
        .collect();
    assert_eq!(
        paths,
        ["SKILL.md", "larder/SKILL.md", "references/stock.md"]
    );
}

/// A skill whose archive takes a while to build (a few MB that do not
/// compress) is built off the async worker: on a runtime with one worker,
/// a catalog request made while the first archive request builds it is
/// answered first, and both archive requests get the one build's bytes.
#[tokio::test(flavor = "current_thread")]
async fn a_first_archive_build_does_not_hold_the_async_worker() {
    // Letters from a xorshift generator: text the loader accepts, which
    // gzip barely shrinks.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let noise: String = (0..6_000_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            char::from(b'a' + (state % 26) as u8)
        })
        .collect();
    let skills = skills_test_support::skills_of(
        "archive-off-worker",
        &[
            (
                "bulky/SKILL.md",
                "---\nname: bulky\ndescription: A skill with a large reference file.\n---\nRead `references/noise.txt`.\n",
            ),
            ("bulky/references/noise.txt", noise.as_str()),
        ],
        &skills_core::Options::default(),
    );
    let base = serve(SkillsServer::new(skills)).await;
    let (done, mut order) = tokio::sync::mpsc::unbounded_channel();
    let archive = |done: tokio::sync::mpsc::UnboundedSender<&'static str>| {
        let url = format!("{base}/.well-known/agent-skills/bulky.tar.gz");
        async move {
            let bytes = http().get(url).send().await.unwrap().bytes().await.unwrap();
            done.send("archive").unwrap();
            bytes
        }
    };
    let first = tokio::spawn(archive(done.clone()));
    let second = tokio::spawn(archive(done.clone()));
    // Both archive requests are in the server before the catalog request.
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let catalog = http().get(format!("{base}/skills")).send().await.unwrap();
    assert_eq!(catalog.status(), 200);
    done.send("catalog").unwrap();
    let (first, second) = (first.await.unwrap(), second.await.unwrap());
    assert_eq!(
        order.recv().await,
        Some("catalog"),
        "the catalog waited for the archive"
    );
    assert!(first.len() > 3_000_000);
    assert_eq!(first, second);
}
