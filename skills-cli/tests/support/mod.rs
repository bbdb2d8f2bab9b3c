//! Running the `skills` binary, and temporary folders, for the tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary under test.
pub const SKILLS: &str = env!("CARGO_BIN_EXE_skills");

/// The repository's root.
pub use skills_test_support::examples::workspace_dir as workspace;

/// What one run printed, and how it ended.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `skills` with `args` in `dir`.
pub fn skills(dir: &Path, args: &[&str]) -> Run {
    skills_with(dir, args, &[])
}

/// Runs `skills` with `args` in `dir`, with extra environment variables.
pub fn skills_with(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let output = Command::new(SKILLS)
        .args(args)
        .current_dir(dir)
        .envs(env.iter().copied())
        .env_remove("NO_COLOR")
        .output()
        .expect("skills runs");
    Run {
        code: output.status.code().expect("skills exits, not killed"),
        stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
    }
}

/// A folder under the system's temporary folder, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// A fresh, empty folder whose name includes `name`.
    pub fn new(name: &str) -> Self {
        let path = skills_test_support::temp_path("cli-test", name);
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("the temporary folder can be created");
        Self(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `text` at `rel`, creating folders.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.0.join(rel);
        std::fs::create_dir_all(path.parent().expect("a file has a folder"))
            .expect("the folder can be created");
        std::fs::write(&path, text).expect("the file can be written");
        path
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.0.join(rel)).expect("the file can be read")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A `SKILL.md` with `name`, a description, and `extra` frontmatter lines.
pub fn skill_md(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name}. Use when asked to.\n{extra}---\n# {name}\n\nDo it.\n"
    )
}

/// The JSON Lines a `--format json` run printed.
pub fn json_lines(stdout: &str) -> Vec<serde_json::Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}
