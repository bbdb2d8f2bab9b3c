//! `HostCatalog`: skills from several MCP servers, as an LLM host offers
//! them to a model — short context blocks for the system prompt, within a
//! budget, and `load_skill`/`unload_skill` tools that fetch a skill's
//! `SKILL.md` (verified, in memory) only when the model asks for it and the
//! host approved the skill's exact file set.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use futures::future::BoxFuture;
use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{NotificationContext, Peer};
use rmcp::{ClientHandler, RoleClient};
use serde::Serialize;
use serde_json::{Value, json};

use super::approval::{
    self, ApprovalFile, ApprovalRecord, ApprovalRequest, ApprovalState, RecordedDecision,
};
use super::budget::{self, CatalogContext, ContextBudget, Described};
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
    /// Where it stands with the host for the files listed now: a declined
    /// skill is not offered to the model.
    pub approval: ApprovalState,
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
type ApprovalHook = Arc<dyn Fn(ApprovalRequest) -> BoxFuture<'static, bool> + Send + Sync>;

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
/// - Approval ([`on_approval`](Self::on_approval)): nothing of a skill is
///   read for the model until the host approved its exact file set (every
///   file's URI, size and digest). A decision is remembered per set and asked
///   again when the set changes; a loaded skill whose set changes on a
///   re-listing is unloaded, with the callbacks, so changed content is never
///   used silently. [`approvals`](Self::approvals) and
///   [`with_approvals`](Self::with_approvals) save and restore decisions.
///   **Without a callback the catalog trusts every skill**, as it always
///   has (see `on_approval` for why that is the default).
/// - Budget ([`context_budget`](Self::context_budget)): the system-prompt
///   text stays within a size the host sets; descriptions are shortened
///   first, then skills are left out, and the text says how many and that
///   `load_skill` takes any name.
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
    approval: Option<ApprovalHook>,
    description_chars: Option<usize>,
    budget: Option<ContextBudget>,
}

#[derive(Default)]
struct CatalogState {
    servers: BTreeMap<String, ServerSkills>,
    /// (server label, skill URI) → what was loaded.
    loaded: BTreeMap<(String, String), Loaded>,
    /// (server label, skill URI) → the host's latest decision.
    approvals: BTreeMap<(String, String), RecordedDecision>,
}

struct ServerSkills {
    peer: Peer<RoleClient>,
    skills: Vec<SkillSummary>,
    /// Skill URI → its file set, from its listing entry (SEP servers; a
    /// legacy server's set is known only from `_manifest`, at load time).
    sets: BTreeMap<String, Vec<ApprovalFile>>,
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
    /// The file set it was loaded (and approved) with.
    files: Vec<ApprovalFile>,
}

