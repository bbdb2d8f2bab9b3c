//! Path and name rules: which file and folder names can travel in a URI and
//! be written on every operating system, and which relative paths are safe to
//! join onto a folder.
//!
//! The loader applies these rules to every entry of a skills tree; a client
//! that downloads a skill from a foreign server, or an installer that writes
//! one into an agent's folder, applies them to the paths it is given, so all
//! of them refuse the same names with the same words.
//!
//! ```
//! use skills_core::names::{self, NameProblem, PathProblem};
//!
//! assert_eq!(names::check_name("my notes.md"), Ok(()));
//! assert_eq!(names::check_name("aux.txt"), Err(NameProblem::ReservedName("aux".into())));
//!
//! assert_eq!(names::check_path("references/api.md"), Ok(()));
//! let problem = names::check_path("scripts/../../etc/passwd").unwrap_err();
//! assert!(matches!(problem, PathProblem::Segment { problem: NameProblem::ParentDir, .. }));
//! assert_eq!(problem.to_string(), "the path has a `..` segment, which leads out of its folder");
//! ```
//!
//! [`check_name`] and [`check_path`] need nothing but the standard library.
//! `fold_case` and `case_collisions` compare names after Unicode
//! normalization, which needs Unicode tables; they come with the `load`
//! feature, as every caller that compares foreign names (the loader, a
//! downloading client) parses SKILL.md too and has it on.

use std::fmt;

use crate::MAX_PATH_CHARS;
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;

/// Longest skill `name`, in characters.
pub const MAX_NAME_CHARS: usize = 64;

/// Longest file or folder name, in UTF-8 bytes: what Linux (`NAME_MAX`) and
/// macOS (APFS) can hold; Windows holds 255 UTF-16 units, which every name
/// within this fits.
pub const MAX_NAME_BYTES: usize = 255;

/// Characters Windows forbids in names; fast-agent refuses them too.
const WINDOWS_FORBIDDEN: [char; 7] = ['<', '>', ':', '"', '|', '?', '*'];

/// Names Windows reserves for devices, with or without an extension
/// (`NUL.txt` and `NUL.tar.gz` are both `NUL`), in lower case: Microsoft's
/// "Naming Files, Paths, and Namespaces" lists CON, PRN, AUX, NUL, COM0-COM9,
/// COM¹-COM³, LPT0-LPT9 and LPT¹-LPT³ (the superscript digits count as port
/// numbers); `CreateFile` opens the console for CONIN$ and CONOUT$ whatever
/// folder they are in.
const WINDOWS_RESERVED: [&str; 32] = [
    "con",
    "prn",
    "aux",
    "nul",
    "conin$",
    "conout$",
    "com0",
    "com1",
    "com2",
    "com3",
    "com4",
    "com5",
    "com6",
    "com7",
    "com8",
    "com9",
    "com\u{b9}",
    "com\u{b2}",
    "com\u{b3}",
    "lpt0",
    "lpt1",
    "lpt2",
    "lpt3",
    "lpt4",
    "lpt5",
    "lpt6",
    "lpt7",
    "lpt8",
    "lpt9",
    "lpt\u{b9}",
    "lpt\u{b2}",
    "lpt\u{b3}",
];

/// Why one file or folder name cannot be used. Its [`Display`](fmt::Display)
/// completes the sentence "the name `…` ": `contains a backslash, which URIs
/// and Windows read as a separator`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is `.`, the folder itself.
    CurrentDir,
    /// The name is `..`, the parent folder.
    ParentDir,
    /// The name contains `/`, the path separator.
    Slash,
    /// The name contains a control character (NUL, a line break, …).
    ControlCharacter(char),
    /// The name contains `\`.
    Backslash,
    /// The name contains one of `<>:"|?*`.
    WindowsForbidden(char),
    /// The name ends with `.` or a space.
    TrailingDotOrSpace,
    /// The name is a Windows device name with or without an extension
    /// (`con`, `aux.txt`, `LPT1`, `COM¹.md`, `CONIN$`); holds the reserved
    /// stem in lower case.
    ReservedName(String),
    /// The name is longer than [`MAX_NAME_BYTES`] bytes of UTF-8, which no
    /// file system of Linux or macOS can hold; holds its length.
    TooLong(usize),
}

