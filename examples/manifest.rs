//! Prints the SEP-2640 entries of the skills this binary embedded, as JSON:
//! for each skill its `uri`, its `frontmatter`, and every file's `uri`,
//! `digest` and `size` — exactly what `skills/list` answers. With `--dump`,
//! every table instead, bytes included.
//!
//! ```sh
//! cargo run --example manifest                              # the repository's examples/skills/
//! cargo run --example manifest -- --help
//! SKILLS_DIR=/abs/path/to/skills cargo run --example manifest
//! cargo run --example manifest -- --dump                    # every byte, digest and version
//! ```

use std::io::Write as _;

use base64::Engine as _;
use clap::Parser;
use serde_json::{Value, json};
use skills_runtime::{Skills, embed_skills, server::skill_entry};

static SKILLS: Skills = embed_skills!("${SKILLS_DIR:-skills}");

/// Prints the SEP-2640 entries of the skills embedded when this was built.
///
/// One JSON document on stdout, `{"skills": [...]}`: for each skill its
/// `uri`, its `frontmatter`, and every file's `uri`, `digest` and `size`,
/// exactly as `skills/list` answers them (or, with --dump, every table). The
/// skills are embedded at compile time: build with `SKILLS_DIR=/abs/path` to
/// print another folder's.
#[derive(Parser)]
#[command(version)]
struct Options {
    /// Print every table instead: the set's fingerprint and package, each
    /// skill's path, name and version, and each file's path, URI, size,
    /// digest, MIME type, executable bit and bytes (text as it is, binary
    /// files in base64). Two builds of one tree must print the same bytes.
    #[arg(long)]
    dump: bool,
}

#[derive(serde::Serialize)]
struct Listing {
    skills: Vec<rmcp::model::Skill>,
}

fn dump(skills: &Skills) -> Value {
    let entries: Vec<Value> = skills
        .skills()
        .iter()
        .map(|skill| {
            let files: Vec<Value> = skill
                .files()
                .iter()
                .map(|file| {
                    let mut entry = json!({
                        "path": file.path(),
                        "uri": skill.file_uri(file),
                        "size": file.size(),
                        "digest": file.digest().to_string(),
                        "mime": file.mime_type(),
                        "executable": file.is_executable(),
                    });
                    match file.text() {
                        Some(text) => entry["text"] = json!(text),
                        None => {
                            let bytes =
                                base64::engine::general_purpose::STANDARD.encode(file.bytes());
                            entry["base64"] = json!(bytes);
                        }
                    }
                    entry
                })
                .collect();
            json!({
                "path": skill.path(),
                "name": skill.name(),
                "version": skill.version(),
                "frontmatter": serde_json::from_str::<Value>(skill.extra_fields_json())
                    .unwrap_or(Value::Null),
                "files": files,
            })
        })
        .collect();
    json!({
        "fingerprint": skills.fingerprint(),
        "package": skills.package(),
        "skills": entries,
    })
}

fn main() -> std::io::Result<()> {
    let options = Options::parse();
    let json = if options.dump {
        serde_json::to_string_pretty(&dump(&SKILLS))?
    } else {
        let listing = Listing {
            skills: SKILLS.skills().iter().map(skill_entry).collect(),
        };
        serde_json::to_string_pretty(&listing)?
    };
    match writeln!(std::io::stdout().lock(), "{json}") {
        // `| head` closing the pipe early is not an error worth a panic.
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
