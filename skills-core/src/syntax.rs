//! YAML syntax errors in the words of the mistake, not of the parser.
//!
//! The parser says where it gave up and why in its own terms ("mapping
//! values are not allowed in this context", "could not find expected ':'").
//! Real frontmatter breaks in a few common shapes; each is recognised from
//! the lines around that place and explained with what to do: an unquoted
//! `: ` inside a value, a key indented more than its siblings, a long value
//! continued on a line that is not indented, a tab used for indentation, and
//! a quote that is never closed. Anything else keeps the parser's words.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Position};
use crate::rules::Rule;
use crate::scalar::quoted;

/// One line of the frontmatter: its text, 1-based number in `SKILL.md` and
/// byte offset there.
#[derive(Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    number: u32,
    offset: usize,
}

impl<'a> Line<'a> {
    fn indent(&self) -> usize {
        self.text.len() - self.text.trim_start_matches(' ').len()
    }

    fn is_blank_or_comment(&self) -> bool {
        let trimmed = self.text.trim();
        trimmed.is_empty() || trimmed.starts_with('#')
    }

    /// `key` and the value text after `key: ` (or `key:` at the end),
    /// when the line is a plain `key: value` entry.
    fn entry(&self) -> Option<(&'a str, &'a str, usize)> {
        let trimmed = self.text.trim_start_matches(' ');
        let colon = trimmed
            .find(": ")
            .or_else(|| trimmed.ends_with(':').then(|| trimmed.len() - 1))?;
        let key = &trimmed[..colon];
        let looks_like_key = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'));
        if !looks_like_key {
            return None;
        }
        let value_start = (colon + 1).min(trimmed.len());
        let value = trimmed[value_start..].trim_start();
        let value_offset = self.text.len() - value.len();
        Some((key, value, value_offset))
    }
}

/// The diagnostic for a YAML syntax error the parser reported as `info` at
/// `at` (a position in `SKILL.md`), in the frontmatter at `yaml` of `text`.
pub(crate) fn diagnose(
    text: &str,
    yaml: Range<usize>,
    at: Position,
    info: &str,
    file: &str,
) -> Diagnostic {
    let lines = lines(text, yaml.clone());
    let index = lines
        .iter()
        .position(|line| line.number == at.line)
        .unwrap_or_else(|| lines.len().saturating_sub(1));
    let plain = || {
        Diagnostic::new(
            Rule::YamlSyntax,
            file,
            format!("invalid YAML in the frontmatter: {info}"),
        )
        .at(at.line, at.column)
    };
    if lines.is_empty() {
        return plain();
    }
    tab(&lines, file)
        .or_else(|| unclosed_quote(&lines, info, file))
        .or_else(|| unquoted_colon(&lines[index], at, file))
        .or_else(|| over_indented(&lines, index, file))
        .or_else(|| unindented_continuation(&lines, index, file))
        .unwrap_or_else(plain)
}

fn lines(text: &str, yaml: Range<usize>) -> Vec<Line<'_>> {
    let first = crate::diagnostic::saturating_u32(text[..yaml.start].matches('\n').count() + 1);
    let mut offset = yaml.start;
    text[yaml]
        .split_inclusive('\n')
        .enumerate()
        .map(|(index, raw)| {
            let line = Line {
                text: raw.trim_end_matches(['\n', '\r']),
                number: first + crate::diagnostic::saturating_u32(index),
                offset,
            };
            offset += raw.len();
            line
        })
        .collect()
}

fn at(line: &Line<'_>, byte: usize) -> (u32, u32) {
    let column = line.text[..byte.min(line.text.len())].chars().count() + 1;
    (line.number, crate::diagnostic::saturating_u32(column))
}

/// A tab in the indentation: YAML allows spaces only.
fn tab(lines: &[Line<'_>], file: &str) -> Option<Diagnostic> {
    let line = lines.iter().find(|line| {
        let indent = &line.text[..line.text.len() - line.text.trim_start().len()];
        indent.contains('\t')
    })?;
    let byte = line.text.find('\t')?;
    let (number, column) = at(line, byte);
    let width = line.text.len() - line.text.trim_start().len();
    let fixed = line.text[..width].replace('\t', "  ");
    Some(
        Diagnostic::new(
            Rule::YamlSyntax,
            file,
            format!("line {number} of the frontmatter is indented with a tab; YAML allows only spaces for indentation"),
        )
        .at(number, column)
        .hint("indent with spaces (two per level) instead of tabs")
        .fix(line.offset..line.offset + width, fixed),
    )
}

/// A value opened with `"` or `'` whose quote never closes.
fn unclosed_quote(lines: &[Line<'_>], info: &str, file: &str) -> Option<Diagnostic> {
    if !info.contains("quote") {
        return None;
    }
    for line in lines {
        let Some((key, value, value_offset)) = line.entry() else {
            continue;
        };
        let Some(quote) = value.chars().next().filter(|c| matches!(c, '"' | '\'')) else {
            continue;
        };
        if closes(&value[1..], quote) {
            continue;
        }
        let (number, column) = at(line, value_offset);
        let end = line.offset + line.text.len();
        return Some(
            Diagnostic::new(
                Rule::YamlSyntax,
                file,
                format!("the quote that opens the value of `{key}` is never closed"),
            )
            .at(number, column)
            .hint(format!("add the closing `{quote}` at the end of the value"))
            .fix(end..end, quote.to_string()),
        );
    }
    None
}

/// Whether `rest` (after an opening `quote`) holds the closing one.
fn closes(rest: &str, quote: char) -> bool {
    let mut chars = rest.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            ('"', '\\') => {
                chars.next();
            }
            ('\'', '\'') if chars.peek() == Some(&'\'') => {
                chars.next();
            }
            (quote, c) if c == quote => return true,
            _ => {}
        }
    }
    false
}

