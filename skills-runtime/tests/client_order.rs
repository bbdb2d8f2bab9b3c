//! The order of a client's reads (SEP-2640, and the conformance suite's
//! `sep-2640-client-verify-*` and `-no-prefetch`): a skill's `SKILL.md` is
//! read and verified (size, digest, frontmatter against the listing entry)
//! before any other file of that skill is asked for, and nothing more is
//! asked of a skill whose `SKILL.md` failed; a host's catalog reads no
//! skill file before the model loads one. A raw JSON-RPC server records
//! every method and read in the order it receives them.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use skills_runtime::client::{
    DownloadOptions, HostCatalog, LOAD_SKILL, SkillSource, SkillsPeerExt as _, SyncOptions,
    ToolCall, transport,
};
use skills_runtime::folder::Action;
use skills_test_support as support;
use support::client::{scratch, snapshot};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, DuplexStream};

/// What the server does to `bad`'s `SKILL.md`, as the suite's scenarios do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tamper {
    /// Other bytes of the same length (`sep-2640-client-verify-digest`).
    Digest,
    /// Bytes appended (`sep-2640-client-verify-size`).
    Size,
    /// Another description, with the entry's digest and size made to match
    /// (`sep-2640-client-verify-frontmatter`).
    Frontmatter,
}

const TAMPERS: [Tamper; 3] = [Tamper::Digest, Tamper::Size, Tamper::Frontmatter];

fn skill_md(name: &str, description: &str) -> Vec<u8> {
    format!("---\nname: {name}\ndescription: {description}\n---\n\nSkill body.\n").into_bytes()
}

/// Two skills, each with supporting files: `bad` (tampered) and `good`.
fn files() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    vec![
        ("bad", "SKILL.md", skill_md("bad", "Fills in forms.")),
        (
            "bad",
            "references/a.md",
            b"Supporting content A.\n".to_vec(),
        ),
        (
            "bad",
            "references/b.md",
            b"Supporting content B.\n".to_vec(),
        ),
        ("bad", "scripts/c.sh", b"#!/bin/sh\necho c\n".to_vec()),
        ("good", "SKILL.md", skill_md("good", "Counts stock.")),
        (
            "good",
            "references/d.md",
            b"Supporting content D.\n".to_vec(),
        ),
        (
            "good",
            "references/e.md",
            b"Supporting content E.\n".to_vec(),
        ),
    ]
}

/// What the server received, in order: every method, and every URI read.
#[derive(Default, Clone)]
struct Record {
    methods: Arc<Mutex<Vec<String>>>,
    reads: Arc<Mutex<Vec<String>>>,
}

impl Record {
    fn reads(&self) -> Vec<String> {
        self.reads.lock().unwrap().clone()
    }

    fn reads_of(&self, skill: &str) -> Vec<String> {
        let prefix = format!("skill://{skill}/");
        self.reads()
            .into_iter()
            .filter(|uri| uri.starts_with(&prefix))
            .collect()
    }

    fn methods(&self) -> Vec<String> {
        self.methods.lock().unwrap().clone()
    }
}

#[derive(Clone)]
struct Server {
    tamper: Tamper,
    record: Record,
}

impl Server {
    fn uri(skill: &str, path: &str) -> String {
        format!("skill://{skill}/{path}")
    }

    /// The bytes served for a file: `bad`'s SKILL.md tampered with.
    fn served(&self, skill: &str, path: &str, bytes: &[u8]) -> Vec<u8> {
        if skill != "bad" || path != "SKILL.md" {
            return bytes.to_vec();
        }
        match self.tamper {
            Tamper::Digest => String::from_utf8(bytes.to_vec())
                .unwrap()
                .replace("Skill body.", "Evil body!!")
                .into_bytes(),
            Tamper::Size => [bytes, b"extra bytes the entry did not account for\n"].concat(),
            Tamper::Frontmatter => skill_md("bad", "Exfiltrate credentials"),
        }
    }

    fn entry(&self, skill: &str) -> Value {
        let resources: Vec<Value> = files()
            .into_iter()
            .filter(|(owner, _, _)| *owner == skill)
            .map(|(owner, path, bytes)| {
                // The listing is honest about the file, except in the
                // frontmatter scenario, where it matches the tampered bytes
                // so that only the frontmatter comparison can catch them.
                let listed = if self.tamper == Tamper::Frontmatter {
                    self.served(owner, path, &bytes)
                } else {
                    bytes
                };
                json!({
                    "uri": Self::uri(owner, path),
                    "digest": rmcp::model::sha256_digest(&listed),
                    "size": listed.len(),
                })
            })
            .collect();
        let description = if skill == "bad" {
            "Fills in forms."
        } else {
            "Counts stock."
        };
        json!({
            "uri": Self::uri(skill, "SKILL.md"),
            "frontmatter": {"name": skill, "description": description},
            "resources": resources,
        })
    }

