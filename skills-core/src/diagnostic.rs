//! Problems found in a skills tree, each with where it is, the rule it
//! breaks, how bad it is, and how to fix it; and the one renderer that
//! prints them the way rustc prints its own.
//!
//! Loading never stops at the first problem: every step reports into one
//! collector (crate-private), and the only way to get a result out of it is
//! to finish it, which fails when an error was reported. A forgotten error
//! cannot slip through. Warnings (what the specification only recommends)
//! never fail a load; they travel with the result.
//!
//! A diagnostic is data: the message and hint are neutral, and what a front
//! end adds is rendered from data too. An [`OptionHint`] names the option
//! that would accept what was refused, and each front end spells it its own
//! way through [`FrontEnd`] (`allow_fields = ["author"]` in the macro,
//! `--allow-field author` on a command line); a [`Fix`] is the mechanical
//! edit that fixes the file, for `--fix` and for tests.

use std::fmt;
use std::ops::Range;

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
    /// A ` #` after an unquoted value on its line: YAML reads it as the
    /// start of a comment and cuts the value short there.
    InlineComment,
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
    /// A relative link in the body that climbs out of its own skill
    /// (`../kitchen/SKILL.md`): broken once the skill is served, synced or
    /// installed alone.
    LinkOutsideSkill,
    /// A credential in a file that will be served to models.
    Secret,
    /// A `SKILL.md` longer than the 500 lines the specification recommends
    /// (a warning).
    TooManyLines,
    /// A `SKILL.md` body over the roughly 5,000 tokens the specification
    /// recommends (a warning).
    TooManyTokens,
    /// A file reached only through another referenced file, more than one
    /// level deep from `SKILL.md` (a warning).
    NestedReference,
    /// A `description` still the placeholder `skills new` writes (a warning).
    PlaceholderDescription,
    /// A gated skill (sold, or held back from some callers) whose frontmatter
    /// grants `allowed-tools`: execution rights belong to the server and its
    /// OAuth scopes, not to an instruction file.
    GatedAllowedTools,
    /// The `gated` option is inconsistent with the tree: a glob that names no
    /// skill, or a gated skill nested in one that is not (whose folder would
    /// serve its files free).
    Gated,
    /// The `generated` option names a path that no skill can hold, a file
    /// declared generated is still missing when the set is served, or a file
    /// added at run time cannot be added.
    Generated,
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
            Self::InlineComment => "inline-comment",
            Self::NotAMapping => "not-a-mapping",
            Self::UnknownField => "unknown-field",
            Self::RequiredField => "required-field",
            Self::FieldType => "field-type",
            Self::NameFormat => "name-format",
            Self::NameMismatch => "name-mismatch",
            Self::FieldLength => "field-length",
            Self::ReservedMetadataKey => "reserved-metadata-key",
            Self::BrokenLink => "broken-link",
            Self::LinkOutsideSkill => "link-outside-skill",
            Self::Secret => "secret",
            Self::TooManyLines => "too-many-lines",
            Self::TooManyTokens => "too-many-tokens",
            Self::NestedReference => "nested-reference",
            Self::PlaceholderDescription => "placeholder-description",
            Self::GatedAllowedTools => "gated-allowed-tools",
            Self::Gated => "gated",
            Self::Generated => "generated",
        }
    }
}

impl Rule {
    /// Every rule, in the order of this enum (for tables and `--explain`-like listings).
    pub const ALL: [Rule; 43] = [
        Self::RootMissing,
        Self::NoSkills,
        Self::NotASkill,
        Self::NonUtf8Name,
        Self::UnportableName,
        Self::PathTooLong,
        Self::Symlink,
        Self::SpecialFile,
        Self::CaseCollision,
        Self::TooManyFiles,
        Self::SkillTooLarge,
        Self::FileTooLarge,
        Self::DuplicateName,
        Self::Io,
        Self::Encoding,
        Self::FrontmatterStart,
        Self::FrontmatterEnd,
        Self::YamlSyntax,
        Self::DuplicateKey,
        Self::YamlAnchor,
        Self::YamlTag,
        Self::MergeKey,
        Self::ComplexKey,
        Self::AmbiguousScalar,
        Self::InlineComment,
        Self::NotAMapping,
        Self::UnknownField,
        Self::RequiredField,
        Self::FieldType,
        Self::NameFormat,
        Self::NameMismatch,
        Self::FieldLength,
        Self::ReservedMetadataKey,
        Self::BrokenLink,
        Self::LinkOutsideSkill,
        Self::Secret,
        Self::TooManyLines,
        Self::TooManyTokens,
        Self::NestedReference,
        Self::PlaceholderDescription,
        Self::GatedAllowedTools,
        Self::Gated,
        Self::Generated,
    ];

