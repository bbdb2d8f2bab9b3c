//! `skills new` and `skills init`: what they write, that what they write
//! passes the rules, that a bad name gets the rule book's message, and that
//! running them twice changes nothing. (That a new skill and the trybuild
//! recipe compile with `embed_skills!` is checked on a scratch crate by
//! `tests/pack-recipe.sh`, which `.ci/run` runs.)

use crate::support;

use std::collections::BTreeMap;
use std::os::unix::fs::FileTypeExt as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::{TempDir, skills, workspace};

/// Every file under `root` with its text.
fn snapshot(root: &Path) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                files.insert(rel, std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    files
}

/// A crate like `cargo new` makes, with `main` as its source file.
fn new_crate(dir: &TempDir, name: &str, main: &str) {
    new_crate_in(dir, "", name, main);
}

/// [`new_crate`] in the folder `prefix` of `dir`.
fn new_crate_in(dir: &TempDir, prefix: &str, name: &str, main: &str) {
    dir.write(
        &format!("{prefix}Cargo.toml"),
        &format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n[dependencies]\n"),
    );
    dir.write(&format!("{prefix}{main}"), "fn main() {}\n");
}

#[test]
fn a_new_skill_passes_the_rules() {
    let dir = TempDir::new("new");
    let run = skills(dir.path(), &["new", "pdf-tools"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout.lines().next(),
        Some("created ./pdf-tools/SKILL.md")
    );
    // It passes, with a warning until the author writes the description.
    let check = skills(dir.path(), &["check", "pdf-tools"]);
    assert_eq!(check.code, 0, "{check:?}");
    assert!(
        check.stdout.contains("warning[placeholder-description]")
            && check.stdout.contains("pdf-tools/SKILL.md:3:14"),
        "{}",
        check.stdout
    );
    assert_eq!(
        skills(dir.path(), &["check", "--deny-warnings", "pdf-tools"]).code,
        1
    );
    let skill_md = dir.path().join("pdf-tools/SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    let start = text.find("description: ").unwrap() + "description: ".len();
    let end = start + text[start..].find('\n').unwrap();
    let mut described = text.clone();
    described.replace_range(
        start..end,
        "Fills PDF forms. Use when the user shares a PDF form.",
    );
    std::fs::write(&skill_md, described).unwrap();
    let check = skills(dir.path(), &["check", "--deny-warnings", "pdf-tools"]);
    assert_eq!(check.code, 0, "{check:?}");
    // In a crate, it goes to `skills/`.
    new_crate(&dir, "larder", "src/main.rs");
    let run = skills(dir.path(), &["new", "stock-audit"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(dir.path().join("skills/stock-audit/SKILL.md").is_file());
    let check = skills(dir.path(), &["check", "skills"]);
    assert_eq!(check.code, 0, "{check:?}");
    // A second `new` of the same name refuses and changes nothing.
    let before = snapshot(dir.path());
    let again = skills(dir.path(), &["new", "stock-audit"]);
    assert_eq!(again.code, 1, "{again:?}");
    assert!(
        again.stderr.contains("skills/stock-audit already exists"),
        "{}",
        again.stderr
    );
    assert_eq!(snapshot(dir.path()), before);
}

#[test]
fn a_bad_name_gets_the_rule_books_message() {
    let dir = TempDir::new("bad-name");
    for (name, rule, message) in [
        (
            "PDF_Tools",
            "name-format",
            "the name `PDF_Tools` contains the uppercase letter `P`; names are lowercase",
        ),
        (
            "pdf--tools",
            "name-format",
            "the name `pdf--tools` contains two hyphens in a row",
        ),
        (
            &"a".repeat(65),
            "field-length",
            "`name` is 65 characters long, 1 over the limit of 64",
        ),
    ] {
        let run = skills(dir.path(), &["new", name]);
        assert_eq!(run.code, 1, "{name}: {run:?}");
        assert!(
            run.stderr
                .starts_with(&format!("error[{rule}]: {message}\n--> ./{name}\n")),
            "{name}: {}",
            run.stderr
        );
        // The same words the loader uses for the same name in a SKILL.md.
        let loaded = TempDir::new("bad-name-loaded");
        loaded.write(&format!("s/{name}/SKILL.md"), &support::skill_md(name, ""));
        let check = skills(loaded.path(), &["check", "s"]);
        assert!(
            check.stdout.contains(&format!("error[{rule}]: {message}")),
            "{name}: {}",
            check.stdout
        );
    }
    assert!(
        skills(dir.path(), &["new", "PDF_Tools"])
            .stderr
            .contains("like `pdf-tools`")
    );
    assert!(snapshot(dir.path()).is_empty(), "nothing was created");
}

#[test]
fn init_adds_the_quickstart_once() {
    let dir = TempDir::new("init");
    new_crate(&dir, "larder", "src/main.rs");
    let runtime = workspace().join("skills-runtime");
    let run = skills(dir.path(), &["init", "--path", runtime.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{run:?}");
    let manifest = dir.read("Cargo.toml");
    let relative = format!(
        "skills-runtime = {{ path = \"{}\" }}",
        pathdiff(&runtime, dir.path())
    );
    assert!(manifest.contains(&relative), "{manifest}");
    // The build-override only on request: it slows the first build.
    assert!(!manifest.contains("build-override"), "{manifest}");
    assert!(
        dir.read("build.rs")
            .contains("println!(\"cargo::rerun-if-changed=skills\");")
    );
    assert!(
        run.stdout.contains(
            "todo     src/main.rs: paste `static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!(\"skills\");`"
        ),
        "{}",
        run.stdout
    );
    // Twice changes nothing.
    let before = snapshot(dir.path());
    let again = skills(dir.path(), &["init", "--path", runtime.to_str().unwrap()]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again.stdout.ends_with("nothing changed\n"),
        "{}",
        again.stdout
    );
    assert!(!again.stdout.contains("changed  "), "{}", again.stdout);
    assert_eq!(snapshot(dir.path()), before);
    // `--path` without a value: the clone this binary was built from.
    let other = TempDir::new("init-default-path");
    new_crate(&other, "other", "src/main.rs");
    let run = skills(other.path(), &["init", "--path"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        other
            .read("Cargo.toml")
            .contains(&format!("path = \"{}\"", pathdiff(&runtime, other.path()))),
        "{}",
        other.read("Cargo.toml")
    );
}

#[test]
fn init_turns_cargo_news_crate_into_the_quickstart() {
    let dir = TempDir::new("init-cargo-new");
    new_crate(&dir, "larder", "src/main.rs");
    // What `cargo new` writes: nothing of the author's to keep.
    dir.write(
        "src/main.rs",
        "fn main() {\n    println!(\"Hello, world!\");\n}\n",
    );
    let runtime = workspace().join("skills-runtime");
    let run = skills(dir.path(), &["init", "--path", runtime.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{run:?}");
    let manifest = dir.read("Cargo.toml");
    for line in [
        "rmcp = { version = \"3.11\", features = [\"server\", \"transport-io\"] }\n",
        "tokio = { version = \"1\", features = [\"macros\", \"rt\"] }\n",
    ] {
        assert!(manifest.contains(line), "{line} in {manifest}");
    }
    let main = dir.read("src/main.rs");
    assert!(
        main.contains("static SKILLS: Skills = embed_skills!(\"skills\");"),
        "{main}"
    );
    assert!(main.contains("rmcp::transport::stdio_pipes()"), "{main}");
    assert!(
        !run.stdout.contains("todo     src/main.rs"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("changed  src/main.rs: replaced `cargo new`'s hello world"),
        "{}",
        run.stdout
    );
    // Twice changes nothing.
    let before = snapshot(dir.path());
    let again = skills(dir.path(), &["init", "--path", runtime.to_str().unwrap()]);
    assert!(
        again.stdout.ends_with("nothing changed\n"),
        "{}",
        again.stdout
    );
    assert!(
        again
            .stdout
            .contains("ok       Cargo.toml: depends on rmcp"),
        "{}",
        again.stdout
    );
    assert_eq!(snapshot(dir.path()), before);
    // A main of the author's is left alone: the line to paste is printed.
    let own = TempDir::new("init-own-main");
    new_crate(&own, "own", "src/main.rs");
    own.write("src/main.rs", "fn main() {\n    println!(\"mine\");\n}\n");
    let run = skills(own.path(), &["init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        own.read("src/main.rs"),
        "fn main() {\n    println!(\"mine\");\n}\n"
    );
    assert!(
        run.stdout.contains("todo     src/main.rs: paste"),
        "{}",
        run.stdout
    );
    // The help says what it does.
    let help = skills(own.path(), &["init", "--help"]);
    assert!(help.stdout.contains("rmcp and tokio"), "{}", help.stdout);
    assert!(help.stdout.contains("line to paste"), "{}", help.stdout);
}

#[test]
fn init_merges_into_an_existing_build_script_and_library() {
    let dir = TempDir::new("init-merge");
    new_crate(&dir, "pdf-pack", "src/lib.rs");
    dir.write(
        "build.rs",
        "fn main() {\n    println!(\"cargo::rerun-if-changed=proto\");\n}\n",
    );
    let run = skills(
        dir.path(),
        &[
            "init",
            "--path",
            workspace().to_str().unwrap(),
            "--skills",
            "assets/skills",
        ],
    );
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        dir.read("build.rs"),
        "fn main() {\n    println!(\"cargo::rerun-if-changed=assets/skills\");\n    println!(\"cargo::rerun-if-changed=proto\");\n}\n"
    );
    // A library ships a pack: no server feature, no rmcp nor tokio, a `pub static`.
    assert!(!dir.read("Cargo.toml").contains("rmcp"));
    assert!(
        dir.read("Cargo.toml")
            .contains("default-features = false }"),
        "{}",
        dir.read("Cargo.toml")
    );
    assert!(
        run.stdout
            .contains("paste `pub static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!(\"assets/skills\");`"),
        "{}",
        run.stdout
    );
    // A script without any rerun-if-changed already reruns on every change.
    let plain = TempDir::new("init-plain-script");
    new_crate(&plain, "plain", "src/main.rs");
    plain.write(
        "build.rs",
        "fn main() { println!(\"cargo::rustc-cfg=x\"); }\n",
    );
    let run = skills(plain.path(), &["init"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        plain.read("build.rs"),
        "fn main() { println!(\"cargo::rustc-cfg=x\"); }\n"
    );
    assert!(
        run.stdout.contains("prints no rerun-if-changed"),
        "{}",
        run.stdout
    );
    // Without --path, the dependency line is printed, not written.
    assert!(
        run.stdout
            .contains("todo     Cargo.toml: add `skills-runtime = { path = "),
        "{}",
        run.stdout
    );
    assert!(!plain.read("Cargo.toml").contains("skills-runtime"));
}

#[test]
fn init_writes_the_profile_in_the_workspace_root() {
    let dir = TempDir::new("init-workspace");
    dir.write(
        "Cargo.toml",
        "[workspace]\nmembers = [\"server\"]\nresolver = \"3\"\n",
    );
    new_crate_in(&dir, "server/", "server", "src/main.rs");
    let run = skills(&dir.path().join("server"), &["init", "--build-override"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        dir.read("Cargo.toml")
            .ends_with("[profile.dev.build-override]\nopt-level = 3\n"),
        "{}",
        dir.read("Cargo.toml")
    );
    assert!(!dir.read("server/Cargo.toml").contains("profile"));
}

#[test]
fn the_test_recipe_is_written_once() {
    let dir = TempDir::new("recipe");
    new_crate(&dir, "pdf-pack", "src/lib.rs");
    let run = skills(dir.path(), &["new", "pdf-forms", "--tests"]);
    assert_eq!(run.code, 0, "{run:?}");
    for file in [
        "tests/skills.rs",
        "tests/skills/pass/embed.rs",
        "tests/skills/ui/name_mismatch.rs",
        "tests/skills/ui/fixtures/name-mismatch/pdf/SKILL.md",
    ] {
        assert!(dir.path().join(file).is_file(), "{file}");
    }
    assert!(
        dir.read("Cargo.toml")
            .contains("[dev-dependencies]\ntrybuild = \"1.0\"")
    );
    assert!(
        dir.read("tests/skills/pass/embed.rs")
            .contains("embed_skills!(\"./../../../skills\", untracked)")
    );
    // The broken fixture is broken the way its name says.
    let check = skills(
        &dir.path().join("tests/skills/ui"),
        &["check", "./fixtures/name-mismatch"],
    );
    assert_eq!(check.code, 1);
    assert!(
        check.stdout.contains("error[name-mismatch]"),
        "{}",
        check.stdout
    );
    // `init --tests` adds the rest of the Quickstart; a second run, nothing.
    assert_eq!(skills(dir.path(), &["init", "--tests"]).code, 0);
    let before = snapshot(dir.path());
    let again = skills(dir.path(), &["init", "--tests"]);
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again.stdout.ends_with("nothing changed\n"),
        "{}",
        again.stdout
    );
    assert_eq!(snapshot(dir.path()), before, "{}", again.stdout);
}

/// `path` relative to `base`, `/`-separated (both absolute, canonical).
fn pathdiff(path: &Path, base: &Path) -> String {
    let path = path.canonicalize().unwrap();
    let base = base.canonicalize().unwrap();
    let common = path
        .components()
        .zip(base.components())
        .take_while(|(a, b)| a == b)
        .count();
    let ups = base.components().count() - common;
    let mut parts: Vec<String> = vec!["..".to_owned(); ups];
    parts.extend(
        path.components()
            .skip(common)
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

#[test]
fn init_reads_no_fifo_a_cloned_crate_holds() {
    // A crate checked out from someone else: `src/lib.rs` is a FIFO (a
    // link to `/dev/zero` would be read the same way, without end). `init`
    // must not block on it, nor read what it is not.
    let dir = TempDir::new("init-fifo");
    new_crate(&dir, "cloned", "src/main.rs");
    let fifo = dir.path().join("src/lib.rs");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let runtime = workspace().join("skills-runtime");
    let mut child = Command::new(support::SKILLS)
        .args(["init", "--path", runtime.to_str().unwrap()])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("`skills init` blocked on the FIFO at src/lib.rs");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("src/main.rs"), "{stdout}");
    assert!(
        std::fs::symlink_metadata(&fifo)
            .unwrap()
            .file_type()
            .is_fifo(),
        "the FIFO is left as it is"
    );
}