impl fmt::Display for NameProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("is empty"),
            Self::CurrentDir => f.write_str("is `.`, which names the folder itself"),
            Self::ParentDir => f.write_str("is `..`, which leads out of its folder"),
            Self::Slash => f.write_str("contains `/`, the path separator"),
            Self::ControlCharacter(control) => write!(
                f,
                "contains the control character {}",
                control.escape_unicode()
            ),
            Self::Backslash => {
                f.write_str("contains a backslash, which URIs and Windows read as a separator")
            }
            Self::WindowsForbidden(forbidden) => write!(
                f,
                "contains `{forbidden}`, which Windows does not allow in names"
            ),
            Self::TrailingDotOrSpace => {
                f.write_str("ends with a dot or a space, which Windows drops")
            }
            Self::ReservedName(stem) => {
                write!(f, "uses `{stem}`, a device name Windows reserves")
            }
            Self::TooLong(bytes) => write!(
                f,
                "is {bytes} bytes long; Linux and macOS hold names of at most {MAX_NAME_BYTES}"
            ),
        }
    }
}

impl std::error::Error for NameProblem {}

/// Checks one file or folder name (one segment of a path): it must be
/// something a URI can carry and every operating system can write.
///
/// Refused: the empty name, `.` and `..`, a name over [`MAX_NAME_BYTES`]
/// bytes, `/`, control characters, `\`,
/// the characters Windows forbids (`<>:"|?*`), a trailing dot or space, and
/// Windows device names with or without an extension, in any case (`con`,
/// `aux.txt`, `COM1`, `COM0.md`, `lpt².txt`, `CONIN$`, `nul .txt`: Windows
/// drops the spaces before the extension). Any other UTF-8 is accepted:
/// spaces, `%`, `#`, accents.
/// (Names that are not UTF-8 never get here: a `&str` is UTF-8.)
pub fn check_name(name: &str) -> Result<(), NameProblem> {
    match name {
        "" => return Err(NameProblem::Empty),
        "." => return Err(NameProblem::CurrentDir),
        ".." => return Err(NameProblem::ParentDir),
        _ => {}
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameProblem::TooLong(name.len()));
    }
    if is_plain_ascii(name) {
        // No character rule can fail: only the last two remain.
        return check_ending_and_device(name);
    }
    if let Some(control) = name.chars().find(|c| c.is_control()) {
        return Err(NameProblem::ControlCharacter(control));
    }
    if name.contains('/') {
        return Err(NameProblem::Slash);
    }
    if name.contains('\\') {
        return Err(NameProblem::Backslash);
    }
    if let Some(forbidden) = name.chars().find(|c| WINDOWS_FORBIDDEN.contains(c)) {
        return Err(NameProblem::WindowsForbidden(forbidden));
    }
    check_ending_and_device(name)
}

/// Whether `name` is ASCII without control characters, `/`, `\\` or a
/// character Windows forbids: what most names are, cleared in one byte loop
/// (the per-character searches of [`check_name`] are slow inside the
/// unoptimised macro, which checks every name of every path).
fn is_plain_ascii(name: &str) -> bool {
    let bytes = name.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            0x00..=0x1f | 0x7f.. => return false,
            b'/' | b'\\' | b'<' | b'>' | b':' | b'"' | b'|' | b'?' | b'*' => return false,
            _ => index += 1,
        }
    }
    true
}

/// [`check_name`]'s last rules: no trailing dot or space, no device name.
fn check_ending_and_device(name: &str) -> Result<(), NameProblem> {
    if name.ends_with('.') || name.ends_with(' ') {
        return Err(NameProblem::TrailingDotOrSpace);
    }
    // The stem is what comes before the first dot, without the spaces
    // Windows drops before it (`nul .txt` opens NUL).
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ');
    // Device names are three to seven characters; `to_lowercase` only then.
    if (3..=7).contains(&stem.chars().count()) {
        let stem = stem.to_lowercase();
        if WINDOWS_RESERVED.contains(&stem.as_str()) {
            return Err(NameProblem::ReservedName(stem));
        }
    }
    Ok(())
}

