//! `HostCatalog`: skills from several MCP servers, as an LLM host offers
//! them to a model — short context blocks for the system prompt, and
//! `load_skill`/`unload_skill` tools that fetch a skill's `SKILL.md` (verified,
//! in memory) only when the model asks for it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use futures::future::BoxFuture;
use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{NotificationContext, Peer};
use rmcp::{ClientHandler, RoleClient};
use serde::Serialize;
use serde_json::{Value, json};

use super::discover::{self, SkillSummary};
use super::fetch;
use super::manifest::{self, SkillManifest};
use super::{ClientError, SkillsPeerExt as _};

/// The name of the tool that loads a skill.
pub const LOAD_SKILL: &str = "load_skill";
/// The name of the tool that unloads one (listed only while a skill is loaded).
pub const UNLOAD_SKILL: &str = "unload_skill";

/// Longest description in a context block, in characters, before it is cut
/// at a word with `…`: with the name and dependencies that keeps a block
/// near 50–100 tokens.
pub const DEFAULT_DESCRIPTION_CHARS: usize = 300;

/// A tool as a JSON-schema definition, the shape every LLM API takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolDefinition {
    /// `load_skill` or `unload_skill`.
    pub name: String,
    /// What the tool does, for the model.
    pub description: String,
    /// The JSON schema of its arguments.
    pub parameters: Value,
}

/// A tool call the model made.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The tool's name.
    pub name: String,
    /// Its arguments (`{"skillName": "…"}`).
    pub arguments: Value,
}

impl ToolCall {
    /// A call of `name` with `arguments`.
    pub fn new(name: impl Into<String>, arguments: Value) -> Self {
        Self {
            name: name.into(),
            arguments,
        }
    }
}

/// What a tool call gives back to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CallOutcome {
    /// The text for the model: a skill's `SKILL.md`, or what went wrong.
    pub text: String,
    /// Whether the call failed (an unknown skill, a refused dependency, a
    /// file that did not verify).
    pub is_error: bool,
}

/// One skill the catalog offers.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SkillEntry {
    /// The name the model uses: the skill's name, or `<label>/<path>` when
    /// two skills share the name.
    pub name: String,
    /// The label of its server.
    pub server: String,
    /// Its `SKILL.md` URI.
    pub uri: String,
    /// Its description.
    pub description: String,
    /// The MCP servers it needs (frontmatter `dependencies`), when known:
    /// from the listing on SEP servers, once loaded on legacy servers.
    pub dependencies: Vec<String>,
    /// Whether it is loaded.
    pub loaded: bool,
}

/// What the dependency callback is asked before a skill is loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct DependencyRequest {
    /// The skill being loaded (its name for the model).
    pub skill: String,
    /// The label of its server.
    pub server: String,
    /// Every MCP server it needs, as its frontmatter names them.
    pub dependencies: Vec<String>,
}

/// What the unload callback is told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct UnloadedSkill {
    /// The skill unloaded (its name for the model).
    pub skill: String,
    /// The label of its server.
    pub server: String,
    /// Dependencies no loaded skill needs any more: the host may disconnect
    /// them. The catalog keeps the count.
    pub released: Vec<String>,
}

type DependencyHook = Arc<dyn Fn(DependencyRequest) -> BoxFuture<'static, bool> + Send + Sync>;
type UnloadHook = Arc<dyn Fn(UnloadedSkill) -> BoxFuture<'static, ()> + Send + Sync>;

/// Skills from several servers, for an LLM host (framework-agnostic; see
/// the `rig` module for rig agents). Cloning shares the catalog.
///
/// - [`add_server`](Self::add_server) lists a server's skills (listing
///   requests only: nothing is read until the model loads a skill).
/// - [`context_blocks`](Self::context_blocks): one line per skill for the
///   system prompt, `name: description (requires: a, b)`, the description
///   cut to [`DEFAULT_DESCRIPTION_CHARS`].
/// - [`tools`](Self::tools) and [`call`](Self::call): `load_skill` (its
///   `skillName` an enum of the names) returns the `SKILL.md` fetched and
///   verified on demand, in memory, with a postscript saying it can be
///   unloaded; `unload_skill` is listed only while something is loaded.
/// - Names: a skill's own name, unless two skills share it; then each is
///   `<label>/<path>` (`docs/pdf`, `tools/pdf`) — deterministic, never a
///   silent overwrite.
/// - Dependencies (`dependencies: [a, b]` in a skill's frontmatter): before
///   a load, [`on_dependencies`](Self::on_dependencies) may connect them,
///   or answer `false` to refuse the load. After an unload,
///   [`on_unload`](Self::on_unload) hears which of them no loaded skill
///   needs any more, so the host can disconnect them and scrub the load
///   from its history.
#[derive(Clone, Default)]
pub struct HostCatalog {
    shared: Arc<Shared>,
}

