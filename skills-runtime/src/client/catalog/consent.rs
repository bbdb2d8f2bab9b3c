//! The host's consent before a load: its approval callback, asked about a
//! skill's exact file set, and the decisions it made.

use super::HostCatalog;
use crate::client::ClientError;
use crate::client::approval::{self, ApprovalFile, ApprovalRequest, RecordedDecision};
use crate::client::discover::SkillSummary;

impl HostCatalog {
    /// Checks that the host approved exactly `files` for the skill `key`,
    /// asking the approval callback when that set was never decided on.
    pub(super) async fn approve(
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
}
