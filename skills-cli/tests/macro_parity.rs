//! Parity with the macro: for each trybuild UI case of `embed_skills!` about
//! skills, `skills check` on the same folder (typed as the macro's argument,
//! from the case's folder) reports the same rule ids at the same
//! `file:line:col` as the case's `.stderr` snapshot.
//!
//! Cases about the macro itself (its arguments) have no command-line
//! counterpart; they are named below with the reason, and a new
//! case that is neither compared nor named fails this test.

use crate::support;

use std::path::Path;

use support::{json_lines, skills, workspace};

/// UI cases that are not about skills, and why.
const NOT_ABOUT_SKILLS: [(&str, &str); 1] = [(
    "bad_arguments",
    "the macro's own arguments (an unknown option, a folder that is not a literal)",
)];

/// `(rule, place)` of every problem in a snapshot: each `error[rule]: …`
/// followed by its `--> place` line.
fn snapshot_problems(stderr: &str) -> Vec<(String, String)> {
    let mut problems = Vec::new();
    let mut lines = stderr.lines().map(str::trim_start);
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("error[") else {
            continue;
        };
        let rule = rest[..rest.find(']').expect("error[rule]")].to_owned();
        let place = lines
            .next()
            .and_then(|next| next.strip_prefix("--> "))
            .unwrap_or_else(|| panic!("no `-->` after error[{rule}]"));
        problems.push((rule, place.to_owned()));
    }
    problems
}

/// The folder argument of the case's `embed_skills!` call.
fn macro_argument(source: &str) -> &str {
    let call = source
        .find("embed_skills!(")
        .expect("an embed_skills! call");
    let start = call + source[call..].find('"').expect("a folder literal") + 1;
    let end = start + source[start..].find('"').expect("a closing quote");
    &source[start..end]
}

/// The command-line flags of the case's list options (`gated = ["a", "b"]`
/// gives `--gated a --gated b`): the same option, spelled for `skills check`.
fn macro_flags(source: &str) -> Vec<String> {
    let mut flags = Vec::new();
    for (option, flag) in [
        ("gated", "--gated"),
        ("allow_fields", "--allow-field"),
        ("allow_secrets_in", "--allow-secrets-in"),
    ] {
        let Some(at) = source.find(&format!("{option} = [")) else {
            continue;
        };
        let list = &source[at..];
        let list = &list[list.find('[').unwrap() + 1..list.find(']').expect("a closing bracket")];
        for item in list
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
        {
            flags.push(flag.to_owned());
            flags.push(item.trim_matches('"').to_owned());
        }
    }
    if source.contains("check_links = false") {
        flags.push("--no-check-links".to_owned());
    }
    flags
}

#[test]
fn the_command_line_reports_what_the_macro_reports() {
    let ui = workspace().join("tests/compile-tests/tests/ui");
    let mut compared = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir(&ui)
        .expect("the UI cases exist")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rs"))
        .collect();
    cases.sort();
    for case in cases {
        let name = case.file_stem().unwrap().to_string_lossy().into_owned();
        let source = std::fs::read_to_string(&case).unwrap();
        let stderr = std::fs::read_to_string(case.with_extension("stderr")).unwrap();
        if stderr.contains("use of deprecated constant `SKILLS::reader_verdict`") {
            readers_agree(&name, &source, &stderr, &ui);
            compared.push(name);
            continue;
        }
        let about_skills = stderr.starts_with("error: ")
            && stderr
                .lines()
                .next()
                .is_some_and(|first| first.contains(" problem") && first.contains(" in "));
        if !about_skills {
            assert!(
                NOT_ABOUT_SKILLS.iter().any(|(known, _)| *known == name),
                "the UI case `{name}` is not compared with `skills check`: compare it, or name it in NOT_ABOUT_SKILLS with the reason"
            );
            continue;
        }
        let expected = snapshot_problems(&stderr);
        assert!(!expected.is_empty(), "{name}: no problem in the snapshot");
        let mut args = vec!["check", "--format", "json", macro_argument(&source)];
        let flags = macro_flags(&source);
        args.extend(flags.iter().map(String::as_str));
        let run = skills(Path::new(&ui), &args);
        assert_ne!(run.code, 0, "{name}: `skills check` passed: {run:?}");
        let found: Vec<(String, String)> = json_lines(&run.stdout)
            .iter()
            .filter(|line| line["severity"] == "error")
            .map(|line| {
                let mut place = line["file"].as_str().unwrap().to_owned();
                if let Some(row) = line["line"].as_u64() {
                    place.push_str(&format!(":{row}:{}", line["column"]));
                }
                (line["rule"].as_str().unwrap().to_owned(), place)
            })
            .collect();
        assert_eq!(found, expected, "{name}: the CLI and the macro disagree");
        compared.push(name);
    }
    // Every case named as not about skills still exists, and some were compared.
    for (known, _) in NOT_ABOUT_SKILLS {
        assert!(
            ui.join(format!("{known}.rs")).is_file(),
            "{known} is gone; remove it from NOT_ABOUT_SKILLS"
        );
    }
    assert!(compared.len() >= 6, "compared only {compared:?}");
}

/// A case whose snapshot is the macro's warning about readers: every reason
/// it gives is one `skills check --readers` gives for the same skill, and
/// each skill it names is one the command line names.
fn readers_agree(name: &str, source: &str, stderr: &str, ui: &Path) {
    let mut args = vec![
        "check",
        "--readers",
        "--format",
        "json",
        macro_argument(source),
    ];
    let flags = macro_flags(source);
    args.extend(flags.iter().map(String::as_str));
    let run = skills(ui, &args);
    assert_eq!(run.code, 0, "{name}: {run:?}");
    let lines = json_lines(&run.stdout);
    let warnings: Vec<&str> = stderr
        .lines()
        .filter_map(|line| {
            line.split_once("use of deprecated constant `SKILLS::reader_verdict`: ")
                .map(|(_, note)| note)
        })
        .collect();
    assert!(!warnings.is_empty(), "{name}: no warning in the snapshot");
    for note in warnings {
        let skill = note.split('`').nth(1).expect("the note names the skill");
        let whys: Vec<&str> = lines
            .iter()
            .filter(|line| line["skill"] == skill && line["verdict"] != "accept")
            .map(|line| line["why"].as_str().unwrap())
            .filter(|why| note.contains(why))
            .collect();
        assert!(
            !whys.is_empty(),
            "{name}: the macro's reasons for `{skill}` are none of the command line's:\n{note}\n{}",
            run.stdout
        );
        let rest = whys
            .iter()
            .fold(note.to_owned(), |rest, why| rest.replace(why, ""));
        assert!(
            !rest.contains("(1.7.4)")
                && !rest.contains("0.1.1")
                && !rest.contains("4.2.3")
                && !rest.contains("3.11.0")
                && !rest.contains("0.10.48"),
            "{name}: the macro gives a reason for `{skill}` the command line does not: {rest}"
        );
    }
}

#[test]
fn snapshot_problems_are_read_in_order() {
    let stderr = "error: 2 problems in ./f:\n\n       error[a-rule]: x\n       --> ./f/d\n        = help: y\n\n       error[b-rule]: z\n        --> ./f/s/SKILL.md:3:9\n";
    assert_eq!(
        snapshot_problems(stderr),
        [
            ("a-rule".to_owned(), "./f/d".to_owned()),
            ("b-rule".to_owned(), "./f/s/SKILL.md:3:9".to_owned())
        ]
    );
}
