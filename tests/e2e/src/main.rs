//! `skills-test-server`: an MCP server for the end-to-end tests, serving one
//! of four skill trees over stdio or streamable HTTP: the repository's two
//! (embedded at compile time) or one of `../shared` (loaded at start-up, so
//! that the package builds on a clone with nothing beside it).
//!
//! ```text
//! skills-test-server --tree examples|fixtures|corpus|sample
//!                    [--http 127.0.0.1:0 [--stateless]]
//!                    [--skills-page-size N] [--list-files] [--legacy-index] [--prompts]
//! skills-test-server --tree T --summary      # the embedded tree as JSON, then exit
//! skills-test-server --dir PATH               # a folder loaded at run time instead
//! ```
//!
//! - stdio (default): JSON-RPC on stdin/stdout, nothing else on stdout.
//! - `--http ADDR`: streamable HTTP at `/mcp` (`skills_runtime::http`, like
//!   examples/http_server.rs). Once bound it prints exactly one line,
//!   `listening http://ADDR`, on stdout (the MCP endpoint is that plus `/mcp`). `--stateless`: no sessions, JSON
//!   responses (2026-07-28 clients are served that way regardless).
//! - `--skills-page-size N`: skills per `skills/list` page (default 100).
//! - `--list-files`: list every supporting file in `resources/list`.
//! - `--legacy-index`: serve Figma's `skill://index.json`.
//! - `--prompts`: serve each skill as an MCP prompt as well.
//! - `--summary`: print the tree's skills and file counts, which the tests
//!   compare with what each client reports.
//! - `--dir PATH`: serve a folder loaded at run time (skills-core's loader,
//!   `dependencies` allowed in frontmatter), for the client tests' own trees.

use std::net::SocketAddr;

use anyhow::{Context as _, bail};
use skills_runtime::http::{Server, SkillsRouter};
use skills_runtime::{Skills, SkillsServer, embed_skills};

// Paths are relative to this package (`tests/e2e`); build.rs watches both.

/// The repository's example skills (3 skills, 13 files).
static EXAMPLES: Skills = embed_skills!("../../examples/skills");
/// The repository's fixture corpus (7 skills, 21 files: binary files,
/// executable scripts, a nested skill, grouped skills, a file name with a
/// space and accents).
static FIXTURES: Skills = embed_skills!("../fixtures/corpus");

struct Options {
    tree: &'static str,
    dir: Option<std::path::PathBuf>,
    http: Option<SocketAddr>,
    stateless: bool,
    skills_page_size: Option<usize>,
    list_files: bool,
    legacy_index: bool,
    prompts: bool,
    summary: bool,
}

const USAGE: &str = "usage: skills-test-server --tree examples|fixtures|corpus|sample|--dir PATH [--http ADDR [--stateless]] \
     [--skills-page-size N] [--list-files] [--legacy-index] [--prompts] [--summary]";

fn options() -> anyhow::Result<Options> {
    let mut options = Options {
        tree: "",
        dir: None,
        http: None,
        stateless: false,
        skills_page_size: None,
        list_files: false,
        legacy_index: false,
        prompts: false,
        summary: false,
    };
    let mut arguments = std::env::args().skip(1);
    while let Some(argument) = arguments.next() {
        let mut value = |name: &str| {
            arguments
                .next()
                .with_context(|| format!("{name} needs a value\n{USAGE}"))
        };
        match argument.as_str() {
            "--tree" => {
                options.tree = match value("--tree")?.as_str() {
                    "examples" => "examples",
                    "fixtures" => "fixtures",
                    "corpus" => "corpus",
                    "sample" => "sample",
                    other => bail!("unknown tree {other:?}\n{USAGE}"),
                }
            }
            "--dir" => options.dir = Some(value("--dir")?.into()),
            "--http" => options.http = Some(value("--http")?.parse().context("--http ADDR")?),
            "--stateless" => options.stateless = true,
            "--skills-page-size" => {
                options.skills_page_size = Some(
                    value("--skills-page-size")?
                        .parse()
                        .context("--skills-page-size N")?,
                );
            }
            "--list-files" => options.list_files = true,
            "--legacy-index" => options.legacy_index = true,
            "--prompts" => options.prompts = true,
            "--summary" => options.summary = true,
            other => bail!("unknown argument {other:?}\n{USAGE}"),
        }
    }
    if options.tree.is_empty() == options.dir.is_none() {
        bail!("one of --tree and --dir is required\n{USAGE}");
    }
    if options.stateless && options.http.is_none() {
        bail!("--stateless needs --http\n{USAGE}");
    }
    Ok(options)
}

/// The tree called `name`: embedded, or loaded from `../shared` with the
/// rules `embed_skills!` applies. `corpus` is the shared corpus of real
/// skills (23 skills; fonts, PDFs, tarballs), or `$SKILLS_CORPUS`; `sample`
/// is the tree the FastMCP and fast-agent reference captures were made on.
fn tree(name: &str) -> anyhow::Result<Skills> {
    let shared = skills_test_paths::shared_path;
    let folder = match name {
        "examples" => return Ok(EXAMPLES.clone()),
        "fixtures" => return Ok(FIXTURES.clone()),
        "corpus" => std::env::var_os("SKILLS_CORPUS")
            .filter(|value| !value.is_empty())
            .map_or_else(|| shared("corpus/real"), Into::into),
        _ => shared("reference/captures/sample-skills"),
    };
    if !folder.is_dir() {
        bail!(
            "the `{name}` tree needs {}: clone this repository beside the shared folder",
            folder.display()
        );
    }
    Ok(skills_core::load(&folder, &skills_core::Options::default())
        .map_err(|report| anyhow::anyhow!("{report}"))?
        .into_skills())
}

/// What the tests compare the clients' counts with.
fn summary(name: &str, skills: &Skills) -> serde_json::Value {
    let entries: Vec<serde_json::Value> = skills
        .skills()
        .iter()
        .map(|skill| {
            serde_json::json!({
                "name": skill.name(),
                "uri": skill.uri(),
                "files": skill.files().len(),
                "bytes": skill.total_size(),
            })
        })
        .collect();
    serde_json::json!({
        "tree": name,
        "skills": skills.len(),
        "files": skills.skills().iter().map(|skill| skill.files().len()).sum::<usize>(),
        "entries": entries,
    })
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> anyhow::Result<()> {
    let options = options()?;
    let skills = match &options.dir {
        Some(dir) => {
            let mut load = skills_core::Options::default();
            load.allow_fields = vec!["dependencies".into()];
            skills_core::load(dir, &load)
                .map_err(|report| anyhow::anyhow!("{report}"))?
                .into_skills()
        }
        None => tree(options.tree)?,
    };
    if options.summary {
        println!("{:#}", summary(options.tree, &skills));
        return Ok(());
    }
    let mut builder = SkillsServer::builder(skills)
        .list_supporting_files(options.list_files)
        .legacy_index(options.legacy_index)
        .prompts(options.prompts);
    if let Some(size) = options.skills_page_size {
        builder = builder.skills_page_size(size);
    }
    let server = builder
        .build()
        .map_err(|report| anyhow::anyhow!("{report}"))?;

    let Some(bind) = options.http else {
        skills_runtime::server::serve(server, rmcp::transport::stdio_pipes()).await?;
        return Ok(());
    };
    let router = SkillsRouter::new(server)
        .stateless(options.stateless)
        .build();
    Server::bind(bind).await?.serve(router).await?;
    Ok(())
}
