//! Rebuild tracking with a real Cargo. A probe crate embeds `skills/` and has
//! the one-line build script the macro asks for; after each change to the
//! tree, `cargo build` must recompile it and the binary must list exactly
//! what is on disk, and with nothing changed it must not recompile. Without
//! the build script, the build fails and says which line to add.
//!
//! Unix only: a deleted file shows only in its folder's mtime, which is set
//! here through a file descriptor of the folder.
#![cfg(unix)]

use crate::support;

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, SystemTime};

use support::{TempDir, files_on_disk, sha256_digest};

const PROBE: &str = "skills-rebuild-probe";
/// The probe without a build script.
const UNWATCHED: &str = "skills-unwatched-probe";

const BUILD_RS: &str = r#"fn main() {
    println!("cargo::rerun-if-changed=skills");
}
"#;

const MAIN_RS: &str = r#"static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("skills");

fn main() {
    for skill in SKILLS.skills() {
        for file in skill.files() {
            println!("{}\t{}\t{}", skill.path(), file.path(), file.digest());
        }
    }
}
"#;

/// `(skill path, file path)` → digest, as the probe prints it.
type Listing = BTreeMap<(String, String), String>;

/// A crate outside the workspace that embeds its `skills/` folder. Its target
/// folder is shared between runs, so its dependencies build once.
struct Probe {
    name: &'static str,
    dir: TempDir,
    target_dir: PathBuf,
}

impl Probe {
    fn new() -> Self {
        Self::crate_named(PROBE, Some(BUILD_RS))
    }

