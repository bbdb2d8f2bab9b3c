//! One constructor of a checked skill: the loader builds every skill of a
//! folder with it and `add_files` rebuilds a skill with it, so a skill's URI
//! and version (its revision, as fast-agent computes it) are computed here
//! and nowhere else.

use std::borrow::Cow;

use crate::{SKILL_MD, digest, uri};
use crate::{Skill, SkillFile};

/// What a skill whose `SKILL.md` and files passed the rules is made of.
pub(crate) struct CheckedSkill {
    pub name: String,
    pub description: String,
    /// The skill's folder, `/`-separated, relative to the root.
    pub path: String,
    /// Every field but `name` and `description`, as JSON.
    pub extra_json: String,
    /// Where the body starts in `SKILL.md`.
    pub body_offset: usize,
    /// Every file of the skill, `SKILL.md` included.
    pub files: Vec<SkillFile>,
}

impl CheckedSkill {
    /// The skill: its URI from its path, its version from every file's
    /// URI, digest and size.
    pub(crate) fn build(self) -> Skill {
        let items: Vec<(String, String, u64)> = self
            .files
            .iter()
            .map(|file| {
                (
                    uri::for_file(&self.path, file.path()),
                    file.digest().to_string(),
                    file.size(),
                )
            })
            .collect();
        let version = digest::revision(
            items
                .iter()
                .map(|(file_uri, digest, size)| (file_uri.as_str(), digest.as_str(), *size)),
        );
        let uri = uri::for_file(&self.path, SKILL_MD);
        Skill::from_parts(
            Cow::Owned(self.name),
            Cow::Owned(self.description),
            Cow::Owned(self.path),
            Cow::Owned(uri),
            Cow::Owned(self.extra_json),
            Cow::Owned(version),
            self.body_offset,
            Cow::Owned(self.files),
        )
    }
}
