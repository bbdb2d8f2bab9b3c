//! The record the writer keeps in each skill folder it wrote: who wrote it,
//! at which version, and each file's digest and executable bit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skills_core::Digest;

/// The record's file name, inside each skill folder the writer wrote. Hidden,
/// so agents and skill loaders skip it; never a file of the skill itself.
pub const RECORD_FILE: &str = ".skills-runtime.json";

/// The record format's version, for readers of older or newer records.
/// Format 2 adds `source`; a format-1 record (no source) is still read, and
/// whose it is then follows from its `writer` alone
/// ([`Target::owns`](super::Target)).
const FORMAT: u32 = 2;

/// The formats this version reads.
const READS: [u32; 2] = [1, 2];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    pub format: u32,
    /// Who wrote the folder, for people: a tool's name, a host's label for a
    /// server, a server's URL. In a format-1 record written by a sync, the
    /// server's own `serverInfo.name`.
    pub writer: String,
    /// The identity of the source that wrote it, as the host configured it
    /// (`label:…`, `url:…`, `command:sha256:…`): what tells two sources
    /// apart. None for an installer's records and for format 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub name: String,
    pub version: String,
    /// Path inside the skill → what was written there.
    pub files: BTreeMap<String, RecordedFile>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RecordedFile {
    pub digest: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub executable: bool,
}

impl RecordedFile {
    pub(crate) fn new(digest: Digest, executable: bool) -> Self {
        Self {
            digest: digest.to_string(),
            executable,
        }
    }
}

impl Record {
    pub(crate) fn new(writer: &str, source: Option<&str>, name: &str, version: &str) -> Self {
        Self {
            format: FORMAT,
            writer: writer.to_owned(),
            source: source.map(str::to_owned),
            name: name.to_owned(),
            version: version.to_owned(),
            files: BTreeMap::new(),
        }
    }

    /// The record's bytes: pretty JSON with a final newline, keys in a fixed order.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a record always serializes");
        bytes.push(b'\n');
        bytes
    }

    /// A record read back, or `None` when the bytes are not one we wrote.
    pub(crate) fn parse(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice::<Self>(bytes)
            .ok()
            .filter(|record| READS.contains(&record.format))
    }
}
