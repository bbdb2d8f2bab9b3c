//! `HostCatalog` asks before it trusts, and keeps its context within a
//! budget (issue 22 part 3): an unapproved skill never reaches the model, a
//! changed digest asks again, a saved record round-trips, and the budget
//! holds on the repository's fixture corpus and on the real one.

use skills_test_support as support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use sha2::Digest as _;
use skills_runtime::SkillsServer;
use skills_runtime::client::{
    ApprovalRecord, ApprovalRequest, ApprovalState, ClientError, ContextBudget, HostCatalog,
    LOAD_SKILL, MIN_DESCRIPTION_CHARS, ToolCall,
};
use support::Era;
use support::client::{Methods, skill_methods, tapped};

/// One skill of a test tree: its name, its `SKILL.md` body, its other files.
type SkillSpec<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

/// A tree of skills loaded as the macro would.
fn tree(test: &str, skills: &[SkillSpec<'_>]) -> skills_runtime::Skills {
    let mut files: Vec<(String, String)> = Vec::new();
    for (name, body, others) in skills {
        files.push((
            format!("{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: The {name} skill.\n---\n{body}\n"),
        ));
        for (path, text) in *others {
            files.push((format!("{name}/{path}"), (*text).to_owned()));
        }
    }
    support::skills_of(test, &files, &skills_core::Options::default())
}

fn digest(text: &str) -> String {
    let hash = sha2::Sha256::digest(text.as_bytes());
    let hex: String = hash.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("sha256:{hex}")
}

/// Every approval request the hook heard, and the skills it approves.
#[derive(Clone, Default)]
struct Asked {
    requests: Arc<Mutex<Vec<ApprovalRequest>>>,
    approve: Arc<Mutex<Vec<&'static str>>>,
}

impl Asked {
    fn take(&self) -> Vec<ApprovalRequest> {
        std::mem::take(&mut self.requests.lock().unwrap())
    }

    /// From now on, the hook approves only `skills`.
    fn approve(&self, skills: &[&'static str]) {
        *self.approve.lock().unwrap() = skills.to_vec();
    }
}

/// A catalog whose approval hook approves the skills named in `approve`
/// and declines the others, noting every request.
fn asking(asked: &Asked, approve: &[&'static str]) -> HostCatalog {
    asked.approve(approve);
    let asked = asked.clone();
    HostCatalog::new().on_approval(move |request| {
        let yes = asked
            .approve
            .lock()
            .unwrap()
            .contains(&request.skill.as_str());
        asked.requests.lock().unwrap().push(request);
        async move { yes }
    })
}

fn reads(methods: &Methods) -> usize {
    skill_methods(methods)
        .iter()
        .filter(|method| *method == "resources/read" || *method == "skills/get")
        .count()
}

fn offered_names(catalog: &HostCatalog) -> serde_json::Value {
    catalog.tools()[0].parameters["properties"]["skillName"]["enum"].clone()
}

#[tokio::test]
async fn an_unapproved_skill_never_reaches_the_model() {
    let skills = tree(
        "approval-refuse",
        &[
            (
                "audit",
                "# Audit",
                &[("references/steps.md", "count twice")],
            ),
            ("orders", "# Orders", &[]),
        ],
    );
    let audit_md = "---\nname: audit\ndescription: The audit skill.\n---\n# Audit\n";
    let (client, methods) = tapped(SkillsServer::new(skills), Era::Modern).await;
    let asked = Asked::default();
    let catalog = asking(&asked, &["orders"]);
    catalog
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    assert!(
        catalog
            .skills()
            .iter()
            .all(|skill| skill.approval == ApprovalState::Pending)
    );

    let outcome = catalog
        .call(&ToolCall::new(LOAD_SKILL, json!({"skillName": "audit"})))
        .await;
    assert!(outcome.is_error);
    assert_eq!(
        outcome.text,
        "`audit` (from `larder`) is not approved by the host, so it was not loaded and none of its files were read; do not retry it unless the user approves it"
    );
    assert_eq!(reads(&methods), 0, "no file of a declined skill is read");

    // The hook saw the exact file set, with sizes and digests, the first time.
    let requests = asked.take();
    assert_eq!(requests.len(), 1);
    let request = &requests[0];
    assert_eq!(
        (request.skill.as_str(), request.server.as_str()),
        ("audit", "larder")
    );
    assert_eq!(request.uri, "skill://audit/SKILL.md");
    assert_eq!(request.previous, None);
    let files: Vec<(&str, u64, &str)> = request
        .files
        .iter()
        .map(|file| (file.path.as_str(), file.size, file.digest.as_str()))
        .collect();
    let skill_md_digest = digest(audit_md);
    let steps_digest = digest("count twice");
    assert_eq!(
        files,
        [
            ("SKILL.md", audit_md.len() as u64, skill_md_digest.as_str()),
            ("references/steps.md", 11, steps_digest.as_str()),
        ]
    );

    // Declined is remembered: not offered, and refused without asking again.
    let audit = |catalog: &HostCatalog| {
        catalog
            .skills()
            .into_iter()
            .find(|skill| skill.name == "audit")
            .unwrap()
    };
    assert_eq!(audit(&catalog).approval, ApprovalState::Declined);
    assert_eq!(catalog.context_blocks(), ["orders: The orders skill."]);
    assert_eq!(offered_names(&catalog), json!(["orders"]));
    let again = catalog.load_skill("audit").await.unwrap_err();
    assert!(
        matches!(&again, ClientError::NotApproved { skill, server } if skill == "audit" && server == "larder"),
        "{again}"
    );
    assert!(asked.take().is_empty(), "a decided set is not asked again");
    assert_eq!(reads(&methods), 0);

    // An approved skill loads, reading its SKILL.md only, and stays approved.
    let text = catalog.load_skill("orders").await.unwrap();
    assert!(text.starts_with("---\nname: orders\n"), "{text}");
    assert_eq!(asked.take().len(), 1);
    assert_eq!(skill_methods(&methods), ["skills/list", "resources/read"]);
    catalog.unload_skill("orders").await.unwrap();
    catalog.load_skill("orders").await.unwrap();
    assert!(
        asked.take().is_empty(),
        "an approved set is not asked again"
    );
}

#[tokio::test]
async fn a_changed_digest_asks_again() {
    let before = tree(
        "approval-change-1",
        &[("audit", "# Audit", &[]), ("orders", "# Orders", &[])],
    );
    let server = SkillsServer::builder(before)
        .notify_changes(true)
        .build()
        .unwrap();
    let (client, methods) = tapped(server.clone(), Era::Modern).await;
    let asked = Asked::default();
    let unloads: Arc<Mutex<Vec<String>>> = Arc::default();
    let heard = unloads.clone();
    let catalog = asking(&asked, &["audit"]).on_unload(move |unloaded| {
        heard.lock().unwrap().push(unloaded.skill);
        async {}
    });
    catalog
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    catalog.load_skill("audit").await.unwrap();
    let first = asked.take();
    assert_eq!(first.len(), 1);
    for _ in 0..100 {
        if skill_methods(&methods)
            .iter()
            .any(|method| method == "subscriptions/listen")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // The server's audit changes: SKILL.md's bytes, and a file added. Its
    // list_changed re-lists; the loaded skill is unloaded and pending again.
    let changed_md = "---\nname: audit\ndescription: The audit skill.\n---\n# Audit, v2\n";
    assert!(
        server
            .replace(tree(
                "approval-change-2",
                &[
                    ("audit", "# Audit, v2", &[("notes.md", "new")]),
                    ("orders", "# Orders", &[]),
                ],
            ))
            .unwrap()
    );
    let audit = |catalog: &HostCatalog| {
        catalog
            .skills()
            .into_iter()
            .find(|skill| skill.name == "audit")
            .unwrap()
    };
    for _ in 0..100 {
        if audit(&catalog).approval == ApprovalState::Pending {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let now = audit(&catalog);
    assert_eq!(now.approval, ApprovalState::Pending, "the set changed");
    assert!(!now.loaded, "changed content is not kept loaded");
    assert_eq!(*unloads.lock().unwrap(), ["audit"]);

    // The next load asks again, saying what changed; declined, nothing is read.
    asked.approve(&[]);
    let reads_before = reads(&methods);
    let asked_again = asking_once(&catalog, &asked, "audit").await;
    let previous = asked_again.previous.expect("a previous decision");
    assert!(previous.approved);
    let added: Vec<&str> = previous
        .added
        .iter()
        .map(|file| file.path.as_str())
        .collect();
    assert_eq!(added, ["notes.md"]);
    assert!(previous.removed.is_empty());
    assert_eq!(previous.changed.len(), 1);
    assert_eq!(previous.changed[0].before.path, "SKILL.md");
    assert_eq!(previous.changed[0].before, first[0].files[0]);
    assert_eq!(previous.changed[0].after.digest, digest(changed_md));
    assert_eq!(reads(&methods), reads_before);
}

/// Loads `name` once with a hook that declines, and returns what it was asked.
async fn asking_once(catalog: &HostCatalog, asked: &Asked, name: &str) -> ApprovalRequest {
    let error = catalog.load_skill(name).await.unwrap_err();
    assert!(matches!(error, ClientError::NotApproved { .. }), "{error}");
    let mut requests = asked.take();
    assert_eq!(requests.len(), 1, "asked once");
    requests.remove(0)
}

#[tokio::test]
async fn content_changed_after_approval_without_a_notice_is_refused() {
    let server = SkillsServer::new(tree("approval-silent-1", &[("audit", "# Audit", &[])]));
    let (client, _) = tapped(server.clone(), Era::Modern).await;
    let asked = Asked::default();
    let catalog = asking(&asked, &["audit"]);
    catalog
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    // The server changes the bytes and tells no one: the catalog still
    // holds the approved digests, which the new bytes do not match.
    assert!(
        server
            .replace(tree("approval-silent-2", &[("audit", "# Changed", &[])]))
            .unwrap()
    );
    let error = catalog.load_skill("audit").await.unwrap_err();
    assert!(error.is_verification(), "{error}");
    assert!(!catalog.skills()[0].loaded);
    assert_eq!(asked.take().len(), 1, "approved, then the read was refused");
}

#[tokio::test]
async fn a_saved_record_round_trips() {
    let skills = tree(
        "approval-record",
        &[
            ("audit", "# Audit", &[("a.md", "a")]),
            ("orders", "# Orders", &[]),
        ],
    );
    let server = SkillsServer::new(skills);
    let (client, _) = tapped(server.clone(), Era::Modern).await;
    let asked = Asked::default();
    let first = asking(&asked, &["audit"]);
    first
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    first.load_skill("audit").await.unwrap();
    first.load_skill("orders").await.unwrap_err();
    assert_eq!(asked.take().len(), 2);

    let record = first.approvals();
    let saved = serde_json::to_string_pretty(&record).unwrap();
    let value: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(value["decisions"][0]["skill"], "audit");
    assert_eq!(value["decisions"][0]["approved"], true);
    assert_eq!(value["decisions"][0]["files"][0]["path"], "SKILL.md");
    assert!(
        value["decisions"][0]["files"][0]["digest"]
            .as_str()
            .unwrap()
            .starts_with("sha256:")
    );
    assert_eq!(value["decisions"][1]["approved"], false);
    let given_back: ApprovalRecord = serde_json::from_str(&saved).unwrap();
    assert_eq!(given_back, record);

    // A new session with the saved record asks about nothing.
    let (client, methods) = tapped(server, Era::Modern).await;
    let asked = Asked::default();
    let second = asking(&asked, &[]).with_approvals(given_back);
    second
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    let states: Vec<(String, ApprovalState)> = second
        .skills()
        .into_iter()
        .map(|skill| (skill.name, skill.approval))
        .collect();
    assert_eq!(
        states,
        [
            ("audit".to_owned(), ApprovalState::Approved),
            ("orders".to_owned(), ApprovalState::Declined)
        ]
    );
    second.load_skill("audit").await.unwrap();
    second.load_skill("orders").await.unwrap_err();
    assert!(asked.take().is_empty(), "the record answered");
    assert_eq!(second.approvals(), record);
    assert_eq!(reads(&methods), 1, "audit's SKILL.md only");
}

#[tokio::test]
async fn without_a_hook_every_skill_is_trusted() {
    let (client, _) = tapped(
        SkillsServer::new(tree("approval-none", &[("audit", "# Audit", &[])])),
        Era::Modern,
    )
    .await;
    let catalog = HostCatalog::new();
    catalog
        .add_server("larder", client.peer().clone())
        .await
        .unwrap();
    assert_eq!(catalog.skills()[0].approval, ApprovalState::Approved);
    catalog.load_skill("audit").await.unwrap();
    assert!(catalog.approvals().decisions.is_empty());
}

/// Serves `skills`, then checks the catalog's text against budgets from
/// roomy to tiny: it always fits, descriptions shrink before skills go, the
/// text counts what it left out, and `load_skill` still takes every name.
async fn the_budget_holds(skills: skills_runtime::Skills) {
    let count = skills.len();
    let (client, _) = tapped(SkillsServer::new(skills), Era::Modern).await;
    let unbounded = HostCatalog::new();
    unbounded
        .add_server("corpus", client.peer().clone())
        .await
        .unwrap();
    let full = unbounded.preamble();
    let full_chars = full.chars().count();
    assert_eq!(unbounded.context_blocks().len(), count);

    let mut left_out_somewhere = false;
    let mut shortened_somewhere = false;
    let budgets = [
        ContextBudget::chars(full_chars),
        ContextBudget::chars(full_chars * 3 / 4),
        ContextBudget::chars(full_chars / 2),
        ContextBudget::chars(full_chars / 4),
        ContextBudget::chars(120),
        ContextBudget::chars(5),
        ContextBudget::tokens(full_chars / 8),
        ContextBudget::counted_by(40, |text| text.split_whitespace().count()),
    ];
    for budget in budgets {
        let catalog = HostCatalog::new().context_budget(budget.clone());
        catalog
            .add_server("corpus", client.peer().clone())
            .await
            .unwrap();
        let context = catalog.context();
        assert!(
            budget.fits(&context.text),
            "{budget:?}: {} over\n{}",
            budget.measure(&context.text),
            context.text
        );
        assert_eq!(catalog.preamble(), context.text);
        assert_eq!(context.blocks.len() + context.left_out.len(), count);
        if context.description_chars < 300 {
            shortened_somewhere = true;
        }
        if !context.left_out.is_empty() {
            left_out_somewhere = true;
            assert_eq!(
                context.description_chars, MIN_DESCRIPTION_CHARS,
                "{budget:?}: descriptions are shortened before skills are left out"
            );
            if !context.blocks.is_empty() {
                assert!(
                    context
                        .text
                        .contains(&format!("{} more skill", context.left_out.len())),
                    "{budget:?}: the text says how many were left out\n{}",
                    context.text
                );
            }
            // Every name stays loadable; the tool lists the names only
            // when its definition fits the budget too.
            let load = &catalog.tools()[0];
            let seen = format!("{}\n{}\n{}", load.name, load.description, load.parameters);
            match load.parameters["properties"]["skillName"].get("enum") {
                Some(names) => {
                    assert_eq!(names.as_array().unwrap().len(), count);
                    assert!(budget.fits(&seen), "{budget:?}: {seen}");
                }
                None => assert!(!load.description.contains("Available skills")),
            }
            let left = &context.left_out[0];
            let outcome = catalog
                .call(&ToolCall::new(LOAD_SKILL, json!({"skillName": left})))
                .await;
            assert!(!outcome.is_error, "{left}: {}", outcome.text);
        } else {
            assert_eq!(context.blocks.len(), count);
        }
    }
    assert!(shortened_somewhere && left_out_somewhere);
}

#[tokio::test]
async fn the_budget_holds_on_the_fixture_corpus() {
    the_budget_holds(support::load(&support::needs::fixture_corpus())).await;
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;
    use skills_test_support::needs;

    #[tokio::test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    async fn the_budget_holds_on_the_real_corpus() {
        the_budget_holds(support::load(&needs::shared("corpus/real"))).await;
    }
}
