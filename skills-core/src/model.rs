//! The tables a skills tree turns into.
//!
//! The same types hold the `static` tables `embed_skills!` emits (every field
//! `Cow::Borrowed`, built in a `const` context, nothing to do at start-up) and
//! sets loaded from disk at run time (`Cow::Owned`), the way rust-embed serves
//! embedded and on-disk files through one type.

use std::borrow::Cow;

/// A set of validated skills: what `embed_skills!` produces, and what
/// [`load`](crate::load()) builds at run time.
///
/// Skills are ordered by [`Skill::path`]; every lookup is a binary search over
/// tables sorted at build time.
#[derive(Debug, Clone)]
pub struct Skills {
    skills: Cow<'static, [Skill]>,
    files_by_uri: Cow<'static, [FileRef]>,
    fingerprint: Cow<'static, str>,
    package: Option<(Cow<'static, str>, Cow<'static, str>)>,
}

/// Where a file lives in [`Skills`]: the skill's index and the file's index in it.
///
/// Part of the generated tables; not meant to be built by hand.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileRef {
    skill: u32,
    file: u32,
}

impl FileRef {
    #[doc(hidden)]
    pub const fn new(skill: u32, file: u32) -> Self {
        Self { skill, file }
    }
}

/// One skill: a folder holding a `SKILL.md` and its supporting files.
#[derive(Debug, Clone)]
pub struct Skill {
    name: Cow<'static, str>,
    description: Cow<'static, str>,
    path: Cow<'static, str>,
    uri: Cow<'static, str>,
    frontmatter: Cow<'static, str>,
    version: Cow<'static, str>,
    body_offset: usize,
    files: Cow<'static, [SkillFile]>,
}

/// One file of a skill, with its bytes and everything a server says about it.
#[derive(Debug, Clone)]
pub struct SkillFile {
    path: Cow<'static, str>,
    uri: Cow<'static, str>,
    bytes: Cow<'static, [u8]>,
    digest: Cow<'static, str>,
    mime_type: Cow<'static, str>,
    is_text: bool,
    executable: bool,
}

impl Skills {
    /// Builds a set from its parts. The generated code calls this; use
    /// [`load`](crate::load()) to build a set at run time.
    ///
    /// `skills` must be sorted by path and `files_by_uri` by the URI it points at,
    /// with each URI once; the loader guarantees both.
    #[doc(hidden)]
    pub const fn from_parts(
        skills: Cow<'static, [Skill]>,
        files_by_uri: Cow<'static, [FileRef]>,
        fingerprint: Cow<'static, str>,
        package: Option<(Cow<'static, str>, Cow<'static, str>)>,
    ) -> Self {
        Self {
            skills,
            files_by_uri,
            fingerprint,
            package,
        }
    }

    /// A set with no skills.
    pub const fn empty() -> Self {
        Self {
            skills: Cow::Borrowed(&[]),
            files_by_uri: Cow::Borrowed(&[]),
            fingerprint: Cow::Borrowed(crate::EMPTY_FINGERPRINT),
            package: None,
        }
    }

    /// The name and version of the crate that embedded the set
    /// (`CARGO_PKG_NAME`, `CARGO_PKG_VERSION`), so a server can introduce
    /// itself as the author's crate rather than as its SDK.
    pub fn package(&self) -> Option<(&str, &str)> {
        self.package
            .as_ref()
            .map(|(name, version)| (name.as_ref(), version.as_ref()))
    }

    /// The same set, introduced as `name` `version`.
    pub fn with_package(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.package = Some((Cow::Owned(name.into()), Cow::Owned(version.into())));
        self
    }

    /// Every skill, ordered by path.
    pub fn skills(&self) -> &[Skill] {
        &self.skills
    }

    /// How many skills the set holds.
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// Whether the set holds no skill.
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// `sha256:` over every skill's URI and version: two sets with the same
    /// fingerprint serve the same bytes. Cursors and caches key on it.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The skill at `path` (`"pdf-processing"`, `"acme/billing/refunds"`).
    pub fn get(&self, path: &str) -> Option<&Skill> {
        self.skills
            .binary_search_by(|skill| skill.path().cmp(path))
            .ok()
            .map(|index| &self.skills[index])
    }

    /// The skill whose `SKILL.md` URI is exactly `uri`.
    pub fn by_uri(&self, uri: &str) -> Option<&Skill> {
        let (skill, file) = self.file_by_uri(uri)?;
        (file.path() == crate::SKILL_MD && skill.uri() == uri).then_some(skill)
    }

    /// The skills whose `name` is `name`. Names are unique within a set built by
    /// the loader, so this is at most one skill.
    pub fn by_name(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|skill| skill.name() == name)
    }

    /// The file served at the canonical URI `uri`, with the innermost skill
    /// that holds it. Use [`crate::uri::parse`] first to accept any equivalent
    /// spelling of a URI.
    pub fn file_by_uri(&self, uri: &str) -> Option<(&Skill, &SkillFile)> {
        let index = self
            .files_by_uri
            .binary_search_by(|entry| self.resolve(*entry).1.uri().cmp(uri))
            .ok()?;
        Some(self.resolve(self.files_by_uri[index]))
    }

    /// The files whose URI lies below the folder URI `folder`
    /// (`skill://a/references` → `skill://a/references/…`), ordered by URI.
    pub fn files_under(&self, folder: &str) -> impl Iterator<Item = (&Skill, &SkillFile)> + '_ {
        // URIs below `folder/` sort between `folder/` and `folder0` ('0' follows '/').
        let start = format!("{folder}/");
        let end = format!("{folder}0");
        let uri_of = |entry: &FileRef| self.resolve(*entry).1.uri();
        let first = self
            .files_by_uri
            .partition_point(|entry| uri_of(entry) < start.as_str());
        let last = self
            .files_by_uri
            .partition_point(|entry| uri_of(entry) < end.as_str());
        self.files_by_uri[first..last.max(first)]
            .iter()
            .map(|entry| self.resolve(*entry))
    }

    /// Every distinct file of the set once, ordered by URI.
    pub fn files(&self) -> impl ExactSizeIterator<Item = (&Skill, &SkillFile)> + '_ {
        self.files_by_uri.iter().map(|entry| self.resolve(*entry))
    }

    fn resolve(&self, entry: FileRef) -> (&Skill, &SkillFile) {
        let skill = &self.skills[entry.skill as usize];
        (skill, &skill.files[entry.file as usize])
    }
}

