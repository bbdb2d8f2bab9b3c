//! The options `embed_skills!` was called with, recorded in the set it
//! produced, so that code reading the same folder at run time (a live
//! reload in debug builds) applies the same rules without the author
//! repeating them (skills-core's `Options::from` turns them into the
//! loader's options). No path is recorded: the tables stay the same on every
//! machine, and the caller names the folder.

use std::borrow::Cow;

/// The options of the `embed_skills!` call that produced a set
/// ([`Skills::embed_options`](crate::Skills::embed_options)).
///
/// ```
/// use skills_tables::EmbedOptions;
///
/// static OPTIONS: EmbedOptions = EmbedOptions::new(&["dependencies"], false, &[], &["courses/*"], &[]);
/// assert_eq!(OPTIONS.allow_fields().collect::<Vec<_>>(), ["dependencies"]);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmbedOptions {
    allow_fields: Cow<'static, [&'static str]>,
    check_links: bool,
    allow_secrets_in: Cow<'static, [&'static str]>,
    gated: Cow<'static, [&'static str]>,
    generated: Cow<'static, [&'static str]>,
    main_file: &'static str,
}

impl EmbedOptions {
    /// The options as the macro call spelled them: `allow_fields`,
    /// `check_links`, `allow_secrets_in`, `gated`, `generated`.
    pub const fn new(
        allow_fields: &'static [&'static str],
        check_links: bool,
        allow_secrets_in: &'static [&'static str],
        gated: &'static [&'static str],
        generated: &'static [&'static str],
    ) -> Self {
        Self {
            allow_fields: Cow::Borrowed(allow_fields),
            check_links,
            allow_secrets_in: Cow::Borrowed(allow_secrets_in),
            gated: Cow::Borrowed(gated),
            generated: Cow::Borrowed(generated),
            main_file: crate::SKILL_MD,
        }
    }

    /// The same options, with the main file named `main_file` (the
    /// `main_file` option; `SKILL.md` unless set).
    pub const fn with_main_file(mut self, main_file: &'static str) -> Self {
        self.main_file = main_file;
        self
    }

    /// The name of the file that makes a folder a skill.
    pub fn main_file(&self) -> &'static str {
        self.main_file
    }

    /// Top-level frontmatter keys accepted besides the specification's.
    pub fn allow_fields(&self) -> impl Iterator<Item = &str> + '_ {
        self.allow_fields.iter().copied()
    }

    /// Whether the files a `SKILL.md` names must exist.
    pub fn check_links(&self) -> bool {
        self.check_links
    }

    /// Files (relative to the root) allowed to hold credential-shaped text.
    pub fn allow_secrets_in(&self) -> impl Iterator<Item = &str> + '_ {
        self.allow_secrets_in.iter().copied()
    }

    /// Globs over skill paths naming the gated skills.
    pub fn gated(&self) -> impl Iterator<Item = &str> + '_ {
        self.gated.iter().copied()
    }

    /// Files (relative to the root) the program adds at start-up.
    pub fn generated(&self) -> impl Iterator<Item = &str> + '_ {
        self.generated.iter().copied()
    }
}
