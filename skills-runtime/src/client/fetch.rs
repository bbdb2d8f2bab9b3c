//! Fetching one skill into memory, verified: its `SKILL.md` read first and
//! checked (size, digest, frontmatter compared with what was advertised)
//! before any other file is asked for, then every other file read and
//! checked against the manifest, then the manifest asked again. Nothing
//! touches the disk.

use std::time::Duration;

use futures::{StreamExt as _, TryStreamExt as _};
use rmcp::RoleClient;
use rmcp::model::{JsonObject, ResourceContents, SkillResource};
use rmcp::service::Peer;
use serde_json::Value;
use skills_core::{Digest, Options, SKILL_MD, SkillMdContext, inspect_skill_md};

use super::ask::read_resource;
use super::blob::decode_blob;
use super::discover::{SkillSummary, Source};
use super::manifest::{self, ManifestFile, SkillManifest};
use super::options::Progress;
use super::{ClientError, DownloadOptions};

/// One verified file.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FetchedFile {
    /// Its path inside the skill.
    pub path: String,
    /// Its bytes, exactly as digested.
    pub bytes: Vec<u8>,
    /// Their SHA-256 (verified).
    pub digest: Digest,
    /// Whether the server marks it executable.
    pub executable: bool,
}

/// A skill read into memory, every check passed.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FetchedSkill {
    /// The manifest the files were verified against.
    pub manifest: SkillManifest,
    /// Every file, in the manifest's order.
    pub files: Vec<FetchedFile>,
    /// The frontmatter read from the downloaded `SKILL.md`.
    pub frontmatter: JsonObject,
    /// Rules of the Agent Skills specification the `SKILL.md` breaks
    /// (skills-core's report, one `file:line:col: rule: message` per line);
    /// `None` when it breaks none. Under
    /// [`DownloadOptions::strict`] such a skill is refused instead.
    pub findings: Option<String>,
}

impl FetchedSkill {
    /// The file at `path`.
    pub fn file(&self, path: &str) -> Option<&FetchedFile> {
        self.files.iter().find(|file| file.path == path)
    }

    /// The `SKILL.md` text.
    pub fn skill_md(&self) -> &str {
        self.file(SKILL_MD)
            .and_then(|file| std::str::from_utf8(&file.bytes).ok())
            .unwrap_or_default()
    }
}

/// Reads `file` and checks that the answer is one content item for exactly
/// its URI, whose bytes have the manifest's size and digest (rmcp's
/// `SkillResource::verify`).
pub(crate) async fn read_verified(
    peer: &Peer<RoleClient>,
    file: &ManifestFile,
    timeout: Duration,
) -> Result<Vec<u8>, ClientError> {
    let refuse = |reason: String| ClientError::Integrity {
        uri: file.uri.clone(),
        reason,
    };
    let answer = read_resource(peer, &file.uri, timeout).await?;
    let [content] = answer.contents.as_slice() else {
        return Err(refuse(format!(
            "the answer holds {} content items, not one",
            answer.contents.len()
        )));
    };
    let (content_uri, bytes) = match content {
        ResourceContents::TextResourceContents { uri, text, .. } => (uri, text.as_bytes().to_vec()),
        ResourceContents::BlobResourceContents { uri, blob, .. } => (
            uri,
            decode_blob(blob)
                .map_err(|error| refuse(format!("the blob is not base64: {error}")))?,
        ),
        _ => return Err(refuse("the answer is neither text nor a blob".into())),
    };
    if content_uri != &file.uri {
        return Err(refuse(format!(
            "the answer is for {content_uri}, not for the URI asked"
        )));
    }
    SkillResource::new(file.uri.clone(), file.digest.to_string(), file.size)
        .verify(&bytes)
        .map_err(|error| refuse(error.to_string()))?;
    Ok(bytes)
}

