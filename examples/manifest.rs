//! Prints the SEP-2640 entries of the skills this binary embedded, as JSON:
//! for each skill its `uri`, its `frontmatter`, and every file's `uri`,
//! `digest` and `size` — exactly what `skills/list` answers.
//!
//! ```sh
//! cargo run --example manifest                              # the repository's skills/
//! cargo run --example manifest -- --help
//! SKILLS_DIR=/abs/path/to/skills cargo run --example manifest
//! ```

use std::io::Write as _;

use clap::Parser;
use skills_runtime::{Skills, embed_skills, server::skill_entry};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

#[derive(serde::Serialize)]
struct Listing {
    skills: Vec<rmcp::model::Skill>,
}

/// Prints the SEP-2640 entries of the skills embedded when this was built.
///
/// One JSON document on stdout, `{"skills": [...]}`: for each skill its
/// `uri`, its `frontmatter`, and every file's `uri`, `digest` and `size`,
/// exactly as `skills/list` answers them. The skills are embedded at compile
/// time: build with `SKILLS_DIR=/abs/path` to print another folder's.
#[derive(Parser)]
#[command(version)]
struct Options {}

fn main() -> std::io::Result<()> {
    Options::parse();
    let listing = Listing {
        skills: SKILLS.skills().iter().map(skill_entry).collect(),
    };
    let json = serde_json::to_string_pretty(&listing)?;
    match writeln!(std::io::stdout().lock(), "{json}") {
        // `| head` closing the pipe early is not an error worth a panic.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
