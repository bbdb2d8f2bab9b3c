//! What the workspace's tests share: servers and clients connected in one
//! process over an in-memory pipe (this module), a wire tap and a lying
//! server for the client tests ([`client`]), the hostile-request table
//! ([`hostile`]), live-reload waits ([`live`]), the requests that name one
//! skill ([`probes`]), the repository's programs as built executables
//! ([`examples`]) and what a test needs from outside the repository
//! ([`needs`]), a throwaway PostgreSQL cluster ([`postgres`]), child
//! processes with time limits ([`process`]), nginx in front of replicas
//! ([`nginx`]) and the repository's skill trees, embedded ([`trees`]).
#![allow(dead_code)] // Each package's tests use a different part.

pub mod client;
pub mod examples;
pub mod hostile;
pub mod live;
pub mod needs;
pub mod nginx;
pub mod postgres;
pub mod probes;
pub mod process;
pub mod trees;

#[allow(unused_imports)] // Each package's tests use a different part.
pub use live::skill_md;

use std::path::Path;

use rmcp::model::{ProtocolVersion, ResourceContents};
use rmcp::service::RunningService;
use rmcp::{ClientLifecycleMode, ClientServiceExt, RoleClient, ServerHandler, ServiceExt};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream};

pub type Client = RunningService<RoleClient, ()>;

/// The two ways a client starts a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Era {
    /// `initialize` handshake, protocol 2025-11-25.
    Handshake,
    /// `server/discover`, protocol 2026-07-28.
    Modern,
}

pub const ERAS: [Era; 2] = [Era::Handshake, Era::Modern];

/// Serves `handler` on one end of a pipe and connects rmcp's client to the other.
pub async fn connect(handler: impl ServerHandler, era: Era) -> Client {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    match era {
        Era::Handshake => ().serve(client_end).await.expect("initialize"),
        Era::Modern => ()
            .serve_with_lifecycle(
                client_end,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("server/discover"),
    }
}

/// The names of every tool the server lists, in its order.
pub async fn tool_names(client: &Client) -> Vec<String> {
    let tools = client.list_all_tools().await.expect("tools/list");
    tools
        .into_iter()
        .map(|tool| tool.name.into_owned())
        .collect()
}

/// The bytes a read returned: text re-encoded, blob decoded.
pub fn bytes_of(contents: &ResourceContents) -> Vec<u8> {
    use base64::Engine as _;
    match contents {
        ResourceContents::TextResourceContents { text, .. } => text.as_bytes().to_vec(),
        ResourceContents::BlobResourceContents { blob, .. } => {
            base64::engine::general_purpose::STANDARD
                .decode(blob)
                .expect("blobs are base64")
        }
        other => panic!("unexpected content {other:?}"),
    }
}

/// A raw line session with `handler` in process, for the hostile table.
pub async fn line_wire(
    handler: impl ServerHandler,
    era: Era,
) -> hostile::LineWire<tokio::io::ReadHalf<DuplexStream>, tokio::io::WriteHalf<DuplexStream>> {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    let (read, write) = tokio::io::split(client_end);
    let lifecycle = match era {
        Era::Handshake => hostile::Lifecycle::Handshake,
        Era::Modern => hostile::Lifecycle::Modern,
    };
    hostile::LineWire::open("in process", lifecycle, read, write).await
}

/// A raw JSON-RPC session over stdio-style lines, for exact wire assertions:
/// sends `requests` (after an `initialize` handshake when `era` is
/// `Handshake`) and returns the response to each, in order.
pub async fn raw(handler: impl ServerHandler, era: Era, requests: &[Value]) -> Vec<Value> {
    raw_as(handler, era, "raw", requests).await
}

/// [`raw`], from a client that gives its name as `client`.
pub async fn raw_as(
    handler: impl ServerHandler,
    era: Era,
    client: &str,
    requests: &[Value],
) -> Vec<Value> {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    let (read, mut write) = tokio::io::split(client_end);
    let mut lines = BufReader::new(read).lines();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    });
    if era == Era::Handshake {
        let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": client, "version": "1"}}});
        send(&mut write, &initialize).await;
        let _ = lines
            .next_line()
            .await
            .expect("read")
            .expect("initialize answered");
        send(
            &mut write,
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        )
        .await;
    }
    let mut responses = Vec::new();
    for (index, request) in requests.iter().enumerate() {
        let mut request = request.clone();
        request["jsonrpc"] = json!("2.0");
        request["id"] = json!(index + 1);
        if era == Era::Modern {
            let params = request
                .as_object_mut()
                .expect("a request is an object")
                .entry("params")
                .or_insert_with(|| json!({}));
            params["_meta"] = meta.clone();
        }
        send(&mut write, &request).await;
        loop {
            let line = lines.next_line().await.expect("read").expect("answered");
            let message: Value = serde_json::from_str(&line).expect("JSON-RPC");
            if message.get("id") == Some(&json!(index + 1)) {
                responses.push(message);
                break;
            }
        }
    }
    responses
}

