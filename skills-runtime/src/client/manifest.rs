//! A skill's manifest (files, version, executable bits), from its SEP-2640
//! entry or from FastMCP's `_manifest`, with every structural and path rule
//! checked before a byte is read.

use std::collections::HashSet;
use std::time::Duration;

use rmcp::RoleClient;
use rmcp::model::{
    GetSkillRequestParams, JsonObject, MetaObject, ResourceContents, SkillResources,
};
use rmcp::service::Peer;
use serde::Serialize;
use skills_core::{Digest, MAX_SKILL_BYTES, MAX_SKILL_FILES, SKILL_MD, digest, names, uri};

use super::ClientError;
use super::ask::{ask, read_resource};
use super::blob::decode_blob;
use super::discover::{SkillSummary, Source, skill_path};
use crate::protocol::{
    EXECUTABLE_META_KEY, LEGACY_EXECUTABLE_META_KEY, MANIFEST_SEGMENT, ManifestListing,
};

/// One file of a skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ManifestFile {
    /// Its path inside the skill (`references/my notes.md`), decoded.
    pub path: String,
    /// The URI to read it at, as the server spells it.
    pub uri: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its SHA-256.
    #[serde(serialize_with = "digest_as_string")]
    pub digest: Digest,
}

fn digest_as_string<S: serde::Serializer>(
    digest: &Digest,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(digest)
}

/// What a skill is made of, as its server describes it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct SkillManifest {
    /// The `SKILL.md` URI.
    pub uri: String,
    /// The skill path.
    pub path: String,
    /// The skill's name.
    pub name: String,
    /// The revision: `sha256:` over the sorted `{uri, digest, size}` list
    /// (what fast-agent computes; `skills_core::digest::revision`).
    pub version: String,
    /// Every file, `SKILL.md` included, sorted by path.
    pub files: Vec<ManifestFile>,
    /// The paths of files that are executable, when the server says
    /// (`_meta["io.crates.skills-runtime/executable"]`, or the older
    /// `skills-runtime/executable`); empty otherwise.
    pub executable: Vec<String>,
    /// Where the manifest came from.
    pub source: Source,
    /// The frontmatter the server advertised (SEP only).
    #[serde(skip)]
    pub frontmatter: Option<JsonObject>,
}

impl SkillManifest {
    /// The `SKILL.md` file.
    pub fn skill_md(&self) -> Option<&ManifestFile> {
        self.files.iter().find(|file| file.path == SKILL_MD)
    }

    /// The refusal when no file of the manifest is `SKILL.md`, naming the
    /// listing it came from: a `skills/list` or `skills/get` entry's
    /// `resources`, or a legacy server's `_manifest`.
    pub(crate) fn no_skill_md(&self) -> ClientError {
        let reason = match self.source {
            Source::Sep => {
                "the skill's `resources` (in its `skills/list` or `skills/get` entry) hold no SKILL.md"
            }
            Source::Legacy => "the skill's `_manifest` lists no SKILL.md",
        };
        ClientError::Entry {
            uri: self.uri.clone(),
            reason: reason.into(),
        }
    }

    /// Whether the file at `path` is executable.
    pub fn is_executable(&self, path: &str) -> bool {
        self.executable.iter().any(|executable| executable == path)
    }

    /// The sum of the file sizes (at most SEP-2640's 16 MiB: a manifest over
    /// it is refused when it is read).
    pub fn total_size(&self) -> u64 {
        self.files
            .iter()
            .fold(0u64, |total, file| total.saturating_add(file.size))
    }
}

