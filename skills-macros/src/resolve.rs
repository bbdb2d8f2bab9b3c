//! Resolve step: the string the user wrote → a folder on disk, plus the
//! rebuild tracking that keeps the binary in step with that folder.

use std::path::{Path, PathBuf};

/// The skills folder: where it is, how to name it in messages, and which
/// environment variables chose it.
#[derive(Debug)]
pub(crate) struct Root {
    pub path: PathBuf,
    pub display: String,
    pub env_vars: Vec<String>,
}

/// Expands `$VAR`, `${VAR}` and `${VAR:-default}` (`$$` is a literal `$`).
/// Returns the expanded text and the variables it read.
pub(crate) fn expand_env(
    text: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<(String, Vec<String>), String> {
    let mut out = String::with_capacity(text.len());
    let mut vars = Vec::new();
    let mut rest = text;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        rest = &rest[dollar + 1..];
        if let Some(after) = rest.strip_prefix('$') {
            out.push('$');
            rest = after;
            continue;
        }
        let (name, default, after) = if let Some(braced) = rest.strip_prefix('{') {
            let close = braced
                .find('}')
                .ok_or_else(|| format!("`${{` without a closing `}}` in `{text}`"))?;
            let inner = &braced[..close];
            let (name, default) = match inner.split_once(":-") {
                Some((name, default)) => (name, Some(default)),
                None => (inner, None),
            };
            (name, default, &braced[close + 1..])
        } else {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], None, &rest[end..])
        };
        if name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(format!(
                "`{text}` has a `$` that starts no variable name; write `$$` for a literal `$`"
            ));
        }
        vars.push(name.to_owned());
        match (lookup(name).filter(|value| !value.is_empty()), default) {
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return Err(format!(
                    "the environment variable `{name}` is not set; set it, or give a default: `${{{name}:-skills}}`"
                ));
            }
        }
        rest = after;
    }
    out.push_str(rest);
    Ok((out, vars))
}

