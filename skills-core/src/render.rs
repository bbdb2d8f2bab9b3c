//! The one renderer of diagnostics: rustc's layout (`error[rule]: message`,
//! the place, the line with a caret), with the option a hint names spelled
//! by each front end ([`FrontEnd`]: the library, the macro, a command line).

#[cfg(feature = "load")]
use std::fmt;

use crate::diagnostic::Diagnostic;
#[cfg(feature = "load")]
use crate::diagnostic::Report;
#[cfg(feature = "load")]
use crate::rules::Severity;
use crate::rules::{OptionHint, Rule};

/// What a front end (the macro, a command line, a program calling the
/// library) adds to a diagnostic when it is rendered: how it writes the
/// option a hint names, so that the author reads what to type where they
/// configure the rules, and any note of its own. [`Library`] is the
/// library's.
pub trait FrontEnd {
    /// One sentence saying where and how to turn `option` on, e.g.
    /// ``in `embed_skills!`, after the folder: `allow_fields = ["author"]` ``
    /// or ``on the command line: `--allow-field author` ``.
    fn spell(&self, option: &OptionHint) -> String;

    /// A note of this front end's about `diagnostic` (how it resolves a
    /// relative folder, for a missing root), printed after the hints.
    fn note(&self, diagnostic: &Diagnostic) -> Option<String> {
        let _ = diagnostic;
        None
    }
}

/// The library's front end: options are fields of
/// `Options` (feature `load`), what a program loading skills sets.
#[derive(Debug, Clone, Copy, Default)]
pub struct Library;

impl FrontEnd for Library {
    fn spell(&self, option: &OptionHint) -> String {
        match option {
            OptionHint::AllowField(field) => {
                format!("to accept it, add \"{field}\" to `Options::allow_fields`")
            }
            OptionHint::NoCheckLinks => {
                "to skip this check, set `Options::check_links` to false".to_owned()
            }
            OptionHint::AllowSecretsIn(path) => {
                format!("to allow it, add \"{path}\" to `Options::allow_secrets_in`")
            }
        }
    }
}

/// `embed_skills!`'s front end: options are written after the folder in
/// the macro call. The macro's own messages use it, and so does a live
/// reload of a folder embedded with the macro, whose author fixes a refusal
/// the same way.
#[derive(Debug, Clone, Copy, Default)]
pub struct EmbedMacro;

impl FrontEnd for EmbedMacro {
    fn spell(&self, option: &OptionHint) -> String {
        let written = match option {
            OptionHint::AllowField(field) => format!("allow_fields = [\"{field}\"]"),
            OptionHint::NoCheckLinks => "check_links = false".to_owned(),
            OptionHint::AllowSecretsIn(path) => format!("allow_secrets_in = [\"{path}\"]"),
        };
        format!("in `embed_skills!`, after the folder: `{written}`")
    }

    fn note(&self, diagnostic: &Diagnostic) -> Option<String> {
        (diagnostic.rule == Rule::RootMissing).then(|| {
            "in `embed_skills!`, a relative path starts at the folder holding Cargo.toml; one starting with `./` starts at the file that calls the macro".to_owned()
        })
    }
}

/// Prints diagnostics as rustc prints its own: `error[rule]: message`, the
/// place, the line with a caret under the column, the hint, how the front
/// end turns the option on, and the front end's note. The one renderer of the project: the
/// macro's messages and a command line's output both come from here.
///
/// ```
/// use skills_core::{Diagnostic, Library, Renderer, Rule};
///
/// let text = "---\nname: pdf-tools\ndescription: Fill forms.\n---\n";
/// let diagnostic = Diagnostic::new(Rule::NameMismatch, "pdf/SKILL.md", "the name `pdf-tools` differs from its folder `pdf`")
///     .at(2, 7)
///     .length(9)
///     .hint("set `name: pdf`")
///     .with_source(text);
/// assert_eq!(Renderer::new(&Library).diagnostic(&diagnostic, "skills"), "\
/// error[name-mismatch]: the name `pdf-tools` differs from its folder `pdf`
///  --> skills/pdf/SKILL.md:2:7
///   |
/// 2 | name: pdf-tools
///   |       ^^^^^^^^^
///   |
///   = help: set `name: pdf`");
/// ```
#[cfg(feature = "load")]
#[derive(Clone, Copy)]
pub struct Renderer<'s> {
    front_end: &'s dyn FrontEnd,
    color: bool,
}

#[cfg(feature = "load")]
impl fmt::Debug for Renderer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Renderer")
            .field("color", &self.color)
            .finish_non_exhaustive()
    }
}

#[cfg(feature = "load")]
impl<'s> Renderer<'s> {
    /// Plain text, with options spelled by `front_end`.
    pub fn new(front_end: &'s dyn FrontEnd) -> Self {
        Self {
            front_end,
            color: false,
        }
    }

