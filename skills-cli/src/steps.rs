//! What a scaffolding command did, file by file, so that running it twice
//! visibly changes nothing: each step is a change written, something found
//! already there, or advice for what only the author can do.

use std::path::Path;

use crate::outcome::Outcome;

/// One line of a scaffolding command's report.
#[derive(Debug)]
enum Step {
    Changed(String),
    Unchanged(String),
    Advice(String),
    Failed(String),
}

/// The steps of one command, printed in order at the end.
#[derive(Debug, Default)]
pub(crate) struct Steps {
    steps: Vec<Step>,
}

impl Steps {
    /// `file` was written (`what` says how).
    pub(crate) fn changed(&mut self, file: &str, what: impl AsRef<str>) {
        self.steps
            .push(Step::Changed(format!("{file}: {}", what.as_ref())));
    }

    /// `file` already had what the step would add.
    pub(crate) fn unchanged(&mut self, file: &str, what: impl AsRef<str>) {
        self.steps
            .push(Step::Unchanged(format!("{file}: {}", what.as_ref())));
    }

    /// Something for the author to do by hand.
    pub(crate) fn advise(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Advice(text.into()));
    }

    /// A step that could not be done.
    pub(crate) fn failed(&mut self, text: impl Into<String>) {
        self.steps.push(Step::Failed(text.into()));
    }

    /// Writes `text` to `path` unless it holds exactly that already; creates
    /// missing folders.
    pub(crate) fn write(&mut self, root: &Path, rel: &str, text: &str, what: &str) {
        let path = root.join(rel);
        match crate::write::read(&path).map(|read| read.text) {
            Ok(existing) if existing == text => self.unchanged(rel, format!("{what}, as before")),
            Ok(_) => self.unchanged(rel, format!("exists (left as it is; {what} would go here)")),
            Err(_) => match crate::write::create(&path, text) {
                Ok(()) => self.changed(rel, format!("created, {what}")),
                Err(error) => self.failed(format!("{rel}: cannot write it: {error}")),
            },
        }
    }

    /// Prints every step; returns `Failed` when a step failed.
    pub(crate) fn report(&self) -> Outcome {
        let mut changed = false;
        let mut failed = false;
        for step in &self.steps {
            match step {
                Step::Changed(text) => {
                    changed = true;
                    println!("  changed  {text}");
                }
                Step::Unchanged(text) => println!("  ok       {text}"),
                Step::Advice(text) => println!("  todo     {text}"),
                Step::Failed(text) => {
                    failed = true;
                    eprintln!("  error    {text}");
                }
            }
        }
        if !changed && !failed {
            println!("nothing changed");
        }
        if failed {
            Outcome::Failed
        } else {
            Outcome::Done
        }
    }
}
