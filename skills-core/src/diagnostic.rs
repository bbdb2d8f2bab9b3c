//! Problems found in a skills tree, each with where it is, the rule it
//! breaks, and how to fix it.
//!
//! Loading never stops at the first problem: every step reports into one
//! [`Diagnostics`] collector, and the only way to get a result out of the
//! collector is [`Diagnostics::finish`], which fails when anything was
//! reported. A forgotten error cannot slip through.

use std::fmt;

/// The rule a [`Diagnostic`] reports. Its [`id`](Rule::id) is stable and is
/// printed in every message, so authors can search for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// The skills root is missing or is not a folder.
    RootMissing,
    /// The root holds no skill at all.
    NoSkills,
    /// A top-level folder has no `SKILL.md` anywhere inside.
    NotASkill,
    /// A file or folder name is not UTF-8.
    NonUtf8Name,
    /// A name a URI or another operating system cannot carry.
    UnportableName,
    /// A path too long for hosts to install.
    PathTooLong,
    /// A symbolic link inside the tree.
    Symlink,
    /// A FIFO, socket or device inside the tree.
    SpecialFile,
    /// Two paths that differ only in case or Unicode normalization.
    CaseCollision,
    /// More files in one skill than SEP-2640 allows.
    TooManyFiles,
    /// More bytes in one skill than SEP-2640 allows.
    SkillTooLarge,
    /// One file too large to travel in a single `resources/read`.
    FileTooLarge,
    /// Two skills with the same `name`.
    DuplicateName,
    /// A file that could not be read.
    Io,
    /// `SKILL.md` is not UTF-8 text (BOM, UTF-16, invalid UTF-8 or NUL).
    Encoding,
    /// `SKILL.md` does not start with a `---` line.
    FrontmatterStart,
    /// The frontmatter has no closing `---` line, or a delimiter has trailing characters.
    FrontmatterEnd,
    /// The frontmatter is not valid YAML.
    YamlSyntax,
    /// A mapping key appears twice.
    DuplicateKey,
    /// A YAML anchor or alias.
    YamlAnchor,
    /// A YAML tag such as `!!str`.
    YamlTag,
    /// A YAML merge key `<<`.
    MergeKey,
    /// A key that is not a plain string.
    ComplexKey,
    /// An unquoted scalar that YAML 1.1 and YAML 1.2 read as different types.
    AmbiguousScalar,
    /// The frontmatter is not a mapping.
    NotAMapping,
    /// A top-level key outside the specification and the allow-list.
    UnknownField,
    /// `name` or `description` is missing.
    RequiredField,
    /// A field has the wrong type.
    FieldType,
    /// `name` breaks the character rules.
    NameFormat,
    /// `name` differs from the folder name.
    NameMismatch,
    /// A field is longer than the specification allows.
    FieldLength,
    /// A `metadata` key in the reserved `io.modelcontextprotocol/` namespace.
    ReservedMetadataKey,
    /// A relative link in the body points at no file of the skill.
    BrokenLink,
    /// A credential in a file that will be served to models.
    Secret,
}

