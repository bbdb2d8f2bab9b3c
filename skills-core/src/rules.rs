//! The rule catalogue: every rule a skill can break, with its stable id and
//! whether it is about one `SKILL.md` or about files and folders, how bad a
//! problem is ([`Severity`]), and the option that would accept what a rule
//! refuses ([`OptionHint`]). Knows nothing of where a problem is nor how it
//! is printed (the `diagnostic` and `render` modules do).

use std::fmt;

/// The rule a [`Diagnostic`](crate::Diagnostic) reports. Its [`id`](Rule::id) is stable and is
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
    /// The `main_file` option names no plain file name, or a skill folder
    /// holds both its main file and a `SKILL.md`.
    MainFile,
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
    /// The frontmatter is larger than [`MAX_FRONTMATTER_BYTES`](crate::MAX_FRONTMATTER_BYTES).
    FrontmatterTooLarge,
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
    /// A relative link in the body, or in a Markdown file the body sends the
    /// agent to, points at no file of the skill.
    BrokenLink,
    /// A relative link in the body, or in a Markdown file the body sends the
    /// agent to, that climbs out of its own skill
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
            Self::MainFile => "main-file",
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
            Self::FrontmatterTooLarge => "frontmatter-too-large",
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
    pub const ALL: [Rule; 45] = [
        Self::RootMissing,
        Self::NoSkills,
        Self::NotASkill,
        Self::MainFile,
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
        Self::FrontmatterTooLarge,
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
                | Self::FrontmatterTooLarge
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
/// Each front end spells it its own way ([`FrontEnd`](crate::FrontEnd)); the
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
    /// The option's name in `Options` (feature `load`) and in the macro:
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
