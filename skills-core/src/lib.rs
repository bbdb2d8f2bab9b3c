//! The one code path of [skills-runtime]: walk a folder of Agent Skills,
//! parse and validate every `SKILL.md`, digest every file, and build the
//! tables a server answers from.
//!
//! `embed_skills!` runs [`load()`] inside rustc and turns the result into
//! `static` tables; the runtime's live loader and the CLI run the same
//! function at run time. Both end up with the same [`Skills`] type, whose
//! fields are `Cow<'static, …>`: borrowed from the binary when embedded,
//! owned when loaded.
//!
//! The rules are public one by one for callers that hold bytes or paths
//! rather than a folder (a client checking a downloaded skill, an installer,
//! fuzz targets): [`parse_skill_md`] runs the loader's checks on one
//! `SKILL.md`, and [`names`] holds the path and name rules. The loader calls
//! the same functions, so every caller reports the same problems in the same
//! words.
//!
//! The model ([`Skills`], [`Skill`], [`SkillFile`]), [`uri`], [`mime`] and
//! the name and path checks of [`names`] have no dependencies. Loading
//! (feature `load`, on by default) adds the YAML parser, SHA-256, Unicode
//! normalization (for [`names::fold_case`]) and [`parse_skill_md`].
//!
//! [skills-runtime]: https://docs.rs/skills-runtime

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod diagnostic;
pub mod mime;
mod model;
pub mod names;
pub mod uri;

#[cfg(feature = "load")]
pub mod digest;
#[cfg(feature = "load")]
mod fields;
#[cfg(feature = "load")]
mod frontmatter;
#[cfg(feature = "load")]
mod links;
#[cfg(feature = "load")]
mod load;
#[cfg(feature = "load")]
mod scalar;
#[cfg(feature = "load")]
mod secrets;
#[cfg(feature = "load")]
mod skill_md;
#[cfg(feature = "load")]
mod walk;

pub use diagnostic::{Diagnostic, Diagnostics, Position, Report, Rule};
#[cfg(feature = "load")]
pub use fields::SPEC_FIELDS;
#[cfg(feature = "load")]
pub use load::{Loaded, Options, load};
pub use model::{Digest, Skill, SkillFile, Skills, fingerprint_input};
#[cfg(feature = "load")]
pub use skill_md::{SkillMd, SkillMdContext, parse_skill_md};

/// The file that makes a folder a skill.
pub const SKILL_MD: &str = "SKILL.md";

/// Most files in one skill, `SKILL.md` included (SEP-2640 §Limits).
pub const MAX_SKILL_FILES: usize = 512;

/// Most bytes in one skill, summed over its files (SEP-2640 §Limits: 16 MiB).
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

/// Most bytes in one file: rmcp clients drop messages over 16 MiB and base64
/// adds a third, so a file must stay under 12 MiB to fit one `resources/read`.
pub const MAX_FILE_BYTES: u64 = 12 * 1024 * 1024;

/// Longest path of a file inside its skill, in characters (fast-agent's limit).
pub const MAX_PATH_CHARS: usize = 1024;

/// The fingerprint of a set with no skills: `sha256:` of the empty string.
pub const EMPTY_FINGERPRINT: &str =
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
