//! `skills check` as a user runs it: exit statuses, paths relative to the
//! folder as typed, the three formats, the options (spelled back by the
//! hints and fed back in), warnings, and `--fix`.

use crate::support;

use support::{TempDir, json_lines, skill_md, skills, skills_with, workspace};

#[test]
fn a_clean_folder_exits_zero() {
    let run = skills(&workspace(), &["check", "examples/skills"]);
    assert_eq!(run.code, 0, "{run:?}");
    // What every pinned reader does is quiet where each reads a skill as
    // written: here one reader skips a skill, so it is named.
    assert_eq!(
        run.stdout,
        "readers: 1 skill is read differently by some reader\n  \
         kitchen/recipe-scaling (examples/skills/kitchen/recipe-scaling/SKILL.md)\n    \
         skip   fast-agent@0.10.48: fast-agent (0.10.48) does not find this skill: it reads only the folders right below its skills folder, and this one is `kitchen/recipe-scaling`\n\n\
         3 skills in examples/skills: no problems\n"
    );
    // A folder that is itself a skill.
    let run = skills(&workspace(), &["check", "examples/skills/stock-audit/"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "1 skill in examples/skills/stock-audit/: no problems\n"
    );
}

#[test]
fn problems_are_named_relative_to_the_folder_as_typed_and_exit_one() {
    let dir = TempDir::new("typed");
    dir.write("tree/pdf/SKILL.md", &skill_md("pdf-tools", ""));
    dir.write("tree/ok/SKILL.md", &skill_md("ok", ""));
    std::fs::create_dir_all(dir.path().join("sub")).unwrap();
    for (cwd, typed) in [
        (dir.path().to_path_buf(), "tree"),
        (dir.path().join("sub"), "../tree"),
        (dir.path().to_path_buf(), "./tree/"),
    ] {
        let run = skills(&cwd, &["check", "--color", "never", typed]);
        assert_eq!(run.code, 1, "{run:?}");
        let shown = typed.trim_end_matches('/');
        assert!(
            run.stdout.starts_with(&format!(
                "error[name-mismatch]: the name `pdf-tools` differs from its folder `pdf`; the specification requires them to be equal\n --> {shown}/pdf/SKILL.md:2:7\n  |\n2 | name: pdf-tools\n  |       ^^^^^^^^^\n"
            )),
            "{}",
            run.stdout
        );
        assert!(
            run.stdout
                .ends_with(&format!("error: 1 problem in {typed}\n")),
            "{}",
            run.stdout
        );
    }
    // `$VAR` and `${VAR:-default}` expand as in the macro.
    let run = skills_with(
        dir.path(),
        &["check", "${TREE:-nowhere}"],
        &[("TREE", "tree")],
    );
    assert!(run.stdout.contains(" --> tree/pdf/SKILL.md:2:7"), "{run:?}");
}

#[test]
fn usage_and_io_errors_exit_two() {
    let dir = TempDir::new("usage");
    dir.write("good/a/SKILL.md", &skill_md("a", ""));
    let missing = skills(dir.path(), &["check", "good", "missing"]);
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(
        missing.stdout.contains(
            "error[root-missing]: the skills root does not exist\n--> missing\n = help: point at the folder that holds your skill folders\n = note: a relative folder starts at the current directory"
        ),
        "{}",
        missing.stdout
    );
    // The folder that exists is still checked.
    assert!(missing.stdout.starts_with("1 skill in good: no problems\n"));
    let unset = skills(dir.path(), &["check", "$SURELY_UNSET_SKILLS_VAR"]);
    assert_eq!(unset.code, 2, "{unset:?}");
    assert!(
        unset
            .stdout
            .contains("`SURELY_UNSET_SKILLS_VAR` is not set")
    );
    for args in [
        &["check"][..],
        &["check", "--colour", "x", "good"],
        &["frobnicate"],
    ] {
        let run = skills(dir.path(), args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
    }
    let help = skills(dir.path(), &["check", "--help"]);
    assert_eq!(help.code, 0);
    for flag in [
        "--allow-field",
        "--no-check-links",
        "--allow-secrets-in",
        "--format",
        "--fix",
        "--deny-warnings",
    ] {
        assert!(help.stdout.contains(flag), "{flag} in --help");
    }
}

#[test]
fn json_lines_carry_every_field() {
    let dir = TempDir::new("json");
    dir.write(
        "s/beta/SKILL.md",
        &skill_md("beta", "metadata:\n  beta: yes\n"),
    );
    dir.write("s/drafts/notes.md", "not a skill");
    let run = skills(dir.path(), &["check", "--format", "json", "s"]);
    assert_eq!(run.code, 1, "{run:?}");
    let lines = json_lines(&run.stdout);
    assert_eq!(
        lines[0],
        serde_json::json!({
            "file": "s/beta/SKILL.md",
            "line": 5,
            "column": 9,
            "rule": "ambiguous-scalar",
            "severity": "error",
            "message": "`metadata.beta`: `yes` is read as a boolean by YAML 1.1 readers (PyYAML, used by fast-agent) and as a string by YAML 1.2 readers",
            "hint": "quote it: `beta: \"yes\"`",
            "option": null,
        })
    );
    assert_eq!(lines[1]["file"], "s/drafts");
    assert_eq!(lines[1]["line"], serde_json::Value::Null);
    assert_eq!(lines[1]["rule"], "not-a-skill");
    assert_eq!(lines.len(), 2);
    // The summary goes to stderr, so stdout stays JSON Lines.
    assert_eq!(run.stderr, "error: 2 problems in s\n");
}

#[test]
fn github_annotations_point_at_the_line() {
    let dir = TempDir::new("github");
    dir.write("s/pdf/SKILL.md", &skill_md("pdf-tools", ""));
    let run = skills(dir.path(), &["check", "--format", "github", "s"]);
    assert_eq!(run.code, 1, "{run:?}");
    let first = run.stdout.lines().next().unwrap();
    assert!(
        first.starts_with(
            "::error file=s/pdf/SKILL.md,line=2,col=7,endColumn=16,title=skills check%3A name-mismatch::the name `pdf-tools` differs"
        ),
        "{first}"
    );
    assert!(first.contains("%0Ahelp: rename the folder"), "{first}");
}

/// Each option the hints name, spelled by the command line and fed back
/// in, makes the refused tree pass: the hint leads somewhere.
#[test]
fn the_options_the_hints_spell_are_accepted() {
    let token = format!("ghp_{}", "Zq8wNc3VrT6yLp2KdX9mHs4JbF7gA1eQ5tY0");
    let cases = [
        ("author", skill_md("a", "author: me\n"), None),
        (
            "links",
            "---\nname: a\ndescription: Does a.\n---\nRead [it](references/gone.md).\n".to_owned(),
            None,
        ),
        (
            "secret",
            skill_md("a", ""),
            Some(("a/references/fake key.md", format!("export T={token}\n"))),
        ),
    ];
    for (name, text, extra) in cases {
        let dir = TempDir::new(name);
        dir.write("s/a/SKILL.md", &text);
        if let Some((rel, content)) = &extra {
            dir.write(&format!("s/{rel}"), content);
        }
        let refused = skills(dir.path(), &["check", "--format", "json", "s"]);
        assert_eq!(refused.code, 1, "{name}: {refused:?}");
        let lines = json_lines(&refused.stdout);
        let option = lines[0]["option"]
            .as_str()
            .expect("the hint names an option");
        let human = skills(dir.path(), &["check", "s"]);
        assert!(
            human
                .stdout
                .contains(&format!("= help: on the command line: `{option}`")),
            "{name}: {}",
            human.stdout
        );
        // Split the flag as a shell would (the path is quoted when it has a space).
        let (flag, value) = match option.split_once(' ') {
            Some((flag, value)) => (flag, Some(value.trim_matches('\''))),
            None => (option, None),
        };
        let mut args = vec!["check", flag];
        args.extend(value);
        args.push("s");
        let accepted = skills(dir.path(), &args);
        assert_eq!(accepted.code, 0, "{name} with {args:?}: {accepted:?}");
    }
}

#[test]
fn warnings_are_printed_and_fail_only_when_denied() {
    let dir = TempDir::new("warnings");
    let body = "A line of instructions.\n".repeat(520);
    dir.write(
        "s/long/SKILL.md",
        &format!("---\nname: long\ndescription: Long.\n---\n{body}"),
    );
    let run = skills(dir.path(), &["check", "s"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .starts_with("warning[too-many-lines]: SKILL.md is 524 lines long"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("1 skill in s: 1 warning\n"),
        "{}",
        run.stdout
    );
    let denied = skills(dir.path(), &["check", "--deny-warnings", "s"]);
    assert_eq!(denied.code, 1, "{denied:?}");
    assert!(
        denied
            .stdout
            .ends_with("error: 1 skill in s: 1 warning (denied by --deny-warnings)\n"),
        "{}",
        denied.stdout
    );
    let json = skills(dir.path(), &["check", "--format", "json", "s"]);
    assert_eq!(json_lines(&json.stdout)[0]["severity"], "warning");
}

#[test]
fn fix_applies_the_mechanical_hints_then_checks_again() {
    let dir = TempDir::new("fix");
    dir.write(
        "s/report/SKILL.md",
        "---\nname: reports\ndescription: Writes reports.\nallowed-tools:\n  - Read\n  - Bash(git:*)\nmetadata:\n  internal: yes\n  version: 1.10\n---\nBody.\n",
    );
    dir.write("s/other/SKILL.md", &skill_md("other", "Author: me\n"));
    let run = skills(dir.path(), &["check", "--fix", "s"]);
    assert_eq!(
        run.code, 1,
        "the unknown field is left to the author: {run:?}"
    );
    assert_eq!(
        dir.read("s/report/SKILL.md"),
        "---\nname: report\ndescription: Writes reports.\nallowed-tools: \"Read Bash(git:*)\"\nmetadata:\n  internal: \"yes\"\n  version: \"1.10\"\n---\nBody.\n"
    );
    assert!(
        run.stderr.contains("fixed 4 problems in s/report/SKILL.md"),
        "{}",
        run.stderr
    );
    // What is left is what cannot be fixed mechanically.
    let rules: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix("error["))
        .map(|rest| &rest[..rest.find(']').unwrap()])
        .collect();
    assert_eq!(rules, ["unknown-field"], "{}", run.stdout);
    // A second run finds nothing more to fix.
    let again = skills(dir.path(), &["check", "--fix", "s"]);
    assert!(!again.stderr.contains("fixed"), "{again:?}");
}

#[test]
fn several_folders_report_each_and_the_worst_status_wins() {
    let dir = TempDir::new("several");
    dir.write("a/x/SKILL.md", &skill_md("x", ""));
    dir.write("b/y/SKILL.md", &skill_md("z", ""));
    let run = skills(dir.path(), &["check", "a", "b"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.starts_with("1 skill in a: no problems\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("error: 1 problem in b\n"),
        "{}",
        run.stdout
    );
}

/// The mistakes that used to build and serve without a word (issue 19 §4):
/// each is named at its place with its rule and a hint, and following the
/// hints (`--fix`, then the option the remaining hint spells) is accepted.
#[test]
fn mistakes_that_used_to_pass_silently_are_named_and_their_hints_accepted() {
    let dir = TempDir::new("silent");
    dir.write(
        "s/stock-audit/SKILL.md",
        "---\nname: stock-audit\ndescription: Counts stock #inventory and explains variances.\n---\nFollow [the procedure](references/couting-procedure.md).\nAsk [the kitchen skill](../kitchen/SKILL.md) for recipes.\n",
    );
    dir.write(
        "s/stock-audit/references/counting-procedure.md",
        "# Count\n",
    );
    dir.write(
        "s/kitchen/SKILL.md",
        "---\nname: kitchen\ndescription: Replace this with what the skill does and when to use it, in one or two sentences. Use when the user asks about Kitchen.\n---\nCook.\n",
    );
    let run = skills(dir.path(), &["check", "--format", "json", "s"]);
    assert_eq!(run.code, 1, "{run:?}");
    let found: Vec<(String, String, String, String)> = json_lines(&run.stdout)
        .iter()
        .map(|line| {
            (
                line["rule"].as_str().unwrap().to_owned(),
                format!(
                    "{}:{}:{}",
                    line["file"].as_str().unwrap(),
                    line["line"],
                    line["column"]
                ),
                line["severity"].as_str().unwrap().to_owned(),
                line["hint"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    let places: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|(rule, place, severity, _)| (rule.as_str(), place.as_str(), severity.as_str()))
        .collect();
    assert_eq!(
        places,
        [
            (
                "placeholder-description",
                "s/kitchen/SKILL.md:3:14",
                "warning"
            ),
            ("inline-comment", "s/stock-audit/SKILL.md:3:27", "error"),
            ("broken-link", "s/stock-audit/SKILL.md:5:24", "error"),
            ("link-outside-skill", "s/stock-audit/SKILL.md:6:25", "error"),
        ],
        "{}",
        run.stdout
    );
    assert!(
        found[1].3.starts_with(
            "quote the value to keep all of it: `description: \"Counts stock #inventory and explains variances.\"`"
        ),
        "{found:?}"
    );
    assert_eq!(
        found[2].3,
        "did you mean `references/counting-procedure.md`?"
    );
    assert!(
        found[3].3.contains("served, synced and installed alone"),
        "{found:?}"
    );
    // The human form names the place too, and says how to turn the link check off.
    let human = skills(dir.path(), &["check", "--color", "never", "s"]);
    assert!(
        human.stdout.contains(
            "error[link-outside-skill]: SKILL.md links to `../kitchen/SKILL.md`, outside this skill's folder\n --> s/stock-audit/SKILL.md:6:25\n"
        ),
        "{}",
        human.stdout
    );
    assert!(
        human
            .stdout
            .contains("= help: on the command line: `--no-check-links`"),
        "{}",
        human.stdout
    );
    // `--fix` quotes the value and corrects the file name; the link out is left.
    let fixed = skills(dir.path(), &["check", "--fix", "s"]);
    assert_eq!(fixed.code, 1, "{fixed:?}");
    assert_eq!(
        dir.read("s/stock-audit/SKILL.md"),
        "---\nname: stock-audit\ndescription: \"Counts stock #inventory and explains variances.\"\n---\nFollow [the procedure](references/counting-procedure.md).\nAsk [the kitchen skill](../kitchen/SKILL.md) for recipes.\n"
    );
    let rules: Vec<&str> = fixed
        .stdout
        .lines()
        .filter_map(|line| line.strip_prefix("error["))
        .map(|rest| &rest[..rest.find(']').unwrap()])
        .collect();
    assert_eq!(rules, ["link-outside-skill"], "{}", fixed.stdout);
    // The option the hint spells is accepted; the warning stays a warning.
    let accepted = skills(dir.path(), &["check", "--no-check-links", "s"]);
    assert_eq!(accepted.code, 0, "{accepted:?}");
    assert!(
        accepted.stdout.contains("warning[placeholder-description]"),
        "{}",
        accepted.stdout
    );
    // Linking a URL instead, as the hint says, is accepted with the checks on.
    let text = dir
        .read("s/stock-audit/SKILL.md")
        .replace("../kitchen/SKILL.md", "https://example.com/skills/kitchen");
    dir.write("s/stock-audit/SKILL.md", &text);
    assert_eq!(skills(dir.path(), &["check", "s"]).code, 0);
}

#[test]
fn with_no_folder_check_and_serve_read_the_crates_skills_folder() {
    // In a crate (a folder holding Cargo.toml), as `skills new` writes there.
    let dir = TempDir::new("default-dir");
    dir.write(
        "Cargo.toml",
        "[package]\nname = \"larder\"\nversion = \"0.1.0\"\nedition = \"2024\"\n",
    );
    dir.write("skills/stock-audit/SKILL.md", &skill_md("stock-audit", ""));
    let run = skills(dir.path(), &["check"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "1 skill in skills: no problems\n");
    // stdin is closed: the server starts on the folder, then finds nobody.
    let serve = skills(dir.path(), &["serve"]);
    assert_eq!(serve.code, 0, "{serve:?}");
    assert!(
        serve
            .stderr
            .contains("serving the skills in skills as `skills`"),
        "{}",
        serve.stderr
    );
    // A crate without the folder: the folder is named as missing.
    std::fs::remove_dir_all(dir.path().join("skills")).unwrap();
    let run = skills(dir.path(), &["check"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stdout.contains("--> skills\n"), "{}", run.stdout);

    // Outside a crate there is no default, and the error says what to type.
    let outside = TempDir::new("no-crate");
    for command in ["check", "serve"] {
        let run = skills(outside.path(), &[command]);
        assert_eq!(run.code, 2, "{command}: {run:?}");
        assert!(
            run.stderr.contains("no skills folder named")
                && run
                    .stderr
                    .contains(&format!("`skills {command} path/to/skills`")),
            "{command}: {}",
            run.stderr
        );
    }
    // The usage says the folder is optional, and what it defaults to.
    let help = skills(outside.path(), &["check", "--help"]);
    assert!(help.stdout.contains("[DIR]..."), "{}", help.stdout);
    assert!(
        help.stdout.contains("`skills` in a crate"),
        "{}",
        help.stdout
    );
}

#[test]
fn the_help_names_every_command_and_says_what_agent_does() {
    let help = skills(&workspace(), &["--help"]);
    assert_eq!(help.code, 0, "{help:?}");
    let about = help.stdout.lines().next().unwrap_or_default();
    assert!(about.contains("serve"), "the first line: {about}");
    for command in ["check", "manifest", "new", "init", "serve"] {
        assert!(
            help.stdout.contains(&format!("\n  {command} ")),
            "{command}: {}",
            help.stdout
        );
    }
    // `check --agent` checks the agent's skills; it serves nothing.
    let check = skills(&workspace(), &["check", "--help"]);
    assert!(!check.stdout.contains("served"), "{}", check.stdout);
    assert!(
        check.stdout.contains("does not stop the others"),
        "{}",
        check.stdout
    );
}

/// What a hostile folder plants: a name that clears the screen and sets the
/// terminal's title, then starts a line a CI runner reads as a command.
#[cfg(unix)]
const HOSTILE: &str = "a\u{1b}[2J\u{1b}]0;pwned\u{7}\n::stop-commands::tok\r\u{9b}2J.md";

/// Whether `output` holds anything the hostile name could act through.
#[cfg(unix)]
fn hijacked(output: &str) -> Option<&'static str> {
    [
        ("a clear-screen sequence", "\u{1b}[2J"),
        ("a title sequence", "\u{1b}]0;"),
        ("a bell", "\u{7}"),
        ("a carriage return", "\r"),
        ("a single-byte CSI", "\u{9b}"),
        ("a workflow command", "\n::stop-commands::"),
    ]
    .into_iter()
    .find(|(_, sequence)| output.contains(sequence) || output.starts_with("::stop-commands::"))
    .map(|(what, _)| what)
}

#[cfg(unix)]
#[test]
fn a_hostile_file_name_cannot_act_on_a_terminal_or_a_ci_log() {
    let dir = TempDir::new("hostile-name");
    dir.write("s/pdf/SKILL.md", &skill_md("pdf", ""));
    dir.write(&format!("s/pdf/{HOSTILE}"), "x");
    for args in [
        &["check", "--color", "never", "s"][..],
        &["check", "--color", "always", "s"],
        &["check", "--format", "json", "s"],
        &["check", "--format", "github", "s"],
        &["manifest", "s"],
    ] {
        let run = skills(dir.path(), args);
        assert_eq!(run.code, 1, "{args:?}: {run:?}");
        for (stream, output) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            assert_eq!(hijacked(output), None, "{args:?} {stream}: {output:?}");
        }
        let printed = format!("{}{}", run.stdout, run.stderr);
        assert!(
            printed.contains(r"a\u{1b}[2J\u{1b}]0;pwned\u{7}\n::stop-commands::tok\r\u{9b}2J.md")
                || printed.contains(
                    r"a\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\n::stop-commands::tok\\r\\u{9b}2J.md"
                )
                || printed.contains(r"\n%3A%3Astop-commands%3A%3Atok\r"),
            "{args:?}: the name is shown, escaped: {printed:?}"
        );
    }
}

/// The readers' verdicts quote names from the folder too (a hidden file the
/// `skills` CLI copies and FastMCP serves): they are escaped as every other
/// name printed is, in every format, and in the macro's warning (the same
/// reasons).
#[cfg(unix)]
#[test]
fn a_hostile_hidden_name_cannot_act_through_the_readers_verdicts() {
    let dir = TempDir::new("hostile-hidden");
    dir.write("s/pdf/SKILL.md", &skill_md("pdf", ""));
    dir.write(&format!("s/pdf/.{HOSTILE}"), "x");
    for args in [
        &["check", "--readers", "--color", "never", "s"][..],
        &["check", "--readers", "--color", "always", "s"],
        &["check", "--readers", "--format", "json", "s"],
        &["check", "--readers", "--format", "github", "s"],
    ] {
        let run = skills(dir.path(), args);
        assert_eq!(run.code, 0, "{args:?}: {run:?}");
        for (stream, output) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
            assert_eq!(hijacked(output), None, "{args:?} {stream}: {output:?}");
        }
        let printed = format!("{}{}", run.stdout, run.stderr);
        assert!(
            printed.contains(r".a\u{1b}[2J\u{1b}]0;pwned\u{7}\n::stop-commands::tok\r\u{9b}2J.md")
                || printed.contains(
                    r".a\\u{1b}[2J\\u{1b}]0;pwned\\u{7}\\n::stop-commands::tok\\r\\u{9b}2J.md"
                )
                || printed.contains(r"\n%3A%3Astop-commands%3A%3Atok\r"),
            "{args:?}: the hidden name is shown, escaped: {printed:?}"
        );
    }
}

#[cfg(unix)]
#[test]
fn the_fixed_line_of_a_hostile_folder_stays_one_line() {
    let dir = TempDir::new("hostile-fix");
    let folder = "x\n::stop-commands::tok\n::error::planted";
    dir.write(
        &format!("s/{folder}/SKILL.md"),
        "---\nname: x\ndescription: Does x. Use when asked.\nmetadata:\n  version: 1.10\n---\nBody.\n",
    );
    let run = skills(dir.path(), &["check", "--fix", "--format", "github", "s"]);
    assert!(
        run.stderr
            .contains("fixed 1 problem in s/x\\n::stop-commands::tok\\n::error::planted/SKILL.md"),
        "{run:?}"
    );
    for output in [&run.stdout, &run.stderr] {
        assert!(
            !output
                .lines()
                .any(|line| line.trim_start().starts_with("::stop-commands")
                    || line.trim_start().starts_with("::error::planted")),
            "{output}"
        );
    }
}

#[test]
fn fix_removes_a_byte_order_mark_as_the_error_says() {
    let dir = TempDir::new("bom");
    dir.write(
        "s/pdf/SKILL.md",
        &format!("\u{feff}{}", skill_md("pdf", "")),
    );
    let run = skills(dir.path(), &["check", "s"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("byte-order mark"), "{run:?}");
    let fixed = skills(dir.path(), &["check", "--fix", "s"]);
    assert_eq!(fixed.code, 0, "{fixed:?}");
    assert!(
        fixed.stderr.contains("fixed 1 problem in s/pdf/SKILL.md"),
        "{fixed:?}"
    );
    assert_eq!(dir.read("s/pdf/SKILL.md"), skill_md("pdf", ""));
}

/// `--fix` once staged its rewrite at `.SKILL.md.skills-fix-<pid>` with a
/// write that followed a link there: a folder planting links for the pids
/// the next process is likely to get made it overwrite any file the user
/// can write. Whatever is planted beside the file, the fix writes a fresh
/// file of its own and renames it over `SKILL.md`.
#[cfg(unix)]
#[test]
fn fix_never_writes_through_a_link_planted_beside_the_file() {
    let dir = TempDir::new("planted");
    let victim = dir.write("victim", "the user's own file\n");
    let skill = "---\nname: pdf\ndescription: Does pdf. Use when asked to.\nmetadata:\n  version: 1.10\n---\nBody.\n";
    dir.write("s/pdf/SKILL.md", skill);
    // The next pids, as far as a process started now predicts them.
    let next = std::process::Command::new("true").spawn().unwrap();
    let pid = next.id();
    let mut child = next;
    child.wait().unwrap();
    for guess in pid..pid + 4000 {
        let planted = dir
            .path()
            .join(format!("s/pdf/.SKILL.md.skills-fix-{guess}"));
        std::os::unix::fs::symlink(&victim, planted).unwrap();
    }
    let run = skills(dir.path(), &["check", "--fix", "s"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        dir.read("victim"),
        "the user's own file\n",
        "nothing written through a link"
    );
    let skill_md = dir.path().join("s/pdf/SKILL.md");
    assert!(
        std::fs::symlink_metadata(&skill_md)
            .unwrap()
            .file_type()
            .is_file()
    );
    assert_eq!(
        dir.read("s/pdf/SKILL.md"),
        skill.replace("1.10", "\"1.10\"")
    );
    // Only the planted links are left beside it: no staging file.
    let left: Vec<String> = std::fs::read_dir(dir.path().join("s/pdf"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "SKILL.md" && !name.starts_with(".SKILL.md.skills-fix-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn readers_are_quiet_where_every_reader_accepts_and_named_where_one_does_not() {
    let dir = TempDir::new("readers");
    dir.write("skills/plain/SKILL.md", &skill_md("plain", ""));
    let quiet = skills(dir.path(), &["check", "skills"]);
    assert_eq!(quiet.code, 0, "{quiet:?}");
    assert_eq!(quiet.stdout, "1 skill in skills: no problems\n");
    // `--readers`: every reader, accepts included; in JSON, exactly these keys.
    let all = skills(
        dir.path(),
        &["check", "--readers", "--format", "json", "skills"],
    );
    let lines = json_lines(&all.stdout);
    let readers: Vec<&str> = lines
        .iter()
        .map(|line| line["reader"].as_str().unwrap())
        .collect();
    assert_eq!(
        readers,
        [
            "skills-cli@1.7.4",
            "skills-ref@0.1.1",
            "fastmcp@4.2.3",
            "rmcp@3.11.0",
            "fast-agent@0.10.48"
        ]
    );
    for (text, line) in all.stdout.lines().zip(&lines) {
        // The keys, in this order.
        assert!(
            text.starts_with(r#"{"kind":"reader","skill":"plain","reader":"#),
            "{text}"
        );
        assert_eq!(line.as_object().unwrap().len(), 5, "{text}");
        assert!(text.contains(r#","verdict":"accept","why":""#), "{text}");
        assert_eq!(
            (&line["kind"], &line["skill"], &line["verdict"]),
            (&"reader".into(), &"plain".into(), &"accept".into())
        );
    }
    // A skill the CLI hides: named with why, in each format, exit status unchanged.
    dir.write(
        "skills/wip/SKILL.md",
        &skill_md("wip", "metadata:\n  internal: true\n"),
    );
    let human = skills(dir.path(), &["check", "skills"]);
    assert_eq!(human.code, 0, "{human:?}");
    assert!(
        human.stdout.contains("  wip (skills/wip/SKILL.md)\n    skip   skills-cli@1.7.4: `npx skills add` (1.7.4) hides this skill: `metadata.internal` is `true`, so it installs it only with `INSTALL_INTERNAL_SKILLS=1`"),
        "{}",
        human.stdout
    );
    assert!(!human.stdout.contains("plain ("), "{}", human.stdout);
    let json = skills(dir.path(), &["check", "--format", "json", "skills"]);
    let concerns: Vec<(String, String)> = json_lines(&json.stdout)
        .iter()
        .map(|line| {
            (
                line["reader"].as_str().unwrap().to_owned(),
                line["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        concerns,
        [
            ("skills-cli@1.7.4".to_owned(), "skip".to_owned()),
            ("skills-ref@0.1.1".to_owned(), "alter".to_owned()),
            ("fast-agent@0.10.48".to_owned(), "alter".to_owned()),
        ]
    );
    let github = skills(dir.path(), &["check", "--format", "github", "skills"]);
    assert!(
        github.stdout.contains(
            "::warning file=skills/wip/SKILL.md,title=skills check%3A skills-cli@1.7.4 skips wip::`npx skills add` (1.7.4) hides this skill"
        ),
        "{}",
        github.stdout
    );
}
