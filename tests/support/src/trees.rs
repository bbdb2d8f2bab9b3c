//! The repository's skill trees, embedded once for every package's tests
//! (this crate's build script watches them): the published crates carry no
//! build script for their tests' sake.

use skills_runtime::{Skills, embed_skills};

/// The example skills (`examples/skills`: a fictional kitchen inventory
/// product), checked with the default rules.
pub static EXAMPLES: Skills = embed_skills!("../../examples/skills");

/// [`EXAMPLES`] embedded with links unchecked and the field `x-team`
/// allowed: a set that records options other than the defaults.
pub static EXAMPLES_LINKS_UNCHECKED: Skills = embed_skills!(
    "../../examples/skills",
    check_links = false,
    allow_fields = ["x-team"]
);

/// The course platform's skills: `academy` free, the courses sold (three
/// courses are a lone `SKILL.md`).
pub static COURSES: Skills = embed_skills!(
    "../../examples/course-platform/skills",
    gated = ["courses/*"]
);

/// The fixture corpus (`tests/fixtures/corpus`): invented skills with binary
/// files, executable scripts and a nested skill.
pub static FIXTURES: Skills = embed_skills!("../fixtures/corpus");
