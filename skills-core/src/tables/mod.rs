//! The tables a skills tree turns into, and what they need: the model
//! ([`Skills`], [`Skill`], [`SkillFile`]), the options recorded with an
//! embedded set, digests, relative paths, URIs and MIME types.

pub mod digest;
mod embed_options;
pub mod mime;
mod model;
pub mod relpath;
pub mod uri;

pub use digest::{Digest, DigestSyntaxError, fingerprint_input};
pub use embed_options::EmbedOptions;
pub use model::{MergeError, Skill, SkillFile, Skills};
