//! Independent re-implementations of what the loader computes (digests, URIs,
//! revisions, the file walk) and temporary folders, shared by the tests.
//! Nothing here calls skills-core, so a test comparing against it can fail.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use sha2::{Digest as _, Sha256};

/// `sha256:` and 64 lowercase hex digits, as SEP-2640 spells a digest.
pub fn sha256_digest(bytes: &[u8]) -> String {
    let hex: String = Sha256::digest(bytes)
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect();
    format!("sha256:{hex}")
}

/// Percent-encodes every byte outside `A-Z a-z 0-9 - . _ ~ /`, with uppercase hex.
pub fn percent_encode(path: &str) -> String {
    path.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
                char::from(byte).to_string()
            } else {
                format!("%{byte:02X}")
            }
        })
        .collect()
}

/// `skill://<skill path>/<file path>`, both percent-encoded.
pub fn file_uri(skill_path: &str, file_path: &str) -> String {
    format!(
        "skill://{}/{}",
        percent_encode(skill_path),
        percent_encode(file_path)
    )
}

/// fast-agent's revision of a skill: `sha256:` over the compact JSON list of
/// `{"digest", "size", "uri"}` objects (keys sorted), sorted by URI.
pub fn revision<'a>(files: impl IntoIterator<Item = (&'a str, &'a str, u64)>) -> String {
    let mut items: Vec<(&str, &str, u64)> = files.into_iter().collect();
    items.sort();
    let objects: Vec<String> = items
        .iter()
        .map(|(uri, digest, size)| {
            format!(
                r#"{{"digest":{},"size":{size},"uri":{}}}"#,
                json_string(digest),
                json_string(uri)
            )
        })
        .collect();
    sha256_digest(format!("[{}]", objects.join(",")).as_bytes())
}

fn json_string(text: &str) -> String {
    serde_json::to_string(text).expect("a string always serializes")
}

/// A set's fingerprint: `sha256:` over one `<uri> <version>\n` line per skill.
pub fn fingerprint<'a>(skills: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let lines: String = skills
        .into_iter()
        .map(|(uri, version)| format!("{uri} {version}\n"))
        .collect();
    sha256_digest(lines.as_bytes())
}

/// Every regular file below `dir` whose path has no hidden (`.`) segment, by
/// its `/`-separated path relative to `dir`.
pub fn files_on_disk(dir: &Path) -> BTreeMap<String, PathBuf> {
    fn visit(dir: &Path, prefix: &str, found: &mut BTreeMap<String, PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("the folder can be listed") {
            let entry = entry.expect("the entry can be read");
            let name = entry.file_name().into_string().expect("names are UTF-8");
            if name.starts_with('.') {
                continue;
            }
            let rel = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            let file_type = entry.file_type().expect("the entry has a type");
            if file_type.is_dir() {
                visit(&entry.path(), &rel, found);
            } else if file_type.is_file() {
                found.insert(rel, entry.path());
            }
        }
    }
    let mut found = BTreeMap::new();
    visit(dir, "", &mut found);
    found
}

/// The folders directly below `root` that hold a `SKILL.md`, sorted.
pub fn skill_folders(root: &Path) -> Vec<String> {
    let mut folders: Vec<String> = std::fs::read_dir(root)
        .expect("the root can be listed")
        .map(|entry| entry.expect("the entry can be read").path())
        .filter(|path| path.join("SKILL.md").is_file())
        .map(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .expect("names are UTF-8")
                .to_owned()
        })
        .collect();
    folders.sort();
    folders
}

/// Copies the folder `from` to `to`, recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("the copy's folder can be created");
    for entry in std::fs::read_dir(from).expect("the folder can be listed") {
        let entry = entry.expect("the entry can be read");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("the entry has a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("the file can be copied");
        }
    }
}

/// The shared corpus: `../shared/corpus`, beside the clone.
pub fn corpus_dir() -> PathBuf {
    skills_test_paths::shared("corpus")
}

pub use skills_test_paths::fixture_corpus;

/// A scratch folder, removed on drop.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty folder below Cargo's scratch space for integration tests.
    pub fn new(label: &str) -> Self {
        Self::new_in(Path::new(env!("CARGO_TARGET_TMPDIR")), label)
    }

    /// A fresh, empty folder below `base`, named after `label`, this process
    /// and a number no other folder of this process has: the tests share one
    /// process.
    pub fn new_in(base: &Path, label: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let number = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = base.join(format!("{label}-{}-{number}", std::process::id()));
        if path.exists() {
            std::fs::remove_dir_all(&path).expect("a stale scratch folder can be removed");
        }
        std::fs::create_dir_all(&path).expect("the scratch folder can be created");
        Self(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
