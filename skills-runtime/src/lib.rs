//! Agent Skills compiled into your binary, served over MCP.
//!
//! See the [README](https://docs.rs/skills-runtime) for the quickstart.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use skills_core::{Digest, SKILL_MD, Skill, SkillFile, Skills, mime, uri};

#[cfg(feature = "server")]
pub mod server;

#[cfg(feature = "folder")]
pub mod folder;

/// `_meta` key of a SEP-2640 skill entry (and of a `_manifest` read) that
/// lists the skill's executable files, by path inside the skill. Our own key:
/// SEP-2640 has none. Servers built on this crate send it; the client
/// restores the bits from it.
pub const EXECUTABLE_META_KEY: &str = "skills-runtime/executable";

#[cfg(feature = "client")]
pub mod client;

#[cfg(feature = "server")]
pub use server::{SkillsServer, SkillsServerBuilder, WithSkills};

/// Embeds a skills folder at compile time and evaluates to a [`Skills`] set.
///
/// ```ignore
/// static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("skills");
/// ```
///
/// (Not compiled here, since this crate has no `skills/` folder; the README's
/// doc tests compile this line against the repository's example skills.)
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

/// Writes the skills methods of a `ServerHandler` impl as one-line
/// delegations to a [`SkillsServer`] field, for handlers that keep their own
/// `get_info` and tools (`#[tool_router]`/`#[tool_handler]`):
///
/// ```no_run
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::model::{ServerCapabilities, ServerConfig};
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use skills_runtime::{Skills, SkillsServer};
/// # static SKILLS: Skills = Skills::empty(); // embed_skills!("skills") in a real crate
///
/// #[derive(Clone)]
/// struct Larder {
///     tool_router: ToolRouter<Self>,
///     skills: SkillsServer,
/// }
///
/// #[tool_router]
/// impl Larder {
///     fn new() -> Self {
///         let skills = SkillsServer::new(SKILLS.clone());
///         let mut tool_router = Self::tool_router();
///         if let Some(route) = skills.tool_route(|larder: &Larder| &larder.skills) {
///             tool_router.add_route(route); // the `read_skill` fallback tool
///         }
///         Self { tool_router, skills }
///     }
///
///     #[tool(description = "Count the items in stock.")]
///     async fn count_stock(&self) -> String {
///         "42".into()
///     }
/// }
///
/// #[tool_handler(router = self.tool_router)]
/// impl ServerHandler for Larder {
///     fn get_info(&self) -> ServerConfig {
///         let mut capabilities = ServerCapabilities::builder().enable_tools().build();
///         self.skills.add_capabilities(&mut capabilities);
///         ServerConfig::new(capabilities)
///             .with_server_info(self.skills.server_info())
///             .with_instructions(self.skills.instructions())
///     }
///
///     skills_runtime::delegate_skills!(skills);
/// }
/// # let _ = Larder::new();
/// ```
///
/// It writes `list_skills`, `get_skill`, `read_resource`,
/// `read_resource_directory`, `list_resources`, `list_resource_templates` and
/// `complete`. A handler with resources of its own writes those by hand
/// instead (or uses [`WithSkills`], which merges both). With no field,
/// `self` is the [`SkillsServer`]: that is how it implements `ServerHandler`
/// itself.
#[cfg(feature = "server")]
#[macro_export]
macro_rules! delegate_skills {
    ($($field:ident).*) => {
        async fn list_skills(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListSkillsResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.list_skills(request, &context)
        }

        async fn get_skill(
            &self,
            request: $crate::__private::rmcp::model::GetSkillRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::GetSkillResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.get_skill(request, &context)
        }

        async fn read_resource(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ReadResourceResponse, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.read_resource(&request, &context).map($crate::__private::Into::into)
        }

        async fn read_resource_directory(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceDirectoryRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ReadResourceDirectoryResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.read_resource_directory(request, &context)
        }

        async fn list_resources(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListResourcesResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.list_resources(request, &context)
        }

        async fn list_resource_templates(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListResourceTemplatesResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*.list_resource_templates(request, &context)
        }

        async fn complete(
            &self,
            request: $crate::__private::rmcp::model::CompleteRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::CompleteResult, $crate::__private::rmcp::ErrorData> {
            self $(.$field)*
                .complete(&request, &context)
                .unwrap_or_else(|| $crate::__private::Ok($crate::__private::Default::default()))
        }
    };
}

#[doc(hidden)]
pub mod __private {
    pub use ::core::convert::Into;
    pub use ::core::default::Default;
    pub use ::core::option::Option;
    pub use ::core::result::Result::{self, Ok};
    pub use ::core::{assert, compile_error, env, include_bytes, option_env};
    #[cfg(feature = "server")]
    pub use ::rmcp;
    pub use ::skills_core::{Skill, SkillFile, Skills};
    pub use ::skills_macros::embed_skills_impl;
}