/// The file sets of a listing's entries, each from its entry when the entry
/// is valid (a bad entry is refused when it is loaded).
fn sets_of(skills: &[SkillSummary]) -> BTreeMap<String, Vec<ApprovalFile>> {
    skills
        .iter()
        .filter_map(|skill| {
            let entry = skill.entry.as_ref()?;
            let manifest = manifest::from_entry(entry).ok()?;
            Some((skill.uri.clone(), approval::files_of(&manifest)))
        })
        .collect()
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

    /// Keeps the system-prompt text ([`preamble`](Self::preamble),
    /// [`context`](Self::context)) within `budget`: descriptions are cut
    /// shorter, down to [`MIN_DESCRIPTION_CHARS`](super::MIN_DESCRIPTION_CHARS),
    /// then skills are left out from the end of the name order, and the text
    /// says how many were left out and that `load_skill` takes any name (its
    /// `skillName` enum still lists every skill offered). A budget too small
    /// for even that one line gives an empty text.
    pub fn context_budget(self, budget: ContextBudget) -> Self {
        self.shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .budget = Some(budget);
        self
    }

    /// Asks `hook` before a skill is loaded for the model, with the skill's
    /// exact file set (name, server, every file's path, URI, size and
    /// digest) and what changed since the last decision about it; `false`
    /// declines.
    ///
    /// - Asked at the first `load_skill` of a set, before any file of the
    ///   skill is read (SEP-2640: no file is fetched to list or approve a
    ///   skill). On SEP servers the set is the listing entry the model chose
    ///   from; on legacy servers, the skill's `_manifest`.
    /// - Remembered per set: the same set is not asked about again. A set
    ///   that changes (a `list_changed` whose listing alters a digest, adds
    ///   or removes a file) is asked about again, with the differences; a
    ///   loaded skill whose set changed is unloaded. What is read is checked
    ///   against the approved digests, so bytes that changed after approval
    ///   are refused, never loaded.
    /// - A declined set is remembered too: the skill is left out of the
    ///   context blocks and `load_skill`'s names, and a load of it is refused
    ///   without a request ([`ClientError::NotApproved`]), until its set
    ///   changes or [`with_approvals`](Self::with_approvals) gives back a
    ///   record that approves it.
    ///
    /// Without a hook, every skill is trusted: the catalog cannot ask a user
    /// itself, it already verifies every byte against the listing (integrity
    /// is never switched off), and refusing every load by default would break
    /// each host that does not set a hook with nothing to show why at compile
    /// time. A host that offers skills from servers its user did not choose
    /// should set one: consent is the host's duty under SEP-2640, and only
    /// its UI can ask.
    pub fn on_approval<F, Fut>(self, hook: F) -> Self
    where
        F: Fn(ApprovalRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = bool> + Send + 'static,
    {
        self.shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .approval = Some(Arc::new(move |request| Box::pin(hook(request))));
        self
    }

    /// Gives back decisions saved from [`approvals`](Self::approvals) (in an
    /// earlier session, say), replacing those held. Consulted only with an
    /// approval hook ([`on_approval`](Self::on_approval)): a decision applies
    /// while the skill's file set is exactly the one recorded.
    pub fn with_approvals(self, record: ApprovalRecord) -> Self {
        self.state().approvals = record.into_map();
        self
    }

    /// Every decision the host made (or gave back), to save: it is `serde`.
    pub fn approvals(&self) -> ApprovalRecord {
        ApprovalRecord::from_map(&self.state().approvals)
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
        let sets = sets_of(&skills);
        let follower = self.listen(&label, &peer);
        let before = {
            let mut state = self.state();
            let before = display_names(&state);
            state.servers.insert(
                label.clone(),
                ServerSkills {
                    peer,
                    skills,
                    sets,
                    follower,
                },
            );
            before
        };
        self.drop_vanished(&label, &before).await;
        Ok(count)
    }

    /// Lists the server `label`'s skills again (after a `list_changed`);
    /// loaded skills it no longer publishes, or whose file set changed, are
    /// unloaded, with the callbacks.
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
        let sets = sets_of(&skills);
        let before = {
            let mut state = self.state();
            let before = display_names(&state);
            if let Some(server) = state.servers.get_mut(label) {
                server.skills = skills;
                server.sets = sets;
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
        let asks = self.hooks().approval.is_some();
        let state = self.state();
        let names = display_names(&state);
        let mut entries: Vec<SkillEntry> = state
            .servers
            .iter()
            .flat_map(|(label, server)| {
                let state = &state;
                let names = &names;
                server.skills.iter().map(move |skill| {
                    let key = (label.clone(), skill.uri.clone());
                    let loaded = state.loaded.get(&key);
                    let approval = if !asks {
                        ApprovalState::Approved
                    } else {
                        // A loaded skill's set is the one approved; otherwise
                        // the listing's, when the listing says.
                        let set = loaded
                            .map(|loaded| &loaded.files)
                            .or_else(|| server.sets.get(&skill.uri));
                        match (state.approvals.get(&key), set) {
                            (Some(decision), Some(set)) if decision.files == *set => {
                                if decision.approved {
                                    ApprovalState::Approved
                                } else {
                                    ApprovalState::Declined
                                }
                            }
                            _ => ApprovalState::Pending,
                        }
                    };
                    SkillEntry {
                        name: names.get(&key).cloned().unwrap_or_default(),
                        server: label.clone(),
                        uri: skill.uri.clone(),
                        description: skill.description.clone(),
                        dependencies: loaded
                            .map(|loaded| loaded.dependencies.clone())
                            .unwrap_or_else(|| skill.dependencies()),
                        loaded: loaded.is_some(),
                        approval,
                    }
                })
            })
            .collect();
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        entries
    }

    /// The skills offered to the model: every skill but those the host
    /// declined.
    fn offered(&self) -> Vec<SkillEntry> {
        let mut skills = self.skills();
        skills.retain(|skill| skill.approval != ApprovalState::Declined);
        skills
    }

    /// The text for the system prompt and what the budget did to it: one
    /// block per skill offered, `name: description (requires: a, b)`, the
    /// description cut at a word to [`DEFAULT_DESCRIPTION_CHARS`] (or
    /// [`description_chars`](Self::description_chars)), all within the
    /// [`context_budget`](Self::context_budget) if one is set.
    pub fn context(&self) -> CatalogContext {
        let hooks = self.hooks();
        let chars = hooks.description_chars.unwrap_or(DEFAULT_DESCRIPTION_CHARS);
        let skills = self.offered();
        let described: Vec<Described<'_>> = skills
            .iter()
            .map(|skill| Described {
                name: &skill.name,
                description: &skill.description,
                dependencies: &skill.dependencies,
            })
            .collect();
        budget::fit(&described, chars, hooks.budget.as_ref())
    }

    /// One short text per skill for the system prompt:
    /// `name: description (requires: a, b)` — the blocks of
    /// [`context`](Self::context), so only those the budget left in.
    pub fn context_blocks(&self) -> Vec<String> {
        self.context().blocks
    }

    /// The context blocks as one preamble section (the text of
    /// [`context`](Self::context)), within the budget if one is set.
    pub fn preamble(&self) -> String {
        self.context().text
    }

    /// The tools to offer now: `load_skill` while there are skills,
    /// `unload_skill` while one is loaded.
    pub fn tools(&self) -> Vec<ToolDefinition> {
        let skills = self.offered();
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

    /// Loads the skill `name`: asks the approval callback about its file set
    /// (unless that exact set was decided on before), reads its `SKILL.md`
    /// and nothing else (verified in memory against the approved set, the
    /// listing entry: size, digest and advertised frontmatter; on a legacy
    /// server, its `_manifest`), asks the dependency callback, and returns
    /// the text with a postscript. A set the host declines is refused with
    /// [`ClientError::NotApproved`] before any file is read.
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
        let files = approval::files_of(&manifest);
        self.approve(&key, &display, &summary, &files).await?;
        // Read with the manifest just approved: bytes that changed since do
        // not match its digests and are refused.
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
        self.state().loaded.insert(
            key,
            Loaded {
                dependencies,
                files,
            },
        );
        Ok(format!(
            "{text}\n\n---\nWhen you no longer need this skill, call `{UNLOAD_SKILL}` with \"{display}\" to free its context and release any MCP servers that were connected for it."
        ))
    }

    /// Checks that the host approved exactly `files` for the skill `key`,
    /// asking the approval callback when that set was never decided on.
    async fn approve(
        &self,
        key: &(String, String),
        display: &str,
        summary: &SkillSummary,
        files: &[ApprovalFile],
    ) -> Result<(), ClientError> {
        let Some(hook) = self.hooks().approval else {
            return Ok(()); // No callback: every skill is trusted.
        };
        let not_approved = || ClientError::NotApproved {
            skill: display.to_owned(),
            server: key.0.clone(),
        };
        let previous = {
            let state = self.state();
            match state.approvals.get(key) {
                Some(decision) if decision.files == files => {
                    return if decision.approved {
                        Ok(())
                    } else {
                        Err(not_approved())
                    };
                }
                Some(decision) => Some(approval::previous(decision, files)),
                None => None,
            }
        };
        let request = ApprovalRequest {
            skill: display.to_owned(),
            server: key.0.clone(),
            uri: summary.uri.clone(),
            description: summary.description.clone(),
            files: files.to_vec(),
            previous,
        };
        let approved = hook(request).await;
        self.state().approvals.insert(
            key.clone(),
            RecordedDecision::new(
                key.0.clone(),
                key.1.clone(),
                summary.name.clone(),
                approved,
                files.to_vec(),
            ),
        );
        if approved {
            Ok(())
        } else {
            Err(not_approved())
        }
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

    /// Unloads skills of `label` that its server no longer lists, or whose
    /// listed file set is no longer the one loaded (and approved), named as
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
            let sets = state.servers.get(label).map(|server| &server.sets);
            let gone: Vec<(String, String)> = state
                .loaded
                .iter()
                .filter(|((server, uri), loaded)| {
                    server == label
                        && (!listed.contains(uri)
                            || sets
                                .and_then(|sets| sets.get(uri))
                                .is_some_and(|set| *set != loaded.files))
                })
                .map(|(key, _)| key.clone())
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

async fn read_skill_md(
    peer: &Peer<RoleClient>,
    manifest: &SkillManifest,
    timeout: std::time::Duration,
) -> Result<String, ClientError> {
    let file = manifest.skill_md().ok_or_else(|| manifest.no_skill_md())?;
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
