//! The text for the system prompt: one block per skill offered, within the
//! host's budget ([`budget`](super::budget)).

use super::HostCatalog;
use super::budget::{self, CatalogContext, Described};

/// Longest description in a context block, in characters, before it is cut
/// at a word with `…`: with the name and dependencies that keeps a block
/// near 50–100 tokens.
pub const DEFAULT_DESCRIPTION_CHARS: usize = 300;

impl HostCatalog {
    /// The text for the system prompt and what the budget did to it: one
    /// block per skill offered, `name: description (requires: a, b)`, the
    /// description cut at a word to [`DEFAULT_DESCRIPTION_CHARS`] (or
    /// [`description_chars`](Self::description_chars)), all within the
    /// [`context_budget`](Self::context_budget) if one is set.
    pub fn context(&self) -> CatalogContext {
        let hooks = self.hooks();
        let chars = hooks.description_chars.unwrap_or(DEFAULT_DESCRIPTION_CHARS);
        let skills = self.offered();
        let described: Vec<Described<'_>> = skills
            .iter()
            .map(|skill| Described {
                name: &skill.name,
                description: &skill.description,
                dependencies: &skill.dependencies,
            })
            .collect();
        budget::fit(&described, chars, hooks.budget.as_ref())
    }

    /// One short text per skill for the system prompt:
    /// `name: description (requires: a, b)` — the blocks of
    /// [`context`](Self::context), so only those the budget left in.
    pub fn context_blocks(&self) -> Vec<String> {
        self.context().blocks
    }

    /// The context blocks as one preamble section (the text of
    /// [`context`](Self::context)), within the budget if one is set.
    pub fn preamble(&self) -> String {
        self.context().text
    }
}