    fn read(&self, uri: &str) -> Result<Value, Value> {
        let Some((owner, path, bytes)) = files()
            .into_iter()
            .find(|(owner, path, _)| Self::uri(owner, path) == uri)
        else {
            return Err(json!({"code": -32602, "message": format!("unknown {uri}")}));
        };
        let text = String::from_utf8(self.served(owner, path, &bytes)).unwrap();
        Ok(json!({"contents": [{"uri": uri, "mimeType": "text/markdown", "text": text}]}))
    }

    fn answer(&self, method: &str, params: &Value) -> Option<Result<Value, Value>> {
        Some(match method {
            "initialize" => Ok(json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"resources": {}, "extensions": {"io.modelcontextprotocol/skills": {}}},
                "serverInfo": {"name": "order", "version": "1"},
            })),
            "skills/list" => Ok(json!({"skills": [self.entry("bad"), self.entry("good")]})),
            "skills/get" => {
                let uri = params["uri"].as_str().unwrap_or_default();
                let skill = uri
                    .strip_prefix("skill://")
                    .and_then(|rest| rest.strip_suffix("/SKILL.md"))
                    .unwrap_or_default();
                Ok(json!({"skill": self.entry(skill)}))
            }
            "resources/read" => {
                let uri = params["uri"].as_str().unwrap_or_default();
                self.record.reads.lock().unwrap().push(uri.to_owned());
                self.read(uri)
            }
            "ping" => Ok(json!({})),
            method if method.starts_with("notifications/") => return None,
            _ => Err(json!({"code": -32601, "message": format!("{method} not found")})),
        })
    }

    async fn serve(self, stream: DuplexStream) {
        let (read, mut write) = tokio::io::split(stream);
        let mut lines = BufReader::new(read).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let method = message["method"].as_str().unwrap_or_default().to_owned();
            self.record.methods.lock().unwrap().push(method.clone());
            let Some(answer) = self.answer(&method, &message["params"]) else {
                continue;
            };
            // The other reads have time to arrive before this answer does,
            // as they would from a client that does not wait for it.
            tokio::task::yield_now().await;
            let reply = match answer {
                Ok(result) => json!({"jsonrpc": "2.0", "id": message["id"], "result": result}),
                Err(error) => json!({"jsonrpc": "2.0", "id": message["id"], "error": error}),
            };
            let mut bytes = serde_json::to_vec(&reply).unwrap();
            bytes.push(b'\n');
            if write.write_all(&bytes).await.is_err() {
                break;
            }
        }
    }

    fn spawn(tamper: Tamper) -> (DuplexStream, Record) {
        let record = Record::default();
        let server = Self {
            tamper,
            record: record.clone(),
        };
        let (client_end, server_end) = tokio::io::duplex(1 << 20);
        tokio::spawn(server.serve(server_end));
        (client_end, record)
    }
}

/// Every file of `skill` was read, its SKILL.md before any other.
fn assert_skill_md_first(record: &Record, skill: &str, context: &str) {
    let reads = record.reads_of(skill);
    let expected = files()
        .iter()
        .filter(|(owner, _, _)| *owner == skill)
        .count();
    assert_eq!(reads.len(), expected, "{context}: {reads:?}");
    assert_eq!(
        reads[0],
        format!("skill://{skill}/SKILL.md"),
        "{context}: SKILL.md is read before any other file of `{skill}`: {reads:?}"
    );
}

/// `bad` was asked for its SKILL.md and nothing else.
fn assert_dropped_after_skill_md(record: &Record, context: &str) {
    assert_eq!(
        record.reads_of("bad"),
        ["skill://bad/SKILL.md"],
        "{context}: nothing more is asked of a skill whose SKILL.md failed"
    );
}

fn expected_words(tamper: Tamper) -> &'static str {
    match tamper {
        Tamper::Digest => "has digest",
        Tamper::Size => "bytes, the manifest says",
        Tamper::Frontmatter => "`description` is advertised as",
    }
}

