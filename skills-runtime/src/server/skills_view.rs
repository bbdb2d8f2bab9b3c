//! One caller's view of the skills being served, for plain HTTP routes (a
//! `GET /skills` catalog, `GET /skills/{name}`): the same policy and the
//! same snapshot as every MCP answer, so a `replace()` swaps both at once.

use std::sync::Arc;

use super::SkillsServer;
use super::access::{Caller, Offer};
use super::snapshot::Snapshot;
use super::view::{self, readable_through};
use super::visible::VisibleSet;
use crate::Skill;

/// What one caller may see of the set served right now: the skills it owns,
/// the teasers of the skills it may buy, and the fingerprint of what it
/// owns. Built by [`SkillsServer::view`] from a [`Caller`], so an HTTP
/// route answers from the same policy and the same snapshot as MCP.
///
/// ```
/// use skills_runtime::server::{Access, Caller, Offer};
/// use skills_runtime::{Skills, SkillsServer, embed_skills};
///
/// static SKILLS: Skills = embed_skills!("skills");
///
/// /// What the auth layer put in the request extensions.
/// #[derive(Clone)]
/// struct Learner(&'static str);
///
/// let server = SkillsServer::builder(SKILLS.clone())
///     .access(|skill, caller| match caller.extension::<Learner>() {
///         Some(Learner("admin")) => Access::Owned,
///         Some(_) if skill.name() == "stock-audit" => Access::Owned,
///         _ => Access::Absent,
///     })
///     .build()?;
///
/// // In an axum handler, `parts` is the request's `http::request::Parts`.
/// let mut request = http::Request::new(());
/// request.extensions_mut().insert(Learner("learner-a"));
/// let (parts, ()) = request.into_parts();
///
/// let view = server.view(&Caller::from_http(&parts));
/// let names: Vec<&str> = view.owned().map(|skill| skill.name()).collect();
/// assert_eq!(names, ["stock-audit"]);
/// assert!(view.owned_skill("stock-audit").is_some());
/// // Not owned and nonexistent look the same: answer both with one 404.
/// assert!(view.owned_skill("recipe-scaling").is_none());
/// assert!(view.owned_skill("no-such-skill").is_none());
/// // Cache-Control: private, and an ETag that changes only with this view.
/// assert!(view.is_private());
/// assert!(view.fingerprint().starts_with("sha256:"));
/// # Ok::<(), skills_runtime::Report>(())
/// ```
#[derive(Clone)]
pub struct SkillsView {
    snapshot: Arc<Snapshot>,
    visible: Arc<VisibleSet>,
    locked: Vec<(usize, Offer)>,
    private: bool,
}

impl SkillsServer {
    /// What `caller` may see of the set served right now: for HTTP routes,
    /// built from the request head with [`Caller::from_http`]. Asks the
    /// access policy about every skill once.
    pub fn view(&self, caller: &Caller<'_>) -> SkillsView {
        let snapshot = self.snapshot();
        let rule = &self.settings().rule;
        let mut locked = Vec::new();
        let visible = view::resolve(&snapshot, rule, caller, |index, offer| {
            locked.push((index, offer));
        });
        // No teaser for a skill already readable through a skill it is nested in.
        let skills = &snapshot.skills;
        locked.retain(|&(index, _)| {
            !readable_through(skills, &skills.skills()[index], |skill| {
                skills
                    .position(skill.path())
                    .is_some_and(|index| visible.owns(index))
            })
        });
        SkillsView {
            private: !rule.is_everyone(),
            snapshot,
            visible,
            locked,
        }
    }
}

impl SkillsView {
    /// The skills the caller owns, in path order: what `skills/list` lists.
    pub fn owned(&self) -> impl ExactSizeIterator<Item = &Skill> + '_ {
        let skills = self.snapshot.skills.skills();
        self.visible
            .indices()
            .iter()
            .map(move |&index| &skills[index])
    }

    /// The owned skill named `name`; `None` alike for a skill that is
    /// locked, absent or does not exist, so a route answers all three with
    /// the same bytes.
    pub fn owned_skill(&self, name: &str) -> Option<&Skill> {
        let skills = &self.snapshot.skills;
        let skill = skills.by_name(name)?;
        let index = skills.position(skill.path())?;
        self.visible.owns(index).then_some(skill)
    }

    /// The skills the caller may buy, in path order, each with the author's
    /// offer: teasers to show next to the owned skills (name, description,
    /// offer), never files. A skill readable through a skill the caller owns
    /// has no teaser.
    pub fn locked(&self) -> impl ExactSizeIterator<Item = (&Skill, &Offer)> + '_ {
        let skills = self.snapshot.skills.skills();
        self.locked
            .iter()
            .map(move |(index, offer)| (&skills[*index], offer))
    }

    /// Which snapshot this view was taken of, for what the HTTP layer
    /// builds once per snapshot (the well-known index's archives).
    #[cfg(feature = "http")]
    pub(crate) fn snapshot_key(&self) -> SnapshotKey {
        SnapshotKey(Arc::downgrade(&self.snapshot))
    }

    /// The position of `skill` in the set, when the caller owns it.
    #[cfg(feature = "http")]
    pub(crate) fn owned_position(&self, skill: &Skill) -> Option<usize> {
        let index = self.snapshot.skills.position(skill.path())?;
        self.visible.owns(index).then_some(index)
    }

    /// The skill at `index` of the set (what [`owned_position`](Self::owned_position) gave).
    #[cfg(feature = "http")]
    pub(crate) fn skill_at(&self, index: usize) -> Option<&Skill> {
        self.snapshot.skills.skills().get(index)
    }

    /// How many skills the set holds.
    #[cfg(feature = "http")]
    pub(crate) fn set_len(&self) -> usize {
        self.snapshot.skills.len()
    }

    /// The fingerprint of what the caller owns: `sha256:` over the owned
    /// skills' URIs and versions, as a set of exactly those skills would
    /// have. It changes when, and only when, something the caller owns
    /// changes (a grant, a revoke, a new version of an owned skill): an ETag
    /// for routes that show owned skills. Teasers are not part of it; a
    /// route that shows them hashes its body instead.
    pub fn fingerprint(&self) -> &str {
        self.visible.fingerprint()
    }

    /// Whether the answer depends on the caller (an access policy is set):
    /// send `Cache-Control: private` then.
    pub fn is_private(&self) -> bool {
        self.private
    }
}

/// A snapshot, named without keeping it alive.
#[cfg(feature = "http")]
#[derive(Clone)]
pub(crate) struct SnapshotKey(std::sync::Weak<Snapshot>);

#[cfg(feature = "http")]
impl SnapshotKey {
    /// Whether `view` was taken of this snapshot.
    pub(crate) fn is_of(&self, view: &SkillsView) -> bool {
        std::ptr::eq(self.0.as_ptr(), Arc::as_ptr(&view.snapshot))
    }
}

impl std::fmt::Debug for SkillsView {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillsView")
            .field("owned", &self.visible.indices().len())
            .field("locked", &self.locked.len())
            .field("fingerprint", &self.fingerprint())
            .finish()
    }
}
