//! The front door of every route a [`SkillsRouter`](super::SkillsRouter)
//! mounts (`/mcp`, the catalog, the well-known index): the `Host` and
//! `Origin` checks, in one place, before anything else runs (so before a
//! session is created).
//!
//! - `Host`: a server on a developer's machine must not answer a page that
//!   reached it through DNS rebinding (`evil.example` resolving to
//!   `127.0.0.1`), so a name is accepted only when listed: the loopback
//!   names always, plus those the operator adds. An IP literal naming the
//!   very address the connection reached is accepted too: no DNS is
//!   involved, so nothing can be rebound. No readable `Host` is `400`,
//!   another name `403`, as rmcp answers them.
//! - `Origin` (MCP's streamable HTTP transport: a server MUST validate it and
//!   answer an invalid one with `403`): a request without one (every
//!   non-browser client) passes; a browser's passes when it is the page's
//!   own server (same scheme-less host and port as `Host`), a loopback
//!   origin, or one the operator listed. Anything else, `null` included,
//!   is `403`.

use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::uri::Authority;
use axum::http::{HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::server::LocalAddr;

/// The loopback names every server answers to.
pub(super) const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

/// Which `Host` and `Origin` values a router's routes accept.
#[derive(Clone, Debug)]
pub(super) struct FrontDoor {
    /// Names (or `name:port`) accepted besides the loopback names; `None`:
    /// any host (a proxy in front checks names).
    hosts: Option<Vec<String>>,
    /// Origins accepted besides the loopback origins and the server's own,
    /// parsed once, when listed.
    origins: Vec<Origin>,
}

impl Default for FrontDoor {
    /// The loopback names and origins only.
    fn default() -> Self {
        Self {
            hosts: Some(Vec::new()),
            origins: Vec::new(),
        }
    }
}

impl FrontDoor {
    /// Accept `hosts` too (besides the loopback names).
    pub(super) fn allow_hosts(&mut self, hosts: impl IntoIterator<Item = String>) {
        if let Some(listed) = &mut self.hosts {
            listed.extend(hosts.into_iter().map(|host| host.trim().to_owned()));
        }
    }

    /// Accept any `Host`.
    pub(super) fn allow_any_host(&mut self) {
        self.hosts = None;
    }

    /// Accept `origins` too. An entry that is no origin could never match
    /// one: it is left out, with a warning that names it (so that
    /// `--allow-origin app.example.com`, without its scheme, does not just
    /// answer `403` to the very pages it was meant for).
    pub(super) fn allow_origins(&mut self, origins: impl IntoIterator<Item = String>) {
        for entry in origins {
            match Origin::parse(&entry) {
                Some(origin) => self.origins.push(origin),
                None => tracing::warn!(
                    origin = %entry,
                    "an allowed origin is not `scheme://host[:port]` or `null`; it is ignored"
                ),
            }
        }
    }

    /// The names accepted besides the loopback ones; `None` when any is.
    pub(super) fn hosts(&self) -> Option<&[String]> {
        self.hosts.as_deref()
    }

    /// The origins accepted besides the loopback ones and the server's own.
    pub(super) fn origins(&self) -> &[impl std::fmt::Debug] {
        &self.origins
    }

    /// Whether `request` may come in; the refusal otherwise.
    fn check(&self, request: &Request) -> Result<(), Refusal> {
        let host = request
            .headers()
            .get(HOST)
            .map(|value| {
                value
                    .to_str()
                    .ok()
                    .and_then(|host| Authority::try_from(host).ok())
            })
            .unwrap_or_else(|| request.uri().authority().cloned());
        let Some(host) = host else {
            return Err((StatusCode::BAD_REQUEST, "Bad Request: Invalid Host header"));
        };
        if let Some(listed) = &self.hosts {
            let local = request.extensions().get::<LocalAddr>();
            let allowed = LOOPBACK_HOSTS
                .iter()
                .copied()
                .chain(listed.iter().map(String::as_str))
                .any(|entry| host_matches(&host, entry))
                || local.is_some_and(|local| names_address(&host, local));
            if !allowed {
                return Err((
                    StatusCode::FORBIDDEN,
                    "Forbidden: Host header is not allowed",
                ));
            }
        }
        let Some(origin) = request.headers().get(ORIGIN) else {
            return Ok(());
        };
        if self.origin_is_allowed(origin, &host) {
            Ok(())
        } else {
            Err((
                StatusCode::FORBIDDEN,
                "Forbidden: Origin header is not allowed",
            ))
        }
    }

    fn origin_is_allowed(&self, origin: &HeaderValue, host: &Authority) -> bool {
        let Some(origin) = origin.to_str().ok().and_then(Origin::parse) else {
            return false;
        };
        if self.origins.contains(&origin) {
            return true;
        }
        let Origin::Tuple {
            scheme,
            host: name,
            port,
        } = &origin
        else {
            return false;
        };
        // A page of a loopback server (any port: a local tool's UI), or of
        // this very server: same host and port as the request's `Host`,
        // which the check above accepted.
        LOOPBACK_HOSTS.contains(&name.as_str())
            || (name == &normalize(host.host())
                && *port == host.port_u16().or(default_port(scheme)))
    }
}

/// A layer function: refuses what the front door does not let in.
pub(super) async fn check(
    State(door): State<Arc<FrontDoor>>,
    request: Request,
    next: Next,
) -> Response {
    match door.check(&request) {
        Ok(()) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    }
}

/// A status and the words that say why.
type Refusal = (StatusCode, &'static str);

/// `host` names without case or brackets.
fn normalize(host: &str) -> String {
    host.trim_matches(['[', ']']).to_ascii_lowercase()
}

/// Whether `authority` is what `entry` allows (`name` matches any port,
/// `name:port` that port only).
fn host_matches(authority: &Authority, entry: &str) -> bool {
    let entry = entry.trim();
    let (name, port) = match Authority::try_from(entry) {
        Ok(parsed) => (normalize(parsed.host()), parsed.port_u16()),
        Err(_) => (normalize(entry), None),
    };
    !name.is_empty()
        && name == normalize(authority.host())
        && port.is_none_or(|port| authority.port_u16() == Some(port))
}

/// Whether `authority` is the IP literal (and port, when it names one) of
/// the address the connection reached.
fn names_address(authority: &Authority, local: &LocalAddr) -> bool {
    normalize(authority.host())
        .parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip == local.0.ip())
        && authority
            .port_u16()
            .is_none_or(|port| port == local.0.port())
}

/// An `Origin` value (RFC 6454): `null`, or a scheme, a host and a port.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Origin {
    Null,
    Tuple {
        scheme: String,
        host: String,
        /// The port, or the scheme's default when the value names none.
        port: Option<u16>,
    },
}

