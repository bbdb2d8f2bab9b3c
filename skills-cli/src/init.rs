//! `skills init`: the Quickstart's pieces added to an existing crate, each
//! only when missing, so a second run changes nothing:
//! - the dependency on `skills-runtime` (a path dependency with `--path`,
//!   since the crates are not published yet; printed otherwise);
//! - in a binary crate, the dependencies its `main` serves with: rmcp
//!   (`server`, `transport-io`) and tokio (`macros`, `rt`);
//! - the build-script line that makes Cargo rebuild when the skills folder
//!   changes (a new `build.rs`, or the line merged into an existing one, or
//!   printed when it cannot be merged safely);
//! - with `--build-override`, `[profile.dev.build-override] opt-level = 3`,
//!   in the workspace root's manifest (Cargo reads profiles only there);
//! - in a binary crate whose `src/main.rs` is still `cargo new`'s hello
//!   world, the Quickstart's `main`: it embeds the folder and serves it
//!   over stdio. Otherwise the `static SKILLS` line is printed to paste
//!   (where it goes in the author's code is the author's choice);
//! - with `--tests`, the trybuild recipe ([`crate::recipe`]).

use std::path::{Path, PathBuf};
use std::process::Command;

use skills_core::root::{normalize, relative_to};
use toml_edit::Value;

use crate::cargo_toml::CargoToml;
use crate::cli::InitArgs;
use crate::outcome::Outcome;
use crate::recipe;
use crate::steps::Steps;
use crate::write;

/// What the Quickstart's `main` serves with besides skills-runtime, added
/// to a binary crate: (crate, version requirement, features). rmcp's is
/// this workspace's (a test compares them).
pub(crate) const SERVE_DEPENDENCIES: [(&str, &str, &[&str]); 2] = [
    ("rmcp", "3.11", &["server", "transport-io"]),
    ("tokio", "1", &["macros", "rt"]),
];

/// `src/main.rs` as `cargo new` writes it: nothing of the author's yet.
const CARGO_NEW_MAIN: &str = "fn main() {\n    println!(\"Hello, world!\");\n}";

/// The Quickstart's `src/main.rs`, serving the skills in `skills` over stdio.
pub(crate) fn quickstart_main(skills: &str) -> String {
    format!(
        "//! Serves the skills in `{skills}/` to an MCP client over stdio.\n\
         \n\
         use skills_runtime::{{Skills, SkillsServer, embed_skills, server}};\n\
         \n\
         static SKILLS: Skills = embed_skills!(\"{skills}\");\n\
         \n\
         #[tokio::main(flavor = \"current_thread\")]\n\
         async fn main() -> Result<(), Box<dyn std::error::Error>> {{\n\
         \x20   eprintln!(\"serving {{}} skills; waiting for an MCP client on stdin\", SKILLS.len());\n\
         \x20   server::serve(SkillsServer::new(SKILLS.clone()), rmcp::transport::stdio_pipes()).await?;\n\
         \x20   Ok(())\n\
         }}\n"
    )
}

/// The `skills-runtime` folder of the clone this binary was built from, if
/// it is still there: what `--path` without a value points at.
fn built_from() -> Option<PathBuf> {
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skills-runtime");
    runtime
        .join("Cargo.toml")
        .is_file()
        .then(|| normalize(&runtime))
}

