//! The trybuild recipe for skill authors, written into a crate by
//! `skills init --tests` and `skills new --tests`: a `pass` case that the
//! crate's skills folder embeds (so the build of a consumer cannot break),
//! and a `compile_fail` case for a deliberately broken fixture whose
//! `.stderr` snapshot is the same on every machine (paths in the macro's
//! messages are relative to its argument).

use std::path::Path;

use crate::cargo_toml::CargoToml;
use crate::steps::Steps;

/// The test driver.
const DRIVER: &str = r#"//! The crate's skills, compiled as `embed_skills!` compiles them in any
//! crate. `skills/pass/` embeds the skills folder: the test fails when a
//! skill breaks a rule. `skills/ui/` embeds deliberately broken fixtures and
//! keeps the messages authors get as `.stderr` snapshots, so a change in
//! them shows up in review.
//!
//! Record or refresh the snapshots after adding a case, then read each
//! `.stderr` and commit it:
//!
//! ```sh
//! TRYBUILD=overwrite cargo test --test skills
//! ```
//!
//! Paths in the messages are relative to the macro's argument
//! (`./fixtures/…`), so the snapshots are the same on every machine. Each
//! case says `untracked`: trybuild's generated crate has no build script.

#[test]
fn skills() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/skills/pass/*.rs");
    cases.compile_fail("tests/skills/ui/*.rs");
}
"#;

/// The broken fixture: a `name` that differs from its folder.
const BROKEN_SKILL_MD: &str = "---\nname: pdf-tools\ndescription: Fills PDF forms. Use when the user shares a PDF form to complete.\n---\n# PDF tools\n\nFill the form field by field.\n";

/// Writes the recipe into the crate at `crate_dir`, whose skills folder is
/// `skills` (relative to it).
pub(crate) fn scaffold(crate_dir: &Path, skills: &str) -> Steps {
    let mut steps = Steps::default();
    add_to(crate_dir, skills, &mut steps);
    steps
}

/// [`scaffold`] into existing steps.
pub(crate) fn add_to(crate_dir: &Path, skills: &str, steps: &mut Steps) {
    match CargoToml::read(&crate_dir.join("Cargo.toml")) {
        Ok(mut manifest) => {
            if manifest.has_dependency("dev-dependencies", "trybuild") {
                steps.unchanged("Cargo.toml", "has the dev-dependency `trybuild`");
            } else {
                manifest.add_dependency("dev-dependencies", "trybuild", "1.0");
                match manifest.save() {
                    Ok(()) => steps.changed(
                        "Cargo.toml",
                        "added the dev-dependency `trybuild = \"1.0\"`",
                    ),
                    Err(error) => steps.failed(format!("Cargo.toml: cannot write it: {error}")),
                }
            }
        }
        Err(error) => steps.failed(error),
    }
    steps.write(crate_dir, "tests/skills.rs", DRIVER, "the trybuild driver");
    // From `tests/skills/pass/`, `./` paths start at the calling file.
    let embed = format!(
        "// The crate's skills folder embeds: every skill passes every rule.\n\
         static SKILLS: skills_runtime::Skills =\n    skills_runtime::embed_skills!(\"./../../../{skills}\", untracked);\n\
         \n\
         fn main() {{\n    assert!(!SKILLS.is_empty(), \"the skills folder holds no skill\");\n}}\n"
    );
    steps.write(
        crate_dir,
        "tests/skills/pass/embed.rs",
        &embed,
        &format!("a pass case embedding `{skills}`"),
    );
    let broken = "// A fixture that must keep failing, with the message in the .stderr next to it.\n\
         static SKILLS: skills_runtime::Skills =\n    skills_runtime::embed_skills!(\"./fixtures/name-mismatch\", untracked);\n\
         \n\
         fn main() {\n    println!(\"{}\", SKILLS.len());\n}\n";
    steps.write(
        crate_dir,
        "tests/skills/ui/name_mismatch.rs",
        broken,
        "a compile_fail case",
    );
    steps.write(
        crate_dir,
        "tests/skills/ui/fixtures/name-mismatch/pdf/SKILL.md",
        BROKEN_SKILL_MD,
        "its broken fixture",
    );
    if !crate_dir
        .join("tests/skills/ui/name_mismatch.stderr")
        .exists()
    {
        steps.advise(
            "record the snapshot: `TRYBUILD=overwrite cargo test --test skills`, then read tests/skills/ui/*.stderr and commit it",
        );
    }
}
