//! The hostile-input table: requests no well-behaved client sends, each with
//! the answer the server owes it, and one runner for every transport.
//!
//! [`cases`] builds the table for a skill set; [`run`] sends every case over a
//! [`Wire`], then a valid `resources/read` (rotating through every file), and
//! checks three things per case:
//!
//! 1. the case got what its [`Expect`] says: `-32602` (with `data.uri` or
//!    `data.cursor` naming what was refused), `-32601` for an unknown method, a
//!    tool-level error, no completions, or the transport's refusal;
//! 2. the valid read that follows still succeeds, byte for byte;
//! 3. no byte outside the tables comes back: every `contents` item of every
//!    answer decodes to the bytes of some embedded file.
//!
//! The same table runs in process on both protocol eras (`skills-runtime/tests/protocol.rs`)
//! and against `skills-test-server` over stdio and streamable HTTP
//! (`tests/e2e/tests/hostile.rs`, which includes this file by path).
//!
//! # What each transport does with a message it cannot read
//!
//! These refusals happen inside rmcp, before any handler runs
//! ([`Refusal`]); they are rmcp 3.11's documented behaviour:
//!
//! | message | stdio (and any line transport) | streamable HTTP |
//! |---|---|---|
//! | not JSON | ignored, no answer (rust-sdk#938: answering garbage can start an error storm) | `415`, no JSON-RPC body |
//! | JSON, but not a JSON-RPC message | `-32600` with `id: null` | `415`, no JSON-RPC body |
//! | over the size limit | dropped, no answer (lines over 16 MiB) | `413` (bodies over 4 MiB) |
//!
//! # Two answers that are rmcp's, not ours
//!
//! - `skills/get` of a URI that does not end in `/SKILL.md` is refused by
//!   rmcp's dispatcher before the handler is asked: `-32602` without `data`
//!   ([`Expect::InvalidParamsFromRmcp`]).
//! - `skills/list` and `resources/list` with a cursor that is not a string
//!   (`"cursor": 42`) answer the **first page**: rmcp reads optional params
//!   through a flattened `Option`, which turns params it cannot read into "no
//!   params" ([`Expect::FirstPage`]). A client cannot loop on it (the next
//!   cursor is a real one), but the malformed cursor goes unreported. The fix
//!   belongs in rmcp's `RequestOptionalParam` deserializer.
//!
//! # Reusing the table
//!
//! - **Another caller** (issue 12: per-user access): build the [`Wire`] as that
//!   caller (a learner's session or token) and call [`run`] with the set that
//!   caller may see; [`cases`] derives every name from the set it is given,
//!   so hidden skills simply become unknown ones. Add cases that only make
//!   sense for a restricted caller (a hidden skill's URI, its cursor) to
//!   [`cases`] behind a parameter.
//! - **HTTP routes**: [`http_cases`] holds requests below JSON-RPC (Host
//!   headers, content types, paths). When the server grows routes of its own
//!   (`GET /skills/..%2f…`) or bearer-token auth, add them there: each is a
//!   raw HTTP request with the status it must get, run by the HTTP wire only.
#![allow(dead_code)] // Each test binary uses a different part.

use std::collections::HashSet;
use std::future::Future;

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};
use skills_runtime::Skills;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};

/// The id of the `n`-th case's request; follow-ups use `FOLLOW_UP_ID + n`.
const CASE_ID: u64 = 1_000;
const FOLLOW_UP_ID: u64 = 500_000;
/// Over both rmcp limits: 16 MiB per stdio line, 4 MiB per HTTP body.
pub const OVERSIZED_BYTES: usize = 17 << 20;

/// One hostile request and the answer it must get.
pub struct Case {
    pub name: String,
    pub message: Message,
    pub expect: Expect,
}

/// What a case sends.
pub enum Message {
    /// A JSON-RPC request, `{"method", "params"}`: the wire adds `jsonrpc`,
    /// the id and, on 2026-07-28, the per-request `_meta`.
    Request(Value),
    /// Bytes sent as they are: a line on stdio, a POST body over HTTP.
    Raw(Vec<u8>),
}

/// The answer a case must get.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// `-32602`; when given, `data[key]` equals the value (the URI or cursor refused).
    InvalidParams(Option<(&'static str, String)>),
    /// `-32602` from rmcp's dispatcher, before the handler: no `data`.
    InvalidParamsFromRmcp,
    /// `-32601`.
    MethodNotFound,
    /// A `tools/call` result with `isError: true`: a message for the model.
    ToolError,
    /// A completion result with no values.
    NoCompletions,
    /// The transport refuses the message itself.
    Refused(Refusal),
    /// rmcp drops list params it cannot read: the first page comes back.
    FirstPage,
}

/// Messages a transport refuses before any handler sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    NotJson,
    NotAMessage,
    Oversized,
    /// Streamable HTTP on 2026-07-28 only: the request repeats its URI in an
    /// `Mcp-Name` header (SEP-2243), and a header past the server's limit is
    /// refused with `431`.
    HeadersTooLarge,
}

