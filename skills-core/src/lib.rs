//! The one code path of [skills-runtime]: walk a folder of Agent Skills,
//! parse and validate every `SKILL.md`, digest every file, and build the
//! tables a server answers from.
//!
//! **Internal, semver-exempt: pin the exact version; use skills-runtime.**
//! This crate is the shared implementation of skills-runtime, its
//! `embed_skills!` macro (skills-macros) and the `skills` command line
//! (skills-cli), as sqlx-macros-core is sqlx's. Its API follows what those
//! three need and may change in any release, patch releases included; they
//! depend on it with `=` and the exact version, and so must anything else
//! that does. What a user needs, skills-runtime re-exports: the tables at
//! its root (`Skills`, `Skill`, `SkillFile`, `Digest`), and loading and
//! checking at run time (the loader, the rules, diagnostics and renderer,
//! the agents' folders) in `skills_runtime::load` (feature `load`).
//!
#![cfg_attr(
    feature = "load",
    doc = r#"`embed_skills!` runs [`load()`] inside rustc and turns the result into
`static` tables; any other front end (a command-line checker, a loader
that serves a folder at run time) calls the same public functions, so it
applies the same rules with the same messages. Every one ends up with the
same [`Skills`] type, whose fields are `Cow<'static, …>`: borrowed from
the binary when embedded, owned when loaded.

What lives here, once:
- loading: [`load()`] (strict), [`load_lenient`] (every valid skill,
  each invalid one reported), [`load_roots`] (several roots merged, the
  first winning on a name), with [`Options`] and its presets for what
  each agent accepts ([`Options::claude_code`]); [`listing()`] and
  [`load_listed`], the content key of a tree, by which a front end reuses
  what it made of an unchanged tree (`embed_skills!`'s expansion memo);
- the rules one by one, for callers that hold bytes or paths rather than
  a folder (a client checking a downloaded skill, an installer):
  [`parse_skill_md`] and the path and name rules of [`names`];
- diagnostics ([`Diagnostic`], [`Report`]) with severities, the option
  that would accept a refusal ([`OptionHint`], spelled by each front end
  through [`FrontEnd`]), mechanical fixes ([`Fix`]), and the one
  [`Renderer`] that prints them the way rustc does;
- where a skills folder is: [`root`] (`${VAR:-default}` expansion and
  path resolution) and [`vendor`] (the folders each agent reads and
  installs to);
- [`relpath`], [`uri`], [`mime`], [`digest`]: paths, URIs, types, hashes."#
)]
// Without `load` (as a default skills-runtime builds this crate) the loader is
// not here, and neither may its links be: a user's `cargo doc` shows this form.
#![cfg_attr(
    not(feature = "load"),
    doc = "Without feature `load` (as a default skills-runtime builds it) this crate holds the model,
the name and path rules and the diagnostics' types; the loader, the rules and the renderer need `load`."
)]
//!
//! The model ([`Skills`], [`Skill`], [`SkillFile`], [`EmbedOptions`]) and
//! what its methods need ([`relpath`], [`uri`], [`mime`], [`digest`]) live in
//! the leaf crate skills-tables and are re-exported here (this crate adds
//! only the loader's helpers to [`mime`] and [`digest`]): a binary that only
//! embeds skills then links that small crate, not this one's rules and their
//! debug info; that crate hashes nothing. They, [`root`], [`vendor`] and the
//! name and path checks of [`names`] need nothing but SHA-256 (for the
//! fingerprint of sets merged with [`merge_skills`]). Loading (feature `load`, on by default) adds the
//! YAML parser, Unicode normalization (for `names::fold_case`), the snippet
//! renderer and everything that reads skills.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]

mod diagnostic;
pub mod digest;
mod merge;
pub mod mime;
pub mod names;
pub mod open;
pub mod readers;
mod render;
pub mod root;
mod rules;
mod servable;
pub mod vendor;

#[cfg(feature = "load")]
mod checked;
#[cfg(feature = "load")]
mod fields;
#[cfg(feature = "load")]
mod frontmatter;
#[cfg(feature = "load")]
mod gate;
#[cfg(feature = "load")]
mod generated;
#[cfg(feature = "load")]
mod layout;
#[cfg(feature = "load")]
mod links;
#[cfg(feature = "load")]
mod listing;
#[cfg(feature = "load")]
mod load;
#[cfg(feature = "load")]
mod options;
#[cfg(feature = "load")]
mod read_cache;

#[cfg(feature = "load")]
mod reading;
#[cfg(feature = "load")]
mod scalar;
#[cfg(feature = "load")]
mod secrets;
#[cfg(feature = "load")]
mod skill_md;
#[cfg(feature = "load")]
mod syntax;
#[cfg(feature = "load")]
mod walk;

pub use diagnostic::{Diagnostic, Fix, Position, Report, printable};
#[cfg(feature = "load")]
pub use fields::SPEC_FIELDS;
#[cfg(feature = "load")]
pub use generated::add_files;
#[cfg(feature = "load")]
pub use listing::{Listing, listing};
#[cfg(feature = "load")]
pub use load::{Lenient, Loaded, Refused, load, load_lenient, load_listed, load_roots};
pub use merge::{MergeError, merge_skills};
#[cfg(feature = "load")]
pub use options::{CLAUDE_CODE_FIELDS, Options};
#[cfg(feature = "load")]
pub use render::Renderer;
pub use render::{EmbedMacro, FrontEnd, Library};
pub use rules::{OptionHint, Rule, Severity};
pub use servable::check_servable;
#[cfg(feature = "load")]
pub use skill_md::{
    InspectedSkillMd, MAX_RECOMMENDED_LINES, MAX_RECOMMENDED_TOKENS, SkillMd, SkillMdContext,
    estimate_tokens, inspect_skill_md, parse_skill_md,
};
pub use skills_tables::{
    Digest, DigestSyntaxError, EMPTY_FINGERPRINT, EmbedOptions, SKILL_MD, Skill, SkillFile, Skills,
    fingerprint_input, relpath, uri,
};

/// How the description `skills new` writes begins. A `description` that
/// still begins so gets the `placeholder-description` warning: models pick a
/// skill by its description, and this one says nothing about the skill.
pub const PLACEHOLDER_DESCRIPTION: &str =
    "Replace this with what the skill does and when to use it";

/// Most files in one skill, `SKILL.md` included (SEP-2640 §Limits).
pub const MAX_SKILL_FILES: usize = 512;

/// Most bytes in one skill, summed over its files (SEP-2640 §Limits: 16 MiB).
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

/// Most bytes in one file: rmcp clients drop messages over 16 MiB and base64
/// adds a third, so a file must stay under 12 MiB to fit one `resources/read`.
pub const MAX_FILE_BYTES: u64 = 12 * 1024 * 1024;

/// Most bytes of YAML between a `SKILL.md`'s `---` lines. Every host reads
/// the frontmatter of every skill at start-up; the largest in real skills
/// is about a kilobyte, and reading it takes time linear in its size. This
/// bounds that work (and the memory of its JSON) well below
/// [`MAX_FILE_BYTES`]: a larger frontmatter is refused before it is parsed.
pub const MAX_FRONTMATTER_BYTES: usize = 1024 * 1024;

/// Longest path of a file inside its skill, in characters (fast-agent's limit).
pub const MAX_PATH_CHARS: usize = 1024;
