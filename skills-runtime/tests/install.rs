//! The installer (`skills_runtime::install`): every state, idempotence,
//! edits kept and forced, executable bits, symbolic links, uninstall, user
//! and project scope, flat names, `skill-embed`'s stamped installs, and the
//! example's exact interface.
#![cfg(unix)]

use skills_test_support::examples;

use std::fs;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::Parser;
use skills_runtime::folder::{State, Target, WriteOptions};
use skills_runtime::install::{self, Installer, SkillCommand};
use skills_runtime::load::vendor::Environment;
use skills_runtime::load::{Loaded, load};

/// A fresh folder under the system's temporary folder.
fn scratch(label: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "skills-install-{label}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn write(path: &Path, text: &str) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, text).unwrap();
}

fn skill_md(name: &str, body: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use when testing the installer.\n---\n\n{body}\n"
    )
}

fn set_mode(path: &Path, mode: u32) {
    fs::set_permissions(path, fs::Permissions::from_mode(mode)).unwrap();
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Skills in `root`: `(path, body)` each, `alpha` with an executable script.
fn skills(root: &Path, skills: &[(&str, &str)]) -> Loaded {
    for (path, body) in skills {
        let name = path.rsplit('/').next().unwrap();
        write(&root.join(path).join("SKILL.md"), &skill_md(name, body));
        if name == "alpha" {
            let script = root.join(path).join("scripts/run.sh");
            write(&script, "#!/bin/sh\necho alpha\n");
            set_mode(&script, 0o755);
        }
    }
    load(root, &skills_runtime::load::Options::default()).unwrap()
}

#[derive(Parser)]
struct Cli {
    #[command(subcommand)]
    command: SkillCommand,
}

/// Runs `args` (`install --dir …`) through the library; (code, stdout, stderr).
fn run(installer: &Installer<'_>, args: &[&str]) -> (u8, String, String) {
    let cli = Cli::try_parse_from(std::iter::once("installer").chain(args.iter().copied()))
        .unwrap_or_else(|error| panic!("{args:?}: {error}"));
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = installer.run_to(&cli.command, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn installer(loaded: &Loaded) -> Installer<'_> {
    Installer::new(loaded.skills(), "installer")
        .command("installer")
        .environment(Environment::new("/nonexistent-home"))
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().collect()
}

#[test]
fn every_state_and_a_second_run_that_changes_nothing() {
    let base = scratch("states");
    let v1 = skills(
        &base.join("v1"),
        &[
            ("alpha", "One."),
            ("group/beta", "Beta."),
            ("gamma", "Gamma."),
        ],
    );
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap();
    let tool = installer(&v1);

    let (code, out, err) = run(&tool, &["list", "--dir", dir_arg]);
    assert_eq!(code, 0);
    // The set's order (by path: `group/beta` after `gamma`).
    assert_eq!(
        lines(&out),
        ["alpha missing", "gamma missing", "beta missing"]
    );
    assert!(
        err.contains(&format!("`installer install --dir {dir_arg}`")),
        "{err}"
    );

    let (code, out, _) = run(&tool, &["install", "--dir", dir_arg]);
    assert_eq!(code, 0, "{out}");
    // Flat: the nested skill is installed under its name.
    assert!(dir.join("beta/SKILL.md").is_file());
    assert!(!dir.join("group").exists());
    assert!(out.contains("alpha missing: installed"), "{out}");
    assert!(
        out.ends_with("Restart your agent (or start a new session) to load the new skills.\n"),
        "{out}"
    );

    let before = fs::metadata(dir.join("alpha/SKILL.md")).unwrap();
    let (code, out, _) = run(&tool, &["install", "--dir", dir_arg]);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&out),
        [
            "alpha up-to-date: nothing to do",
            "gamma up-to-date: nothing to do",
            "beta up-to-date: nothing to do"
        ]
    );
    let after = fs::metadata(dir.join("alpha/SKILL.md")).unwrap();
    assert_eq!(
        (before.ino(), before.mtime_nsec()),
        (after.ino(), after.mtime_nsec())
    );
    let (_, out, err) = run(&tool, &["list", "--dir", dir_arg]);
    assert_eq!(
        lines(&out),
        ["alpha up-to-date", "gamma up-to-date", "beta up-to-date"]
    );
    assert_eq!(err, "");

    // An upgrade: alpha changed, gamma gone, delta new; the user edited
    // beta and keeps a skill of their own named delta.
    let v2 = skills(
        &base.join("v2"),
        &[
            ("alpha", "Two."),
            ("group/beta", "Beta."),
            ("delta", "Delta."),
        ],
    );
    write(&dir.join("beta/SKILL.md"), &skill_md("beta", "My notes."));
    write(&dir.join("delta/SKILL.md"), &skill_md("delta", "Mine."));
    let upgraded = installer(&v2);
    let (code, out, err) = run(&upgraded, &["list", "--dir", dir_arg]);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&out),
        [
            "alpha outdated",
            "delta foreign",
            "beta modified",
            "gamma orphaned"
        ]
    );
    assert_eq!(
        err,
        format!("1 outdated: `installer install --dir {dir_arg}` brings them up to date\n")
    );

    // Installing v2: alpha updated, the orphan removed, the edit and the
    // user's own folder kept (exit 1).
    let (code, out, err) = run(&upgraded, &["install", "--dir", dir_arg]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("alpha outdated: updated (SKILL.md)"), "{out}");
    assert!(out.contains("gamma orphaned: removed"), "{out}");
    assert!(out.contains("beta modified:"), "{out}");
    assert!(out.contains("delta foreign: kept"), "{out}");
    assert!(err.contains("--force` overwrites it"), "{err}");
    assert!(!dir.join("gamma").exists());
    assert!(
        fs::read_to_string(dir.join("beta/SKILL.md"))
            .unwrap()
            .contains("My notes.")
    );
    assert!(
        fs::read_to_string(dir.join("delta/SKILL.md"))
            .unwrap()
            .contains("Mine.")
    );
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn an_edit_is_kept_then_overwritten_with_force_and_a_dry_run_writes_nothing() {
    let base = scratch("force");
    let v1 = skills(&base.join("v1"), &[("alpha", "One."), ("beta", "Beta.")]);
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap();
    let tool = installer(&v1);

    let (code, out, _) = run(&tool, &["install", "--dir", dir_arg, "--dry-run"]);
    assert_eq!(code, 0);
    assert!(out.contains("alpha missing: would install"), "{out}");
    assert!(!out.contains("Restart"), "{out}");
    assert!(
        !dir.exists(),
        "a dry run creates nothing, not even the folder"
    );
    let (code, _, _) = run(&tool, &["list", "--dir", dir_arg]);
    assert_eq!(code, 0);
    assert!(!dir.exists(), "list creates nothing");

    run(&tool, &["install", "--dir", dir_arg]);
    let edited = skill_md("beta", "My own words.");
    write(&dir.join("beta/SKILL.md"), &edited);
    let (code, out, err) = run(&tool, &["install", "--dir", dir_arg]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("beta modified:") && out.contains("[edited: SKILL.md]"),
        "{out}"
    );
    assert_eq!(
        err,
        format!(
            "kept what was edited or written by another tool; `installer install --dir {dir_arg} --force` overwrites it\n"
        )
    );
    assert_eq!(
        fs::read_to_string(dir.join("beta/SKILL.md")).unwrap(),
        edited
    );

    let (code, out, _) = run(&tool, &["install", "--dir", dir_arg, "--force"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("beta modified: updated"), "{out}");
    assert_eq!(
        fs::read(dir.join("beta/SKILL.md")).unwrap(),
        fs::read(base.join("v1/beta/SKILL.md")).unwrap()
    );
    let (_, out, _) = run(&tool, &["list", "--dir", dir_arg]);
    assert_eq!(lines(&out), ["alpha up-to-date", "beta up-to-date"]);
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn an_executable_bit_arrives_and_is_restored() {
    let base = scratch("exec");
    let v1 = skills(&base.join("v1"), &[("alpha", "One.")]);
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap();
    let tool = installer(&v1);
    run(&tool, &["install", "--dir", dir_arg]);
    let script = dir.join("alpha/scripts/run.sh");
    assert_eq!(mode(&script) & 0o111, 0o111, "{:o}", mode(&script));
    assert_eq!(mode(&dir.join("alpha/SKILL.md")) & 0o111, 0);

    // Lost (an archive or a copy drops it): outdated, restored without --force.
    set_mode(&script, 0o644);
    let (_, out, _) = run(&tool, &["list", "--dir", dir_arg]);
    assert_eq!(lines(&out), ["alpha outdated"]);
    let (code, out, _) = run(&tool, &["install", "--dir", dir_arg]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(
        out.lines().next().unwrap(),
        "alpha outdated: updated (scripts/run.sh); executable bit restored: scripts/run.sh"
    );
    assert_eq!(mode(&script) & 0o111, 0o111, "{:o}", mode(&script));
    let ran = Command::new(&script).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&ran.stdout), "alpha\n");
    let (_, out, _) = run(&tool, &["list", "--dir", dir_arg]);
    assert_eq!(lines(&out), ["alpha up-to-date"]);
    // An edit next to it is still an edit.
    set_mode(&script, 0o644);
    write(&dir.join("alpha/SKILL.md"), &skill_md("alpha", "Mine."));
    let (code, _, _) = run(&tool, &["install", "--dir", dir_arg]);
    assert_eq!(code, 1);
    assert_eq!(mode(&script) & 0o111, 0, "a kept skill is left as it is");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn symbolic_links_below_the_folder_are_never_followed() {
    let base = scratch("links");
    let v1 = skills(&base.join("v1"), &[("alpha", "One."), ("beta", "Beta.")]);
    let tool = installer(&v1);
    let outside = base.join("outside");
    write(&outside.join("keep.txt"), "mine");

    // A skill's folder that is a link to elsewhere.
    let dir = base.join("installed");
    fs::create_dir_all(&dir).unwrap();
    std::os::unix::fs::symlink(&outside, dir.join("alpha")).unwrap();
    let dir_arg = dir.to_str().unwrap();
    let (code, out, _) = run(&tool, &["install", "--dir", dir_arg, "--force"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains(
            "alpha foreign: kept; `alpha` is a symbolic link, which the writer never follows"
        ),
        "{out}"
    );
    assert!(
        fs::symlink_metadata(dir.join("alpha"))
            .unwrap()
            .is_symlink()
    );

    // A folder inside an installed skill replaced by a link.
    let other = base.join("other");
    let other_arg = other.to_str().unwrap();
    run(&tool, &["install", "--dir", other_arg]);
    fs::remove_dir_all(other.join("alpha/scripts")).unwrap();
    std::os::unix::fs::symlink(&outside, other.join("alpha/scripts")).unwrap();
    let (code, out, _) = run(&tool, &["install", "--dir", other_arg, "--force"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("alpha modified:"), "{out}");
    assert!(out.contains("links or special files"), "{out}");

    // Nothing was written outside.
    let names: Vec<_> = fs::read_dir(&outside)
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(names, ["keep.txt"]);
    assert_eq!(
        fs::read_to_string(outside.join("keep.txt")).unwrap(),
        "mine"
    );

    // A link *as* the chosen folder (a dotfiles `~/.claude`) is followed.
    let real = base.join("dotfiles/skills");
    fs::create_dir_all(&real).unwrap();
    let linked = base.join("linked");
    std::os::unix::fs::symlink(&real, &linked).unwrap();
    let (code, _, _) = run(&tool, &["install", "--dir", linked.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(real.join("alpha/SKILL.md").is_file());
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn uninstall_removes_only_what_it_wrote_and_nobody_edited() {
    let base = scratch("uninstall");
    let v1 = skills(
        &base.join("v1"),
        &[("alpha", "One."), ("beta", "Beta."), ("gamma", "Gamma.")],
    );
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap();
    let tool = installer(&v1);
    run(&tool, &["install", "--dir", dir_arg]);
    write(&dir.join("beta/notes.md"), "my notes");
    write(&dir.join("mine/SKILL.md"), &skill_md("mine", "Mine."));

    let (code, out, _) = run(&tool, &["uninstall", "--dir", dir_arg, "--dry-run"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("alpha: would remove"), "{out}");
    assert!(dir.join("alpha").exists());

    let (code, out, _) = run(&tool, &["uninstall", "--dir", dir_arg]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("alpha: removed"), "{out}");
    assert!(
        out.contains("beta: kept, edited since it was installed [edited: notes.md]"),
        "{out}"
    );
    assert!(!dir.join("alpha").exists() && !dir.join("gamma").exists());
    assert_eq!(
        fs::read_to_string(dir.join("beta/notes.md")).unwrap(),
        "my notes"
    );
    assert!(dir.join("beta/SKILL.md").exists());
    assert!(dir.join("mine/SKILL.md").exists());
    assert!(!out.contains("mine"), "{out}");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn user_scope_under_a_temporary_home() {
    let base = scratch("home");
    let v1 = skills(&base.join("v1"), &[("alpha", "One.")]);
    let home = base.join("home");
    fs::create_dir_all(&home).unwrap();
    let tool = |env: Environment| installer(&v1).environment(env);

    // No agent found: the shared ~/.agents/skills.
    let (code, out, _) = run(&tool(Environment::new(&home)), &["install", "--user"]);
    assert_eq!(code, 0, "{out}");
    assert!(home.join(".agents/skills/alpha/SKILL.md").is_file());
    assert!(out.contains("Restart Shared .agents/skills"), "{out}");

    // The agents found on the machine, each in its own folder.
    fs::create_dir_all(home.join(".claude")).unwrap();
    fs::create_dir_all(home.join(".codex")).unwrap();
    let (code, out, _) = run(&tool(Environment::new(&home)), &["install", "--user"]);
    assert_eq!(code, 0, "{out}");
    assert!(home.join(".claude/skills/alpha/SKILL.md").is_file());
    assert!(home.join(".codex/skills/alpha/SKILL.md").is_file());
    let claude = home.join(".claude/skills");
    assert!(
        out.starts_with(&format!("{} (Claude Code):\n", claude.display())),
        "{out}"
    );
    assert!(
        out.contains("Restart Claude Code (or start a new session)"),
        "{out}"
    );
    assert!(out.contains("Restart Codex"), "{out}");

    // --agent, and the agents' own overrides.
    let (code, _, _) = run(
        &tool(Environment::new(&home)),
        &["install", "--user", "--agent", "cursor"],
    );
    assert_eq!(code, 0);
    assert!(home.join(".cursor/skills/alpha/SKILL.md").is_file());
    let config = base.join("claude-config");
    let env = Environment::new(&home).var("CLAUDE_CONFIG_DIR", &config);
    let (code, _, _) = run(&tool(env), &["install", "--user", "--agent", "claude-code"]);
    assert_eq!(code, 0);
    assert!(config.join("skills/alpha/SKILL.md").is_file());
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn project_scope_is_found_from_a_nested_working_directory() {
    let base = scratch("project");
    let v1 = skills(&base.join("v1"), &[("alpha", "One.")]);
    let repo = base.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    let nested = repo.join("src/deep");
    fs::create_dir_all(&nested).unwrap();
    let tool = installer(&v1).working_dir(&nested);

    let (code, out, _) = run(&tool, &["install", "--agent", "claude-code"]);
    assert_eq!(code, 0, "{out}");
    assert!(repo.join(".claude/skills/alpha/SKILL.md").is_file());

    // Agents sharing `.agents/skills` get it written once.
    let (code, out, _) = run(&tool, &["install", "--project", "--agent", "codex,cursor"]);
    assert_eq!(code, 0, "{out}");
    assert!(repo.join(".agents/skills/alpha/SKILL.md").is_file());
    assert!(out.contains("Restart Codex, Cursor"), "{out}");
    assert_eq!(out.matches("alpha missing").count(), 1, "{out}");

    // Outside any repository, project scope says what to do instead.
    let lost = base.join("nowhere");
    fs::create_dir_all(&lost).unwrap();
    let (code, _, err) = run(&installer(&v1).working_dir(&lost), &["install"]);
    assert_eq!(code, 2);
    assert!(err.contains("is in no repository"), "{err}");
    assert!(err.contains("use --user or --dir"), "{err}");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn two_skills_with_one_name_are_refused_naming_both() {
    // The loader and `embed_skills!` refuse a duplicate name already; a set
    // built another way is refused here before anything is written.
    use skills_runtime::{Skill, SkillFile, Skills};
    use std::borrow::Cow;
    let text = skill_md("pdf", "One.");
    let skill = |path: &'static str| {
        let file = SkillFile::from_text(
            Cow::Borrowed("SKILL.md"),
            Cow::Owned(text.clone()),
            skills_runtime::Digest::from_bytes([0; 32]),
            false,
        );
        Skill::from_parts(
            Cow::Borrowed("pdf"),
            Cow::Borrowed("Does pdf things."),
            Cow::Borrowed(path),
            Cow::Owned(format!("skill://{path}/SKILL.md")),
            Cow::Borrowed("{}"),
            Cow::Borrowed("v1"),
            0,
            Cow::Owned(vec![file]),
        )
    };
    let set = Skills::from_parts(
        Cow::Owned(vec![skill("kitchen/pdf"), skill("office/pdf")]),
        Cow::Borrowed(""),
        None,
    );
    let base = scratch("names");
    let dir = base.join("installed");
    let tool = Installer::new(&set, "installer").environment(Environment::new("/nonexistent-home"));
    let (code, out, err) = run(&tool, &["install", "--dir", dir.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert_eq!(out, "");
    assert!(
        err.contains("two skills are named `pdf` (`kitchen/pdf` and `office/pdf`)"),
        "{err}"
    );
    assert!(!dir.join("pdf").exists());
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn plans_print_and_serialise() {
    let base = scratch("plan");
    let v1 = skills(&base.join("v1"), &[("group/alpha", "One.")]);
    let target = Target::new(base.join("installed"), "installer");
    let plan = install::plan(v1.skills(), &target, &WriteOptions::default()).unwrap();
    assert_eq!(plan.to_string(), "alpha missing (write)\n");
    let json = serde_json::to_value(&plan).unwrap();
    assert_eq!(json["skills"][0]["path"], "alpha");
    assert_eq!(json["skills"][0]["state"], "missing");
    assert_eq!(json["skills"][0]["action"], "write");
    let applied = plan.apply();
    assert!(applied[0].error.is_none());
    let again = install::plan(v1.skills(), &target, &WriteOptions::default()).unwrap();
    assert_eq!(again.items()[0].state, State::UpToDate);
    assert!(again.is_noop());
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn intercept_takes_only_the_skill_subcommand() {
    let base = scratch("intercept");
    let v1 = skills(&base.join("v1"), &[("alpha", "One.")]);
    let tool = installer(&v1);
    assert!(tool.intercept_from(["mytool", "serve"]).is_none());
    assert!(tool.intercept_from(["mytool"]).is_none());
    let dir = base.join("installed");
    let code = tool.intercept_from(["mytool", "skill", "install", "--dir", dir.to_str().unwrap()]);
    assert_eq!(
        format!("{code:?}"),
        format!("{:?}", Some(std::process::ExitCode::SUCCESS))
    );
    assert!(dir.join("alpha/SKILL.md").is_file());
    fs::remove_dir_all(&base).unwrap();
}

/// The installer example, as its users run it.
fn example() -> Command {
    Command::new(examples::executable("installer"))
}

fn example_run(args: &[&str]) -> (i32, String, String) {
    let output = example().args(args).output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn the_example_keeps_the_issues_interface() {
    let base = scratch("example");
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap();
    let (code, out, _) = example_run(&["install", "--dir", dir_arg, "--dry-run"]);
    assert_eq!(code, 0, "{out}");
    assert!(!dir.join("stock-audit").exists());
    let (code, out, _) = example_run(&["install", "--dir", dir_arg]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = example_run(&["list", "--dir", dir_arg]);
    assert_eq!(code, 0);
    assert_eq!(
        lines(&out),
        [
            "recipe-scaling up-to-date",
            "purchase-orders up-to-date",
            "stock-audit up-to-date"
        ]
    );
    let script = dir.join("stock-audit/scripts/variance_report.py");
    assert_eq!(mode(&script) & 0o111, 0o111);
    write(&dir.join("purchase-orders/SKILL.md"), "edited\n");
    let (code, _, err) = example_run(&["install", "--dir", dir_arg]);
    assert_eq!(code, 1);
    assert!(err.contains("--force"), "{err}");
    let (code, _, _) = example_run(&["install", "--dir", dir_arg, "--force"]);
    assert_eq!(code, 0);
    let (code, out, _) = example_run(&["uninstall", "--dir", dir_arg]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
    // Usage errors exit 2 (clap's own).
    let (code, _, err) = example_run(&["install", "--dir", dir_arg, "--agent", "emacs"]);
    assert_eq!(code, 2, "{err}");
    fs::remove_dir_all(&base).unwrap();
}

#[test]
fn skill_embed_installs_are_recognised() {
    // `tests/fixtures/skill-embed/stock-audit.SKILL.md` is what skill-embed
    // 0.1.0 (`with_tool_name("installer")`) wrote for the example skill.
    let base = scratch("skill-embed");
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let stamped = || {
        let _ = fs::remove_dir_all(&dir);
        copy_tree(
            &repo.join("examples/skills/stock-audit"),
            &dir.join("stock-audit"),
        );
        fs::copy(
            repo.join("tests/fixtures/skill-embed/stock-audit.SKILL.md"),
            dir.join("stock-audit/SKILL.md"),
        )
        .unwrap();
    };
    stamped();
    let (_, out, _) = example_run(&["list", "--dir", dir_arg]);
    assert!(lines(&out).contains(&"stock-audit outdated"), "{out}");
    let (code, out, _) = example_run(&["install", "--dir", dir_arg]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("installed by skill-embed (version 0.1.0)"),
        "{out}"
    );
    // Our install: the stamp gone, every file byte-identical, a record beside.
    assert_eq!(
        fs::read(dir.join("stock-audit/SKILL.md")).unwrap(),
        fs::read(repo.join("examples/skills/stock-audit/SKILL.md")).unwrap()
    );
    assert!(dir.join("stock-audit/.skills-runtime.json").is_file());
    let (_, out, _) = example_run(&["list", "--dir", dir_arg]);
    assert!(lines(&out).contains(&"stock-audit up-to-date"), "{out}");

    // Edited after skill-embed installed it: modified, kept.
    stamped();
    write(
        &dir.join("stock-audit/references/discrepancy-codes.md"),
        "mine\n",
    );
    let (code, out, _) = example_run(&["install", "--dir", dir_arg]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("stock-audit modified:"), "{out}");
    assert_eq!(
        fs::read_to_string(dir.join("stock-audit/references/discrepancy-codes.md")).unwrap(),
        "mine\n"
    );
    // Uninstall removes an unedited one and keeps an edited one.
    stamped();
    let (code, out, _) = example_run(&["uninstall", "--dir", dir_arg]);
    assert_eq!((code, out.as_str()), (0, "stock-audit: removed\n"));
    assert!(!dir.join("stock-audit").exists());
    stamped();
    write(&dir.join("stock-audit/assets/mine.txt"), "mine\n");
    let (code, out, _) = example_run(&["uninstall", "--dir", dir_arg]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("stock-audit: kept"), "{out}");
    assert!(dir.join("stock-audit/assets/mine.txt").exists());
    // Another tool's stamp stays foreign.
    stamped();
    let skill_md = fs::read_to_string(dir.join("stock-audit/SKILL.md")).unwrap();
    write(
        &dir.join("stock-audit/SKILL.md"),
        &skill_md.replace("x-embedded-by: installer", "x-embedded-by: other-tool"),
    );
    let (_, out, _) = example_run(&["list", "--dir", dir_arg]);
    assert!(lines(&out).contains(&"stock-audit foreign"), "{out}");
    fs::remove_dir_all(&base).unwrap();
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// Runs `args` on another thread and gives up after a generous deadline:
/// a FIFO opened for reading would block the run forever.
fn run_within_deadline(loaded: &Loaded, args: &[&str]) -> (u8, String, String) {
    let root = loaded.root().to_path_buf();
    let args: Vec<String> = args.iter().map(|arg| (*arg).to_owned()).collect();
    let (done, result) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let loaded = load(&root, &skills_runtime::load::Options::default()).unwrap();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let _ = done.send(run(&installer(&loaded), &args));
    });
    result
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the run ended (nothing in the destination may block it)")
}

/// The orphan search reads the record and `SKILL.md` of every folder in the
/// destination, a cloned repository's `.agents/skills` in project scope: a
/// FIFO there must not block it, a link to `/dev/zero` must not be read,
/// and what it prints of a record's name cannot act on a terminal.
#[test]
fn the_orphan_search_opens_no_fifo_reads_no_device_and_escapes_names() {
    let base = scratch("hostile-destination");
    let v1 = skills(&base.join("v1"), &[("alpha", "One.")]);
    let dir = base.join("installed");
    let dir_arg = dir.to_str().unwrap().to_owned();
    let (code, out, _) = run(&installer(&v1), &["install", "--dir", &dir_arg]);
    assert_eq!(code, 0, "{out}");
    let mkfifo = |path: &Path| {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        let made = Command::new("mkfifo").arg(path).status().unwrap();
        assert!(made.success());
    };
    mkfifo(&dir.join("fifo-record/.skills-runtime.json"));
    mkfifo(&dir.join("fifo-skill/SKILL.md"));
    fs::create_dir_all(dir.join("zero")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero/SKILL.md")).unwrap();
    // An orphan of this installer whose recorded name is hostile.
    let record = fs::read_to_string(dir.join("alpha/.skills-runtime.json")).unwrap();
    let hostile = record.replacen(
        "\"alpha\"",
        "\"x\\u001b]0;pwned\\u0007\\n::stop-commands::t\"",
        1,
    );
    assert_ne!(hostile, record);
    write(&dir.join("gone/.skills-runtime.json"), &hostile);
    write(&dir.join("gone/SKILL.md"), &skill_md("gone", "Gone."));

    for args in [
        &["list", "--dir", &dir_arg][..],
        &["install", "--dir", &dir_arg, "--dry-run"],
        &["uninstall", "--dir", &dir_arg, "--dry-run"],
    ] {
        let (_, out, err) = run_within_deadline(&v1, args);
        for output in [&out, &err] {
            assert!(
                !output.contains('\u{1b}') && !output.contains('\u{7}'),
                "{args:?}: {output:?}"
            );
            assert!(
                !output.lines().any(|line| line.starts_with("::")),
                "{args:?}: {output:?}"
            );
        }
        if args[0] != "list" {
            assert!(
                out.contains(r"x\u{1b}]0;pwned\u{7}\n::stop-commands::t"),
                "{args:?}: {out}"
            );
        }
    }
    fs::remove_dir_all(&base).unwrap();
}