/// Resolves the folder the user named.
///
/// Absolute paths are used as they are. A path starting with `./` is relative
/// to the file that calls the macro, like `include_str!` (this is what makes
/// trybuild fixtures work: under trybuild `CARGO_MANIFEST_DIR` is trybuild's
/// own project); any other relative path, `../shared-skills` included, is
/// relative to the crate's `CARGO_MANIFEST_DIR`.
pub(crate) fn root(
    written: &str,
    manifest_dir: &Path,
    calling_file: Option<&Path>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<Root, String> {
    let (expanded, env_vars) = expand_env(written, lookup)?;
    if expanded.is_empty() {
        return Err("the skills folder is an empty path".to_owned());
    }
    let as_path = Path::new(&expanded);
    let path = if as_path.is_absolute() {
        as_path.to_path_buf()
    } else if expanded.starts_with("./") {
        match calling_file.and_then(Path::parent) {
            Some(dir) => dir.join(as_path),
            None => manifest_dir.join(as_path),
        }
    } else {
        manifest_dir.join(as_path)
    };
    Ok(Root {
        path,
        display: expanded,
        env_vars,
    })
}

/// What the crate's build script told Cargo, read back from its `output` file.
#[derive(Debug, Default)]
pub(crate) struct BuildScript {
    pub rerun_if_changed: Vec<PathBuf>,
    pub rerun_if_env_changed: Vec<String>,
}

impl BuildScript {
    /// Parses `cargo::key=value` (and the older `cargo:key=value`) lines.
    /// Relative paths are relative to the package, as Cargo reads them.
    pub fn parse(output: &str, manifest_dir: &Path) -> Self {
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
    pub fn tracks(&self, root: &Path, env_vars: &[String], manifest_dir: &Path) -> bool {
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

/// `path` with `.` removed and `..` applied, without touching the disk.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to `base` (both absolute), with `..` where needed.
fn relative_to(path: &Path, base: &Path) -> PathBuf {
    let (path, base) = (normalize(path), normalize(base));
    let common = path
        .components()
        .zip(base.components())
        .take_while(|(a, b)| a == b)
        .count();
    if common == 0 {
        return path;
    }
    let mut relative = PathBuf::new();
    for _ in base.components().skip(common) {
        relative.push("..");
    }
    for component in path.components().skip(common) {
        relative.push(component);
    }
    relative
}

/// Checks that a build script makes Cargo rebuild when the tree changes.
///
/// A proc macro cannot watch a folder on stable Rust: edits to known files
/// could be tracked, but a file added to the tree would not rebuild the
/// crate, and the binary would serve stale skills. The known fix is a build
/// script with `cargo::rerun-if-changed=<folder>`; Cargo leaves its output
/// next to `OUT_DIR`, so we read it back to check.
pub(crate) fn check_tracking(
    root: &Root,
    manifest_dir: &Path,
    out_dir: Option<&Path>,
) -> Result<(), String> {
    let rerun_path = relative_to(&root.path, manifest_dir).display().to_string();
    let rerun_path = if root.env_vars.is_empty() {
        format!("println!(\"cargo::rerun-if-changed={rerun_path}\");")
    } else {
        let mut lines = String::new();
        for var in &root.env_vars {
            lines.push_str(&format!(
                "println!(\"cargo::rerun-if-env-changed={var}\"); "
            ));
        }
        let first = &root.env_vars[0];
        lines.push_str(&format!(
            "println!(\"cargo::rerun-if-changed={{}}\", std::env::var(\"{first}\").unwrap_or(\"…\".into()));"
        ));
        lines
    };
    let advice = format!(
        "add a build.rs next to Cargo.toml: `fn main() {{ {rerun_path} }}`; or opt out with `embed_skills!(\"{}\", untracked)` and rebuild by hand after adding files",
        root.display
    );
    let Some(out_dir) = out_dir else {
        return Err(format!(
            "the skills folder `{}` is not watched by a build script, so a file added to it would not rebuild the crate and the binary would serve stale skills\n  help: {advice}",
            root.display
        ));
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
    Err(format!(
        "the build script does not watch the skills folder `{}`{}, so a file added to it would not rebuild the crate and the binary would serve stale skills\n  help: {advice}",
        root.display,
        if root.env_vars.is_empty() {
            String::new()
        } else {
            format!(" and the variable `{}`", root.env_vars.join("`, `"))
        }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "SKILLS_DIR" => Some("/abs/skills".to_owned()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn expands_variables_with_defaults() {
        let cases = [
            ("skills", "skills", vec![]),
            ("$SKILLS_DIR", "/abs/skills", vec!["SKILLS_DIR"]),
            ("${SKILLS_DIR}/x", "/abs/skills/x", vec!["SKILLS_DIR"]),
            ("${UNSET:-skills}", "skills", vec!["UNSET"]),
            ("${EMPTY:-skills}", "skills", vec!["EMPTY"]),
            ("a$$b", "a$b", vec![]),
        ];
        for (text, expected, vars) in cases {
            let (expanded, found) = expand_env(text, env).unwrap();
            assert_eq!(expanded, expected, "{text}");
            assert_eq!(found, vars, "{text}");
        }
        assert!(
            expand_env("$UNSET", env)
                .unwrap_err()
                .contains("`UNSET` is not set")
        );
        assert!(expand_env("${UNSET", env).unwrap_err().contains("closing"));
        assert!(expand_env("a$", env).unwrap_err().contains("`$$`"));
    }

    #[test]
    fn resolves_relative_to_the_manifest_or_the_calling_file() {
        let manifest = Path::new("/crate");
        let file = Path::new("/crate/tests/ui/case.rs");
        let path = |written| root(written, manifest, Some(file), env).unwrap().path;
        assert_eq!(path("skills"), Path::new("/crate/skills"));
        assert_eq!(
            path("./fixtures/good"),
            Path::new("/crate/tests/ui/./fixtures/good")
        );
        assert_eq!(path("../shared"), Path::new("/crate/../shared"));
        assert_eq!(path("$SKILLS_DIR"), Path::new("/abs/skills"));
        let without_file = root("./x", manifest, None, env).unwrap().path;
        assert_eq!(without_file, Path::new("/crate/./x"));
    }

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
    fn advice_paths_are_normalized_and_relative() {
        let base = Path::new("/work/crate");
        assert_eq!(
            relative_to(Path::new("/work/crate/src/./skills"), base),
            Path::new("src/skills")
        );
        assert_eq!(
            relative_to(Path::new("/work/crate/src/../skills"), base),
            Path::new("skills")
        );
        assert_eq!(
            relative_to(Path::new("/work/shared/corpus"), base),
            Path::new("../shared/corpus")
        );
    }

    #[test]
    fn reads_the_build_script_output() {
        let dir =
            std::env::temp_dir().join(format!("skills-macros-resolve-{}", std::process::id()));
        let skills = dir.join("skills");
        std::fs::create_dir_all(skills.join("pdf")).unwrap();
        let root = Root {
            path: skills.clone(),
            display: "skills".to_owned(),
            env_vars: vec![],
        };
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
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(dir.join("output"), "cargo::rerun-if-changed=build.rs\n").unwrap();
        assert!(check_tracking(&root, &dir, Some(&out)).is_err());
        std::fs::write(dir.join("output"), "cargo::rerun-if-changed=skills\n").unwrap();
        assert!(check_tracking(&root, &dir, Some(&out)).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
