//! Rebuild tracking: a build script must tell Cargo to rebuild when the
//! skills folder changes, since a proc macro cannot watch a folder on stable
//! Rust. (Resolving the folder itself is `skills_core::root`'s job, shared
//! with every front end.)

use std::path::{Path, PathBuf};

use skills_core::root::{ResolvedRoot, relative_to};

/// What the crate's build script told Cargo, read back from its `output` file.
#[derive(Debug, Default)]
pub(crate) struct BuildScript {
    pub rerun_if_changed: Vec<PathBuf>,
    pub rerun_if_env_changed: Vec<String>,
}

impl BuildScript {
    /// Parses `cargo::key=value` (and the older `cargo:key=value`) lines.
    /// Relative paths are relative to the package, as Cargo reads them.
    pub(crate) fn parse(output: &str, manifest_dir: &Path) -> Self {
        let mut script = Self::default();
        for line in output.lines() {
            let Some(directive) = line
                .strip_prefix("cargo::")
                .or_else(|| line.strip_prefix("cargo:"))
            else {
                continue;
            };
            if let Some(path) = directive.strip_prefix("rerun-if-changed=") {
                script.rerun_if_changed.push(manifest_dir.join(path));
            } else if let Some(var) = directive.strip_prefix("rerun-if-env-changed=") {
                script.rerun_if_env_changed.push(var.to_owned());
            }
        }
        script
    }

    /// Whether Cargo re-runs the script, and so rebuilds the crate, when
    /// anything under `root` changes or any of `env_vars` does.
    pub(crate) fn tracks(&self, root: &Path, env_vars: &[String], manifest_dir: &Path) -> bool {
        let root = canonical(root);
        let watched = if self.rerun_if_changed.is_empty() {
            // Without any rerun-if-changed, Cargo watches the whole package.
            root.starts_with(canonical(manifest_dir))
        } else {
            self.rerun_if_changed
                .iter()
                .any(|path| root.starts_with(canonical(path)))
        };
        watched
            && env_vars
                .iter()
                .all(|var| self.rerun_if_env_changed.contains(var))
    }
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Whether `out_dir` is the build-script output folder of `package`
/// (`target/…/build/<package>-<hash>/out`). Cargo passes its environment to
/// child processes, so a crate compiled from inside a test (trybuild) can see
/// the `OUT_DIR` of another package; that one says nothing about this crate.
pub(crate) fn belongs_to(out_dir: &Path, package: &str) -> bool {
    out_dir
        .parent()
        .and_then(Path::file_name)
        .and_then(|name| name.to_str())
        .is_some_and(|name| {
            name.strip_prefix(package)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|hash| !hash.is_empty() && !hash.contains('-'))
        })
}

