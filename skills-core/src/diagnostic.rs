//! Problems found in a skills tree, each with where it is, the rule it
//! breaks, how bad it is, and how to fix it.
//!
//! Loading never stops at the first problem: every step reports into one
//! collector (crate-private), and the only way to get a result out of it is
//! to finish it, which fails when an error was reported. A forgotten error
//! cannot slip through. Warnings (what the specification only recommends)
//! never fail a load; they travel with the result.
//!
//! A diagnostic is data: the message and hint are neutral, and what a front
//! end adds is rendered from data too (the rule catalogue is `rules`, the
//! renderer `render`). An [`OptionHint`] names the option that would accept
//! what was refused, and each front end spells it its own way through
//! [`FrontEnd`](crate::FrontEnd) (`allow_fields = ["author"]` in the macro,
//! `--allow-field author` on a command line); a [`Fix`] is the mechanical
//! edit that fixes the file, for `--fix` and for tests.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::ops::Range;

use crate::rules::{OptionHint, Rule, Severity};

/// A mechanical edit that fixes the problem: replace `range` (byte offsets
/// into the diagnostic's file; empty to insert) with `replacement`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// Byte range of the file to replace.
    pub range: Range<usize>,
    /// What to put there.
    pub replacement: String,
}

impl Fix {
    /// Applies every fix of one file to its `text`, last first so the
    /// offsets stay valid. Overlapping fixes after the first are skipped, as
    /// are fixes outside the text; the result says how many were applied.
    pub fn apply_all<'f>(text: &str, fixes: impl IntoIterator<Item = &'f Fix>) -> (String, usize) {
        let mut fixes: Vec<&Fix> = fixes
            .into_iter()
            .filter(|fix| {
                fix.range.start <= fix.range.end
                    && fix.range.end <= text.len()
                    && text.is_char_boundary(fix.range.start)
                    && text.is_char_boundary(fix.range.end)
            })
            .collect();
        fixes.sort_by_key(|fix| (fix.range.start, fix.range.end));
        // The first of overlapping fixes wins.
        let mut kept: Vec<&Fix> = Vec::new();
        for fix in fixes {
            if kept
                .last()
                .is_none_or(|last| fix.range.start >= last.range.end)
            {
                kept.push(fix);
            }
        }
        let mut out = text.to_owned();
        for fix in kept.iter().rev() {
            out.replace_range(fix.range.clone(), &fix.replacement);
        }
        let applied = kept.len();
        (out, applied)
    }
}

/// One problem: the file (relative to the skills root), an optional 1-based
/// line and column (columns count characters), the rule, its severity, what
/// is wrong, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// `/`-separated path relative to the skills root; empty for the root itself.
    pub file: String,
    /// 1-based line, when the problem is at a place inside the file.
    pub line: Option<u32>,
    /// 1-based column in characters, when known.
    pub column: Option<u32>,
    /// How many characters from `column` the problem spans (1 when unknown).
    pub length: u32,
    /// The rule that was broken.
    pub rule: Rule,
    /// Whether it fails a load.
    pub severity: Severity,
    /// What is wrong, in words a skill author understands.
    pub message: String,
    /// How to fix it, in words that hold for every front end.
    pub hint: Option<String>,
    /// The option that would accept what was refused, for the front end to spell.
    pub option: Option<OptionHint>,
    /// The edit that fixes the file, when one is mechanical.
    pub fix: Option<Fix>,
    /// The text of `line`, as written (without its line break), for the snippet.
    pub source_line: Option<String>,
}

