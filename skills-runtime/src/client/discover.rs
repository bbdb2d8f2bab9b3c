//! Discovery: which skills a server publishes, from SEP-2640 `skills/list`
//! when it declares the extension, from `resources/list` otherwise. Only
//! listing requests are sent (SEP-2640's lazy retrieval).

use std::collections::HashSet;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{JsonObject, PaginatedRequestParams};
use rmcp::service::Peer;
use serde::Serialize;
use skills_core::{SKILL_MD, uri};

use super::ClientError;
use super::ask::ask;

/// Most pages of one listing the client follows (fast-agent's limit).
const MAX_PAGES: usize = 1000;
/// Most entries of one listing the client accepts (fast-agent's limit).
const MAX_ENTRIES: usize = 10_000;
/// Most bytes of entries (as JSON) and cursors one listing may hold: the
/// listing is kept whole until its last page, and each page may be as large
/// as a message (`transport::MAX_MESSAGE_BYTES`, ~97 MiB), so counts alone
/// let a server fill the host's memory with a thousand large pages. A
/// listing of 10,000 skills with a description and a few files each is a
/// few MiB.
const MAX_LISTING_BYTES: usize = 64 << 20;
/// Longest cursor the client sends back, in bytes (each is kept, to see a
/// cursor repeated). Cursors are opaque, but a page offset or a signed
/// token is far shorter.
const MAX_CURSOR_BYTES: usize = 64 << 10;

/// Where a skill was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// A SEP-2640 `skills/list` entry: frontmatter and manifest advertised.
    Sep,
    /// A `skill://…/SKILL.md` resource in `resources/list` (FastMCP's legacy
    /// provider, SkillsDotNet): the manifest comes from `_manifest`, the
    /// frontmatter only from `SKILL.md` itself.
    Legacy,
}

/// One skill a server publishes, as its listing describes it.
#[derive(Debug, Clone, Serialize)]
#[non_exhaustive]
pub struct SkillSummary {
    /// The URI of its `SKILL.md`, as the server spells it.
    pub uri: String,
    /// Its skill path (`kitchen/recipe-scaling`), decoded; where it lands
    /// under a sync's folder.
    pub path: String,
    /// Its name: the frontmatter `name` (SEP), or the URI's last segment.
    pub name: String,
    /// Its description (on legacy servers, the resource's description).
    pub description: String,
    /// Every frontmatter field as advertised (SEP); `None` on legacy servers,
    /// whose frontmatter is known only once `SKILL.md` is read.
    pub frontmatter: Option<JsonObject>,
    /// Where it was found.
    pub source: Source,
    /// The SEP-2640 entry, when there is one.
    #[serde(skip)]
    pub entry: Option<rmcp::model::Skill>,
}

impl SkillSummary {
    /// A frontmatter field as advertised (SEP servers only).
    pub fn field(&self, key: &str) -> Option<&serde_json::Value> {
        self.frontmatter.as_ref()?.get(key)
    }

    /// The names in frontmatter `dependencies: [a, b]` (SkillsDotNet's
    /// convention: MCP servers the skill needs), when advertised.
    pub fn dependencies(&self) -> Vec<String> {
        dependencies_of(self.field("dependencies"))
    }
}

/// The strings of a `dependencies` value: a list of strings (or one string).
pub(crate) fn dependencies_of(value: Option<&serde_json::Value>) -> Vec<String> {
    match value {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|item| item.as_str())
            .map(str::to_owned)
            .collect(),
        Some(serde_json::Value::String(one)) => vec![one.clone()],
        _ => Vec::new(),
    }
}

/// The skill path of a `SKILL.md` URI, decoded, when the URI is one.
pub(crate) fn skill_path(skill_uri: &str) -> Option<String> {
    let canonical = uri::parse(skill_uri).ok()?;
    let path = uri::decoded_path(&canonical)?;
    path.strip_suffix(SKILL_MD)?
        .strip_suffix('/')
        .map(str::to_owned)
}