    /// With ANSI colors (rustc's), for a terminal.
    pub fn color(mut self, color: bool) -> Self {
        self.color = color;
        self
    }

    /// One diagnostic, in several lines, without a trailing line break.
    /// `root` is how the user named the skills root (`skills`, `./fixtures`).
    pub fn diagnostic(&self, diagnostic: &Diagnostic, root: &str) -> String {
        use annotate_snippets::{AnnotationKind, Level, Origin, Snippet};

        let level = match diagnostic.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let path = diagnostic.display_path(root);
        let title = level
            .primary_title(diagnostic.message.as_str())
            .id(diagnostic.rule.id());
        let mut group = match (&diagnostic.source_line, diagnostic.line) {
            (Some(source), Some(line)) => {
                let column = diagnostic.column.unwrap_or(1).max(1) as usize;
                let start = byte_of_char(source, column - 1);
                let end = byte_of_char(source, column - 1 + diagnostic.length.max(1) as usize);
                // A problem at the end of a line (or on an empty one) still gets a caret.
                let source = if start >= source.len() {
                    format!("{source} ")
                } else {
                    source.clone()
                };
                let end = end.max(start + 1).min(source.len());
                title.element(
                    Snippet::source(source)
                        .line_start(line as usize)
                        .path(path)
                        .annotation(AnnotationKind::Primary.span(start..end)),
                )
            }
            _ => {
                let mut origin = Origin::path(path);
                if let Some(line) = diagnostic.line {
                    origin = origin
                        .line(line as usize)
                        .char_column(diagnostic.column.unwrap_or(1) as usize);
                }
                title.element(origin)
            }
        };
        if let Some(hint) = &diagnostic.hint {
            group = group.element(Level::HELP.message(hint.as_str()));
        }
        if let Some(option) = &diagnostic.option {
            group = group.element(Level::HELP.message(self.front_end.spell(option)));
        }
        if let Some(note) = self.front_end.note(diagnostic) {
            group = group.element(Level::NOTE.message(note));
        }
        let renderer = if self.color {
            annotate_snippets::Renderer::styled()
        } else {
            annotate_snippets::Renderer::plain()
        };
        renderer.render(&[group])
    }

    /// Every diagnostic of `report`, each as [`diagnostic`](Self::diagnostic)
    /// prints it, separated by blank lines, then a summary line
    /// (`2 problems in skills`).
    pub fn report(&self, report: &Report) -> String {
        let mut out = String::new();
        for diagnostic in report.diagnostics() {
            out.push_str(&self.diagnostic(diagnostic, report.root()));
            out.push_str("\n\n");
        }
        out.push_str(&report.summary());
        out
    }
}

/// The byte offset of character `index` of `text` (its length past the end).
#[cfg(feature = "load")]
fn byte_of_char(text: &str, index: usize) -> usize {
    text.char_indices()
        .nth(index)
        .map_or(text.len(), |(offset, _)| offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "load")]
    #[test]
    fn the_renderer_underlines_the_column_and_spells_options() {
        struct Macro;
        impl FrontEnd for Macro {
            fn spell(&self, option: &OptionHint) -> String {
                format!("in the macro: `{}`", option.option_name())
            }
        }
        let text = "---\nname: é-x\nauthor: me\n---\n";
        let diagnostic = Diagnostic::new(Rule::UnknownField, "a/SKILL.md", "`author` is unknown")
            .at(3, 1)
            .length(6)
            .option(OptionHint::AllowField("author".into()))
            .with_source(text);
        let rendered = Renderer::new(&Macro).diagnostic(&diagnostic, "skills");
        assert_eq!(
            rendered,
            "error[unknown-field]: `author` is unknown\n --> skills/a/SKILL.md:3:1\n  |\n3 | author: me\n  | ^^^^^^\n  |\n  = help: in the macro: `allow_fields`"
        );
        // Columns count characters, so the caret sits under `x` after `é-`.
        let wide = Diagnostic::new(Rule::NameFormat, "a/SKILL.md", "bad")
            .at(2, 9)
            .with_source(text);
        let rendered = Renderer::new(&Library).diagnostic(&wide, "");
        assert!(
            rendered.contains("2 | name: é-x\n  |         ^"),
            "{rendered}"
        );
        // No line: the place alone.
        let folder = Diagnostic::new(Rule::NotASkill, "drafts", "no SKILL.md");
        let rendered = Renderer::new(&Library).diagnostic(&folder, "skills");
        assert_eq!(
            rendered,
            "error[not-a-skill]: no SKILL.md\n--> skills/drafts"
        );
        // A caret at the end of a line still shows.
        let end = Diagnostic::new(Rule::FieldType, "a/SKILL.md", "empty")
            .at(3, 11)
            .with_source(text);
        let rendered = Renderer::new(&Library).diagnostic(&end, "");
        assert!(
            rendered.contains("3 | author: me \n  |           ^"),
            "{rendered}"
        );
    }
}
