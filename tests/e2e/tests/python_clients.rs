//! End to end: real MCP clients against `skills-test-server`.
//!
//! The Python clients in `clients/` (mcp SDK 2.3.0, fast-agent 0.10.48, FastMCP
//! 4.2.3) run from the venvs that `tests/e2e/clients/setup.sh` creates under
//! `$SKILLS_E2E_VENVS` (default `<workspace>/target/e2e-venvs`), so these tests
//! are `#[ignore = "needs …"]`: `cargo test -- --include-ignored` runs them
//! (`.ci/run` does, after setup.sh), and a missing venv fails them. Each client
//! prints one JSON report; a test asserts that the client found no problem AND
//! that its counts equal the served tree's, so a client that silently drops
//! skills (fast-agent does, on any invalid entry) cannot pass.
//!
//! The trees: `examples` (the repository's examples/skills/) and `fixtures` (its
//! fixture corpus) are in the repository; `corpus` and `sample` are read from
//! `../shared`, and their tests live in the module `shared`.
//! `shared::fastmcp_manifest_bytes_equal_the_capture` needs no Python: it
//! speaks raw JSON-RPC to the server over stdio.

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use skills_test_support::needs;
use skills_test_support::process::{self, Listening};

const SERVER: &str = env!("CARGO_BIN_EXE_skills-test-server");
/// A client run that takes longer than this is killed and fails its test. The
/// slowest (fast-agent installing the whole corpus) takes about 2 s alone.
const CLIENT_TIMEOUT: Duration = Duration::from_secs(180);
const LEGACY: &str = "2025-11-25";
const MODERN: &str = "2026-07-28";

fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

// ---------------------------------------------------------------------------
// The served trees

/// What the server embedded (`--summary`), checked against counts taken from
/// the trees on disk, so neither the server nor a client can shrink a tree
/// unnoticed.
struct Tree {
    name: &'static str,
    skills: u64,
    files: u64,
    /// Distinct files: fewer than `files` when a skill is nested in another,
    /// whose entry lists the nested skill's files too.
    distinct_files: u64,
    /// Skill name → number of files in its entry.
    per_skill: Vec<(String, u64)>,
}

impl Tree {
    fn load(name: &'static str) -> Tree {
        // Counted on disk (`find <tree> -name SKILL.md | wc -l`, `find <tree> -type f | wc -l`):
        // examples/skills/ holds 3 skills and 13 files; tests/fixtures/corpus 7 skills and 21 files,
        // 23 in the entries (the nested skill's two files are its outer skill's too);
        // shared/corpus/real 23 skills and 244 files;
        // shared/reference/captures/sample-skills 3 skills, 10 files.
        let (skills, files, distinct_files) = match name {
            "examples" => (3, 13, 13),
            "fixtures" => (7, 23, 21),
            "corpus" => (23, 244, 244),
            "sample" => (3, 10, 10),
            _ => unreachable!(),
        };
        let output = Command::new(SERVER)
            .args(["--tree", name, "--summary"])
            .output()
            .expect("run skills-test-server --summary");
        assert!(output.status.success(), "--summary failed: {output:?}");
        let summary: Value = serde_json::from_slice(&output.stdout).expect("--summary prints JSON");
        let per_skill = summary["entries"]
            .as_array()
            .expect("entries")
            .iter()
            .map(|entry| {
                (
                    entry["name"].as_str().unwrap().to_owned(),
                    entry["files"].as_u64().unwrap(),
                )
            })
            .collect();
        let tree = Tree {
            name,
            skills: summary["skills"].as_u64().unwrap(),
            files: summary["files"].as_u64().unwrap(),
            distinct_files,
            per_skill,
        };
        // SKILLS_CORPUS swaps the corpus for another tree.
        let swapped =
            name == "corpus" && std::env::var_os("SKILLS_CORPUS").is_some_and(|v| !v.is_empty());
        assert!(
            swapped || (tree.skills, tree.files) == (skills, files),
            "the server embedded {} skills / {} files of the `{name}` tree; the tree has {skills} / {files}",
            tree.skills,
            tree.files
        );
        tree
    }
}

// ---------------------------------------------------------------------------
// Venvs

struct Venvs {
    /// fastmcp 4.2.3 and mcp 2.3.0.
    py311: PathBuf,
    /// fast-agent-mcp 0.10.48.
    py313: PathBuf,
}

impl Venvs {
    /// The venvs, or a failure naming the missing one and how to make it.
    fn find() -> Venvs {
        Venvs {
            py311: needs::python("py311"),
            py313: needs::python("py313"),
        }
    }
}