/// Why a relative path cannot be used. Its [`Display`](fmt::Display) is a
/// whole sentence about "the path" that does not repeat it, so a caller can
/// write `` `{path}`: {problem} ``.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PathProblem {
    /// The path is empty.
    Empty,
    /// The path has more than [`MAX_PATH_CHARS`] characters.
    TooLong {
        /// How many characters it has.
        chars: usize,
    },
    /// The path starts with `/`.
    Absolute,
    /// The path starts with a Windows drive (`C:`, `c:foo`).
    DrivePrefix,
    /// One segment of the path is not a usable name; the segment is empty,
    /// `.` or `..` when the path has `//`, a trailing `/`, or a dot segment.
    Segment {
        /// The segment as written.
        segment: String,
        /// What is wrong with it.
        problem: NameProblem,
    },
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the path is empty"),
            Self::TooLong { chars } => write!(
                f,
                "the path is {chars} characters long; hosts refuse paths over {MAX_PATH_CHARS}"
            ),
            Self::Absolute => f.write_str(
                "the path is absolute (it starts with `/`); it must be relative to its folder",
            ),
            Self::DrivePrefix => f.write_str(
                "the path starts with a Windows drive (`C:`); it must be relative to its folder",
            ),
            Self::Segment { segment, problem } => match problem {
                NameProblem::Empty => {
                    f.write_str("the path has an empty segment (`//`, or a trailing `/`)")
                }
                NameProblem::CurrentDir => f.write_str("the path has a `.` segment"),
                NameProblem::ParentDir => {
                    f.write_str("the path has a `..` segment, which leads out of its folder")
                }
                problem => {
                    // Control characters shown escaped: a NUL or line break
                    // inside a message would garble the terminal or the log.
                    f.write_str("the name `")?;
                    for c in segment.chars() {
                        if c.is_control() {
                            write!(f, "{}", c.escape_unicode())?;
                        } else {
                            write!(f, "{c}")?;
                        }
                    }
                    write!(f, "` {problem}")
                }
            },
        }
    }
}

impl std::error::Error for PathProblem {}

/// Checks a relative, `/`-separated path as a server lists it or an
/// installer writes it (`references/api.md`): joined onto a folder, it must
/// stay inside that folder and be writable on every operating system.
///
/// Refused: the empty path; a path over [`MAX_PATH_CHARS`] characters; a
/// leading `/`; a Windows drive (`C:`); an empty, `.` or `..` segment; and
/// any segment [`check_name`] refuses (which covers backslashes, NUL and
/// other control characters). The first problem found is returned, in that
/// order.
pub fn check_path(path: &str) -> Result<(), PathProblem> {
    if path.is_empty() {
        return Err(PathProblem::Empty);
    }
    let chars = if path.is_ascii() {
        path.len()
    } else {
        path.chars().count()
    };
    if chars > MAX_PATH_CHARS {
        return Err(PathProblem::TooLong { chars });
    }
    if path.starts_with('/') {
        return Err(PathProblem::Absolute);
    }
    let mut start = path.chars();
    if start.next().is_some_and(|c| c.is_ascii_alphabetic()) && start.next() == Some(':') {
        return Err(PathProblem::DrivePrefix);
    }
    for segment in path.split('/') {
        check_name(segment).map_err(|problem| PathProblem::Segment {
            segment: segment.to_owned(),
            problem,
        })?;
    }
    Ok(())
}

