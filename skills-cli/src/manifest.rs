//! `skills manifest`: what a server built from a folder lists, without
//! building one. The folder is loaded with the rules `embed_skills!`
//! applies and printed with the runtime's own wire functions, so the output
//! is byte for byte what `cargo run --example manifest` prints for the same
//! folder (`SKILLS_DIR=<dir>`).

use serde::Serialize;
use skills_runtime::protocol::index_json;
use skills_runtime::server::skill_entry;

use crate::check::{self, judge};
use crate::cli::ManifestArgs;
use crate::outcome::Outcome;
use crate::report::{Checked, Printer, stdout};

/// The document `examples/manifest.rs` prints: `{"skills": [...]}`.
#[derive(Serialize)]
struct Listing<T> {
    skills: Vec<T>,
}

/// Prints the manifest of one folder, or its problems (on stderr) when the
/// rules refuse it.
pub(crate) fn run(args: &ManifestArgs) -> Outcome {
    let printer = Printer::for_stderr();
    let mut options = args.rules.options();
    let root = match check::resolve(&args.dir) {
        Ok(root) => root,
        Err(diagnostic) => {
            printer.lone(&diagnostic, &args.dir);
            return Outcome::Failed;
        }
    };
    options.display_root = Some(root.display.clone());
    let loaded = match skills_core::load(&root.path, &options) {
        Ok(loaded) => loaded,
        Err(report) => {
            printer.checked(&Checked {
                report: &report,
                skills: None,
                deny_warnings: false,
                readers: &[],
                all_readers: false,
            });
            return judge(&report, false);
        }
    };
    let skills = loaded.skills().skills();
    let document = if args.index {
        index_json(skills)
    } else {
        let listing = Listing {
            skills: skills.iter().map(skill_entry).collect(),
        };
        serde_json::to_string_pretty(&listing).expect("a listing always serializes")
    };
    stdout(&format!("{document}\n"));
    Outcome::Done
}
