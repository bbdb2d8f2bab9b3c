//! The tables a skills tree turns into.
//!
//! The same types hold the `static` tables `embed_skills!` emits (every field
//! `Cow::Borrowed`, built in a `const` context, nothing to do at start-up) and
//! sets loaded from disk at run time (`Cow::Owned`), the way rust-embed serves
//! embedded and on-disk files through one type.
//!
//! The tables are compact on purpose: a file holds its path, its bytes, its
//! SHA-256 as 32 raw bytes and two flags. Its URI and MIME type are derived
//! from the path when asked for, so thousands of small files cost little more
//! in the binary than with `include_dir!`.

use std::borrow::Cow;

use crate::digest::Digest;

/// A set of validated skills: what `embed_skills!` produces, and what
/// skills-core's loader builds at run time.
///
/// Skills are ordered by [`Skill::path`]; lookups are binary searches over
/// tables sorted at build time.
#[derive(Debug, Clone)]
pub struct Skills {
    skills: Cow<'static, [Skill]>,
    fingerprint: Cow<'static, str>,
    package: Option<(Cow<'static, str>, Cow<'static, str>)>,
    pending: Cow<'static, [Cow<'static, str>]>,
    embed_options: Option<crate::EmbedOptions>,
}

/// One skill: a folder holding a `SKILL.md` and its supporting files.
#[derive(Debug, Clone)]
pub struct Skill {
    name: Cow<'static, str>,
    description: Cow<'static, str>,
    path: Cow<'static, str>,
    uri: Cow<'static, str>,
    extra_fields: Cow<'static, str>,
    version: Cow<'static, str>,
    body_offset: usize,
    files: Cow<'static, [SkillFile]>,
    gated: bool,
    main_file: &'static str,
}

/// One file of a skill, with its bytes and what a server says about it.
#[derive(Debug, Clone)]
pub struct SkillFile {
    path: Cow<'static, str>,
    content: Content,
    digest: Digest,
    executable: bool,
}

/// A file's bytes, kept as text when they are UTF-8 without NUL, so serving
/// them as text never validates them again.
#[derive(Debug, Clone)]
enum Content {
    Text(Cow<'static, str>),
    Binary(Cow<'static, [u8]>),
}

impl Skills {
    /// Builds a set from its parts (the loader and `embedded` do); use
    /// skills-core's loader to build a set at run time.
    ///
    /// `skills` must be sorted by path, each with its files sorted by path;
    /// the loader guarantees both.
    #[doc(hidden)]
    pub const fn from_parts(
        skills: Cow<'static, [Skill]>,
        fingerprint: Cow<'static, str>,
        package: Option<(Cow<'static, str>, Cow<'static, str>)>,
    ) -> Self {
        Self {
            skills,
            fingerprint,
            package,
            pending: Cow::Borrowed(&[]),
            embed_options: None,
        }
    }

    /// The same set, with `pending` declared generated and not yet added.
    /// The loader calls this.
    #[doc(hidden)]
    pub fn with_pending(mut self, pending: Cow<'static, [Cow<'static, str>]>) -> Self {
        self.pending = pending;
        self
    }

    /// The same set, recording `options` as the macro call that produced it
    /// (a set changed after it was embedded keeps its rules).
    #[doc(hidden)]
    pub fn with_embed_options(mut self, options: Option<crate::EmbedOptions>) -> Self {
        self.embed_options = options;
        self
    }

    /// A set borrowed from the binary; what `embed_skills!` expands to.
    #[doc(hidden)]
    pub const fn embedded(
        skills: &'static [Skill],
        fingerprint: &'static str,
        package: (&'static str, &'static str),
        options: crate::EmbedOptions,
    ) -> Self {
        Self::embedded_pending(skills, fingerprint, package, options, &[])
    }

    /// [`embedded`](Self::embedded), with files declared generated that were
    /// not there when the crate compiled.
    #[doc(hidden)]
    pub const fn embedded_pending(
        skills: &'static [Skill],
        fingerprint: &'static str,
        package: (&'static str, &'static str),
        options: crate::EmbedOptions,
        pending: &'static [Cow<'static, str>],
    ) -> Self {
        Self {
            skills: Cow::Borrowed(skills),
            fingerprint: Cow::Borrowed(fingerprint),
            package: Some((Cow::Borrowed(package.0), Cow::Borrowed(package.1))),
            pending: Cow::Borrowed(pending),
            embed_options: Some(options),
        }
    }

