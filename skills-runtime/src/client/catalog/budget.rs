//! A size limit for the catalog's system-prompt text: descriptions are
//! shortened first, then skills are left out (the text says how many, and
//! `load_skill` still takes every name).

use std::fmt;
use std::sync::Arc;

use serde::Serialize;

/// The tool the text points to (`client::LOAD_SKILL`; not imported, so that
/// this module stays a leaf the catalog uses).
const LOAD_SKILL: &str = "load_skill";

/// The shortest a description is cut to before skills are left out, in
/// characters: about eight words, enough to say what a skill is for. Below
/// that a block would say little more than the name, which `load_skill`'s
/// list of names already carries.
pub const MIN_DESCRIPTION_CHARS: usize = 40;

/// How big the catalog's system-prompt text may be
/// ([`HostCatalog::context_budget`](super::HostCatalog::context_budget)).
///
/// - [`chars`](Self::chars): Unicode scalar values, exact.
/// - [`tokens`](Self::tokens): an estimate, one token per four characters
///   (rounded up), the usual rule of thumb for English text with the
///   GPT and Claude tokenizers; skill descriptions are English prose as a
///   rule, but code, URLs or other languages take more tokens per character.
/// - [`counted_by`](Self::counted_by): the host's own counter (its model's
///   tokenizer), for an exact token limit.
#[derive(Clone)]
pub struct ContextBudget {
    limit: usize,
    unit: Unit,
}

#[derive(Clone)]
enum Unit {
    Chars,
    Tokens,
    Counted(Arc<dyn Fn(&str) -> usize + Send + Sync>),
}

impl fmt::Debug for ContextBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = match self.unit {
            Unit::Chars => "chars",
            Unit::Tokens => "tokens (estimated, 4 chars each)",
            Unit::Counted(_) => "counted by the host",
        };
        write!(f, "ContextBudget({} {unit})", self.limit)
    }
}

impl ContextBudget {
    /// At most `limit` characters.
    pub fn chars(limit: usize) -> Self {
        Self {
            limit,
            unit: Unit::Chars,
        }
    }

    /// At most about `limit` tokens, estimated as a quarter of the
    /// characters, rounded up.
    pub fn tokens(limit: usize) -> Self {
        Self {
            limit,
            unit: Unit::Tokens,
        }
    }

    /// At most `limit` as `count` measures a text (a tokenizer's count, say).
    /// `count` must not shrink when a text grows.
    pub fn counted_by(limit: usize, count: impl Fn(&str) -> usize + Send + Sync + 'static) -> Self {
        Self {
            limit,
            unit: Unit::Counted(Arc::new(count)),
        }
    }

    /// The limit, in the budget's unit.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The size of `text` in the budget's unit.
    pub fn measure(&self, text: &str) -> usize {
        match &self.unit {
            Unit::Chars => text.chars().count(),
            Unit::Tokens => text.chars().count().div_ceil(4),
            Unit::Counted(count) => count(text),
        }
    }

    /// Whether `text` fits.
    pub fn fits(&self, text: &str) -> bool {
        self.measure(text) <= self.limit
    }
}

/// The catalog's text for the system prompt, with what the budget did to it
/// ([`HostCatalog::context`](super::HostCatalog::context)).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct CatalogContext {
    /// The section for the system prompt (empty when no skill is offered,
    /// or when the budget cannot hold even the line that points to
    /// `load_skill`).
    pub text: String,
    /// The blocks in it, one per skill described: `name: description
    /// (requires: a, b)`.
    pub blocks: Vec<String>,
    /// The length descriptions were cut to, in characters.
    pub description_chars: usize,
    /// The skills offered but not described, sorted by name: the model can
    /// still load them by name.
    pub left_out: Vec<String>,
}

/// A skill as its block shows it.
pub(crate) struct Described<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub dependencies: &'a [String],
}