    /// The crate `name`, with `build_rs` as its build script or none.
    fn crate_named(name: &'static str, build_rs: Option<&str>) -> Self {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let workspace = workspace.canonicalize().expect("the workspace exists");
        let target_dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .parent()
            .expect("the scratch space lies in the target folder")
            .join("rebuild-test");
        let probe = Self {
            name,
            dir: TempDir::new_in(&std::env::temp_dir(), name),
            target_dir,
        };
        let runtime = workspace.join("skills-runtime");
        let manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nskills-runtime = {{ path = {:?}, default-features = false }}\n\n\
             # Its own workspace, wherever the temporary folder is.\n[workspace]\n",
            runtime.to_str().expect("the workspace path is UTF-8"),
        );
        probe.create("Cargo.toml", &manifest);
        if let Some(build_rs) = build_rs {
            probe.create("build.rs", build_rs);
        }
        probe.create("src/main.rs", MAIN_RS);
        // The workspace's versions, which are already downloaded: `--offline` works.
        std::fs::copy(workspace.join("Cargo.lock"), probe.path("Cargo.lock"))
            .expect("the workspace lock file can be copied");
        for name in ["alpha", "beta"] {
            probe.create(&format!("skills/{name}/SKILL.md"), &skill_md(name));
        }
        probe.create(
            "skills/alpha/references/notes.md",
            "# Notes\n\nFirst draft.\n",
        );
        probe
    }

    fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn create(&self, rel: &str, contents: &str) {
        let path = self.path(rel);
        std::fs::create_dir_all(path.parent().expect("a file has a folder"))
            .expect("the folder can be created");
        std::fs::write(&path, contents).expect("the file can be written");
    }

    /// Writes a file, then stamps it and every folder above it up to the crate
    /// clearly later than any build so far, even on a clock that counts
    /// whole seconds.
    fn write(&self, rel: &str, contents: &str) {
        self.create(rel, contents);
        self.touch_with_parents(rel);
    }

    /// Deletes a file and stamps the folders above it, as [`Self::write`] does.
    fn remove(&self, rel: &str) {
        std::fs::remove_file(self.path(rel)).expect("the file can be removed");
        self.touch_with_parents(Path::new(rel).parent().expect("a file has a folder"));
    }

    fn touch_with_parents(&self, rel: impl AsRef<Path>) {
        let later = SystemTime::now() + Duration::from_secs(2);
        for ancestor in rel.as_ref().ancestors() {
            set_mtime(&self.path(ancestor), later);
        }
    }

    /// Stamps every file and folder of the crate an hour ago, so that nothing
    /// is newer than the last build, including the stamps [`Self::write`] put
    /// in the future.
    fn settle(&self) {
        stamp_tree(
            self.dir.path(),
            SystemTime::now() - Duration::from_secs(3600),
        );
    }

    /// Builds the probe; returns whether Cargo compiled it again, and its log.
    fn build(&self) -> (bool, String) {
        let (built, log) = self.try_build();
        assert!(built, "cargo build failed:\n{log}");
        let recompiled = log.contains(&format!("Compiling {} ", self.name));
        (recompiled, log)
    }

    /// Builds the probe; returns whether the build succeeded, and its log.
    fn try_build(&self) -> (bool, String) {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let output = Command::new(cargo)
            .arg("build")
            .arg("--offline")
            .arg("--manifest-path")
            .arg(self.path("Cargo.toml"))
            .arg("--target-dir")
            .arg(&self.target_dir)
            .args(["--color", "never"])
            // `cargo test` runs this test with this package's `OUT_DIR`; the
            // probe must see only its own.
            .env_remove("OUT_DIR")
            .output()
            .expect("cargo runs");
        let log = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.success(), log)
    }

    /// Runs the built probe (without building it) and parses what it lists.
    fn run(&self) -> Listing {
        let binary = self.target_dir.join("debug").join(self.name);
        let output = Command::new(&binary).output().expect("the probe runs");
        assert!(output.status.success(), "the probe failed");
        let stdout = String::from_utf8(output.stdout).expect("the probe prints UTF-8");
        stdout
            .lines()
            .map(|line| {
                let mut fields = line.split('\t');
                let mut next = || fields.next().expect("three fields").to_owned();
                ((next(), next()), next())
            })
            .collect()
    }

    /// The macro's memo of its last expansion, in the probe's OUT_DIR (the
    /// newest: the shared target folder keeps those of earlier test runs).
    fn memo(&self) -> Option<PathBuf> {
        let build = self.target_dir.join("debug").join("build");
        let mut memos: Vec<PathBuf> = std::fs::read_dir(build)
            .ok()?
            .flatten()
            .filter(|dir| dir.file_name().to_string_lossy().starts_with(self.name))
            .filter_map(|dir| std::fs::read_dir(dir.path().join("out")).ok())
            .flatten()
            .flatten()
            .map(|file| file.path())
            .filter(|path| {
                path.file_name().is_some_and(|name| {
                    name.to_string_lossy()
                        .starts_with("skills-macros-expansion-")
                })
            })
            .collect();
        memos.sort_by_key(|path| modified(path));
        memos.pop()
    }

    /// What the probe should list: every file of every skill on disk, hashed here.
    fn on_disk(&self) -> Listing {
        let skills = self.path("skills");
        let mut listing = Listing::new();
        for skill in support::skill_folders(&skills) {
            for (file, path) in files_on_disk(&skills.join(&skill)) {
                let bytes = std::fs::read(path).expect("the file can be read");
                listing.insert((skill.clone(), file), sha256_digest(&bytes));
            }
        }
        listing
    }

    /// Settles the tree, checks that a build with nothing changed does not
    /// recompile, applies `change`, and checks that the next build recompiles
    /// and lists what is on disk. Returns the listings before and after.
    fn rebuild_after(&self, change: impl FnOnce(&Self)) -> (Listing, Listing) {
        self.expect_no_op();
        let before = self.run();
        change(self);
        let (recompiled, log) = self.build();
        assert!(recompiled, "the change did not recompile the probe:\n{log}");
        let after = self.run();
        assert_eq!(after, self.on_disk(), "the binary is stale:\n{log}");
        (before, after)
    }

    fn expect_no_op(&self) {
        self.settle();
        let (recompiled, log) = self.build();
        assert!(!recompiled, "nothing changed, but Cargo recompiled:\n{log}");
    }
}

fn skill_md(name: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: The {name} skill. Use when testing rebuilds.\n---\n\n# {name}\n"
    )
}

/// Stamps `path` and, if it is a folder, everything below it.
fn stamp_tree(path: &Path, time: SystemTime) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).expect("the folder can be listed") {
            stamp_tree(&entry.expect("the entry can be read").path(), time);
        }
    }
    set_mtime(path, time);
}

