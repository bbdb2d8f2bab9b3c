//! Serving skills through [rmcp]: SEP-2640 on both protocol eras, plus the
//! conventions clients that predate it read.
//!
//! [`SkillsServer`] answers every skills-related request from a [`Skills`]
//! set. Use it three ways:
//!
//! - as a complete server of its own (it implements `ServerHandler`);
//! - wrapped around your handler in one line, [`WithSkills`]; or
//! - from your own `impl ServerHandler`, calling its methods one per
//!   request, as rmcp documents for its `SkillCatalog`.
//!
//! Every method takes the request context: the protocol era decides the
//! shape of the answer (`ttlMs`/`cacheScope` only on 2026-07-28), and a
//! [visibility](SkillsServerBuilder::visibility) rule can look at the HTTP
//! request of the caller. The set served can be swapped atomically at run
//! time with [`SkillsServer::replace`].

mod compat;
mod cursor;
mod handler;
mod instructions;
mod malformed;
mod tool;
mod wire;

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResult, CompleteRequestParams, CompleteResult,
    CompletionInfo, GetSkillRequestParams, GetSkillResult, Implementation, JsonObject,
    ListResourceTemplatesResult, ListResourcesResult, ListSkillsResult, PaginatedRequestParams,
    ProtocolVersion, ReadResourceDirectoryRequestParams, ReadResourceDirectoryResult,
    ReadResourceRequestParams, ReadResourceResult, Reference, Resource, ResourceContents,
    ResourceTemplate, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer};
use serde_json::json;

pub use compat::{INDEX_SCHEMA, INDEX_URI, MANIFEST_SEGMENT, manifest_json};
pub use handler::WithSkills;
pub use instructions::DEFAULT_BUDGET as INSTRUCTIONS_BUDGET;
pub use wire::{EXECUTABLE_META_KEY, frontmatter, skill_entry};

use crate::{Digest, Skill, SkillFile, Skills};
use cursor::{Kind, Position};

/// Decides, per request, whether the caller may see a skill. It receives the
/// request context, whose `extensions` hold the HTTP request parts when the
/// server runs over streamable HTTP.
pub type Visibility = dyn Fn(&Skill, &RequestContext<RoleServer>) -> bool + Send + Sync;

/// Serves a [`Skills`] set over MCP. Cheap to clone: clones share the set.
#[derive(Clone)]
pub struct SkillsServer {
    shared: Arc<Shared>,
}

struct Shared {
    settings: Settings,
    /// Decided once at build: the configured name, else the embedding crate's.
    server_info: Implementation,
    current: RwLock<Arc<Snapshot>>,
}

/// What a server was configured with.
struct Settings {
    server_info: Option<Implementation>,
    instructions: Option<String>,
    instructions_budget: usize,
    list_supporting_files: bool,
    fastmcp: bool,
    legacy_index: bool,
    tool: Option<Cow<'static, str>>,
    skills_page_size: usize,
    resources_page_size: usize,
    ttl_ms: u64,
    blob_cache_bytes: usize,
    visibility: Option<Box<Visibility>>,
}

/// One set and what is derived from it, built on first use and then shared
/// by every request until the set is replaced.
struct Snapshot {
    skills: Skills,
    /// Each skill's SEP-2640 entry, built the first time a page or a
    /// `skills/get` needs it: a first page touches only its own skills.
    entries: Vec<OnceLock<rmcp::model::Skill>>,
    /// The last instructions built, with the author's text they follow:
    /// `get_info` asks for them on every request.
    instructions: Mutex<Option<(Option<String>, String)>>,
    /// `resources/list` for every caller, when no visibility rule applies.
    resources: OnceLock<Vec<Resource>>,
    /// The fallback tool's definition, which names the skills.
    tool: OnceLock<Option<Tool>>,
    /// Binary files already base64-encoded, by digest: encoding a font on
    /// every read costs more than copying the encoded text. Holds only what
    /// was read, so start-up memory is unchanged, and at most `blob_budget`
    /// bytes; past it, files are encoded on each read.
    blobs: RwLock<Blobs>,
    blob_budget: usize,
}

