//! Parity with the reference validator: `agentskills validate` (skills-ref
//! 0.1.1, one skill folder per call) and `skills check` on every skill of
//! the shared corpus and on a generated set of edge cases. Where their
//! verdicts differ, the difference must be a row of the table of deliberate
//! differences in `docs/REFERENCE-VALIDATOR.md`, with both verdicts and the
//! rules `skills check` reports; a row that no longer differs fails too, so
//! the table stays true.
//!
//! The validator is installed pinned by `tests/e2e/clients/setup.sh` into
//! `$SKILLS_E2E_VENVS/skills-ref` (default `<workspace>/target/e2e-venvs`),
//! and the corpus is `../shared`: the test is ignored by default and lives
//! in the module `shared` (`.ci/run` runs it).

use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use skills_test_support::needs;
use support::{SKILLS, TempDir, json_lines, workspace};

/// One skill folder to give both validators.
struct Case {
    id: String,
    folder: PathBuf,
}

/// A verdict, with what supports it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Verdict {
    valid: bool,
    /// The reference's messages, or the rule ids `skills check` reported as errors.
    why: Vec<String>,
}

fn reference_verdict(program: &Path, folder: &Path) -> Verdict {
    let output = Command::new(program)
        .arg("validate")
        .arg(folder)
        .output()
        .expect("agentskills runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let why = if stderr.contains("Traceback") {
        // skills-ref crashes on some inputs (UTF-16, Latin-1, a NUL): its last line says why.
        vec![format!(
            "crash: {}",
            stderr.lines().last().unwrap_or_default()
        )]
    } else {
        stderr
            .lines()
            .filter_map(|line| line.strip_prefix("  - "))
            .map(str::to_owned)
            .collect()
    };
    Verdict {
        valid: output.status.success(),
        why,
    }
}

fn our_verdict(folder: &Path) -> Verdict {
    let output = Command::new(SKILLS)
        .args(["check", "--format", "json"])
        .arg(folder)
        .output()
        .expect("skills runs");
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    let rules: BTreeSet<String> = json_lines(&stdout)
        .iter()
        .filter(|line| line["severity"] == "error")
        .map(|line| line["rule"].as_str().unwrap().to_owned())
        .collect();
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "skills check {} ended with {code:?}",
        folder.display()
    );
    Verdict {
        valid: code == Some(0),
        why: rules.into_iter().collect(),
    }
}

/// Every skill folder of the shared corpus.
fn corpus_cases() -> Vec<Case> {
    let corpus = needs::shared("corpus");
    let mut cases = Vec::new();
    for group in ["real", "real-invalid", "real-name-clash"] {
        let mut folders: Vec<PathBuf> = std::fs::read_dir(corpus.join(group))
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.is_dir())
            .collect();
        folders.sort();
        for folder in folders {
            let name = folder.file_name().unwrap().to_string_lossy().into_owned();
            cases.push(Case {
                id: format!("corpus/{group}/{name}"),
                folder,
            });
        }
    }
    cases
}

/// A `SKILL.md` with the usual opening, `frontmatter` lines, and a body.
fn md(frontmatter: &str) -> Vec<u8> {
    format!("---\n{frontmatter}---\n# Title\n\nDo the thing.\n").into_bytes()
}