// ---------------------------------------------------------------------------
// Running things

/// A server over streamable HTTP, killed when dropped.
struct HttpServer {
    _server: Listening,
    url: String,
}

impl HttpServer {
    fn start(args: &[&str]) -> HttpServer {
        let server = Listening::start(
            Command::new(SERVER)
                .args(args)
                .args(["--http", "127.0.0.1:0"]),
        );
        HttpServer {
            url: format!("{}/mcp", server.base),
            _server: server,
        }
    }
}

/// Where a client finds the server.
enum Target<'a> {
    /// The client spawns `skills-test-server ARGS` and speaks stdio.
    Stdio(&'a [&'a str]),
    Http(&'a HttpServer),
}

/// One client run: its JSON report, or why there is none.
struct Report {
    label: String,
    json: Value,
    stderr: String,
}

impl Report {
    fn count(&self, key: &str) -> u64 {
        self.json["counts"][key].as_u64().unwrap_or(u64::MAX)
    }
}

/// Runs `python clients/SCRIPT ARGS TARGET` with a time limit.
fn run_client(python: &Path, script: &str, args: &[&str], target: &Target) -> Report {
    let mut command = Command::new(python);
    command
        .arg(package_dir().join("clients").join(script))
        .args(args)
        .args(["--timeout", "150"]);
    let where_ = match target {
        Target::Stdio(server_args) => {
            command.arg("--").arg(SERVER).args(*server_args);
            format!("stdio {server_args:?}")
        }
        Target::Http(server) => {
            command.arg(&server.url);
            server.url.clone()
        }
    };
    let label = format!("{script} {} against {where_}", args.join(" "));
    let process::Finished {
        status,
        stdout,
        stderr,
    } = process::run(&mut command, CLIENT_TIMEOUT)
        .unwrap_or_else(|error| panic!("{label}: cannot start {}: {error}", python.display()));
    let json = match (status, serde_json::from_str::<Value>(&stdout)) {
        (None, _) => json!({"ok": false, "problems": [format!("killed after {CLIENT_TIMEOUT:?}")]}),
        (Some(status), Ok(json)) => {
            if json["ok"].as_bool() != Some(status.success()) {
                json!({"ok": false, "problems": [format!("exit {status} disagrees with report {json}")]})
            } else {
                json
            }
        }
        (Some(status), Err(_)) => json!({
            "ok": false,
            "problems": [format!("exit {status} without a JSON report; stdout: {stdout:.2000}")],
        }),
    };
    Report {
        label,
        json,
        stderr,
    }
}

/// What went wrong across one test's client runs, reported all at once.
#[derive(Default)]
struct Failures(Vec<String>);

impl Failures {
    /// The client's own verdict, and the negotiated protocol.
    fn client_ok(&mut self, report: &Report, protocol: &str) {
        if report.json["ok"] != json!(true) {
            let problems = serde_json::to_string_pretty(&report.json["problems"]).unwrap();
            let tail: Vec<&str> = report.stderr.lines().rev().take(15).collect();
            let tail: Vec<&str> = tail.into_iter().rev().collect();
            self.0.push(format!(
                "{}: the client reported problems:\n{problems}\n  stderr (last lines):\n    {}",
                report.label,
                tail.join("\n    ")
            ));
        }
        let got = report.json["protocol"].as_str().unwrap_or("none");
        if got != protocol {
            self.0.push(format!(
                "{}: negotiated {got}, expected {protocol}",
                report.label
            ));
        }
    }

    fn count(&mut self, report: &Report, key: &str, expected: u64) {
        let got = report.count(key);
        if got != expected {
            self.0.push(format!(
                "{}: counts.{key} = {}, expected {expected} (counts: {})",
                report.label,
                if got == u64::MAX {
                    "missing".to_owned()
                } else {
                    got.to_string()
                },
                report.json["counts"]
            ));
        }
    }

    fn check(&mut self, ok: bool, report: &Report, what: String) {
        if !ok {
            self.0.push(format!("{}: {what}", report.label));
        }
    }

    fn finish(self) {
        assert!(self.0.is_empty(), "\n{}\n", self.0.join("\n\n"));
    }
}

// ---------------------------------------------------------------------------
// mcp SDK 2.3.0: list every page, get each skill, read and verify every file