/// Adds what is missing; reports every step.
pub(crate) fn run(args: &InitArgs) -> Outcome {
    let mut manifest = match CargoToml::read(&args.manifest_path) {
        Ok(manifest) if manifest.is_package() => manifest,
        Ok(manifest) => {
            eprintln!(
                "error: {} declares no [package]; run `skills init` in a crate's folder (or give --manifest-path)",
                manifest.path().display()
            );
            return Outcome::Failed;
        }
        Err(error) => {
            eprintln!("error: {error}");
            return Outcome::Failed;
        }
    };
    let crate_dir = match args.manifest_path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let skills = args.skills.trim_end_matches('/').to_owned();
    let library = is_library(&crate_dir);
    let mut steps = Steps::default();

    // The dependency.
    if manifest.has_dependency("dependencies", "skills-runtime") {
        steps.unchanged("Cargo.toml", "depends on skills-runtime");
    } else {
        match runtime_folder(args.path.as_ref()) {
            Some(Ok(runtime)) => {
                let relative = relative_to(&runtime, &absolute(&crate_dir));
                let relative = relative.to_string_lossy().replace('\\', "/");
                // A library ships a pack of skills: it needs the macro and
                // the tables, not the server (the crate serving it turns
                // that on).
                let extra: Vec<(&str, Value)> = if library {
                    vec![("default-features", Value::from(false))]
                } else {
                    Vec::new()
                };
                manifest.add_path_dependency("dependencies", "skills-runtime", &relative, &extra);
                let written = if library {
                    format!(
                        "skills-runtime = {{ path = \"{relative}\", default-features = false }}` (a library ships skills; the server that uses them turns on the `server` feature)"
                    )
                } else {
                    format!("skills-runtime = {{ path = \"{relative}\" }}`")
                };
                steps.changed("Cargo.toml", format!("added the dependency `{written}"));
            }
            Some(Err(error)) => steps.failed(error),
            None => steps.advise(match built_from() {
                Some(runtime) => format!(
                    "Cargo.toml: add `skills-runtime = {{ path = \"{}\" }}` to [dependencies] (`skills init --path` writes it; once published: `skills-runtime = \"0.1\"`)",
                    relative_to(&runtime, &absolute(&crate_dir)).display()
                ),
                None => "Cargo.toml: add skills-runtime to [dependencies]: `skills init --path <clone of skills-runtime>` writes it (once published: `skills-runtime = \"0.1\"`)".to_owned(),
            }),
        }
    }
    // What the Quickstart's `main` serves with; a library serves nothing.
    if !library {
        for (krate, version, features) in SERVE_DEPENDENCIES {
            if manifest.has_dependency("dependencies", krate) {
                steps.unchanged("Cargo.toml", format!("depends on {krate}"));
            } else {
                manifest.add_dependency_with_features("dependencies", krate, version, features);
                let features: Vec<String> = features.iter().map(|f| format!("\"{f}\"")).collect();
                steps.changed(
                    "Cargo.toml",
                    format!(
                        "added the dependency `{krate} = {{ version = \"{version}\", features = [{}] }}` (src/main.rs serves with it)",
                        features.join(", ")
                    ),
                );
            }
        }
    }
    if let Err(error) = manifest.save() {
        steps.failed(format!("Cargo.toml: cannot write it: {error}"));
    }

    // The build-override, where Cargo reads profiles; only on request, since
    // it makes the crate's first build about three times slower.
    if args.build_override {
        build_override(&args.manifest_path, &mut manifest, &mut steps);
    }

    // The build script.
    build_script(&crate_dir, &manifest, &skills, &mut steps);

    // The embed line.
    let sources = ["src/lib.rs", "src/main.rs"];
    // Read as every file of a crate someone else may have written is: no
    // link followed, no FIFO opened, bounded (`write::read`).
    let embeds = sources.iter().find(|file| {
        write::read(&crate_dir.join(file)).is_ok_and(|read| read.text.contains("embed_skills!"))
    });
    let main_rs = crate_dir.join("src/main.rs");
    let untouched_main = write::read(&main_rs)
        .ok()
        .filter(|read| read.text.trim() == CARGO_NEW_MAIN);
    match embeds {
        Some(file) => steps.unchanged(file, "calls embed_skills!"),
        None if !library && let Some(read) = untouched_main => {
            match write::replace(&main_rs, &read, &quickstart_main(&skills)) {
                Ok(()) => steps.changed(
                    "src/main.rs",
                    format!(
                        "replaced `cargo new`'s hello world with the Quickstart's main: it embeds `{skills}` and serves it over stdio"
                    ),
                ),
                Err(error) => steps.failed(format!("src/main.rs: cannot write it: {error}")),
            }
        }
        None if library => steps.advise(format!(
            "src/lib.rs: paste `pub static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!(\"{skills}\");` (a pack other crates serve, merged with `skills_runtime::merge_skills`)"
        )),
        None => steps.advise(format!(
            "src/main.rs: paste `static SKILLS: skills_runtime::Skills = skills_runtime::embed_skills!(\"{skills}\");` and serve it (README, Quickstart)"
        )),
    }
    if !crate_dir.join(&skills).is_dir() {
        steps.advise(format!(
            "{skills}/: create the folder's first skill with `skills new <name>`"
        ));
    }
    if args.tests {
        recipe::add_to(&crate_dir, &skills, &mut steps);
    }
    steps.report()
}

