//! Running a server process over one transport, stdio most often, until the
//! client leaves: what a `main` that serves needs, with errors in words.

use rmcp::service::{QuitReason, ServerInitializeError};
use rmcp::transport::IntoTransport;
use rmcp::{RoleServer, Service, ServiceExt as _};

/// Serves `service` (a [`SkillsServer`](super::SkillsServer), a
/// [`WithSkills`](crate::WithSkills), any rmcp server handler) over
/// `transport` until the client leaves: for a stdio server,
/// `rmcp::transport::stdio_pipes()` (rmcp's feature `transport-io`).
///
/// It is rmcp's `serve(transport).await?.waiting().await?`, with one
/// difference a person at a terminal sees: when the input ends before any
/// client spoke (stdin closed, Ctrl-D, `< /dev/null`), the error is
/// [`ServeError::NoClient`], which prints as `no client connected …`
/// rather than rmcp's `ConnectionClosed("initialize request")`. Every
/// [`ServeError`] prints its sentence for `{:?}` too, so a `main` returning
/// `Result<(), Box<dyn Error>>` (the Quickstart's, `skills init`'s) shows
/// words, not `NoClient`.
///
/// ```no_run
/// use skills_runtime::{Skills, SkillsServer, embed_skills, server};
///
/// static SKILLS: Skills = embed_skills!("skills");
///
/// #[tokio::main(flavor = "current_thread")]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     eprintln!("serving {} skills; waiting for an MCP client on stdin", SKILLS.len());
///     server::serve(SkillsServer::new(SKILLS.clone()), rmcp::transport::stdio_pipes()).await?;
///     Ok(())
/// }
/// ```
pub async fn serve<S, T, E, A>(service: S, transport: T) -> Result<QuitReason, ServeError>
where
    S: Service<RoleServer>,
    T: IntoTransport<RoleServer, E, A>,
    E: std::error::Error + Send + Sync + 'static,
{
    let running = service
        .serve(transport)
        .await
        .map_err(ServeError::from_initialize)?;
    running.waiting().await.map_err(ServeError::Task)
}

/// Why [`serve`] ended without serving a client to the end.
#[non_exhaustive]
pub enum ServeError {
    /// The input ended before any client sent its first request: nobody
    /// connected (stdin closed, Ctrl-D, `< /dev/null`). A server process
    /// may treat this as a normal end.
    NoClient,
    /// The client's handshake failed: it left halfway, or sent something
    /// else than the handshake.
    Handshake(Box<ServerInitializeError>),
    /// The task serving the client panicked or was cancelled.
    Task(tokio::task::JoinError),
}

impl ServeError {
    fn from_initialize(error: ServerInitializeError) -> Self {
        match &error {
            // rmcp's name for the first message it waits for, on both eras.
            ServerInitializeError::ConnectionClosed(context) if context == "initialize request" => {
                Self::NoClient
            }
            _ => Self::Handshake(Box::new(error)),
        }
    }
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NoClient => f.write_str(
                "no client connected: the input ended before an MCP client sent its first request",
            ),
            Self::Handshake(error) => {
                write!(f, "the MCP handshake with the client failed: {error}")
            }
            Self::Task(error) => write!(f, "serving the client stopped: {error}"),
        }
    }
}

/// The sentence, as [`Display`](std::fmt::Display) writes it. This error is
/// made for a server's `main`, and Rust prints the error `main` returns with
/// `{:?}`: a derived `Debug` would show a person at a terminal `Error:
/// NoClient` (anyhow's `Error` makes the same choice, for the same reason).
/// The variants stay matchable for code that needs the structure.
impl std::fmt::Debug for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NoClient => None,
            Self::Handshake(error) => Some(&**error),
            Self::Task(error) => Some(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `main` returning the error prints `{:?}`: the sentence, not the
    /// variant's name.
    #[test]
    fn debug_is_the_sentence_a_main_prints() {
        let error = ServeError::NoClient;
        assert!(
            format!("{error:?}").starts_with("no client connected: "),
            "{error:?}"
        );
        assert_eq!(format!("{error:?}"), error.to_string());
    }
}