fn sdk(
    failures: &mut Failures,
    venvs: &Venvs,
    tree: &Tree,
    mode: &str,
    target: &Target,
    page_size: Option<u64>,
) -> Report {
    let protocol = if mode == "legacy" { LEGACY } else { MODERN };
    let report = run_client(
        &venvs.py311,
        "sdk_client.py",
        &["--mode", mode, "--expect-protocol", protocol],
        target,
    );
    failures.client_ok(&report, protocol);
    failures.count(&report, "skills", tree.skills);
    failures.count(&report, "get_verified", tree.skills);
    failures.count(&report, "frontmatter_verified", tree.skills);
    failures.count(&report, "files_listed", tree.files);
    failures.count(&report, "files_verified", tree.files);
    failures.count(
        &report,
        "pages",
        page_size.map_or(1, |size| tree.skills.div_ceil(size)),
    );
    report
}

fn sdk_stdio(tree: &'static str, mode: &str) {
    let venvs = Venvs::find();
    let tree = Tree::load(tree);
    let page = matches!(tree.name, "corpus" | "fixtures").then_some(5);
    let page_arg = page.map(|size| size.to_string());
    let mut args = vec!["--tree", tree.name];
    if let Some(size) = &page_arg {
        args.extend(["--skills-page-size", size]);
    }
    let mut failures = Failures::default();
    sdk(
        &mut failures,
        &venvs,
        &tree,
        mode,
        &Target::Stdio(&args),
        page,
    );
    failures.finish();
}