    /// Whether the rule is about one skill's `SKILL.md` as a document (its
    /// encoding, frontmatter, fields, links and size), so that breaking it
    /// makes that one skill unusable, not the skills whose folders hold it.
    /// The other rules are about files and folders: a secret, a symlink or an
    /// unportable name makes every skill that would serve the file unusable.
    pub const fn is_about_skill_md(self) -> bool {
        matches!(
            self,
            Self::Encoding
                | Self::FrontmatterStart
                | Self::FrontmatterEnd
                | Self::YamlSyntax
                | Self::DuplicateKey
                | Self::YamlAnchor
                | Self::YamlTag
                | Self::MergeKey
                | Self::ComplexKey
                | Self::AmbiguousScalar
                | Self::InlineComment
                | Self::NotAMapping
                | Self::UnknownField
                | Self::RequiredField
                | Self::FieldType
                | Self::NameFormat
                | Self::NameMismatch
                | Self::FieldLength
                | Self::ReservedMetadataKey
                | Self::BrokenLink
                | Self::LinkOutsideSkill
                | Self::TooManyFiles
                | Self::SkillTooLarge
                | Self::DuplicateName
                | Self::TooManyLines
                | Self::TooManyTokens
                | Self::PlaceholderDescription
                | Self::GatedAllowedTools
        )
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How bad a problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The rules refuse it: a strict load fails, a lenient one drops the skill.
    Error,
    /// The specification only recommends otherwise: reported, never refused.
    Warning,
}

impl Severity {
    /// `error` or `warning`, as printed and as JSON output spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Error => "error",
            Self::Warning => "warning",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An option that would make the rules accept what a diagnostic refuses.
/// Each front end spells it its own way ([`FrontEnd`]); the
/// diagnostic's own hint only names the option.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum OptionHint {
    /// Accept this top-level frontmatter key (`Options::allow_fields`).
    AllowField(String),
    /// Do not check the files a `SKILL.md` names (`Options::check_links = false`).
    NoCheckLinks,
    /// This file (relative to the skills root) may hold credential-shaped
    /// text (`Options::allow_secrets_in`).
    AllowSecretsIn(String),
}

impl OptionHint {
    /// The option's name in [`Options`](crate::Options) and in the macro:
    /// `allow_fields`, `check_links`, `allow_secrets_in`.
    pub const fn option_name(&self) -> &'static str {
        match self {
            Self::AllowField(_) => "allow_fields",
            Self::NoCheckLinks => "check_links",
            Self::AllowSecretsIn(_) => "allow_secrets_in",
        }
    }

    /// Turns the option on in `options`, as a front end would on the
    /// author's request (tests use it to check that a hint leads somewhere).
    #[cfg(feature = "load")]
    pub fn apply(&self, options: &mut crate::Options) {
        match self {
            Self::AllowField(field) => options.allow_fields.push(field.clone()),
            Self::NoCheckLinks => options.check_links = false,
            Self::AllowSecretsIn(path) => options.allow_secrets_in.push(path.clone()),
        }
    }
}

/// What a front end (the macro, a command line, a program calling the
/// library) adds to a diagnostic when it is rendered: how it writes the
/// option a hint names, so that the author reads what to type where they
/// configure the rules, and any note of its own. [`Library`] is the
/// library's.
pub trait FrontEnd {
    /// One sentence saying where and how to turn `option` on, e.g.
    /// ``in `embed_skills!`, after the folder: `allow_fields = ["author"]` ``
    /// or ``on the command line: `--allow-field author` ``.
    fn spell(&self, option: &OptionHint) -> String;

    /// A note of this front end's about `diagnostic` (how it resolves a
    /// relative folder, for a missing root), printed after the hints.
    fn note(&self, diagnostic: &Diagnostic) -> Option<String> {
        let _ = diagnostic;
        None
    }
}

/// The library's front end: options are fields of
/// [`Options`](crate::Options), what a program loading skills sets.
#[derive(Debug, Clone, Copy, Default)]
pub struct Library;

impl FrontEnd for Library {
    fn spell(&self, option: &OptionHint) -> String {
        match option {
            OptionHint::AllowField(field) => {
                format!("to accept it, add \"{field}\" to `Options::allow_fields`")
            }
            OptionHint::NoCheckLinks => {
                "to skip this check, set `Options::check_links` to false".to_owned()
            }
            OptionHint::AllowSecretsIn(path) => {
                format!("to allow it, add \"{path}\" to `Options::allow_secrets_in`")
            }
        }
    }
}