/// Asks the server for the skill's manifest: `skills/get` on SEP servers,
/// `_manifest` otherwise.
pub(crate) async fn ask_manifest(
    peer: &Peer<RoleClient>,
    summary: &SkillSummary,
    timeout: Duration,
) -> Result<SkillManifest, ClientError> {
    match summary.source {
        Source::Sep => {
            let answer = ask(
                "skills/get",
                Some(&summary.uri),
                timeout,
                peer.get_skill(GetSkillRequestParams::new(summary.uri.clone())),
            )
            .await?;
            if answer.skill.uri != summary.uri {
                return Err(ClientError::Entry {
                    uri: summary.uri.clone(),
                    reason: format!("skills/get answered for {}", answer.skill.uri),
                });
            }
            from_entry(&answer.skill)
        }
        Source::Legacy => from_fastmcp(peer, summary, timeout).await,
    }
}

/// The manifest of a SEP-2640 entry, every rule checked.
pub(crate) fn from_entry(entry: &rmcp::model::Skill) -> Result<SkillManifest, ClientError> {
    let refuse = |reason: String| ClientError::Entry {
        uri: entry.uri.clone(),
        reason,
    };
    // Where the skill lives first, in our words; then rmcp's rules.
    let (path, root) = skill_root(&entry.uri).map_err(refuse)?;
    check_name(&entry.frontmatter.name, &path).map_err(refuse)?;
    entry
        .validate()
        .map_err(|error| refuse(error.to_string()))?;
    let SkillResources::Files(resources) = &entry.resources else {
        return Err(refuse(
            "its resources are \"dynamic\": generated content has no digests to verify".into(),
        ));
    };
    let mut files = Vec::with_capacity(resources.len());
    for resource in resources {
        let file_path = file_path_under(&root, &path, &resource.uri).map_err(&refuse)?;
        let digest = resource.digest.parse::<Digest>().map_err(|error| {
            refuse(format!(
                "{}: {error} (got `{}`)",
                resource.uri, resource.digest
            ))
        })?;
        files.push(ManifestFile {
            path: file_path,
            uri: resource.uri.clone(),
            size: resource.size,
            digest,
        });
    }
    let mut frontmatter = entry.frontmatter.extra.clone();
    frontmatter.insert("name".into(), entry.frontmatter.name.clone().into());
    frontmatter.insert(
        "description".into(),
        entry.frontmatter.description.clone().into(),
    );
    finish(
        entry.uri.clone(),
        path,
        entry.frontmatter.name.clone(),
        files,
        executable_paths(entry.meta.as_ref()).map_err(refuse)?,
        Source::Sep,
        Some(frontmatter),
    )
}

async fn from_fastmcp(
    peer: &Peer<RoleClient>,
    summary: &SkillSummary,
    timeout: Duration,
) -> Result<SkillManifest, ClientError> {
    let refuse = |reason: String| ClientError::Entry {
        uri: summary.uri.clone(),
        reason,
    };
    let (path, root) = skill_root(&summary.uri).map_err(refuse)?;
    let manifest_uri = format!("{root}/{MANIFEST_SEGMENT}");
    let read = read_resource(peer, &manifest_uri, timeout).await?;
    let [content] = read.contents.as_slice() else {
        return Err(refuse(format!(
            "{manifest_uri} answered {} content items, not one",
            read.contents.len()
        )));
    };
    let (text, meta) = match content {
        // `&**text`: a `&str` whether rmcp's field is a `String` (3.11) or a
        // `Cow<'static, str>` (bench/runtime/rmcp-patch/).
        ResourceContents::TextResourceContents { text, meta, .. } => {
            (std::borrow::Cow::Borrowed(&**text), meta)
        }
        ResourceContents::BlobResourceContents { blob, meta, .. } => {
            let bytes = decode_blob(blob)
                .map_err(|error| refuse(format!("{manifest_uri} is not valid base64: {error}")))?;
            (
                std::borrow::Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
                meta,
            )
        }
        _ => return Err(refuse(format!("{manifest_uri} is neither text nor a blob"))),
    };
    let listed: ManifestListing = serde_json::from_str(&text)
        .map_err(|error| refuse(format!("{manifest_uri} is not a FastMCP manifest: {error}")))?;
    let mut files = Vec::with_capacity(listed.files.len());
    for file in listed.files {
        names::check_path(&file.path)
            .map_err(|problem| refuse(format!("`{}`: {problem}", file.path)))?;
        let digest = file
            .hash
            .parse::<Digest>()
            .map_err(|error| refuse(format!("`{}`: {error} (got `{}`)", file.path, file.hash)))?;
        files.push(ManifestFile {
            uri: uri::for_file(&path, &file.path),
            path: file.path,
            size: file.size,
            digest,
        });
    }
    if !files.iter().any(|file| file.path == SKILL_MD) {
        return Err(refuse(format!("{manifest_uri} does not list SKILL.md")));
    }
    let executable = executable_paths(meta.as_ref()).map_err(refuse)?;
    let name = path.rsplit('/').next().unwrap_or(&path).to_owned();
    finish(
        summary.uri.clone(),
        path,
        name,
        files,
        executable,
        Source::Legacy,
        None,
    )
}