/// The context for `skills` (sorted by name), descriptions cut to `chars`,
/// within `budget` if there is one.
pub(crate) fn fit(
    skills: &[Described<'_>],
    chars: usize,
    budget: Option<&ContextBudget>,
) -> CatalogContext {
    let full = render(skills, chars, skills.len());
    let Some(budget) = budget else {
        return full;
    };
    if budget.fits(&full.text) {
        return full;
    }
    // Shorten every description to the longest cut that fits, no shorter
    // than the floor (only descriptions longer than the cut change).
    let floor = MIN_DESCRIPTION_CHARS.min(chars);
    let at_floor = render(skills, floor, skills.len());
    if budget.fits(&at_floor.text) {
        let (mut low, mut high) = (floor, chars);
        while low + 1 < high {
            let middle = low + (high - low) / 2;
            if budget.fits(&render(skills, middle, skills.len()).text) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return render(skills, low, skills.len());
    }
    // Then leave skills out, from the end of the name order: the most that
    // fit with descriptions at the floor.
    let (mut low, mut high) = (0, skills.len());
    while low + 1 < high {
        let middle = low + (high - low) / 2;
        if budget.fits(&render(skills, floor, middle).text) {
            low = middle;
        } else {
            high = middle;
        }
    }
    let kept = render(skills, floor, low);
    if budget.fits(&kept.text) {
        return kept;
    }
    CatalogContext {
        text: String::new(),
        blocks: Vec::new(),
        description_chars: floor,
        left_out: skills.iter().map(|skill| skill.name.to_owned()).collect(),
    }
}

/// The section describing the first `kept` skills, descriptions cut to
/// `chars`, and saying how to reach the others.
fn render(skills: &[Described<'_>], chars: usize, kept: usize) -> CatalogContext {
    let blocks: Vec<String> = skills[..kept]
        .iter()
        .map(|skill| {
            let mut block = format!("{}: {}", skill.name, shorten(skill.description, chars));
            if !skill.dependencies.is_empty() {
                block.push_str(&format!(" (requires: {})", skill.dependencies.join(", ")));
            }
            block
        })
        .collect();
    let left_out: Vec<String> = skills[kept..]
        .iter()
        .map(|skill| skill.name.to_owned())
        .collect();
    let mut text = String::new();
    if kept > 0 {
        text.push_str(&format!(
            "Skills you can load with `{LOAD_SKILL}` when a task needs one:\n"
        ));
        for block in &blocks {
            text.push_str("- ");
            text.push_str(block);
            text.push('\n');
        }
        match left_out.len() {
            0 => {}
            1 => text.push_str(&format!(
                "- 1 more skill is not described here, to save space: `{LOAD_SKILL}` takes its name.\n"
            )),
            more => text.push_str(&format!(
                "- {more} more skills are not described here, to save space: `{LOAD_SKILL}` takes any of their names.\n"
            )),
        }
    } else if !skills.is_empty() {
        text.push_str(&format!(
            "{} skills can be loaded with `{LOAD_SKILL}` when a task needs one, by name.\n",
            skills.len()
        ));
    }
    CatalogContext {
        text,
        blocks,
        description_chars: chars,
        left_out,
    }
}

/// `text` cut to `chars` characters at a word boundary, with `…`.
pub(crate) fn shorten(text: &str, chars: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= chars {
        return text;
    }
    let cut: String = text.chars().take(chars.saturating_sub(1)).collect();
    let cut = match cut.rfind(' ') {
        Some(space) if space > cut.len() / 2 => &cut[..space],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.', ' ']))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_are_cut_at_a_word() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("one two three four", 12), "one two…");
        assert_eq!(shorten("a\n  b", 10), "a b");
        assert_eq!(shorten("abcdefghijkl", 5), "abcd…");
        assert!(
            shorten(
                &"word ".repeat(200),
                super::super::DEFAULT_DESCRIPTION_CHARS
            )
            .chars()
            .count()
                <= super::super::DEFAULT_DESCRIPTION_CHARS
        );
    }

    fn skills(descriptions: &[String]) -> Vec<Described<'_>> {
        const NAMES: [&str; 4] = ["alpha", "bravo", "charlie", "delta"];
        descriptions
            .iter()
            .zip(NAMES)
            .map(|(description, name)| Described {
                name,
                description,
                dependencies: &[],
            })
            .collect()
    }

    #[test]
    fn descriptions_shrink_before_skills_go() {
        let long = vec!["word ".repeat(60); 4];
        let skills = skills(&long);
        let full = fit(&skills, 300, None);
        let budget = ContextBudget::chars(full.text.chars().count() / 2);
        let shortened = fit(&skills, 300, Some(&budget));
        assert!(budget.fits(&shortened.text));
        assert!(shortened.left_out.is_empty());
        assert!(shortened.description_chars < 300);
        assert!(shortened.description_chars >= MIN_DESCRIPTION_CHARS);
        // One more character would not have fitted.
        let wider = render(&skills, shortened.description_chars + 1, 4);
        assert!(!budget.fits(&wider.text));

        // Room for one block at the floor and the line about the others.
        let one = render(&skills, MIN_DESCRIPTION_CHARS, 1)
            .text
            .chars()
            .count();
        let tight = ContextBudget::chars(one);
        let fewer = fit(&skills, 300, Some(&tight));
        assert!(tight.fits(&fewer.text), "{}", fewer.text);
        assert_eq!(fewer.description_chars, MIN_DESCRIPTION_CHARS);
        assert_eq!(fewer.blocks.len() + fewer.left_out.len(), 4);
        assert!(!fewer.left_out.is_empty() && !fewer.blocks.is_empty());
        assert!(fewer.text.contains(&format!(
            "{} more skills are not described here",
            fewer.left_out.len()
        )));

        let tiny = ContextBudget::chars(10);
        let none = fit(&skills, 300, Some(&tiny));
        assert_eq!(none.text, "");
        assert_eq!(none.left_out.len(), 4);
    }

    #[test]
    fn the_text_names_the_catalogs_tool() {
        assert_eq!(LOAD_SKILL, crate::client::LOAD_SKILL);
    }

    #[test]
    fn tokens_are_estimated_at_four_characters() {
        let budget = ContextBudget::tokens(2);
        assert_eq!(budget.measure("abcdefgh"), 2);
        assert_eq!(budget.measure("abcdefghi"), 3);
        let counted = ContextBudget::counted_by(3, |text| text.split_whitespace().count());
        assert!(counted.fits("a b c"));
        assert!(!counted.fits("a b c d"));
    }
}
