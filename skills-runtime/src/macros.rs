//! The crate's macros: [`embed_skills!`](crate::embed_skills) and
//! [`delegate_skills!`](crate::delegate_skills), exported at the crate root.
//! They live here, apart from lib.rs, so that the crate root names none of
//! the modules its macros reach (`__private`, the server).

/// Embeds a skills folder at compile time and evaluates to a [`Skills`](crate::Skills) set.
///
/// ```
/// static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!("skills");
/// # assert_eq!(SKILLS.len(), 2);
/// ```
///
/// The folder is read, validated and hashed while the crate compiles; every
/// problem in every skill is reported in one compile error, each at its
/// `file:line:col` with the line and a caret, and nothing is parsed or hashed
/// when the program starts.
///
/// Warnings (what the specification only recommends: a `SKILL.md` over 500
/// lines or about 5,000 tokens, references nested more than one level deep)
/// never fail the build, and the macro cannot show them: on stable Rust a
/// procedural macro can only emit errors. `skills_runtime::load::load()` (feature
/// `load`) returns them in `Loaded::warnings`, for tools that print them.
///
/// Options, after the folder: `allow_fields = ["…"]` (extra top-level
/// frontmatter keys to accept), `check_links = false` (do not check that the
/// files a SKILL.md names exist), `allow_secrets_in = ["skill/file"]` (files
/// allowed to hold credential-shaped text), `gated = ["courses/*"]` (globs
/// over skill paths: skills a server may sell, which must not grant
/// `allowed-tools`; see [`SkillsServerBuilder::access`](crate::SkillsServerBuilder::access)),
/// `generated = ["skill/references/api.md"]` (files the program adds at
/// start-up with `add_files`, which a `SKILL.md` may link to before they
/// exist; see [`Skills::pending_files`](crate::Skills::pending_files)) and `untracked` (no build script:
/// edits to embedded text files still rebuild the crate, new files do not):
///
/// ```
/// # use skills_runtime::{Skills, embed_skills};
/// static SKILLS: Skills = embed_skills!(
///     "skills",
///     allow_fields = ["dependencies"],
///     check_links = false,
///     allow_secrets_in = ["stock-audit/references/counting-procedure.md"],
/// );
/// # assert!(SKILLS.get("stock-audit").is_some());
/// ```
///
/// A relative folder starts at the folder holding `Cargo.toml`; one starting
/// with `./` at the file that calls the macro. `"$SKILLS_DIR"` and
/// `"${SKILLS_DIR:-skills}"` read an environment variable at compile time
/// (the build script then also prints
/// `cargo::rerun-if-env-changed=SKILLS_DIR`).
#[macro_export]
macro_rules! embed_skills {
    ($($arguments:tt)*) => {
        $crate::__private::embed_skills_impl!($crate; $($arguments)*)
    };
}

