//! Server instructions that tell a host which skills exist and when to load
//! them. Hosts that cannot list skills still show instructions to the model,
//! but Claude Code cuts them at 2,048 characters per server, so the block is
//! built to fit a budget.
//!
//! Overflow rule, applied in order until the text fits `budget` characters:
//! 1. the author's instructions, then one line per skill with its URI and
//!    full description;
//! 2. the same, with every description shortened to an equal share of the
//!    space left (at least [`MIN_DESCRIPTION`] characters, ending in `…`);
//! 3. one line per skill with its URI only, as many as fit, then a line
//!    saying how many more there are and where to find them.
//!
//! The author's own instructions always come first and are never shortened.

use crate::Skill;

/// One skill as the instructions name it: its URI, and what it is for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Named<'a> {
    /// The URI of its `SKILL.md`.
    pub uri: &'a str,
    /// When to load it: the author's load hint, else its description.
    pub description: &'a str,
}

/// Where hosts cut instructions (Claude Code: 2,048 characters per server).
pub const DEFAULT_BUDGET: usize = 2048;

/// Descriptions are never cut below this many characters; below it, lines
/// carry the URI only.
pub(super) const MIN_DESCRIPTION: usize = 40;

/// The instructions text: `own` first, then the skills block.
pub(super) fn build(
    own: Option<&str>,
    skills: &[Named<'_>],
    tool: Option<&str>,
    budget: usize,
) -> String {
    let mut head = String::new();
    if let Some(own) = own.filter(|own| !own.trim().is_empty()) {
        head.push_str(own.trim_end());
        head.push_str("\n\n");
    }
    if skills.is_empty() {
        return head.trim_end().to_owned();
    }
    head.push_str(
        "This server provides Agent Skills: instructions to read before a task that matches them. \
         Before such a task, read the skill's SKILL.md resource",
    );
    if let Some(tool) = tool {
        head.push_str(&format!(" (or call the `{tool}` tool with its URI)"));
    }
    head.push_str(", then the files it points to.\n");
    let used = head.chars().count();
    let room = budget.saturating_sub(used);
    // `- <uri>: ` and the line break, per skill.
    let fixed: usize = skills
        .iter()
        .map(|skill| skill.uri.chars().count() + 5)
        .sum();

    // 1. Full descriptions, if their total fits (counting stops once it cannot).
    let mut total = fixed;
    let fits_in_full = skills.iter().all(|skill| {
        total += collapsed(skill.description).count();
        total <= room
    });
    if fits_in_full {
        return head + &lines(skills, usize::MAX);
    }
    // 2. Every description cut to an equal share of the room left.
    let share = room.saturating_sub(fixed) / skills.len();
    if share >= MIN_DESCRIPTION {
        return head + &lines(skills, share);
    }
    // 3. URIs only, as many as fit, then how many more there are.
    let mut text = head;
    let mut left = room;
    for (index, skill) in skills.iter().enumerate() {
        let remaining = skills.len() - index;
        let entry = format!("- {}\n", skill.uri);
        let tail = if remaining > 1 {
            more_line(remaining - 1).chars().count()
        } else {
            0
        };
        if entry.chars().count() + tail > left {
            text.push_str(&more_line(remaining));
            break;
        }
        left -= entry.chars().count();
        text.push_str(&entry);
    }
    text
}

fn more_line(count: usize) -> String {
    format!("- …and {count} more: list them with skills/list or resources/list.\n")
}

/// One `- <uri>: <description>` line per skill, each description cut to
/// `limit` characters (the last one a `…`).
fn lines(skills: &[Named<'_>], limit: usize) -> String {
    let mut out = String::new();
    for skill in skills {
        out.push_str("- ");
        out.push_str(skill.uri);
        out.push_str(": ");
        let mut description = collapsed(skill.description);
        let mut taken = 0;
        while let Some(c) = description.next() {
            if taken + 1 == limit && description.clone().next().is_some() {
                // Cut here, dropping a space the cut would leave before the ellipsis.
                if out.ends_with(' ') {
                    out.pop();
                }
                out.push('…');
                break;
            }
            out.push(c);
            taken += 1;
        }
        out.push('\n');
    }
    out
}

/// `text` with each run of whitespace as one space and none at either end.
fn collapsed(text: &str) -> impl Iterator<Item = char> + Clone + '_ {
    text.split_whitespace()
        .enumerate()
        .flat_map(|(index, word)| (index > 0).then_some(' ').into_iter().chain(word.chars()))
}

/// The sentence an author puts in the description of a tool that needs the
/// skill `skill` loaded first.
pub(super) fn tool_hint(skill: &Skill, tool: Option<&str>) -> String {
    let mut hint = format!(
        "Before calling this tool, load the `{}` skill: read the resource {}",
        skill.name(),
        skill.uri()
    );
    if let Some(tool) = tool {
        hint.push_str(&format!(" (or call `{tool}` with that URI)"));
    }
    hint.push_str(" and follow it.");
    hint
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    fn skill(name: &str, description: &str) -> Skill {
        Skill::from_parts(
            Cow::Owned(name.to_owned()),
            Cow::Owned(description.to_owned()),
            Cow::Owned(name.to_owned()),
            Cow::Owned(format!("skill://{name}/SKILL.md")),
            Cow::Borrowed("{}"),
            Cow::Borrowed("sha256:0"),
            0,
            Cow::Borrowed(&[]),
        )
    }

    fn named(skills: &[Skill]) -> Vec<Named<'_>> {
        skills
            .iter()
            .map(|skill| Named {
                uri: skill.uri(),
                description: skill.description(),
            })
            .collect()
    }

    #[test]
    fn full_descriptions_when_they_fit() {
        let skills = [
            skill("a", "Does  a.\n Use when asked."),
            skill("b", "Does b."),
        ];
        let refs = named(&skills);
        let text = build(Some("Mine."), &refs, Some("read_skill"), 2048);
        assert!(
            text.starts_with("Mine.\n\nThis server provides Agent Skills"),
            "{text}"
        );
        assert!(text.contains("(or call the `read_skill` tool with its URI)"));
        assert!(
            text.ends_with(
                "- skill://a/SKILL.md: Does a. Use when asked.\n- skill://b/SKILL.md: Does b.\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn descriptions_shrink_to_an_equal_share() {
        let long = "word ".repeat(100);
        let skills: Vec<Skill> = (0..4).map(|n| skill(&format!("s{n}"), &long)).collect();
        let refs = named(&skills);
        let text = build(None, &refs, None, 1000);
        assert!(
            text.chars().count() <= 1000,
            "{} characters",
            text.chars().count()
        );
        assert_eq!(text.matches('…').count(), 4, "{text}");
        assert!(!text.contains(" …"), "no space before the ellipsis: {text}");
    }

    #[test]
    fn uris_only_then_a_count_of_the_rest() {
        let skills: Vec<Skill> = (0..100)
            .map(|n| skill(&format!("skill-{n:03}"), "A skill."))
            .collect();
        let refs = named(&skills);
        let text = build(None, &refs, None, 600);
        assert!(
            text.chars().count() <= 600,
            "{} characters",
            text.chars().count()
        );
        assert!(text.contains("- skill://skill-000/SKILL.md\n"));
        let listed = text.matches("/SKILL.md\n").count();
        assert!(
            text.ends_with(&format!(
                "- …and {} more: list them with skills/list or resources/list.\n",
                100 - listed
            )),
            "{text}"
        );
        assert_eq!(build(Some("Only mine."), &[], None, 2048), "Only mine.");
    }
}
