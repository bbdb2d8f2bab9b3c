//! The README's Quickstart answers as the README says: its `SKILL.md`,
//! served, gives the `skills/list` answer printed under it, digests and
//! `_meta` keys included (a newcomer compares the two by eye).

use skills_test_support as support;

use serde_json::{Value, json};
use skills_runtime::SkillsServer;
use skills_runtime::load::Options;
use support::{Era, raw};

/// The Quickstart section of the workspace's README.
fn quickstart() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md");
    let readme = std::fs::read_to_string(path).expect("README.md beside the workspace");
    let start = readme
        .find("\n## Quickstart")
        .expect("README.md has a Quickstart");
    let end = readme[start + 1..]
        .find("\n## ")
        .map_or(readme.len(), |end| start + 1 + end);
    readme[start..end].to_owned()
}

/// The body of the first fenced block of `section` whose info string is `lang`.
fn block<'a>(section: &'a str, lang: &str) -> &'a str {
    let open = format!("```{lang}\n");
    let start = section
        .find(&open)
        .unwrap_or_else(|| panic!("the Quickstart has no ```{lang} block"))
        + open.len();
    let end = section[start..].find("```").expect("the block is closed");
    &section[start..start + end]
}

#[tokio::test]
async fn the_quickstart_skill_lists_as_the_readme_prints() {
    let section = quickstart();
    let skill_md = block(&section, "markdown");
    let printed: Value = serde_json::from_str(block(&section, "json")).expect("the sample is JSON");
    let root = support::tree("readme-quickstart", &[("stock-audit/SKILL.md", skill_md)]);
    let skills = skills_runtime::load::load(&root, &Options::default())
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills();
    let answers = raw(
        SkillsServer::new(skills),
        Era::Handshake,
        &[json!({"method": "skills/list"})],
    )
    .await;
    assert_eq!(
        answers[0]["result"], printed["result"],
        "README.md's Quickstart sample differs from what the server sends"
    );
}
