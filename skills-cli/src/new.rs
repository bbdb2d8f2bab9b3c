//! `skills new`: a skill folder whose `SKILL.md` passes every rule, so the
//! author starts from a file that builds and edits it from there. Its
//! description is a placeholder, which `skills check` warns about until the
//! author writes one (`placeholder-description`).

use std::path::{Path, PathBuf};

use skills_core::names;

use crate::check::check;
use crate::cli::NewArgs;
use crate::outcome::Outcome;
use crate::recipe;
use crate::report::Printer;

/// The `SKILL.md` of a new skill named `name`.
pub(crate) fn skeleton(name: &str) -> String {
    let title = {
        let words = name.replace('-', " ");
        let mut chars = words.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
            None => words,
        }
    };
    let placeholder = skills_core::PLACEHOLDER_DESCRIPTION;
    format!(
        "---\n\
         name: {name}\n\
         description: {placeholder}, in one or two sentences. Use when the user asks about {title}.\n\
         ---\n\
         # {title}\n\
         \n\
         Replace this with the instructions an agent follows when it uses this skill:\n\
         the steps, in order, what to check, and what to hand back.\n\
         \n\
         Keep this file short. Long reference material belongs in files next to it\n\
         (a references folder, for example), each linked from here, so that the\n\
         agent reads one only when the task needs it.\n"
    )
}

/// Creates the skill, or says why not.
pub(crate) fn run(args: &NewArgs) -> Outcome {
    let in_crate = Path::new("Cargo.toml").is_file();
    let dir = args.dir.clone().unwrap_or_else(|| {
        if in_crate {
            PathBuf::from("skills")
        } else {
            PathBuf::from(".")
        }
    });
    let folder = dir.join(&args.name);
    let shown = folder.display().to_string();
    if let Err(problem) = names::check_skill_name(&args.name) {
        let mut diagnostic = *problem;
        diagnostic.file = shown;
        Printer::for_stderr().lone(&diagnostic, "");
        return Outcome::Problems;
    }
    if folder.exists() {
        eprintln!(
            "error: {shown} already exists, and `skills new` changes nothing that is there\n  help: pick another name, or edit that skill"
        );
        return Outcome::Problems;
    }
    let skill_md = folder.join(skills_core::SKILL_MD);
    let written = crate::write::create(&skill_md, &skeleton(&args.name));
    if let Err(error) = written {
        eprintln!("error: cannot create {}: {error}", skill_md.display());
        return Outcome::Failed;
    }
    println!("created {}", skill_md.display());
    // The skeleton passes by construction; say so only if it does not.
    let (report, _) = check(&folder, &skills_core::Options::default());
    if report.has_errors() {
        eprintln!("error: the new skill does not pass the rules:\n{report}");
        return Outcome::Problems;
    }
    let mut outcome = Outcome::Done;
    if args.tests {
        if !in_crate {
            eprintln!(
                "error: --tests scaffolds tests for the crate in the current folder, and it holds no Cargo.toml"
            );
            return Outcome::Failed;
        }
        let skills = dir.display().to_string();
        outcome = recipe::scaffold(Path::new("."), &skills).report();
    }
    println!(
        "next: describe the skill in {} and write its instructions; `skills check {}` checks it",
        skill_md.display(),
        dir.display()
    );
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_skeleton_passes_the_rules() {
        for name in ["a", "pdf-tools", "x9-2"] {
            let text = skeleton(name);
            let context = skills_core::SkillMdContext::new("SKILL.md")
                .folder_name(name)
                .files(&["SKILL.md"]);
            let parsed = skills_core::parse_skill_md(
                text.as_bytes(),
                &context,
                &skills_core::Options::default(),
            )
            .unwrap_or_else(|report| panic!("{name}: {report}"));
            assert_eq!(parsed.name, name);
            // Only the reminder to write the description.
            let warnings: Vec<skills_core::Rule> = parsed.warnings.iter().map(|d| d.rule).collect();
            assert_eq!(
                warnings,
                [skills_core::Rule::PlaceholderDescription],
                "{name}"
            );
        }
    }
}
