//! `skills check --fix`: applies the edits skills-core attaches to the
//! problems whose fix is mechanical ([`skills_core::Fix`]), then checks
//! again, until nothing more can be fixed (a fixed YAML error can uncover a
//! fixable field error behind it).

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use skills_core::{Diagnostic, Fix, Options, relpath};

use crate::write;

/// Rounds of fix-and-check before giving up on a file that keeps changing.
const MAX_ROUNDS: usize = 8;

/// Fixes every file under `root` that has mechanical fixes; returns how
/// many problems were fixed in each file (relative to the root), or the
/// file that could not be written.
pub(crate) fn apply(
    root: &Path,
    options: &Options,
) -> Result<Vec<(String, usize)>, (String, io::Error)> {
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
            let fail = |error: io::Error| (file.to_owned(), error);
            inside_without_links(root, file).map_err(fail)?;
            let read = write::read(&path).map_err(fail)?;
            let (fixed_text, applied) = Fix::apply_all(&read.text, fixes);
            if applied == 0 || fixed_text == read.text {
                continue;
            }
            inside_without_links(root, file).map_err(fail)?;
            write::replace(&path, &read, &fixed_text).map_err(fail)?;
            *fixed.entry(file.to_owned()).or_default() += applied;
            applied_this_round += applied;
        }
        if applied_this_round == 0 {
            break;
        }
    }
    Ok(fixed.into_iter().collect())
}

/// Refuses when a folder between `root` and its file `rel` is a link: the
/// load that found the problem walked real folders only, and a fix must
/// not follow one put there since (the file itself is opened without
/// following a link, and replaced only if it is still the file read).
fn inside_without_links(root: &Path, rel: &str) -> io::Result<()> {
    let mut path = root.to_path_buf();
    let folders = relpath::parent(rel);
    if folders.is_empty() {
        return Ok(());
    }
    for segment in folders.split('/') {
        path.push(segment);
        if !std::fs::symlink_metadata(&path)?.file_type().is_dir() {
            return Err(io::Error::other(format!(
                "`{}` is not a folder (a link is never followed)",
                skills_core::printable(&path.display().to_string())
            )));
        }
    }
    Ok(())
}