fn last_segment(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The skill path of a `SKILL.md` URI that does not parse (`..`, an empty
/// segment, an encoded separator), spelled as the server sent it: kept for
/// the report, which names the skill; `manifest::check_place` refuses it.
fn raw_skill_path(skill_uri: &str) -> Option<String> {
    let rest = skill_uri
        .get(..uri::SCHEME.len())
        .filter(|scheme| scheme.eq_ignore_ascii_case(uri::SCHEME))
        .map(|_| &skill_uri[uri::SCHEME.len()..])?;
    rest.strip_suffix(SKILL_MD)
        .map(|root| root.trim_end_matches('/').to_owned())
}

pub(crate) fn summary_of_entry(entry: rmcp::model::Skill) -> SkillSummary {
    let path = skill_path(&entry.uri)
        .or_else(|| raw_skill_path(&entry.uri))
        .unwrap_or_else(|| entry.uri.clone());
    let mut frontmatter = entry.frontmatter.extra.clone();
    frontmatter.insert("name".into(), entry.frontmatter.name.clone().into());
    frontmatter.insert(
        "description".into(),
        entry.frontmatter.description.clone().into(),
    );
    SkillSummary {
        uri: entry.uri.clone(),
        path,
        name: entry.frontmatter.name.clone(),
        description: entry.frontmatter.description.clone(),
        frontmatter: Some(frontmatter),
        source: Source::Sep,
        entry: Some(entry),
    }
}

/// Whether the server declared SEP-2640.
pub(crate) fn speaks_sep(peer: &Peer<RoleClient>) -> bool {
    peer.peer_info()
        .is_some_and(|info| info.capabilities.supports_skills())
}

pub(crate) async fn discover(
    peer: &Peer<RoleClient>,
    timeout: Duration,
) -> Result<Vec<SkillSummary>, ClientError> {
    if speaks_sep(peer) {
        let entries = pages(timeout, "skills/list", |cursor| async move {
            let page = peer
                .list_skills(Some(PaginatedRequestParams::default().with_cursor(cursor)))
                .await?;
            Ok((page.skills, page.next_cursor))
        })
        .await?;
        let mut seen = HashSet::new();
        for entry in &entries {
            let key = uri::parse(&entry.uri)
                .map(|canonical| canonical.into_owned())
                .unwrap_or_else(|_| entry.uri.clone());
            if !seen.insert(key) {
                return Err(ClientError::Listing(format!(
                    "{} is listed twice",
                    entry.uri
                )));
            }
        }
        Ok(entries.into_iter().map(summary_of_entry).collect())
    } else {
        let resources = pages(timeout, "resources/list", |cursor| async move {
            let page = peer
                .list_resources(Some(PaginatedRequestParams::default().with_cursor(cursor)))
                .await?;
            Ok((page.resources, page.next_cursor))
        })
        .await?;
        let mut seen = HashSet::new();
        let mut summaries = Vec::new();
        for resource in resources {
            // A `skill://…/SKILL.md` that does not parse is kept, to be
            // refused by name; any other resource is not a skill.
            let Some(path) = skill_path(&resource.uri).or_else(|| raw_skill_path(&resource.uri))
            else {
                continue;
            };
            if !seen.insert(path.clone()) {
                continue;
            }
            summaries.push(SkillSummary {
                name: last_segment(&path).to_owned(),
                description: resource.description.clone().unwrap_or_default(),
                uri: resource.uri.clone(),
                path,
                frontmatter: None,
                source: Source::Legacy,
                entry: None,
            });
        }
        summaries.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(summaries)
    }
}

/// Follows a paginated listing with the guards fast-agent applies: a
/// repeated cursor, more than [`MAX_PAGES`] pages or more than
/// [`MAX_ENTRIES`] entries refuse the listing (rmcp's `list_all_*` would
/// follow a looping cursor forever); and with a bound on what it holds: a
/// cursor over [`MAX_CURSOR_BYTES`], or entries and cursors over
/// [`MAX_LISTING_BYTES`] in all, refuse it too.
async fn pages<T, F, Fut>(
    timeout: Duration,
    method: &'static str,
    mut page: F,
) -> Result<Vec<T>, ClientError>
where
    T: Serialize,
    F: FnMut(Option<String>) -> Fut,
    Fut: Future<Output = Result<(Vec<T>, Option<String>), rmcp::ServiceError>>,
{
    let mut items = Vec::new();
    let mut cursors = HashSet::new();
    let mut cursor = None;
    let mut held = 0usize;
    for _ in 0..MAX_PAGES {
        let (mut more, next) = ask(method, None, timeout, page(cursor)).await?;
        held = more
            .iter()
            .map(|item| serde_json::to_vec(item).map_or(0, |json| json.len()))
            .fold(held, usize::saturating_add)
            .saturating_add(next.as_ref().map_or(0, String::len));
        if held > MAX_LISTING_BYTES {
            return Err(ClientError::Listing(format!(
                "{method} gave more than {} MiB of entries",
                MAX_LISTING_BYTES >> 20
            )));
        }
        items.append(&mut more);
        if items.len() > MAX_ENTRIES {
            return Err(ClientError::Listing(format!(
                "{method} gave more than {MAX_ENTRIES} entries"
            )));
        }
        match next {
            None => return Ok(items),
            Some(next) if next.len() > MAX_CURSOR_BYTES => {
                return Err(ClientError::Listing(format!(
                    "{method} gave a cursor of {} bytes; at most {MAX_CURSOR_BYTES} are followed",
                    next.len()
                )));
            }
            Some(next) if !cursors.insert(next.clone()) => {
                return Err(ClientError::Listing(format!(
                    "{method} repeated the cursor `{}`",
                    crate::folder::shown(&next)
                )));
            }
            Some(next) => cursor = Some(next),
        }
    }
    Err(ClientError::Listing(format!(
        "{method} has more than {MAX_PAGES} pages"
    )))
}

/// The skill `name_or_uri` names: a `SKILL.md` URI (taken as given on SEP
/// servers, which confirm it with `skills/get`), or a name or skill path
/// looked up in the listing.
pub(crate) async fn resolve(
    peer: &Peer<RoleClient>,
    name_or_uri: &str,
    timeout: Duration,
) -> Result<SkillSummary, ClientError> {
    let is_uri = name_or_uri.contains("://");
    if is_uri && speaks_sep(peer) {
        let entry = ask(
            "skills/get",
            Some(name_or_uri),
            timeout,
            peer.get_skill(rmcp::model::GetSkillRequestParams::new(name_or_uri)),
        )
        .await?;
        return Ok(summary_of_entry(entry.skill));
    }
    let wanted = if is_uri {
        skill_path(name_or_uri).ok_or_else(|| ClientError::Entry {
            uri: name_or_uri.to_owned(),
            reason: "not the URI of a SKILL.md".to_owned(),
        })?
    } else {
        name_or_uri.to_owned()
    };
    let listed = discover(peer, timeout).await?;
    let by_path: Vec<&SkillSummary> = listed.iter().filter(|s| s.path == wanted).collect();
    let found: Vec<&SkillSummary> = if by_path.is_empty() && !is_uri {
        listed.iter().filter(|s| s.name == wanted).collect()
    } else {
        by_path
    };
    match found.as_slice() {
        [] => Err(ClientError::UnknownSkill(name_or_uri.to_owned())),
        [one] => Ok((*one).clone()),
        many => Err(ClientError::Ambiguous {
            name: name_or_uri.to_owned(),
            uris: many.iter().map(|s| s.uri.clone()).collect(),
        }),
    }
}