impl Snapshot {
    fn new(skills: Skills, blob_budget: usize) -> Self {
        Self {
            entries: (0..skills.len()).map(|_| OnceLock::new()).collect(),
            skills,
            instructions: Mutex::new(None),
            resources: OnceLock::new(),
            tool: OnceLock::new(),
            blobs: RwLock::default(),
            blob_budget,
        }
    }

    /// The answer to a read of `file` at `requested_uri` (echoed exactly).
    fn read_result(&self, file: &SkillFile, requested_uri: &str) -> ReadResourceResult {
        let contents = match file.text() {
            Some(text) => ResourceContents::text(text, requested_uri),
            None => ResourceContents::blob(self.blob(file).as_ref(), requested_uri),
        };
        ReadResourceResult::new(vec![contents.with_mime_type(file.mime_type())])
    }

    fn blob(&self, file: &SkillFile) -> Arc<str> {
        let digest = file.digest();
        if let Some(encoded) = self
            .blobs
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .by_digest
            .get(&digest)
        {
            return encoded.clone();
        }
        let encoded: Arc<str> = wire::base64(file.bytes()).into();
        let mut blobs = self.blobs.write().unwrap_or_else(PoisonError::into_inner);
        if let Some(raced) = blobs.by_digest.get(&digest) {
            return raced.clone();
        }
        if blobs.held + encoded.len() > self.blob_budget {
            return encoded;
        }
        blobs.held += encoded.len();
        blobs.by_digest.insert(digest, encoded.clone());
        encoded
    }

    /// A `resources/list` cursor at `position`, bound to this snapshot.
    fn resources_cursor(&self, position: &Position) -> String {
        cursor::encode(Kind::Resources, self.skills.fingerprint(), "", position)
    }

    fn entry(&self, index: usize) -> &rmcp::model::Skill {
        self.entries[index].get_or_init(|| wire::skill_entry(&self.skills.skills()[index]))
    }
}

/// Binary files already base64-encoded, and how many bytes they take.
#[derive(Default)]
struct Blobs {
    by_digest: HashMap<Digest, Arc<str>>,
    held: usize,
}

/// Configures a [`SkillsServer`]. Every switch has a default that suits a
/// server meant for today's clients.
pub struct SkillsServerBuilder {
    skills: Skills,
    settings: Settings,
}

impl SkillsServer {
    /// A server for `skills` with the default settings.
    pub fn new(skills: Skills) -> Self {
        Self::builder(skills).build()
    }

    /// Starts configuring a server for `skills`.
    pub fn builder(skills: Skills) -> SkillsServerBuilder {
        SkillsServerBuilder {
            skills,
            settings: Settings {
                server_info: None,
                instructions: None,
                instructions_budget: instructions::DEFAULT_BUDGET,
                list_supporting_files: false,
                fastmcp: true,
                legacy_index: false,
                tool: Some(Cow::Borrowed(tool::DEFAULT_NAME)),
                skills_page_size: 100,
                resources_page_size: 1000,
                ttl_ms: 300_000,
                blob_cache_bytes: 64 << 20,
                visibility: None,
            },
        }
    }

    /// The set being served right now.
    pub fn skills(&self) -> Skills {
        self.snapshot().skills.clone()
    }

    /// Serves `skills` from now on; requests in flight finish on the old set.
    /// Returns whether anything a client sees changed (the fingerprints differ),
    /// so the caller can send `notifications/resources/list_changed`.
    pub fn replace(&self, skills: Skills) -> bool {
        let snapshot = Arc::new(Snapshot::new(skills, self.settings().blob_cache_bytes));
        let mut current = self
            .shared
            .current
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let changed = current.skills.fingerprint() != snapshot.skills.fingerprint();
        *current = snapshot;
        changed
    }