/// Refuses a skill whose own URI names no safe place: a `.` or `..`
/// segment, an empty segment, a percent-encoded separator, or a path that
/// is not portable, with the same rules as a file's URI. Checked on every
/// skill of a listing before it is planned, nested or fetched; such a skill
/// has no folder to look at. (A name that is not the path's last segment is
/// refused by [`from_entry`]: that skill has a folder, which is kept.)
pub(crate) fn check_place(summary: &SkillSummary) -> Result<(), ClientError> {
    let refuse = |reason: String| ClientError::Entry {
        uri: summary.uri.clone(),
        reason: format!("the skill's own URI names no safe place: {reason}"),
    };
    let (path, _) = skill_root(&summary.uri).map_err(refuse)?;
    if path != summary.path {
        return Err(refuse(format!(
            "it decodes to `{path}`, not `{}`",
            summary.path
        )));
    }
    Ok(())
}

/// A skill's name must be the last segment of its path (SEP-2640).
fn check_name(name: &str, path: &str) -> Result<(), String> {
    let last = path.rsplit('/').next().unwrap_or(path);
    if name == last {
        Ok(())
    } else {
        Err(format!(
            "its name `{name}` is not the last segment of its path `{path}`"
        ))
    }
}

/// The skill path and canonical root URI of a `SKILL.md` URI.
fn skill_root(skill_uri: &str) -> Result<(String, String), String> {
    let canonical = uri::parse(skill_uri).map_err(|why| why.to_string())?;
    let path = skill_path(&canonical).ok_or("not the URI of a SKILL.md")?;
    names::check_path(&path).map_err(|problem| format!("its skill path: {problem}"))?;
    let root = canonical
        .strip_suffix(SKILL_MD)
        .and_then(|root| root.strip_suffix('/'))
        .ok_or("not the URI of a SKILL.md")?
        .to_owned();
    Ok((path, root))
}

/// The path inside the skill of a file URI, which must lie under `root`.
fn file_path_under(root: &str, skill_path: &str, file_uri: &str) -> Result<String, String> {
    let canonical =
        uri::parse(file_uri).map_err(|why| format!("the file URI {file_uri} is refused: {why}"))?;
    let inside = canonical
        .strip_prefix(root)
        .is_some_and(|rest| rest.starts_with('/'));
    if !inside {
        return Err(format!("{file_uri} is not a file of this skill"));
    }
    let decoded = uri::decoded_path(&canonical)
        .ok_or_else(|| format!("the file URI {file_uri} does not decode"))?;
    let relative = &decoded[skill_path.len() + 1..];
    names::check_path(relative).map_err(|problem| format!("{file_uri}: {problem}"))?;
    Ok(relative.to_owned())
}