/// The manifest to verify against: `skills/get` (or `_manifest`), which
/// must agree with the listing's entry when there is one.
pub(crate) async fn current_manifest(
    peer: &Peer<RoleClient>,
    summary: &SkillSummary,
    timeout: Duration,
) -> Result<SkillManifest, ClientError> {
    let asked = manifest::ask_manifest(peer, summary, timeout).await?;
    if let Some(entry) = &summary.entry {
        let listed = manifest::from_entry(entry)?;
        if listed.version != asked.version {
            return Err(ClientError::Changed {
                uri: summary.uri.clone(),
                before: listed.version,
                after: asked.version,
            });
        }
        if listed.frontmatter != asked.frontmatter {
            return Err(ClientError::Frontmatter {
                uri: summary.uri.clone(),
                reason: "skills/get advertises another frontmatter than skills/list".into(),
            });
        }
    }
    Ok(asked)
}

pub(crate) async fn fetch(
    peer: &Peer<RoleClient>,
    summary: &SkillSummary,
    options: &DownloadOptions,
) -> Result<FetchedSkill, ClientError> {
    let manifest = current_manifest(peer, summary, options.timeout).await?;
    fetch_manifest(peer, summary, manifest, options).await
}

pub(crate) async fn fetch_manifest(
    peer: &Peer<RoleClient>,
    summary: &SkillSummary,
    manifest: SkillManifest,
    options: &DownloadOptions,
) -> Result<FetchedSkill, ClientError> {
    let skill_path = manifest.path.as_str();
    // SKILL.md first, alone, verified (size, digest, then its frontmatter
    // against the advertised one) before any other file of the skill is
    // asked for: a skill whose SKILL.md fails is dropped without another
    // request (SEP-2640: a host must not use, or go on reading, content
    // that failed verification). Other skills go on in parallel.
    let skill_md = manifest
        .skill_md()
        .ok_or_else(|| manifest.no_skill_md())?
        .clone();
    let skill_md_bytes = read_verified(peer, &skill_md, options.timeout).await?;
    let (frontmatter, findings) = check_skill_md(&manifest, &skill_md_bytes)?;
    if options.strict
        && let Some(report) = &findings
    {
        return Err(ClientError::Rules {
            uri: manifest.uri.clone(),
            report: report.clone(),
        });
    }
    options.report(Progress::Verified {
        skill: skill_path,
        file: SKILL_MD,
        bytes: skill_md.size,
    });
    // Then the other files, several at once. Owned items: a stream of
    // borrowed ones trips the compiler's Send check of the async trait
    // methods (higher-ranked lifetimes).
    let others: Vec<ManifestFile> = manifest
        .files
        .iter()
        .filter(|file| file.path != SKILL_MD)
        .cloned()
        .collect();
    let mut bytes: Vec<Vec<u8>> = futures::stream::iter(others)
        .map(|file| async move {
            let bytes = read_verified(peer, &file, options.timeout).await?;
            options.report(Progress::Verified {
                skill: skill_path,
                file: &file.path,
                bytes: file.size,
            });
            Ok::<_, ClientError>(bytes)
        })
        .buffered(options.concurrency)
        .try_collect()
        .await?;
    // Asked again: a skill that changed while it was read is refused, even
    // if each file matched the manifest it was read against.
    let again = manifest::ask_manifest(peer, summary, options.timeout).await?;
    if again.version != manifest.version {
        return Err(ClientError::Changed {
            uri: manifest.uri.clone(),
            before: manifest.version.clone(),
            after: again.version,
        });
    }
    // In the manifest's order, SKILL.md where it stands.
    let at = manifest
        .files
        .iter()
        .position(|file| file.path == SKILL_MD)
        .unwrap_or(0);
    bytes.insert(at, skill_md_bytes);
    let files: Vec<FetchedFile> = manifest
        .files
        .iter()
        .zip(bytes)
        .map(|(file, bytes)| FetchedFile {
            path: file.path.clone(),
            bytes,
            digest: file.digest,
            executable: manifest.is_executable(&file.path),
        })
        .collect();
    Ok(FetchedSkill {
        manifest,
        files,
        frontmatter,
        findings,
    })
}