impl Diagnostic {
    /// An error about a whole file or folder. The message stays one line:
    /// a control character in it (a tab or line break from a quoted key)
    /// is spelled as an escape (`\t`, `\n`).
    pub fn new(rule: Rule, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line: None,
            column: None,
            length: 1,
            rule,
            severity: Severity::Error,
            message: one_line(message.into()),
            hint: None,
            option: None,
            fix: None,
            source_line: None,
        }
    }

    /// A warning about a whole file or folder.
    pub fn warning(rule: Rule, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            severity: Severity::Warning,
            ..Self::new(rule, file, message)
        }
    }

    /// Places the problem at `line`:`column` (both 1-based).
    pub fn at(mut self, line: u32, column: u32) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Places the problem at a [`Position`], when there is one.
    pub fn at_position(self, position: Option<Position>) -> Self {
        match position {
            Some(position) => self.at(position.line, position.column),
            None => self,
        }
    }

    /// Underlines `length` characters from the column.
    pub fn length(mut self, length: usize) -> Self {
        self.length = saturating_u32(length.max(1));
        self
    }

    /// Adds how to fix it.
    /// Like the message, it stays one line ([`printable`]).
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(one_line(hint.into()));
        self
    }

    /// Names the option that would accept it.
    pub fn option(mut self, option: OptionHint) -> Self {
        self.option = Some(option);
        self
    }

    /// Adds the mechanical edit that fixes it.
    pub fn fix(mut self, range: Range<usize>, replacement: impl Into<String>) -> Self {
        self.fix = Some(Fix {
            range,
            replacement: replacement.into(),
        });
        self
    }

    /// Fills [`source_line`](Self::source_line) from the file's `text`.
    pub fn with_source(mut self, text: &str) -> Self {
        self.attach_source(text);
        self
    }

    pub(crate) fn attach_source(&mut self, text: &str) {
        if self.source_line.is_some() {
            return;
        }
        let Some(line) = self.line.and_then(|line| usize::try_from(line).ok()) else {
            return;
        };
        self.source_line = text
            .split('\n')
            .nth(line.saturating_sub(1))
            .map(|line| line.strip_suffix('\r').unwrap_or(line).to_owned());
    }

    /// Whether this is an error (a load fails on it).
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The path printed for the file: `root/file`, the root alone for the
    /// root itself, `.` when both are empty; [`printable`], so that a file's
    /// name cannot act on the terminal or log it is printed to.
    pub fn display_path(&self, root: &str) -> String {
        let root = root.trim_end_matches('/');
        let path = match (root.is_empty(), self.file.is_empty()) {
            (true, true) => ".".to_owned(),
            (false, true) => root.to_owned(),
            (true, false) => self.file.clone(),
            (false, false) => format!("{root}/{}", self.file),
        };
        one_line(path)
    }

    /// `root/file:line:col: rule: message` on one line, then the hint on a
    /// second (`  help: …`): the short form, for logs and one-line listings.
    /// The renderer (`skills_runtime::load::Renderer`, feature `load`) prints
    /// the full form with the source line.
    pub fn render(&self, root: &str) -> String {
        let mut out = self.location(root);
        out.push_str(": ");
        if self.severity == Severity::Warning {
            out.push_str("warning: ");
        }
        out.push_str(self.rule.id());
        out.push_str(": ");
        out.push_str(&self.message);
        if let Some(hint) = &self.hint {
            out.push_str("\n  help: ");
            out.push_str(hint);
        }
        out
    }

    /// `root/file:line:col`, as far as known.
    pub fn location(&self, root: &str) -> String {
        let mut out = self.display_path(root);
        if let Some(line) = self.line {
            out.push_str(&format!(":{line}"));
            if let Some(column) = self.column {
                out.push_str(&format!(":{column}"));
            }
        }
        out
    }
}

/// A 1-based line and column (in characters) inside a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
}

impl Position {
    /// The position of byte offset `offset` in `text` (clamped to its length).
    pub fn of_offset(text: &str, offset: usize) -> Self {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
        Self {
            line: saturating_u32(before.matches('\n').count() + 1),
            column: saturating_u32(before[line_start..].chars().count() + 1),
        }
    }
}

/// `message` with each control character (a tab or a line break inside a
/// key or value it quotes) spelled as an escape, so the message stays one
/// line whose every character shows: `` `descri\tption` ``.
fn one_line(message: String) -> String {
    match printable(&message) {
        Cow::Borrowed(_) => message,
        Cow::Owned(escaped) => escaped,
    }
}

