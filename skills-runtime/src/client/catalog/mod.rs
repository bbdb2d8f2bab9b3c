//! `HostCatalog`: skills from several MCP servers, as an LLM host offers
//! them to a model — short context blocks for the system prompt, within a
//! budget, and `load_skill`/`unload_skill` tools that fetch a skill's
//! `SKILL.md` (verified, in memory) only when the model asks for it and the
//! host approved the skill's exact file set.
//!
//! By what each part answers: [`servers`] — which servers and skills are
//! listed, and following their changes; [`names`] — what of a listing may
//! reach the model, and the name it knows each skill by; [`context`] and
//! [`budget`] — the system-prompt text; [`tools`] — the tools and their
//! calls; [`consent`] — the host's approval before a load.

mod budget;
mod consent;
mod context;
mod names;
mod servers;
mod tools;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};

use futures::future::BoxFuture;
use rmcp::RoleClient;
use rmcp::service::Peer;
use serde::Serialize;

use super::approval::{
    ApprovalFile, ApprovalRecord, ApprovalRequest, ApprovalState, RecordedDecision,
};
use super::discover::SkillSummary;

pub use budget::{CatalogContext, ContextBudget, MIN_DESCRIPTION_CHARS};
pub use context::DEFAULT_DESCRIPTION_CHARS;
pub use names::RefusedSkill;
pub use servers::CatalogFollower;
pub use tools::{
    CallOutcome, DependencyRequest, LOAD_SKILL, ToolCall, ToolDefinition, UNLOAD_SKILL,
    UnloadedSkill,
};

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
///   silent overwrite, and no skill of one server can take the name another
///   one's is shown by.
/// - What a server says never reaches the model unchecked: a skill whose
///   name breaks the format's rules, whose URI does not parse, whose path
///   (the name a model sees once two skills share a name) holds invisible or
///   line-breaking characters or is over 256 characters, or whose entry
///   does not verify is refused when it is listed ([`refused`](Self::refused));
///   descriptions and dependencies lose control characters and line breaks
///   and are bounded; with a budget, the tools' schemas fit it too.
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
    /// The skills admitted from its listing ([`names::admit`]).
    skills: Vec<SkillSummary>,
    /// Those refused, with why.
    refused: Vec<RefusedSkill>,
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

impl CatalogState {
    /// The name the model sees for each (server label, skill URI)
    /// ([`names::display_names`]).
    fn display_names(&self) -> BTreeMap<(String, String), String> {
        names::display_names(
            self.servers
                .iter()
                .map(|(label, server)| (label, server.skills.as_slice())),
        )
    }
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

    /// The builder methods' one way to change a hook.
    fn set_hooks(self, set: impl FnOnce(&mut Hooks)) -> Self {
        set(&mut self
            .shared
            .hooks
            .lock()
            .unwrap_or_else(PoisonError::into_inner));
        self
    }

    /// Calls `hook` before a skill with dependencies is loaded; `false`
    /// aborts the load with an error for the model.
    pub fn on_dependencies<F, Fut>(self, hook: F) -> Self
    where
        F: Fn(DependencyRequest) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = bool> + Send + 'static,
    {
        self.set_hooks(|hooks| {
            hooks.dependencies = Some(Arc::new(move |request| Box::pin(hook(request))))
        })
    }

    /// Calls `hook` after each unload (by the model, or because a server or
    /// a skill went away) with the dependencies no loaded skill still needs.
    pub fn on_unload<F, Fut>(self, hook: F) -> Self
    where
        F: Fn(UnloadedSkill) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.set_hooks(|hooks| {
            hooks.unload = Some(Arc::new(move |unloaded| Box::pin(hook(unloaded))))
        })
    }

    /// Cuts descriptions in context blocks at `chars` characters instead of
    /// [`DEFAULT_DESCRIPTION_CHARS`].
    pub fn description_chars(self, chars: usize) -> Self {
        self.set_hooks(|hooks| hooks.description_chars = Some(chars))
    }

    /// Keeps the system-prompt text ([`preamble`](Self::preamble),
    /// [`context`](Self::context)) within `budget`: descriptions are cut
    /// shorter, down to [`MIN_DESCRIPTION_CHARS`](super::MIN_DESCRIPTION_CHARS),
    /// then skills are left out from the end of the name order, and the text
    /// says how many were left out and that `load_skill` takes any name. The
    /// tools' definitions fit it too: when listing every offered name would
    /// not, [`tools`](Self::tools) leaves the list out of their descriptions
    /// and schemas, and `load_skill` takes any offered name all the same. A
    /// budget too small for even that one line gives an empty text.
    pub fn context_budget(self, budget: ContextBudget) -> Self {
        self.set_hooks(|hooks| hooks.budget = Some(budget))
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
    ///   without a request ([`ClientError::NotApproved`](crate::client::ClientError::NotApproved)), until its set
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
        self.set_hooks(|hooks| {
            hooks.approval = Some(Arc::new(move |request| Box::pin(hook(request))))
        })
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

    /// Every skill offered, sorted by name.
    pub fn skills(&self) -> Vec<SkillEntry> {
        let asks = self.hooks().approval.is_some();
        let state = self.state();
        let names = state.display_names();
        let mut entries: Vec<SkillEntry> = state
            .servers
            .iter()
            .flat_map(|(label, server)| {
                let state = &state;
                let names = &names;
                server.skills.iter().filter_map(move |skill| {
                    let key = (label.clone(), skill.uri.clone());
                    // A skill without a name of its own is not offered.
                    let name = names.get(&key)?.clone();
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
                    Some(SkillEntry {
                        name,
                        server: label.clone(),
                        uri: skill.uri.clone(),
                        description: skill.description.clone(),
                        dependencies: loaded
                            .map(|loaded| loaded.dependencies.clone())
                            .unwrap_or_else(|| names::model_dependencies(skill.dependencies())),
                        loaded: loaded.is_some(),
                        approval,
                    })
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
}