/// The generated edge cases: `(id, folder name, SKILL.md bytes, other files)`.
#[allow(clippy::type_complexity)]
fn edge_cases() -> Vec<(
    &'static str,
    &'static str,
    Vec<u8>,
    Vec<(&'static str, Vec<u8>)>,
)> {
    let d = "description: Does the thing. Use when asked.\n";
    let token = format!("export T=ghp_{}\n", "Zq8wNc3VrT6yLp2KdX9mHs4JbF7gA1eQ5tY0");
    let long_body = "A line.\n".repeat(600);
    let x1023 = "x".repeat(1023);
    let x1024 = "x".repeat(1024);
    vec![
        ("plain", "demo", md(&format!("name: demo\n{d}")), vec![]),
        (
            "all-fields",
            "demo",
            md(&format!(
                "name: demo\n{d}license: MIT\ncompatibility: Needs python3\nallowed-tools: Bash(git:*) Read\nmetadata:\n  author: me\n  version: \"1.0\"\n"
            )),
            vec![],
        ),
        // Delimiters.
        (
            "dashes-mid-line-then-unknown-key",
            "demo",
            md("name: demo\ndescription: before --- after\nauthor: me\n"),
            vec![],
        ),
        (
            "no-close-but-body-rule",
            "demo",
            format!("---\nname: demo\n{d}# Title\n---\nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "never-closed",
            "demo",
            format!("---\nname: demo\n{d}# Title\nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "four-dash-open",
            "demo",
            format!("----\nname: demo\n{d}---\nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "indented-close",
            "demo",
            format!("---\nname: demo\n{d}  ---\nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "open-trailing-space",
            "demo",
            format!("--- \nname: demo\n{d}---\nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "close-trailing-space",
            "demo",
            format!("---\nname: demo\n{d}--- \nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "blank-line-before-open",
            "demo",
            format!("\n---\nname: demo\n{d}---\nBody.\n").into_bytes(),
            vec![],
        ),
        (
            "crlf",
            "demo",
            format!(
                "---\r\nname: demo\r\n{}---\r\nBody.\r\n",
                d.replace('\n', "\r\n")
            )
            .into_bytes(),
            vec![],
        ),
        (
            "cr-only",
            "demo",
            format!("---\rname: demo\r{}---\rBody.\r", d.replace('\n', "\r")).into_bytes(),
            vec![],
        ),
        (
            "document-end-marker",
            "demo",
            md(&format!("name: demo\n{d}...\n")),
            vec![],
        ),
        // Encoding.
        (
            "utf8-bom",
            "demo",
            [b"\xEF\xBB\xBF".as_slice(), &md(&format!("name: demo\n{d}"))].concat(),
            vec![],
        ),
        (
            "utf16",
            "demo",
            {
                let text = String::from_utf8(md(&format!("name: demo\n{d}"))).unwrap();
                let mut bytes = vec![0xFF, 0xFE];
                bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
                bytes
            },
            vec![],
        ),
        (
            "latin1",
            "demo",
            md("name: demo\ndescription: Caf\u{e9} menus.\n")
                .iter()
                .flat_map(|&b| {
                    if b == 0xC3 {
                        None
                    } else if b == 0xA9 {
                        Some(0xE9)
                    } else {
                        Some(b)
                    }
                })
                .collect(),
            vec![],
        ),
        (
            "nul-in-frontmatter",
            "demo",
            md(&format!("name: demo\n{}", d.replace("thing", "th\0ing"))),
            vec![],
        ),
        // YAML.
        (
            "unquoted-colon",
            "demo",
            md("name: demo\ndescription: Fills forms. Use when: a PDF arrives.\n"),
            vec![],
        ),
        (
            "tab-indent",
            "demo",
            md(&format!("name: demo\n{d}metadata:\n\tauthor: me\n")),
            vec![],
        ),
        (
            "anchor-alias",
            "demo",
            md("name: &n demo\ndescription: *n\n"),
            vec![],
        ),
        ("tag", "demo", md(&format!("name: !!str demo\n{d}")), vec![]),
        (
            "duplicate-key",
            "demo",
            md(&format!("name: demo\nname: demo\n{d}")),
            vec![],
        ),
        (
            "merge-key",
            "demo",
            md(&format!("name: demo\n{d}metadata:\n  <<: {{a: b}}\n")),
            vec![],
        ),
        (
            "flow-metadata",
            "demo",
            md(&format!("name: demo\n{d}metadata: {{author: me}}\n")),
            vec![],
        ),
        (
            "flow-allowed-tools",
            "demo",
            md(&format!("name: demo\n{d}allowed-tools: [Read, Bash]\n")),
            vec![],
        ),
        (
            "comment-in-description",
            "demo",
            md("name: demo\ndescription: C# and F# #tags\n"),
            vec![],
        ),
        (
            "folded-description",
            "demo",
            md("name: demo\ndescription: >\n  Does the thing.\n  Use when asked.\n"),
            vec![],
        ),
        (
            "multi-line-plain-description",
            "demo",
            md("name: demo\ndescription: Does the thing\n  over two lines.\n"),
            vec![],
        ),
        (
            "quoted-keys",
            "demo",
            md(&format!("\"name\": demo\n{d}")),
            vec![],
        ),
        (
            "indented-mapping",
            "demo",
            md("  name: demo\n  description: Does the thing.\n"),
            vec![],
        ),
        ("not-a-mapping", "demo", md("- name\n- demo\n"), vec![]),
        ("empty-frontmatter", "demo", md(""), vec![]),
        // Scalars YAML 1.1 and 1.2 read differently.
        ("name-number", "1", md(&format!("name: 1\n{d}")), vec![]),
        ("name-yes", "yes", md(&format!("name: yes\n{d}")), vec![]),
        (
            "description-null",
            "demo",
            md("name: demo\ndescription: null\n"),
            vec![],
        ),
        (
            "metadata-yes",
            "demo",
            md(&format!("name: demo\n{d}metadata:\n  beta: yes\n")),
            vec![],
        ),
        (
            "metadata-version-number",
            "demo",
            md(&format!("name: demo\n{d}metadata:\n  version: 1.10\n")),
            vec![],
        ),
        // Fields.
        ("missing-name", "demo", md(d), vec![]),
        ("missing-description", "demo", md("name: demo\n"), vec![]),
        ("empty-name", "demo", md(&format!("name:\n{d}")), vec![]),
        (
            "blank-description",
            "demo",
            md("name: demo\ndescription: \"   \"\n"),
            vec![],
        ),
        (
            "description-1024",
            "demo",
            md(&format!("name: demo\ndescription: {x1024}\n")),
            vec![],
        ),
        (
            "description-padded-1025",
            "demo",
            md(&format!("name: demo\ndescription: \"  {x1023}\"\n")),
            vec![],
        ),
        (
            "description-block-1024",
            "demo",
            md(&format!("name: demo\ndescription: |\n  {x1024}\n")),
            vec![],
        ),
        (
            "description-angle-brackets",
            "demo",
            md("name: demo\ndescription: Wraps <ViewTransition> & more.\n"),
            vec![],
        ),
        (
            "compatibility-empty",
            "demo",
            md(&format!("name: demo\n{d}compatibility: \"\"\n")),
            vec![],
        ),
        (
            "compatibility-map",
            "demo",
            md(&format!("name: demo\n{d}compatibility:\n  os: linux\n")),
            vec![],
        ),
        (
            "license-map",
            "demo",
            md(&format!("name: demo\n{d}license:\n  spdx: MIT\n")),
            vec![],
        ),
        (
            "allowed-tools-block-list",
            "demo",
            md(&format!(
                "name: demo\n{d}allowed-tools:\n  - Read\n  - Bash\n"
            )),
            vec![],
        ),
        (
            "metadata-scalar",
            "demo",
            md(&format!("name: demo\n{d}metadata: hello\n")),
            vec![],
        ),
        (
            "metadata-nested",
            "demo",
            md(&format!("name: demo\n{d}metadata:\n  tags:\n    - a\n")),
            vec![],
        ),
        (
            "metadata-reserved-key",
            "demo",
            md(&format!(
                "name: demo\n{d}metadata:\n  io.modelcontextprotocol/x: \"y\"\n"
            )),
            vec![],
        ),
        (
            "unknown-field",
            "demo",
            md(&format!("name: demo\n{d}author: me\n")),
            vec![],
        ),
        (
            "capitalised-key",
            "demo",
            md(&format!("Name: demo\n{d}")),
            vec![],
        ),
        // Names.
        (
            "name-mismatch",
            "demo",
            md(&format!("name: other\n{d}")),
            vec![],
        ),
        (
            "name-uppercase",
            "Demo",
            md(&format!("name: Demo\n{d}")),
            vec![],
        ),
        (
            "name-double-hyphen",
            "a--b",
            md(&format!("name: a--b\n{d}")),
            vec![],
        ),
        (
            "name-edge-hyphen",
            "-demo",
            md(&format!("name: -demo\n{d}")),
            vec![],
        ),
        (
            "name-underscore",
            "my_skill",
            md(&format!("name: my_skill\n{d}")),
            vec![],
        ),
        (
            "name-64",
            "a234567890123456789012345678901234567890123456789012345678901234",
            md(&format!(
                "name: a234567890123456789012345678901234567890123456789012345678901234\n{d}"
            )),
            vec![],
        ),
        (
            "name-65",
            "a2345678901234567890123456789012345678901234567890123456789012345",
            md(&format!(
                "name: a2345678901234567890123456789012345678901234567890123456789012345\n{d}"
            )),
            vec![],
        ),
        (
            "name-accented",
            "café",
            md(&format!("name: café\n{d}")),
            vec![],
        ),
        ("name-cjk", "技能", md(&format!("name: 技能\n{d}")), vec![]),
        (
            "name-fullwidth",
            "ｐｄｆ",
            md(&format!("name: ｐｄｆ\n{d}")),
            vec![],
        ),
        (
            "name-combining-mark",
            "हिंदी",
            md(&format!("name: हिंदी\n{d}")),
            vec![],
        ),
        // The folder around SKILL.md.
        (
            "lowercase-skill-md",
            "demo",
            Vec::new(),
            vec![("skill.md", md(&format!("name: demo\n{d}")))],
        ),
        (
            "broken-link",
            "demo",
            md(&format!("name: demo\n{d}"))
                .into_iter()
                .chain(b"Read [the guide](references/guide.md).\n".iter().copied())
                .collect(),
            vec![],
        ),
        (
            "working-link",
            "demo",
            md(&format!("name: demo\n{d}"))
                .into_iter()
                .chain(b"Read [the guide](references/guide.md).\n".iter().copied())
                .collect(),
            vec![("references/guide.md", b"# Guide\n".to_vec())],
        ),
        (
            "secret-in-a-file",
            "demo",
            md(&format!("name: demo\n{d}")),
            vec![("references/setup.md", token.into_bytes())],
        ),
        (
            "windows-device-name",
            "demo",
            md(&format!("name: demo\n{d}")),
            vec![("assets/aux.txt", b"x\n".to_vec())],
        ),
        (
            "broken-nested-skill",
            "demo",
            md(&format!("name: demo\n{d}")),
            vec![("inner/SKILL.md", md(&format!("name: other\n{d}")))],
        ),
        (
            "over-500-lines",
            "demo",
            format!("---\nname: demo\n{d}---\n{long_body}").into_bytes(),
            vec![],
        ),
        (
            "empty-body",
            "demo",
            format!("---\nname: demo\n{d}---\n").into_bytes(),
            vec![],
        ),
    ]
}

/// Writes the edge cases, each in a folder of its own named as the case says.
fn write_edge_cases(dir: &TempDir) -> Vec<Case> {
    let mut cases = Vec::new();
    for (id, folder_name, skill_md, files) in edge_cases() {
        let folder = dir.path().join(id).join(folder_name);
        std::fs::create_dir_all(&folder).unwrap();
        if !skill_md.is_empty() {
            std::fs::write(folder.join("SKILL.md"), &skill_md).unwrap();
        }
        for (rel, bytes) in files {
            let path = folder.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }
        cases.push(Case {
            id: format!("edge/{id}"),
            folder,
        });
    }
    cases
}

/// A row of the table: the case, and the verdicts it documents.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    reference_valid: bool,
    ours_valid: bool,
    our_rules: BTreeSet<String>,
}

/// The rows of the table of deliberate differences, by case id.
fn documented() -> BTreeMap<String, Row> {
    let path = workspace().join("docs/REFERENCE-VALIDATOR.md");
    let text = std::fs::read_to_string(&path).expect("docs/REFERENCE-VALIDATOR.md exists");
    let verdict = |cell: &str| match cell.split_whitespace().next() {
        Some("valid") => true,
        Some("invalid") => false,
        other => panic!("a verdict is `valid` or `invalid`, not {other:?}"),
    };
    let mut rows = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(id) = cells
            .get(1)
            .and_then(|cell| cell.strip_prefix('`'))
            .and_then(|cell| cell.strip_suffix('`'))
        else {
            continue;
        };
        if !(id.starts_with("edge/") || id.starts_with("corpus/")) {
            continue;
        }
        let our_rules = cells[3]
            .split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_owned)
            .collect();
        let row = Row {
            reference_valid: verdict(cells[2]),
            ours_valid: verdict(cells[3]),
            our_rules,
        };
        assert!(
            rows.insert(id.to_owned(), row).is_none(),
            "{id} is listed twice"
        );
    }
    rows
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[test]
    #[ignore = "needs ../shared/corpus beside the clone and the skills-ref venv (bash tests/e2e/clients/setup.sh)"]
    fn every_disagreement_with_the_reference_validator_is_documented() {
        let program = needs::venv_program("skills-ref", "agentskills");
        let dir = TempDir::new("reference");
        let mut cases = corpus_cases();
        cases.extend(write_edge_cases(&dir));
        // Two at a time: most of the time is Python starting.
        let run = |part: &[Case]| {
            part.iter()
                .map(|case| {
                    (
                        reference_verdict(&program, &case.folder),
                        our_verdict(&case.folder),
                    )
                })
                .collect::<Vec<_>>()
        };
        let (first, second) = cases.split_at(cases.len() / 2);
        let verdicts: Vec<(Verdict, Verdict)> = std::thread::scope(|scope| {
            let handle = scope.spawn(|| run(second));
            let mut all = run(first);
            all.extend(handle.join().expect("the second half ran"));
            all
        });
        let table = documented();
        let mut problems = Vec::new();
        let mut agreed = 0;
        for (case, (reference, ours)) in cases.iter().zip(&verdicts) {
            let verdict = |valid: bool| if valid { "valid" } else { "invalid" };
            let rules: Vec<String> = ours.why.iter().map(|rule| format!("`{rule}`")).collect();
            let row_text = format!(
                "| `{}` | {} | {}{} | {} |",
                case.id,
                verdict(reference.valid),
                verdict(ours.valid),
                if rules.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", rules.join(", "))
                },
                reference.why.join("; ")
            );
            match table.get(&case.id) {
                None if reference.valid == ours.valid => agreed += 1,
                None => problems.push(format!("undocumented disagreement: {row_text}")),
                Some(_) if reference.valid == ours.valid => {
                    problems.push(format!("documented, but they agree now: {row_text}"));
                }
                Some(row) => {
                    let found = Row {
                        reference_valid: reference.valid,
                        ours_valid: ours.valid,
                        our_rules: ours.why.iter().cloned().collect(),
                    };
                    if *row != found {
                        problems.push(format!("the row differs from what was found: {row_text}"));
                    }
                }
            }
        }
        let ids: BTreeSet<&str> = cases.iter().map(|case| case.id.as_str()).collect();
        for id in table.keys() {
            if !ids.contains(id.as_str()) {
                problems.push(format!("documented, but no such case: {id}"));
            }
        }
        assert!(
            problems.is_empty(),
            "{} of {} cases agree; docs/REFERENCE-VALIDATOR.md needs:\n{}",
            agreed,
            cases.len(),
            problems.join("\n")
        );
        // The comparison ran on both sides of the fence.
        assert!(agreed >= 30, "only {agreed} cases agree");
        assert!(table.len() >= 10);
    }
}