fn set_mtime(path: &Path, time: SystemTime) {
    File::open(path)
        .and_then(|file| file.set_modified(time))
        .unwrap_or_else(|error| panic!("cannot stamp {}: {error}", path.display()));
}

fn key(skill: &str, file: &str) -> (String, String) {
    (skill.to_owned(), file.to_owned())
}

#[test]
fn cargo_rebuilds_exactly_when_the_skills_tree_changes() {
    let probe = Probe::new();
    let (_, log) = probe.build();
    assert_eq!(probe.run(), probe.on_disk(), "first build:\n{log}");
    assert_eq!(probe.run().len(), 3);

    // (a) A changed file.
    let notes = key("alpha", "references/notes.md");
    let (before, after) = probe.rebuild_after(|probe| {
        probe.write(
            "skills/alpha/references/notes.md",
            "# Notes\n\nSecond draft.\n",
        );
    });
    assert_ne!(before[&notes], after[&notes]);
    assert_eq!(after[&notes], sha256_digest(b"# Notes\n\nSecond draft.\n"));

    // (b) A new file in an existing skill.
    let (before, after) = probe.rebuild_after(|probe| {
        probe.write("skills/beta/references/added.md", "Added later.\n");
    });
    let added = key("beta", "references/added.md");
    assert!(!before.contains_key(&added) && after.contains_key(&added));

    // (c) A new skill.
    let (before, after) = probe.rebuild_after(|probe| {
        probe.write("skills/gamma/SKILL.md", &skill_md("gamma"));
    });
    let gamma = key("gamma", "SKILL.md");
    assert!(!before.contains_key(&gamma) && after.contains_key(&gamma));

    // (d) A deleted file.
    let (before, after) = probe.rebuild_after(|probe| {
        probe.remove("skills/alpha/references/notes.md");
    });
    assert!(before.contains_key(&notes) && !after.contains_key(&notes));

    // (e) Nothing changed: no recompilation.
    probe.expect_no_op();
    assert_eq!(probe.run(), probe.on_disk());

    // (f) A file saved without a change: Cargo recompiles the probe (it
    // cannot know), and the macro reuses its last expansion, so the memo in
    // OUT_DIR is not written again. Every content change above wrote it.
    let memo = probe
        .memo()
        .expect("a successful build leaves its expansion in OUT_DIR");
    let written = modified(&memo);
    let (before, after) = probe.rebuild_after(|probe| {
        probe.touch_with_parents("skills/beta/SKILL.md");
    });
    assert_eq!(before, after);
    assert_eq!(modified(&memo), written, "the expansion was made again");

    // (g) And an edit after it is seen: the memo does not serve the old tree.
    let (before, after) = probe.rebuild_after(|probe| {
        probe.write(
            "skills/beta/SKILL.md",
            &skill_md("beta").replace("testing", "probing"),
        );
    });
    assert_ne!(
        before[&key("beta", "SKILL.md")],
        after[&key("beta", "SKILL.md")]
    );
    assert_ne!(modified(&memo), written, "the new expansion was kept");
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|meta| meta.modified())
        .expect("the memo can be inspected")
}

/// A crate without a build script is told the one line to add, with the
/// folder as the crate names it: the Quickstart's line, whichever folder the
/// crate and its target folder are in.
#[test]
fn a_crate_without_a_build_script_is_told_the_line_to_add() {
    let probe = Probe::crate_named(UNWATCHED, None);
    let (built, log) = probe.try_build();
    assert!(!built, "the probe built without a build script:\n{log}");
    let lines: Vec<&str> = log.lines().map(str::trim).collect();
    let at = lines
        .iter()
        .position(|line| {
            *line
                == "error: the skills folder `skills` is not watched: this crate has no build script, \
                    so a file added to it would not rebuild the crate and the binary would serve stale skills"
        })
        .unwrap_or_else(|| panic!("no error about the build script:\n{log}"));
    assert_eq!(
        lines[at + 1],
        "help: add a build.rs next to Cargo.toml: `fn main() { println!(\"cargo::rerun-if-changed=skills\"); }`; \
         or opt out with `embed_skills!(\"skills\", untracked)` and rebuild by hand after adding files",
        "{log}"
    );
    assert!(
        lines[at + 2].starts_with("--> src/main.rs:1:"),
        "the error points at the macro call:\n{log}"
    );
}