impl Rule {
    /// The stable identifier printed in messages (`name-mismatch`).
    pub const fn id(self) -> &'static str {
        match self {
            Self::RootMissing => "root-missing",
            Self::NoSkills => "no-skills",
            Self::NotASkill => "not-a-skill",
            Self::NonUtf8Name => "non-utf8-name",
            Self::UnportableName => "unportable-name",
            Self::PathTooLong => "path-too-long",
            Self::Symlink => "symlink",
            Self::SpecialFile => "special-file",
            Self::CaseCollision => "case-collision",
            Self::TooManyFiles => "too-many-files",
            Self::SkillTooLarge => "skill-too-large",
            Self::FileTooLarge => "file-too-large",
            Self::DuplicateName => "duplicate-name",
            Self::Io => "io",
            Self::Encoding => "encoding",
            Self::FrontmatterStart => "frontmatter-start",
            Self::FrontmatterEnd => "frontmatter-end",
            Self::YamlSyntax => "yaml-syntax",
            Self::DuplicateKey => "duplicate-key",
            Self::YamlAnchor => "yaml-anchor",
            Self::YamlTag => "yaml-tag",
            Self::MergeKey => "merge-key",
            Self::ComplexKey => "complex-key",
            Self::AmbiguousScalar => "ambiguous-scalar",
            Self::NotAMapping => "not-a-mapping",
            Self::UnknownField => "unknown-field",
            Self::RequiredField => "required-field",
            Self::FieldType => "field-type",
            Self::NameFormat => "name-format",
            Self::NameMismatch => "name-mismatch",
            Self::FieldLength => "field-length",
            Self::ReservedMetadataKey => "reserved-metadata-key",
            Self::BrokenLink => "broken-link",
            Self::Secret => "secret",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One problem: the file (relative to the skills root), an optional 1-based
/// line and column (columns count characters), the rule, what is wrong, and a
/// hint that says how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// `/`-separated path relative to the skills root; empty for the root itself.
    pub file: String,
    /// 1-based line, when the problem is at a place inside the file.
    pub line: Option<u32>,
    /// 1-based column in characters, when known.
    pub column: Option<u32>,
    /// The rule that was broken.
    pub rule: Rule,
    /// What is wrong, in words a skill author understands.
    pub message: String,
    /// How to fix it.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// A problem with a whole file or folder.
    pub fn new(rule: Rule, file: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: file.into(),
            line: None,
            column: None,
            rule,
            message: message.into(),
            hint: None,
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

    /// Adds how to fix it.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// `root/file:line:col: rule: message`, with the hint on a second line.
    /// `root` is how the user named the skills root (`skills`, `./fixtures`).
    pub fn render(&self, root: &str) -> String {
        let mut out = self.location(root);
        out.push_str(": ");
        out.push_str(self.rule.id());
        out.push_str(": ");
        out.push_str(&self.message);
        if let Some(hint) = &self.hint {
            out.push_str("\n  help: ");
            out.push_str(hint);
        }
        out
    }

    fn location(&self, root: &str) -> String {
        let root = root.trim_end_matches('/');
        let mut out = match (root.is_empty(), self.file.is_empty()) {
            (_, true) if root.is_empty() => ".".to_owned(),
            (_, true) => root.to_owned(),
            (true, false) => self.file.clone(),
            (false, false) => format!("{root}/{}", self.file),
        };
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

pub(crate) fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Every problem found in a skills tree. Returned by [`load`](crate::load())
/// when anything is wrong; the tree is only usable when nothing is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    root: String,
    diagnostics: Vec<Diagnostic>,
}

impl Report {
    /// How the skills root is named in messages.
    pub fn root(&self) -> &str {
        &self.root
    }

    /// Every problem, ordered by file, line and column.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// Each problem rendered on its own (with its hint), in order.
    pub fn rendered(&self) -> impl Iterator<Item = String> + '_ {
        self.diagnostics
            .iter()
            .map(|diagnostic| diagnostic.render(&self.root))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.diagnostics.len();
        let plural = if count == 1 { "" } else { "s" };
        // A report about one SKILL.md (`parse_skill_md`) may have no root.
        if self.root.is_empty() {
            writeln!(f, "{count} problem{plural}:")?;
        } else {
            writeln!(f, "{count} problem{plural} in {}:", self.root)?;
        }
        for rendered in self.rendered() {
            writeln!(f, "{rendered}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}

/// Collects problems while a tree is loaded. Its result is only reachable
/// through [`finish`](Self::finish), so no step can forget to report.
#[derive(Debug, Default)]
#[must_use = "a Diagnostics collector must be finished, or its problems are lost"]
pub struct Diagnostics {
    diagnostics: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty collector.
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a problem.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Whether anything was reported so far.
    pub fn has_errors(&self) -> bool {
        !self.diagnostics.is_empty()
    }

    /// `value` when nothing was reported, else every problem, sorted by place.
    pub fn finish<T>(self, root: &str, value: T) -> Result<T, Report> {
        if self.diagnostics.is_empty() {
            return Ok(value);
        }
        let mut diagnostics = self.diagnostics;
        diagnostics.sort_by(|a, b| {
            (&a.file, a.line, a.column, a.rule).cmp(&(&b.file, b.line, b.column, b.rule))
        });
        diagnostics.dedup();
        Err(Report {
            root: root.to_owned(),
            diagnostics,
        })
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

    #[test]
    fn finishing_reports_everything_sorted() {
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
        diagnostics.push(Diagnostic::new(Rule::Io, "SKILL.md", "unreadable"));
        let report = diagnostics.finish("", ()).unwrap_err();
        assert_eq!(report.to_string(), "1 problem:\nSKILL.md: io: unreadable\n");
    }
}
