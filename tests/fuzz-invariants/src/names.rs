//! Target `names`: the path and name rules of [`skills_core::names`]
//! (portable names, safe relative paths, case folding, collisions).
//!
//! The input is text (bytes that are not UTF-8 are replaced), one path per
//! line (the first 64), so a seed is a skill's file list.

use std::path::{Component, Path};

use skills_core::names::{self, PathProblem};
use skills_core::{Diagnostic, Library, MAX_PATH_CHARS, Renderer, Rule, relpath, uri};
use unicode_normalization::UnicodeNormalization;

/// How many lines of an input are checked (a skill's file list fits), to
/// keep one execution fast.
const LINES: usize = 64;

/// How many lines are compared pairwise for collisions (the rest only
/// join the whole-list check), to keep one execution fast.
const PAIRED: usize = 12;

/// Every invariant of the rules on each line, and of collisions between
/// lines (panics when one breaks):
///
/// - an accepted name is an accepted one-segment path, a servable URI that
///   round-trips, one normal path component, and still portable once folded;
/// - an accepted path has only accepted segments, never leaves its folder
///   when joined onto one, round-trips through its URI, and lies within each
///   of its ancestors; a refused one names a segment it has (refused for the
///   same reason) or its real length; no problem's words hold a control
///   character;
/// - [`names::fold_case`] is idempotent and the same for canonically
///   equivalent spellings;
/// - printed, it acts on nothing: [`skills_core::printable`] leaves no
///   control character, bidirectional control or line separator (and
///   changes nothing that holds none), a diagnostic's path shows it
///   escaped, and the renderer's output for a file of that name has as many
///   lines as for a plain name and no control character but its line breaks;
/// - [`names::case_collisions`] (on lines without empty segments) reports
///   only prefixes of listed paths in one folder whose last names fold
///   alike, and two paths collide in either order exactly when, after an
///   equal folder part, one segment differs but folds alike.
pub fn check(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text.split('\n').take(LINES).collect();
    for line in &lines {
        name_rule(line);
        path_rule(line);
        folding(line);
        printed(line);
    }
    collisions(&lines);
}

