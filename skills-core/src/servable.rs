//! Whether a set can be served as it is: the rules about a whole set that
//! still hold after it was built, for sets a program builds or changes at run
//! time. The loader and `embed_skills!` apply the same rules while they
//! build; a server runs [`check_servable`] before it serves a set (its
//! `build` and `replace`). Needs no parsing or hashing, so it is
//! there without the `load` feature.

use std::collections::HashMap;

use crate::diagnostic::{Diagnostic, Report};
use crate::rules::Rule;
use crate::{SKILL_MD, Skills, relpath};

/// Checks that `skills` can be served as it is: every file declared
/// generated has been added (`generated`), and no gated skill is nested in
/// a skill that is not gated (`gated`: the parent's folder would serve its
/// files free). Every problem is in the report.
///
/// ```
/// use skills_core::{Skills, check_servable};
///
/// assert!(check_servable(&Skills::empty()).is_ok());
/// ```
pub fn check_servable(skills: &Skills) -> Result<(), Report> {
    let mut problems: Vec<Diagnostic> = skills
        .pending_files()
        .map(|path| {
            Diagnostic::new(
                Rule::Generated,
                path,
                format!(
                    "`{path}` is declared generated but was not added; a SKILL.md may link to it, and a host would find nothing there"
                ),
            )
            .hint("add it at start-up with `skills_core::add_files` before serving the set")
        })
        .collect();
    problems.extend(gated_nesting(
        skills
            .skills()
            .iter()
            .map(|skill| (skill.path(), skill.is_gated())),
        |path| relpath::join(path, SKILL_MD),
    ));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Report::new("", problems))
    }
}

/// A `gated` problem for each gated skill nested in a skill that is not
/// gated. `skills` are `(path, gated)`; `skill_md` names a skill's
/// `SKILL.md` in messages.
pub(crate) fn gated_nesting<'a>(
    skills: impl IntoIterator<Item = (&'a str, bool)>,
    skill_md: impl Fn(&str) -> String,
) -> Vec<Diagnostic> {
    let gated: HashMap<&str, bool> = skills.into_iter().collect();
    let mut paths: Vec<&str> = gated
        .iter()
        .filter(|(_, gated)| **gated)
        .map(|(path, _)| *path)
        .collect();
    paths.sort_unstable();
    let mut problems = Vec::new();
    for path in paths {
        let free = relpath::ancestors(path)
            .skip(1)
            .take_while(|folder| !folder.is_empty())
            .find(|folder| gated.get(folder) == Some(&false));
        if let Some(parent) = free {
            problems.push(
                Diagnostic::new(
                    Rule::Gated,
                    skill_md(path),
                    format!(
                        "the skill `{path}` is gated, but it is nested in `{parent}`, which is not: `{parent}` holds its files and would serve them free"
                    ),
                )
                .hint(format!(
                    "gate `{parent}` too, or move `{path}` out of its folder"
                )),
            );
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gated_skill_inside_a_free_one_is_refused() {
        let problems = gated_nesting(
            [
                ("courses", false),
                ("courses/rust", true),
                ("courses/rust/advanced", true),
                ("paid", true),
                ("paid/extra", true),
                ("free", false),
            ],
            |path| format!("{path}/SKILL.md"),
        );
        let files: Vec<&str> = problems
            .iter()
            .map(|problem| problem.file.as_str())
            .collect();
        assert_eq!(
            files,
            ["courses/rust/SKILL.md", "courses/rust/advanced/SKILL.md"]
        );
        assert!(problems[0].message.contains("nested in `courses`"));
    }
}
