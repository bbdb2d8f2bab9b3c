//! What a client of a live server sees, shared by the in-process live tests
//! (`skills-runtime/tests/live.rs`) and the ones against the `skills serve` process
//! (`skills-cli/tests/serve.rs`): skills
//! folders to edit, a client handler that forwards change notices, the
//! waits for them, and what a listing says.
//!
//! Nothing here sleeps to let time pass: every wait is for an event under a
//! generous deadline.
#![allow(dead_code)] // Each test binary uses a different part.

use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rmcp::model::{ResourceUpdatedNotificationParam, ServerNotification, SubscriptionFilter};
use rmcp::service::{NotificationContext, Subscription};
use rmcp::{ClientHandler, RoleClient};
use tokio::sync::mpsc;

/// Long enough for a loaded CI machine; only reached when something is wrong.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// A `SKILL.md` with this name and description.
pub fn skill_md(name: &str, description: &str) -> String {
    format!("---\nname: {name}\ndescription: {description}\n---\n# {name}\n")
}

/// A fresh skills folder with `skills` (name → SKILL.md text).
pub fn folder(test: &str, skills: &[(&str, &str)]) -> PathBuf {
    let root = crate::temp_path("runtime-live", test);
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    for (name, text) in skills {
        write(&root, &format!("{name}/SKILL.md"), text);
    }
    root
}

/// Writes `text` to `path` under `root`, creating folders on the way.
pub fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A client that forwards the change notices it is sent.
#[derive(Clone)]
pub struct Notices(pub mpsc::UnboundedSender<Notice>);

/// A change notice a client was sent.
#[derive(Debug, PartialEq, Eq)]
pub enum Notice {
    /// `notifications/resources/list_changed`.
    ListChanged,
    /// `notifications/resources/updated`, for this URI.
    Updated(String),
}

impl ClientHandler for Notices {
    async fn on_resource_updated(
        &self,
        params: ResourceUpdatedNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.0.send(Notice::Updated(params.uri));
    }

    async fn on_resource_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(Notice::ListChanged);
    }
}

/// A running client whose notices arrive on a channel.
pub type NoticeClient = rmcp::service::RunningService<RoleClient, Notices>;

/// Waits for the next notice a session was sent.
pub async fn next_notice(notices: &mut impl Receive) -> Notice {
    tokio::time::timeout(DEADLINE, notices.receive())
        .await
        .expect("a notice within the deadline")
        .expect("the client is running")
}

/// Where a test reads a session's notices from.
pub trait Receive {
    /// The next notice; `None` once the session ended.
    fn receive(&mut self) -> impl Future<Output = Option<Notice>>;
}

impl Receive for mpsc::UnboundedReceiver<Notice> {
    fn receive(&mut self) -> impl Future<Output = Option<Notice>> {
        self.recv()
    }
}

/// The next notification on a 2026-07-28 listen stream.
pub async fn next_on(stream: &mut Subscription) -> Notice {
    let notification = tokio::time::timeout(DEADLINE, stream.next())
        .await
        .expect("a notice within the deadline")
        .expect("a well-formed stream")
        .expect("the stream is open");
    match notification {
        ServerNotification::ResourceListChangedNotification(_) => Notice::ListChanged,
        ServerNotification::ResourceUpdatedNotification(updated) => {
            Notice::Updated(updated.params.uri)
        }
        other => panic!("unexpected notification {other:?}"),
    }
}

/// A listen filter: list changes, and updates of `uris`.
pub fn list_changed_and(uris: &[&str]) -> SubscriptionFilter {
    let builder = SubscriptionFilter::builder().resources_list_changed();
    if uris.is_empty() {
        builder.build()
    } else {
        builder.resource_subscriptions(uris.iter().copied()).build()
    }
}

/// The digest the entry of `name` lists for its SKILL.md.
pub async fn entry_digest(client: &rmcp::Peer<RoleClient>, name: &str) -> String {
    let entries = client.list_all_skills().await.unwrap();
    let entry = entries
        .iter()
        .find(|entry| entry.name() == name)
        .unwrap_or_else(|| panic!("{name} is listed"));
    let rmcp::model::SkillResources::Files(files) = &entry.resources else {
        panic!("loaded skills are never dynamic");
    };
    files
        .iter()
        .find(|file| file.uri.ends_with("/SKILL.md"))
        .unwrap()
        .digest
        .clone()
}

/// The names of the skills listed, sorted.
pub async fn names(client: &rmcp::Peer<RoleClient>) -> Vec<String> {
    let mut names: Vec<String> = client
        .list_all_skills()
        .await
        .unwrap()
        .iter()
        .map(|entry| entry.name().to_owned())
        .collect();
    names.sort();
    names
}