    fn snapshot(&self) -> Arc<Snapshot> {
        self.shared
            .current
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn settings(&self) -> &Settings {
        &self.shared.settings
    }

    /// The capabilities this server needs: `resources`, the skills extension
    /// with `directoryRead`, `completions` for the FastMCP file templates, and
    /// `tools` for the fallback tool.
    pub fn capabilities(&self) -> ServerCapabilities {
        let mut capabilities = ServerCapabilities::default();
        self.add_capabilities(&mut capabilities);
        capabilities
    }

    /// Adds what this server needs to `capabilities`, keeping what is there.
    pub fn add_capabilities(&self, capabilities: &mut ServerCapabilities) {
        capabilities.resources.get_or_insert_with(Default::default);
        let skills = ServerCapabilities::builder()
            .enable_skills_with_directory_read()
            .build();
        capabilities
            .extensions
            .get_or_insert_with(Default::default)
            .extend(skills.extensions.into_iter().flatten());
        if self.settings().fastmcp {
            capabilities.completions.get_or_insert_with(JsonObject::new);
        }
        if self.settings().tool.is_some() {
            capabilities.tools.get_or_insert_with(Default::default);
        }
    }

    /// The server's name and version: as configured, else the crate that
    /// embedded the skills (`CARGO_PKG_NAME`/`CARGO_PKG_VERSION`), never the
    /// SDK's. Fixed when the server is built, so [`replace`](Self::replace)
    /// with a set loaded at run time keeps it.
    pub fn server_info(&self) -> Implementation {
        self.shared.server_info.clone()
    }

    /// Instructions naming each skill and when to load it, after the
    /// author's own, within the configured budget. Overflow rule: full
    /// descriptions if they fit; else every description shortened to an equal
    /// share (at least 40 characters); else URIs only, as many as fit, then a
    /// line saying how many more there are. When a visibility rule is set, no
    /// skill is named: instructions go to every caller alike.
    pub fn instructions(&self) -> String {
        self.instructions_after(self.settings().instructions.as_deref())
    }

    /// The instructions with `own` in front of the skills block.
    pub fn instructions_after(&self, own: Option<&str>) -> String {
        let snapshot = self.snapshot();
        let mut cached = snapshot
            .instructions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some((cached_own, text)) = cached.as_ref()
            && cached_own.as_deref() == own
        {
            return text.clone();
        }
        let skills: Vec<&Skill> = if self.settings().visibility.is_some() {
            Vec::new()
        } else {
            snapshot.skills.skills().iter().collect()
        };
        let text = instructions::build(
            own,
            &skills,
            self.settings().tool.as_deref(),
            self.settings().instructions_budget,
        );
        *cached = Some((own.map(str::to_owned), text.clone()));
        text
    }

    /// The complete `initialize`/`server/discover` answer of a server that
    /// serves only skills.
    pub fn server_config(&self) -> ServerConfig {
        let instructions = self.instructions();
        let config = ServerConfig::new(self.capabilities()).with_server_info(self.server_info());
        if instructions.is_empty() {
            config
        } else {
            config.with_instructions(instructions)
        }
    }

    /// The sentence to put in the description of one of your tools that
    /// needs the skill `name` loaded first; `None` if no such skill is served.
    pub fn tool_hint(&self, name: &str) -> Option<String> {
        let snapshot = self.snapshot();
        let skill = snapshot.skills.by_name(name)?;
        Some(instructions::tool_hint(
            skill,
            self.settings().tool.as_deref(),
        ))
    }

    fn visible(&self, skill: &Skill, context: &RequestContext<RoleServer>) -> bool {
        self.settings()
            .visibility
            .as_ref()
            .is_none_or(|visible| visible(skill, context))
    }

    /// Whether `uri` names something in this server's `skill://` namespace:
    /// use it to route `resources/read` between skills and your own resources.
    pub fn handles(&self, uri: &str) -> bool {
        uri.get(..skills_core::uri::SCHEME.len())
            .is_some_and(|scheme| scheme.eq_ignore_ascii_case(skills_core::uri::SCHEME))
    }

    /// SEP-2640 `skills/list`: one page of visible skills, entries never split.
    pub fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let snapshot = self.snapshot();
        let fingerprint = snapshot.skills.fingerprint();
        let cursor = request.and_then(|request| request.cursor);
        let start = match &cursor {
            None => 0,
            Some(cursor) => match cursor::decode(cursor, Kind::Skills, fingerprint, "")? {
                Position::Ours(offset) => offset,
                Position::Inner(_) => return Err(bad_cursor(cursor)),
            },
        };
        let visible: Vec<usize> = (0..snapshot.skills.len())
            .filter(|&index| self.visible(&snapshot.skills.skills()[index], context))
            .collect();
        if start > visible.len() {
            return Err(bad_cursor(cursor.as_deref().unwrap_or_default()));
        }
        let end = start
            .saturating_add(self.settings().skills_page_size)
            .min(visible.len());
        let page = visible[start..end]
            .iter()
            .map(|&index| snapshot.entry(index).clone())
            .collect();
        let mut result = ListSkillsResult::with_all_items(page);
        if end < visible.len() {
            result.next_cursor = Some(cursor::encode(
                Kind::Skills,
                fingerprint,
                "",
                &Position::Ours(end),
            ));
        }
        self.cache_hints(context, &mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// SEP-2640 `skills/get`: the entry of one skill, listed or not; `-32602`
    /// naming the URI when no visible skill is served there.
    pub fn get_skill(
        &self,
        request: GetSkillRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let snapshot = self.snapshot();
        let found = snapshot.skills.by_uri(&request.uri).and_then(|skill| {
            let index = snapshot.skills.position(skill.path())?;
            self.visible(skill, context).then_some(index)
        });
        let Some(index) = found else {
            return Err(ErrorData::invalid_params(
                format!("No skill is served at {}", request.uri),
                Some(json!({ "uri": request.uri })),
            ));
        };
        let entry = snapshot.entry(index).clone();
        let mut result = GetSkillResult::new(entry);
        self.cache_hints(context, &mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// `resources/read` of any `skill://` resource: a file, a FastMCP
    /// `_manifest`, or `skill://index.json`. The content's `uri` echoes the
    /// request. Unknown, unlisted, malformed, encoded-slash, dot-segment and
    /// traversal URIs are all `-32602` with the URI in `data`.
    pub fn read_resource(
        &self,
        request: &ReadResourceRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        let uri = request.uri.as_str();
        let snapshot = self.snapshot();
        let canonical = skills_core::uri::parse(uri).map_err(|why| {
            ErrorData::invalid_params(
                format!("{uri} names no skill resource: {why}"),
                Some(json!({ "uri": uri })),
            )
        })?;
        let mut result = if let Some(file) = self.readable_file(&snapshot, &canonical, context) {
            snapshot.read_result(file, uri)
        } else if let Some(text) = self.generated(&snapshot, &canonical, context) {
            ReadResourceResult::new(vec![
                ResourceContents::text(text, uri).with_mime_type("application/json"),
            ])
        } else {
            return Err(ErrorData::invalid_params(
                format!("No skill resource is served at {uri}"),
                Some(json!({ "uri": uri })),
            ));
        };
        self.cache_hints(context, &mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// The file at `canonical`, if some skill the caller may see holds it.
    fn readable_file<'s>(
        &self,
        snapshot: &'s Snapshot,
        canonical: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<&'s SkillFile> {
        let (owner, file) = snapshot.skills.file_by_uri(canonical)?;
        self.may_read(&snapshot.skills, owner, context)
            .then_some(file)
    }

    /// Whether the caller may read the files `owner` holds: it sees `owner`,
    /// or a skill `owner` is nested in (which holds the same files).
    fn may_read(
        &self,
        skills: &Skills,
        owner: &Skill,
        context: &RequestContext<RoleServer>,
    ) -> bool {
        if self.settings().visibility.is_none() {
            return true;
        }
        let mut folder = owner.path();
        loop {
            if skills
                .get(folder)
                .is_some_and(|skill| self.visible(skill, context))
            {
                return true;
            }
            match folder.rsplit_once('/') {
                Some((parent, _)) => folder = parent,
                None => return false,
            }
        }
    }

    /// A generated resource: a FastMCP manifest or the legacy index.
    fn generated(
        &self,
        snapshot: &Snapshot,
        canonical: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<String> {
        if self.settings().legacy_index && canonical == compat::INDEX_URI {
            let visible = snapshot
                .skills
                .skills()
                .iter()
                .filter(|skill| self.visible(skill, context));
            return Some(compat::index_json(visible));
        }
        if self.settings().fastmcp {
            let skill = compat::manifest_owner(&snapshot.skills, canonical)?;
            return self
                .visible(skill, context)
                .then(|| compat::manifest_json(skill));
        }
        None
    }

    /// `resources/list`: each visible skill's `SKILL.md` (named by its
    /// frontmatter name, with its description, size and `text/markdown`),
    /// every supporting file too when so configured, the FastMCP manifests
    /// and the legacy index when enabled. Paginated.
    pub fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let snapshot = self.snapshot();
        let cursor = request.and_then(|request| request.cursor);
        let (page, next) = self.resources_page(&snapshot, cursor, context)?;
        let mut result = ListResourcesResult::with_all_items(page);
        result.next_cursor = match next {
            Some(position @ Position::Ours(_)) => Some(snapshot.resources_cursor(&position)),
            _ => None,
        };
        self.cache_hints(context, &mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// One page of our resources, and where the next page starts: at an
    /// offset of ours, or (for [`WithSkills`]) in the inner handler's list.
    fn resources_page(
        &self,
        snapshot: &Snapshot,
        cursor: Option<String>,
        context: &RequestContext<RoleServer>,
    ) -> Result<(Vec<Resource>, Option<Position>), ErrorData> {
        let fingerprint = snapshot.skills.fingerprint();
        let start = match &cursor {
            None => 0,
            Some(cursor) => match cursor::decode(cursor, Kind::Resources, fingerprint, "")? {
                Position::Ours(offset) => offset,
                inner @ Position::Inner(_) => return Ok((Vec::new(), Some(inner))),
            },
        };
        let computed;
        let all: &[Resource] = if self.settings().visibility.is_none() {
            snapshot
                .resources
                .get_or_init(|| self.all_resources(snapshot, context))
        } else {
            computed = self.all_resources(snapshot, context);
            &computed
        };
        if start > all.len() {
            return Err(bad_cursor(cursor.as_deref().unwrap_or_default()));
        }
        let end = start
            .saturating_add(self.settings().resources_page_size)
            .min(all.len());
        let next = (end < all.len()).then_some(Position::Ours(end));
        Ok((all[start..end].to_vec(), next))
    }

    fn all_resources(
        &self,
        snapshot: &Snapshot,
        context: &RequestContext<RoleServer>,
    ) -> Vec<Resource> {
        let settings = self.settings();
        let mut resources = Vec::new();
        if settings.legacy_index {
            resources.push(
                Resource::new(compat::INDEX_URI, "index.json")
                    .with_description("Index of the skills this server provides (agent skills discovery schema 0.2.0)")
                    .with_mime_type("application/json"),
            );
        }
        for skill in snapshot.skills.skills() {
            if !self.visible(skill, context) {
                continue;
            }
            resources.push(wire::skill_md_resource(skill));
            if settings.fastmcp && skill.file(MANIFEST_SEGMENT).is_none() {
                resources.push(
                    Resource::new(
                        compat::manifest_uri(skill),
                        format!("{}/{MANIFEST_SEGMENT}", skill.name()),
                    )
                    .with_description(format!("File listing for {}", skill.name()))
                    .with_mime_type("application/json"),
                );
            }
            if settings.list_supporting_files {
                for file in snapshot.skills.own_files_of(skill) {
                    if file.path() != crate::SKILL_MD {
                        resources.push(wire::file_resource(skill, file));
                    }
                }
            }
        }
        resources
    }

    /// `resources/templates/list`: FastMCP's `skill://<path>/{path*}` template
    /// for each visible skill, when FastMCP compatibility is on.
    pub fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: &RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let mut result = ListResourceTemplatesResult::with_all_items(self.templates(context));
        self.cache_hints(context, &mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    fn templates(&self, context: &RequestContext<RoleServer>) -> Vec<ResourceTemplate> {
        if !self.settings().fastmcp {
            return Vec::new();
        }
        self.snapshot()
            .skills
            .skills()
            .iter()
            .filter(|skill| self.visible(skill, context))
            .map(|skill| {
                ResourceTemplate::new(template_uri(skill), format!("{}_files", skill.name()))
                    .with_description(format!("Access files within {}", skill.name()))
                    .with_mime_type("application/octet-stream")
            })
            .collect()
    }

    /// `completion/complete` for the `path` argument of a skill's file
    /// template: the skill's file paths that start with what was typed.
    /// `None` when the reference is not in the `skill://` namespace; `-32602`
    /// naming the URI when it is, but is not one of our templates.
    pub fn complete(
        &self,
        request: &CompleteRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CompleteResult, ErrorData>> {
        let Reference::Resource(reference) = &request.r#ref else {
            return None;
        };
        if !self.handles(&reference.uri) {
            return None;
        }
        let snapshot = self.snapshot();
        let Some(skill) = self.template_owner(&snapshot, &reference.uri, context) else {
            return Some(Err(ErrorData::invalid_params(
                format!(
                    "{} is not a resource template of this server",
                    reference.uri
                ),
                Some(json!({ "uri": reference.uri })),
            )));
        };
        if request.argument.name != "path" {
            return Some(Ok(CompleteResult::new(CompletionInfo::default())));
        }
        let typed = request.argument.value.as_str();
        let matches: Vec<String> = skill
            .files()
            .iter()
            .map(SkillFile::path)
            .filter(|path| path.starts_with(typed))
            .map(str::to_owned)
            .collect();
        let total = matches.len();
        let values: Vec<String> = matches
            .into_iter()
            .take(CompletionInfo::MAX_VALUES)
            .collect();
        let has_more = total > values.len();
        let info = CompletionInfo::with_pagination(
            values,
            Some(u32::try_from(total).unwrap_or(u32::MAX)),
            has_more,
        )
        .unwrap_or_default();
        Some(Ok(CompleteResult::new(info)))
    }

    /// The visible skill whose FastMCP file template is `template`.
    fn template_owner<'s>(
        &self,
        snapshot: &'s Snapshot,
        template: &str,
        context: &RequestContext<RoleServer>,
    ) -> Option<&'s Skill> {
        if !self.settings().fastmcp {
            return None;
        }
        // Called on every keystroke: find the skill by its path, not by
        // formatting every skill's template.
        let root = template.strip_suffix(TEMPLATE_SUFFIX)?;
        let skill = snapshot
            .skills
            .get(&skills_core::uri::decoded_path(root)?)
            .filter(|skill| skill.root_uri() == root)?;
        self.visible(skill, context).then_some(skill)
    }

    /// SEP-2640 `resources/directory/read`: the direct children of a
    /// directory in the `skill://` namespace (a skill folder, a folder inside
    /// one, or an organisational prefix such as `skill://acme`). Folders have
    /// `mimeType: inode/directory`; anything else is `-32602`.
    pub fn read_resource_directory(
        &self,
        request: ReadResourceDirectoryRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceDirectoryResult, ErrorData> {
        let uri = request.uri.as_str();
        let not_a_directory = || {
            ErrorData::invalid_params(
                format!("{uri} is not a directory resource"),
                Some(json!({ "uri": uri })),
            )
        };
        let snapshot = self.snapshot();
        let canonical = skills_core::uri::parse(uri).map_err(|_| not_a_directory())?;
        let folder = skills_core::uri::decoded_path(&canonical).ok_or_else(not_a_directory)?;
        // Children by name: a file, or a folder (`None`) holding deeper files.
        let mut by_name: std::collections::BTreeMap<String, Option<Resource>> = Default::default();
        for (skill, file) in snapshot.skills.files_under(&folder) {
            let full = format!("{}/{}", skill.path(), file.path());
            let Some(rest) = full
                .strip_prefix(folder.as_str())
                .and_then(|rest| rest.strip_prefix('/'))
            else {
                continue;
            };
            if !self.may_read(&snapshot.skills, skill, context) {
                continue;
            }
            match rest.split_once('/') {
                None => {
                    let resource = Resource::new(skill.file_uri(file), rest)
                        .with_mime_type(file.mime_type())
                        .with_size(file.size());
                    by_name.insert(rest.to_owned(), Some(resource));
                }
                Some((dir, _)) => {
                    by_name.entry(dir.to_owned()).or_insert(None);
                }
            }
        }
        let children: Vec<Resource> = by_name
            .into_iter()
            .map(|(name, file)| {
                file.unwrap_or_else(|| {
                    Resource::new(
                        format!("{canonical}/{}", skills_core::uri::encode(&name)),
                        name,
                    )
                    .with_mime_type(rmcp::model::DIRECTORY_MIME_TYPE)
                })
            })
            .collect();
        if children.is_empty() {
            return Err(not_a_directory());
        }
        let fingerprint = snapshot.skills.fingerprint();
        let start = match request.cursor.as_deref() {
            None => 0,
            Some(cursor) => match cursor::decode(cursor, Kind::Directory, fingerprint, &canonical)?
            {
                Position::Ours(offset) if offset <= children.len() => offset,
                _ => return Err(bad_cursor(cursor)),
            },
        };
        let end = start
            .saturating_add(self.settings().resources_page_size)
            .min(children.len());
        let mut result = ReadResourceDirectoryResult::with_all_items(children[start..end].to_vec());
        if end < children.len() {
            result.next_cursor = Some(cursor::encode(
                Kind::Directory,
                fingerprint,
                &canonical,
                &Position::Ours(end),
            ));
        }
        self.cache_hints(context, &mut result.ttl_ms, &mut result.cache_scope);
        Ok(result)
    }

    /// The fallback tool, for hosts that cannot read resources; empty when disabled.
    pub fn tools(&self) -> Vec<Tool> {
        let snapshot = self.snapshot();
        let definition = snapshot.tool.get_or_init(|| {
            let name = self.settings().tool.as_ref()?;
            // Like the instructions: a visibility rule means no skill is named
            // to a caller who may not see it.
            let named: Vec<&Skill> = if self.settings().visibility.is_some() {
                Vec::new()
            } else {
                snapshot.skills.skills().iter().collect()
            };
            Some(tool::definition(name, &named))
        });
        definition.iter().cloned().collect()
    }

    /// Runs the fallback tool; `None` when `request` calls another tool.
    pub fn call_tool(
        &self,
        request: &CallToolRequestParams,
        context: &RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResult, ErrorData>> {
        let name = self.settings().tool.as_deref()?;
        if request.name != name {
            return None;
        }
        Some(tool::call(self, request.arguments.as_ref(), context))
    }

    /// `ttlMs` and `cacheScope` for peers on 2026-07-28 or later only.
    fn cache_hints(
        &self,
        context: &RequestContext<RoleServer>,
        ttl_ms: &mut Option<u64>,
        cache_scope: &mut Option<CacheScope>,
    ) {
        if is_modern(context) {
            *ttl_ms = Some(self.settings().ttl_ms);
            *cache_scope = Some(if self.settings().visibility.is_some() {
                CacheScope::Private
            } else {
                CacheScope::Public
            });
        }
    }
}

impl std::fmt::Debug for SkillsServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let snapshot = self.snapshot();
        f.debug_struct("SkillsServer")
            .field("skills", &snapshot.skills.len())
            .field("fingerprint", &snapshot.skills.fingerprint())
            .finish_non_exhaustive()
    }
}

/// Whether the caller negotiated 2026-07-28 or later (ISO dates compare as text).
fn is_modern(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

fn bad_cursor(cursor: &str) -> ErrorData {
    ErrorData::invalid_params(
        "unknown cursor: list again without a cursor",
        Some(json!({ "cursor": cursor })),
    )
}

/// What follows a skill's root URI in its FastMCP file template.
const TEMPLATE_SUFFIX: &str = "/{path*}";

fn template_uri(skill: &Skill) -> String {
    format!("{}{TEMPLATE_SUFFIX}", skill.root_uri())
}

impl SkillsServerBuilder {
    /// The name and version the server reports. Defaults to the crate that
    /// embedded the skills.
    pub fn server_info(mut self, info: Implementation) -> Self {
        self.settings.server_info = Some(info);
        self
    }

    /// Your own instructions; the skills block follows them.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.settings.instructions = Some(instructions.into());
        self
    }

    /// Characters the instructions may take (default 2,048, where Claude Code cuts).
    pub fn instructions_budget(mut self, characters: usize) -> Self {
        self.settings.instructions_budget = characters;
        self
    }

    /// List every supporting file in `resources/list`, not only each
    /// `SKILL.md` (default: off; SEP-2640 hosts find files through the entry).
    pub fn list_supporting_files(mut self, on: bool) -> Self {
        self.settings.list_supporting_files = on;
        self
    }

    /// Serve FastMCP's `skill://<path>/_manifest` and `{path*}` templates with
    /// path completion (default: on), for FastMCP, SkillsDotNet and older clients.
    pub fn fastmcp_compatible(mut self, on: bool) -> Self {
        self.settings.fastmcp = on;
        self
    }

    /// Serve Figma's `skill://index.json` (default: off; the final SEP-2640
    /// dropped it, but clients written for Figma's server read it).
    pub fn legacy_index(mut self, on: bool) -> Self {
        self.settings.legacy_index = on;
        self
    }

    /// Name of the fallback tool that reads a skill file by URI (default
    /// `read_skill`); `None` to offer no tool.
    pub fn tool(mut self, name: Option<&'static str>) -> Self {
        self.settings.tool = name.map(Cow::Borrowed);
        self
    }

    /// Skills per `skills/list` page (default 100; at least 1).
    pub fn skills_page_size(mut self, size: usize) -> Self {
        self.settings.skills_page_size = size.max(1);
        self
    }

    /// Resources per `resources/list` and directory page (default 1,000; at least 1).
    pub fn resources_page_size(mut self, size: usize) -> Self {
        self.settings.resources_page_size = size.max(1);
        self
    }

    /// How long 2026-07-28 clients may cache answers (`ttlMs`, default 5 minutes).
    pub fn ttl(mut self, ttl: std::time::Duration) -> Self {
        self.settings.ttl_ms = u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX);
        self
    }

    /// How many bytes of base64-encoded binary files to keep after their
    /// first read (default 64 MiB; 0 encodes on every read). Encoding a
    /// 100 KB font costs more than copying it already encoded.
    pub fn blob_cache_bytes(mut self, bytes: usize) -> Self {
        self.settings.blob_cache_bytes = bytes;
        self
    }

    /// Decides per request which skills the caller may see. Hidden skills
    /// are not listed and read as unknown (`-32602`); answers become
    /// `cacheScope: private`; instructions then name no skill.
    pub fn visibility(
        mut self,
        rule: impl Fn(&Skill, &RequestContext<RoleServer>) -> bool + Send + Sync + 'static,
    ) -> Self {
        self.settings.visibility = Some(Box::new(rule));
        self
    }

    /// The configured server.
    pub fn build(self) -> SkillsServer {
        let server_info = match (&self.settings.server_info, self.skills.package()) {
            (Some(info), _) => info.clone(),
            (None, Some((name, version))) => Implementation::new(name, version),
            (None, None) => Implementation::new(env!("CARGO_PKG_NAME"), env!("CARGO_PKG_VERSION")),
        };
        let snapshot = Snapshot::new(self.skills, self.settings.blob_cache_bytes);
        SkillsServer {
            shared: Arc::new(Shared {
                server_info,
                settings: self.settings,
                current: RwLock::new(Arc::new(snapshot)),
            }),
        }
    }
}
