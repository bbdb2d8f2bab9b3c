//! The tables of [skills-runtime]: the model types that `embed_skills!`
//! builds in a `const` context ([`Skills`], [`Skill`], [`SkillFile`], the
//! [`EmbedOptions`] recorded with them) and what their methods need:
//! [`digest`], [`relpath`], [`uri`], [`mime`].
//!
//! **Internal, semver-exempt: pin the exact version; use skills-runtime.**
//! skills-core and skills-runtime re-export everything here; nothing else
//! should name this crate.
//!
//! Why a crate of its own: a binary that only embeds skills calls a few
//! methods of these types, and a linker pulls in whole codegen units. In
//! skills-core, the units of the tables shared generic instances
//! (`<[T]>::get`, iterator adapters, `drop_in_place`) with the loader and
//! the rules, so one call reached nearly every unit of the crate and its
//! debug info. Here, what such a binary links is this crate at most.
//! Keep it a leaf with no dependencies: nothing here parses, validates,
//! reads files or hashes (merging sets, which hashes, is
//! `skills_core::merge_skills`). Under Cargo's dev profile a crate reuses
//! the generic instances its dependencies export, so a dependency here
//! (sha2 was one) is linked into every embed-only binary.
//!
//! [skills-runtime]: https://docs.rs/skills-runtime

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![deny(unreachable_pub)]

pub mod digest;
mod embed_options;
pub mod mime;
mod model;
pub mod relpath;
pub mod uri;

pub use digest::{Digest, DigestSyntaxError, fingerprint_input};
pub use embed_options::EmbedOptions;
pub use model::{Skill, SkillFile, Skills};

/// The file that makes a folder a skill.
pub const SKILL_MD: &str = "SKILL.md";

/// The fingerprint of a set with no skills: `sha256:` of the empty string.
pub const EMPTY_FINGERPRINT: &str =
    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
