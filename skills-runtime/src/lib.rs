//! Agent Skills compiled into your binary, served over MCP.
//!
//! See the [README](https://docs.rs/skills-runtime) for the quickstart.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use skills_core::{SKILL_MD, Skill, SkillFile, Skills, mime, uri};

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "server")]
pub use server::{SkillsServer, SkillsServerBuilder, WithSkills};

/// Embeds a skills folder at compile time and evaluates to a [`Skills`] set.
///
/// ```ignore
/// static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("skills");
/// ```
///
/// The folder is read, validated and hashed while the crate compiles; every
/// problem in every skill becomes a compile error pointing at
/// `file:line:col`, and nothing is parsed or hashed when the program starts.
///
/// Options, after the folder: `allow_fields = ["…"]` (extra top-level
/// frontmatter keys to accept), `check_links = false` (do not check that the
/// files a SKILL.md names exist), `allow_secrets_in = ["skill/file"]` (files
/// allowed to hold credential-shaped text) and `untracked` (no build script;
/// see the README on rebuilds).
#[macro_export]
macro_rules! embed_skills {
    ($($arguments:tt)*) => {
        $crate::__private::embed_skills_impl!($crate; $($arguments)*)
    };
}

#[doc(hidden)]
pub mod __private {
    pub use ::core::option::Option;
    pub use ::core::{assert, compile_error, env, include_bytes, option_env};
    pub use ::skills_core::{FileRef, Skill, SkillFile, Skills};
    pub use ::skills_macros::embed_skills_impl;
    pub use ::std::borrow::Cow;
}
