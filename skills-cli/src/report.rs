//! Printing what a check found: how the command line spells the options a
//! hint names, and the three formats (rustc-like through skills-core's one
//! renderer, JSON Lines, GitHub annotations).

use std::io::{IsTerminal, Write};

use serde::Serialize;
use skills_core::readers::{SkillVerdicts, Verdict};
use skills_core::{Diagnostic, FrontEnd, OptionHint, Renderer, Report, Rule, Severity};

use crate::cli::{ColorChoice, Format, OutputArgs};

/// How `skills` spells the options a hint names: its own flags.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CommandLine;

impl CommandLine {
    /// The flag that turns `option` on (`--allow-field author`).
    pub(crate) fn flag(option: &OptionHint) -> String {
        match option {
            OptionHint::AllowField(field) => format!("--allow-field {}", shell_word(field)),
            OptionHint::NoCheckLinks => "--no-check-links".to_owned(),
            OptionHint::AllowSecretsIn(path) => format!("--allow-secrets-in {}", shell_word(path)),
            other => format!("--{}", other.option_name().replace('_', "-")),
        }
    }
}

impl FrontEnd for CommandLine {
    fn spell(&self, option: &OptionHint) -> String {
        format!("on the command line: `{}`", Self::flag(option))
    }

    fn note(&self, diagnostic: &Diagnostic) -> Option<String> {
        (diagnostic.rule == Rule::RootMissing)
            .then(|| "a relative folder starts at the current directory".to_owned())
    }
}

/// `text` as one shell word: bare when it is plain, else single-quoted.
fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:@%+=,".contains(c));
    if plain {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// What one folder's check found, ready to print.
#[derive(Debug)]
pub(crate) struct Checked<'r> {
    /// Every problem, errors and warnings.
    pub report: &'r Report,
    /// How many skills loaded, when the rules accepted the folder.
    pub skills: Option<usize>,
    /// Whether warnings fail the check (`--deny-warnings`).
    pub deny_warnings: bool,
    /// What each pinned reader does with each skill that loaded.
    pub readers: &'r [SkillVerdicts],
    /// Show every reader's verdict, accepts included (`--readers`).
    pub all_readers: bool,
}

impl Checked<'_> {
    /// The last line a person reads: what was checked and what was found.
    pub(crate) fn summary(&self) -> String {
        let report = self.report;
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let warnings = report.warnings().count();
        let checked =
            |skills: usize| format!("{} in {}", plural(skills, "skill"), root_name(report));
        match self.skills {
            Some(skills) if !report.has_errors() && warnings == 0 => {
                format!("{}: no problems", checked(skills))
            }
            Some(skills) if !report.has_errors() && self.deny_warnings => format!(
                "error: {}: {} (denied by --deny-warnings)",
                checked(skills),
                plural(warnings, "warning")
            ),
            Some(skills) if !report.has_errors() => {
                format!("{}: {}", checked(skills), plural(warnings, "warning"))
            }
            _ => format!("error: {}", report.summary()),
        }
    }
}

fn root_name(report: &Report) -> std::borrow::Cow<'_, str> {
    match report.root() {
        "" => ".".into(),
        root => skills_core::printable(root),
    }
}

/// Prints reports in the chosen format: problems on stdout (the job's
/// output), and in JSON mode the summaries on stderr so that stdout stays
/// one JSON object per line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Printer {
    format: Format,
    color: bool,
    /// Print everything on stderr (for commands whose stdout is data).
    on_stderr: bool,
}