/// Parses a downloaded `SKILL.md` with skills-core's reader and compares its
/// frontmatter with the advertised one, field by field. Returns the
/// frontmatter and the rule findings (which do not refuse by themselves).
pub(crate) fn check_skill_md(
    manifest: &SkillManifest,
    bytes: &[u8],
) -> Result<(JsonObject, Option<String>), ClientError> {
    let file = format!("{}/{SKILL_MD}", manifest.path);
    let folder = manifest.path.rsplit('/').next().unwrap_or(&manifest.path);
    let paths: Vec<&str> = manifest
        .files
        .iter()
        .map(|file| file.path.as_str())
        .collect();
    let context = SkillMdContext::new(&file).folder_name(folder).files(&paths);
    let inspected = inspect_skill_md(bytes, &context, &Options::default());
    let findings = inspected.problems.map(|report| report.to_string());
    let Some(found) = inspected.frontmatter else {
        return Err(ClientError::Frontmatter {
            uri: manifest.uri.clone(),
            reason: format!(
                "SKILL.md has no readable frontmatter: {}",
                findings.as_deref().unwrap_or("unknown problem")
            ),
        });
    };
    if let Some(advertised) = &manifest.frontmatter {
        let differences = compare(advertised, &found);
        if !differences.is_empty() {
            return Err(ClientError::Frontmatter {
                uri: manifest.uri.clone(),
                reason: format!(
                    "SKILL.md's frontmatter differs from the advertised one: {}",
                    differences.join("; ")
                ),
            });
        }
    }
    if manifest.source == Source::Legacy && found.get("name").and_then(Value::as_str).is_none() {
        return Err(ClientError::Frontmatter {
            uri: manifest.uri.clone(),
            reason: "SKILL.md has no `name`".into(),
        });
    }
    Ok((found, findings))
}

/// Every field whose advertised value differs from the file's, in words.
fn compare(advertised: &JsonObject, found: &JsonObject) -> Vec<String> {
    let mut keys: Vec<&String> = advertised.keys().chain(found.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|key| match (advertised.get(key), found.get(key)) {
            (Some(a), Some(b)) if same(a, b) => None,
            (Some(a), Some(b)) => Some(format!(
                "`{key}` is advertised as {a} but SKILL.md says {b}"
            )),
            (Some(a), None) => Some(format!(
                "`{key}` is advertised as {a} but SKILL.md has no `{key}`"
            )),
            (None, Some(b)) => Some(format!(
                "SKILL.md has `{key}: {b}`, which was not advertised"
            )),
            (None, None) => None,
        })
        .collect()
}

/// JSON equality where numbers compare by value (`1` equals `1.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(a), Value::Number(b)) => a.as_f64() == b.as_f64(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same(a, b))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(key, a)| b.get(key).is_some_and(|b| same(a, b)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn object(value: Value) -> JsonObject {
        value.as_object().cloned().unwrap()
    }

    #[test]
    fn frontmatters_compare_field_by_field() {
        let advertised =
            object(json!({"name": "a", "description": "d", "metadata": {"v": "1"}, "n": 1}));
        assert!(
            compare(
                &advertised,
                &object(json!({"name": "a", "description": "d", "metadata": {"v": "1"}, "n": 1.0}))
            )
            .is_empty()
        );
        let found = object(
            json!({"name": "a", "description": "other", "metadata": {"v": "1"}, "extra": true}),
        );
        assert_eq!(
            compare(&advertised, &found),
            [
                "`description` is advertised as \"d\" but SKILL.md says \"other\"",
                "SKILL.md has `extra: true`, which was not advertised",
                "`n` is advertised as 1 but SKILL.md has no `n`",
            ]
        );
    }
}
