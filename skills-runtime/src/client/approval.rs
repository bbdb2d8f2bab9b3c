//! Host approval of a skill's exact file set, as SEP-2640's security section
//! asks of hosts: an approval is bound to the `{uri, digest}` set the user
//! saw, a change of that set asks again, and content that changed after
//! approval is not loaded silently. [`HostCatalog::on_approval`] asks;
//! [`ApprovalRecord`] is what a host saves and gives back.
//!
//! [`HostCatalog::on_approval`]: super::HostCatalog::on_approval

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::manifest::SkillManifest;

/// One file of a skill, as the host approves it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ApprovalFile {
    /// Its path inside the skill (`references/guide.md`).
    pub path: String,
    /// The URI it is read at.
    pub uri: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256, `sha256:<64 lowercase hex>`.
    pub digest: String,
}

/// What the approval callback is asked before anything of a skill is read
/// for the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ApprovalRequest {
    /// The skill (its name for the model).
    pub skill: String,
    /// The label of its server.
    pub server: String,
    /// Its `SKILL.md` URI.
    pub uri: String,
    /// Its description, as listed.
    pub description: String,
    /// Every file of the skill, `SKILL.md` included, sorted by path: what an
    /// approval binds to.
    pub files: Vec<ApprovalFile>,
    /// The last decision about this skill, for another file set, and what
    /// changed since; `None` the first time the skill is asked about.
    pub previous: Option<PreviousDecision>,
}

impl ApprovalRequest {
    /// The sum of the file sizes (saturating: a request is built from a
    /// checked manifest, but sizes are a server's word).
    pub fn total_size(&self) -> u64 {
        self.files
            .iter()
            .fold(0u64, |total, file| total.saturating_add(file.size))
    }
}

/// The last decision about a skill whose file set has changed since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct PreviousDecision {
    /// Whether that set was approved.
    pub approved: bool,
    /// Files listed now that were not then.
    pub added: Vec<ApprovalFile>,
    /// Files listed then that are not now.
    pub removed: Vec<ApprovalFile>,
    /// Files listed both times whose size or digest differs.
    pub changed: Vec<ChangedFile>,
}

/// A file whose bytes changed since the last decision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ChangedFile {
    /// The file as it was approved (or declined).
    pub before: ApprovalFile,
    /// The file as it is listed now.
    pub after: ApprovalFile,
}

/// Where a skill stands with the host, for the file set listed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ApprovalState {
    /// Approved for exactly the files listed now, or trusted because the
    /// catalog has no approval callback.
    Approved,
    /// Not decided for the files listed now (never asked, or the set
    /// changed since the last decision): the first load asks.
    Pending,
    /// Declined for exactly the files listed now: not offered to the model
    /// until the set changes or the host gives back a record that approves it.
    Declined,
}

/// One decision of the host's, bound to a skill's exact file set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct RecordedDecision {
    /// The label of the server the skill came from, as the host named it
    /// in [`add_server`](super::HostCatalog::add_server).
    pub server: String,
    /// The skill's `SKILL.md` URI.
    pub uri: String,
    /// The skill's name, for people reading a saved record.
    pub skill: String,
    /// Whether the set was approved (`false`: declined).
    pub approved: bool,
    /// The file set decided on, sorted by path.
    pub files: Vec<ApprovalFile>,
}

impl RecordedDecision {
    /// A decision about `files` (in any order) of the skill at `uri` on
    /// `server`: for a host that approves up front, from its own list.
    pub fn new(
        server: impl Into<String>,
        uri: impl Into<String>,
        skill: impl Into<String>,
        approved: bool,
        mut files: Vec<ApprovalFile>,
    ) -> Self {
        files.sort();
        Self {
            server: server.into(),
            uri: uri.into(),
            skill: skill.into(),
            approved,
            files,
        }
    }
}

/// Every decision a catalog holds: what a host saves (it is `serde`) and
/// gives back with [`HostCatalog::with_approvals`] in its next session, so
/// the user is asked again only about skills whose files changed.
///
/// Decisions are keyed by the server's label and the skill's URI: a host
/// that saves a record should give its servers the same labels next time.
/// As JSON:
///
/// ```json
/// {"decisions": [{"server": "larder", "uri": "skill://stock-audit/SKILL.md",
///   "skill": "stock-audit", "approved": true,
///   "files": [{"path": "SKILL.md", "uri": "skill://stock-audit/SKILL.md",
///              "size": 1408, "digest": "sha256:…"}]}]}
/// ```
///
/// [`HostCatalog::with_approvals`]: super::HostCatalog::with_approvals
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRecord {
    /// One decision per skill, the latest, sorted by server and URI.
    #[serde(default)]
    pub decisions: Vec<RecordedDecision>,
}