/// What came back for a case.
#[derive(Debug)]
pub enum Reply {
    /// The JSON-RPC messages answering the case (none, when it was ignored),
    /// with the HTTP status when there is one.
    Json(Vec<Value>, Option<u16>),
    /// An HTTP status without a JSON-RPC body, and the body's start.
    Status(u16, String),
    /// The server closed the connection while the request was being sent.
    Closed(String),
}

/// A transport the table can run over.
pub trait Wire {
    /// Names the transport and era in failure messages.
    fn label(&self) -> String;

    /// Sends `case` (a request with `id`, or raw bytes), then the valid
    /// request `follow_up` with `follow_up_id`; returns what answered the
    /// case and the follow-up's answer.
    fn exchange(
        &mut self,
        case: &Message,
        id: u64,
        follow_up: &Value,
        follow_up_id: u64,
    ) -> impl Future<Output = (Reply, Value)>;

    /// Whether `reply` is this transport's documented answer to `refusal`.
    fn refused(&self, refusal: Refusal, reply: &Reply) -> Result<(), String>;

    /// What `case` must get on this transport: its [`Expect`], unless the
    /// transport refuses the request before a handler sees it.
    fn expect(&self, case: &Case) -> Expect {
        case.expect.clone()
    }
}

/// The two ways a client starts: `initialize` (2025-11-25) or per-request
/// `_meta` (2026-07-28).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lifecycle {
    Handshake,
    Modern,
}

/// The `_meta` a 2026-07-28 request carries.
pub fn modern_meta(client: &str) -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientInfo": {"name": client, "version": "1"},
        "io.modelcontextprotocol/clientCapabilities": {}
    })
}

/// `request` as a JSON-RPC message with `id`, with `_meta` on 2026-07-28.
pub fn envelope(request: &Value, id: u64, lifecycle: Lifecycle) -> Value {
    let mut message = request.clone();
    message["jsonrpc"] = json!("2.0");
    message["id"] = json!(id);
    if lifecycle == Lifecycle::Modern {
        let params = message
            .as_object_mut()
            .expect("a request is an object")
            .entry("params")
            .or_insert_with(|| json!({}));
        if let Some(params) = params.as_object_mut() {
            params.insert("_meta".to_owned(), modern_meta("hostile"));
        }
    }
    message
}

// ---------------------------------------------------------------------------
// The table

/// The names the table aims at, taken from the set served.
struct Targets {
    /// A one-segment skill with a file in a subfolder (`stock-audit`).
    skill: String,
    /// That subfolder (`references`) and a file in it (`references/x.md`).
    folder: String,
    file: String,
    /// Another skill (`purchase-orders`).
    other: String,
    /// The first 16 hex digits of the set's fingerprint, as cursors carry them.
    tag: String,
}

impl Targets {
    fn of(skills: &Skills) -> Targets {
        let (skill, file) = skills
            .skills()
            .iter()
            .filter(|skill| !skill.path().contains('/'))
            .find_map(|skill| {
                let file = skill
                    .files()
                    .iter()
                    .find(|file| file.path().contains('/'))?;
                Some((skill, file.path().to_owned()))
            })
            .expect("the table needs a one-segment skill with a file in a subfolder");
        let other = skills
            .skills()
            .iter()
            .find(|other| other.path() != skill.path())
            .expect("the table needs two skills");
        let fingerprint = skills.fingerprint();
        Targets {
            skill: skill.path().to_owned(),
            folder: file.split('/').next().unwrap_or_default().to_owned(),
            file,
            other: other.path().to_owned(),
            tag: fingerprint["sha256:".len()..][..16].to_owned(),
        }
    }

    /// A cursor in this server's format (`kind.tag.scope.place`, base64url).
    fn cursor(&self, plain: &str) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(plain)
    }
}

fn request(method: &str, params: Value) -> Message {
    Message::Request(json!({"method": method, "params": params}))
}