/// Why `name` breaks the specification's rule for a skill's name,
/// `^[a-z0-9]+(-[a-z0-9]+)*$`, in words that complete "the name `…` "
/// (`contains two hyphens in a row`); `None` when it follows it. The length
/// limit ([`MAX_NAME_CHARS`]) is [`check_skill_name`]'s.
///
/// ```
/// use skills_core::names::skill_name_problem;
///
/// assert_eq!(skill_name_problem("pdf-tools"), None);
/// assert_eq!(skill_name_problem("pdf--tools").unwrap(), "contains two hyphens in a row");
/// ```
pub fn skill_name_problem(name: &str) -> Option<String> {
    if name.is_empty() {
        return Some("is empty".to_owned());
    }
    if let Some(upper) = name.chars().find(|c| c.is_uppercase()) {
        return Some(format!(
            "contains the uppercase letter `{upper}`; names are lowercase"
        ));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-'))
    {
        return Some(format!(
            "contains `{}`; only a-z, 0-9 and `-` are allowed",
            bad.escape_debug()
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Some("starts or ends with a hyphen".to_owned());
    }
    if name.contains("--") {
        return Some("contains two hyphens in a row".to_owned());
    }
    None
}

/// `name` made to follow the rules: lowercase, every run of other characters
/// one hyphen, none at the ends, at most [`MAX_NAME_CHARS`] characters
/// (`Bad--Name-` → `bad-name`; `my-skill` when nothing is left).
///
/// ```
/// use skills_core::names::suggest_skill_name;
///
/// assert_eq!(suggest_skill_name("PDF Tools_v2"), "pdf-tools-v2");
/// assert_eq!(suggest_skill_name("???"), "my-skill");
/// ```
pub fn suggest_skill_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() {
        "my-skill".to_owned()
    } else {
        out.chars()
            .take(MAX_NAME_CHARS)
            .collect::<String>()
            .trim_end_matches('-')
            .to_owned()
    }
}

/// Checks a skill name given before any `SKILL.md` holds it (a command
/// that creates a skill, an installer renaming one), with the loader's
/// rules and words: `name-format` ([`skill_name_problem`]) or
/// `field-length` (over [`MAX_NAME_CHARS`]). The diagnostic names no file
/// and no place; the caller fills them in.
///
/// ```
/// use skills_core::{Rule, names::check_skill_name};
///
/// assert!(check_skill_name("pdf-tools").is_ok());
/// let problem = check_skill_name("PDF_Tools").unwrap_err();
/// assert_eq!(problem.rule, Rule::NameFormat);
/// assert_eq!(problem.message, "the name `PDF_Tools` contains the uppercase letter `P`; names are lowercase");
/// assert!(problem.hint.unwrap().contains("like `pdf-tools`"));
/// ```
pub fn check_skill_name(name: &str) -> Result<(), Box<Diagnostic>> {
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        return Err(Box::new(too_long("", "name", count, MAX_NAME_CHARS)));
    }
    match skill_name_problem(name) {
        None => Ok(()),
        Some(problem) => Err(Box::new(
            Diagnostic::new(Rule::NameFormat, "", format!("the name `{name}` {problem}")).hint(
                format!(
                    "use lowercase letters a-z, digits and single hyphens, like `{}`, and give the folder the same name",
                    suggest_skill_name(name)
                ),
            ),
        )),
    }
}

/// The `field-length` problem of a value `count` characters long where `max` fit.
pub(crate) fn too_long(file: &str, key: &str, count: usize, max: usize) -> Diagnostic {
    Diagnostic::new(
        Rule::FieldLength,
        file,
        format!(
            "`{key}` is {count} characters long, {} over the limit of {max}",
            count - max
        ),
    )
    .hint(format!("shorten `{key}` to at most {max} characters"))
}

/// The key under which two names collide on a file system or host that
/// compares names case-insensitively: the name under full Unicode case
/// folding (CaseFolding.txt's C and F mappings, the `caseless` crate), in
/// Unicode normalization form C — canonical caseless matching (Unicode §3.13,
/// D145). `README.md`, `readme.md` and `ReadMe.MD` share a key; so do `é`
/// written as one character and as `e` plus a combining accent, `σ` and `ς`,
/// `s` and `ſ`, `straße` and `STRASSE`, which lowercasing alone keeps apart.
/// Each character is uppercased first, as Windows compares names, so `ı`
/// and `i` share a key too.
///
/// This is the portable-name rule's comparison: [`case_collisions`] within
/// one list, the loader across a whole skills tree (`skills check`,
/// `embed_skills!`), and the folder writer against what a folder already
/// holds all compare with it.
///
/// ```
/// use skills_core::names::fold_case;
///
/// assert_eq!(fold_case("ReadMe.MD"), fold_case("readme.md"));
/// assert_eq!(fold_case("caf\u{e9}"), fold_case("cafe\u{301}"));
/// assert_eq!(fold_case("\u{3c3}.md"), fold_case("\u{3c2}.md")); // σ, ς
/// assert_eq!(fold_case("s.md"), fold_case("\u{17f}.md")); // s, ſ
/// assert_ne!(fold_case("a.md"), fold_case("b.md"));
/// ```
#[cfg(feature = "load")]
pub fn fold_case(name: &str) -> String {
    use caseless::Caseless as _;
    use unicode_normalization::UnicodeNormalization as _;
    // ASCII is its own NFC and folds byte by byte (most paths; and this
    // runs for every segment of every path inside the unoptimised macro).
    if name.is_ascii() {
        return name.to_ascii_lowercase();
    }
    // NFD first: U+0345 and what decomposes to it fold only once decomposed.
    // Uppercased before folding: Windows compares names by each
    // character's uppercase, so `ı` (whose uppercase is `I`) is `i` there,
    // which full folding alone keeps apart; so are the letters Unicode
    // cased after `caseless`'s tables (the standard library's are newer).
    name.chars()
        .nfd()
        .flat_map(char::to_uppercase)
        .default_case_fold()
        .nfc()
        .collect()
}

/// Two paths of one list that differ only in letter case or Unicode
/// normalization at some segment, so they would land on one file (or
/// folder) on macOS, on Windows, and on hosts that compare paths
/// case-insensitively. Its [`Display`](fmt::Display) is the loader's
/// `case-collision` message.
#[cfg(feature = "load")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseCollision<'a> {
    /// The path (or the folder part of a path) that collides, as written.
    pub path: &'a str,
    /// The path (or folder part) seen earlier in the list that it collides with.
    pub earlier: &'a str,
}