/// Whether the crate is a library without a binary of its own.
fn is_library(crate_dir: &Path) -> bool {
    crate_dir.join("src/lib.rs").is_file() && !crate_dir.join("src/main.rs").is_file()
}

/// The `skills-runtime` folder `--path` names: the folder itself, or a
/// clone of the repository holding it. `None` without `--path`.
fn runtime_folder(path: Option<&Option<PathBuf>>) -> Option<Result<PathBuf, String>> {
    let given = match path? {
        Some(path) => path.clone(),
        None => {
            return Some(built_from().ok_or_else(|| {
                "--path: the clone this `skills` was built from is gone; give the path of a clone".to_owned()
            }));
        }
    };
    let is_runtime = |dir: &Path| {
        CargoToml::read(&dir.join("Cargo.toml"))
            .is_ok_and(|manifest| manifest.package_name() == Some("skills-runtime"))
    };
    let found = [given.clone(), given.join("skills-runtime")]
        .into_iter()
        .find(|dir| is_runtime(dir));
    Some(found.map(|dir| normalize(&absolute(&dir))).ok_or_else(|| {
        format!(
            "--path {}: neither it nor its `skills-runtime` folder is the skills-runtime crate",
            given.display()
        )
    }))
}

/// Adds the build-override to the workspace root's manifest (the crate's
/// own when it is the root).
fn build_override(manifest_path: &Path, manifest: &mut CargoToml, steps: &mut Steps) {
    let root = workspace_root(manifest_path);
    let same = root
        .as_ref()
        .is_none_or(|root| normalize(&absolute(root)) == normalize(&absolute(manifest_path)));
    let mut other;
    let (target, shown) = if same {
        (manifest, "Cargo.toml".to_owned())
    } else {
        let root = root.expect("checked above");
        other = match CargoToml::read(&root) {
            Ok(other) => other,
            Err(error) => {
                steps.failed(error);
                return;
            }
        };
        (&mut other, root.display().to_string())
    };
    match target.build_override_opt_level() {
        Some(level) => steps.unchanged(
            &shown,
            format!(
                "sets [profile.dev.build-override] opt-level = {}",
                level.to_string().trim()
            ),
        ),
        None => {
            target.add_build_override();
            match target.save() {
                Ok(()) => steps.changed(
                    &shown,
                    "added [profile.dev.build-override] opt-level = 3 (the macro runs optimised in dev builds)",
                ),
                Err(error) => steps.failed(format!("{shown}: cannot write it: {error}")),
            }
        }
    }
}

/// The workspace root's manifest, as Cargo locates it.
fn workspace_root(manifest_path: &Path) -> Option<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["locate-project", "--workspace", "--message-format", "plain"])
        .arg("--manifest-path")
        .arg(absolute(manifest_path))
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let path = String::from_utf8(output.stdout).ok()?;
    Some(PathBuf::from(path.trim()))
}

