//! What each pinned real reader of Agent Skills does with a skill our rules
//! accept: the `skills` CLI on npm, the reference validator (skills-ref),
//! FastMCP's skills provider, rmcp's `SkillCatalog`, and fast-agent (a host
//! that reads frontmatter with PyYAML).
//!
//! Our rules are stricter than any reader's in most places, so a skill that
//! passes them usually reads the same everywhere. Not always: the options
//! authors use (`allow_fields`, an agent's rule profile, a main file with
//! another name), hidden files (which skills-runtime never serves but some
//! readers do), nesting and layout make some readers refuse a skill, skip
//! it, or change what they show. `predict` (feature `load`) says which, per skill and
//! reader, with the reader's version and its reason in an author's words.
//!
//! The readers and their rules are data ([`READERS`], [`RULES`]), each rule
//! citing the file and line of the pinned reader's source that does it;
//! `skills check` prints the verdicts, `embed_skills!` warns with them, and
//! a differential test runs every pinned reader itself on an edge corpus
//! and asserts our verdicts equal what each reader did.
//!
//! ```
//! # let root = std::env::temp_dir().join(format!("skills-core-doc-readers-{}", std::process::id()));
//! # let _ = std::fs::remove_dir_all(&root);
//! # std::fs::create_dir_all(root.join("pdf")).unwrap();
//! # std::fs::write(root.join("pdf/SKILL.md"),
//! #     "---\nname: pdf\ndescription: Fills PDF forms.\nmetadata:\n  internal: true\n---\n").unwrap();
//! use skills_core::readers::{self, Verdict};
//! use skills_core::{Options, load};
//!
//! let loaded = load(&root, &Options::default()).unwrap();
//! let verdicts = readers::predict(&loaded);
//! let cli = &verdicts[0].readers[0];
//! assert_eq!(cli.reader.label(), "skills-cli@1.7.4");
//! assert_eq!(cli.verdict, Verdict::Skip);
//! assert!(cli.why().contains("INSTALL_INTERNAL_SKILLS"));
//! // FastMCP and rmcp read it as written; skills-ref and fast-agent read the
//! // flag as text (`"true"`, `"True"`).
//! let others: Vec<Verdict> = verdicts[0].readers[1..].iter().map(|r| r.verdict).collect();
//! assert_eq!(others, [Verdict::Alter, Verdict::Accept, Verdict::Accept, Verdict::Alter]);
//! # std::fs::remove_dir_all(&root).unwrap();
//! ```

#[cfg(feature = "load")]
mod facts;
mod index;
#[cfg(feature = "load")]
mod predict;
mod table;

use std::fmt;

pub use index::{index_entry_problem, is_internal};
#[cfg(feature = "load")]
pub use predict::predict;
pub use table::{
    FAST_AGENT, FASTMCP, READERS, RMCP, RULES, Reader, ReaderRule, SKILLS_CLI, SKILLS_REF,
};

/// What a reader does with a skill, from best to worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// It reads the skill as skills-runtime serves it.
    Accept,
    /// It reads the skill, but shows something else: a value read as
    /// another type or text, a file left out or added.
    Alter,
    /// It leaves the skill out without an error (not found, hidden, dropped).
    Skip,
    /// It reports the skill as invalid.
    Refuse,
}

impl Verdict {
    /// `accept`, `alter`, `skip` or `refuse`, as JSON output spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Accept => "accept",
            Self::Alter => "alter",
            Self::Skip => "skip",
            Self::Refuse => "refuse",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One rule of a reader that applies to a skill, and what it does there.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Finding {
    /// The rule.
    pub rule: &'static ReaderRule,
    /// What the reader does here (a rule that usually alters may refuse).
    pub verdict: Verdict,
    /// What the reader does with this skill, in an author's words, without
    /// the reader's name (`skips this skill: …`); control characters in the
    /// names it quotes are escaped ([`printable`](crate::printable)).
    pub why: String,
}

/// What one reader does with one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReaderVerdict {
    /// The reader.
    pub reader: &'static Reader,
    /// The worst of its findings' verdicts; [`Verdict::Accept`] without any.
    pub verdict: Verdict,
    /// Every rule of the reader that applies, worst first.
    pub findings: Vec<Finding>,
}

impl ReaderVerdict {
    /// The reason, in an author's words, beginning with the reader and its
    /// version: "`npx skills add` (1.7.4) hides this skill: …".
    pub fn why(&self) -> String {
        let who = self.reader.speaker;
        if self.findings.is_empty() {
            return format!("{who} reads it as skills-runtime serves it");
        }
        let reasons: Vec<&str> = self
            .findings
            .iter()
            .map(|finding| finding.why.as_str())
            .collect();
        format!("{who} {}", reasons.join("; it "))
    }
}

/// Every reader's verdict on one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SkillVerdicts {
    /// The skill's path (as in its URI).
    pub skill: String,
    /// Its main file, relative to the root it was loaded from (the place
    /// messages point at).
    pub file: String,
    /// One verdict per reader, in [`READERS`] order.
    pub readers: Vec<ReaderVerdict>,
}

impl SkillVerdicts {
    /// Whether every reader reads the skill as skills-runtime serves it.
    pub fn all_accept(&self) -> bool {
        self.readers
            .iter()
            .all(|reader| reader.verdict == Verdict::Accept)
    }

    /// The verdicts that are not [`Verdict::Accept`].
    pub fn concerns(&self) -> impl Iterator<Item = &ReaderVerdict> + '_ {
        self.readers
            .iter()
            .filter(|reader| reader.verdict != Verdict::Accept)
    }
}
