//! `skills check`: each folder through `skills_core::load`, the strict load
//! `embed_skills!` runs, so the command reports exactly what a build would
//! (warnings too, which the macro cannot show).

use std::path::Path;

use skills_core::readers::{self, SkillVerdicts};
use skills_core::root::{self, ResolvedRoot};
use skills_core::vendor::{Agent, Environment};
use skills_core::{Diagnostic, Options, Report, Rule};

use crate::cli::CheckArgs;
use crate::fix;
use crate::outcome::Outcome;
use crate::report::{self, Checked, Printer};

/// Checks every folder; the worst outcome wins.
pub(crate) fn run(args: &CheckArgs) -> Outcome {
    let printer = Printer::new(&args.output);
    let mut outcome = Outcome::Done;
    let mut dirs = args.dirs.clone();
    if dirs.is_empty() && args.vendor.selected().is_empty() {
        match crate::cli::default_skills_dir("check") {
            Ok(dir) => dirs.push(dir),
            Err(error) => {
                eprintln!("error: {error}");
                return Outcome::Failed;
            }
        }
    }
    for dir in &dirs {
        let root = match resolve(dir) {
            Ok(root) => root,
            Err(diagnostic) => {
                let report = Report::new(dir.clone(), vec![*diagnostic]);
                printer.checked(&Checked {
                    report: &report,
                    skills: None,
                    deny_warnings: args.deny_warnings,
                    readers: &[],
                    all_readers: args.readers,
                });
                outcome = outcome.max(Outcome::Failed);
                continue;
            }
        };
        let mut options = args.rules.options();
        options.display_root = Some(root.display.clone());
        if args.fix {
            match fix::apply(&root.path, &options) {
                Ok(fixed) => {
                    for (file, count) in fixed {
                        let path = report::file_path(&root.display, &file);
                        let problems = if count == 1 { "problem" } else { "problems" };
                        eprintln!("fixed {count} {problems} in {path}");
                    }
                }
                Err((file, error)) => {
                    let path = report::file_path(&root.display, &file);
                    eprintln!("error: cannot write the fix to {path}: {error}");
                    outcome = outcome.max(Outcome::Failed);
                    continue;
                }
            }
        }
        let (report, skills, verdicts) = check_with_readers(&root.path, &options);
        let checked = Checked {
            report: &report,
            skills,
            deny_warnings: args.deny_warnings,
            readers: &verdicts,
            all_readers: args.readers,
        };
        printer.checked(&checked);
        outcome = outcome.max(judge(&report, args.deny_warnings));
    }
    for agent in args.vendor.selected() {
        outcome = outcome.max(check_agent(agent, args, &printer));
    }
    outcome
}

/// Checks the folders `agent` reads as the agent's own rules judge them,
/// skill by skill (what `skills serve --agent` serves), one report per
/// folder that exists.
fn check_agent(agent: &Agent, args: &CheckArgs, printer: &Printer) -> Outcome {
    let roots = agent.user_roots(&Environment::from_process());
    let options = args.rules.apply(agent.options());
    let lenient = skills_core::load_roots(&roots, &options);
    let loaded = lenient.loaded();
    let verdicts = readers::predict(loaded);
    let mut outcome = Outcome::Done;
    let mut found = false;
    for (root, report) in roots.iter().zip(lenient.reports()) {
        if !root.is_dir() {
            continue;
        }
        found = true;
        let here: Vec<usize> = (0..loaded.skills().len())
            .filter(|index| loaded.skill_dir(*index).starts_with(root))
            .collect();
        let verdicts_here: Vec<SkillVerdicts> =
            here.iter().map(|index| verdicts[*index].clone()).collect();
        printer.checked(&Checked {
            report,
            skills: (!report.has_errors()).then_some(here.len()),
            deny_warnings: args.deny_warnings,
            readers: &verdicts_here,
            all_readers: args.readers,
        });
        outcome = outcome.max(judge(report, args.deny_warnings));
    }
    if !found {
        let folders: Vec<String> = roots
            .iter()
            .map(|root| root.display().to_string())
            .collect();
        eprintln!(
            "{} keeps no skills here: none of {} exists",
            agent.title(),
            folders.join(", ")
        );
    }
    outcome
}

/// A folder argument resolved as `embed_skills!` resolves its own, against
/// the current directory: `$VAR` and `${VAR:-default}` expand, and messages
/// name it as written.
pub(crate) fn resolve(written: &str) -> Result<ResolvedRoot, Box<Diagnostic>> {
    let base = std::env::current_dir().unwrap_or_default();
    root::resolve(written, &base, None, |name| std::env::var(name).ok())
}

/// [`check`], and what each pinned reader does with each skill that loaded.
pub(crate) fn check_with_readers(
    root: &Path,
    options: &Options,
) -> (Report, Option<usize>, Vec<SkillVerdicts>) {
    let display = options.display_root.clone().unwrap_or_default();
    match skills_core::load(root, options) {
        Ok(loaded) => (
            Report::new(display, loaded.warnings().to_vec()),
            Some(loaded.skills().len()),
            readers::predict(&loaded),
        ),
        Err(report) => (report, None, Vec::new()),
    }
}

/// Every problem under `root`, and how many skills loaded when none was an error.
pub(crate) fn check(root: &Path, options: &Options) -> (Report, Option<usize>) {
    let display = options.display_root.clone().unwrap_or_default();
    match skills_core::load(root, options) {
        Ok(loaded) => (
            Report::new(display, loaded.warnings().to_vec()),
            Some(loaded.skills().len()),
        ),
        Err(report) => (report, None),
    }
}

/// What a report means for the exit status: a folder that is not there or
/// cannot be read is an I/O error (2); a broken rule is a problem (1), and
/// so is a warning under `--deny-warnings`.
pub(crate) fn judge(report: &Report, deny_warnings: bool) -> Outcome {
    if report
        .diagnostics()
        .iter()
        .any(|d| matches!(d.rule, Rule::RootMissing | Rule::Io))
    {
        Outcome::Failed
    } else if report.has_errors() || (deny_warnings && !report.is_empty()) {
        Outcome::Problems
    } else {
        Outcome::Done
    }
}
