//! Transports sized for skills, and a connect that works with both protocol eras.
//!
//! rmcp's client transports drop any message over 16 MiB (the stdio line
//! limit, the HTTP response and SSE event limits), but SEP-2640 lets a skill
//! hold 16 MiB, so one legal `resources/read` answer of a binary file can be
//! about 21.4 MiB once base64-encoded, and a text file full of characters JSON
//! must escape can be several times its size. The constructors here raise
//! those limits to [`MAX_MESSAGE_BYTES`], derived from
//! [`MAX_SKILL_BYTES`](skills_core::MAX_SKILL_BYTES).

use std::ffi::OsStr;
use std::process::Stdio;

use rmcp::model::ProtocolVersion;
use rmcp::service::{ClientInitializeError, RunningService};
use rmcp::transport::Transport;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ClientLifecycleMode, ClientServiceExt as _, RoleClient, Service};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The longest message the transports here accept: the largest legal
/// answer to one `resources/read`. A file of a 16 MiB skill whose every byte
/// JSON writes as a six-character escape (`\u001f`) takes six times its
/// size; one more MiB covers the envelope. Base64 (a third more) and most
/// text fit far below it.
pub const MAX_MESSAGE_BYTES: usize = 6 * skills_core::MAX_SKILL_BYTES as usize + (1 << 20);

/// A JSON-RPC transport over any byte stream (a socket, a pipe, an
/// in-memory duplex) that accepts messages up to [`MAX_MESSAGE_BYTES`].
pub fn stream<S>(stream: S) -> impl Transport<RoleClient, Error = std::io::Error> + 'static
where
    S: AsyncRead + AsyncWrite + Send + 'static,
{
    let (read, write) = tokio::io::split(stream);
    AsyncRwTransport::<RoleClient, _, _>::new(read, write).with_max_line_length(MAX_MESSAGE_BYTES)
}

/// A server started as a child process, spoken to over its stdin and
/// stdout, accepting messages up to [`MAX_MESSAGE_BYTES`]. Its stderr is the
/// caller's. The process is killed when the transport is dropped.
pub struct ChildProcess {
    child: Child,
    transport: AsyncRwTransport<RoleClient, ChildStdout, ChildStdin>,
}

impl ChildProcess {
    /// Starts `program` with `args`.
    pub fn spawn<I, S>(program: impl AsRef<OsStr>, args: I) -> std::io::Result<Self>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        let mut command = Command::new(program);
        command.args(args);
        Self::from_command(command)
    }

    /// Starts `command` (with its environment and working folder); stdin and
    /// stdout are taken for the protocol. When it cannot start, the error
    /// names the program (`cannot start target/debug/examples/stdio_server:
    /// No such file or directory`), with the same [`ErrorKind`](std::io::ErrorKind).
    pub fn from_command(mut command: Command) -> std::io::Result<Self> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|error| {
            let program = command.as_std().get_program().to_string_lossy();
            let hint = if error.kind() == std::io::ErrorKind::NotFound {
                " (is the path right, relative to the current folder, and is the program built?)"
            } else {
                ""
            };
            std::io::Error::new(
                error.kind(),
                format!("cannot start `{program}`: {error}{hint}"),
            )
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(std::io::Error::other(
                "the child's stdio could not be taken",
            ));
        };
        let transport =
            AsyncRwTransport::new(stdout, stdin).with_max_line_length(MAX_MESSAGE_BYTES);
        Ok(Self { child, transport })
    }

    /// The child's process id, while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.id()
    }
}

impl Transport<RoleClient> for ChildProcess {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: rmcp::service::TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(
        &mut self,
    ) -> impl Future<Output = Option<rmcp::service::RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // The stdio shutdown of the MCP specification: close stdin, give the
        // server a moment to exit, then kill it.
        let closed = self.transport.close().await;
        let exited =
            tokio::time::timeout(std::time::Duration::from_secs(3), self.child.wait()).await;
        if exited.is_err() {
            self.child.kill().await?;
        }
        closed
    }
}

/// rmcp's streamable HTTP client for `url`, with its response and SSE event
/// limits raised to [`MAX_MESSAGE_BYTES`]; `headers` are sent with every
/// request (`("Authorization", "Bearer …")`).
#[cfg(feature = "client-http")]
pub fn http(
    url: &str,
    headers: impl IntoIterator<Item = (String, String)>,
) -> Result<impl Transport<RoleClient> + 'static, crate::client::ClientError> {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    let usage = |what: String| crate::client::ClientError::Usage(what);
    let mut custom = std::collections::HashMap::new();
    let mut auth = None;
    for (name, value) in headers {
        if name.eq_ignore_ascii_case("authorization") {
            // rmcp writes `Authorization: Bearer <token>` itself from the token.
            match value.strip_prefix("Bearer ") {
                Some(token) => auth = Some(token.to_owned()),
                None => {
                    return Err(usage(format!(
                        "the Authorization header must be `Bearer <token>`, not `{value}`"
                    )));
                }
            }
            continue;
        }
        let header = http::HeaderName::try_from(name.as_str())
            .map_err(|error| usage(format!("header name `{name}`: {error}")))?;
        let value = http::HeaderValue::try_from(value.as_str())
            .map_err(|error| usage(format!("value of header `{name}`: {error}")))?;
        custom.insert(header, value);
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url)
        .custom_headers(custom)
        .max_sse_event_size(MAX_MESSAGE_BYTES)
        .max_json_response_size(MAX_MESSAGE_BYTES);
    if let Some(token) = auth {
        config = config.auth_header(token);
    }
    Ok(rmcp::transport::StreamableHttpClientTransport::from_config(
        config,
    ))
}

/// Connects rmcp's client to a server over `transport`, the 2026-07-28 way
/// (`server/discover`) when the server speaks it and with the 2025-11-25
/// `initialize` handshake otherwise. Nothing about skills is sent.
pub async fn connect<T, E, A>(
    transport: T,
) -> Result<RunningService<RoleClient, ()>, ClientInitializeError>
where
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    connect_with((), transport).await
}

/// [`connect`] with your own client handler (to receive `list_changed`
/// notifications, say).
pub async fn connect_with<S, T, E, A>(
    handler: S,
    transport: T,
) -> Result<RunningService<RoleClient, S>, ClientInitializeError>
where
    S: Service<RoleClient>,
    T: rmcp::transport::IntoTransport<RoleClient, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    handler
        .serve_with_lifecycle(
            transport,
            ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: None,
            },
        )
        .await
}