/// The executable paths a server lists in `_meta` (ours does): under
/// [`EXECUTABLE_META_KEY`], or under the name servers before it used.
fn executable_paths(meta: Option<&MetaObject>) -> Result<Vec<String>, String> {
    let Some((key, value)) = meta.and_then(|meta| {
        [EXECUTABLE_META_KEY, LEGACY_EXECUTABLE_META_KEY]
            .into_iter()
            .find_map(|key| meta.get(key).map(|value| (key, value)))
    }) else {
        return Ok(Vec::new());
    };
    let Some(items) = value.as_array() else {
        return Err(format!("`_meta[\"{key}\"]` is not a list"));
    };
    items
        .iter()
        .map(|item| {
            item.as_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("`_meta[\"{key}\"]` holds a non-string"))
        })
        .collect()
}

/// The checks every manifest passes, whatever its source, and the revision.
fn finish(
    uri: String,
    path: String,
    name: String,
    mut files: Vec<ManifestFile>,
    executable: Vec<String>,
    source: Source,
    frontmatter: Option<JsonObject>,
) -> Result<SkillManifest, ClientError> {
    let refuse = |reason: String| ClientError::Entry {
        uri: uri.clone(),
        reason,
    };
    files.sort_by(|a, b| a.path.cmp(&b.path));
    if files.len() > MAX_SKILL_FILES {
        return Err(refuse(format!(
            "{} files; SEP-2640 allows {MAX_SKILL_FILES}",
            files.len()
        )));
    }
    // Checked: the sizes are the server's word, and a sum past `u64` must
    // be a refusal, not a panic (debug) or a wrap (release).
    let too_large = |reason: String| ClientError::TooLarge {
        uri: uri.clone(),
        reason,
    };
    let total = files
        .iter()
        .try_fold(0u64, |total, file| total.checked_add(file.size))
        .ok_or_else(|| too_large("its file sizes sum past 2^64 bytes".into()))?;
    if total > MAX_SKILL_BYTES {
        return Err(too_large(format!(
            "{total} bytes; SEP-2640 allows {MAX_SKILL_BYTES}"
        )));
    }
    if let Some(pair) = files.windows(2).find(|pair| pair[0].path == pair[1].path) {
        return Err(refuse(format!("`{}` is listed twice", pair[0].path)));
    }
    if let Some(collision) =
        names::case_collisions(files.iter().map(|file| file.path.as_str())).first()
    {
        return Err(refuse(collision.to_string()));
    }
    let paths: HashSet<&str> = files.iter().map(|file| file.path.as_str()).collect();
    if let Some(unknown) = executable
        .iter()
        .find(|path| !paths.contains(path.as_str()))
    {
        return Err(refuse(format!(
            "`{unknown}` is marked executable but is not a file of the skill"
        )));
    }
    let digests: Vec<String> = files.iter().map(|file| file.digest.to_string()).collect();
    let version = digest::revision(
        files
            .iter()
            .zip(&digests)
            .map(|(file, digest)| (file.uri.as_str(), digest.as_str(), file.size)),
    );
    Ok(SkillManifest {
        uri,
        path,
        name,
        version,
        files,
        executable,
        source,
        frontmatter,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn without_skill_md(source: Source) -> SkillManifest {
        SkillManifest {
            uri: "skill://notes/SKILL.md".into(),
            path: "notes".into(),
            name: "notes".into(),
            version: String::new(),
            files: Vec::new(),
            executable: Vec::new(),
            source,
            frontmatter: None,
        }
    }

    #[test]
    fn the_refusal_names_the_listing_that_lacks_skill_md() {
        let sep = without_skill_md(Source::Sep).no_skill_md().to_string();
        assert!(sep.contains("`skills/list` or `skills/get`"), "{sep}");
        assert!(!sep.contains("_manifest"), "{sep}");
        let legacy = without_skill_md(Source::Legacy).no_skill_md().to_string();
        assert!(legacy.contains("`_manifest` lists no SKILL.md"), "{legacy}");
        assert!(!legacy.contains("skills/list"), "{legacy}");
    }
}