/// Every JSON-RPC case for `skills` (at least 50), in a fixed order.
pub fn cases(skills: &Skills) -> Vec<Case> {
    let t = Targets::of(skills);
    let (s, o, folder, file) = (&t.skill, &t.other, &t.folder, &t.file);
    let mut cases = Vec::new();
    let mut add = |name: &str, message: Message, expect: Expect| {
        cases.push(Case {
            name: name.to_owned(),
            message,
            expect,
        });
    };
    let uri_error = |uri: &str| Expect::InvalidParams(Some(("uri", uri.to_owned())));
    let cursor_error = |cursor: &str| Expect::InvalidParams(Some(("cursor", cursor.to_owned())));

    // resources/read: every way of spelling a path outside the tables.
    let long_name = "a".repeat(1 << 20);
    let deep = "a/".repeat(10_000);
    let read_uris: Vec<(&str, String)> = vec![
        ("dot-dot segment", format!("skill://{s}/../{o}/SKILL.md")),
        ("dot segment", format!("skill://{s}/./SKILL.md")),
        (
            "dot-dot out of the root",
            format!("skill://{s}/../../../etc/passwd"),
        ),
        (
            "encoded dot-dot",
            format!("skill://{s}/%2e%2e/{o}/SKILL.md"),
        ),
        (
            "encoded dot-dot, upper case",
            format!("skill://{s}/%2E%2E/%2E%2E/etc/passwd"),
        ),
        (
            "half-encoded dot-dot",
            format!("skill://{s}/.%2e/{o}/SKILL.md"),
        ),
        (
            "encoded slash between skill and file",
            format!("skill://{s}%2fSKILL.md"),
        ),
        (
            "encoded slash in a file path",
            format!("skill://{s}/{}", file.replacen('/', "%2F", 1)),
        ),
        (
            "encoded backslash",
            format!("skill://{s}/{}", file.replacen('/', "%5C", 1)),
        ),
        (
            "encoded backslash dot-dot",
            format!("skill://{s}/..%5c..%5cSKILL.md"),
        ),
        ("backslash separator", format!("skill://{s}\\SKILL.md")),
        (
            "backslash dot-dot",
            format!("skill://{s}/..\\..\\{o}\\SKILL.md"),
        ),
        ("empty segment", format!("skill://{s}//SKILL.md")),
        ("trailing slash", format!("skill://{s}/SKILL.md/")),
        (
            "absolute path after the scheme",
            "skill:///etc/passwd".to_owned(),
        ),
        ("encoded absolute path", "skill://%2Fetc/passwd".to_owned()),
        ("bare absolute path", "/etc/passwd".to_owned()),
        ("file scheme", "file:///etc/passwd".to_owned()),
        (
            "http scheme",
            format!("http://127.0.0.1/skill://{s}/SKILL.md"),
        ),
        ("look-alike scheme", format!("skills://{s}/SKILL.md")),
        ("scheme without slashes", format!("skill:{s}/SKILL.md")),
        ("raw NUL", format!("skill://{s}/SKILL.md\u{0}")),
        ("encoded NUL", format!("skill://{s}/SKILL.md%00")),
        (
            "encoded NUL before an extension",
            format!("skill://{s}/SKILL%00.md"),
        ),
        ("raw newline", format!("skill://{s}/SKILL.md\n")),
        (
            "encoded carriage return and line feed",
            format!("skill://{s}/SKILL.md%0d%0a"),
        ),
        ("escape sequence", format!("skill://{s}/\u{1b}[31mSKILL.md")),
        ("query string", format!("skill://{s}/SKILL.md?raw=1")),
        ("fragment", format!("skill://{s}/SKILL.md#top")),
        ("encoded query", format!("skill://{s}/SKILL.md%3Fraw=1")),
        ("bad escape", format!("skill://{s}/%zz")),
        ("truncated escape", format!("skill://{s}/SKILL.md%")),
        (
            "overlong UTF-8 dots",
            format!("skill://{s}/%C0%AE%C0%AE/{o}/SKILL.md"),
        ),
        ("lone continuation byte", format!("skill://{s}/%80SKILL.md")),
        (
            "look-alike hyphen (U+2010)",
            format!("skill://{}/SKILL.md", s.replace('-', "\u{2010}")),
        ),
        (
            "fullwidth solidus (U+FF0F)",
            format!("skill://{s}\u{FF0F}SKILL.md"),
        ),
        (
            "one-dot leader (U+2024) as a dot",
            format!("skill://{s}/SKILL\u{2024}md"),
        ),
        (
            "Cyrillic a (U+0430)",
            format!("skill://{}/SKILL.md", s.replacen('a', "\u{430}", 1)),
        ),
        (
            "right-to-left override",
            format!("skill://{s}/%E2%80%AESKILL.md"),
        ),
        (
            "upper-case path",
            format!("skill://{}/SKILL.md", s.to_uppercase()),
        ),
        ("trailing space", format!("skill://{s}/SKILL.md%20")),
        ("a skill folder", format!("skill://{s}")),
        ("a subfolder", format!("skill://{s}/{folder}")),
        (
            "a folder with a trailing slash",
            format!("skill://{s}/{folder}/"),
        ),
        ("an unknown file", format!("skill://{s}/missing.md")),
        (
            "an unknown skill",
            "skill://no-such-skill/SKILL.md".to_owned(),
        ),
        (
            "the legacy index, turned off",
            "skill://index.json".to_owned(),
        ),
        ("nothing after the scheme", "skill://".to_owned()),
        ("empty URI", String::new()),
        ("1 MiB file name", format!("skill://{s}/{long_name}")),
        ("10,000 segments", format!("skill://{s}/{deep}SKILL.md")),
    ];
    for (name, uri) in &read_uris {
        add(
            &format!("resources/read: {name}"),
            request("resources/read", json!({ "uri": uri })),
            uri_error(uri),
        );
    }
    // Wrong parameter types: rmcp reads these as custom requests, which the
    // server answers -32602 naming the method.
    let method_error = |method: &str| Expect::InvalidParams(Some(("method", method.to_owned())));
    for (name, params) in [
        ("a number for the URI", json!({ "uri": 42 })),
        ("null for the URI", json!({ "uri": null })),
        (
            "a list for the URI",
            json!({ "uri": [format!("skill://{s}/SKILL.md")] }),
        ),
        (
            "an object for the URI",
            json!({ "uri": {"path": "SKILL.md"} }),
        ),
        ("no URI", json!({})),
    ] {
        add(
            &format!("resources/read: {name}"),
            request("resources/read", params),
            method_error("resources/read"),
        );
    }
    // MCP params are objects; rmcp does not read a list as a request at all.
    add(
        "resources/read: params as a list",
        request("resources/read", json!([format!("skill://{s}/SKILL.md")])),
        Expect::Refused(Refusal::NotAMessage),
    );
    add(
        "resources/read: no params",
        Message::Request(json!({"method": "resources/read"})),
        method_error("resources/read"),
    );

    // skills/get: what reaches our handler names the URI; what does not end
    // in /SKILL.md is refused by rmcp first.
    for (name, uri) in [
        (
            "dot-dot to another skill",
            format!("skill://{s}/../{o}/SKILL.md"),
        ),
        (
            "encoded dot-dot",
            format!("skill://{s}/%2e%2e/{o}/SKILL.md"),
        ),
        ("backslash", format!("skill://{s}\\{o}/SKILL.md")),
        ("encoded slash", format!("skill://{s}%2F{o}/SKILL.md")),
        ("NUL", format!("skill://{s}\u{0}/SKILL.md")),
        ("file scheme", "file:///etc/SKILL.md".to_owned()),
        (
            "a supporting file's folder",
            format!("skill://{s}/{folder}/SKILL.md"),
        ),
        (
            "look-alike hyphen",
            format!("skill://{}/SKILL.md", s.replace('-', "\u{2010}")),
        ),
    ] {
        add(
            &format!("skills/get: {name}"),
            request("skills/get", json!({ "uri": uri })),
            uri_error(&uri),
        );
    }
    for (name, uri) in [
        ("a supporting file", format!("skill://{s}/{file}")),
        (
            "a query after SKILL.md",
            format!("skill://{s}/SKILL.md?x=1"),
        ),
        ("/etc/passwd", "/etc/passwd".to_owned()),
    ] {
        add(
            &format!("skills/get: {name}"),
            request("skills/get", json!({ "uri": uri })),
            Expect::InvalidParamsFromRmcp,
        );
    }
    add(
        "skills/get: a number for the URI",
        request("skills/get", json!({ "uri": 7 })),
        method_error("skills/get"),
    );

    // resources/directory/read.
    for (name, uri) in [
        ("dot-dot", format!("skill://{s}/..")),
        ("encoded dot-dot", format!("skill://{s}/%2e%2e")),
        (
            "dot-dot below a folder",
            format!("skill://{s}/{folder}/../.."),
        ),
        ("encoded slash", format!("skill://{s}/{folder}%2F..")),
        ("backslash", format!("skill://{s}\\{folder}")),
        ("absolute path", "skill:///etc".to_owned()),
        ("file scheme", "file:///etc".to_owned()),
        ("a file, not a folder", format!("skill://{s}/SKILL.md")),
        ("NUL", format!("skill://{s}/{folder}%00")),
        ("an unknown folder", format!("skill://{s}/no-such-folder")),
    ] {
        add(
            &format!("resources/directory/read: {name}"),
            request("resources/directory/read", json!({ "uri": uri })),
            uri_error(&uri),
        );
    }
    add(
        "resources/directory/read: a number for the URI",
        request("resources/directory/read", json!({ "uri": 1 })),
        method_error("resources/directory/read"),
    );
    let directory = format!("skill://{s}");
    for (name, cursor) in [
        ("a cursor that is not one", "zz".to_owned()),
        (
            "a skills/list cursor",
            t.cursor(&format!("s.{}.-.o1", t.tag)),
        ),
        (
            "another folder's cursor",
            t.cursor(&format!("d.{}.00000000.o1", t.tag)),
        ),
    ] {
        add(
            &format!("resources/directory/read: {name}"),
            request(
                "resources/directory/read",
                json!({ "uri": directory, "cursor": cursor }),
            ),
            cursor_error(&cursor),
        );
    }

    // completion/complete: templates that are not ours are refused naming the
    // URI; what is typed only filters the skill's own file paths.
    for (name, template) in [
        ("dot-dot template", "skill://../{path*}".to_owned()),
        (
            "a template below a skill",
            format!("skill://{s}/../{{path*}}"),
        ),
        (
            "encoded dot-dot template",
            "skill://%2e%2e/{path*}".to_owned(),
        ),
        (
            "an unknown skill's template",
            "skill://no-such-skill/{path*}".to_owned(),
        ),
        (
            "a template with a NUL",
            format!("skill://{s}\u{0}/{{path*}}"),
        ),
    ] {
        add(
            &format!("completion/complete: {name}"),
            request(
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": template},
                       "argument": {"name": "path", "value": ""}}),
            ),
            uri_error(&template),
        );
    }
    let template = format!("skill://{s}/{{path*}}");
    for (name, value) in [
        ("dot-dot typed", "../".to_owned()),
        ("absolute path typed", "/etc/passwd".to_owned()),
        ("NUL typed", "\u{0}".to_owned()),
        ("another skill's path typed", format!("../{o}/")),
    ] {
        add(
            &format!("completion/complete: {name}"),
            request(
                "completion/complete",
                json!({"ref": {"type": "ref/resource", "uri": template},
                       "argument": {"name": "path", "value": value}}),
            ),
            Expect::NoCompletions,
        );
    }
    add(
        "completion/complete: an unknown prompt",
        request(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "../../etc/passwd"},
                   "argument": {"name": "x", "value": ""}}),
        ),
        Expect::InvalidParams(None),
    );
    add(
        "completion/complete: a number for the reference",
        request(
            "completion/complete",
            json!({"ref": 5, "argument": {"name": "path", "value": ""}}),
        ),
        method_error("completion/complete"),
    );

    // The read_skill tool: a bad URI is a tool error the model can read.
    let call = |arguments: Value| {
        request(
            "tools/call",
            json!({"name": "read_skill", "arguments": arguments}),
        )
    };
    for (name, arguments) in [
        (
            "dot-dot",
            json!({ "uri": format!("skill://{s}/../{o}/SKILL.md") }),
        ),
        (
            "encoded slash",
            json!({ "uri": format!("skill://{s}%2FSKILL.md") }),
        ),
        ("file scheme", json!({ "uri": "file:///etc/passwd" })),
        ("a bare path", json!({ "uri": "../../etc/passwd" })),
        (
            "a name with a slash",
            json!({ "uri": format!("{s}/../{o}") }),
        ),
        (
            "NUL",
            json!({ "uri": format!("skill://{s}/SKILL.md\u{0}") }),
        ),
        ("a number for the URI", json!({ "uri": 42 })),
        ("no URI", json!({})),
    ] {
        add(
            &format!("tools/call read_skill: {name}"),
            call(arguments),
            Expect::ToolError,
        );
    }
    add(
        "tools/call read_skill: arguments as a string",
        request(
            "tools/call",
            json!({"name": "read_skill", "arguments": "skill://x/SKILL.md"}),
        ),
        method_error("tools/call"),
    );
    add(
        "tools/call: a look-alike tool name",
        request(
            "tools/call",
            json!({"name": "read_skill ", "arguments": {"uri": s}}),
        ),
        Expect::InvalidParams(None),
    );

    // Both listings' cursors, each forged in the listing's own kind (`s` or
    // `r`) unless it is the other listing's.
    let huge = "A".repeat(64 << 10);
    for (listing, own, other) in [("skills/list", "s", "r"), ("resources/list", "r", "s")] {
        let tag = &t.tag;
        for (name, cursor) in [
            ("not base64", "!!!".to_owned()),
            ("empty", String::new()),
            ("base64 of nothing useful", t.cursor("hello")),
            (
                "the other listing's cursor",
                t.cursor(&format!("{other}.{tag}.-.o1")),
            ),
            (
                "a stale set",
                t.cursor(&format!("{own}.0123456789abcdef.-.o1")),
            ),
            ("past the end", t.cursor(&format!("{own}.{tag}.-.o999999"))),
            (
                "an overflowing offset",
                t.cursor(&format!("{own}.{tag}.-.o99999999999999999999999")),
            ),
            ("a negative offset", t.cursor(&format!("{own}.{tag}.-.o-1"))),
            (
                "a scoped cursor",
                t.cursor(&format!("{own}.{tag}.00000000.o1")),
            ),
            ("NUL", format!("{}\u{0}", t.cursor(own))),
            ("64 KiB", huge.clone()),
        ] {
            add(
                &format!("{listing}: {name} cursor"),
                request(listing, json!({ "cursor": cursor })),
                cursor_error(&cursor),
            );
        }
        add(
            &format!("{listing}: a number for the cursor"),
            request(listing, json!({ "cursor": 42 })),
            Expect::FirstPage,
        );
    }

    // Unknown methods.
    for method in [
        "no/such/method",
        "skills/delete",
        "resources/write",
        "SKILLS/LIST",
        "skills//list",
        "rpc.discover",
        "",
    ] {
        add(
            &format!("unknown method {method:?}"),
            request(method, json!({})),
            Expect::MethodNotFound,
        );
    }

    // Below JSON-RPC: what the transport refuses.
    add(
        "not JSON",
        Message::Raw(b"this is not json".to_vec()),
        Expect::Refused(Refusal::NotJson),
    );
    add(
        "truncated JSON",
        Message::Raw(
            br#"{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"#.to_vec(),
        ),
        Expect::Refused(Refusal::NotJson),
    );
    add(
        "params as a string",
        Message::Raw(
            format!(r#"{{"jsonrpc":"2.0","id":9,"method":"resources/read","params":"skill://{s}/SKILL.md"}}"#)
                .into_bytes(),
        ),
        Expect::Refused(Refusal::NotAMessage),
    );
    add(
        "JSON-RPC 1.0",
        Message::Raw(br#"{"jsonrpc":"1.0","id":9,"method":"skills/list"}"#.to_vec()),
        Expect::Refused(Refusal::NotAMessage),
    );
    add(
        "an empty batch",
        Message::Raw(b"[]".to_vec()),
        Expect::Refused(Refusal::NotAMessage),
    );
    add(
        "a JSON string",
        Message::Raw(br#""skill://a/SKILL.md""#.to_vec()),
        Expect::Refused(Refusal::NotAMessage),
    );
    let mut oversized = format!(
        r#"{{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{{"uri":"skill://{s}/"#
    )
    .into_bytes();
    oversized.resize(OVERSIZED_BYTES, b'a');
    oversized.extend_from_slice(br#""}}"#);
    add(
        "a 17 MiB request",
        Message::Raw(oversized),
        Expect::Refused(Refusal::Oversized),
    );
    cases
}

/// A request below JSON-RPC: the HTTP wire sends it as it is.
pub struct HttpCase {
    pub name: &'static str,
    pub method: &'static str,
    /// Appended to the server's base URL (`http://HOST:PORT`).
    pub path: &'static str,
    /// Headers that replace the wire's defaults (`Host`, `Content-Type`, …).
    pub headers: Vec<(&'static str, String)>,
    /// A JSON-RPC request to send as the body, if any.
    pub body: Option<Value>,
    /// The status rmcp (or the router) must answer.
    pub status: u16,
}

/// HTTP requests that never reach a handler, for a client of `lifecycle`
/// without a session (2026-07-28) or in a session (2025-11-25).
///
/// Not here, because they are not refusals: in a session, `GET` on the
/// endpoint (or any path below it, which axum's `nest_service` hands to the
/// same service) opens the session's event stream; and an `Origin` header is
/// accepted unless the server lists allowed origins (rmcp's default).
pub fn http_cases(skills: &Skills, lifecycle: Lifecycle) -> Vec<HttpCase> {
    let t = Targets::of(skills);
    let read = json!({"method": "resources/read", "params": {"uri": format!("skill://{}/SKILL.md", t.skill)}});
    let case = |name, method, path, headers: &[(&'static str, &str)], status| HttpCase {
        name,
        method,
        path,
        headers: headers.iter().map(|(k, v)| (*k, (*v).to_owned())).collect(),
        body: (method == "POST").then(|| read.clone()),
        status,
    };
    let mut cases = vec![
        // The DNS-rebinding guard: only loopback names unless configured.
        case(
            "a foreign Host header",
            "POST",
            "/mcp",
            &[("host", "evil.example")],
            403,
        ),
        case(
            "a Host header with userinfo",
            "POST",
            "/mcp",
            &[("host", "127.0.0.1@evil.example")],
            403,
        ),
        case(
            "a look-alike loopback Host",
            "POST",
            "/mcp",
            &[("host", "127.0.0.1.evil.example")],
            403,
        ),
        case(
            "a Host header of 8 KiB",
            "POST",
            "/mcp",
            &[("host", &"h".repeat(8 << 10))],
            403,
        ),
        case(
            "a text/plain body",
            "POST",
            "/mcp",
            &[("content-type", "text/plain")],
            415,
        ),
        case(
            "an Accept header without JSON or SSE",
            "POST",
            "/mcp",
            &[("accept", "text/html")],
            406,
        ),
        // MCP's streamable HTTP transport: a present, invalid Origin is 403,
        // before anything else runs (no session is opened).
        case(
            "a foreign Origin",
            "POST",
            "/mcp",
            &[("origin", "http://evil.example")],
            403,
        ),
        case(
            "a look-alike loopback Origin",
            "POST",
            "/mcp",
            &[("origin", "http://localhost.evil.example")],
            403,
        ),
        case("Origin: null", "POST", "/mcp", &[("origin", "null")], 403),
        case(
            "a foreign Origin on a catalog route",
            "GET",
            "/skills",
            &[("origin", "https://evil.example")],
            403,
        ),
        case("a path beside the endpoint", "POST", "/mcp-admin", &[], 404),
        case(
            "a skill path as a route",
            "GET",
            "/skills/..%2fSKILL.md",
            &[],
            404,
        ),
    ];
    if lifecycle == Lifecycle::Modern {
        cases.extend([
            // SEP-2243: the routing headers must repeat the body.
            case(
                "an Mcp-Method header that contradicts the body",
                "POST",
                "/mcp",
                &[("mcp-method", "tools/call")],
                400,
            ),
            case(
                "an Mcp-Name header that names another file",
                "POST",
                "/mcp",
                &[("mcp-name", "skill://x/SKILL.md")],
                400,
            ),
            case(
                "an Mcp-Name header that is not Base64",
                "POST",
                "/mcp",
                &[("mcp-name", "=?base64?***?=")],
                400,
            ),
            // Stateless, the service serves no GET, on any path below it.
            case("GET on the endpoint", "GET", "/mcp", &[], 405),
            case(
                "encoded dot-dot below the endpoint",
                "GET",
                "/mcp/..%2f..%2fetc%2fpasswd",
                &[],
                405,
            ),
        ]);
    }
    cases
}

// ---------------------------------------------------------------------------
// The runner

/// The embedded bytes, by digest, and every file's URI and bytes for the
/// valid reads that follow each case.
pub struct Tables {
    digests: HashSet<[u8; 32]>,
    files: Vec<(String, Vec<u8>)>,
    first_skill_uri: String,
}

impl Tables {
    pub fn of(skills: &Skills) -> Tables {
        let files: Vec<(String, Vec<u8>)> = skills
            .files()
            .map(|(skill, file)| (skill.file_uri(file), file.bytes().to_vec()))
            .collect();
        Tables {
            digests: files.iter().map(|(_, bytes)| sha256(bytes)).collect(),
            files,
            first_skill_uri: skills.skills()[0].uri().to_owned(),
        }
    }
}

fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// Runs every case over `wire`; returns one line per failure (empty: all passed).
pub async fn run(wire: &mut impl Wire, skills: &Skills, cases: &[Case]) -> Vec<String> {
    let tables = Tables::of(skills);
    let mut failures = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let id = CASE_ID + n as u64;
        let (uri, bytes) = &tables.files[n % tables.files.len()];
        let follow_up = json!({"method": "resources/read", "params": {"uri": uri}});
        let (reply, answer) = wire
            .exchange(&case.message, id, &follow_up, FOLLOW_UP_ID + n as u64)
            .await;
        let label = format!("{} | {}", wire.label(), case.name);
        if let Err(why) = check(wire, &wire.expect(case), &reply, id, &tables) {
            failures.push(format!("{label}: {why}\n    got {}", brief(&reply)));
        }
        if let Err(why) = outside_the_tables(&reply, &tables) {
            failures.push(format!("{label}: {why}"));
        }
        match read_bytes(&answer) {
            Some(read) if read == *bytes => {}
            _ => failures.push(format!(
                "{label}: the valid read of {uri} that followed failed: {}",
                cut(&answer.to_string())
            )),
        }
    }
    failures
}

fn check(
    wire: &impl Wire,
    expect: &Expect,
    reply: &Reply,
    id: u64,
    tables: &Tables,
) -> Result<(), String> {
    if let Expect::Refused(refusal) = expect {
        return wire.refused(*refusal, reply);
    }
    let Reply::Json(messages, _) = reply else {
        return Err(format!("expected a JSON-RPC answer ({expect:?})"));
    };
    let [message] = messages.as_slice() else {
        return Err(format!("expected one answer, got {}", messages.len()));
    };
    if message["id"] != json!(id) {
        return Err(format!("the answer's id is {}, not {id}", message["id"]));
    }
    let error = &message["error"];
    let result = &message["result"];
    let code = error["code"].as_i64();
    match expect {
        Expect::InvalidParams(data) => {
            if code != Some(-32602) {
                return Err("expected -32602".to_owned());
            }
            if let Some((key, value)) = data
                && error["data"][*key].as_str() != Some(value.as_str())
            {
                return Err(format!("expected data.{key} to echo what was sent"));
            }
        }
        Expect::InvalidParamsFromRmcp => {
            if code != Some(-32602) || !error["data"].is_null() {
                return Err("expected rmcp's -32602 without data".to_owned());
            }
        }
        Expect::MethodNotFound => {
            if code != Some(-32601) {
                return Err("expected -32601".to_owned());
            }
        }
        Expect::ToolError => {
            if result["isError"] != json!(true) {
                return Err("expected a tool result with isError: true".to_owned());
            }
        }
        Expect::NoCompletions => {
            if result["completion"]["values"] != json!([]) {
                return Err("expected a completion without values".to_owned());
            }
        }
        Expect::FirstPage => {
            let items = result
                .get("skills")
                .or_else(|| result.get("resources"))
                .and_then(Value::as_array);
            let first = items
                .and_then(|items| items.first())
                .map(|item| &item["uri"]);
            if first != Some(&json!(tables.first_skill_uri)) {
                return Err("expected rmcp's first page".to_owned());
            }
        }
        Expect::Refused(_) => unreachable!(),
    }
    Ok(())
}

/// Every `contents` item (a read) and embedded resource (a tool result) must
/// hold the bytes of an embedded file.
fn outside_the_tables(reply: &Reply, tables: &Tables) -> Result<(), String> {
    let Reply::Json(messages, _) = reply else {
        return Ok(());
    };
    for message in messages {
        let result = &message["result"];
        let mut items: Vec<&Value> = Vec::new();
        if let Some(contents) = result["contents"].as_array() {
            items.extend(contents);
        }
        if let Some(content) = result["content"].as_array() {
            items.extend(content.iter().filter_map(|block| block.get("resource")));
        }
        for item in items {
            let bytes = content_bytes(item).ok_or("a content item without text or blob")?;
            if !tables.digests.contains(&sha256(&bytes)) {
                return Err(format!(
                    "returned {} bytes that are no embedded file's: {}",
                    bytes.len(),
                    cut(&item.to_string())
                ));
            }
        }
        // A successful tool call returns a file as text: it must be one too.
        if result["isError"] == json!(false)
            && let Some(content) = result["content"].as_array()
        {
            for block in content {
                if let Some(text) = block["text"].as_str()
                    && !tables.digests.contains(&sha256(text.as_bytes()))
                {
                    return Err("a tool call returned text that is no embedded file".to_owned());
                }
            }
        }
    }
    Ok(())
}

fn content_bytes(item: &Value) -> Option<Vec<u8>> {
    if let Some(text) = item["text"].as_str() {
        return Some(text.as_bytes().to_vec());
    }
    let blob = item["blob"].as_str()?;
    base64::engine::general_purpose::STANDARD.decode(blob).ok()
}

/// The bytes a `resources/read` answer carries, if it succeeded with one item.
fn read_bytes(answer: &Value) -> Option<Vec<u8>> {
    match answer["result"]["contents"].as_array()?.as_slice() {
        [item] => content_bytes(item),
        _ => None,
    }
}

fn brief(reply: &Reply) -> String {
    match reply {
        Reply::Json(messages, status) => {
            let all: Vec<String> = messages.iter().map(|m| cut(&m.to_string())).collect();
            format!("{status:?} [{}]", all.join(", "))
        }
        Reply::Status(status, body) => format!("HTTP {status} {}", cut(body)),
        Reply::Closed(why) => format!("connection closed: {why}"),
    }
}

fn cut(text: &str) -> String {
    if text.len() <= 300 {
        return text.to_owned();
    }
    let mut end = 300;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

// ---------------------------------------------------------------------------
// A line transport: stdio, in process or to a child

/// JSON-RPC over newline-delimited lines (rmcp's stdio transport), with the
/// lifecycle done at [`LineWire::open`].
pub struct LineWire<R, W> {
    label: String,
    lifecycle: Lifecycle,
    lines: Lines<BufReader<R>>,
    write: W,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> LineWire<R, W> {
    /// Starts a session: `initialize` + `notifications/initialized` on the
    /// handshake era; nothing on 2026-07-28 (each request carries `_meta`).
    pub async fn open(label: &str, lifecycle: Lifecycle, read: R, write: W) -> Self {
        let mut wire = LineWire {
            label: label.to_owned(),
            lifecycle,
            lines: BufReader::new(read).lines(),
            write,
        };
        if lifecycle == Lifecycle::Handshake {
            let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "hostile", "version": "1"}}});
            wire.send_line(&serde_json::to_vec(&initialize).expect("JSON"))
                .await;
            let answer = wire.until(0).await;
            assert!(
                answer.last().is_some_and(|m| m["result"].is_object()),
                "{label}: initialize failed: {answer:?}"
            );
            let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            wire.send_line(&serde_json::to_vec(&initialized).expect("JSON"))
                .await;
        }
        wire
    }

    async fn send_line(&mut self, bytes: &[u8]) {
        self.write.write_all(bytes).await.expect("write a line");
        self.write.write_all(b"\n").await.expect("write a line");
        self.write.flush().await.expect("flush");
    }

    /// Every message read until (and including) the answer with `id`.
    async fn until(&mut self, id: u64) -> Vec<Value> {
        let mut messages = Vec::new();
        loop {
            let message = self.next_message().await;
            let done = message["id"] == json!(id);
            messages.push(message);
            if done {
                return messages;
            }
        }
    }

    async fn next_message(&mut self) -> Value {
        let line = self
            .lines
            .next_line()
            .await
            .expect("read a line")
            .unwrap_or_else(|| panic!("{}: the server closed its output", self.label));
        serde_json::from_str(&line)
            .unwrap_or_else(|_| panic!("{}: not JSON on the wire: {}", self.label, cut(&line)))
    }

    /// Sends a request of the table's era and returns its answer.
    pub async fn call(&mut self, request: &Value, id: u64) -> Value {
        let message = envelope(request, id, self.lifecycle);
        self.send_line(&serde_json::to_vec(&message).expect("JSON"))
            .await;
        self.until(id).await.pop().expect("an answer")
    }
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Wire for LineWire<R, W> {
    fn label(&self) -> String {
        format!("{} ({:?})", self.label, self.lifecycle)
    }

    async fn exchange(
        &mut self,
        case: &Message,
        id: u64,
        follow_up: &Value,
        follow_up_id: u64,
    ) -> (Reply, Value) {
        let bytes = match case {
            Message::Request(request) => {
                serde_json::to_vec(&envelope(request, id, self.lifecycle)).expect("JSON")
            }
            Message::Raw(bytes) => bytes.clone(),
        };
        self.send_line(&bytes).await;
        let follow = envelope(follow_up, follow_up_id, self.lifecycle);
        self.send_line(&serde_json::to_vec(&follow).expect("JSON"))
            .await;
        // A server may answer concurrent requests in any order, so read until
        // both are answered. What the transport ignores is never answered, and
        // what it cannot read is answered (`id: null`) before the next line is
        // read, so a raw case is done once the follow-up is.
        let mut case_messages = Vec::new();
        let mut answer = None;
        let mut case_done = matches!(case, Message::Raw(_));
        while answer.is_none() || !case_done {
            let message = self.next_message().await;
            if message["id"] == json!(follow_up_id) {
                answer = Some(message);
                continue;
            }
            case_done |= message["id"] == json!(id) || message["id"].is_null();
            case_messages.push(message);
        }
        (Reply::Json(case_messages, None), answer.expect("answered"))
    }

    fn refused(&self, refusal: Refusal, reply: &Reply) -> Result<(), String> {
        let Reply::Json(messages, _) = reply else {
            return Err("a line transport has no statuses".to_owned());
        };
        match refusal {
            Refusal::NotJson | Refusal::Oversized if messages.is_empty() => Ok(()),
            Refusal::NotAMessage if matches!(messages.as_slice(), [m] if m["id"].is_null() && m["error"]["code"] == json!(-32600)) => {
                Ok(())
            }
            Refusal::NotJson | Refusal::Oversized => Err("expected no answer".to_owned()),
            Refusal::NotAMessage => Err("expected -32600 with id null".to_owned()),
            Refusal::HeadersTooLarge => Err("a line transport has no headers".to_owned()),
        }
    }
}
