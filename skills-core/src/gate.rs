//! Gated skills: which skills the `gated` option names, and the rules they
//! follow. A gated skill is sold or held back from some callers; a server
//! may answer it as locked. It must not grant `allowed-tools` (execution
//! rights belong to the server and its OAuth scopes, not to an instruction
//! file), and it must not be nested in a skill that is not gated, whose
//! folder would serve its files free ([`crate::servable`]).

use glob::{MatchOptions, Pattern};

use crate::diagnostic::{Diagnostic, Diagnostics};
use crate::frontmatter::Frontmatter;
use crate::rules::Rule;

/// `*` stays within one path segment; `**` crosses them.
const MATCH: MatchOptions = MatchOptions {
    case_sensitive: true,
    require_literal_separator: true,
    require_literal_leading_dot: false,
};

/// The `gated` option's globs, and which of them named a skill.
pub(crate) struct Gates {
    globs: Vec<(String, Option<Pattern>)>,
    used: Vec<bool>,
}

impl Gates {
    /// The globs of `gated`; one that is not a glob is reported.
    pub(crate) fn new(gated: &[String], diagnostics: &mut Diagnostics) -> Self {
        let globs: Vec<(String, Option<Pattern>)> = gated
            .iter()
            .map(|glob| {
                let written = glob.trim_start_matches("./").trim_end_matches('/');
                let pattern = match Pattern::new(written) {
                    Ok(pattern) => Some(pattern),
                    Err(error) => {
                        diagnostics.push(
                            Diagnostic::new(
                                Rule::Gated,
                                "",
                                format!("the `gated` option's `{glob}` is not a glob: {}", error.msg),
                            )
                            .hint("write skill paths relative to the skills root, with `*` for one segment and `**` for any"),
                        );
                        None
                    }
                };
                (glob.clone(), pattern)
            })
            .collect();
        Self {
            used: vec![false; globs.len()],
            globs,
        }
    }

    /// Whether the skill at `path` is gated.
    pub(crate) fn covers(&mut self, path: &str) -> bool {
        let mut covered = false;
        for ((_, pattern), used) in self.globs.iter().zip(&mut self.used) {
            if pattern
                .as_ref()
                .is_some_and(|pattern| pattern.matches_with(path, MATCH))
            {
                *used = true;
                covered = true;
            }
        }
        covered
    }

    /// Reports each glob that named no skill: a typo would leave the skills
    /// it meant free, and carrying `allowed-tools` unnoticed.
    pub(crate) fn report_unused(self, diagnostics: &mut Diagnostics) {
        for ((glob, pattern), used) in self.globs.into_iter().zip(self.used) {
            if pattern.is_some() && !used {
                diagnostics.push(
                    Diagnostic::new(
                        Rule::Gated,
                        "",
                        format!("the `gated` option's `{glob}` names no skill"),
                    )
                    .hint("give skill paths relative to the skills root, like `courses/*`"),
                );
            }
        }
    }
}

/// `gated-allowed-tools`, at the key, when the frontmatter of a gated skill
/// grants `allowed-tools`.
pub(crate) fn check_allowed_tools(
    frontmatter: &Frontmatter,
    file: &str,
    diagnostics: &mut Diagnostics,
) {
    let Some(entry) = frontmatter.get("allowed-tools") else {
        return;
    };
    diagnostics.push(
        Diagnostic::new(
            Rule::GatedAllowedTools,
            file,
            "this skill is gated, so it must not grant `allowed-tools`: execution rights belong to the server and its OAuth scopes, not to an instruction file that anyone who loads it can copy",
        )
        .at(entry.key_at.line, entry.key_at.column)
        .length(entry.key.chars().count())
        .hint("remove `allowed-tools`, and grant what the skill needs through the server's own tools and scopes"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_stays_within_one_segment() {
        let mut diagnostics = Diagnostics::new();
        let mut gates = Gates::new(
            &[
                "courses/*".to_owned(),
                "premium/**".to_owned(),
                "nothing/*".to_owned(),
            ],
            &mut diagnostics,
        );
        assert!(gates.covers("courses/rust"));
        assert!(!gates.covers("courses/rust/advanced"));
        assert!(!gates.covers("courses"));
        assert!(gates.covers("premium/a/b"));
        gates.report_unused(&mut diagnostics);
        let problems = diagnostics.into_vec();
        assert_eq!(problems.len(), 1);
        assert!(problems[0].message.contains("`nothing/*` names no skill"));
    }
}

#[cfg(test)]
mod rules {
    use crate::{Options, Rule};

    fn tree(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
        let root =
            std::env::temp_dir().join(format!("skills-core-gate-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (path, text) in files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        root
    }

    fn gated(globs: &[&str]) -> Options {
        Options {
            gated: globs.iter().map(|glob| (*glob).to_owned()).collect(),
            ..Options::default()
        }
    }

    #[test]
    fn a_gated_skill_granting_tools_is_refused_at_the_key() {
        let root = tree(
            "allowed-tools",
            &[
                (
                    "courses/rust/SKILL.md",
                    "---\nname: rust\ndescription: Rust. Use when asked.\nallowed-tools: Bash Read\n---\n",
                ),
                (
                    "free/SKILL.md",
                    "---\nname: free\ndescription: Free. Use when asked.\nallowed-tools: Read\n---\n",
                ),
            ],
        );
        // Not gated, `allowed-tools` is the author's business.
        let loaded = crate::load(&root, &Options::default()).unwrap();
        assert!(!loaded.skills().get("courses/rust").unwrap().is_gated());
        let report = crate::load(&root, &gated(&["courses/*"])).unwrap_err();
        let errors: Vec<_> = report.errors().collect();
        assert_eq!(errors.len(), 1, "{report}");
        assert_eq!(errors[0].rule, Rule::GatedAllowedTools);
        assert!(
            report
                .to_string()
                .contains("courses/rust/SKILL.md:4:1: gated-allowed-tools"),
            "{report}"
        );
        // Without the key, it loads gated.
        std::fs::write(
            root.join("courses/rust/SKILL.md"),
            "---\nname: rust\ndescription: Rust. Use when asked.\n---\n",
        )
        .unwrap();
        let loaded = crate::load(&root, &gated(&["courses/*"])).unwrap();
        assert!(loaded.skills().get("courses/rust").unwrap().is_gated());
        assert!(!loaded.skills().get("free").unwrap().is_gated());
    }

    #[test]
    fn a_gated_skill_inside_a_free_one_and_a_glob_naming_nothing_are_refused() {
        let root = tree(
            "nesting",
            &[
                (
                    "courses/SKILL.md",
                    "---\nname: courses\ndescription: All. Use when asked.\n---\n",
                ),
                (
                    "courses/rust/SKILL.md",
                    "---\nname: rust\ndescription: Rust. Use when asked.\n---\n",
                ),
            ],
        );
        let report = crate::load(&root, &gated(&["courses/*", "typo/*"])).unwrap_err();
        let text = report.to_string();
        assert_eq!(
            report.errors().filter(|d| d.rule == Rule::Gated).count(),
            2,
            "{text}"
        );
        assert!(text.contains("nested in `courses`"), "{text}");
        assert!(text.contains("`typo/*` names no skill"), "{text}");
        assert!(crate::load(&root, &gated(&["courses", "courses/*"])).is_ok());
    }
}