/// Writes the skills methods of a `ServerHandler` impl as one-line
/// delegations to a [`SkillsServer`](crate::SkillsServer) field, for handlers that keep their own
/// `get_info` and tools (`#[tool_router]`/`#[tool_handler]`):
///
/// ```no_run
/// use rmcp::handler::server::router::tool::ToolRouter;
/// use rmcp::model::ServerConfig;
/// use rmcp::{ServerHandler, tool, tool_handler, tool_router};
/// use skills_runtime::server::Caller;
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
///         let mut config = self.skills.config(&Caller::anonymous());
///         config.capabilities.tools.get_or_insert_with(Default::default);
///         config
///     }
///
///     skills_runtime::delegate_skills!(skills);
/// }
/// # let _ = Larder::new();
/// ```
///
/// It writes `list_skills`, `get_skill`, `read_resource`,
/// `read_resource_directory`, `list_resources`, `list_resource_templates`,
/// `complete`, and the change notices' `subscribe`, `unsubscribe`,
/// `accepted_subscription_filter` and `listen` (which answer `-32601` unless
/// the server [notifies changes](crate::SkillsServerBuilder::notify_changes));
/// `delegate_skills!(skills, prompts)` also writes `list_prompts` and
/// `get_prompt` (for a server that [serves prompts](crate::SkillsServerBuilder::prompts)).
/// A handler with resources or subscriptions of its own writes those by hand
/// instead (or uses [`SkillsServer::wrap`](crate::SkillsServer::wrap), which merges both). With no
/// field, `self` is the [`SkillsServer`](crate::SkillsServer): that is how it implements
/// `ServerHandler` itself. The calls go through a hidden, sealed trait
/// (`skills_runtime::__private`), not part of the public API.
///
/// # Under an access policy
///
/// With an [`access`](crate::SkillsServerBuilder::access) policy, every
/// skills method above already answers per caller. Three more methods make the session
/// itself per caller; `SkillsServer` and [`WithSkills`](crate::WithSkills) write them, a
/// delegating handler writes them as below:
///
/// - `initialize` and `discover` answer with the instructions of the caller
///   ([`SkillsServer::instructions`](crate::SkillsServer::instructions) and [`SkillsServer::config`](crate::SkillsServer::config) of
///   [`Caller::from_mcp`](crate::server::Caller::from_mcp): your builder's own
///   instructions, then the skills this caller owns). Without them, every
///   session gets `get_info`'s, which name only what every caller owns.
/// - `on_initialized` registers the session
///   ([`SkillsServer::on_initialized`](crate::SkillsServer::on_initialized)), so that a
///   [`replace`](crate::SkillsServer::replace) or a
///   [`refresh_views`](crate::SkillsServer::refresh_views) that changes what it
///   owns sends it `notifications/resources/list_changed`.
///
/// ```no_run
/// use rmcp::model::{DiscoverResult, InitializeRequestParams, InitializeResult, ServerConfig};
/// use rmcp::service::{NotificationContext, RequestContext};
/// use rmcp::{ErrorData, RoleServer, ServerHandler};
/// use skills_runtime::SkillsServer;
/// use skills_runtime::server::Caller;
///
/// #[derive(Clone)]
/// struct Platform {
///     skills: SkillsServer, // built with .access(…) and .instructions(…)
/// }
///
/// impl ServerHandler for Platform {
///     fn get_info(&self) -> ServerConfig {
///         let mut config = self.skills.config(&Caller::anonymous());
///         config.capabilities.tools.get_or_insert_with(Default::default);
///         config
///     }
///
///     async fn initialize(
///         &self,
///         request: InitializeRequestParams,
///         context: RequestContext<RoleServer>,
///     ) -> Result<InitializeResult, ErrorData> {
///         context.peer.set_peer_info(request.clone());
///         let mut result = self.negotiate_initialize(&request)?;
///         result.instructions = self.skills.instructions(&Caller::from_mcp(&context));
///         Ok(result)
///     }
///
///     async fn discover(
///         &self,
///         context: RequestContext<RoleServer>,
///     ) -> Result<DiscoverResult, ErrorData> {
///         let mut config = self.get_info();
///         config.instructions = self.skills.instructions(&Caller::from_mcp(&context));
///         let versions = self.supported_protocol_versions().into_owned();
///         Ok(DiscoverResult::from_server_info(versions, config))
///     }
///
///     async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
///         self.skills.on_initialized(&context);
///     }
///
///     skills_runtime::delegate_skills!(skills);
/// }
/// ```
///
/// The fallback tool's route from [`SkillsServer::tool_route`](crate::SkillsServer::tool_route) is built once,
/// so its description names only what every caller owns; `WithSkills` and
/// `SkillsServer` list it per caller.
#[cfg(feature = "server")]
#[macro_export]
macro_rules! delegate_skills {
    ($($field:ident).* , prompts) => {
        $crate::delegate_skills!($($field).*);

        async fn list_prompts(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListPromptsResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::list_prompts(&self $(.$field)*, request, &context)
        }

        async fn get_prompt(
            &self,
            request: $crate::__private::rmcp::model::GetPromptRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::GetPromptResponse, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::get_prompt(&self $(.$field)*, &request, &context).map($crate::__private::Into::into)
        }
    };
    ($($field:ident).*) => {
        async fn list_skills(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListSkillsResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::list_skills(&self $(.$field)*, request, &context)
        }

        async fn get_skill(
            &self,
            request: $crate::__private::rmcp::model::GetSkillRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::GetSkillResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::get_skill(&self $(.$field)*, request, &context)
        }

        async fn read_resource(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ReadResourceResponse, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::read_resource(&self $(.$field)*, &request, &context).map($crate::__private::Into::into)
        }

        async fn read_resource_directory(
            &self,
            request: $crate::__private::rmcp::model::ReadResourceDirectoryRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ReadResourceDirectoryResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::read_resource_directory(&self $(.$field)*, request, &context)
        }

        async fn list_resources(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListResourcesResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::list_resources(&self $(.$field)*, request, &context)
        }

        async fn list_resource_templates(
            &self,
            request: $crate::__private::Option<$crate::__private::rmcp::model::PaginatedRequestParams>,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::ListResourceTemplatesResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::list_resource_templates(&self $(.$field)*, request, &context)
        }

        fn accepted_subscription_filter(
            &self,
            requested: &$crate::__private::rmcp::model::SubscriptionFilter,
        ) -> $crate::__private::Option<$crate::__private::rmcp::model::SubscriptionFilter> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::accepted_subscription_filter(&self $(.$field)*, requested)
        }

        async fn listen(
            &self,
            context: $crate::__private::rmcp::service::SubscriptionContext,
        ) -> $crate::__private::Result<(), $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::listen(&self $(.$field)*, context).await
        }

        // rmcp marks resources/subscribe deprecated (2026-07-28 replaced it
        // with subscriptions/listen), yet 2025-11-25 clients still send it.
        #[allow(deprecated)]
        async fn subscribe(
            &self,
            request: $crate::__private::rmcp::model::SubscribeRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<(), $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::subscribe(&self $(.$field)*, &request, &context)
        }

        #[allow(deprecated)]
        async fn unsubscribe(
            &self,
            request: $crate::__private::rmcp::model::UnsubscribeRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<(), $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::unsubscribe(&self $(.$field)*, &request, &context)
        }

        async fn complete(
            &self,
            request: $crate::__private::rmcp::model::CompleteRequestParams,
            context: $crate::__private::rmcp::service::RequestContext<$crate::__private::rmcp::RoleServer>,
        ) -> $crate::__private::Result<$crate::__private::rmcp::model::CompleteResult, $crate::__private::rmcp::ErrorData> {
            <$crate::SkillsServer as $crate::__private::SkillsRequests>::complete(&self $(.$field)*, &request, &context).unwrap_or_else(|| {
                $crate::__private::Err($crate::__private::rmcp::ErrorData::invalid_params(
                    "no completions for this reference: it names no resource template of this server",
                    $crate::__private::Option::None,
                ))
            })
        }
    };
}