/// `embed_skills!`'s front end: options are written after the folder in
/// the macro call. The macro's own messages use it, and so does a live
/// reload of a folder embedded with the macro, whose author fixes a refusal
/// the same way.
#[derive(Debug, Clone, Copy, Default)]
pub struct EmbedMacro;

impl FrontEnd for EmbedMacro {
    fn spell(&self, option: &OptionHint) -> String {
        let written = match option {
            OptionHint::AllowField(field) => format!("allow_fields = [\"{field}\"]"),
            OptionHint::NoCheckLinks => "check_links = false".to_owned(),
            OptionHint::AllowSecretsIn(path) => format!("allow_secrets_in = [\"{path}\"]"),
        };
        format!("in `embed_skills!`, after the folder: `{written}`")
    }

    fn note(&self, diagnostic: &Diagnostic) -> Option<String> {
        (diagnostic.rule == Rule::RootMissing).then(|| {
            "in `embed_skills!`, a relative path starts at the folder holding Cargo.toml; one starting with `./` starts at the file that calls the macro".to_owned()
        })
    }
}

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
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
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
    /// root itself, `.` when both are empty.
    pub fn display_path(&self, root: &str) -> String {
        let root = root.trim_end_matches('/');
        match (root.is_empty(), self.file.is_empty()) {
            (true, true) => ".".to_owned(),
            (false, true) => root.to_owned(),
            (true, false) => self.file.clone(),
            (false, false) => format!("{root}/{}", self.file),
        }
    }

    /// `root/file:line:col: rule: message` on one line, then the hint on a
    /// second (`  help: …`): the short form, for logs and one-line listings.
    /// [`Renderer`] prints the full form with the source line.
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

/// Prints diagnostics as rustc prints its own: `error[rule]: message`, the
/// place, the line with a caret under the column, the hint, how the front
/// end turns the option on, and the front end's note. The one renderer of the project: the
/// macro's messages and a command line's output both come from here.
///
/// ```
/// use skills_core::{Diagnostic, Library, Renderer, Rule};
///
/// let text = "---\nname: pdf-tools\ndescription: Fill forms.\n---\n";
/// let diagnostic = Diagnostic::new(Rule::NameMismatch, "pdf/SKILL.md", "the name `pdf-tools` differs from its folder `pdf`")
///     .at(2, 7)
///     .length(9)
///     .hint("set `name: pdf`")
///     .with_source(text);
/// assert_eq!(Renderer::new(&Library).diagnostic(&diagnostic, "skills"), "\
/// error[name-mismatch]: the name `pdf-tools` differs from its folder `pdf`
///  --> skills/pdf/SKILL.md:2:7
///   |
/// 2 | name: pdf-tools
///   |       ^^^^^^^^^
///   |
///   = help: set `name: pdf`");
/// ```
#[cfg(feature = "load")]
#[derive(Clone, Copy)]
pub struct Renderer<'s> {
    front_end: &'s dyn FrontEnd,
    color: bool,
}

#[cfg(feature = "load")]
impl fmt::Debug for Renderer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Renderer")
            .field("color", &self.color)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "load")]
impl<'s> Renderer<'s> {
    /// Plain text, with options spelled by `front_end`.
    pub fn new(front_end: &'s dyn FrontEnd) -> Self {
        Self {
            front_end,
            color: false,
        }
    }

    /// With ANSI colors (rustc's), for a terminal.
    pub fn color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// One diagnostic, in several lines, without a trailing line break.
    /// `root` is how the user named the skills root (`skills`, `./fixtures`).
    pub fn diagnostic(&self, diagnostic: &Diagnostic, root: &str) -> String {
        use annotate_snippets::{AnnotationKind, Level, Origin, Snippet};

        let level = match diagnostic.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let path = diagnostic.display_path(root);
        let title = level
            .primary_title(diagnostic.message.as_str())
            .id(diagnostic.rule.id());
        let mut group = match (&diagnostic.source_line, diagnostic.line) {
            (Some(source), Some(line)) => {
                let column = diagnostic.column.unwrap_or(1).max(1) as usize;
                let start = byte_of_char(source, column - 1);
                let end = byte_of_char(source, column - 1 + diagnostic.length.max(1) as usize);
                // A problem at the end of a line (or on an empty one) still gets a caret.
                let source = if start >= source.len() {
                    format!("{source} ")
                } else {
                    source.clone()
                };
                let end = end.max(start + 1).min(source.len());
                title.element(
                    Snippet::source(source)
                        .line_start(line as usize)
                        .path(path)
                        .annotation(AnnotationKind::Primary.span(start..end)),
                )
            }
            _ => {
                let mut origin = Origin::path(path);
                if let Some(line) = diagnostic.line {
                    origin = origin
                        .line(line as usize)
                        .char_column(diagnostic.column.unwrap_or(1) as usize);
                }
                title.element(origin)
            }
        };
        if let Some(hint) = &diagnostic.hint {
            group = group.element(Level::HELP.message(hint.as_str()));
        }
        if let Some(option) = &diagnostic.option {
            group = group.element(Level::HELP.message(self.front_end.spell(option)));
        }
        if let Some(note) = self.front_end.note(diagnostic) {
            group = group.element(Level::NOTE.message(note));
        }
        let renderer = if self.color {
            annotate_snippets::Renderer::styled()
        } else {
            annotate_snippets::Renderer::plain()
        };
        renderer.render(&[group])
    }

