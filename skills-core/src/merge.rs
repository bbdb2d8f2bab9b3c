//! One set from several: what a server that serves the skill packs of
//! several crates builds at start-up. Here rather than beside [`Skills`]
//! (skills-tables) because it hashes: the tables stay free of SHA-256, so
//! a binary that only embeds skills links no hashing code.

use std::borrow::Cow;
use std::fmt;

use crate::{Skill, Skills};

/// One set holding the skills of several: what a server that serves the
/// packs of several crates builds at start-up.
///
/// A crate ships a pack as a public static
/// (`pub static SKILLS: Skills = embed_skills!("skills");`); a server
/// merges the packs it depends on, its own set first:
///
/// ```
/// use skills_core::{Skills, merge_skills};
/// # let (own, pdf_pack, billing_pack) = (Skills::empty(), Skills::empty(), Skills::empty());
/// // static SKILLS: Skills = embed_skills!("skills");   // the server's own
/// // use pdf_pack::SKILLS as PDF; use billing_pack::SKILLS as BILLING;
/// let all = merge_skills([&own, &pdf_pack, &billing_pack])?;
/// # assert!(all.is_empty());
/// # Ok::<(), skills_core::MergeError>(())
/// ```
///
/// Hosts key skills by name and URIs name a skill by its path, so two
/// sets may not share a skill name or path, nor hold one skill inside
/// another's folder: the error names both skills and the crates (name
/// and version) whose packs hold them. Nothing is read or hashed again;
/// the merged set borrows nothing new, and its fingerprint is the one a
/// single set holding every skill would have. It introduces itself as
/// the first set's crate ([`Skills::package`]).
pub fn merge_skills<'s>(sets: impl IntoIterator<Item = &'s Skills>) -> Result<Skills, MergeError> {
    let sets: Vec<&Skills> = sets.into_iter().collect();
    let mut merged: Vec<(usize, &Skill)> = Vec::new();
    for (index, set) in sets.iter().enumerate() {
        for skill in set.skills() {
            let clash = merged.iter().find(|(_, other)| {
                other.name() == skill.name()
                    || crate::relpath::is_within(other.path(), skill.path())
                    || crate::relpath::is_within(skill.path(), other.path())
            });
            if let Some((first, other)) = clash {
                return Err(MergeError {
                    skills: Box::new([
                        PackSkill::new(sets[*first], *first, other),
                        PackSkill::new(set, index, skill),
                    ]),
                });
            }
            merged.push((index, skill));
        }
    }
    let mut skills: Vec<Skill> = merged.into_iter().map(|(_, skill)| skill.clone()).collect();
    skills.sort_by(|a, b| a.path().cmp(b.path()));
    let fingerprint =
        crate::digest::fingerprint(skills.iter().map(|skill| (skill.uri(), skill.version())));
    let package = sets
        .first()
        .and_then(|set| set.package())
        .map(|(name, version)| (Cow::Owned(name.to_owned()), Cow::Owned(version.to_owned())));
    Ok(Skills::from_parts(
        Cow::Owned(skills),
        Cow::Owned(fingerprint),
        package,
    ))
}

/// Two sets given to [`merge_skills`] that cannot be served together: a
/// skill name (or path) both hold, or a skill of one inside a skill's
/// folder of the other. Its [`Display`](fmt::Display) names both skills
/// and the packs they come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError {
    /// The skill of the earlier set, then the later one (boxed: errors stay small).
    skills: Box<[PackSkill; 2]>,
}

/// A skill in one of the sets given to [`merge_skills`].
#[derive(Debug, Clone, PartialEq, Eq)]
struct PackSkill {
    /// `` `pdf-pack` 0.2.0 ``, or the set's position when no crate is recorded.
    pack: String,
    name: String,
    path: String,
}

impl PackSkill {
    fn new(set: &Skills, index: usize, skill: &Skill) -> Self {
        let pack = match set.package() {
            Some((name, version)) => format!("the pack `{name}` {version}"),
            None => format!("set {} (no crate recorded)", index + 1),
        };
        Self {
            pack,
            name: skill.name().to_owned(),
            path: skill.path().to_owned(),
        }
    }
}

impl MergeError {
    /// The name of the skill in the earlier set.
    pub fn first_name(&self) -> &str {
        &self.skills[0].name
    }

    /// The name of the skill in the later set.
    pub fn second_name(&self) -> &str {
        &self.skills[1].name
    }
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [first, second] = &*self.skills;
        if first.name == second.name {
            write!(
                f,
                "two packs provide a skill named `{}`: {} (at `{}`) and {} (at `{}`); hosts key skills by name, so rename one of them or leave one pack out",
                first.name, first.pack, first.path, second.pack, second.path
            )
        } else {
            let (outer, inner) = if crate::relpath::is_within(&second.path, &first.path) {
                (first, second)
            } else {
                (second, first)
            };
            write!(
                f,
                "the skill `{}` of {} lies inside the folder of the skill `{}` of {}, so their URIs would overlap; move one of them",
                inner.path, inner.pack, outer.path, outer.pack
            )
        }
    }
}

impl std::error::Error for MergeError {}
