//! Which skill a FastMCP `skill://<path>/_manifest` URI lists (the format
//! itself, and Figma's `skill://index.json`, are in [`crate::protocol`]).

use crate::protocol::MANIFEST_SEGMENT;
use crate::{Skill, Skills};

/// The skill whose manifest `canonical_uri` is, if it is one.
pub(super) fn manifest_owner<'s>(skills: &'s Skills, canonical_uri: &str) -> Option<&'s Skill> {
    let root = canonical_uri
        .strip_suffix(MANIFEST_SEGMENT)?
        .strip_suffix('/')?;
    let skill = skills.get(&skills_core::uri::decoded_path(root)?)?;
    // A real file named `_manifest` wins over the generated listing.
    skill.file(MANIFEST_SEGMENT).is_none().then_some(skill)
}
