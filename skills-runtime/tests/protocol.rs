//! The wire behaviour of `SkillsServer` on both protocol eras, in process:
//! SEP-2640 methods, reads, listings, cursors, errors, compatibility layers.

use skills_test_support as support;

use rmcp::model::{
    CallToolRequestParams, ErrorCode, GetSkillRequestParams, PaginatedRequestParams,
    ReadResourceDirectoryRequestParams, ReadResourceRequestParams, ResourceContents,
    SkillResources, sha256_digest, validate_skills,
};
use rmcp::service::ServiceError;
use serde_json::{Value, json};
use skills_runtime::server::Access;
use skills_runtime::{Skills, SkillsServer, embed_skills};
use support::{ERAS, Era, bytes_of, connect, raw, raw_as};

use support::trees::EXAMPLES as SKILLS;

fn server() -> SkillsServer {
    SkillsServer::new(SKILLS.clone())
}

fn mcp_error(error: ServiceError) -> rmcp::ErrorData {
    match error {
        ServiceError::McpError(error) => error,
        other => panic!("expected an MCP error, got {other:?}"),
    }
}

#[tokio::test]
async fn both_eras_see_the_extension_and_the_authors_crate() {
    for era in ERAS {
        let client = connect(server(), era).await;
        let info = client.peer_info().expect("connected");
        let capabilities = &info.capabilities;
        assert!(capabilities.supports_skills(), "{era:?}");
        assert!(capabilities.supports_directory_read(), "{era:?}");
        assert!(capabilities.resources.is_some(), "{era:?}");
        let name = info.server_info.clone().unwrap_or_default().name;
        // The crate that embedded the skills (skills-test-support's `trees`).
        assert_eq!(
            name, "skills-test-support",
            "{era:?}: not rmcp's default name"
        );
        let expected = if era == Era::Modern {
            "2026-07-28"
        } else {
            "2025-11-25"
        };
        assert_eq!(info.protocol_version.as_str(), expected);
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn entries_hold_every_file_and_field_and_pass_rmcps_validation() {
    for era in ERAS {
        let client = connect(server(), era).await;
        let entries = client.list_all_skills().await.unwrap();
        validate_skills(&entries).unwrap();
        assert_eq!(entries.len(), SKILLS.len());
        for (entry, skill) in entries.iter().zip(SKILLS.skills()) {
            assert_eq!(entry.uri, skill.uri());
            let mut frontmatter: Value = serde_json::from_str(skill.extra_fields_json()).unwrap();
            frontmatter["name"] = json!(skill.name());
            frontmatter["description"] = json!(skill.description());
            assert_eq!(
                serde_json::to_value(&entry.frontmatter).unwrap(),
                frontmatter
            );
            let SkillResources::Files(resources) = &entry.resources else {
                panic!("embedded skills are never dynamic");
            };
            assert_eq!(resources.len(), skill.files().len());
            for (resource, file) in resources.iter().zip(skill.files()) {
                assert_eq!(resource.uri, skill.file_uri(file));
                assert_eq!(
                    resource.digest,
                    sha256_digest(file.bytes()),
                    "{}",
                    resource.uri
                );
                assert_eq!(resource.size, file.bytes().len() as u64);
            }
        }
        // The multi-segment skill path keeps its organisational prefix.
        assert!(
            entries
                .iter()
                .any(|entry| entry.uri == "skill://kitchen/recipe-scaling/SKILL.md")
        );
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn every_file_reads_back_byte_exact_with_the_requested_uri() {
    for era in ERAS {
        let client = connect(server(), era).await;
        for (skill, file) in SKILLS.files() {
            let file_uri = skill.file_uri(file);
            let read = client
                .read_resource(ReadResourceRequestParams::new(file_uri.clone()))
                .await
                .unwrap();
            assert_eq!(read.contents.len(), 1);
            let contents = &read.contents[0];
            assert_eq!(bytes_of(contents), file.bytes(), "{file_uri}");
            let (uri, mime) = match contents {
                ResourceContents::TextResourceContents { uri, mime_type, .. } => {
                    assert!(file.is_text());
                    (uri, mime_type)
                }
                ResourceContents::BlobResourceContents { uri, mime_type, .. } => {
                    assert!(!file.is_text(), "{file_uri} should be text");
                    (uri, mime_type)
                }
                other => panic!("{other:?}"),
            };
            assert_eq!(uri, &file_uri);
            assert_eq!(mime.as_deref(), Some(file.mime_type()));
            if file.path() == "SKILL.md" {
                assert_eq!(file.mime_type(), "text/markdown", "{}", skill.path());
            }
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn the_content_uri_echoes_an_equivalent_spelling() {
    let client = connect(server(), Era::Handshake).await;
    let spelled = "SKILL://stock-audit/references/counting%2dprocedure.md";
    let read = client
        .read_resource(ReadResourceRequestParams::new(spelled))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents { uri, .. } = &read.contents[0] else {
        panic!("text expected");
    };
    assert_eq!(uri, spelled);
    client.cancel().await.unwrap();
}

/// The hostile table (skills_test_support::hostile): traversal, encodings,
/// control characters, other schemes, look-alikes, malformed cursors, wrong
/// parameter types, oversized and unknown requests, on both eras. The same
/// table runs against `skills-test-server` over stdio and HTTP (tests/e2e).
#[tokio::test]
async fn the_hostile_table_gets_clean_errors_on_both_eras() {
    let cases = support::hostile::cases(&SKILLS);
    assert!(cases.len() >= 50, "{} cases", cases.len());
    let mut failures = Vec::new();
    for era in ERAS {
        let mut wire = support::line_wire(server(), era).await;
        failures.extend(support::hostile::run(&mut wire, &SKILLS, &cases).await);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The same table as a learner who owns two of the three skills (issue 11:
/// "where per-user access exists, rerun the table as a learner"): the table
/// is built from the learner's own set, so every name outside it is an
/// unknown one, cursors carry the fingerprint of that set, and no byte of
/// the skill they do not own may come back on any answer. Cases only a
/// restricted caller has (the hidden skill's own URIs) are added.
#[tokio::test]
async fn the_hostile_table_as_a_learner_never_leaks_the_skill_they_do_not_own() {
    use skills_runtime::server::Access;
    use support::hostile::{Case, Expect, Message};

    const HIDDEN: &str = "purchase-orders";
    // The table's client (named "hostile") is the learner.
    let server = SkillsServer::builder(SKILLS.clone())
        .access(|skill, caller| {
            let learner = caller
                .mcp()
                .and_then(|context| context.client_info())
                .is_some_and(|info| info.name == "hostile");
            if learner && skill.name() != HIDDEN {
                Access::Owned
            } else {
                Access::Absent
            }
        })
        .build()
        .unwrap();
    // What the learner owns, as a set of its own: same files, same URIs.
    let folder = std::env::temp_dir().join(format!("hostile-learner-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    for skill in SKILLS
        .skills()
        .iter()
        .filter(|skill| skill.name() != HIDDEN)
    {
        for file in skill.files() {
            let path = folder.join(skill.path()).join(file.path());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, file.bytes()).unwrap();
        }
    }
    let owned = skills_core::load(&folder, &skills_core::Options::default())
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills();
    let _ = std::fs::remove_dir_all(&folder);
    assert_eq!(owned.len(), SKILLS.len() - 1);

    let mut cases = support::hostile::cases(&owned);
    let hidden = SKILLS.get(HIDDEN).unwrap();
    for file in hidden.files() {
        let uri = hidden.file_uri(file);
        cases.push(Case {
            name: format!("the hidden skill's {}", file.path()),
            message: Message::Request(json!({"method": "resources/read", "params": {"uri": uri}})),
            expect: Expect::InvalidParams(Some(("uri", uri.clone()))),
        });
    }
    cases.push(Case {
        name: "skills/get of the hidden skill".to_owned(),
        message: Message::Request(json!({"method": "skills/get", "params": {"uri": hidden.uri()}})),
        expect: Expect::InvalidParams(Some(("uri", hidden.uri().to_owned()))),
    });
    cases.push(Case {
        name: "the hidden skill's manifest".to_owned(),
        message: Message::Request(
            json!({"method": "resources/read", "params": {"uri": format!("skill://{HIDDEN}/_manifest")}}),
        ),
        expect: Expect::InvalidParams(Some(("uri", format!("skill://{HIDDEN}/_manifest")))),
    });
    let mut failures = Vec::new();
    for era in ERAS {
        let mut wire = support::line_wire(server.clone(), era).await;
        failures.extend(support::hostile::run(&mut wire, &owned, &cases).await);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn skills_get_answers_listed_uris_and_refuses_others() {
    for era in ERAS {
        let client = connect(server(), era).await;
        for skill in SKILLS.skills() {
            let got = client
                .get_skill(GetSkillRequestParams::new(skill.uri()))
                .await
                .unwrap();
            assert_eq!(got.skill.uri, skill.uri());
        }
        let unknown = mcp_error(
            client
                .get_skill(GetSkillRequestParams::new("skill://no-such-skill/SKILL.md"))
                .await
                .unwrap_err(),
        );
        assert_eq!(unknown.code, ErrorCode::INVALID_PARAMS);
        assert_eq!(
            unknown.data,
            Some(json!({"uri": "skill://no-such-skill/SKILL.md"}))
        );
        assert!(
            unknown
                .message
                .contains("No skill is served at skill://no-such-skill/SKILL.md")
        );
        // A supporting file is not a skill; rmcp refuses it before we are asked.
        let not_a_skill = mcp_error(
            client
                .get_skill(GetSkillRequestParams::new(
                    "skill://stock-audit/references/discrepancy-codes.md",
                ))
                .await
                .unwrap_err(),
        );
        assert_eq!(not_a_skill.code, ErrorCode::INVALID_PARAMS);
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn cache_hints_go_only_to_2026_07_28_peers() {
    let requests = [
        json!({"method": "skills/list"}),
        json!({"method": "skills/get", "params": {"uri": "skill://stock-audit/SKILL.md"}}),
        json!({"method": "resources/read", "params": {"uri": "skill://stock-audit/SKILL.md"}}),
        json!({"method": "resources/list"}),
    ];
    let legacy = raw(server(), Era::Handshake, &requests).await;
    for response in &legacy {
        let result = &response["result"];
        assert!(result.is_object(), "{response}");
        for field in ["ttlMs", "cacheScope", "resultType"] {
            assert!(
                result.get(field).is_none(),
                "{field} leaked to 2025-11-25: {response}"
            );
        }
    }
    let modern = raw(server(), Era::Modern, &requests).await;
    for response in &modern {
        let result = &response["result"];
        assert_eq!(result["resultType"], "complete", "{response}");
        assert_eq!(result["ttlMs"], 300_000, "{response}");
        assert_eq!(result["cacheScope"], "public", "{response}");
    }
    // skills/list accepts a request with no params at all (mcp 2.3.0 sends none).
    assert!(
        legacy[0]["result"]["skills"]
            .as_array()
            .is_some_and(|skills| skills.len() == 3)
    );
}

#[tokio::test]
async fn pages_are_atomic_and_cursors_work_on_any_replica() {
    let paged = || {
        SkillsServer::builder(SKILLS.clone())
            .skills_page_size(1)
            .build()
            .unwrap()
    };
    let first = connect(paged(), Era::Handshake).await;
    let second = connect(paged(), Era::Modern).await;
    let mut cursor = None;
    let mut seen = Vec::new();
    for turn in 0.. {
        // Alternate between two independent servers built from the same tables.
        let client = if turn % 2 == 0 { &first } else { &second };
        let page = client
            .list_skills(Some(
                PaginatedRequestParams::default().with_cursor(cursor.clone()),
            ))
            .await
            .unwrap();
        assert_eq!(page.skills.len(), 1, "one whole entry per page");
        seen.extend(page.skills.into_iter().map(|skill| skill.uri));
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    let expected: Vec<&str> = SKILLS.skills().iter().map(|skill| skill.uri()).collect();
    assert_eq!(seen, expected);

    // Well-formed for this set, but past its end: refused, not an empty page.
    let past_the_end = {
        use base64::Engine as _;
        let tag = &SKILLS.fingerprint()["sha256:".len()..][..16];
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(format!("s.{tag}.-.o99"))
    };
    let bogus_cursors = [
        "nope",
        "",
        "czE",
        "cy4wMTIzNDU2Nzg5YWJjZGVmLi0ubzE",
        &past_the_end,
    ];
    // On both eras, for skills/list and resources/list alike.
    for client in [&first, &second] {
        for bogus in bogus_cursors {
            let request = || PaginatedRequestParams::default().with_cursor(Some(bogus.into()));
            let skills = mcp_error(client.list_skills(Some(request())).await.unwrap_err());
            let resources = mcp_error(client.list_resources(Some(request())).await.unwrap_err());
            for error in [skills, resources] {
                assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{bogus}");
                assert_eq!(error.data, Some(json!({"cursor": bogus})), "{bogus}");
            }
        }
    }
    first.cancel().await.unwrap();
    second.cancel().await.unwrap();
}

#[tokio::test]
async fn a_cursor_from_another_skill_set_is_refused() {
    let root = support::tree(
        "other-set",
        &[("solo/SKILL.md", &support::skill_md("solo", "One skill."))],
    );
    let paged = SkillsServer::builder(SKILLS.clone())
        .skills_page_size(1)
        .build()
        .unwrap();
    let client = connect(paged.clone(), Era::Handshake).await;
    let page = client.list_skills(None).await.unwrap();
    let cursor = page.next_cursor.expect("three skills, one per page");
    assert!(
        paged.replace(support::load(&root)).unwrap(),
        "a different set changes the fingerprint"
    );
    let error = mcp_error(
        client
            .list_skills(Some(
                PaginatedRequestParams::default().with_cursor(Some(cursor)),
            ))
            .await
            .unwrap_err(),
    );
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    assert!(error.message.contains("changed"), "{}", error.message);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn resources_list_names_skills_and_can_list_every_file() {
    let client = connect(server(), Era::Handshake).await;
    let resources = client.list_all_resources().await.unwrap();
    for skill in SKILLS.skills() {
        let listed = resources
            .iter()
            .find(|resource| resource.uri == skill.uri())
            .expect("each SKILL.md is listed");
        assert_eq!(listed.name, skill.name());
        assert_eq!(listed.description.as_deref(), Some(skill.description()));
        assert_eq!(listed.mime_type.as_deref(), Some("text/markdown"));
        assert_eq!(listed.size, Some(skill.skill_md().size()));
        assert!(
            resources
                .iter()
                .any(|r| r.uri == format!("{}/_manifest", skill.root_uri()))
        );
    }
    assert!(
        !resources.iter().any(|r| r.uri.ends_with(".png")),
        "files only on request"
    );
    client.cancel().await.unwrap();

    let all = SkillsServer::builder(SKILLS.clone())
        .list_supporting_files(true)
        .resources_page_size(4)
        .build()
        .unwrap();
    let client = connect(all, Era::Modern).await;
    let mut pages = 0;
    let mut cursor = None;
    let mut uris = Vec::new();
    loop {
        let page = client
            .list_resources(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await
            .unwrap();
        pages += 1;
        assert!(page.resources.len() <= 4);
        uris.extend(page.resources.into_iter().map(|resource| resource.uri));
        cursor = page.next_cursor;
        if cursor.is_none() {
            break;
        }
    }
    assert!(pages > 1);
    for (skill, file) in SKILLS.files() {
        let file_uri = skill.file_uri(file);
        assert_eq!(
            uris.iter().filter(|uri| **uri == file_uri).count(),
            1,
            "{file_uri}"
        );
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn directories_list_their_direct_children() {
    for era in ERAS {
        let client = connect(server(), era).await;
        let children = |uri: &str| {
            let client = &client;
            let uri = uri.to_owned();
            async move {
                client
                    .read_resource_directory(ReadResourceDirectoryRequestParams::new(uri))
                    .await
                    .map(|result| {
                        result
                            .resources
                            .into_iter()
                            .map(|r| (r.name, r.mime_type.unwrap_or_default()))
                            .collect::<Vec<_>>()
                    })
            }
        };
        let root = children("skill://stock-audit").await.unwrap();
        assert_eq!(
            root,
            [
                ("SKILL.md".to_owned(), "text/markdown".to_owned()),
                ("assets".to_owned(), "inode/directory".to_owned()),
                ("references".to_owned(), "inode/directory".to_owned()),
                ("scripts".to_owned(), "inode/directory".to_owned()),
            ]
        );
        let scripts = children("skill://stock-audit/scripts").await.unwrap();
        assert_eq!(
            scripts,
            [("variance_report.py".to_owned(), "text/x-python".to_owned())]
        );
        let prefix = children("skill://kitchen").await.unwrap();
        assert_eq!(
            prefix,
            [("recipe-scaling".to_owned(), "inode/directory".to_owned())]
        );
        for not_a_directory in [
            "skill://stock-audit/SKILL.md",
            "skill://nothing",
            "skill://stock-audit/../x",
        ] {
            let error = mcp_error(children(not_a_directory).await.unwrap_err());
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{not_a_directory}");
            assert_eq!(error.data, Some(json!({"uri": not_a_directory})));
        }
        client.cancel().await.unwrap();
    }
}

#[tokio::test]
async fn fastmcp_manifest_template_and_completion() {
    let client = connect(server(), Era::Handshake).await;
    let read = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://stock-audit/_manifest",
        ))
        .await
        .unwrap();
    let ResourceContents::TextResourceContents {
        text, mime_type, ..
    } = &read.contents[0]
    else {
        panic!("the manifest is JSON text");
    };
    assert_eq!(mime_type.as_deref(), Some("application/json"));
    let manifest: Value = serde_json::from_str(text).unwrap();
    let skill = SKILLS.get("stock-audit").unwrap();
    assert_eq!(manifest["skill"], "stock-audit");
    let files = manifest["files"].as_array().unwrap();
    assert_eq!(files.len(), skill.files().len());
    for (entry, file) in files.iter().zip(skill.files()) {
        assert_eq!(
            entry,
            &json!({"path": file.path(), "size": file.size(), "hash": file.digest().to_string()})
        );
    }
    assert!(text.starts_with(
        "{\n  \"skill\": \"stock-audit\",\n  \"files\": [\n    {\n      \"path\": \"SKILL.md\""
    ));

    let templates = client.list_all_resource_templates().await.unwrap();
    assert!(
        templates
            .iter()
            .any(|t| t.uri_template == "skill://stock-audit/{path*}")
    );
    let completion = client
        .complete_resource_argument("skill://stock-audit/{path*}", "path", "references/", None)
        .await
        .unwrap();
    assert_eq!(
        completion.values,
        [
            "references/counting-procedure.md",
            "references/discrepancy-codes.md"
        ]
    );
    assert_eq!(completion.total, Some(2));
    client.cancel().await.unwrap();

    let off = SkillsServer::builder(SKILLS.clone())
        .fastmcp_compatible(false)
        .build()
        .unwrap();
    let client = connect(off, Era::Handshake).await;
    let error = mcp_error(
        client
            .read_resource(ReadResourceRequestParams::new(
                "skill://stock-audit/_manifest",
            ))
            .await
            .unwrap_err(),
    );
    assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_legacy_index_is_off_by_default_and_complete_when_on() {
    let request = [json!({"method": "resources/read", "params": {"uri": "skill://index.json"}})];
    let off = raw(server(), Era::Handshake, &request).await;
    assert_eq!(off[0]["error"]["code"], -32602);
    let on = SkillsServer::builder(SKILLS.clone())
        .legacy_index(true)
        .build()
        .unwrap();
    let answer = raw(on, Era::Handshake, &request).await;
    let text = answer[0]["result"]["contents"][0]["text"].as_str().unwrap();
    let index: Value = serde_json::from_str(text).unwrap();
    assert_eq!(
        index["$schema"],
        "https://schemas.agentskills.io/discovery/0.2.0/schema.json"
    );
    let entries = index["skills"].as_array().unwrap();
    assert_eq!(entries.len(), SKILLS.len());
    for (entry, skill) in entries.iter().zip(SKILLS.skills()) {
        assert_eq!(entry["name"], skill.name());
        assert_eq!(entry["type"], "skill-md");
        assert_eq!(entry["url"], skill.uri());
        assert_eq!(entry["digest"], skill.skill_md().digest().to_string());
    }
}

#[tokio::test]
async fn the_fallback_tool_reads_files_and_explains_mistakes() {
    let client = connect(server(), Era::Handshake).await;
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "read_skill");
    assert!(
        tools[0]
            .description
            .as_deref()
            .unwrap()
            .contains("stock-audit")
    );
    let call = |arguments: Value| {
        let client = &client;
        async move {
            client
                .call_tool(
                    CallToolRequestParams::new("read_skill")
                        .with_arguments(arguments.as_object().unwrap().clone()),
                )
                .await
                .unwrap()
        }
    };
    let by_uri = call(json!({"uri": "skill://stock-audit/SKILL.md"})).await;
    assert_eq!(by_uri.is_error, Some(false));
    let text = serde_json::to_value(&by_uri.content[0]).unwrap();
    let skill_md =
        std::str::from_utf8(SKILLS.get("stock-audit").unwrap().skill_md().bytes()).unwrap();
    assert_eq!(text["text"], skill_md);
    let by_name = call(json!({"uri": "stock-audit"})).await;
    assert_eq!(
        serde_json::to_value(&by_name.content[0]).unwrap()["text"],
        skill_md
    );
    let wrong = call(json!({"uri": "skill://stock-audit/nope.md"})).await;
    assert_eq!(wrong.is_error, Some(true));
    let missing = call(json!({})).await;
    assert_eq!(missing.is_error, Some(true));
    client.cancel().await.unwrap();
}

/// `count` skills named `s00`, `s01`, … sharing one description.
fn many_skills(count: usize, description: &str) -> Skills {
    let files: Vec<(String, String)> = (0..count)
        .map(|n| {
            let name = format!("s{n:02}");
            (
                format!("{name}/SKILL.md"),
                support::skill_md(&name, description),
            )
        })
        .collect();
    support::skills_of(
        &format!("many-{count}"),
        &files,
        &skills_core::Options::default(),
    )
}

#[tokio::test]
async fn instructions_name_skills_within_the_budget() {
    let instructions = server()
        .instructions(&skills_runtime::server::Caller::anonymous())
        .unwrap_or_default();
    for skill in SKILLS.skills() {
        assert!(instructions.contains(skill.uri()), "{instructions}");
    }
    assert!(instructions.chars().count() <= 2048);

    // Ten skills of 590-character descriptions do not fit: each description
    // is cut to the same share, and every skill is still named.
    let long = "Use when the user asks about this topic in any way at all. ".repeat(10);
    let many = many_skills(10, &long);
    let own = "Always confirm stock changes with the user.";
    let built = SkillsServer::builder(many.clone())
        .instructions(own)
        .build()
        .unwrap()
        .instructions(&skills_runtime::server::Caller::anonymous())
        .unwrap_or_default();
    assert!(built.starts_with(own));
    assert!(
        built.chars().count() <= 2048,
        "{} characters",
        built.chars().count()
    );
    let lines: Vec<&str> = built
        .lines()
        .filter(|line| line.starts_with("- "))
        .collect();
    assert_eq!(lines.len(), 10, "{built}");
    let shares: Vec<usize> = lines
        .iter()
        .map(|line| {
            assert!(line.ends_with('…'), "{line}");
            line.split_once(": ").unwrap().1.chars().count()
        })
        .collect();
    assert!(
        shares
            .iter()
            .all(|&share| share == shares[0] && share >= 40),
        "{shares:?}"
    );

    // Sixty do not fit even at 40 characters each: URIs only.
    let sixty = many_skills(60, &long);
    let uris = SkillsServer::new(sixty.clone())
        .instructions(&skills_runtime::server::Caller::anonymous())
        .unwrap_or_default();
    assert_eq!(uris.matches("/SKILL.md\n").count(), 60, "{uris}");
    assert!(!uris.contains("Use when"), "{uris}");

    // A tight budget keeps URIs only, then says how many are left out.
    let tight = SkillsServer::builder(sixty)
        .instructions_budget(600)
        .build()
        .unwrap()
        .instructions(&skills_runtime::server::Caller::anonymous())
        .unwrap_or_default();
    assert!(
        tight.chars().count() <= 600,
        "{} characters",
        tight.chars().count()
    );
    assert!(tight.contains("skill://s00/SKILL.md"));
    assert!(
        tight.contains("more: list them with skills/list"),
        "{tight}"
    );
}

#[tokio::test]
async fn an_access_policy_hides_skills_from_some_callers() {
    // Callers whose client name is not "admin" do not see purchase orders.
    let guarded = SkillsServer::builder(SKILLS.clone())
        .legacy_index(true)
        .access(|skill, caller| {
            // Only MCP callers: a caller without a session (a catalog
            // route, the anonymous instructions below) sees nothing.
            let Some(context) = caller.mcp() else {
                return Access::Absent;
            };
            let admin = context
                .peer
                .peer_info()
                .is_some_and(|info| info.client_info.name == "admin");
            if admin || skill.name() != "purchase-orders" {
                Access::Owned
            } else {
                Access::Absent
            }
        })
        .build()
        .unwrap();
    let hidden_requests = [
        json!({"method": "skills/get", "params": {"uri": "skill://purchase-orders/SKILL.md"}}),
        json!({"method": "resources/read", "params": {"uri": "skill://purchase-orders/SKILL.md"}}),
        json!({"method": "resources/read", "params": {"uri": "skill://purchase-orders/_manifest"}}),
        json!({"method": "resources/directory/read", "params": {"uri": "skill://purchase-orders"}}),
        // A hidden skill's file template is no template of this server.
        json!({"method": "completion/complete", "params": {
            "ref": {"type": "ref/resource", "uri": "skill://purchase-orders/{path*}"},
            "argument": {"name": "path", "value": ""}}}),
    ];
    // Answers that list or describe skills, which must not name the hidden one.
    let listing_requests = [
        json!({"method": "skills/list"}),
        json!({"method": "resources/list"}),
        json!({"method": "resources/templates/list"}),
        json!({"method": "resources/read", "params": {"uri": "skill://index.json"}}),
        json!({"method": "tools/list"}),
    ];
    // The tool answers a hidden skill's name as it answers a name nobody has.
    let read_by_name = |name: &str| json!({"method": "tools/call", "params": {"name": "read_skill", "arguments": {"uri": name}}});
    let requests: Vec<Value> = hidden_requests
        .iter()
        .chain(&listing_requests)
        .cloned()
        .chain([
            read_by_name("purchase-orders"),
            read_by_name("no-such-skill"),
        ])
        .collect();
    let answers = raw(guarded.clone(), Era::Handshake, &requests).await;
    let (hidden, rest) = answers.split_at(hidden_requests.len());
    let (listings, by_name) = rest.split_at(listing_requests.len());
    for answer in hidden {
        assert_eq!(answer["error"]["code"], -32602, "{answer}");
    }
    for answer in listings {
        assert!(answer["error"].is_null(), "{answer}");
        assert!(!answer.to_string().contains("purchase-orders"), "{answer}");
    }
    let listed: Vec<&str> = listings[0]["result"]["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| entry["uri"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        [
            "skill://kitchen/recipe-scaling/SKILL.md",
            "skill://stock-audit/SKILL.md"
        ]
    );
    assert_eq!(by_name[0]["result"]["isError"], true, "{}", by_name[0]);
    assert_eq!(
        by_name[0]["result"]
            .to_string()
            .replace("purchase-orders", "no-such-skill"),
        by_name[1]["result"].to_string()
    );
    // Each session's instructions and tool name the skills its caller sees
    // (a deliberate change: they used to name none under a rule); what goes
    // to every caller alike names none.
    for (who, sees_orders) in [("someone", false), ("admin", true)] {
        let session = support::connect_as(guarded.clone(), Era::Handshake, who).await;
        let instructions = session
            .peer_info()
            .and_then(|info| info.instructions.clone())
            .unwrap_or_default();
        assert!(
            instructions.contains("skill://stock-audit/SKILL.md"),
            "{instructions}"
        );
        assert_eq!(
            instructions.contains("purchase-orders"),
            sees_orders,
            "{who}: {instructions}"
        );
        let tools = session.list_all_tools().await.unwrap();
        let description = tools[0].description.as_deref().unwrap_or_default();
        assert!(description.contains("stock-audit"), "{description}");
        assert_eq!(
            description.contains("purchase-orders"),
            sees_orders,
            "{description}"
        );
        session.cancel().await.unwrap();
    }
    assert!(
        !guarded
            .instructions(&skills_runtime::server::Caller::anonymous())
            .unwrap_or_default()
            .contains("skill://")
    );
    let tool = &rmcp::ServerHandler::get_tool(&guarded, "read_skill").expect("the fallback tool");
    assert!(
        !tool
            .description
            .as_deref()
            .unwrap_or_default()
            .contains("stock-audit")
    );

    // The admin sees and reads all three.
    let admin = raw_as(guarded.clone(), Era::Handshake, "admin", &requests).await;
    assert_eq!(
        admin[hidden_requests.len()]["result"]["skills"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    for answer in &admin[..hidden_requests.len()] {
        assert!(answer["error"].is_null(), "{answer}");
    }

    let modern = raw(guarded, Era::Modern, &listing_requests[..1]).await;
    assert_eq!(modern[0]["result"]["cacheScope"], "private");
}

#[tokio::test]
async fn a_hidden_nested_skill_is_still_part_of_its_visible_parent() {
    let root = support::tree(
        "hidden-nested",
        &[
            (
                "a/SKILL.md",
                &support::skill_md("a", "Parent. Use when testing."),
            ),
            (
                "a/b/SKILL.md",
                &support::skill_md("b", "Nested. Use when testing."),
            ),
            ("a/b/x.md", "x"),
            (
                "c/SKILL.md",
                &support::skill_md("c", "Other. Use when testing."),
            ),
            (
                "c/d/SKILL.md",
                &support::skill_md("d", "Nested. Use when testing."),
            ),
            ("c/d/y.md", "y"),
        ],
    );
    // `b` is hidden but its parent `a` is not; `c` and its nested `d` are both hidden.
    let server = SkillsServer::builder(support::load(&root))
        .access(|skill, _| {
            if matches!(skill.name(), "b" | "c" | "d") {
                Access::Absent
            } else {
                Access::Owned
            }
        })
        .build()
        .unwrap();
    let read = |uri: &str| json!({"method": "resources/read", "params": {"uri": uri}});
    let answers = raw(
        server,
        Era::Handshake,
        &[
            read("skill://a/b/x.md"),
            json!({"method": "skills/get", "params": {"uri": "skill://a/b/SKILL.md"}}),
            json!({"method": "resources/directory/read", "params": {"uri": "skill://a/b"}}),
            read("skill://c/d/y.md"),
            json!({"method": "resources/directory/read", "params": {"uri": "skill://c"}}),
        ],
    )
    .await;
    assert_eq!(
        answers[0]["result"]["contents"][0]["text"], "x",
        "{}",
        answers[0]
    );
    // The skill itself stays hidden; its files are the parent's too.
    assert_eq!(answers[1]["error"]["code"], -32602, "{}", answers[1]);
    let listed: Vec<&str> = answers[2]["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|resource| resource["uri"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["skill://a/b/SKILL.md", "skill://a/b/x.md"]);
    assert_eq!(answers[3]["error"]["code"], -32602, "{}", answers[3]);
    // A folder whose every file is hidden is not a directory the caller can see.
    assert_eq!(answers[4]["error"]["code"], -32602, "{}", answers[4]);
}

#[tokio::test]
async fn replacing_the_set_is_atomic_and_reports_changes() {
    let server = server();
    assert!(
        !server.replace(SKILLS.clone()).unwrap(),
        "the same set changes nothing"
    );
    let root = support::tree(
        "replacement",
        &[(
            "fresh/SKILL.md",
            &support::skill_md("fresh", "A new skill. Use when testing."),
        )],
    );
    let client = connect(server.clone(), Era::Handshake).await;
    // Fill every per-set cache first: none may outlive the set it was built from.
    assert_eq!(client.list_all_skills().await.unwrap().len(), 3);
    assert!(!client.list_all_resources().await.unwrap().is_empty());
    assert!(
        server
            .instructions(&skills_runtime::server::Caller::anonymous())
            .unwrap_or_default()
            .contains("skill://stock-audit/SKILL.md")
    );
    let info = server
        .config(&skills_runtime::server::Caller::anonymous())
        .server_info;
    assert_eq!(info.name, "skills-test-support");

    assert!(server.replace(support::load(&root)).unwrap());
    let entries = client.list_all_skills().await.unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].uri, "skill://fresh/SKILL.md");
    let resources: Vec<String> = client
        .list_all_resources()
        .await
        .unwrap()
        .into_iter()
        .map(|resource| resource.uri.clone())
        .collect();
    assert_eq!(
        resources,
        ["skill://fresh/SKILL.md", "skill://fresh/_manifest"]
    );
    let instructions = server
        .instructions(&skills_runtime::server::Caller::anonymous())
        .unwrap_or_default();
    assert!(
        instructions.contains("skill://fresh/SKILL.md"),
        "{instructions}"
    );
    assert!(!instructions.contains("stock-audit"), "{instructions}");
    let tool = support::tool_names(&client).await;
    assert_eq!(tool, ["read_skill"]);
    let description = rmcp::ServerHandler::get_tool(&server, "read_skill")
        .expect("the fallback tool")
        .description
        .unwrap_or_default();
    assert!(description.contains("fresh") && !description.contains("stock-audit"));
    let stale = client
        .read_resource(ReadResourceRequestParams::new(
            "skill://stock-audit/SKILL.md",
        ))
        .await;
    assert!(stale.is_err(), "{stale:?}");
    // A set loaded at run time does not change who the server says it is.
    assert_eq!(
        server
            .config(&skills_runtime::server::Caller::anonymous())
            .server_info,
        info
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn executable_bits_travel_in_the_skills_meta() {
    let client = connect(server(), Era::Handshake).await;
    let got = client
        .get_skill(GetSkillRequestParams::new("skill://stock-audit/SKILL.md"))
        .await
        .unwrap();
    let meta = serde_json::to_value(got.skill.meta.expect("an executable script")).unwrap();
    assert_eq!(
        meta["io.crates.skills-runtime/executable"],
        json!(["scripts/variance_report.py"])
    );
    let other = client
        .get_skill(GetSkillRequestParams::new(
            "skill://purchase-orders/SKILL.md",
        ))
        .await
        .unwrap();
    let meta = serde_json::to_value(other.skill.meta.expect("a version")).unwrap();
    assert!(
        meta.get("io.crates.skills-runtime/executable").is_none(),
        "{meta}"
    );
    client.cancel().await.unwrap();
}

/// Serves the corpus at `root` (`skills` skills, `files` files) four skills
/// a page and reads every file, through rmcp's own checks.
async fn a_corpus_passes_rmcps_checks_end_to_end(
    root: &std::path::Path,
    skills: usize,
    files: usize,
) {
    let set = support::load(root);
    assert_eq!(set.len(), skills);
    let client = connect(
        SkillsServer::builder(set)
            .skills_page_size(4)
            .build()
            .unwrap(),
        Era::Modern,
    )
    .await;
    let entries = client.list_all_skills().await.unwrap();
    assert_eq!(entries.len(), skills);
    let verified = support::verify_every_file(&client, &entries).await;
    assert_eq!(verified, files);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_fixture_corpus_passes_rmcps_checks_end_to_end() {
    // 21 files; the nested skill's two are listed by its outer skill too.
    a_corpus_passes_rmcps_checks_end_to_end(&support::needs::fixture_corpus(), 7, 23).await;
}

/// The tests that read `../shared`: `.ci/run` leaves them out by name
/// (`--skip shared::`) where the clone has nothing beside it.
mod shared {
    use super::*;
    use skills_test_support::needs;

    #[tokio::test]
    #[ignore = "needs ../shared/corpus/real beside the clone"]
    async fn the_real_corpus_passes_rmcps_checks_end_to_end() {
        a_corpus_passes_rmcps_checks_end_to_end(&needs::shared("corpus/real"), 23, 244).await;
    }

    #[tokio::test]
    #[ignore = "needs ../shared/reference beside the clone"]
    async fn digests_match_the_peers_on_the_captured_sample_tree() {
        // The captures README gives these as cross-implementation test vectors.
        let skills = support::load(&needs::shared("reference/captures/sample-skills"));
        let skill = skills.get("pdf-processing").unwrap();
        assert_eq!(skill.skill_md().size(), 480);
        assert_eq!(
            skill.skill_md().digest().to_string(),
            "sha256:4bf0172e508b500e0df02a33b588e4c84e7bc6623c5178456de62fcff58b47b0"
        );
        assert_eq!(
            skill.file_uri(skill.file("references/my notes.md").unwrap()),
            "skill://pdf-processing/references/my%20notes.md"
        );
        assert!(skills.get("acme/billing/refunds").is_some());
    }
}

#[tokio::test]
async fn binary_reads_are_identical_with_and_without_the_blob_cache() {
    let logo = "skill://purchase-orders/assets/larder-logo.png";
    let expected = SKILLS
        .file_by_uri(logo)
        .map(|(_, file)| file.bytes().to_vec())
        .unwrap();
    for budget in [0, 64 << 20] {
        let server = SkillsServer::builder(SKILLS.clone())
            .blob_cache_bytes(budget)
            .build()
            .unwrap();
        let client = connect(server, Era::Handshake).await;
        for _ in 0..2 {
            let read = client
                .read_resource(ReadResourceRequestParams::new(logo))
                .await
                .unwrap();
            assert!(matches!(
                read.contents[0],
                ResourceContents::BlobResourceContents { .. }
            ));
            assert_eq!(bytes_of(&read.contents[0]), expected, "budget {budget}");
        }
        client.cancel().await.unwrap();
    }
}

/// One rule for every paginated answer (`skills/list`, `resources/list`,
/// `resources/directory/read`, and the one-page `resources/templates/list`):
/// a cursor issued by another listing, for another directory, that is not a
/// cursor at all, or issued before the caller's view changed (a revoke) is
/// `-32602` with the cursor echoed in `data`, on both eras.
#[tokio::test]
async fn every_listing_refuses_foreign_unknown_and_past_the_end_cursors_alike() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let root = support::tree(
        "cursor-rule",
        &[
            (
                "a/SKILL.md",
                &support::skill_md("a", "A. Use when testing."),
            ),
            ("a/references/x.md", "x"),
            (
                "b/SKILL.md",
                &support::skill_md("b", "B. Use when testing."),
            ),
            (
                "org/x/SKILL.md",
                &support::skill_md("x", "X. Use when testing."),
            ),
            (
                "org/y/SKILL.md",
                &support::skill_md("y", "Y. Use when testing."),
            ),
            (
                "org/z/SKILL.md",
                &support::skill_md("z", "Z. Use when testing."),
            ),
        ],
    );
    let skills = support::load(&root);

    for era in ERAS {
        // A rule whose answer changes between two pages, as a revoked
        // entitlement would: the cursor stays bound to the same set, but the
        // caller's list shrinks under it.
        let shrunk = Arc::new(AtomicBool::new(false));
        let server = SkillsServer::builder(skills.clone())
            .skills_page_size(1)
            .resources_page_size(1)
            // rmcp's 2026-07-28 client would answer a repeated page from its
            // cache for `ttlMs`; this test asks the server every time.
            .ttl(std::time::Duration::ZERO)
            .access({
                let shrunk = shrunk.clone();
                move |skill, _| {
                    if shrunk.load(Ordering::SeqCst) && matches!(skill.name(), "b" | "y" | "z") {
                        Access::Absent
                    } else {
                        Access::Owned
                    }
                }
            })
            .build()
            .unwrap();
        let client = connect(server, era).await;
        let skills_page = |cursor: Option<String>| {
            client.list_skills(Some(PaginatedRequestParams::default().with_cursor(cursor)))
        };
        let resources_page = |cursor: Option<String>| {
            client.list_resources(Some(PaginatedRequestParams::default().with_cursor(cursor)))
        };
        let directory_page = |uri: &str, cursor: Option<String>| {
            let mut request = ReadResourceDirectoryRequestParams::new(uri.to_owned());
            request.cursor = cursor;
            client.read_resource_directory(request)
        };
        let templates_page = |cursor: Option<String>| {
            client.list_resource_templates(Some(
                PaginatedRequestParams::default().with_cursor(cursor),
            ))
        };

        // Real cursors of each listing, and a second directory's.
        let skills_cursor = skills_page(None).await.unwrap().next_cursor.unwrap();
        let resources_cursor = resources_page(None).await.unwrap().next_cursor.unwrap();
        let org_cursor = directory_page("skill://org", None)
            .await
            .unwrap()
            .next_cursor
            .unwrap();
        let a_cursor = directory_page("skill://a", None)
            .await
            .unwrap()
            .next_cursor
            .unwrap();
        // Each continues its own listing.
        assert!(skills_page(Some(skills_cursor.clone())).await.is_ok());
        assert!(resources_page(Some(resources_cursor.clone())).await.is_ok());
        assert!(
            directory_page("skill://org", Some(org_cursor.clone()))
                .await
                .is_ok()
        );

        let refused = |result: Result<_, ServiceError>, cursor: &str, what: &str| {
            let Err(error) = result.map(|_: ()| ()) else {
                panic!("{era:?} {what} {cursor:?}: accepted");
            };
            let error = mcp_error(error);
            assert_eq!(
                error.code,
                ErrorCode::INVALID_PARAMS,
                "{era:?} {what} {cursor:?}"
            );
            assert_eq!(
                error.data,
                Some(json!({"cursor": cursor})),
                "{era:?} {what} {cursor:?}"
            );
            error.message.into_owned()
        };
        let junk = ["nope", "", "czE", "cy4wMTIzNDU2Nzg5YWJjZGVmLi0ubzE"];

        let not_for_skills = [&resources_cursor, &org_cursor]
            .into_iter()
            .map(String::as_str)
            .chain(junk);
        for cursor in not_for_skills {
            let result = skills_page(Some(cursor.into())).await.map(drop);
            refused(result, cursor, "skills/list");
        }
        let not_for_resources = [&skills_cursor, &org_cursor]
            .into_iter()
            .map(String::as_str)
            .chain(junk);
        for cursor in not_for_resources {
            let result = resources_page(Some(cursor.into())).await.map(drop);
            refused(result, cursor, "resources/list");
        }
        // Another directory's cursor is as foreign as another listing's.
        let not_for_org = [&skills_cursor, &resources_cursor, &a_cursor]
            .into_iter()
            .map(String::as_str)
            .chain(junk);
        for cursor in not_for_org {
            let result = directory_page("skill://org", Some(cursor.into()))
                .await
                .map(drop);
            refused(result, cursor, "resources/directory/read");
        }
        // Templates come in one page: no cursor is ever theirs.
        for cursor in [&skills_cursor, &resources_cursor, &org_cursor]
            .into_iter()
            .map(String::as_str)
            .chain(junk)
        {
            let result = templates_page(Some(cursor.into())).await.map(drop);
            refused(result, cursor, "resources/templates/list");
        }

        // Every cursor of each listing (the k-th continues at offset k), then
        // the caller's view shrinks.
        let mut skills_cursors = vec![skills_cursor.clone()];
        while let Some(next) = skills_page(skills_cursors.last().cloned())
            .await
            .unwrap()
            .next_cursor
        {
            skills_cursors.push(next);
        }
        let mut resources_cursors = vec![resources_cursor.clone()];
        while let Some(next) = resources_page(resources_cursors.last().cloned())
            .await
            .unwrap()
            .next_cursor
        {
            resources_cursors.push(next);
        }
        let mut org_cursors = vec![org_cursor.clone()];
        while let Some(next) = directory_page("skill://org", org_cursors.last().cloned())
            .await
            .unwrap()
            .next_cursor
        {
            org_cursors.push(next);
        }
        shrunk.store(true, Ordering::SeqCst);
        // The listings still answer, with fewer items. Cursors are bound to
        // the fingerprint of what the caller sees, so every cursor issued
        // before the caller's view shrank continues nothing: not one at the
        // new end, nor one past it, nor one that would still be in range.
        let skills_left = client.list_all_skills().await.unwrap().len();
        let resources_left = client.list_all_resources().await.unwrap().len();
        let org = directory_page("skill://org", None).await.unwrap();
        assert_eq!(org.next_cursor, None);
        let org_left = org.resources.len();
        assert_eq!((skills_left, resources_left, org_left), (2, 4, 1));
        for cursor in &skills_cursors {
            let result = skills_page(Some(cursor.clone())).await.map(drop);
            let message = refused(result, cursor, "skills/list after a revoke");
            assert!(message.contains("changed"), "{message}");
        }
        for cursor in &resources_cursors {
            let result = resources_page(Some(cursor.clone())).await.map(drop);
            let message = refused(result, cursor, "resources/list after a revoke");
            assert!(message.contains("changed"), "{message}");
        }
        for cursor in &org_cursors {
            let result = directory_page("skill://org", Some(cursor.clone()))
                .await
                .map(drop);
            let message = refused(result, cursor, "directory after a revoke");
            assert!(message.contains("changed"), "{message}");
        }
        client.cancel().await.unwrap();
    }
}

/// Folders whose main file is `README.md` (FastMCP's `main_file_name`,
/// SkillsDotNet's `MainFileName`), one skill nested in the other.
static README_MAIN: Skills = embed_skills!(
    "../tests/fixtures/main-file",
    main_file = "README.md",
    untracked
);

/// SEP-2640 names the main file `SKILL.md` (hosts and rmcp refuse an entry
/// whose URI or resources do not), so `skills/list` and `skills/get` do, on
/// both eras; the legacy listing names it as FastMCP and SkillsDotNet do
/// (`resources/list` and `_manifest` say `README.md`); both URIs read the
/// same bytes, those of `README.md` on disk.
#[tokio::test]
async fn a_main_file_with_another_name_is_skill_md_for_sep_2640_and_its_own_name_for_the_legacy_listing()
 {
    let on_disk = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/fixtures/main-file/pantry/README.md"
    ))
    .unwrap();
    let pantry = README_MAIN.get("pantry").unwrap();
    assert_eq!(pantry.main_file(), "README.md");
    assert_eq!(pantry.skill_md().bytes(), on_disk);
    for era in ERAS {
        let client = connect(SkillsServer::new(README_MAIN.clone()), era).await;
        let entries = client.list_all_skills().await.unwrap();
        validate_skills(&entries).unwrap();
        let uris: Vec<&str> = entries.iter().map(|entry| entry.uri.as_str()).collect();
        assert_eq!(
            uris,
            ["skill://pantry/SKILL.md", "skill://pantry/larder/SKILL.md"],
            "{era:?}"
        );
        let SkillResources::Files(resources) = &entries[0].resources else {
            panic!("files");
        };
        let files: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
        assert_eq!(
            files,
            [
                "skill://pantry/SKILL.md",
                "skill://pantry/larder/SKILL.md",
                "skill://pantry/references/stock.md"
            ],
            "{era:?}"
        );
        let got = client
            .get_skill(GetSkillRequestParams::new("skill://pantry/SKILL.md"))
            .await
            .unwrap();
        assert_eq!(got.skill.uri, "skill://pantry/SKILL.md");
        for uri in ["skill://pantry/SKILL.md", "skill://pantry/README.md"] {
            let read = client
                .read_resource(ReadResourceRequestParams::new(uri))
                .await
                .unwrap();
            assert_eq!(bytes_of(&read.contents[0]), on_disk, "{era:?} {uri}");
        }
        // The legacy listing: the main file under its own name.
        let listed = client.list_all_resources().await.unwrap();
        let main: Vec<&str> = listed
            .iter()
            .filter(|resource| resource.name == "pantry" || resource.name == "larder")
            .map(|resource| resource.uri.as_str())
            .collect();
        assert_eq!(
            main,
            [
                "skill://pantry/README.md",
                "skill://pantry/larder/README.md"
            ],
            "{era:?}"
        );
        let manifest = client
            .read_resource(ReadResourceRequestParams::new("skill://pantry/_manifest"))
            .await
            .unwrap();
        let manifest: Value = serde_json::from_slice(&bytes_of(&manifest.contents[0])).unwrap();
        let paths: Vec<&str> = manifest["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|file| file["path"].as_str().unwrap())
            .collect();
        assert_eq!(
            paths,
            ["README.md", "larder/README.md", "references/stock.md"],
            "{era:?}"
        );
        client.cancel().await.unwrap();
    }
}