/// Makes the build script watch the skills folder.
fn build_script(crate_dir: &Path, manifest: &CargoToml, skills: &str, steps: &mut Steps) {
    let line = format!("println!(\"cargo::rerun-if-changed={skills}\");");
    let file = match manifest.build_key() {
        Some(value) if value.as_bool() == Some(false) => {
            steps.advise(format!(
                "Cargo.toml sets `build = false`: embed_skills! needs a build script with `{line}` (or `untracked` in the macro, and rebuilding by hand after adding files)"
            ));
            return;
        }
        Some(value) => match value.as_str() {
            Some(path) => path.to_owned(),
            None => "build.rs".to_owned(),
        },
        None => "build.rs".to_owned(),
    };
    let path = crate_dir.join(&file);
    let Ok(read) = write::read(&path) else {
        let script = format!(
            "// embed_skills! cannot watch a folder: this tells Cargo to rebuild the\n// crate when anything under `{skills}` changes.\nfn main() {{\n    {line}\n}}\n"
        );
        steps.write(crate_dir, &file, &script, &format!("watching `{skills}`"));
        return;
    };
    let watched = [
        format!("cargo::rerun-if-changed={skills}\""),
        format!("cargo:rerun-if-changed={skills}\""),
    ];
    let text = &read.text;
    if watched.iter().any(|directive| text.contains(directive)) {
        steps.unchanged(&file, format!("watches `{skills}`"));
        return;
    }
    if !text.contains("rerun-if-changed") {
        // Without any rerun-if-changed, Cargo reruns the script on every
        // change in the package; adding one would narrow what it watches.
        steps.unchanged(
            &file,
            format!(
                "prints no rerun-if-changed, so Cargo reruns it on any change in the package, `{skills}` included"
            ),
        );
        return;
    }
    match merge_line(&read.text, &line) {
        Some(merged) => match write::replace(&path, &read, &merged) {
            Ok(()) => steps.changed(&file, format!("added `{line}` to `main`")),
            Err(error) => steps.failed(format!("{file}: cannot write it: {error}")),
        },
        None => steps.advise(format!("{file}: add `{line}` to its `main`")),
    }
}

/// `text` with `line` as the first statement of `fn main`, indented like
/// the line after the brace; `None` when there is no `fn main(…) … {`.
fn merge_line(text: &str, line: &str) -> Option<String> {
    let main = text.find("fn main(")?;
    let brace = main + text[main..].find('{')?;
    let after = &text[brace + 1..];
    let indent = after
        .strip_prefix('\n')
        .map(|rest| {
            rest.chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .collect::<String>()
        })
        .filter(|indent| !indent.is_empty())
        .unwrap_or_else(|| "    ".to_owned());
    Some(format!("{}\n{indent}{line}{after}", &text[..=brace]))
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_goes_first_in_main() {
        let line = "println!(\"cargo::rerun-if-changed=skills\");";
        let script = "fn main() {\n    println!(\"cargo::rerun-if-changed=build.rs\");\n}\n";
        assert_eq!(
            merge_line(script, line).unwrap(),
            "fn main() {\n    println!(\"cargo::rerun-if-changed=skills\");\n    println!(\"cargo::rerun-if-changed=build.rs\");\n}\n"
        );
        let returning = "use std::error::Error;\nfn main() -> Result<(), Box<dyn Error>> {\n\tgen()?;\n\tOk(())\n}\n";
        let merged = merge_line(returning, line).unwrap();
        assert!(
            merged.contains(
                "Box<dyn Error>> {\n\tprintln!(\"cargo::rerun-if-changed=skills\");\n\tgen()?;"
            ),
            "{merged}"
        );
        assert_eq!(merge_line("// nothing here\n", line), None);
    }

    #[test]
    fn the_rmcp_added_is_the_workspaces() {
        // The Quickstart's `main` is compiled against this workspace's rmcp
        // (tests/pack-recipe.sh builds it); a crate `skills init` sets up
        // asks for the same.
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let text = std::fs::read_to_string(&root).unwrap();
        let document: toml_edit::DocumentMut = text.parse().unwrap();
        let workspace = document["workspace"]["dependencies"]["rmcp"]["version"]
            .as_str()
            .unwrap();
        let (krate, ours, _) = SERVE_DEPENDENCIES[0];
        assert_eq!((krate, ours), ("rmcp", workspace));
    }

    #[test]
    fn the_quickstart_main_serves_the_folder_given() {
        let main = quickstart_main("assets/skills");
        assert!(
            main.contains("static SKILLS: Skills = embed_skills!(\"assets/skills\");\n"),
            "{main}"
        );
        assert!(
            main.contains("\n    server::serve(SkillsServer::new(SKILLS.clone()), rmcp::transport::stdio_pipes()).await?;\n"),
            "{main}"
        );
        assert!(main.ends_with("    Ok(())\n}\n"), "{main}");
    }
}