    /// A set with no skills.
    pub const fn empty() -> Self {
        Self {
            skills: Cow::Borrowed(&[]),
            fingerprint: Cow::Borrowed(crate::EMPTY_FINGERPRINT),
            package: None,
            pending: Cow::Borrowed(&[]),
            embed_options: None,
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

    /// The files declared generated (`generated = [..]`; paths relative to
    /// the root, like `platform/references/api.md`) that were not there when
    /// the set was built and have not been added since: the program adds
    /// them at start-up with `add_files` (feature `load`), and a server
    /// refuses to serve the set while any is missing (skills-core's `check_servable`).
    pub fn pending_files(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.pending.iter().map(|path| path.as_ref())
    }

    /// The options of the `embed_skills!` call that produced the set
    /// (`None` for a set loaded at run time): what a loader reading the same
    /// folder needs to apply the same rules (skills-core's `Options::from`).
    pub fn embed_options(&self) -> Option<&crate::EmbedOptions> {
        self.embed_options.as_ref()
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

    /// The index of the skill at `path` in [`skills`](Self::skills).
    pub fn position(&self, path: &str) -> Option<usize> {
        self.skills
            .binary_search_by(|skill| skill.path().cmp(path))
            .ok()
    }

    /// The skill whose `SKILL.md` is served at the canonical URI `uri`.
    pub fn by_uri(&self, uri: &str) -> Option<&Skill> {
        let path = crate::uri::decoded_path(uri)?;
        let skill_path = path.strip_suffix(crate::SKILL_MD)?.strip_suffix('/')?;
        self.get(skill_path).filter(|skill| skill.uri() == uri)
    }

    /// The skill whose `name` is `name`. Names are unique within a set built
    /// by the loader, so this is at most one skill.
    pub fn by_name(&self, name: &str) -> Option<&Skill> {
        self.skills.iter().find(|skill| skill.name() == name)
    }

    /// The innermost skill whose folder holds `path` (relative to the skills
    /// root), with the path inside that skill.
    pub fn owner_of<'p>(&self, path: &'p str) -> Option<(&Skill, &'p str)> {
        crate::relpath::ancestors(path)
            .skip(1)
            .take_while(|folder| !folder.is_empty())
            .find_map(|folder| {
                let skill = self.get(folder)?;
                Some((skill, &path[folder.len() + 1..]))
            })
    }

    /// The file at `path` (relative to the skills root, not percent-encoded),
    /// with the innermost skill that holds it.
    pub fn file_by_path(&self, path: &str) -> Option<(&Skill, &SkillFile)> {
        let (skill, within) = self.owner_of(path)?;
        Some((skill, skill.file(within)?))
    }

    /// The file served at the canonical URI `uri`, with the innermost skill
    /// that holds it. Use [`crate::uri::parse`] first to accept any
    /// equivalent spelling of a URI. A main file with another name is served
    /// under that name too ([`Skill::disk_path`]).
    pub fn file_by_uri(&self, uri: &str) -> Option<(&Skill, &SkillFile)> {
        let (skill, file) = self.file_by_path(&crate::uri::decoded_path(uri)?)?;
        let served = skill.file_uri(file) == uri
            || (skill.main_file != crate::SKILL_MD
                && crate::uri::for_file(&skill.path, &skill.disk_path(file)) == uri);
        served.then_some((skill, file))
    }

    /// Every distinct file of the set once, with the innermost skill that
    /// holds it, skill by skill in path order.
    pub fn files(&self) -> impl Iterator<Item = (&Skill, &SkillFile)> + '_ {
        self.skills
            .iter()
            .flat_map(move |skill| self.own_files(skill, ""))
    }

    /// The files `skill` serves as their innermost holder: all but those of
    /// the skills nested in it.
    pub fn own_files_of<'s>(
        &'s self,
        skill: &'s Skill,
    ) -> impl Iterator<Item = &'s SkillFile> + 's {
        self.own_files(skill, "").map(|(_, file)| file)
    }

