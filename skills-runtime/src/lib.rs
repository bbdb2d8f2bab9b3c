//! Agent Skills compiled into your binary, served over MCP.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use skills_core::{Skill, SkillFile, Skills, uri};

/// Embeds a skills folder at compile time.
#[macro_export]
macro_rules! embed_skills {
    ($($arguments:tt)*) => {
        $crate::__private::embed_skills_impl!($crate; $($arguments)*)
    };
}

#[doc(hidden)]
pub mod __private {
    pub use ::core::option::Option;
    pub use ::core::{assert, compile_error, include_bytes, option_env};
    pub use ::skills_core::{FileRef, Skill, SkillFile, Skills};
    pub use ::skills_macros::embed_skills_impl;
    pub use ::std::borrow::Cow;
}