/// `text` (a path, a name, a hint, a line quoted from a file) with every
/// character that a terminal or a CI log acts on instead of showing spelled
/// as an escape, as Rust spells it in a string (`\n`, `\u{1b}`): control characters
/// (C0, DEL and C1: a line break, `ESC` starting a terminal sequence, the
/// single-byte `CSI`), the bidirectional overrides and isolates that
/// reorder what a reader sees (U+202A–U+202E, U+2066–U+2069), and the line
/// and paragraph separators (U+2028, U+2029). What comes out is one line of
/// visible characters: a name cannot clear a screen, set a terminal's title,
/// or start a line of its own that a CI runner reads as a command
/// (`::stop-commands::`). Borrowed when nothing needed escaping.
///
/// The one escape of everything the project prints that a folder's owner
/// or a peer named: every front end's output goes through it.
///
/// ```
/// use skills_core::printable;
///
/// assert_eq!(printable("notes.md"), "notes.md");
/// assert_eq!(printable("a\u{1b}]0;pwned\u{7}b"), "a\\u{1b}]0;pwned\\u{7}b");
/// assert_eq!(printable("x\n::stop-commands::t"), "x\\n::stop-commands::t");
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acted_on) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if acted_on(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Whether a terminal or a log reader acts on `c` rather than showing it.
fn acted_on(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

pub(crate) fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Every problem found in a skills tree (or one `SKILL.md`), errors and
/// warnings, ordered by file, line and column. Returned by the strict load
/// (`skills_runtime::load::load`, feature `load`) when an error was found; a
/// lenient load returns one per root whatever it found. A server refuses a
/// set of skills with one too.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    root: String,
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// A report of `diagnostics` (sorted by place, duplicates removed) about
    /// the root named `root` in messages.
    pub fn new(root: impl Into<String>, mut diagnostics: Vec<Diagnostic>) -> Self {
        diagnostics.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.rule).cmp(&(&b.file, b.line, b.column, b.rule))
        });
        diagnostics.dedup();
        Self {
            root: root.into(),
            diagnostics,
        }
    }

    /// How the skills root is named in messages.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Every problem, ordered by file, line and column.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The errors only.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics.iter().filter(|d| d.is_error())
    }

    /// The warnings only.
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> + '_ {
        self.diagnostics.iter().filter(|d| !d.is_error())
    }

    /// Whether the report holds an error.
    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    /// Whether the report holds nothing at all.
    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// Each problem in the short form of [`Diagnostic::render`], in order.
    pub fn rendered(&self) -> impl Iterator<Item = String> + '_ {
        self.diagnostics
            .iter()
            .map(|diagnostic| diagnostic.render(&self.root))
    }

    /// `2 problems in skills`, or `3 problems (2 errors, 1 warning) in
    /// skills` when some are warnings (`in …` left out without a root).
    pub fn summary(&self) -> String {
        let count = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let errors = self.errors().count();
        let warnings = self.warnings().count();
        let mut out = count(errors + warnings, "problem");
        if warnings > 0 {
            out.push_str(&format!(
                " ({}, {})",
                count(errors, "error"),
                count(warnings, "warning")
            ));
        }
        if !self.root.is_empty() {
            out.push_str(" in ");
            out.push_str(&printable(&self.root));
        }
        out
    }
}

