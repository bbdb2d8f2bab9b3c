//! The readers and their rules, as data: which program, which version, what
//! it does with a skill that passed our rules, and where in its pinned
//! source it does it. [`predict`](super::predict) applies them; the guide's
//! reader table and the differential test (which runs every reader itself)
//! are built from the same rows.

use super::Verdict;

/// A real program that reads Agent Skills, pinned at one version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Reader {
    /// Its id in reports (`skills-cli`).
    pub id: &'static str,
    /// The pinned version (`1.7.4`): what `.ci/run` installs and the
    /// differential test runs.
    pub version: &'static str,
    /// How an author knows it (`` `npx skills add` ``).
    pub title: &'static str,
    /// How a reason names it, with its version (`` `npx skills add` (1.7.4) ``).
    pub speaker: &'static str,
    /// The package it ships in, and from where (`skills on npm`).
    pub package: &'static str,
    /// What the prediction assumes it is given.
    pub reads: &'static str,
}

impl Reader {
    /// `id@version`, as reports name it (`skills-cli@1.7.4`).
    pub fn label(&self) -> String {
        format!("{}@{}", self.id, self.version)
    }

    /// The reader with this id.
    pub fn by_id(id: &str) -> Option<&'static Reader> {
        READERS.iter().find(|reader| reader.id == id)
    }

    /// Its rules, in table order.
    pub fn rules(&self) -> impl Iterator<Item = &'static ReaderRule> + '_ {
        RULES.iter().filter(move |rule| rule.reader == self.id)
    }
}

/// The `skills` CLI on npm (vercel-labs/skills).
pub const SKILLS_CLI: Reader = Reader {
    id: "skills-cli",
    version: "1.7.4",
    title: "`npx skills add`",
    speaker: "`npx skills add` (1.7.4)",
    package: "skills on npm",
    reads: "the skills folder as `skills/` of a repository (`npx skills add <repository or path>`), and a skills-runtime server's well-known index (`npx skills add <URL>`)",
};

/// The reference validator (agentskills/agentskills), whose command is `agentskills`.
pub const SKILLS_REF: Reader = Reader {
    id: "skills-ref",
    version: "0.1.1",
    title: "`agentskills validate`",
    speaker: "`agentskills validate` (skills-ref 0.1.1)",
    package: "skills-ref on PyPI",
    reads: "each skill folder (`agentskills validate <folder>`, and `read-properties` for what it shows)",
};

/// FastMCP's SEP-2640 skills provider.
pub const FASTMCP: Reader = Reader {
    id: "fastmcp",
    version: "4.2.3",
    title: "FastMCP's `SkillsDirectoryProvider`",
    speaker: "FastMCP 4.2.3's `SkillsDirectoryProvider`",
    package: "fastmcp on PyPI",
    reads: "the skills folder (`SkillsDirectoryProvider(folder)`)",
};

/// rmcp's run-time skills loader.
pub const RMCP: Reader = Reader {
    id: "rmcp",
    version: "3.11.0",
    title: "rmcp's `SkillCatalog`",
    speaker: "rmcp 3.11.0's `SkillCatalog`",
    package: "rmcp on crates.io (feature `skills-fs`)",
    reads: "the skills folder (`SkillCatalog::from_dir(folder)`)",
};

/// fast-agent's skills registry: a host that reads frontmatter with PyYAML.
pub const FAST_AGENT: Reader = Reader {
    id: "fast-agent",
    version: "0.10.48",
    title: "fast-agent",
    speaker: "fast-agent (0.10.48)",
    package: "fast-agent-mcp on PyPI",
    reads: "the skills folder as its skills directory (`SkillRegistry`), frontmatter read with PyYAML (YAML 1.1)",
};

/// Every reader, in report order.
pub static READERS: [Reader; 5] = [SKILLS_CLI, SKILLS_REF, FASTMCP, RMCP, FAST_AGENT];