#[derive(Default)]
struct Shared {
    state: Mutex<CatalogState>,
    hooks: Mutex<Hooks>,
}

#[derive(Default, Clone)]
struct Hooks {
    dependencies: Option<DependencyHook>,
    unload: Option<UnloadHook>,
    description_chars: Option<usize>,
}

#[derive(Default)]
struct CatalogState {
    servers: BTreeMap<String, ServerSkills>,
    /// (server label, skill URI) → what was loaded.
    loaded: BTreeMap<(String, String), Loaded>,
}

struct ServerSkills {
    peer: Peer<RoleClient>,
    skills: Vec<SkillSummary>,
    /// The task following a 2026-07-28 `subscriptions/listen`, stopped
    /// when the server is removed or replaced.
    follower: Option<tokio::task::AbortHandle>,
}

impl Drop for ServerSkills {
    fn drop(&mut self) {
        if let Some(follower) = &self.follower {
            follower.abort();
        }
    }
}

#[derive(Clone)]
struct Loaded {
    dependencies: Vec<String>,
}

impl fmt::Debug for HostCatalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HostCatalog")
            .field("skills", &self.skills())
            .finish()
    }
}

impl HostCatalog {
    /// An empty catalog.
    pub fn new() -> Self {
        Self::default()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, CatalogState> {
        self.shared
            .state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    fn hooks(&self) -> Hooks {
        self.shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Calls `hook` before a skill with dependencies is loaded; `false`
    /// aborts the load with an error for the model.
    pub fn on_dependencies<F, Fut>(self, hook: F) -> Self
    where
        F: Fn(DependencyRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = bool> + Send + 'static,
    {
        self.shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .dependencies = Some(Arc::new(move |request| Box::pin(hook(request))));
        self
    }

    /// Calls `hook` after each unload (by the model, or because a server or
    /// a skill went away) with the dependencies no loaded skill still needs.
    pub fn on_unload<F, Fut>(self, hook: F) -> Self
    where
        F: Fn(UnloadedSkill) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .unload = Some(Arc::new(move |unloaded| Box::pin(hook(unloaded))));
        self
    }

    /// Cuts descriptions in context blocks at `chars` characters instead of
    /// [`DEFAULT_DESCRIPTION_CHARS`].
    pub fn description_chars(self, chars: usize) -> Self {
        self.shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .description_chars = Some(chars);
        self
    }

    /// Adds (or replaces) the server `label` and lists its skills; returns
    /// how many it publishes. Only listing requests are sent.
    pub async fn add_server(
        &self,
        label: impl Into<String>,
        peer: Peer<RoleClient>,
    ) -> Result<usize, ClientError> {
        let label = label.into();
        let skills = peer.discover_skills().await?;
        let count = skills.len();
        let follower = self.listen(&label, &peer);
        let before = {
            let mut state = self.state();
            let before = display_names(&state);
            state.servers.insert(
                label.clone(),
                ServerSkills {
                    peer,
                    skills,
                    follower,
                },
            );
            before
        };
        self.drop_vanished(&label, &before).await;
        Ok(count)
    }

    /// Lists the server `label`'s skills again (after a `list_changed`);
    /// loaded skills it no longer publishes are unloaded, with the callbacks.
    pub async fn refresh(&self, label: &str) -> Result<(), ClientError> {
        let Some(peer) = self
            .state()
            .servers
            .get(label)
            .map(|server| server.peer.clone())
        else {
            return Ok(());
        };
        let skills = peer.discover_skills().await?;
        let before = {
            let mut state = self.state();
            let before = display_names(&state);
            if let Some(server) = state.servers.get_mut(label) {
                server.skills = skills;
            }
            before
        };
        self.drop_vanished(label, &before).await;
        Ok(())
    }

    /// Removes the server `label`: its loaded skills are unloaded, with the
    /// callbacks, which are also returned.
    pub async fn remove_server(&self, label: &str) -> Vec<UnloadedSkill> {
        let unloaded = {
            let mut state = self.state();
            let names = display_names(&state);
            let keys: Vec<(String, String)> = state
                .loaded
                .keys()
                .filter(|(server, _)| server == label)
                .cloned()
                .collect();
            let unloaded: Vec<UnloadedSkill> = keys
                .iter()
                .map(|key| unload_locked(&mut state, key, names.get(key).cloned()))
                .collect();
            state.servers.remove(label);
            unloaded
        };
        self.announce(&unloaded).await;
        unloaded
    }

    /// On a 2026-07-28 session, where change notifications travel only in a
    /// `subscriptions/listen` stream, opens one for `resources/list_changed`
    /// and re-lists the server's skills on each. (On 2025-11-25 sessions the
    /// client's handler hears them: see [`follow`](Self::follow).)
    fn listen(&self, label: &str, peer: &Peer<RoleClient>) -> Option<tokio::task::AbortHandle> {
        let modern = peer
            .peer_info()
            .is_some_and(|info| info.protocol_version >= ProtocolVersion::V_2026_07_28);
        if !modern {
            return None;
        }
        // Weak: the task must not keep a dropped catalog alive.
        let shared = Arc::downgrade(&self.shared);
        let peer = peer.clone();
        let label = label.to_owned();
        let task = tokio::spawn(async move {
            let filter = SubscriptionFilter::builder()
                .resources_list_changed()
                .build();
            let Ok(mut subscription) = peer.listen(filter).await else {
                return; // The server offers no subscriptions: nothing to follow.
            };
            while let Ok(Some(notification)) = subscription.next().await {
                if !matches!(
                    notification,
                    ServerNotification::ResourceListChangedNotification(_)
                ) {
                    continue;
                }
                let Some(shared) = shared.upgrade() else {
                    return;
                };
                let _ = HostCatalog { shared }.refresh(&label).await;
            }
        });
        Some(task.abort_handle())
    }

    /// A handler for the client of server `label` (pass it to
    /// [`transport::connect_with`](super::transport::connect_with)) that
    /// re-lists the server's skills when it sends
    /// `notifications/resources/list_changed` on a 2025-11-25 session.
    /// 2026-07-28 sessions need no handler: [`add_server`](Self::add_server)
    /// subscribes itself.
    pub fn follow(&self, label: impl Into<String>) -> CatalogFollower {
        CatalogFollower {
            catalog: self.clone(),
            label: label.into(),
        }
    }

    /// Every skill offered, sorted by name.
    pub fn skills(&self) -> Vec<SkillEntry> {
        let state = self.state();
        let names = display_names(&state);
        let mut entries: Vec<SkillEntry> = state
            .servers
            .iter()
            .flat_map(|(label, server)| {
                server.skills.iter().map(|skill| {
                    let key = (label.clone(), skill.uri.clone());
                    let loaded = state.loaded.get(&key);
                    SkillEntry {
                        name: names.get(&key).cloned().unwrap_or_default(),
                        server: label.clone(),
                        uri: skill.uri.clone(),
                        description: skill.description.clone(),
                        dependencies: loaded
                            .map(|loaded| loaded.dependencies.clone())
                            .unwrap_or_else(|| skill.dependencies()),
                        loaded: loaded.is_some(),
                    }
                })
            })
            .collect();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        entries
    }

    /// One short text per skill for the system prompt:
    /// `name: description (requires: a, b)`.
    pub fn context_blocks(&self) -> Vec<String> {
        let chars = self
            .hooks()
            .description_chars
            .unwrap_or(DEFAULT_DESCRIPTION_CHARS);
        self.skills()
            .into_iter()
            .map(|skill| {
                let mut block = format!("{}: {}", skill.name, shorten(&skill.description, chars));
                if !skill.dependencies.is_empty() {
                    block.push_str(&format!(" (requires: {})", skill.dependencies.join(", ")));
                }
                block
            })
            .collect()
    }

    /// The context blocks as one preamble section.
    pub fn preamble(&self) -> String {
        let blocks = self.context_blocks();
        if blocks.is_empty() {
            return String::new();
        }
        let mut text = format!("Skills you can load with `{LOAD_SKILL}` when a task needs one:\n");
        for block in blocks {
            text.push_str("- ");
            text.push_str(&block);
            text.push('\n');
        }
        text
    }

    /// The tools to offer now: `load_skill` while there are skills,
    /// `unload_skill` while one is loaded.
    pub fn tools(&self) -> Vec<ToolDefinition> {
        let skills = self.skills();
        let mut tools = Vec::new();
        if !skills.is_empty() {
            let names: Vec<&str> = skills.iter().map(|skill| skill.name.as_str()).collect();
            tools.push(ToolDefinition {
                name: LOAD_SKILL.into(),
                description: format!(
                    "Load the full instructions of a skill by name, when the task needs it. Available skills: {}.",
                    names.join(", ")
                ),
                parameters: json!({
                    "type": "object",
                    "properties": {"skillName": {
                        "type": "string",
                        "enum": names,
                        "description": "The skill to load."
                    }},
                    "required": ["skillName"],
                    "additionalProperties": false
                }),
            });
        }
        let loaded: Vec<&str> = skills
            .iter()
            .filter(|skill| skill.loaded)
            .map(|skill| skill.name.as_str())
            .collect();
        if !loaded.is_empty() {
            tools.push(ToolDefinition {
                name: UNLOAD_SKILL.into(),
                description: format!(
                    "Unload a skill you no longer need, to free its context and release the MCP servers connected for it. Loaded: {}.",
                    loaded.join(", ")
                ),
                parameters: json!({
                    "type": "object",
                    "properties": {"skillName": {
                        "type": "string",
                        "enum": loaded,
                        "description": "The skill to unload."
                    }},
                    "required": ["skillName"],
                    "additionalProperties": false
                }),
            });
        }
        tools
    }

    /// Runs a tool call of the model's.
    pub async fn call(&self, call: &ToolCall) -> CallOutcome {
        let Some(name) = call.arguments.get("skillName").and_then(Value::as_str) else {
            return CallOutcome {
                text: format!("`{}` needs a `skillName` string argument", call.name),
                is_error: true,
            };
        };
        let result = match call.name.as_str() {
            LOAD_SKILL => self.load_skill(name).await,
            UNLOAD_SKILL => self
                .unload_skill(name)
                .await
                .map(|unloaded| format!("Unloaded '{}'.", unloaded.skill)),
            other => Err(ClientError::Usage(format!(
                "no tool `{other}` in the skills catalog"
            ))),
        };
        match result {
            Ok(text) => CallOutcome {
                text,
                is_error: false,
            },
            Err(error) => CallOutcome {
                text: error.to_string(),
                is_error: true,
            },
        }
    }

    /// Loads the skill `name`: reads its `SKILL.md` and nothing else
    /// (verified in memory against the listing entry: size, digest and
    /// advertised frontmatter; on a legacy server, its `_manifest`), asks the
    /// dependency callback, and returns the text with a postscript.
    pub async fn load_skill(&self, name: &str) -> Result<String, ClientError> {
        let (key, display, peer, summary) = {
            let state = self.state();
            let names = display_names(&state);
            let key = names
                .iter()
                .find(|(_, display)| display.as_str() == name)
                .map(|(key, _)| key.clone())
                .ok_or_else(|| ClientError::UnknownSkill(name.to_owned()))?;
            let server = &state.servers[&key.0];
            let summary = server
                .skills
                .iter()
                .find(|skill| skill.uri == key.1)
                .cloned()
                .expect("named skills are listed");
            (key, name.to_owned(), server.peer.clone(), summary)
        };
        let timeout = super::options::DEFAULT_TIMEOUT;
        // Verified against the listing entry the catalog holds (SEP-2640):
        // the model chose the skill from that entry, so the SKILL.md it gets
        // must be the one listed. Nothing else is asked first; a skill that
        // changed since it was listed fails the digest check and is refused
        // (the listing follows `list_changed`). Legacy servers list no
        // entry: their `_manifest` is asked.
        let manifest = match &summary.entry {
            Some(entry) => manifest::from_entry(entry)?,
            None => manifest::ask_manifest(&peer, &summary, timeout).await?,
        };
        let text = read_skill_md(&peer, &manifest, timeout).await?;
        let (frontmatter, _findings) = fetch::check_skill_md(&manifest, text.as_bytes())?;
        let dependencies = discover::dependencies_of(frontmatter.get("dependencies"));
        if !dependencies.is_empty()
            && let Some(hook) = self.hooks().dependencies
        {
            let request = DependencyRequest {
                skill: display.clone(),
                server: key.0.clone(),
                dependencies: dependencies.clone(),
            };
            if !hook(request).await {
                return Err(ClientError::Usage(format!(
                    "`{display}` needs the MCP servers {}, which the host did not connect; it was not loaded",
                    dependencies.join(", ")
                )));
            }
        }
        self.state().loaded.insert(key, Loaded { dependencies });
        Ok(format!(
            "{text}\n\n---\nWhen you no longer need this skill, call `{UNLOAD_SKILL}` with \"{display}\" to free its context and release any MCP servers that were connected for it."
        ))
    }

    /// Unloads the skill `name` and tells the unload callback which
    /// dependencies were released.
    pub async fn unload_skill(&self, name: &str) -> Result<UnloadedSkill, ClientError> {
        let unloaded = {
            let mut state = self.state();
            let names = display_names(&state);
            let key = state
                .loaded
                .keys()
                .find(|key| names.get(*key).map(String::as_str) == Some(name))
                .cloned()
                .ok_or_else(|| ClientError::Usage(format!("`{name}` is not loaded")))?;
            unload_locked(&mut state, &key, Some(name.to_owned()))
        };
        self.announce(std::slice::from_ref(&unloaded)).await;
        Ok(unloaded)
    }

    /// Unloads skills of `label` that its server no longer lists, named as
    /// they were in `before`.
    async fn drop_vanished(&self, label: &str, before: &BTreeMap<(String, String), String>) {
        let unloaded = {
            let mut state = self.state();
            let listed: BTreeSet<String> = state
                .servers
                .get(label)
                .map(|server| {
                    server
                        .skills
                        .iter()
                        .map(|skill| skill.uri.clone())
                        .collect()
                })
                .unwrap_or_default();
            let gone: Vec<(String, String)> = state
                .loaded
                .keys()
                .filter(|(server, uri)| server == label && !listed.contains(uri))
                .cloned()
                .collect();
            gone.iter()
                .map(|key| unload_locked(&mut state, key, before.get(key).cloned()))
                .collect::<Vec<_>>()
        };
        self.announce(&unloaded).await;
    }

    async fn announce(&self, unloaded: &[UnloadedSkill]) {
        if let Some(hook) = self.hooks().unload {
            for skill in unloaded {
                hook(skill.clone()).await;
            }
        }
    }
}

/// Removes `key` from the loaded skills and counts which of its dependencies
/// no other loaded skill needs.
fn unload_locked(
    state: &mut CatalogState,
    key: &(String, String),
    display: Option<String>,
) -> UnloadedSkill {
    let loaded = state.loaded.remove(key);
    let still_needed: BTreeSet<&String> = state
        .loaded
        .values()
        .flat_map(|loaded| loaded.dependencies.iter())
        .collect();
    let mut released: Vec<String> = loaded
        .map(|loaded| loaded.dependencies)
        .unwrap_or_default()
        .into_iter()
        .filter(|dependency| !still_needed.contains(dependency))
        .collect();
    released.sort();
    released.dedup();
    UnloadedSkill {
        skill: display.unwrap_or_else(|| key.1.clone()),
        server: key.0.clone(),
        released,
    }
}

/// The name the model sees for each (server, URI): the skill's name, or
/// `<label>/<path>` for every skill whose name another one shares.
fn display_names(state: &CatalogState) -> BTreeMap<(String, String), String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for server in state.servers.values() {
        for skill in &server.skills {
            *count.entry(skill.name.as_str()).or_default() += 1;
        }
    }
    let mut names = BTreeMap::new();
    for (label, server) in &state.servers {
        for skill in &server.skills {
            let name = if count[skill.name.as_str()] > 1 {
                format!("{label}/{}", skill.path)
            } else {
                skill.name.clone()
            };
            names.insert((label.clone(), skill.uri.clone()), name);
        }
    }
    names
}

/// `text` cut to `chars` characters at a word boundary, with `…`.
fn shorten(text: &str, chars: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= chars {
        return text;
    }
    let cut: String = text.chars().take(chars.saturating_sub(1)).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > cut.len() / 2 => &cut[..space],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

async fn read_skill_md(
    peer: &Peer<RoleClient>,
    manifest: &SkillManifest,
    timeout: std::time::Duration,
) -> Result<String, ClientError> {
    let file = manifest.skill_md().ok_or_else(|| ClientError::Entry {
        uri: manifest.uri.clone(),
        reason: "the manifest lists no SKILL.md".into(),
    })?;
    let bytes = fetch::read_verified(peer, file, timeout).await?;
    String::from_utf8(bytes).map_err(|_| ClientError::Integrity {
        uri: file.uri.clone(),
        reason: "SKILL.md is not UTF-8".into(),
    })
}

/// The client handler [`HostCatalog::follow`] makes: re-lists its server's
/// skills on `notifications/resources/list_changed`.
#[derive(Clone)]
pub struct CatalogFollower {
    catalog: HostCatalog,
    label: String,
}

impl ClientHandler for CatalogFollower {
    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        // Re-listing sends requests on this connection; the notification
        // handler must return first, so it runs on its own task.
        let catalog = self.catalog.clone();
        let label = self.label.clone();
        tokio::spawn(async move {
            let _ = catalog.refresh(&label).await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_cut_at_a_word() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("one two three four", 12), "one two…");
        assert_eq!(shorten("a\n  b", 10), "a b");
        assert_eq!(shorten("abcdefghijkl", 5), "abcd…");
        assert!(
            shorten(&"word ".repeat(200), DEFAULT_DESCRIPTION_CHARS)
                .chars()
                .count()
                <= DEFAULT_DESCRIPTION_CHARS
        );
    }
}
