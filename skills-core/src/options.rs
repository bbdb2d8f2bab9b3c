//! The choices a caller makes about the rules, and the presets ("rule
//! profiles") that match what each agent accepts.
//!
//! The defaults are the strict rules every host accepts: what `embed_skills!`
//! applies unless told otherwise. A folder an agent already reads (the
//! user's `~/.claude/skills`) holds skills written for that agent, which may
//! use its extra frontmatter keys; serving them through the strict rules
//! would refuse skills the agent itself runs. The presets loosen exactly
//! what the agent accepts, and nothing else.

/// Top-level frontmatter keys Claude Code reads besides the specification's
/// six (`agent-skills-format.md` §1.6; Claude Code's skills documentation).
/// Other agents that read `.claude/skills` folders accept skills carrying
/// them.
pub const CLAUDE_CODE_FIELDS: [&str; 10] = [
    "agent",
    "argument-hint",
    "context",
    "disable-model-invocation",
    "hooks",
    "model",
    "paths",
    "user-invocable",
    "version",
    "when_to_use",
];

/// Choices a caller makes about a tree. The defaults are the strict rules.
///
/// ```
/// use skills_core::Options;
///
/// let strict = Options::default();
/// assert!(strict.check_links && strict.allow_fields.is_empty());
///
/// // What Claude Code accepts: its extra keys, and `allowed-tools` as a list.
/// let claude = Options::claude_code();
/// assert!(claude.allow_fields.iter().any(|field| field == "disable-model-invocation"));
/// assert!(claude.allowed_tools_list);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// How the root is named in messages (`skills`, `$SKILLS_DIR`); the
    /// root's path as given when `None`.
    pub display_root: Option<String>,
    /// Top-level frontmatter keys to accept besides the six the specification
    /// defines (`disable-model-invocation`, `dependencies`, …), with any value.
    pub allow_fields: Vec<String>,
    /// Accept every top-level frontmatter key, as agents that ignore the keys
    /// they do not know do. Off by default: an unknown key is usually a typo
    /// (`Name:`) or belongs under `metadata`.
    pub allow_unknown_fields: bool,
    /// Accept `allowed-tools` written as a YAML list of strings, as Claude
    /// Code does, besides the specification's space-separated string.
    pub allowed_tools_list: bool,
    /// Whether relative links and paths in `SKILL.md` bodies must name files
    /// of the skill (and whether references nested more than one level deep
    /// are warned about).
    pub check_links: bool,
    /// Files (relative to the root) that may contain credential-shaped text,
    /// such as a deliberately fake key in a tutorial.
    pub allow_secrets_in: Vec<String>,
    /// Walk symbolic links to folders right below the root as the folders
    /// they point to. Agents' folders often hold skills linked from a
    /// dotfiles repository; links anywhere deeper are still refused. Off by
    /// default: a skills tree meant to be embedded holds no links.
    pub follow_top_level_links: bool,
    /// Globs over skill paths (`courses/*`, `premium/**`) naming the skills
    /// that are gated: sold, or held back from some callers, so a server may
    /// answer them as locked. A gated skill must not carry `allowed-tools`
    /// (`gated-allowed-tools`), nor be nested in a skill that is not gated
    /// (`gated`: its parent's folder would serve its files free); a glob
    /// that names no skill is refused too. `*` stays within one path
    /// segment; `**` crosses them.
    pub gated: Vec<String>,
    /// Files (relative to the root: `platform/references/api.md`) that the
    /// program adds at start-up with [`add_files`](crate::add_files),
    /// because their content is known only at run time. A `SKILL.md` may
    /// link to them before they exist; the set records them as
    /// [pending](crate::Skills::pending_files) until they are added, and a
    /// server refuses to serve it before ([`check_servable`](crate::check_servable)).
    pub generated: Vec<String>,
    /// A folder where the loader keeps, across runs, each file's digest and
    /// secret-scan result, keyed by its path, size, modification time and
    /// (on Unix) inode and change time, so that a run after a one-file edit
    /// hashes and scans that file only. `embed_skills!` passes the crate's
    /// `OUT_DIR` (which a build script gives it). Every file is still read;
    /// the result of a load is the same with or without the folder. Entries
    /// about files modified within a few seconds of the run that wrote them
    /// are not trusted, so a same-size edit within the file system's
    /// timestamp resolution is seen. A missing, damaged or foreign cache is
    /// ignored, and one that cannot be written is not written: neither fails
    /// the load. `None` (the default) keeps nothing.
    pub cache_dir: Option<std::path::PathBuf>,
    /// The name of the file that makes a folder a skill: `SKILL.md`, or
    /// another, as FastMCP's `main_file_name` and SkillsDotNet's
    /// `MainFileName` allow (`README.md`, `skill.md`). Every rule of a
    /// `SKILL.md` applies to it; the loaded skill holds it as `SKILL.md`
    /// (what the SEP-2640 listing and installers name) and records the name
    /// ([`Skill::main_file`](crate::Skill::main_file)). A folder holding
    /// both it and a `SKILL.md` is refused (`main-file`).
    pub main_file: String,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            display_root: None,
            allow_fields: Vec::new(),
            allow_unknown_fields: false,
            allowed_tools_list: false,
            check_links: true,
            allow_secrets_in: Vec::new(),
            follow_top_level_links: false,
            gated: Vec::new(),
            generated: Vec::new(),
            cache_dir: None,
            main_file: crate::SKILL_MD.to_owned(),
        }
    }
}

