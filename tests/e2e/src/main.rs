//! `skills-test-server`: an MCP server for the end-to-end tests, serving one
//! of three skill trees embedded at compile time, over stdio or streamable HTTP.
//!
//! ```text
//! skills-test-server --tree examples|corpus|sample
//!                    [--http 127.0.0.1:0 [--stateless]]
//!                    [--skills-page-size N] [--list-files] [--legacy-index]
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
//! - `--summary`: print the tree's skills and file counts, which the tests
//!   compare with what each client reports.
//! - `--dir PATH`: serve a folder loaded at run time (skills-core's loader,
//!   `dependencies` allowed in frontmatter), for the client tests' own trees.

use std::net::SocketAddr;

use anyhow::{Context as _, bail};
use rmcp::ServiceExt as _;
use skills_runtime::http::{SkillsRouter, serve};
use skills_runtime::{Skills, SkillsServer, embed_skills};

// Paths are relative to this package (`tests/e2e`): `../../skills` is the
// repository's `skills/`, and `shared/` is the repository's sibling.
// build.rs watches all three (and SKILLS_CORPUS).

/// The repository's example skills (3 skills, 13 files).
static EXAMPLES: Skills = embed_skills!("../../skills");
/// The shared corpus of real skills (23 skills; fonts, PDFs, tarballs).
static CORPUS: Skills = embed_skills!("${SKILLS_CORPUS:-../../../shared/corpus/real}");
/// The tree the FastMCP and fast-agent reference captures were made on.
static SAMPLE: Skills = embed_skills!("../../../shared/reference/captures/sample-skills");

struct Options {
    tree: &'static str,
    dir: Option<std::path::PathBuf>,
    http: Option<SocketAddr>,
    stateless: bool,
    skills_page_size: Option<usize>,
    list_files: bool,
    legacy_index: bool,
    summary: bool,
}

const USAGE: &str = "usage: skills-test-server --tree examples|corpus|sample|--dir PATH [--http ADDR [--stateless]] \
     [--skills-page-size N] [--list-files] [--legacy-index] [--summary]";

fn options() -> anyhow::Result<Options> {
    let mut options = Options {
        tree: "",
        dir: None,
        http: None,
        stateless: false,
        skills_page_size: None,
        list_files: false,
        legacy_index: false,
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

fn tree(name: &str) -> &'static Skills {
    match name {
        "examples" => &EXAMPLES,
        "corpus" => &CORPUS,
        _ => &SAMPLE,
    }
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
        None => tree(options.tree).clone(),
    };
    if options.summary {
        println!("{:#}", summary(options.tree, &skills));
        return Ok(());
    }
    let mut builder = SkillsServer::builder(skills)
        .list_supporting_files(options.list_files)
        .legacy_index(options.legacy_index);
    if let Some(size) = options.skills_page_size {
        builder = builder.skills_page_size(size);
    }
    let server = builder.build();

    let Some(bind) = options.http else {
        server
            .serve(rmcp::transport::stdio())
            .await?
            .waiting()
            .await?;
        return Ok(());
    };
    let router = SkillsRouter::new(server)
        .stateless(options.stateless)
        .build();
    serve(bind, router).await?;
    Ok(())
}
