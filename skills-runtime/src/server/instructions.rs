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

/// Where hosts cut instructions (Claude Code: 2,048 characters per server).
pub const DEFAULT_BUDGET: usize = 2048;

/// Descriptions are never cut below this many characters; below it, lines
/// carry the URI only.
pub const MIN_DESCRIPTION: usize = 40;

/// The instructions text: `own` first, then the skills block.
pub fn build(own: Option<&str>, skills: &[&Skill], tool: Option<&str>, budget: usize) -> String {
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

    let full: Vec<String> = skills.iter().map(|skill| line(skill, None)).collect();
    if fits(&full, room) {
        return head + &full.concat();
    }
    let fixed: usize = skills
        .iter()
        .map(|skill| line(skill, Some(0)).chars().count())
        .sum();
    let share = room.saturating_sub(fixed) / skills.len();
    if share >= MIN_DESCRIPTION {
        let shortened: Vec<String> = skills
            .iter()
            .map(|skill| line(skill, Some(share)))
            .collect();
        if fits(&shortened, room) {
            return head + &shortened.concat();
        }
    }
    let mut text = head;
    let mut left = room;
    for (index, skill) in skills.iter().enumerate() {
        let remaining = skills.len() - index;
        let entry = format!("- {}\n", skill.uri());
        let tail = more_line(remaining - 1);
        let needed = entry.chars().count()
            + if remaining > 1 {
                tail.chars().count()
            } else {
                0
            };
        if needed > left {
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

/// `- <uri>: <description>`, the description cut to `limit` characters.
fn line(skill: &Skill, limit: Option<usize>) -> String {
    let description = skill
        .description()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let description = match limit {
        None => description,
        Some(0) => String::new(),
        Some(limit) if description.chars().count() > limit => {
            let cut: String = description.chars().take(limit.saturating_sub(1)).collect();
            format!("{}…", cut.trim_end())
        }
        Some(_) => description,
    };
    format!("- {}: {description}\n", skill.uri())
}

fn fits(lines: &[String], room: usize) -> bool {
    lines.iter().map(|line| line.chars().count()).sum::<usize>() <= room
}

/// The sentence an author puts in the description of a tool that needs the
/// skill `skill` loaded first.
pub fn tool_hint(skill: &Skill, tool: Option<&str>) -> String {
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