    /// The files of `skill` below its folder `within` (`""` for all), except
    /// those of skills nested in it, which are theirs.
    fn own_files<'s>(
        &'s self,
        skill: &'s Skill,
        within: &'s str,
    ) -> impl Iterator<Item = (&'s Skill, &'s SkillFile)> + 's {
        let nested = self.below(skill.path());
        skill
            .files()
            .iter()
            .filter(move |file| within.is_empty() || crate::relpath::is_below(file.path(), within))
            .filter(move |file| {
                !nested.iter().any(|inner| {
                    crate::relpath::is_below(file.path(), &inner.path()[skill.path().len() + 1..])
                })
            })
            .map(move |file| (skill, file))
    }

    /// The skills whose folders lie below `folder`.
    fn below(&self, folder: &str) -> &[Skill] {
        crate::relpath::sorted_below(&self.skills, Skill::path, folder)
    }

    /// The distinct files below the folder `folder` (relative to the skills
    /// root), each with the innermost skill that holds it.
    pub fn files_under<'s>(&'s self, folder: &'s str) -> Vec<(&'s Skill, &'s SkillFile)> {
        let mut found = Vec::new();
        // The skill the folder is, or lies inside.
        let holder = match self.get(folder) {
            Some(skill) => Some((skill, "")),
            None => self.owner_of(folder),
        };
        if let Some((skill, within)) = holder {
            found.extend(self.own_files(skill, within));
        }
        for skill in self.below(folder) {
            found.extend(self.own_files(skill, ""));
        }
        found
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
        extra_fields: Cow<'static, str>,
        version: Cow<'static, str>,
        body_offset: usize,
        files: Cow<'static, [SkillFile]>,
    ) -> Self {
        Self {
            name,
            description,
            path,
            uri,
            extra_fields,
            version,
            body_offset,
            files,
            gated: false,
            main_file: crate::SKILL_MD,
        }
    }

    /// The same skill, declared gated (`gated = [..]` of `embed_skills!`, or
    /// the loader's option): sold or held back, so a server may answer it as
    /// locked, and it carries no `allowed-tools`. The generated code calls this.
    #[doc(hidden)]
    pub const fn with_gated(mut self, gated: bool) -> Self {
        self.gated = gated;
        self
    }

    /// The same skill, whose main file is named `main_file` on disk
    /// (`embed_skills!`'s `main_file` option, the loader's
    /// `Options::main_file`): the file is held, and served on the SEP-2640
    /// path, as `SKILL.md`; the FastMCP layer names it `main_file`, as
    /// FastMCP's `main_file_name` and SkillsDotNet's `MainFileName` do.
    /// The generated code calls this.
    #[doc(hidden)]
    pub const fn with_main_file(mut self, main_file: &'static str) -> Self {
        self.main_file = main_file;
        self
    }

    /// A skill borrowed from the binary; what `embed_skills!` expands to.
    /// `strings` are the name, description, path, URI, extra fields JSON and version.
    #[doc(hidden)]
    pub const fn embedded(
        strings: [&'static str; 6],
        body_offset: usize,
        files: &'static [SkillFile],
    ) -> Self {
        let [name, description, path, uri, extra_fields, version] = strings;
        Self::from_parts(
            Cow::Borrowed(name),
            Cow::Borrowed(description),
            Cow::Borrowed(path),
            Cow::Borrowed(uri),
            Cow::Borrowed(extra_fields),
            Cow::Borrowed(version),
            body_offset,
            Cow::Borrowed(files),
        )
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

    /// The URI of `file` (a file of this skill), percent-encoded
    /// (`skill://pdf/references/my%20notes.md`).
    pub fn file_uri(&self, file: &SkillFile) -> String {
        crate::uri::for_file(&self.path, file.path())
    }

    /// Every frontmatter field other than `name` and `description`, exactly
    /// as the author wrote it, as a JSON object with sorted keys and no
    /// insignificant whitespace (`{}` when there are none). With
    /// [`name`](Self::name) and [`description`](Self::description) this is the
    /// whole frontmatter; kept apart so a description is not stored twice.
    pub fn extra_fields_json(&self) -> &str {
        &self.extra_fields
    }

    /// `sha256:` over the skill's sorted `{uri, digest, size}` list (the
    /// revision fast-agent computes): changing any byte of any file changes it.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Whether the skill was declared gated (sold, or held back from some
    /// callers): a server may then answer it as locked, with an offer, and
    /// the rules made sure it carries no `allowed-tools`.
    pub fn is_gated(&self) -> bool {
        self.gated
    }

    /// The name of the skill's main file in its folder on disk: `SKILL.md`,
    /// unless it was embedded or loaded with another (`main_file`). The
    /// skill holds it as [`SKILL.md`](crate::SKILL_MD) whatever its name.
    pub fn main_file(&self) -> &str {
        self.main_file
    }

    /// The `SKILL.md` file (the main file, whatever its name on disk).
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

    /// The file at `path` relative to the skill folder. A main file with
    /// another name ([`main_file`](Self::main_file)) is found under that
    /// name too (`README.md`), as the FastMCP layer lists it.
    pub fn file(&self, path: &str) -> Option<&SkillFile> {
        let found = self
            .files
            .binary_search_by(|file| file.path().cmp(path))
            .ok()
            .map(|index| &self.files[index]);
        if found.is_some() || self.main_file == crate::SKILL_MD {
            return found;
        }
        let (folder, name) = path.rsplit_once('/').unwrap_or(("", path));
        if name != self.main_file {
            return None;
        }
        let main = crate::relpath::join(folder, crate::SKILL_MD);
        self.files
            .binary_search_by(|file| file.path().cmp(main.as_str()))
            .ok()
            .map(|index| &self.files[index])
    }

    /// The path of `file` in the skill's folder on disk: its
    /// [`path`](SkillFile::path), except that a main file with another name
    /// (the `main_file` option; the skill's own, or a nested skill's) goes
    /// by that name, as FastMCP's `main_file_name` and SkillsDotNet's
    /// `MainFileName` list it.
    pub fn disk_path<'f>(&self, file: &'f SkillFile) -> Cow<'f, str> {
        let path = file.path();
        if self.main_file == crate::SKILL_MD {
            return Cow::Borrowed(path);
        }
        // With another main file, the rules refuse any other `SKILL.md`.
        match path.strip_suffix(crate::SKILL_MD) {
            Some(folder) if folder.is_empty() || folder.ends_with('/') => {
                Cow::Owned(format!("{folder}{}", self.main_file))
            }
            _ => Cow::Borrowed(path),
        }
    }

    /// The sum of the sizes of every file.
    pub fn total_size(&self) -> u64 {
        self.files.iter().map(SkillFile::size).sum()
    }
}