impl Origin {
    fn parse(value: &str) -> Option<Origin> {
        let value = value.trim();
        if value.eq_ignore_ascii_case("null") {
            return Some(Origin::Null);
        }
        let uri = axum::http::Uri::try_from(value).ok()?;
        let scheme = uri.scheme_str()?.to_ascii_lowercase();
        let authority = uri.authority()?;
        // An origin is scheme://host[:port] and nothing more.
        if uri.path() != "/" && !uri.path().is_empty() || uri.query().is_some() {
            return None;
        }
        if authority.as_str().contains('@') {
            return None;
        }
        Some(Origin::Tuple {
            host: normalize(authority.host()),
            port: authority.port_u16().or(default_port(&scheme)),
            scheme,
        })
    }
}

/// The port `scheme` implies (RFC 6454 §4).
fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn door(hosts: &[&str], origins: &[&str]) -> FrontDoor {
        let mut door = FrontDoor::default();
        door.allow_hosts(hosts.iter().map(|host| (*host).to_owned()));
        door.allow_origins(origins.iter().map(|origin| (*origin).to_owned()));
        door
    }

    fn status(door: &FrontDoor, headers: &[(&str, &str)], local: Option<&str>) -> u16 {
        let mut request = Request::new(axum::body::Body::empty());
        for (name, value) in headers {
            request.headers_mut().append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        if let Some(local) = local {
            request
                .extensions_mut()
                .insert(LocalAddr(local.parse().unwrap()));
        }
        match door.check(&request) {
            Ok(()) => 200,
            Err((status, _)) => status.as_u16(),
        }
    }

    #[test]
    fn listed_hosts_add_to_the_loopback_names() {
        let door = door(&["skills.example.com", "api.example.com:8443"], &[]);
        let host = |value: &str| status(&door, &[("host", value)], None);
        assert_eq!(host("localhost:8080"), 200);
        assert_eq!(host("LOCALHOST"), 200);
        assert_eq!(host("127.0.0.1:8080"), 200);
        assert_eq!(host("[::1]:80"), 200);
        assert_eq!(host("skills.example.com"), 200);
        assert_eq!(host("skills.example.com:8080"), 200);
        assert_eq!(host("api.example.com:8443"), 200);
        assert_eq!(host("api.example.com:8444"), 403);
        assert_eq!(host("localhost.evil.example"), 403);
        assert_eq!(host("evil.example"), 403);
        assert_eq!(host("0.0.0.0:8080"), 403);
        assert_eq!(status(&door, &[("host", "a b")], None), 400);
    }

    #[test]
    fn the_ip_literal_of_the_address_reached_is_accepted_and_no_other() {
        let door = door(&[], &[]);
        let reached = Some("10.1.2.3:8080");
        assert_eq!(status(&door, &[("host", "10.1.2.3:8080")], reached), 200);
        assert_eq!(status(&door, &[("host", "10.1.2.3")], reached), 200);
        assert_eq!(status(&door, &[("host", "10.1.2.3:9090")], reached), 403);
        assert_eq!(status(&door, &[("host", "10.1.2.4:8080")], reached), 403);
        assert_eq!(status(&door, &[("host", "10.1.2.3:8080")], None), 403);
    }

    #[test]
    fn origins_are_refused_unless_loopback_listed_or_the_servers_own() {
        let door = door(
            &["skills.example.com"],
            &["https://app.example.com", "null"],
        );
        let origin =
            |host: &str, origin: &str| status(&door, &[("host", host), ("origin", origin)], None);
        // No Origin: a non-browser client.
        assert_eq!(status(&door, &[("host", "localhost")], None), 200);
        assert_eq!(origin("localhost:8080", "http://evil.example"), 403);
        assert_eq!(origin("localhost:8080", "http://localhost:3000"), 200);
        assert_eq!(origin("localhost:8080", "http://127.0.0.1:5173"), 200);
        assert_eq!(origin("localhost:8080", "http://[::1]:5173"), 200);
        assert_eq!(origin("skills.example.com", "https://app.example.com"), 200);
        assert_eq!(
            origin("skills.example.com", "https://app.example.com:443"),
            200
        );
        assert_eq!(
            origin("skills.example.com", "https://app.example.com:8443"),
            403
        );
        assert_eq!(origin("skills.example.com", "http://app.example.com"), 403);
        // The server's own pages (a browser leaves the default port out of `Host`).
        assert_eq!(
            origin("skills.example.com", "https://skills.example.com"),
            200
        );
        assert_eq!(
            origin("skills.example.com:443", "https://skills.example.com"),
            200
        );
        assert_eq!(
            origin("skills.example.com:8080", "https://skills.example.com"),
            403
        );
        assert_eq!(
            origin("skills.example.com:8080", "http://skills.example.com:8080"),
            200
        );
        assert_eq!(
            origin("skills.example.com", "https://other.example.com"),
            403
        );
        assert_eq!(origin("skills.example.com", "null"), 200);
        assert_eq!(
            origin("skills.example.com", "https://user@app.example.com"),
            403
        );
        assert_eq!(origin("skills.example.com", "not a url"), 403);
    }

    #[test]
    fn a_listed_entry_that_is_no_origin_is_left_out_and_the_others_kept() {
        let door = door(&[], &["app.example.com", "https://app.example.com"]);
        assert_eq!(door.origins().len(), 1);
        let origin = |value: &str| status(&door, &[("host", "localhost"), ("origin", value)], None);
        assert_eq!(origin("https://app.example.com"), 200);
        assert_eq!(origin("app.example.com"), 403);
    }

    #[test]
    fn without_a_listed_null_a_null_origin_is_refused() {
        let door = door(&[], &[]);
        assert_eq!(
            status(&door, &[("host", "localhost"), ("origin", "null")], None),
            403
        );
        assert_eq!(
            status(
                &door,
                &[("host", "localhost"), ("origin", "http://evil.example")],
                None
            ),
            403
        );
    }
}