/// Checks that a build script makes Cargo rebuild when the tree changes.
///
/// A proc macro cannot watch a folder on stable Rust: edits to known files
/// could be tracked, but a file added to the tree would not rebuild the
/// crate, and the binary would serve stale skills. The known fix is a build
/// script with `cargo::rerun-if-changed=<folder>`; Cargo leaves its output
/// next to `OUT_DIR`, so we read it back to check. The message says which of
/// the two cases it is: no build script at all, or one that watches other
/// paths.
pub(crate) fn check_tracking(
    root: &ResolvedRoot,
    manifest_dir: &Path,
    out_dir: Option<&Path>,
) -> Result<(), String> {
    let folder = relative_to(&root.path, manifest_dir).display().to_string();
    let mut lines = Vec::new();
    for var in &root.env_vars {
        lines.push(format!("println!(\"cargo::rerun-if-env-changed={var}\");"));
    }
    match root.env_vars.first() {
        None => lines.push(format!("println!(\"cargo::rerun-if-changed={folder}\");")),
        Some(first) => lines.push(format!(
            "println!(\"cargo::rerun-if-changed={{}}\", std::env::var(\"{first}\").unwrap_or(\"…\".into()));"
        )),
    }
    let lines = lines.join(" ");
    let opt_out = format!(
        "or opt out with `embed_skills!(\"{}\", untracked)` and rebuild by hand after adding files",
        root.display
    );
    let stale =
        "so a file added to it would not rebuild the crate and the binary would serve stale skills";
    let variables = if root.env_vars.is_empty() {
        String::new()
    } else {
        format!(" and the variable `{}`", root.env_vars.join("`, `"))
    };
    let Some(out_dir) = out_dir else {
        let has_file = manifest_dir.join("build.rs").is_file();
        return Err(if has_file {
            format!(
                "the skills folder `{}` is not watched: this crate has a build.rs, but Cargo does not run it (is `build = false` set in Cargo.toml, or the script named otherwise?), {stale}\n  help: make Cargo run it, with `fn main() {{ {lines} }}`; {opt_out}",
                root.display
            )
        } else {
            format!(
                "the skills folder `{}` is not watched: this crate has no build script, {stale}\n  help: add a build.rs next to Cargo.toml: `fn main() {{ {lines} }}`; {opt_out}",
                root.display
            )
        });
    };
    // Cargo writes the script's directives to `<OUT_DIR>/../output`. When it is
    // not there (another build system, a future Cargo), there is nothing to check.
    let Ok(output) = std::fs::read_to_string(out_dir.with_file_name("output")) else {
        return Ok(());
    };
    let script = BuildScript::parse(&output, manifest_dir);
    if script.tracks(&root.path, &root.env_vars, manifest_dir) {
        return Ok(());
    }
    let watched: Vec<String> = script
        .rerun_if_changed
        .iter()
        .map(|path| format!("`{}`", relative_to(path, manifest_dir).display()))
        .collect();
    let watched = if watched.is_empty() {
        String::new()
    } else {
        format!(" (it watches {})", watched.join(", "))
    };
    Err(format!(
        "the build script does not watch the skills folder `{}`{variables}{watched}, {stale}\n  help: add to its `main`: `{lines}`; {opt_out}",
        root.display
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_dirs_belong_to_their_package() {
        let out = |path: &str| PathBuf::from(path);
        assert!(belongs_to(
            &out("/t/debug/build/my-crate-0a1b2c/out"),
            "my-crate"
        ));
        assert!(!belongs_to(
            &out("/t/debug/build/my-crate-tests-0a1b/out"),
            "my-crate"
        ));
        assert!(!belongs_to(
            &out("/t/debug/build/other-0a1b/out"),
            "my-crate"
        ));
        assert!(!belongs_to(&out("/out"), "my-crate"));
    }

    #[test]
    fn reads_the_build_script_output() {
        let dir =
            std::env::temp_dir().join(format!("skills-macros-resolve-{}", std::process::id()));
        let skills = dir.join("skills");
        std::fs::create_dir_all(skills.join("pdf")).unwrap();
        let root = skills_core::root::resolve("skills", &dir, None, |_| None).unwrap();
        let watched = BuildScript::parse("cargo::rerun-if-changed=skills\n", &dir);
        assert!(watched.tracks(&root.path, &[], &dir));
        let parent = BuildScript::parse("cargo:rerun-if-changed=.\n", &dir);
        assert!(parent.tracks(&root.path, &[], &dir));
        let other = BuildScript::parse("cargo::rerun-if-changed=build.rs\n", &dir);
        assert!(!other.tracks(&root.path, &[], &dir));
        let nothing = BuildScript::parse("cargo::rustc-env=X=1\n", &dir);
        assert!(
            nothing.tracks(&root.path, &[], &dir),
            "no directive watches the package"
        );
        let env_vars = vec!["SKILLS_DIR".to_owned()];
        assert!(!watched.tracks(&root.path, &env_vars, &dir));
        let both = BuildScript::parse(
            "cargo::rerun-if-env-changed=SKILLS_DIR\ncargo::rerun-if-changed=skills\n",
            &dir,
        );
        assert!(both.tracks(&root.path, &env_vars, &dir));

        let message = check_tracking(&root, &dir, None).unwrap_err();
        assert!(
            message.contains("cargo::rerun-if-changed=skills"),
            "{message}"
        );
        assert!(message.contains("has no build script"), "{message}");
        std::fs::write(dir.join("build.rs"), "fn main() {}").unwrap();
        let message = check_tracking(&root, &dir, None).unwrap_err();
        assert!(
            message.contains("has a build.rs, but Cargo does not run it"),
            "{message}"
        );
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(dir.join("output"), "cargo::rerun-if-changed=build.rs\n").unwrap();
        let message = check_tracking(&root, &dir, Some(&out)).unwrap_err();
        assert!(
            message.contains("does not watch the skills folder `skills` (it watches `build.rs`)"),
            "{message}"
        );
        assert!(message.contains("add to its `main`"), "{message}");
        std::fs::write(dir.join("output"), "cargo::rerun-if-changed=skills\n").unwrap();
        assert!(check_tracking(&root, &dir, Some(&out)).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
