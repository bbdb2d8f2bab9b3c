//! Serving a router on a TCP port: the one way this crate serves HTTP, with
//! the limits a server on the public internet needs.
//!
//! A connection is read by hyper's HTTP/1.1 server with Tokio's timer
//! (hyper-util), so hyper's own header-read timeout applies: it starts when
//! a connection begins to wait for a request head (a new connection, or the
//! next request on a kept-alive one) and closes the connection when no whole
//! head arrived in time. A request body that stalls between two pieces is cut
//! by tower-http's body timeout. Connections beyond the cap wait in the
//! kernel's accept queue until one closes. A response that is a stream of
//! server-sent events is not a header read or a body read, so none of these
//! limits cut it.

use std::future::Future;
use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ConnectInfo;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tower::ServiceExt as _;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// How long a client may take over a request and how many may be connected
/// at once: what [`Server`] holds every connection to. The defaults are safe
/// on the public internet; change a field for your deployment:
///
/// ```
/// # use std::time::Duration;
/// use skills_runtime::http::Limits;
///
/// let limits = Limits {
///     max_connections: 4096, // keep it below `ulimit -n`
///     ..Limits::default()
/// };
/// assert_eq!(limits.header_timeout, Duration::from_secs(10));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// How long a connection may take to send a whole request head (request
    /// line and headers), counted from the moment it starts waiting for one:
    /// on a new connection, and again after each answer on a kept-alive
    /// connection. So it is the idle keep-alive timeout too: a connection
    /// with no request in flight is closed when it runs out. Default
    /// [`Limits::HEADER_TIMEOUT`] (10 s): a client that trickles its headers
    /// (slowloris) holds a connection that long at most. Zero is no
    /// "unlimited": every connection is closed before its first request
    /// (a command-line flag for it should refuse 0, as the examples' do).
    pub header_timeout: Duration,
    /// How long a request body may stall between two pieces before the
    /// request fails. Default [`Limits::BODY_TIMEOUT`] (10 s). The body's
    /// size is bounded by rmcp's `max_request_body_bytes` (4 MiB).
    pub body_timeout: Duration,
    /// How many connections may be open at once; more wait in the kernel's
    /// accept queue until one closes. Default [`Limits::MAX_CONNECTIONS`]
    /// (1,024). Each takes a file descriptor: keep it below the process's
    /// `ulimit -n`, with room for the rest of the process.
    pub max_connections: usize,
    /// How long requests in flight may take to finish once the shutdown
    /// signal came. Open event streams never finish on their own; they are
    /// cut when this runs out. Default [`Limits::SHUTDOWN_GRACE`] (2 s).
    pub shutdown_grace: Duration,
}

impl Limits {
    /// The default [`header_timeout`](Self::header_timeout).
    pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default [`body_timeout`](Self::body_timeout).
    pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
    /// The default [`max_connections`](Self::max_connections).
    pub const MAX_CONNECTIONS: usize = 1024;
    /// The default [`shutdown_grace`](Self::shutdown_grace).
    pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            header_timeout: Self::HEADER_TIMEOUT,
            body_timeout: Self::BODY_TIMEOUT,
            max_connections: Self::MAX_CONNECTIONS,
            shutdown_grace: Self::SHUTDOWN_GRACE,
        }
    }
}

/// The local address a connection reached, put in each request's
/// extensions by [`Server`]: the front door accepts a `Host` that is this
/// very IP literal (no DNS name, so no DNS rebinding).
#[derive(Clone, Copy, Debug)]
pub(crate) struct LocalAddr(pub(crate) SocketAddr);

/// A bound TCP port that serves an `axum::Router` (one from
/// [`SkillsRouter::build`](super::SkillsRouter::build), with your routes and
/// layers) under [`Limits`], until Ctrl-C or `SIGTERM`.
///
/// ```no_run
/// # use skills_runtime::http::{Server, SkillsRouter};
/// # use skills_runtime::{Skills, SkillsServer};
/// # static SKILLS: Skills = Skills::empty();
/// # async fn run() -> std::io::Result<()> {
/// let router = SkillsRouter::new(SkillsServer::new(SKILLS.clone())).build();
/// let server = Server::bind("127.0.0.1:0").await?;
/// let url = server.url(); // the real port: http://127.0.0.1:PORT
/// # let _ = url;
/// // Prints `listening http://127.0.0.1:PORT` on stdout, then serves.
/// server.serve(router).await
/// # }
/// ```
///
/// Each accepted socket sends each write at once (`TCP_NODELAY`: without
/// it a client waiting for the last segment of an answer stalls for
/// ~40 ms), and each request carries the peer's address
/// (`axum::extract::ConnectInfo<SocketAddr>`) in its extensions.
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
    limits: Limits,
    until: Option<Pin<Box<dyn Future<Output = ()> + Send>>>,
    announce: bool,
}