impl Default for Skills {
    fn default() -> Self {
        Self::empty()
    }
}

impl Skill {
    /// Builds a skill from its parts. The generated code calls this.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub const fn from_parts(
        name: Cow<'static, str>,
        description: Cow<'static, str>,
        path: Cow<'static, str>,
        uri: Cow<'static, str>,
        frontmatter: Cow<'static, str>,
        version: Cow<'static, str>,
        body_offset: usize,
        files: Cow<'static, [SkillFile]>,
    ) -> Self {
        Self {
            name,
            description,
            path,
            uri,
            frontmatter,
            version,
            body_offset,
            files,
        }
    }

    /// The frontmatter `name`; equal to the last segment of [`path`](Self::path).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The frontmatter `description`.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The skill's folder relative to the skills root, `/`-separated
    /// (`"acme/billing/refunds"`). This is the SEP-2640 skill path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The URI of the skill's `SKILL.md` (`skill://acme/billing/refunds/SKILL.md`).
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The root URI of the skill's folder, without a trailing slash
    /// (`skill://acme/billing/refunds`).
    pub fn root_uri(&self) -> &str {
        self.uri
            .strip_suffix(crate::SKILL_MD)
            .and_then(|root| root.strip_suffix('/'))
            .unwrap_or(&self.uri)
    }

    /// Every frontmatter field exactly as the author wrote it, as a JSON object
    /// with sorted keys and no insignificant whitespace.
    pub fn frontmatter_json(&self) -> &str {
        &self.frontmatter
    }

    /// `sha256:` over the skill's sorted `{uri, digest, size}` list (the
    /// revision fast-agent computes): changing any byte of any file changes it.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The `SKILL.md` file.
    pub fn skill_md(&self) -> &SkillFile {
        self.file(crate::SKILL_MD)
            .expect("every skill holds its SKILL.md")
    }

    /// The byte offset in `SKILL.md` where the body starts, just after the
    /// closing `---` line.
    pub fn body_offset(&self) -> usize {
        self.body_offset
    }

    /// The Markdown body of `SKILL.md`: everything after the closing `---` line.
    pub fn body(&self) -> &str {
        let bytes = self.skill_md().bytes();
        std::str::from_utf8(bytes.get(self.body_offset..).unwrap_or_default()).unwrap_or_default()
    }

    /// Every file of the skill, `SKILL.md` included, ordered by path. Files of
    /// nested skills are listed too (SEP-2640 completeness).
    pub fn files(&self) -> &[SkillFile] {
        &self.files
    }

    /// The file at `path` relative to the skill folder.
    pub fn file(&self, path: &str) -> Option<&SkillFile> {
        self.files
            .binary_search_by(|file| file.path().cmp(path))
            .ok()
            .map(|index| &self.files[index])
    }

    /// The sum of the sizes of every file.
    pub fn total_size(&self) -> u64 {
        self.files.iter().map(SkillFile::size).sum()
    }
}

impl SkillFile {
    /// Builds a file from its parts. The generated code calls this.
    #[doc(hidden)]
    pub const fn from_parts(
        path: Cow<'static, str>,
        uri: Cow<'static, str>,
        bytes: Cow<'static, [u8]>,
        digest: Cow<'static, str>,
        mime_type: Cow<'static, str>,
        is_text: bool,
        executable: bool,
    ) -> Self {
        Self {
            path,
            uri,
            bytes,
            digest,
            mime_type,
            is_text,
            executable,
        }
    }

    /// The path relative to the skill folder, `/`-separated (`references/a.md`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The resource URI, percent-encoded (`skill://pdf/references/my%20notes.md`).
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// The file's bytes, exactly as they were on disk.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The number of bytes.
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// `sha256:` followed by 64 lowercase hex digits, over [`bytes`](Self::bytes).
    pub fn digest(&self) -> &str {
        &self.digest
    }

    /// The MIME type (`text/markdown` for `SKILL.md`).
    pub fn mime_type(&self) -> &str {
        &self.mime_type
    }

    /// Whether the bytes are UTF-8 without NUL, so they can be served as text
    /// and re-encoded to the same bytes.
    pub fn is_text(&self) -> bool {
        self.is_text
    }

    /// The bytes as text, when [`is_text`](Self::is_text).
    pub fn text(&self) -> Option<&str> {
        if self.is_text {
            std::str::from_utf8(&self.bytes).ok()
        } else {
            None
        }
    }

    /// Whether the file had an executable bit set on disk.
    pub fn is_executable(&self) -> bool {
        self.executable
    }
}