/// The short form: the summary, then one [`Diagnostic::render`] per problem.
impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}:", self.summary())?;
        for rendered in self.rendered() {
            writeln!(f, "{rendered}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

/// Collects problems while a tree is loaded. Its result is only reachable
/// through [`finish`](Self::finish), so no step can forget to report.
#[cfg(feature = "load")]
#[derive(Debug, Default)]
#[must_use = "a Diagnostics collector must be finished, or its problems are lost"]
pub(crate) struct Diagnostics {
    diagnostics: Vec<Diagnostic>,
}

#[cfg(feature = "load")]
impl Diagnostics {
    /// An empty collector.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Records a problem.
    pub(crate) fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Whether an error was reported so far.
    pub(crate) fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// How many problems were reported so far (a mark for [`since`](Self::since)).
    pub(crate) fn len(&self) -> usize {
        self.diagnostics.len()
    }

    /// Gives the problems of `file` reported after `mark` their source line.
    pub(crate) fn attach_source(&mut self, mark: usize, file: &str, text: &str) {
        for diagnostic in &mut self.diagnostics[mark..] {
            if diagnostic.file == file {
                diagnostic.attach_source(text);
            }
        }
    }

    /// Every problem, unsorted.
    pub(crate) fn into_vec(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// `value` and the warnings when no error was reported, else a report
    /// of every problem, sorted by place.
    pub(crate) fn finish<T>(self, root: &str, value: T) -> Result<(T, Vec<Diagnostic>), Report> {
        if self.has_errors() {
            return Err(Report::new(root, self.diagnostics));
        }
        Ok((value, Report::new(root, self.diagnostics).diagnostics))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_place_rule_message_and_hint() {
        let diagnostic = Diagnostic::new(Rule::NameMismatch, "pdf/SKILL.md", "wrong name")
            .at(2, 7)
            .hint("rename it");
        assert_eq!(
            diagnostic.render("skills/"),
            "skills/pdf/SKILL.md:2:7: name-mismatch: wrong name\n  help: rename it"
        );
        let whole = Diagnostic::new(Rule::NoSkills, "", "nothing here");
        assert_eq!(
            whole.render("./fixtures"),
            "./fixtures: no-skills: nothing here"
        );
        assert_eq!(whole.render(""), ".: no-skills: nothing here");
        let warning = Diagnostic::warning(Rule::TooManyLines, "a/SKILL.md", "long");
        assert_eq!(
            warning.render("s"),
            "s/a/SKILL.md: warning: too-many-lines: long"
        );
    }

    #[test]
    fn fixes_apply_last_first_and_skip_overlaps() {
        let fix = |start: usize, end: usize, with: &str| Fix {
            range: start..end,
            replacement: with.to_owned(),
        };
        let text = "version: 1.10\nbeta: yes\n";
        let fixes = [
            fix(9, 13, "\"1.10\""),
            fix(20, 23, "\"yes\""),
            fix(10, 12, "x"),
        ];
        let (fixed, applied) = Fix::apply_all(text, &fixes);
        assert_eq!(fixed, "version: \"1.10\"\nbeta: \"yes\"\n");
        assert_eq!(applied, 2);
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "---\nname: é-x\n";
        assert_eq!(
            Position::of_offset(text, 0),
            Position { line: 1, column: 1 }
        );
        let position = Position::of_offset(text, text.find("-x").unwrap());
        assert_eq!(position, Position { line: 2, column: 8 });
        assert_eq!(
            Position::of_offset(text, 999),
            Position { line: 3, column: 1 }
        );
    }

    #[cfg(feature = "load")]
    #[test]
    fn finishing_fails_on_errors_only() {
        let mut diagnostics = Diagnostics::new();
        diagnostics.push(Diagnostic::new(Rule::Secret, "b", "second"));
        diagnostics.push(Diagnostic::new(Rule::Io, "a", "first").at(3, 1));
        assert!(diagnostics.has_errors());
        let report = diagnostics.finish("root", ()).unwrap_err();
        let files: Vec<_> = report
            .diagnostics()
            .iter()
            .map(|d| d.file.as_str())
            .collect();
        assert_eq!(files, ["a", "b"]);
        assert!(report.to_string().starts_with("2 problems in root:"));
        assert!(Diagnostics::new().finish("root", 7).is_ok());
        let mut diagnostics = Diagnostics::new();
        diagnostics.push(Diagnostic::warning(
            Rule::TooManyLines,
            "a/SKILL.md",
            "long",
        ));
        let (value, warnings) = diagnostics.finish("root", 7).unwrap();
        assert_eq!((value, warnings.len()), (7, 1));
        let mut diagnostics = Diagnostics::new();
        diagnostics.push(Diagnostic::new(Rule::Io, "SKILL.md", "unreadable"));
        let report = diagnostics.finish("", ()).unwrap_err();
        assert_eq!(report.to_string(), "1 problem:\nSKILL.md: io: unreadable\n");
    }
}