impl Printer {
    /// A printer for `output`, coloring when it says so (or when `auto` and
    /// stdout is a terminal without `NO_COLOR`).
    pub(crate) fn new(output: &OutputArgs) -> Self {
        let color = match output.color {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto => {
                std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Self {
            format: output.format,
            color: color && output.format == Format::Human,
            on_stderr: false,
        }
    }

    /// A human printer for messages on stderr (commands whose stdout is data).
    pub(crate) fn for_stderr() -> Self {
        Self {
            format: Format::Human,
            color: std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
            on_stderr: true,
        }
    }

    /// Every problem of `checked`, then its summary.
    pub(crate) fn checked(&self, checked: &Checked<'_>) {
        let report = checked.report;
        match self.format {
            Format::Human => {
                let renderer = Renderer::new(&CommandLine).color(self.color);
                let mut out = String::new();
                for diagnostic in report.diagnostics() {
                    out.push_str(&renderer.diagnostic(diagnostic, report.root()));
                    out.push_str("\n\n");
                }
                out.push_str(&readers_text(checked, report.root()));
                out.push_str(&checked.summary());
                out.push('\n');
                self.emit(&out);
            }
            Format::Json => {
                let mut out = String::new();
                for diagnostic in report.diagnostics() {
                    out.push_str(&json_line(diagnostic, report.root()));
                    out.push('\n');
                }
                for skill in checked.readers {
                    for reader in &skill.readers {
                        if checked.all_readers || reader.verdict != Verdict::Accept {
                            out.push_str(&reader_json_line(&skill.skill, reader));
                            out.push('\n');
                        }
                    }
                }
                self.emit(&out);
                eprintln!("{}", checked.summary());
            }
            Format::Github => {
                let mut out = String::new();
                for diagnostic in report.diagnostics() {
                    out.push_str(&github_line(diagnostic, report.root()));
                    out.push('\n');
                }
                for skill in checked.readers {
                    for reader in skill.concerns() {
                        out.push_str(&reader_github_line(skill, reader, report.root()));
                        out.push('\n');
                    }
                }
                out.push_str(&checked.summary());
                out.push('\n');
                self.emit(&out);
            }
        }
    }

    fn emit(&self, text: &str) {
        if self.on_stderr {
            eprint!("{text}");
        } else {
            stdout(text);
        }
    }

    /// One diagnostic that is not part of a folder's report (a bad name
    /// given to `skills new`), in this printer's format, on stderr.
    pub(crate) fn lone(&self, diagnostic: &Diagnostic, root: &str) {
        let text = match self.format {
            Format::Human => Renderer::new(&CommandLine)
                .color(self.color)
                .diagnostic(diagnostic, root),
            Format::Json => json_line(diagnostic, root),
            Format::Github => github_line(diagnostic, root),
        };
        eprintln!("{text}");
    }
}

/// `root/file` as every diagnostic prints it ([`Diagnostic::display_path`]:
/// escaped, so that a name from the folder cannot act on a terminal or a CI
/// log), for the lines that name a file outside a diagnostic.
pub(crate) fn file_path(root: &str, file: &str) -> String {
    Diagnostic::new(Rule::Io, file, "").display_path(root)
}

/// Writes to stdout; a reader that went away (`| head`) is not an error.
pub(crate) fn stdout(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// One problem as JSON Lines prints it.
#[derive(Serialize)]
struct JsonDiagnostic<'d> {
    /// The file, relative to the folder as written (the folder itself for
    /// problems about it).
    file: String,
    line: Option<u32>,
    column: Option<u32>,
    rule: &'static str,
    severity: &'static str,
    message: &'d str,
    hint: Option<&'d str>,
    /// The flag that would accept what was refused.
    option: Option<String>,
}

fn json_line(diagnostic: &Diagnostic, root: &str) -> String {
    let line = JsonDiagnostic {
        file: diagnostic.display_path(root),
        line: diagnostic.line,
        column: diagnostic.column,
        rule: diagnostic.rule.id(),
        severity: diagnostic.severity.as_str(),
        message: &diagnostic.message,
        hint: diagnostic.hint.as_deref(),
        option: diagnostic.option.as_ref().map(CommandLine::flag),
    };
    serde_json::to_string(&line).expect("a diagnostic always serializes")
}

/// One reader's verdict on one skill as JSON Lines prints it.
#[derive(Serialize)]
struct JsonReader<'v> {
    kind: &'static str,
    skill: &'v str,
    reader: String,
    verdict: &'static str,
    why: String,
}

fn reader_json_line(skill: &str, reader: &skills_core::readers::ReaderVerdict) -> String {
    let line = JsonReader {
        kind: "reader",
        skill,
        reader: reader.reader.label(),
        verdict: reader.verdict.as_str(),
        why: reader.why(),
    };
    serde_json::to_string(&line).expect("a verdict always serializes")
}

/// The readers' block of the human output: each skill some reader would
/// refuse, skip or alter, with why (every skill and reader with `--readers`).
fn readers_text(checked: &Checked<'_>, root: &str) -> String {
    let mut out = String::new();
    let shown: Vec<&SkillVerdicts> = checked
        .readers
        .iter()
        .filter(|skill| checked.all_readers || !skill.all_accept())
        .collect();
    if shown.is_empty() {
        return out;
    }
    let differ = checked.readers.iter().filter(|s| !s.all_accept()).count();
    out.push_str(&match differ {
        0 => "readers: every pinned reader reads every skill as written\n".to_owned(),
        1 => "readers: 1 skill is read differently by some reader\n".to_owned(),
        n => format!("readers: {n} skills are read differently by some reader\n"),
    });
    for skill in shown {
        let file = file_path(root, &skill.file);
        out.push_str(&format!("  {} ({file})\n", skill.skill));
        for reader in &skill.readers {
            if checked.all_readers || reader.verdict != Verdict::Accept {
                out.push_str(&format!(
                    "    {:<6} {}: {}\n",
                    reader.verdict.as_str(),
                    reader.reader.label(),
                    reader.why()
                ));
            }
        }
    }
    out.push('\n');
    out
}

/// A GitHub annotation for a reader that would not read a skill as written.
fn reader_github_line(
    skill: &SkillVerdicts,
    reader: &skills_core::readers::ReaderVerdict,
    root: &str,
) -> String {
    let command = match reader.verdict {
        Verdict::Alter | Verdict::Accept => "notice",
        Verdict::Skip | Verdict::Refuse => "warning",
    };
    let file = file_path(root, &skill.file);
    format!(
        "::{command} file={},title={}::{}",
        escape_property(&file),
        escape_property(&format!(
            "skills check: {} {}s {}",
            reader.reader.label(),
            reader.verdict.as_str(),
            skill.skill
        )),
        escape_data(&reader.why())
    )
}

/// A GitHub Actions workflow command: an annotation on the file and line,
/// titled with the rule, the hints on the lines after the message.
fn github_line(diagnostic: &Diagnostic, root: &str) -> String {
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut properties = vec![format!(
        "file={}",
        escape_property(&diagnostic.display_path(root))
    )];
    if let Some(line) = diagnostic.line {
        properties.push(format!("line={line}"));
        if let Some(column) = diagnostic.column {
            properties.push(format!("col={column}"));
            properties.push(format!("endColumn={}", column + diagnostic.length.max(1)));
        }
    }
    properties.push(format!(
        "title={}",
        escape_property(&format!("skills check: {}", diagnostic.rule.id()))
    ));
    let mut message = diagnostic.message.clone();
    if let Some(hint) = &diagnostic.hint {
        message.push_str("\nhelp: ");
        message.push_str(hint);
    }
    if let Some(option) = &diagnostic.option {
        message.push_str("\nhelp: ");
        message.push_str(&CommandLine.spell(option));
    }
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&message)
    )
}