impl Server {
    /// Binds `address` (port 0 picks a free port).
    ///
    /// # Errors
    ///
    /// When the address cannot be resolved or bound.
    pub async fn bind(address: impl ToSocketAddrs) -> std::io::Result<Server> {
        let listener = TcpListener::bind(address).await?;
        let address = listener.local_addr()?;
        Ok(Server {
            listener,
            address,
            limits: Limits::default(),
            until: None,
            announce: true,
        })
    }

    /// The address bound, with the real port.
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// The URL a client on this machine reaches the server at, with the real
    /// port: the address bound, or the loopback address of its family when
    /// bound to all interfaces (`0.0.0.0`, `::`), whose literal no client can
    /// send as a `Host` the front door accepts. The line [`serve`](Self::serve)
    /// prints, and the URL to suggest to users.
    pub fn url(&self) -> String {
        reachable_url(self.address)
    }

    /// Serves under `limits` instead of [`Limits::default`].
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Stops when `shutdown` completes instead of at Ctrl-C or `SIGTERM`,
    /// and prints nothing: for a test, or a server embedded in a larger
    /// program that prints its own lines.
    pub fn until(mut self, shutdown: impl Future<Output = ()> + Send + 'static) -> Self {
        self.until = Some(Box::pin(shutdown));
        self.announce = false;
        self
    }

    /// Prints `listening` and the [`url`](Self::url) on stdout (the one line
    /// an HTTP server of this project prints, which scripts wait for; not
    /// when [`until`](Self::until) was given), then serves `router` until
    /// Ctrl-C or `SIGTERM` (or `until`). It then stops accepting and lets
    /// requests in flight finish for up to
    /// [`shutdown_grace`](Limits::shutdown_grace).
    ///
    /// # Errors
    ///
    /// When stdout cannot be written.
    pub async fn serve(self, router: axum::Router) -> std::io::Result<()> {
        let Server {
            listener,
            address,
            limits,
            until,
            announce,
        } = self;
        if announce {
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "listening {}", reachable_url(address))?;
            stdout.flush()?;
        }
        tracing::debug!(%address, ?limits, "serving HTTP");
        let shutdown = until.unwrap_or_else(|| Box::pin(shutdown_signal()));
        accept_until(listener, router, &limits, shutdown).await;
        Ok(())
    }
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server")
            .field("address", &self.address)
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

/// `http://` and `address`, with the loopback address of its family in
/// place of an unspecified one.
fn reachable_url(address: SocketAddr) -> String {
    let ip = match address.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}", SocketAddr::new(ip, address.port()))
}

/// Accepts connections while fewer than `limits.max_connections` are open,
/// serves each on its own task, and stops at `shutdown`: no more accepts,
/// then up to the grace period for requests in flight, then every
/// connection still open is cut.
async fn accept_until(
    listener: TcpListener,
    router: axum::Router,
    limits: &Limits,
    shutdown: Pin<Box<dyn Future<Output = ()> + Send>>,
) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let service = tower::ServiceBuilder::new()
        .layer(RequestBodyTimeoutLayer::new(limits.body_timeout))
        .service(router);
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut connections = JoinSet::new();
    let mut shutdown = shutdown;
    loop {
        while connections.try_join_next().is_some() {}
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = accept(&listener, &permits) => accepted,
        };
        let Some((stream, peer, permit)) = accepted else {
            continue;
        };
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!(%error, "TCP_NODELAY could not be set on a connection");
        }
        let local = stream.local_addr().ok();
        let service = service.clone().map_request(
            move |mut request: http::Request<hyper::body::Incoming>| {
                let extensions = request.extensions_mut();
                extensions.insert(ConnectInfo(peer));
                if let Some(local) = local {
                    extensions.insert(LocalAddr(local));
                }
                request
            },
        );
        let connection = graceful
            .watch(http.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service)));
        connections.spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%peer, %error, "connection closed");
            }
            drop(permit);
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::debug!(
            "connections still open {:?} after the shutdown signal were cut",
            limits.shutdown_grace
        );
    }
    connections.shutdown().await;
}

/// One connection, once a connection may be opened; `None` after an accept
/// error (a file descriptor limit, a connection reset before it was
/// accepted), which is logged and waited out briefly.
async fn accept(
    listener: &TcpListener,
    permits: &Arc<Semaphore>,
) -> Option<(
    tokio::net::TcpStream,
    SocketAddr,
    tokio::sync::OwnedSemaphorePermit,
)> {
    let permit = permits.clone().acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((stream, peer)) => Some((stream, peer, permit)),
        Err(error) => {
            tracing::warn!(%error, "accepting a connection failed");
            drop(permit);
            tokio::time::sleep(Duration::from_millis(100)).await;
            None
        }
    }
}

/// Ctrl-C, or `SIGTERM` (what `kill`, systemd and container runtimes send).
async fn shutdown_signal() {
    let interrupt = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
