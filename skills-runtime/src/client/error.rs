//! What can go wrong between a client and a skills server, in words a skill
//! author understands, each naming the URI (or skill) it concerns.

use std::fmt;
use std::time::Duration;

use rmcp::ServiceError;

/// Why a skill could not be discovered, checked, downloaded or synced.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// A request failed: the server answered with an error, or the
    /// connection broke.
    Request {
        /// The method sent (`skills/get`, `resources/read`, …).
        method: &'static str,
        /// The URI it was about, if any.
        uri: Option<String>,
        /// rmcp's error (boxed: it is large, and errors travel in every `Result`).
        error: Box<ServiceError>,
    },
    /// A request got no answer in time.
    Timeout {
        /// The method sent.
        method: &'static str,
        /// The URI it was about, if any.
        uri: Option<String>,
        /// How long the client waited.
        after: Duration,
    },
    /// A listing the client refuses to follow: a cursor repeated or too
    /// long, too many pages or entries, or too many bytes of them.
    Listing(String),
    /// No skill of that name or URI is served.
    UnknownSkill(String),
    /// A name that two servers' (or one server's) skills share; use a URI.
    Ambiguous {
        /// The name asked for.
        name: String,
        /// The URIs of every skill with that name.
        uris: Vec<String>,
    },
    /// The skill's entry or manifest breaks a structural rule (a name that
    /// does not match its URI, a file outside the skill, an unsafe path, a
    /// malformed digest, `"dynamic"` resources, …).
    Entry {
        /// The skill's URI.
        uri: String,
        /// What is wrong.
        reason: String,
    },
    /// A file's bytes do not match its manifest (size or digest), or the
    /// answer to its read is not one content item for exactly that URI.
    Integrity {
        /// The file's URI.
        uri: String,
        /// What is wrong.
        reason: String,
    },
    /// The skill changed between two looks at its manifest (the listing and
    /// `skills/get`, or before and after the files were read).
    Changed {
        /// The skill's URI.
        uri: String,
        /// The version seen first.
        before: String,
        /// The version seen next.
        after: String,
    },
    /// The downloaded `SKILL.md` says something else than the frontmatter
    /// the server advertised, or cannot be read as a `SKILL.md` at all.
    Frontmatter {
        /// The `SKILL.md` URI.
        uri: String,
        /// What differs, field by field.
        reason: String,
    },
    /// The skill breaks rules of the Agent Skills specification; refused
    /// because [`DownloadOptions::strict`](crate::client::DownloadOptions::strict) is set.
    Rules {
        /// The skill's URI.
        uri: String,
        /// skills-core's report (`file:line:col: rule: message`).
        report: String,
    },
    /// A size is beyond a limit: SEP-2640's (a file or a skill over 16 MiB,
    /// sizes that sum past what a `u64` holds) or the sync's own
    /// ([`SyncOptions::max_bytes`](crate::client::SyncOptions::max_bytes));
    /// refused before any of its bytes is read.
    TooLarge {
        /// The skill's URI.
        uri: String,
        /// Which limit, and by how much.
        reason: String,
    },
    /// The host has not approved the skill's file set
    /// ([`HostCatalog::on_approval`](crate::client::HostCatalog::on_approval)):
    /// it was not loaded, and none of its files were read.
    NotApproved {
        /// The skill (its name for the model).
        skill: String,
        /// The label of its server.
        server: String,
    },
    /// Writing into the folder failed.
    Folder(crate::folder::FolderError),
    /// A usage mistake (a malformed header, say).
    Usage(String),
}

impl ClientError {
    /// Whether the error is about bytes that did not verify (a size, digest,
    /// content, frontmatter or version mismatch, an unsafe entry, or a size
    /// past a limit): what a sync reports as a refusal rather than as a
    /// transport failure.
    pub fn is_verification(&self) -> bool {
        matches!(
            self,
            Self::Entry { .. }
                | Self::Integrity { .. }
                | Self::Changed { .. }
                | Self::Frontmatter { .. }
                | Self::Rules { .. }
                | Self::TooLarge { .. }
        )
    }
}

/// Longest message a [`ClientError`] prints, in characters: it quotes what
/// a server sent (URIs, its own error messages), which can be megabytes.
const MAX_SHOWN_CHARS: usize = 4000;

/// One line a server cannot act through: URIs, names and a server's own
/// error messages are quoted in errors, and whatever a terminal or a CI log
/// would act on (escapes, line breaks, bidirectional overrides) is escaped
/// ([`skills_core::printable`], the one escape), at most 4,000 characters
/// (`MAX_SHOWN_CHARS`).
impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Self::Rules { uri, report } = self {
            // The report is skills-core's, one escaped problem per line.
            return write!(
                f,
                "{}: breaks the Agent Skills rules (strict): {report}",
                shown(uri)
            );
        }
        let mut text = String::new();
        fmt::write(&mut text, format_args!("{}", Raw(self)))?;
        f.write_str(&shown(&text))
    }
}

/// `text` escaped and bounded as errors print it.
fn shown(text: &str) -> String {
    crate::folder::shown_within(text, MAX_SHOWN_CHARS)
}

/// The message before it is escaped.
struct Raw<'a>(&'a ClientError);

impl fmt::Display for Raw<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            ClientError::Request { method, uri, error } => match uri {
                Some(uri) => write!(f, "{method} {uri} failed: {error}"),
                None => write!(f, "{method} failed: {error}"),
            },
            ClientError::Timeout { method, uri, after } => match uri {
                Some(uri) => write!(f, "{method} {uri} got no answer in {after:?}"),
                None => write!(f, "{method} got no answer in {after:?}"),
            },
            ClientError::Listing(reason) => write!(f, "the skills listing was refused: {reason}"),
            ClientError::UnknownSkill(name) => write!(f, "no skill `{name}` is served"),
            ClientError::Ambiguous { name, uris } => write!(
                f,
                "`{name}` names {} skills ({}); ask for one by URI",
                uris.len(),
                uris.join(", ")
            ),
            ClientError::Entry { uri, reason } => write!(f, "{uri}: refused: {reason}"),
            ClientError::Integrity { uri, reason } => write!(f, "{uri}: did not verify: {reason}"),
            ClientError::Changed { uri, before, after } => write!(
                f,
                "{uri}: the skill changed while it was being fetched (version {before}, then {after}); try again"
            ),
            ClientError::Frontmatter { uri, reason } => {
                write!(f, "{uri}: did not verify: {reason}")
            }
            ClientError::TooLarge { uri, reason } => {
                write!(f, "{uri}: refused: too large: {reason}")
            }
            ClientError::Rules { uri, report } => {
                write!(f, "{uri}: breaks the Agent Skills rules (strict): {report}")
            }
            ClientError::NotApproved { skill, server } => write!(
                f,
                "`{skill}` (from `{server}`) is not approved by the host, so it was not loaded and none of its files were read; do not retry it unless the user approves it"
            ),
            ClientError::Folder(error) => write!(f, "{error}"),
            ClientError::Usage(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Request { error, .. } => Some(error.as_ref()),
            Self::Folder(error) => Some(error),
            _ => None,
        }
    }
}

impl From<crate::folder::FolderError> for ClientError {
    fn from(error: crate::folder::FolderError) -> Self {
        Self::Folder(error)
    }
}