/// Whether a terminal or a CI log would act on `c` rather than show it.
fn acted_on(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// The name as every front end prints it.
fn printed(name: &str) {
    let shown = skills_core::printable(name);
    assert!(
        !shown.chars().any(acted_on),
        "printable({name:?}) = {shown:?} still acts on a terminal"
    );
    if !name.chars().any(acted_on) {
        assert_eq!(shown, name, "printable changed a harmless name");
    }
    let diagnostic = Diagnostic::new(Rule::UnportableName, name, "m");
    let path = diagnostic.display_path("skills");
    assert!(!path.chars().any(acted_on), "a printed path acts: {path:?}");
    let plain = Renderer::new(&Library)
        .diagnostic(&Diagnostic::new(Rule::UnportableName, "x", "m"), "skills");
    let rendered = Renderer::new(&Library).diagnostic(&diagnostic, "skills");
    assert_eq!(
        rendered.lines().count(),
        plain.lines().count(),
        "the name added lines: {rendered:?}"
    );
    assert!(
        !rendered.chars().any(|c| c != '\n' && acted_on(c)),
        "the rendered diagnostic acts: {rendered:?}"
    );
}

fn name_rule(name: &str) {
    let verdict = names::check_name(name);
    if let Err(problem) = &verdict {
        assert!(
            !crate::display::has_control(&problem.to_string()),
            "{problem:?} displays a control character"
        );
        return;
    }
    if name.chars().count() <= MAX_PATH_CHARS {
        assert_eq!(names::check_path(name), Ok(()), "name {name:?} is no path");
    }
    let components: Vec<Component> = Path::new(name).components().collect();
    assert_eq!(
        components,
        [Component::Normal(name.as_ref())],
        "name {name:?} is not one path component"
    );
    round_trips(name);
    let folded = names::fold_case(name);
    assert_eq!(
        names::check_name(&folded),
        Ok(()),
        "{name:?} folds to {folded:?}, which is not portable"
    );
}

fn path_rule(path: &str) {
    match names::check_path(path) {
        Ok(()) => {
            assert!(path.chars().count() <= MAX_PATH_CHARS);
            let segments: Vec<&str> = path.split('/').collect();
            for segment in &segments {
                assert_eq!(names::check_name(segment), Ok(()), "in {path:?}");
            }
            let root = Path::new("/srv/skills/pdf");
            let joined = relpath::on_disk(root, path);
            let below: Vec<Component> = joined
                .strip_prefix(root)
                .unwrap_or_else(|_| panic!("{path:?} leaves its folder: {joined:?}"))
                .components()
                .collect();
            assert_eq!(below.len(), segments.len(), "{path:?} joins as {joined:?}");
            assert!(
                below.iter().all(|c| matches!(c, Component::Normal(_))),
                "{path:?} joins as {joined:?}"
            );
            round_trips(path);
            for ancestor in relpath::ancestors(path) {
                assert!(
                    relpath::is_within(path, ancestor),
                    "{path:?} in {ancestor:?}"
                );
            }
            let nested = relpath::join("pdf", path);
            assert_eq!(relpath::strip_folder(&nested, "pdf"), Some(path));
            assert_eq!(names::check_path(&nested), {
                if nested.chars().count() > MAX_PATH_CHARS {
                    Err(PathProblem::TooLong {
                        chars: nested.chars().count(),
                    })
                } else {
                    Ok(())
                }
            });
        }
        Err(problem) => {
            assert!(
                !crate::display::has_control(&problem.to_string()),
                "{problem:?} displays a control character"
            );
            match &problem {
                PathProblem::Segment { segment, problem } => {
                    assert!(
                        path.split('/').any(|s| s == segment),
                        "{segment:?} is no segment of {path:?}"
                    );
                    assert_eq!(names::check_name(segment).as_ref(), Err(problem));
                }
                PathProblem::TooLong { chars } => {
                    assert_eq!(*chars, path.chars().count());
                    assert!(*chars > MAX_PATH_CHARS);
                }
                PathProblem::Empty => assert!(path.is_empty()),
                PathProblem::Absolute => assert!(path.starts_with('/')),
                PathProblem::DrivePrefix => {
                    assert!(path.get(1..2) == Some(":"), "{path:?} has no drive")
                }
                _ => {}
            }
        }
    }
}

/// A path that passes the rules is served at a URI that parses back to
/// itself and decodes to the path.
fn round_trips(path: &str) {
    let served = uri::for_path(path);
    assert_eq!(
        uri::parse(&served).as_deref(),
        Ok(served.as_str()),
        "the URI of {path:?}"
    );
    assert_eq!(
        uri::decoded_path(&served).as_deref(),
        Some(path),
        "{served}"
    );
}

fn folding(name: &str) {
    let folded = names::fold_case(name);
    assert_eq!(
        names::fold_case(&folded),
        folded,
        "fold_case({name:?}) = {folded:?} is not a fixed point"
    );
    let decomposed: String = name.nfd().collect();
    assert_eq!(
        names::fold_case(&decomposed),
        folded,
        "{name:?} and its decomposition {decomposed:?} fold apart"
    );
}

fn collisions(lines: &[&str]) {
    // Collisions are defined between paths; `//`, a leading or a trailing
    // `/` make no path (`check_path` refuses them; a walk never lists them).
    let lines: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|line| !line.split('/').any(str::is_empty))
        .collect();
    for found in names::case_collisions(lines.iter().copied()) {
        assert_ne!(found.path, found.earlier);
        for prefix in [found.path, found.earlier] {
            assert!(
                lines
                    .iter()
                    .any(|line| *line == prefix || line.starts_with(&format!("{prefix}/"))),
                "{prefix:?} is no prefix of a listed path"
            );
        }
        assert_eq!(relpath::parent(found.path), relpath::parent(found.earlier));
        assert_eq!(
            names::fold_case(relpath::name(found.path)),
            names::fold_case(relpath::name(found.earlier)),
            "{found:?}"
        );
    }
    let paired = &lines[..lines.len().min(PAIRED)];
    for (index, a) in paired.iter().enumerate() {
        for b in &paired[index + 1..] {
            let forward = !names::case_collisions([*a, *b]).is_empty();
            let backward = !names::case_collisions([*b, *a]).is_empty();
            assert_eq!(
                forward, backward,
                "{a:?} and {b:?} collide in one order only"
            );
            assert_eq!(forward, collide(a, b), "{a:?} and {b:?}");
        }
    }
}

/// Whether two paths land on one file or folder of a case-insensitive file
/// system while differing as written: the oracle, segment by segment.
fn collide(a: &str, b: &str) -> bool {
    for (x, y) in a.split('/').zip(b.split('/')) {
        if x != y {
            return names::fold_case(x) == names::fold_case(y);
        }
    }
    false
}