    /// Every diagnostic of `report`, each as [`diagnostic`](Self::diagnostic)
    /// prints it, separated by blank lines, then a summary line
    /// (`2 problems in skills`).
    pub fn report(&self, report: &Report) -> String {
        let mut out = String::new();
        for diagnostic in report.diagnostics() {
            out.push_str(&self.diagnostic(diagnostic, report.root()));
            out.push_str("\n\n");
        }
        out.push_str(&report.summary());
        out
    }
}

/// The byte offset of character `index` of `text` (its length past the end).
#[cfg(feature = "load")]
fn byte_of_char(text: &str, index: usize) -> usize {
    text.char_indices()
        .nth(index)
        .map_or(text.len(), |(offset, _)| offset)
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
    if !message.contains(char::is_control) {
        return message;
    }
    message
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_debug().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

pub(crate) fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

/// Every problem found in a skills tree (or one `SKILL.md`), errors and
/// warnings, ordered by file, line and column. Returned by
/// [`load`](crate::load()) when an error was found; a lenient load returns
/// one per root whatever it found.
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
            out.push_str(&self.root);
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
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a problem.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// Whether an error was reported so far.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// How many problems were reported so far (a mark for [`since`](Self::since)).
    pub fn len(&self) -> usize {
        self.diagnostics.len()
    }

    /// Gives the problems of `file` reported after `mark` their source line.
    pub fn attach_source(&mut self, mark: usize, file: &str, text: &str) {
        for diagnostic in &mut self.diagnostics[mark..] {
            if diagnostic.file == file {
                diagnostic.attach_source(text);
            }
        }
    }

    /// Every problem, unsorted.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.diagnostics
    }

    /// `value` and the warnings when no error was reported, else a report
    /// of every problem, sorted by place.
    pub fn finish<T>(self, root: &str, value: T) -> Result<(T, Vec<Diagnostic>), Report> {
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

    #[cfg(feature = "load")]
    #[test]
    fn the_renderer_underlines_the_column_and_spells_options() {
        struct Macro;
        impl FrontEnd for Macro {
            fn spell(&self, option: &OptionHint) -> String {
                format!("in the macro: `{}`", option.option_name())
            }
        }
        let text = "---\nname: é-x\nauthor: me\n---\n";
        let diagnostic = Diagnostic::new(Rule::UnknownField, "a/SKILL.md", "`author` is unknown")
            .at(3, 1)
            .length(6)
            .option(OptionHint::AllowField("author".into()))
            .with_source(text);
        let rendered = Renderer::new(&Macro).diagnostic(&diagnostic, "skills");
        assert_eq!(
            rendered,
            "error[unknown-field]: `author` is unknown\n --> skills/a/SKILL.md:3:1\n  |\n3 | author: me\n  | ^^^^^^\n  |\n  = help: in the macro: `allow_fields`"
        );
        // Columns count characters, so the caret sits under `x` after `é-`.
        let wide = Diagnostic::new(Rule::NameFormat, "a/SKILL.md", "bad")
            .at(2, 9)
            .with_source(text);
        let rendered = Renderer::new(&Library).diagnostic(&wide, "");
        assert!(
            rendered.contains("2 | name: é-x\n  |         ^"),
            "{rendered}"
        );
        // No line: the place alone.
        let folder = Diagnostic::new(Rule::NotASkill, "drafts", "no SKILL.md");
        let rendered = Renderer::new(&Library).diagnostic(&folder, "skills");
        assert_eq!(
            rendered,
            "error[not-a-skill]: no SKILL.md\n--> skills/drafts"
        );
        // A caret at the end of a line still shows.
        let end = Diagnostic::new(Rule::FieldType, "a/SKILL.md", "empty")
            .at(3, 11)
            .with_source(text);
        let rendered = Renderer::new(&Library).diagnostic(&end, "");
        assert!(
            rendered.contains("3 | author: me \n  |           ^"),
            "{rendered}"
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
