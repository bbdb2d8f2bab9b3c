//! Files whose content is known only at run time: a SKILL.md links to a
//! file declared `generated`; the server refuses to serve the set until the
//! program adds it (`add_files`, with the loader's rules and digests); two
//! replicas adding the same bytes agree on every fingerprint, so a cursor
//! from one continues on the other.

use skills_test_support as support;

use serde_json::json;
use skills_core::Rule;
use skills_runtime::load::{Options, add_files};
use skills_runtime::{Skills, SkillsServer};
use support::{ERAS, raw};

const PLATFORM: &str = "---\nname: platform\ndescription: How the platform works. Use before the first search or execute call.\n---\n# Platform\n\nThe routes are in [the API reference](references/api.md).\n";

fn options() -> Options {
    let mut options = Options::default();
    options.generated = vec!["platform/references/api.md".to_owned()];
    options
}

/// The platform's tree (with a few more skills, so listings have pages), loaded on its own.
fn replica(name: &str) -> Skills {
    let mut files = vec![("platform/SKILL.md".to_owned(), PLATFORM.to_owned())];
    for n in 0..3 {
        files.push((
            format!("s{n}/SKILL.md"),
            support::skill_md(&format!("s{n}"), "Another skill. Use when testing."),
        ));
    }
    support::skills_of(name, &files, &options())
}

/// What the server renders at start-up from its own routes.
fn api_md() -> String {
    "# API\n\n- `GET /courses`: list the courses. Call it first.\n".to_owned()
}

#[tokio::test]
async fn a_declared_file_is_refused_until_added_then_served() {
    let pending = replica("generated-pending");
    assert_eq!(
        pending.pending_files().collect::<Vec<_>>(),
        ["platform/references/api.md"]
    );
    let report = SkillsServer::builder(pending.clone()).build().unwrap_err();
    assert_eq!(report.errors().next().unwrap().rule, Rule::Generated);
    assert!(
        report.to_string().contains("platform/references/api.md"),
        "{report}"
    );

    let ready = add_files(
        &pending,
        [("platform/references/api.md", api_md())],
        &options(),
    )
    .unwrap();
    let server = SkillsServer::builder(ready.clone()).build().unwrap();
    // replace() keeps serving the good set when handed one it cannot serve.
    assert!(server.replace(pending).is_err());
    assert_eq!(server.skills().fingerprint(), ready.fingerprint());

    for era in ERAS {
        let answers = raw(
            server.clone(),
            era,
            &[
                json!({"method": "resources/read", "params": {"uri": "skill://platform/references/api.md"}}),
                json!({"method": "skills/get", "params": {"uri": "skill://platform/SKILL.md"}}),
            ],
        )
        .await;
        assert_eq!(
            answers[0]["result"]["contents"][0]["text"],
            api_md(),
            "{era:?}"
        );
        let files = answers[1]["result"]["skill"]["resources"]
            .as_array()
            .unwrap();
        let api = files
            .iter()
            .find(|file| file["uri"] == "skill://platform/references/api.md")
            .expect("listed in the entry");
        assert_eq!(
            api["digest"],
            skills_core::digest::sha256(api_md().as_bytes())
        );
        assert_eq!(
            answers[1]["result"]["skill"]["_meta"]["io.crates.skills-runtime/version"],
            ready.get("platform").unwrap().version()
        );
    }
}

#[tokio::test]
async fn replicas_generating_the_same_bytes_share_fingerprints_and_cursors() {
    let add = |skills: Skills| {
        add_files(
            &skills,
            [("platform/references/api.md", api_md())],
            &options(),
        )
        .unwrap()
    };
    let (one, two) = (
        add(replica("generated-replica-1")),
        add(replica("generated-replica-2")),
    );
    assert_eq!(one.fingerprint(), two.fingerprint());
    let serve = |skills: Skills| {
        SkillsServer::builder(skills)
            .skills_page_size(1)
            .build()
            .unwrap()
    };
    let (one, two) = (serve(one), serve(two));
    for era in ERAS {
        let first = raw(one.clone(), era, &[json!({"method": "skills/list"})]).await;
        let cursor = first[0]["result"]["nextCursor"]
            .as_str()
            .unwrap()
            .to_owned();
        let next = json!({"method": "skills/list", "params": {"cursor": cursor}});
        let from_one = raw(one.clone(), era, std::slice::from_ref(&next)).await;
        let from_two = raw(two.clone(), era, &[next]).await;
        assert!(from_two[0]["error"].is_null(), "{era:?}: {}", from_two[0]);
        assert_eq!(from_one, from_two, "{era:?}");
    }
    // Other bytes, another fingerprint: a cursor is not carried across.
    let other = add_files(
        &replica("generated-replica-3"),
        [("platform/references/api.md", "# Another API\n")],
        &options(),
    )
    .unwrap();
    assert_ne!(other.fingerprint(), one.skills().fingerprint());
}
