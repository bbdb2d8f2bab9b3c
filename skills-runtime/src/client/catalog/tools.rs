//! The tools the model is offered (`load_skill`, `unload_skill`) and what a
//! call of them does.

use std::collections::BTreeSet;

use rmcp::RoleClient;
use rmcp::service::Peer;
use serde::Serialize;
use serde_json::{Value, json};

use super::budget::ContextBudget;
use super::names;
use super::{CatalogState, HostCatalog, Loaded};
use crate::client::approval;
use crate::client::discover;
use crate::client::fetch;
use crate::client::manifest::{self, SkillManifest};
use crate::client::{ClientError, options};

/// The name of the tool that loads a skill.
pub const LOAD_SKILL: &str = "load_skill";
/// The name of the tool that unloads one (listed only while a skill is loaded).
pub const UNLOAD_SKILL: &str = "unload_skill";

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

impl HostCatalog {
    /// The tools to offer now: `load_skill` while there are skills,
    /// `unload_skill` while one is loaded.
    pub fn tools(&self) -> Vec<ToolDefinition> {
        let budget = self.hooks().budget;
        let skills = self.offered();
        let mut tools = Vec::new();
        if !skills.is_empty() {
            let names: Vec<&str> = skills.iter().map(|skill| skill.name.as_str()).collect();
            tools.push(tool(
                LOAD_SKILL,
                "Load the full instructions of a skill by name, when the task needs it.",
                "Available skills",
                "The skill to load",
                &names,
                budget.as_ref(),
            ));
        }
        let loaded: Vec<&str> = skills
            .iter()
            .filter(|skill| skill.loaded)
            .map(|skill| skill.name.as_str())
            .collect();
        if !loaded.is_empty() {
            tools.push(tool(
                UNLOAD_SKILL,
                "Unload a skill you no longer need, to free its context and release the MCP servers connected for it.",
                "Loaded",
                "The skill to unload",
                &loaded,
                budget.as_ref(),
            ));
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
            // Errors quote what a server said (a URI, its own error
            // message): one line, bounded, like all the model sees.
            Err(error) => CallOutcome {
                text: names::model_text(&error.to_string(), names::MAX_ERROR_CHARS),
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
            let names = state.display_names();
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
        let timeout = options::DEFAULT_TIMEOUT;
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
        let dependencies =
            names::model_dependencies(discover::dependencies_of(frontmatter.get("dependencies")));
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

    /// Unloads the skill `name` and tells the unload callback which
    /// dependencies were released.
    pub async fn unload_skill(&self, name: &str) -> Result<UnloadedSkill, ClientError> {
        let unloaded = {
            let mut state = self.state();
            let names = state.display_names();
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

/// A tool whose `skillName` is one of `names`: listed in its description and
/// as the schema's `enum` when the definition fits the host's budget (or
/// there is none); otherwise neither, and any offered name is still taken,
/// so that a catalog of thousands of skills costs the model no more than
/// the budget allows.
fn tool(
    name: &str,
    purpose: &str,
    listing: &str,
    argument: &str,
    names: &[&str],
    budget: Option<&ContextBudget>,
) -> ToolDefinition {
    let listed = ToolDefinition {
        name: name.into(),
        description: format!("{purpose} {listing}: {}.", names.join(", ")),
        parameters: json!({
            "type": "object",
            "properties": {"skillName": {
                "type": "string",
                "enum": names,
                "description": format!("{argument}."),
            }},
            "required": ["skillName"],
            "additionalProperties": false
        }),
    };
    match budget {
        Some(budget) if !budget.fits(&listed.as_model_sees_it()) => ToolDefinition {
            name: name.into(),
            description: purpose.into(),
            parameters: json!({
                "type": "object",
                "properties": {"skillName": {
                    "type": "string",
                    "description": format!("{argument}: a skill name from the system prompt, or any other skill the catalog offers."),
                }},
                "required": ["skillName"],
                "additionalProperties": false
            }),
        },
        _ => listed,
    }
}

impl ToolDefinition {
    /// What a model is sent of the tool: its name, description and schema.
    fn as_model_sees_it(&self) -> String {
        format!("{}\n{}\n{}", self.name, self.description, self.parameters)
    }
}

/// Removes `key` from the loaded skills and counts which of its dependencies
/// no other loaded skill needs.
pub(super) fn unload_locked(
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
