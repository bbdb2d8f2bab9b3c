//! `skills check --fix`: applies the edits skills-core attaches to the
//! problems whose fix is mechanical ([`skills_core::Fix`]), then checks
//! again, until nothing more can be fixed (a fixed YAML error can uncover a
//! fixable field error behind it).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_core::{Diagnostic, Fix, Options, relpath};

/// Rounds of fix-and-check before giving up on a file that keeps changing.
const MAX_ROUNDS: usize = 8;

/// Fixes every file under `root` that has mechanical fixes; returns how
/// many problems were fixed in each file (relative to the root), or the
/// file that could not be written.
pub fn apply(root: &Path, options: &Options) -> Result<Vec<(String, usize)>, (String, io::Error)> {
    let mut fixed: BTreeMap<String, usize> = BTreeMap::new();
    for _ in 0..MAX_ROUNDS {
        let diagnostics: Vec<Diagnostic> = match skills_core::load(root, options) {
            Ok(loaded) => loaded.warnings().to_vec(),
            Err(report) => report.diagnostics().to_vec(),
        };
        let mut by_file: BTreeMap<&str, Vec<&Fix>> = BTreeMap::new();
        for diagnostic in &diagnostics {
            if let Some(fix) = &diagnostic.fix
                && !diagnostic.file.is_empty()
            {
                by_file.entry(&diagnostic.file).or_default().push(fix);
            }
        }
        let mut applied_this_round = 0;
        for (file, fixes) in by_file {
            let path = relpath::on_disk(root, file);
            let text = std::fs::read_to_string(&path).map_err(|error| (file.to_owned(), error))?;
            let (fixed_text, applied) = Fix::apply_all(&text, fixes);
            if applied == 0 || fixed_text == text {
                continue;
            }
            write_atomically(&path, &fixed_text).map_err(|error| (file.to_owned(), error))?;
            *fixed.entry(file.to_owned()).or_default() += applied;
            applied_this_round += applied;
        }
        if applied_this_round == 0 {
            break;
        }
    }
    Ok(fixed.into_iter().collect())
}

/// Replaces `path`'s content with `text` so that a crash leaves either the
/// old file or the new one, never half of it, and keeps its permissions.
fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    // A hidden name: a check running meanwhile never reads it as part of a skill.
    let staging = path.with_file_name(format!(".{name}.skills-fix-{}", std::process::id()));
    let permissions = std::fs::metadata(path)?.permissions();
    let written = std::fs::write(&staging, text)
        .and_then(|()| std::fs::set_permissions(&staging, permissions))
        .and_then(|()| std::fs::rename(&staging, path));
    if written.is_err() {
        let _ = std::fs::remove_file(&staging);
    }
    written
}