/// Both eras against one stateful server that also lists every file and the
/// legacy index in `resources/list`; or `auto` and `legacy` against a stateless one.
fn sdk_http(tree: &'static str, stateless: bool) {
    let venvs = Venvs::find();
    let tree = Tree::load(tree);
    let page = matches!(tree.name, "corpus" | "fixtures").then_some(5);
    let page_arg = page.map(|size| size.to_string());
    let mut args = vec!["--tree", tree.name];
    if let Some(size) = &page_arg {
        args.extend(["--skills-page-size", size]);
    }
    if stateless {
        args.push("--stateless");
    } else {
        args.extend(["--list-files", "--legacy-index"]);
    }
    let server = HttpServer::start(&args);
    let mut failures = Failures::default();
    // `auto` negotiates 2026-07-28, which is always served statelessly; `legacy`
    // checks the 2025-11-25 handshake with sessions, or without a session id.
    for mode in ["legacy", "auto"] {
        let report = sdk(
            &mut failures,
            &venvs,
            &tree,
            mode,
            &Target::Http(&server),
            page,
        );
        // resources/list: each SKILL.md and its FastMCP `_manifest`, plus, with
        // --list-files, every other file, and with --legacy-index skill://index.json.
        let listed = if stateless {
            2 * tree.skills
        } else {
            2 * tree.skills + (tree.distinct_files - tree.skills) + 1
        };
        failures.count(&report, "resources_list", listed);
    }
    failures.finish();
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_examples_stdio_legacy() {
    sdk_stdio("examples", "legacy");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_examples_stdio_auto() {
    sdk_stdio("examples", "auto");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_examples_http() {
    sdk_http("examples", false);
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_examples_http_stateless() {
    sdk_http("examples", true);
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_fixtures_stdio_auto() {
    sdk_stdio("fixtures", "auto");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_fixtures_http() {
    sdk_http("fixtures", false);
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_fixtures_http_stateless() {
    sdk_http("fixtures", true);
}

// ---------------------------------------------------------------------------
// mcp SDK 2.3.0 and skills as prompts (`--prompts`): prompts/list names every
// skill, prompts/get of each is its SKILL.md byte for byte (compared with the
// bytes read and verified against the entry's digest) and names its other
// files; a name no skill has is refused.

fn sdk_prompts(tree: &'static str, http: bool) {
    let venvs = Venvs::find();
    let tree = Tree::load(tree);
    // Five a page: the fixture tree's seven prompts take two pages.
    let args = ["--tree", tree.name, "--skills-page-size", "5", "--prompts"];
    let server = http.then(|| HttpServer::start(&args));
    let target = match &server {
        Some(server) => Target::Http(server),
        None => Target::Stdio(&args),
    };
    let mut failures = Failures::default();
    for mode in ["legacy", "auto"] {
        let protocol = if mode == "legacy" { LEGACY } else { MODERN };
        let report = run_client(
            &venvs.py311,
            "sdk_client.py",
            &[
                "--mode",
                mode,
                "--expect-protocol",
                protocol,
                "--prompts",
                "yes",
            ],
            &target,
        );
        failures.client_ok(&report, protocol);
        failures.count(&report, "skills", tree.skills);
        failures.count(&report, "files_verified", tree.files);
        failures.count(&report, "prompts", tree.skills);
        failures.count(&report, "prompts_verified", tree.skills);
        failures.count(&report, "prompt_refused", 1);
    }
    failures.finish();
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_prompts_fixtures_stdio() {
    sdk_prompts("fixtures", false);
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn sdk_prompts_fixtures_http() {
    sdk_prompts("fixtures", true);
}

// ---------------------------------------------------------------------------
// fast-agent 0.10.48: registry scan, then a verified install of every skill

fn fastagent(tree: &'static str, mode: &str) {
    let venvs = Venvs::find();
    let tree = Tree::load(tree);
    let protocol = if mode == "legacy" { LEGACY } else { MODERN };
    let mut failures = Failures::default();
    let report = run_client(
        &venvs.py313,
        "fastagent_client.py",
        &["--mode", mode, "--expect-protocol", protocol],
        &Target::Stdio(&["--tree", tree.name]),
    );
    failures.client_ok(&report, protocol);
    failures.count(&report, "skills", tree.skills);
    failures.count(&report, "installed", tree.skills);
    failures.count(&report, "files_listed", tree.files);
    // Every installed file is byte-equal to the entry, except a SKILL.md from
    // which fast-agent strips `allowed-tools` (the client checks that one parses
    // to the entry's frontmatter minus that key).
    let matched = report.count("files_matched");
    let rewritten = report.count("skill_md_rewritten");
    failures.check(
        matched.checked_add(rewritten) == Some(tree.files) && rewritten <= tree.skills,
        &report,
        format!(
            "{matched} installed files byte-equal + {rewritten} rewritten SKILL.md != {} files served",
            tree.files
        ),
    );
    let installed: Vec<(String, u64)> = report.json["skills"]
        .as_array()
        .map(|skills| {
            skills
                .iter()
                .map(|skill| {
                    (
                        skill["name"].as_str().unwrap_or("?").to_owned(),
                        skill["files"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    failures.check(
        installed == tree.per_skill,
        &report,
        format!(
            "skills and file counts {installed:?} != served {:?}",
            tree.per_skill
        ),
    );
    failures.finish();
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastagent_examples_legacy() {
    fastagent("examples", "legacy");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastagent_examples_modern() {
    fastagent("examples", "modern");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastagent_fixtures_modern() {
    fastagent("fixtures", "modern");
}

// ---------------------------------------------------------------------------
// FastMCP 4.2.3: its SEP-2640 reader at 2026-07-28, its `_manifest` reader at 2025-11-25

fn fastmcp(tree: &'static str, reader: &str) {
    let venvs = Venvs::find();
    let tree = Tree::load(tree);
    let (mode, protocol) = if reader == "sep" {
        ("auto", MODERN)
    } else {
        ("legacy", LEGACY)
    };
    let mut failures = Failures::default();
    let report = run_client(
        &venvs.py311,
        "fastmcp_client.py",
        &[
            "--mode",
            mode,
            "--reader",
            reader,
            "--expect-protocol",
            protocol,
        ],
        &Target::Stdio(&["--tree", tree.name]),
    );
    failures.client_ok(&report, protocol);
    failures.count(&report, "skills", tree.skills);
    failures.count(&report, "files_verified", tree.files);
    if reader == "legacy" {
        failures.count(&report, "helper_skills", tree.skills);
        failures.count(&report, "helper_files", tree.files);
    }
    failures.finish();
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastmcp_examples_sep() {
    fastmcp("examples", "sep");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastmcp_examples_legacy_manifest() {
    fastmcp("examples", "legacy");
}

#[test]
#[ignore = "needs the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
fn fastmcp_fixtures_sep() {
    fastmcp("fixtures", "sep");
}

// No `fastmcp("fixtures", "legacy")`: FastMCP's `_manifest` reader takes a
// skill nested in another for files of the outer one (6 skills, 21 files),
// as the pre-SEP layout has no way to say otherwise.

// ---------------------------------------------------------------------------
// `_manifest` bytes against FastMCP's own (no Python needed)

/// A stdio server spoken to in raw JSON-RPC lines.
struct StdioServer {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl StdioServer {
    fn start(args: &[&str]) -> StdioServer {
        let mut child = Command::new(SERVER)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start skills-test-server");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        StdioServer { child, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").expect("write to the server");
        stdin.flush().unwrap();
    }

    /// The raw line answering request `id` (notifications in between are skipped).
    fn response(&self, id: &Value) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no response to request {id} within 20 s"));
            let message: Value = serde_json::from_str(&line).unwrap_or_else(|error| {
                panic!("the server wrote a non-JSON line {line:?}: {error}")
            });
            if &message["id"] == id {
                return line;
            }
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------
// The trees of ../shared

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn sdk_corpus_stdio_legacy() {
        sdk_stdio("corpus", "legacy");
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn sdk_corpus_stdio_auto() {
        sdk_stdio("corpus", "auto");
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn sdk_corpus_http() {
        sdk_http("corpus", false);
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn sdk_corpus_http_stateless() {
        sdk_http("corpus", true);
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn fastagent_corpus_legacy() {
        fastagent("corpus", "legacy");
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn fastagent_corpus_modern() {
        fastagent("corpus", "modern");
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn fastmcp_sample_sep() {
        fastmcp("sample", "sep");
    }

    #[test]
    #[ignore = "needs ../shared beside the clone and the Python clients' venvs (bash tests/e2e/clients/setup.sh)"]
    fn fastmcp_sample_legacy_manifest() {
        fastmcp("sample", "legacy");
    }

    /// Our `skill://<path>/_manifest` of the `sample` tree must be byte for byte
    /// the text FastMCP 4.2.3's legacy provider served for the same tree, for every
    /// manifest read in its capture (pdf-processing and git-workflow), and the read
    /// result must equal FastMCP's as JSON.
    #[test]
    #[ignore = "needs ../shared/reference beside the clone"]
    fn fastmcp_manifest_bytes_equal_the_capture() {
        let capture = needs::shared(
            "reference/captures/fastmcp/fastmcp-4.2.3/legacy-provider_resources-mode_handshake-2025-11-25.wire.jsonl",
        );
        let text = std::fs::read_to_string(&capture)
            .unwrap_or_else(|error| panic!("read {}: {error}", capture.display()));
        let exchange: Vec<(String, String)> = text
            .lines()
            .map(|line| {
                let record: Value = serde_json::from_str(line).expect("capture line");
                (
                    record["dir"].as_str().unwrap().to_owned(),
                    record["raw"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        // (raw request, raw FastMCP response) of each `_manifest` read.
        let mut reads = Vec::new();
        for (dir, raw) in &exchange {
            let message: Value = serde_json::from_str(raw).unwrap();
            let is_manifest_read = dir == "c2s"
                && message["method"] == "resources/read"
                && message["params"]["uri"]
                    .as_str()
                    .is_some_and(|uri| uri.ends_with("/_manifest"));
            if is_manifest_read {
                let answer = exchange
                    .iter()
                    .filter(|(dir, _)| dir == "s2c")
                    .map(|(_, raw)| raw)
                    .find(|raw| serde_json::from_str::<Value>(raw).unwrap()["id"] == message["id"])
                    .expect("the capture answers its request");
                reads.push((raw.clone(), answer.clone()));
            }
        }
        assert!(
            reads
                .iter()
                .any(|(request, _)| request.contains("skill://pdf-processing/_manifest")),
            "the capture has no read of skill://pdf-processing/_manifest"
        );

        let mut server = StdioServer::start(&["--tree", "sample"]);
        server.send(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"skills-e2e","version":"0"}}}"#,
        );
        let init: Value = serde_json::from_str(&server.response(&json!(1))).unwrap();
        assert_eq!(init["result"]["protocolVersion"], LEGACY, "{init}");
        server.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

        let mut failures = Vec::new();
        for (request, fastmcp_line) in &reads {
            let id = serde_json::from_str::<Value>(request).unwrap()["id"].clone();
            server.send(request);
            let our_line = server.response(&id);
            let ours: Value = serde_json::from_str(&our_line).unwrap();
            let theirs: Value = serde_json::from_str(fastmcp_line).unwrap();
            let our_text = ours["result"]["contents"][0]["text"].as_str();
            let their_text = theirs["result"]["contents"][0]["text"].as_str();
            if our_text.is_none() || our_text != their_text {
                failures.push(format!(
                    "request {request}\n  ours:    {our_line}\n  FastMCP: {fastmcp_line}\n  the manifest texts differ"
                ));
            } else if ours != theirs {
                failures.push(format!(
                    "request {request}\n  ours:    {our_line}\n  FastMCP: {fastmcp_line}\n  same manifest text, but the results differ as JSON"
                ));
            }
        }
        assert!(failures.is_empty(), "\n{}\n", failures.join("\n\n"));
    }
}
