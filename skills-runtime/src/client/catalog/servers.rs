//! Which servers the catalog lists, and following their changes: adding,
//! re-listing and removing a server, the 2026-07-28 subscription and the
//! 2025-11-25 handler, and unloading what vanished.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{NotificationContext, Peer};
use rmcp::{ClientHandler, RoleClient};

use super::names::{self, RefusedSkill};
use super::tools::{UnloadedSkill, unload_locked};
use super::{HostCatalog, ServerSkills};
use crate::client::approval::{self, ApprovalFile};
use crate::client::discover::SkillSummary;
use crate::client::manifest;
use crate::client::{ClientError, SkillsPeerExt as _};

/// The file sets of a listing's admitted entries (each verified when it was
/// admitted).
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

impl HostCatalog {
    /// Adds (or replaces) the server `label` and lists its skills; returns
    /// how many it offers. Only listing requests are sent. Skills the catalog
    /// refuses to show a model (a name the format does not allow, a URI that
    /// does not parse, an entry that does not verify) are not offered and
    /// not counted: [`refused`](Self::refused) says which and why.
    pub async fn add_server(
        &self,
        label: impl Into<String>,
        peer: Peer<RoleClient>,
    ) -> Result<usize, ClientError> {
        let label = label.into();
        let (skills, refused) = names::admit(&label, peer.discover_skills().await?);
        let count = skills.len();
        let sets = sets_of(&skills);
        let follower = self.listen(&label, &peer);
        let before = {
            let mut state = self.state();
            let before = state.display_names();
            state.servers.insert(
                label.clone(),
                ServerSkills {
                    peer,
                    skills,
                    refused,
                    sets,
                    follower,
                },
            );
            before
        };
        self.drop_vanished(&label, &before).await;
        Ok(count)
    }

    /// The skills the servers listed that the catalog does not offer, and
    /// why, sorted by server and URI: refused as a sync refuses them, so
    /// that no name, URI or text a server chose reaches the model unchecked.
    pub fn refused(&self) -> Vec<RefusedSkill> {
        let state = self.state();
        let mut refused: Vec<RefusedSkill> = state
            .servers
            .values()
            .flat_map(|server| server.refused.iter().cloned())
            .collect();
        refused.sort_by(|a, b| (&a.server, &a.uri).cmp(&(&b.server, &b.uri)));
        refused
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
        let (skills, refused) = names::admit(label, peer.discover_skills().await?);
        let sets = sets_of(&skills);
        let before = {
            let mut state = self.state();
            let before = state.display_names();
            if let Some(server) = state.servers.get_mut(label) {
                server.skills = skills;
                server.refused = refused;
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
            let names = state.display_names();
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
    /// [`transport::connect_with`](crate::client::transport::connect_with)) that
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

    pub(super) async fn announce(&self, unloaded: &[UnloadedSkill]) {
        if let Some(hook) = self.hooks().unload {
            for skill in unloaded {
                hook(skill.clone()).await;
            }
        }
    }
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