/// `description: Use this when: the user asks`: the second `: ` starts a key.
fn unquoted_colon(line: &Line<'_>, at: Position, file: &str) -> Option<Diagnostic> {
    let (key, value, value_offset) = line.entry()?;
    let quoted_or_block = value.starts_with(['"', '\'', '|', '>', '[', '{']);
    let error_column = usize::try_from(at.column).ok()?;
    let value_column = line.text[..value_offset].chars().count() + 1;
    if quoted_or_block
        || !(value.contains(": ") || value.ends_with(':'))
        || error_column < value_column
    {
        return None;
    }
    let (number, column) = (line.number, at.column);
    let start = line.offset + value_offset;
    let value_text = value.trim_end();
    Some(
        Diagnostic::new(
            Rule::YamlSyntax,
            file,
            format!("invalid YAML in the frontmatter: an unquoted `: ` in the value of `{key}`"),
        )
        .at(number, column)
        .hint(format!(
            "the value of `{key}` contains `: `, which YAML reads as the start of another key; quote the whole value (`{key}: \"…\"`) or use a folded block (`{key}: >` and the text indented on the next lines)"
        ))
        .fix(start..start + value_text.len(), quoted(value_text)),
    )
}

/// The line above the entry at `index` that is not blank or a comment.
fn previous(lines: &[Line<'_>], index: usize) -> Option<usize> {
    (0..index).rev().find(|&i| !lines[i].is_blank_or_comment())
}

/// `name: a` then `  description: b`: the second key is indented more than
/// its sibling, so YAML reads it as part of the first value.
fn over_indented(lines: &[Line<'_>], index: usize, file: &str) -> Option<Diagnostic> {
    // The parser reports at the offending line, or at the next one.
    for candidate in [index, index.checked_sub(1)?] {
        let line = &lines[candidate];
        let (key, _, _) = line.entry()?;
        let above = &lines[previous(lines, candidate)?];
        let (above_key, above_value, _) = above.entry()?;
        if line.indent() <= above.indent() || above_value.is_empty() {
            continue;
        }
        let (number, column) = at(line, line.indent());
        let extra = line.indent() - above.indent();
        return Some(
            Diagnostic::new(
                Rule::YamlSyntax,
                file,
                format!(
                    "`{key}:` is indented more than `{above_key}:` on the line above, so YAML reads it as part of the value of `{above_key}`"
                ),
            )
            .at(number, column)
            .hint(format!(
                "line `{key}:` up with `{above_key}:` (remove {extra} space{} before it)",
                if extra == 1 { "" } else { "s" }
            ))
            .fix(line.offset + above.indent()..line.offset + line.indent(), ""),
        );
    }
    None
}

/// `description: Use this when` then `the user asks`: a value continued on
/// a line that is not indented past its key.
fn unindented_continuation(lines: &[Line<'_>], index: usize, file: &str) -> Option<Diagnostic> {
    for candidate in [index, index.checked_sub(1)?] {
        let line = &lines[candidate];
        if line.is_blank_or_comment()
            || line.entry().is_some()
            || line.text.trim_start().starts_with("- ")
        {
            continue;
        }
        let above_index = previous(lines, candidate)?;
        let above = &lines[above_index];
        let Some((key, value, _)) = above.entry() else {
            continue;
        };
        if value.is_empty() || line.indent() > above.indent() {
            continue;
        }
        let (number, column) = at(line, line.indent());
        let indent = " ".repeat(above.indent() + 2);
        return Some(
            Diagnostic::new(
                Rule::YamlSyntax,
                file,
                format!(
                    "line {number} continues the value of `{key}` but is not indented, so YAML reads it as a new key without a `:`"
                ),
            )
            .at(number, column)
            .hint(format!(
                "indent the continued text past `{key}:` (or quote the whole value, or use `{key}: >` with the text indented below)"
            ))
            .fix(line.offset..line.offset + line.indent(), indent),
        );
    }
    None
}
