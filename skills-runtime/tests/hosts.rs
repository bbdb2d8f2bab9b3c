//! What hosts that predate SEP-2640 read: the resource listing in the shape
//! of Figma's server (which Claude Code follows today), checked field by
//! field against the design's example, and the version every entry and
//! every `SKILL.md` carries.

use skills_test_support as support;

use rmcp::model::SkillResources;
use serde_json::{Map, Value, json};
use skills_runtime::SkillsServer;
use support::{ERAS, Era, bytes_of, connect, raw};

/// The resource listing of the design notes (`../shared`), exactly as written there.
fn reference_listing() -> Vec<Value> {
    let path = support::needs::shared("reference/course-platform.md");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    let section = text
        .split("## The resource listing, exactly")
        .nth(1)
        .expect("the section");
    let block = section
        .split("```json")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a JSON block");
    serde_json::from_str(block).expect("the example is JSON")
}

fn keys(object: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = object
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    keys.sort_unstable();
    keys
}

#[tokio::test]
async fn the_instructions_use_the_load_hint() {
    let root = support::tree(
        "load-hint",
        &[("ard/SKILL.md", &support::skill_md("ard", "The handbook."))],
    );
    let server = SkillsServer::builder(support::load(&root))
        .load_hint(
            "ard",
            "Load BEFORE the first search/execute call about orders.",
        )
        .build()
        .unwrap();
    let instructions = server
        .instructions(&skills_runtime::server::Caller::anonymous())
        .unwrap_or_default();
    assert!(
        instructions.contains(
            "- skill://ard/SKILL.md: Load BEFORE the first search/execute call about orders.\n"
        ),
        "{instructions}"
    );
}

#[tokio::test]
async fn every_version_is_the_revision_of_the_files_served() {
    let skills = support::load(&support::needs::example_skills());
    let server = SkillsServer::new(skills);
    for era in ERAS {
        let client = connect(server.clone(), era).await;
        let entries = client.list_all_skills().await.unwrap();
        let resources = client.list_all_resources().await.unwrap();
        assert!(!entries.is_empty());
        for entry in &entries {
            let meta = serde_json::to_value(entry.meta.as_ref().expect("_meta")).unwrap();
            let version = meta["io.crates.skills-runtime/version"]
                .as_str()
                .expect("a version");
            // Recomputed from the bytes each file reads back as.
            let SkillResources::Files(files) = &entry.resources else {
                panic!("{} is dynamic", entry.uri);
            };
            let mut read = Vec::new();
            for file in files {
                let contents = client
                    .read_resource(rmcp::model::ReadResourceRequestParams::new(
                        file.uri.clone(),
                    ))
                    .await
                    .unwrap();
                let bytes = bytes_of(&contents.contents[0]);
                read.push((
                    file.uri.clone(),
                    skills_core::digest::sha256(&bytes),
                    bytes.len() as u64,
                ));
            }
            let recomputed = skills_core::digest::revision(
                read.iter()
                    .map(|(uri, digest, size)| (uri.as_str(), digest.as_str(), *size)),
            );
            assert_eq!(version, recomputed, "{era:?} {}", entry.uri);
            // The same version on its SKILL.md in resources/list.
            let listed = resources
                .iter()
                .find(|resource| resource.uri == entry.uri)
                .expect("listed");
            let listed_meta: Map<String, Value> = serde_json::from_value(
                serde_json::to_value(listed.meta.as_ref().unwrap()).unwrap(),
            )
            .unwrap();
            assert_eq!(
                listed_meta["io.crates.skills-runtime/version"], version,
                "{era:?}"
            );
        }
        client.cancel().await.unwrap();
    }
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;

    #[tokio::test]
    #[ignore = "needs ../shared/reference beside the clone"]
    async fn resources_are_listed_in_figmas_shape_field_by_field() {
        let example = reference_listing();
        let hint = example[1]["description"].as_str().unwrap().to_owned();
        let root = support::tree(
            "figma-shape",
            &[
                (
                    "ard/SKILL.md",
                    &support::skill_md(
                        "ard",
                        "The handbook of the ard platform. Use when helping a learner.",
                    ),
                ),
                (
                    "ard/references/buying.md",
                    "# Buying\n\nState the price first.\n",
                ),
            ],
        );
        let skills = support::load(&root);
        let server = SkillsServer::builder(skills.clone())
            .legacy_index(true)
            .list_supporting_files(true)
            .fastmcp_compatible(false)
            .load_hint("ard", &hint)
            .build()
            .unwrap();
        for era in ERAS {
            let answers = raw(server.clone(), era, &[json!({"method": "resources/list"})]).await;
            let ours = answers[0]["result"]["resources"].as_array().unwrap();
            assert_eq!(ours.len(), example.len(), "{era:?}: {ours:?}");
            for (index, (want, got)) in example.iter().zip(ours).enumerate() {
                for (key, value) in want.as_object().unwrap() {
                    match key.as_str() {
                        // The example's sizes are round numbers; ours are the file's.
                        "size" | "_meta" => {}
                        _ => assert_eq!(&got[key], value, "{era:?} entry {index}, `{key}`"),
                    }
                }
            }
            // The index, exactly as listed there, plus what it is.
            assert_eq!(
                keys(&ours[0]),
                ["description", "mimeType", "name", "uri"],
                "{era:?}"
            );
            // SKILL.md: its size twice, and its version.
            let skill_md = skills.get("ard").unwrap().skill_md().size();
            assert_eq!(
                keys(&ours[1]),
                [
                    "_meta",
                    "description",
                    "mimeType",
                    "name",
                    "size",
                    "title",
                    "uri"
                ],
                "{era:?}"
            );
            assert_eq!(ours[1]["size"], skill_md);
            assert_eq!(ours[1]["_meta"]["size"], skill_md);
            assert_eq!(
                keys(&ours[1]["_meta"]),
                ["io.crates.skills-runtime/version", "size"],
                "{era:?}"
            );
            // A reference: as listed there, plus its size.
            assert_eq!(
                keys(&ours[2]),
                ["description", "mimeType", "name", "size", "title", "uri"],
                "{era:?}"
            );
            let buying = skills
                .get("ard")
                .unwrap()
                .file("references/buying.md")
                .unwrap();
            assert_eq!(ours[2]["size"], buying.size());
        }

        // Without a hint, the frontmatter description; the index reads.
        let plain = SkillsServer::builder(skills)
            .legacy_index(true)
            .build()
            .unwrap();
        let answers = raw(
            plain,
            Era::Handshake,
            &[
                json!({"method": "resources/list"}),
                json!({"method": "resources/read", "params": {"uri": "skill://index.json"}}),
            ],
        )
        .await;
        assert_eq!(
            answers[0]["result"]["resources"][1]["description"],
            "The handbook of the ard platform. Use when helping a learner."
        );
        let index: Value = serde_json::from_str(
            answers[1]["result"]["contents"][0]["text"]
                .as_str()
                .unwrap(),
        )
        .unwrap();
        assert_eq!(index["skills"][0]["url"], "skill://ard/SKILL.md");
    }
}