/// One behaviour of one reader that makes it refuse, skip or alter a skill
/// our rules accept, with where its pinned source does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReaderRule {
    /// The [`Reader::id`] it belongs to.
    pub reader: &'static str,
    /// Stable id (`skills-cli/internal`).
    pub id: &'static str,
    /// What the reader does when it applies.
    pub verdict: Verdict,
    /// When it applies and what happens, in one line.
    pub summary: &'static str,
    /// File and line in the pinned package.
    pub source: &'static str,
    /// Whether `embed_skills!` warns about it. Not where the finding is
    /// about where a host is pointed (a skill in a grouping folder, nested
    /// in another) or what the author asked for (`metadata.internal`, a main
    /// file with another name), which a build would repeat on every run;
    /// `skills check` shows every rule.
    pub in_build: bool,
}

impl ReaderRule {
    /// The rule with this id.
    pub fn by_id(id: &str) -> Option<&'static ReaderRule> {
        RULES.iter().find(|rule| rule.id == id)
    }
}

macro_rules! rule {
    ($reader:expr, $id:literal, $verdict:ident, $summary:literal, $source:literal) => {
        rule!($reader, $id, $verdict, $summary, $source, true)
    };
    ($reader:expr, $id:literal, $verdict:ident, $summary:literal, $source:literal, $in_build:literal) => {
        ReaderRule {
            reader: $reader.id,
            id: $id,
            verdict: Verdict::$verdict,
            summary: $summary,
            source: $source,
            in_build: $in_build,
        }
    };
}

