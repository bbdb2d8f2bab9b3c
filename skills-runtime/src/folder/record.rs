//! The record the writer keeps in each skill folder it wrote: who wrote it,
//! at which version, and each file's digest and executable bit.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skills_core::Digest;

/// The record's file name, inside each skill folder the writer wrote. Hidden,
/// so agents and skill loaders skip it; never a file of the skill itself.
pub const RECORD_FILE: &str = ".skills-runtime.json";

/// The record format's version, for readers of older or newer records.
const FORMAT: u32 = 1;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    pub format: u32,
    pub writer: String,
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
    pub fn new(digest: Digest, executable: bool) -> Self {
        Self {
            digest: digest.to_string(),
            executable,
        }
    }
}

impl Record {
    pub fn new(writer: &str, name: &str, version: &str) -> Self {
        Self {
            format: FORMAT,
            writer: writer.to_owned(),
            name: name.to_owned(),
            version: version.to_owned(),
            files: BTreeMap::new(),
        }
    }

    /// The record's bytes: pretty JSON with a final newline, keys in a fixed order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a record always serializes");
        bytes.push(b'\n');
        bytes
    }

    /// A record read back, or `None` when the bytes are not one we wrote.
    pub fn parse(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice::<Self>(bytes)
            .ok()
            .filter(|record| record.format == FORMAT)
    }
}