async fn send(write: &mut (impl AsyncWriteExt + Unpin), message: &Value) {
    let mut line = serde_json::to_vec(message).expect("serializes");
    line.push(b'\n');
    write.write_all(&line).await.expect("write");
}

/// A path under the temporary folder for `name`, used by no other call in
/// this process: a package's tests share one process, so two tests that name
/// their folders alike must not meet.
pub fn temp_path(kind: &str, name: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let number = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    std::env::temp_dir().join(format!(
        "skills-{kind}-{name}-{}-{number}",
        std::process::id()
    ))
}

/// Writes `files` (path → content) under a fresh temporary folder.
pub fn tree(name: &str, files: &[(&str, &str)]) -> std::path::PathBuf {
    let root = temp_path("runtime-test", name);
    let _ = std::fs::remove_dir_all(&root);
    for (path, content) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().expect("has a parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }
    root
}

/// Loads a tree at run time through the same code the macro runs.
pub fn load(root: &Path) -> skills_runtime::Skills {
    skills_core::load(root, &skills_core::Options::default())
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills()
}

/// The skills of `files` (path → content) with `options`: written as a
/// [`tree`], loaded as the macro would (any error panics with the report),
/// and the folder removed again.
pub fn skills_of(
    name: &str,
    files: &[(impl AsRef<str>, impl AsRef<str>)],
    options: &skills_core::Options,
) -> skills_runtime::Skills {
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(path, content)| (path.as_ref(), content.as_ref()))
        .collect();
    let root = tree(name, &borrowed);
    let loaded = skills_core::load(&root, options);
    let _ = std::fs::remove_dir_all(&root);
    loaded
        .unwrap_or_else(|report| panic!("{report}"))
        .into_skills()
}

/// Reads every file of `entries` and checks its size and digest (rmcp's own
/// `SkillResource::verify`), after rmcp's structural validation of the entries.
/// Returns how many files were read.
pub async fn verify_every_file(client: &Client, entries: &[rmcp::model::Skill]) -> usize {
    rmcp::model::validate_skills(entries).expect("entries pass rmcp's validation");
    let mut verified = 0;
    for entry in entries {
        let rmcp::model::SkillResources::Files(files) = &entry.resources else {
            panic!("{} is dynamic", entry.uri);
        };
        for file in files {
            let read = client
                .read_resource(rmcp::model::ReadResourceRequestParams::new(
                    file.uri.clone(),
                ))
                .await
                .expect("every listed file reads");
            file.verify(&bytes_of(&read.contents[0]))
                .unwrap_or_else(|error| panic!("{error}"));
            verified += 1;
        }
    }
    verified
}

/// A client that introduces itself as `name` (the caller a test policy
/// recognises) and counts the `notifications/resources/list_changed` it gets.
#[derive(Clone)]
pub struct Named {
    info: rmcp::model::ClientConfig,
    pub list_changed: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    pub notified: std::sync::Arc<tokio::sync::Notify>,
}

impl rmcp::ClientHandler for Named {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        self.info.clone()
    }

    async fn on_resource_list_changed(
        &self,
        _context: rmcp::service::NotificationContext<RoleClient>,
    ) {
        self.list_changed
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.notified.notify_one();
    }
}

impl Named {
    /// A client introducing itself as `name`.
    pub fn new(name: &str) -> Self {
        Self {
            info: rmcp::model::ClientConfig::new(
                Default::default(),
                rmcp::model::Implementation::new(name, "1"),
            ),
            list_changed: Default::default(),
            notified: Default::default(),
        }
    }
}

pub type NamedClient = RunningService<RoleClient, Named>;

/// [`connect`], from a client named `name`.
pub async fn connect_as(handler: impl ServerHandler, era: Era, name: &str) -> NamedClient {
    let (server_end, client_end) = tokio::io::duplex(1 << 22);
    tokio::spawn(skills_runtime::server::serve(handler, server_end));
    let client = Named::new(name);
    match era {
        Era::Handshake => client.serve(client_end).await.expect("initialize"),
        Era::Modern => client
            .serve_with_lifecycle(
                client_end,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                },
            )
            .await
            .expect("server/discover"),
    }
}