/// Every rule, grouped by reader in [`READERS`] order.
pub static RULES: &[ReaderRule] = &[
    rule!(
        SKILLS_CLI,
        "skills-cli/main-file",
        Skip,
        "a folder without a file named `SKILL.md` is not a skill (from a repository; a skills-runtime server names the main file `SKILL.md`)",
        "dist/cli.mjs:1240",
        false
    ),
    rule!(
        SKILLS_CLI,
        "skills-cli/internal",
        Skip,
        "`metadata.internal: true` (the boolean) hides the skill unless `INSTALL_INTERNAL_SKILLS=1` or `--skill` names it",
        "dist/cli.mjs:1277, 3453",
        false
    ),
    rule!(
        SKILLS_CLI,
        "skills-cli/discovery",
        Skip,
        "in a repository it looks up to 3 folders deep under `skills/`, never inside a skill folder nor in folders named `node_modules`, `dist`, `build` or `__pycache__`, and deeper only when it finds no skill at all",
        "dist/cli.mjs:1188, 1361-1373",
        false
    ),
    rule!(
        SKILLS_CLI,
        "skills-cli/excluded-files",
        Alter,
        "it never copies files named `metadata.json`, nor `__pycache__` and `__pypackages__` folders",
        "dist/cli.mjs:2378-2388"
    ),
    rule!(
        SKILLS_CLI,
        "skills-cli/hidden-files",
        Alter,
        "it copies hidden files (`.env`, but not `.git`), which skills-runtime never serves",
        "dist/cli.mjs:2378-2388, 2401-2404"
    ),
    rule!(
        SKILLS_CLI,
        "skills-cli/sanitized",
        Alter,
        "it shows `name` and `description` without control characters and terminal escapes",
        "dist/cli.mjs:341-352, 1280"
    ),
    rule!(
        SKILLS_CLI,
        "skills-cli/index-description",
        Skip,
        "from a well-known index it skips an entry whose description is over 1,024 UTF-16 code units (a character outside the BMP, such as an emoji, counts twice)",
        "dist/cli.mjs:3286"
    ),
    rule!(
        SKILLS_REF,
        "skills-ref/main-file",
        Refuse,
        "a folder with neither `SKILL.md` nor `skill.md` is refused (`Missing required file: SKILL.md`)",
        "skills_ref/parser.py:23, skills_ref/validator.py:169",
        false
    ),
    rule!(
        SKILLS_REF,
        "skills-ref/fields",
        Refuse,
        "a top-level field outside name, description, license, compatibility, metadata and allowed-tools is refused",
        "skills_ref/validator.py:15, 104-115"
    ),
    rule!(
        SKILLS_REF,
        "skills-ref/flow-collection",
        Refuse,
        "its YAML reader, strictyaml, refuses flow collections (`{a: b}`, `[a, b]`)",
        "skills_ref/parser.py:53"
    ),
    rule!(
        SKILLS_REF,
        "skills-ref/tab",
        Refuse,
        "its YAML reader (strictyaml, on ruamel's scanner) refuses a tab outside quotes and block scalars: after a colon, inside or after an unquoted value",
        "strictyaml/ruamel/scanner.py:327, 1622-1626"
    ),
    rule!(
        SKILLS_REF,
        "skills-ref/text-values",
        Alter,
        "strictyaml reads every value as text: `metadata.internal: true` is shown as `\"true\"`",
        "skills_ref/parser.py:53-62",
        false
    ),
    rule!(
        SKILLS_REF,
        "skills-ref/dashes",
        Alter,
        "it ends the frontmatter at the first `---` in the text, even mid-line or inside a value: what follows is lost (refused when a required field goes with it)",
        "skills_ref/parser.py:45"
    ),
    rule!(
        FASTMCP,
        "fastmcp/main-file",
        Skip,
        "a folder without `SKILL.md` is not a skill",
        "fastmcp/skills/provider.py:418",
        false
    ),
    rule!(
        FASTMCP,
        "fastmcp/tab",
        Refuse,
        "its YAML reader is PyYAML's pure-Python `SafeLoader`, which refuses a tab outside quotes and block scalars (libyaml, which fast-agent and rmcp use, reads it); one refused folder stops the provider",
        "fastmcp/skills/_snapshot.py:19, 64; yaml/scanner.py:259, 1311-1317 (PyYAML 6.0.4)"
    ),
    rule!(
        FASTMCP,
        "fastmcp/nested",
        Skip,
        "its walk stops at a skill folder: a skill inside another is served only as files of the outer one",
        "fastmcp/skills/provider.py:418-420",
        false
    ),
    rule!(
        FASTMCP,
        "fastmcp/hidden-entries",
        Refuse,
        "it reads hidden files too, and refuses a skill holding a hidden symbolic link or special file; one refused folder stops the provider",
        "fastmcp/skills/_snapshot.py:90-98, fastmcp/skills/provider.py:332-338"
    ),
    rule!(
        FASTMCP,
        "fastmcp/limits",
        Refuse,
        "it counts hidden files toward its limits of 512 files and 16 MiB per skill; one refused folder stops the provider",
        "fastmcp/skills/skill.py:47-51, 283"
    ),
    rule!(
        FASTMCP,
        "fastmcp/hidden-files",
        Alter,
        "it serves hidden files (`.env`, `.git/…`), which skills-runtime never serves",
        "fastmcp/skills/_snapshot.py:90"
    ),
    rule!(
        RMCP,
        "rmcp/main-file",
        Skip,
        "a folder without `SKILL.md` is not a skill",
        "src/handler/server/skill_catalog.rs:305-309, 690-693",
        false
    ),
    rule!(
        FAST_AGENT,
        "fast-agent/main-file",
        Skip,
        "a folder without `SKILL.md` is not a skill",
        "fast_agent/skills/registry.py:175-177",
        false
    ),
    rule!(
        FAST_AGENT,
        "fast-agent/depth",
        Skip,
        "it reads only the folders right below its skills folder",
        "fast_agent/skills/registry.py:172-177",
        false
    ),
    rule!(
        FAST_AGENT,
        "fast-agent/allowed-tools-list",
        Alter,
        "it reads `allowed-tools` only as a space-separated string and drops a list",
        "fast_agent/skills/registry.py:251, 339-343"
    ),
    rule!(
        FAST_AGENT,
        "fast-agent/metadata-text",
        Alter,
        "it turns `metadata` values into text with Python's `str()` (`true` becomes `True`)",
        "fast_agent/skills/registry.py:250, 346-349",
        false
    ),
    rule!(
        FAST_AGENT,
        "fast-agent/other-fields",
        Alter,
        "it keeps only the specification's fields: any other top-level field (`disable-model-invocation`) is ignored",
        "fast_agent/skills/registry.py:25-36, 243-252"
    ),
];