/// The escapes of GitHub's toolkit (`@actions/core`, `escapeData`).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// The escapes of GitHub's toolkit for a property (`escapeProperty`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_are_shell_words() {
        assert_eq!(
            CommandLine::flag(&OptionHint::AllowField("author".into())),
            "--allow-field author"
        );
        assert_eq!(
            CommandLine::flag(&OptionHint::AllowSecretsIn("a b/it's.md".into())),
            r"--allow-secrets-in 'a b/it'\''s.md'"
        );
        assert_eq!(
            CommandLine.spell(&OptionHint::NoCheckLinks),
            "on the command line: `--no-check-links`"
        );
    }

    #[test]
    fn github_annotations_escape_what_the_toolkit_escapes() {
        let mut diagnostic = Diagnostic::new(Rule::BrokenLink, "a,b/SKILL.md", "")
            .at(3, 5)
            .length(4)
            .hint("fix it")
            .option(OptionHint::NoCheckLinks);
        // `Diagnostic::new` spells a line break as `\n`; a message set by
        // hand may still hold one.
        diagnostic.message = "50% of: it\nbroke".to_owned();
        assert_eq!(
            github_line(&diagnostic, "skills"),
            "::error file=skills/a%2Cb/SKILL.md,line=3,col=5,endColumn=9,title=skills check%3A broken-link::50%25 of: it%0Abroke%0Ahelp: fix it%0Ahelp: on the command line: `--no-check-links`"
        );
    }
}