#[cfg(feature = "load")]
impl fmt::Display for CaseCollision<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` and `{}` differ only in letter case or Unicode normalization; they collide on macOS, on Windows and on hosts that compare paths case-insensitively",
            self.path, self.earlier
        )
    }
}

/// Every case collision in a list of `/`-separated relative paths, in list
/// order. Each colliding name is reported once, at the shortest prefix where
/// it collides: `A/x.md` and `a/y.md` give one collision between the folders
/// `a` and `A`, not one per file. Folders may be listed or left implicit.
/// The paths are as a walk lists them: no empty segment (no leading,
/// trailing or doubled `/`); for a string that is no such path (`""`, `/`,
/// `a//b`) the answer means nothing ([`check_path`] refuses those).
///
/// ```
/// use skills_core::names::case_collisions;
///
/// let found = case_collisions(["A/x.md", "a/y.md", "b.md", "B.md", "c.md"]);
/// let pairs: Vec<_> = found.iter().map(|c| (c.path, c.earlier)).collect();
/// assert_eq!(pairs, [("a", "A"), ("B.md", "b.md")]);
/// ```
#[cfg(feature = "load")]
pub fn case_collisions<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<CaseCollision<'a>> {
    use std::collections::hash_map::Entry;

    use rustc_hash::{FxHashMap, FxHashSet};

    let mut seen: FxHashSet<&str> = FxHashSet::default();
    let mut keys: FxHashMap<(&str, String), &str> = FxHashMap::default();
    let mut found = Vec::new();
    for path in paths {
        // Each prefix ending at a `/`, then the whole path; parents first.
        let ends = path
            .match_indices('/')
            .map(|(at, _)| at)
            .chain(std::iter::once(path.len()));
        for end in ends {
            let prefix = &path[..end];
            if !seen.insert(prefix) {
                continue;
            }
            let (parent, name) = prefix.rsplit_once('/').unwrap_or(("", prefix));
            match keys.entry((parent, fold_case(name))) {
                Entry::Occupied(first) => found.push(CaseCollision {
                    path: prefix,
                    earlier: first.get(),
                }),
                Entry::Vacant(slot) => {
                    slot.insert(prefix);
                }
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_names() {
        for name in [
            "SKILL.md",
            "my notes.md",
            "100%.txt",
            "é.md",
            "a#b.md",
            "console.md",
            "con-x.md",
            "...md",
            ".hidden",
            "com10.md",
            "lpt\u{b4}.md",
            "conin.md",
            "com.md",
            "clock$",
        ] {
            assert_eq!(check_name(name), Ok(()), "{name}");
        }
    }

    #[test]
    fn unportable_names_say_why() {
        for (name, problem, words) in [
            ("", NameProblem::Empty, "is empty"),
            (".", NameProblem::CurrentDir, "is `.`"),
            ("..", NameProblem::ParentDir, "is `..`"),
            ("a/b", NameProblem::Slash, "contains `/`"),
            (
                "a\u{7}b",
                NameProblem::ControlCharacter('\u{7}'),
                "contains the control character \\u{7}",
            ),
            (
                "a\0",
                NameProblem::ControlCharacter('\0'),
                "control character \\u{0}",
            ),
            ("a\\b", NameProblem::Backslash, "contains a backslash"),
            (
                "what?.md",
                NameProblem::WindowsForbidden('?'),
                "contains `?`, which Windows does not allow in names",
            ),
            ("a:b", NameProblem::WindowsForbidden(':'), "`:`"),
            ("a<b", NameProblem::WindowsForbidden('<'), "`<`"),
            ("a|b", NameProblem::WindowsForbidden('|'), "`|`"),
            ("a\"b", NameProblem::WindowsForbidden('"'), "`\"`"),
            (
                "trailing.",
                NameProblem::TrailingDotOrSpace,
                "ends with a dot",
            ),
            (
                "trailing ",
                NameProblem::TrailingDotOrSpace,
                "ends with a dot or a space, which Windows drops",
            ),
            (
                "CON",
                NameProblem::ReservedName("con".into()),
                "uses `con`, a device name Windows reserves",
            ),
            ("aux.txt", NameProblem::ReservedName("aux".into()), "`aux`"),
            (
                "Lpt9.tar.gz",
                NameProblem::ReservedName("lpt9".into()),
                "`lpt9`",
            ),
            ("nul", NameProblem::ReservedName("nul".into()), "`nul`"),
            // Beyond con…lpt9: port 0, the superscript ports, the console.
            (
                "COM0.md",
                NameProblem::ReservedName("com0".into()),
                "`com0`",
            ),
            ("lpt0", NameProblem::ReservedName("lpt0".into()), "`lpt0`"),
            (
                "COM\u{b9}.md",
                NameProblem::ReservedName("com\u{b9}".into()),
                "`com\u{b9}`",
            ),
            (
                "lpt\u{b2}.txt",
                NameProblem::ReservedName("lpt\u{b2}".into()),
                "`lpt\u{b2}`",
            ),
            (
                "Com\u{b3}",
                NameProblem::ReservedName("com\u{b3}".into()),
                "`com\u{b3}`",
            ),
            (
                "CONIN$",
                NameProblem::ReservedName("conin$".into()),
                "`conin$`",
            ),
            (
                "conout$.log",
                NameProblem::ReservedName("conout$".into()),
                "`conout$`",
            ),
            // Windows drops the spaces before the extension.
            ("nul .txt", NameProblem::ReservedName("nul".into()), "`nul`"),
            // Past what Linux and macOS hold, in bytes, whatever the characters.
            (
                &"a".repeat(256),
                NameProblem::TooLong(256),
                "is 256 bytes long; Linux and macOS hold names of at most 255",
            ),
            (&"é".repeat(128), NameProblem::TooLong(256), "256 bytes"),
        ] {
            assert_eq!(check_name(name), Err(problem.clone()), "{name:?}");
            assert!(problem.to_string().contains(words), "{name:?}: {problem}");
        }
    }

    #[test]
    fn safe_relative_paths() {
        // Each name at most 255 bytes, the path at its 1,024 characters.
        let a = "a".repeat(MAX_NAME_BYTES);
        let longest = format!("{a}/{a}/{a}/{}/{}", "é".repeat(127), "b".repeat(128));
        assert_eq!(longest.chars().count(), MAX_PATH_CHARS);
        for path in [
            "SKILL.md",
            "references/api.md",
            "references/my notes.md",
            "a/b/c/d.txt",
            "scripts/run.py",
            longest.as_str(),
        ] {
            assert_eq!(check_path(path), Ok(()), "{path}");
        }
    }

    #[test]
    fn unsafe_paths_say_why() {
        let too_long = "a/".repeat(MAX_PATH_CHARS / 2) + "b";
        let segment = |segment: &str, problem| PathProblem::Segment {
            segment: segment.to_owned(),
            problem,
        };
        for (path, problem, words) in [
            ("", PathProblem::Empty, "the path is empty"),
            (
                &too_long,
                PathProblem::TooLong {
                    chars: MAX_PATH_CHARS + 1,
                },
                "the path is 1025 characters long; hosts refuse paths over 1024",
            ),
            ("/etc/passwd", PathProblem::Absolute, "absolute"),
            ("/", PathProblem::Absolute, "absolute"),
            ("C:/Windows/x", PathProblem::DrivePrefix, "Windows drive"),
            ("c:x", PathProblem::DrivePrefix, "Windows drive"),
            ("C:\\x", PathProblem::DrivePrefix, "Windows drive"),
            ("a//b", segment("", NameProblem::Empty), "an empty segment"),
            ("a/", segment("", NameProblem::Empty), "an empty segment"),
            (
                "./a",
                segment(".", NameProblem::CurrentDir),
                "a `.` segment",
            ),
            (
                "a/./b",
                segment(".", NameProblem::CurrentDir),
                "a `.` segment",
            ),
            ("..", segment("..", NameProblem::ParentDir), "`..` segment"),
            (
                "a/../../b",
                segment("..", NameProblem::ParentDir),
                "which leads out of its folder",
            ),
            (
                "..\\..\\x",
                segment("..\\..\\x", NameProblem::Backslash),
                "the name `..\\..\\x` contains a backslash",
            ),
            (
                "\\\\server\\share",
                segment("\\\\server\\share", NameProblem::Backslash),
                "backslash",
            ),
            (
                "a/b\0c",
                segment("b\0c", NameProblem::ControlCharacter('\0')),
                "the name `b\\u{0}c` contains the control character \\u{0}",
            ),
            (
                "a/line\nbreak",
                segment("line\nbreak", NameProblem::ControlCharacter('\n')),
                "the name `line\\u{a}break`",
            ),
            (
                "x/aux.md",
                segment("aux.md", NameProblem::ReservedName("aux".into())),
                "the name `aux.md` uses `aux`",
            ),
            (
                "x/y./z",
                segment("y.", NameProblem::TrailingDotOrSpace),
                "the name `y.` ends with a dot",
            ),
            (
                "a/b:c",
                segment("b:c", NameProblem::WindowsForbidden(':')),
                "`:`",
            ),
        ] {
            assert_eq!(check_path(path), Err(problem.clone()), "{path:?}");
            assert!(problem.to_string().contains(words), "{path:?}: {problem}");
        }
    }

    #[cfg(feature = "load")]
    #[test]
    fn folding_joins_case_and_normalization() {
        assert_eq!(fold_case("SKILL.md"), "skill.md");
        assert_eq!(fold_case("Straße"), "strasse");
        assert_eq!(fold_case("E\u{301}"), "\u{e9}");
        assert_eq!(fold_case("\u{e9}"), fold_case("e\u{301}"));
        assert_ne!(fold_case("a"), fold_case("b"));
        // Full folding, which lowercasing is not.
        assert_eq!(fold_case("Stra\u{df}e"), fold_case("STRASSE"));
        assert_eq!(fold_case("\u{3c3}.md"), fold_case("\u{3c2}.md"));
        assert_eq!(fold_case("\u{3a3}.md"), fold_case("\u{3c2}.md"));
        assert_eq!(fold_case("s.md"), fold_case("\u{17f}.md"));
        assert_eq!(fold_case("k"), fold_case("\u{212a}")); // the Kelvin sign
        // U+0345 folds to ι only once ᾳ is decomposed.
        assert_eq!(fold_case("\u{1fb3}"), fold_case("\u{3b1}\u{3b9}"));
        // The key is in NFC.
        assert_eq!(fold_case("CAFE\u{301}"), "caf\u{e9}");
    }

    /// Over every scalar value: the key is a fixed point, the same for the
    /// decomposed spelling, and a portable name stays portable folded (no
    /// character folds into a device name or a forbidden character).
    /// Windows (NTFS, exFAT) compares names by each character's uppercase:
    /// any two characters with one uppercase share a key (`ı` and `i`, whose
    /// full folding keeps them apart).
    #[cfg(feature = "load")]
    #[test]
    fn what_windows_compares_as_one_name_shares_a_key() {
        let mut apart = Vec::new();
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let mut upper = c.to_uppercase();
            if let (Some(u), None) = (upper.next(), upper.next())
                && fold_case(&format!("a{c}")) != fold_case(&format!("a{u}"))
            {
                apart.push(format!("{} {}", c.escape_unicode(), u.escape_unicode()));
            }
        }
        assert!(apart.is_empty(), "{apart:?}");
        assert_eq!(fold_case("\u{131}.md"), fold_case("I.md"));
        assert_eq!(fold_case("\u{131}.md"), fold_case("i.md"));
    }

    #[cfg(feature = "load")]
    #[test]
    fn folding_is_stable_for_every_character() {
        use unicode_normalization::UnicodeNormalization as _;
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let name = format!("a{c}");
            let folded = fold_case(&name);
            assert_eq!(fold_case(&folded), folded, "{:?}", c.escape_unicode());
            let decomposed: String = name.nfd().collect();
            assert_eq!(fold_case(&decomposed), folded, "{:?}", c.escape_unicode());
            if check_name(&name).is_ok() {
                assert_eq!(check_name(&folded), Ok(()), "{:?}", c.escape_unicode());
            }
        }
    }

    #[cfg(feature = "load")]
    #[test]
    fn collisions_are_found_once_at_their_top() {
        let pairs = |paths: &[&'static str]| -> Vec<(&'static str, &'static str)> {
            case_collisions(paths.iter().copied())
                .into_iter()
                .map(|collision| (collision.path, collision.earlier))
                .collect()
        };
        assert_eq!(pairs(&["a.md", "b.md", "c/a.md", "c/d/a.md"]), []);
        assert_eq!(
            pairs(&["README.md", "readme.md"]),
            [("readme.md", "README.md")]
        );
        assert_eq!(
            pairs(&["caf\u{e9}.md", "cafe\u{301}.md"]),
            [("cafe\u{301}.md", "caf\u{e9}.md")]
        );
        // Folders left implicit collide once, whatever they hold.
        assert_eq!(
            pairs(&["Docs/a.md", "Docs/b.md", "docs/a.md", "docs/c.md"]),
            [("docs", "Docs")]
        );
        // Listed folders give the same answer as implicit ones.
        assert_eq!(
            pairs(&["Docs", "Docs/a.md", "docs", "docs/a.md"]),
            [("docs", "Docs")]
        );
        // Same name in different folders is no collision.
        assert_eq!(pairs(&["a/x.md", "b/X.md"]), []);
        // A third spelling names the first one seen.
        assert_eq!(
            pairs(&["x.md", "X.md", "X.MD"]),
            [("X.md", "x.md"), ("X.MD", "x.md")]
        );
        // A path listed twice is not a collision with itself.
        assert_eq!(pairs(&["a.md", "a.md"]), []);
        // Letters that lowercase apart but fold together.
        assert_eq!(
            pairs(&["\u{3c3}.md", "\u{3c2}.md", "s.md", "\u{17f}.md"]),
            [("\u{3c2}.md", "\u{3c3}.md"), ("\u{17f}.md", "s.md")]
        );
        let message = case_collisions(["A", "a"])[0].to_string();
        assert!(
            message.starts_with("`a` and `A` differ only in letter case"),
            "{message}"
        );
    }
}