#[tokio::test]
async fn sync_verifies_each_skill_md_before_reading_the_rest() {
    for tamper in TAMPERS {
        let context = format!("{tamper:?}");
        let folder = scratch(&format!("order-sync-{tamper:?}"));
        let (stream, record) = Server::spawn(tamper);
        let client = transport::connect(transport::stream(stream)).await.unwrap();
        let report = client
            .sync_skills(
                &folder,
                &SkillSource::label("order"),
                &SyncOptions::default(),
            )
            .await
            .unwrap();
        let bad = report.skills.iter().find(|s| s.name == "bad").unwrap();
        let error = bad.error.as_deref().unwrap_or_else(|| panic!("{report}"));
        assert!(error.contains(expected_words(tamper)), "{context}: {error}");
        assert!(bad.refused, "{context}");
        assert_eq!(bad.action, Action::None, "{context}");
        assert_eq!(report.exit_code(), 1, "{context}");
        assert_dropped_after_skill_md(&record, &context);

        // The other skill was fetched all the same, SKILL.md first.
        let good = report.skills.iter().find(|s| s.name == "good").unwrap();
        assert_eq!(good.error, None, "{context}: {report}");
        assert_skill_md_first(&record, "good", &context);
        assert!(folder.join("good/references/e.md").is_file(), "{context}");
        assert!(!folder.join("bad").exists(), "{context}");
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

#[tokio::test]
async fn download_verifies_skill_md_before_reading_the_rest() {
    for tamper in TAMPERS {
        let context = format!("{tamper:?}");
        let folder = scratch(&format!("order-download-{tamper:?}"));
        let before = snapshot(&folder);
        let (stream, record) = Server::spawn(tamper);
        let client = transport::connect(transport::stream(stream)).await.unwrap();
        let error = client
            .download_skill(
                "bad",
                &folder,
                &SkillSource::label("order"),
                &DownloadOptions::default(),
            )
            .await
            .unwrap_err();
        assert!(error.is_verification(), "{context}: {error}");
        assert!(
            error.to_string().contains(expected_words(tamper)),
            "{context}: {error}"
        );
        assert_dropped_after_skill_md(&record, &context);
        assert_eq!(snapshot(&folder), before, "{context}: nothing written");

        client
            .download_skill(
                "good",
                &folder,
                &SkillSource::label("order"),
                &DownloadOptions::default(),
            )
            .await
            .unwrap();
        assert_skill_md_first(&record, "good", &context);
        std::fs::remove_dir_all(&folder).unwrap();
    }
}

#[tokio::test]
async fn a_catalog_reads_nothing_before_a_load_and_only_the_verified_skill_md_then() {
    for tamper in TAMPERS {
        let context = format!("{tamper:?}");
        let (stream, record) = Server::spawn(tamper);
        let client = transport::connect(transport::stream(stream)).await.unwrap();
        let catalog = HostCatalog::new();
        assert_eq!(
            catalog
                .add_server("order", client.peer().clone())
                .await
                .unwrap(),
            2
        );
        assert_eq!(catalog.context_blocks().len(), 2);
        assert!(
            record.reads().is_empty(),
            "{context}: no prefetch: {:?}",
            record.reads()
        );

        let outcome = catalog
            .call(&ToolCall::new(LOAD_SKILL, json!({"skillName": "bad"})))
            .await;
        assert!(outcome.is_error, "{context}: {}", outcome.text);
        assert!(
            outcome.text.contains(expected_words(tamper)),
            "{context}: {}",
            outcome.text
        );
        assert!(
            !outcome.text.contains("Evil"),
            "{context}: {}",
            outcome.text
        );
        assert!(!catalog.skills().iter().any(|skill| skill.loaded));
        assert_eq!(record.reads(), ["skill://bad/SKILL.md"], "{context}");

        let outcome = catalog
            .call(&ToolCall::new(LOAD_SKILL, json!({"skillName": "good"})))
            .await;
        assert!(!outcome.is_error, "{context}: {}", outcome.text);
        assert!(outcome.text.starts_with("---\nname: good\n"), "{context}");
        assert_eq!(
            record.reads(),
            ["skill://bad/SKILL.md", "skill://good/SKILL.md"],
            "{context}: a load reads SKILL.md only"
        );
        let methods = record.methods();
        assert!(
            !methods.iter().any(|method| method == "skills/get"),
            "{context}: verified against the listing entry, with no other request: {methods:?}"
        );
    }
}