impl ApprovalRecord {
    /// The decision about the skill at `uri` on `server`, if any.
    pub fn get(&self, server: &str, uri: &str) -> Option<&RecordedDecision> {
        self.decisions
            .iter()
            .find(|decision| decision.server == server && decision.uri == uri)
    }

    /// Adds `decision`, replacing an earlier one about the same skill.
    pub fn insert(&mut self, decision: RecordedDecision) {
        self.decisions
            .retain(|held| !(held.server == decision.server && held.uri == decision.uri));
        self.decisions.push(decision);
        self.decisions
            .sort_by(|a, b| (&a.server, &a.uri).cmp(&(&b.server, &b.uri)));
    }

    pub(crate) fn into_map(self) -> BTreeMap<(String, String), RecordedDecision> {
        self.decisions
            .into_iter()
            .map(|mut decision| {
                decision.files.sort();
                ((decision.server.clone(), decision.uri.clone()), decision)
            })
            .collect()
    }

    pub(crate) fn from_map(map: &BTreeMap<(String, String), RecordedDecision>) -> Self {
        Self {
            decisions: map.values().cloned().collect(),
        }
    }
}

/// The file set of a manifest, sorted by path.
pub(crate) fn files_of(manifest: &SkillManifest) -> Vec<ApprovalFile> {
    let mut files: Vec<ApprovalFile> = manifest
        .files
        .iter()
        .map(|file| ApprovalFile {
            path: file.path.clone(),
            uri: file.uri.clone(),
            size: file.size,
            digest: file.digest.to_string(),
        })
        .collect();
    files.sort();
    files
}

/// What changed from the set `before` to the set `after`.
pub(crate) fn previous(before: &RecordedDecision, after: &[ApprovalFile]) -> PreviousDecision {
    let old: BTreeMap<&str, &ApprovalFile> = before
        .files
        .iter()
        .map(|file| (file.uri.as_str(), file))
        .collect();
    let new: BTreeMap<&str, &ApprovalFile> =
        after.iter().map(|file| (file.uri.as_str(), file)).collect();
    let added = new
        .iter()
        .filter(|(uri, _)| !old.contains_key(*uri))
        .map(|(_, file)| (*file).clone())
        .collect();
    let removed = old
        .iter()
        .filter(|(uri, _)| !new.contains_key(*uri))
        .map(|(_, file)| (*file).clone())
        .collect();
    let changed = new
        .iter()
        .filter_map(|(uri, file)| {
            let was = old.get(uri)?;
            (was.size != file.size || was.digest != file.digest).then(|| ChangedFile {
                before: (*was).clone(),
                after: (*file).clone(),
            })
        })
        .collect();
    PreviousDecision {
        approved: before.approved,
        added,
        removed,
        changed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, digest: &str) -> ApprovalFile {
        ApprovalFile {
            path: path.into(),
            uri: format!("skill://s/{path}"),
            size: digest.len() as u64,
            digest: digest.into(),
        }
    }

    #[test]
    fn changes_name_added_removed_and_changed_files() {
        let before = RecordedDecision::new(
            "a",
            "skill://s/SKILL.md",
            "s",
            true,
            vec![
                file("SKILL.md", "x"),
                file("old.md", "y"),
                file("same.md", "z"),
            ],
        );
        let after = [
            file("SKILL.md", "x2"),
            file("new.md", "w"),
            file("same.md", "z"),
        ];
        let changes = previous(&before, &after);
        assert!(changes.approved);
        assert_eq!(changes.added, [file("new.md", "w")]);
        assert_eq!(changes.removed, [file("old.md", "y")]);
        assert_eq!(
            changes.changed,
            [ChangedFile {
                before: file("SKILL.md", "x"),
                after: file("SKILL.md", "x2")
            }]
        );
    }

    #[test]
    fn a_record_keeps_one_decision_per_skill() {
        let mut record = ApprovalRecord::default();
        record.insert(RecordedDecision::new("b", "u", "s", true, vec![]));
        record.insert(RecordedDecision::new("a", "u", "s", true, vec![]));
        record.insert(RecordedDecision::new("b", "u", "s", false, vec![]));
        assert_eq!(record.decisions.len(), 2);
        assert_eq!(record.decisions[0].server, "a");
        assert!(!record.get("b", "u").unwrap().approved);
    }
}
