//! Where a skills folder is: the text an author wrote (`"skills"`,
//! `"${SKILLS_DIR:-skills}"`, `"./fixtures"`) → a folder on disk, how to
//! name it in messages, and which environment variables chose it (a build
//! must be redone when they change).
//!
//! Every front end resolves its folder argument here, so `$VAR`, `${VAR}`,
//! `${VAR:-default}` and `$$` mean the same in the macro and on a command
//! line. Each front end picks its base folder: the macro resolves against
//! the crate's `CARGO_MANIFEST_DIR` (and `./…` against the calling file, like
//! `include_str!`); a command line resolves against its working directory.
//!
//! ```
//! use std::path::Path;
//! use skills_core::root;
//!
//! let env = |name: &str| (name == "SKILLS_DIR").then(|| "/srv/skills".to_owned());
//! let resolved = root::resolve("${SKILLS_DIR:-skills}", Path::new("/crate"), None, env).unwrap();
//! assert_eq!(resolved.path, Path::new("/srv/skills"));
//! assert_eq!(resolved.env_vars, ["SKILLS_DIR"]);
//!
//! let unset = |_: &str| None;
//! let resolved = root::resolve("${SKILLS_DIR:-skills}", Path::new("/crate"), None, unset).unwrap();
//! assert_eq!(resolved.path, Path::new("/crate/skills"));
//! assert_eq!(resolved.display, "skills");
//! ```

use std::path::{Component, Path, PathBuf};

use crate::diagnostic::Diagnostic;
use crate::rules::Rule;

/// A skills folder, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolvedRoot {
    /// Where it is on disk (not checked to exist: loading reports
    /// `root-missing`).
    pub path: PathBuf,
    /// How to name it in messages: the text after expansion, as relative as
    /// the author wrote it, so messages are the same on every machine.
    pub display: String,
    /// The environment variables the text read, in order.
    pub env_vars: Vec<String>,
}

/// Expands `$VAR`, `${VAR}` and `${VAR:-default}` (`$$` is a literal `$`).
/// A variable set to the empty string counts as unset. Returns the expanded
/// text and the variables it read; a `root-missing` diagnostic when a
/// variable without a default is unset or the text is malformed.
pub fn expand_env(
    text: &str,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<(String, Vec<String>), Box<Diagnostic>> {
    let problem = |message: String, hint: String| {
        Err(Box::new(
            Diagnostic::new(Rule::RootMissing, "", message).hint(hint),
        ))
    };
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
            let Some(close) = braced.find('}') else {
                return problem(
                    format!("`${{` without a closing `}}` in `{text}`"),
                    "close the variable: `${NAME}` or `${NAME:-default}`".to_owned(),
                );
            };
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
            return problem(
                format!("`{text}` has a `$` that starts no variable name"),
                "write `$$` for a literal `$`".to_owned(),
            );
        }
        vars.push(name.to_owned());
        match (lookup(name).filter(|value| !value.is_empty()), default) {
            (Some(value), _) => out.push_str(&value),
            (None, Some(default)) => out.push_str(default),
            (None, None) => {
                return problem(
                    format!("the environment variable `{name}` is not set"),
                    format!("set it, or give a default: `${{{name}:-skills}}`"),
                );
            }
        }
        rest = after;
    }
    out.push_str(rest);
    Ok((out, vars))
}

/// Resolves the folder an author wrote: variables expanded, then an
/// absolute path used as it is, a path starting with `./` joined onto
/// `dot_base` when given (the macro passes the calling file's folder), and
/// any other relative path (`../shared-skills` included) joined onto `base`.
pub fn resolve(
    written: &str,
    base: &Path,
    dot_base: Option<&Path>,
    lookup: impl Fn(&str) -> Option<String>,
) -> Result<ResolvedRoot, Box<Diagnostic>> {
    let (expanded, env_vars) = expand_env(written, lookup)?;
    if expanded.is_empty() {
        return Err(Box::new(
            Diagnostic::new(Rule::RootMissing, "", "the skills folder is an empty path")
                .hint("name the folder that holds your skill folders, like `skills`"),
        ));
    }
    let as_path = Path::new(&expanded);
    let path = if as_path.is_absolute() {
        as_path.to_path_buf()
    } else if expanded.starts_with("./") {
        dot_base.unwrap_or(base).join(as_path)
    } else {
        base.join(as_path)
    };
    Ok(ResolvedRoot {
        path,
        display: expanded,
        env_vars,
    })
}

/// `path` with `.` removed and `..` applied, without touching the disk
/// (so without following links): how a folder is named to an author.
///
/// ```
/// use std::path::Path;
/// use skills_core::root::normalize;
///
/// assert_eq!(normalize(Path::new("/w/a/./b/../c")), Path::new("/w/a/c"));
/// ```
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// `path` relative to `base` (both absolute, both [normalized](normalize)
/// first), with `..` where needed; `.` when they are the same folder, and
/// `path` itself when they share nothing (another drive).
///
/// ```
/// use std::path::Path;
/// use skills_core::root::relative_to;
///
/// assert_eq!(relative_to(Path::new("/w/shared/corpus"), Path::new("/w/crate")), Path::new("../shared/corpus"));
/// ```
pub fn relative_to(path: &Path, base: &Path) -> PathBuf {
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
    if relative.as_os_str().is_empty() {
        relative.push(".");
    }
    relative
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
        let unset = expand_env("$UNSET", env).unwrap_err();
        assert_eq!(unset.rule, Rule::RootMissing);
        assert!(unset.message.contains("`UNSET` is not set"), "{unset:?}");
        assert!(
            expand_env("${UNSET", env)
                .unwrap_err()
                .message
                .contains("closing")
        );
        assert!(
            expand_env("a$", env)
                .unwrap_err()
                .hint
                .unwrap()
                .contains("`$$`")
        );
    }

    #[test]
    fn resolves_relative_to_the_base_or_the_dot_base() {
        let manifest = Path::new("/crate");
        let calling = Path::new("/crate/tests/ui");
        let path = |written| resolve(written, manifest, Some(calling), env).unwrap().path;
        assert_eq!(path("skills"), Path::new("/crate/skills"));
        assert_eq!(
            path("./fixtures/good"),
            Path::new("/crate/tests/ui/./fixtures/good")
        );
        assert_eq!(path("../shared"), Path::new("/crate/../shared"));
        assert_eq!(path("$SKILLS_DIR"), Path::new("/abs/skills"));
        let without = resolve("./x", manifest, None, env).unwrap().path;
        assert_eq!(without, Path::new("/crate/./x"));
        assert_eq!(
            resolve("", manifest, None, env).unwrap_err().rule,
            Rule::RootMissing
        );
    }

    #[test]
    fn relative_paths_climb_to_the_common_folder() {
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
        assert_eq!(
            relative_to(
                Path::new("/w/skills-runtime/skills-runtime"),
                Path::new("/w/larder")
            ),
            Path::new("../skills-runtime/skills-runtime")
        );
        assert_eq!(relative_to(base, base), Path::new("."));
        assert_eq!(
            relative_to(Path::new("/w/a/./b/../c"), Path::new("/w/a")),
            Path::new("c")
        );
    }
}