/// The loader's options that apply the same rules as the `embed_skills!`
/// call that recorded `embedded` ([`Skills::embed_options`](crate::Skills::embed_options)):
/// what a live reload of the same folder needs.
///
/// ```
/// use skills_core::{EmbedOptions, Options};
///
/// static EMBEDDED: EmbedOptions = EmbedOptions::new(&["dependencies"], false, &[], &["courses/*"], &[]);
/// let options = Options::from(&EMBEDDED);
/// assert_eq!(options.allow_fields, ["dependencies"]);
/// assert!(!options.check_links);
/// assert_eq!(options.gated, ["courses/*"]);
///
/// // A set embedded with `main_file = "README.md"` reloads with it.
/// static README: EmbedOptions = EmbedOptions::new(&[], true, &[], &[], &[]).with_main_file("README.md");
/// assert_eq!(Options::from(&README).main_file, "README.md");
/// ```
impl From<&crate::EmbedOptions> for Options {
    fn from(embedded: &crate::EmbedOptions) -> Self {
        Self {
            allow_fields: embedded.allow_fields().map(str::to_owned).collect(),
            check_links: embedded.check_links(),
            allow_secrets_in: embedded.allow_secrets_in().map(str::to_owned).collect(),
            gated: embedded.gated().map(str::to_owned).collect(),
            generated: embedded.generated().map(str::to_owned).collect(),
            main_file: embedded.main_file().to_owned(),
            ..Self::default()
        }
    }
}

impl Options {
    /// The strict rules (the same as [`Options::default`]).
    pub fn strict() -> Self {
        Self::default()
    }

    /// What Claude Code accepts: the strict rules, plus its extra top-level
    /// keys ([`CLAUDE_CODE_FIELDS`]) and `allowed-tools` as a list.
    pub fn claude_code() -> Self {
        Self {
            allow_fields: CLAUDE_CODE_FIELDS.iter().map(|f| (*f).to_owned()).collect(),
            allowed_tools_list: true,
            ..Self::default()
        }
    }

    /// What an agent that ignores unknown frontmatter keys accepts (OpenCode
    /// documents it; Codex and Gemini CLI read only the keys they know): any
    /// top-level key, and `allowed-tools` as a list.
    pub fn any_fields() -> Self {
        Self {
            allow_unknown_fields: true,
            allowed_tools_list: true,
            ..Self::default()
        }
    }

    /// The same options with symbolic links right below the root followed,
    /// as an agent's own folder needs ([`follow_top_level_links`](Self::follow_top_level_links)).
    pub fn following_top_level_links(mut self) -> Self {
        self.follow_top_level_links = true;
        self
    }

    /// [`main_file`](Self::main_file) for the tables, which hold `&'static
    /// str`: `SKILL.md` itself, or the name kept for the life of the
    /// program (once per distinct name, however many loads use it).
    pub(crate) fn main_file_static(&self) -> &'static str {
        use std::collections::BTreeSet;
        use std::sync::{Mutex, PoisonError};
        static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
        if self.main_file == crate::SKILL_MD {
            return crate::SKILL_MD;
        }
        let mut names = NAMES.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(name) = names.get(self.main_file.as_str()) {
            return name;
        }
        let name: &'static str = Box::leak(self.main_file.clone().into_boxed_str());
        names.insert(name);
        name
    }

    /// Whether a top-level key outside the specification is accepted.
    pub(crate) fn accepts_field(&self, key: &str) -> bool {
        self.allow_unknown_fields || self.allow_fields.iter().any(|allowed| allowed == key)
    }

    /// Whether the value at `path` (keys from the top, `[n]` for list items)
    /// must be a string under the rules: the YAML reader's hints then offer
    /// only quoting. The same under every option today.
    pub(crate) fn must_be_string(&self, path: &[String]) -> bool {
        match path {
            [field] => matches!(
                field.as_str(),
                "name" | "description" | "license" | "compatibility" | "allowed-tools"
            ),
            // `metadata.internal` may be the boolean the `skills` CLI reads.
            [field, key] => (field == "metadata" && key != "internal") || field == "allowed-tools",
            _ => false,
        }
    }
}