impl SkillFile {
    /// A text file (UTF-8 without NUL): what the loader and the `embedded_*`
    /// constructors build.
    #[doc(hidden)]
    pub const fn from_text(
        path: Cow<'static, str>,
        text: Cow<'static, str>,
        digest: Digest,
        executable: bool,
    ) -> Self {
        Self {
            path,
            content: Content::Text(text),
            digest,
            executable,
        }
    }

    /// A binary file: what the loader and the `embedded_*` constructors build.
    #[doc(hidden)]
    pub const fn from_binary(
        path: Cow<'static, str>,
        bytes: Cow<'static, [u8]>,
        digest: Digest,
        executable: bool,
    ) -> Self {
        Self {
            path,
            content: Content::Binary(bytes),
            digest,
            executable,
        }
    }

    /// A text file borrowed from the binary; what `embed_skills!` expands to.
    #[doc(hidden)]
    pub const fn embedded_text(
        path: &'static str,
        text: &'static str,
        digest: &'static [u8; 32],
        executable: bool,
    ) -> Self {
        Self::from_text(
            Cow::Borrowed(path),
            Cow::Borrowed(text),
            Digest::from_bytes(*digest),
            executable,
        )
    }

    /// A binary file borrowed from the binary; what `embed_skills!` expands to.
    #[doc(hidden)]
    pub const fn embedded_binary(
        path: &'static str,
        bytes: &'static [u8],
        digest: &'static [u8; 32],
        executable: bool,
    ) -> Self {
        Self::from_binary(
            Cow::Borrowed(path),
            Cow::Borrowed(bytes),
            Digest::from_bytes(*digest),
            executable,
        )
    }

    /// The path relative to the skill folder, `/`-separated (`references/a.md`).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The file's bytes, exactly as they were on disk.
    pub fn bytes(&self) -> &[u8] {
        match &self.content {
            Content::Text(text) => text.as_bytes(),
            Content::Binary(bytes) => bytes,
        }
    }

    /// The number of bytes.
    pub fn size(&self) -> u64 {
        self.bytes().len() as u64
    }

    /// The SHA-256 of [`bytes`](Self::bytes); displays as `sha256:<hex>`.
    pub fn digest(&self) -> Digest {
        self.digest
    }

    /// The MIME type (`text/markdown` for `SKILL.md`), from the extension,
    /// else from whether the bytes are text.
    pub fn mime_type(&self) -> &'static str {
        crate::mime::for_path(&self.path, self.is_text())
    }

    /// Whether the bytes are UTF-8 without NUL, so they can be served as text
    /// and re-encoded to the same bytes.
    pub fn is_text(&self) -> bool {
        matches!(self.content, Content::Text(_))
    }

    /// The bytes as text, when [`is_text`](Self::is_text).
    pub fn text(&self) -> Option<&str> {
        match &self.content {
            Content::Text(text) => Some(text),
            Content::Binary(_) => None,
        }
    }

    /// The text, when [`is_text`](Self::is_text), as a value that outlives
    /// the file: borrowed when the text is compiled into the binary (no
    /// copy), else a copy of what was loaded at run time.
    ///
    /// ```
    /// # use std::borrow::Cow;
    /// # use skills_tables::SkillFile;
    /// let file = SkillFile::embedded_text("notes.md", "# Notes", &[0; 32], false);
    /// assert!(matches!(file.static_text(), Some(Cow::Borrowed("# Notes"))));
    /// ```
    pub fn static_text(&self) -> Option<Cow<'static, str>> {
        match &self.content {
            Content::Text(text) => Some(text.clone()),
            Content::Binary(_) => None,
        }
    }

    /// Whether the file had an executable bit set on disk.
    pub fn is_executable(&self) -> bool {
        self.executable
    }
}
