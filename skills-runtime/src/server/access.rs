//! Who may see what: the caller a request comes from, and the access policy's
//! answer for each skill (owned, locked with an offer, or absent).
//!
//! The policy runs on every request that lists or reads skills, once per
//! skill it needs, so it must be synchronous and cheap: a lookup in what the
//! author's own tower layer resolved once per HTTP request (token → learner
//! → owned set, put in the request's extensions), never a database query.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::RequestContext;

use crate::Skill;

/// What a caller gets of one skill.
#[derive(Debug, Clone, PartialEq)]
pub enum Access {
    /// The caller may list and read the skill, on every path.
    Owned,
    /// The caller may not read the skill, but may buy it: on MCP it is
    /// exactly as absent (never listed, never a resource, the same `-32602`
    /// as a skill nobody has); catalog routes show it as a teaser with this
    /// offer. Only a skill declared gated may be locked; a policy answering
    /// `Locked` for any other skill has it served as [`Access::Absent`] (and
    /// the server logs that once).
    Locked(Offer),
    /// The caller neither sees nor hears of the skill: every answer is the
    /// one a skill that does not exist gets.
    Absent,
}

/// The author's offer for a locked skill, as JSON (a price, a payment link,
/// …), shown with its teaser on catalog routes. Cheap to clone: build offers
/// once and hand out clones from the policy.
///
/// ```
/// use skills_runtime::server::Offer;
///
/// let offer = Offer::new(serde_json::json!({"price": "EUR 49", "buy": "https://example.com/buy/ard"}));
/// assert_eq!(offer.json()["price"], "EUR 49");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Offer(Arc<serde_json::Value>);

impl Offer {
    /// An offer made of `json`.
    pub fn new(json: serde_json::Value) -> Self {
        Self(Arc::new(json))
    }

    /// The offer, as the author wrote it.
    pub fn json(&self) -> &serde_json::Value {
        &self.0
    }
}

impl From<serde_json::Value> for Offer {
    fn from(json: serde_json::Value) -> Self {
        Self::new(json)
    }
}

/// Decides, per skill and per caller, what the caller gets. Set with
/// [`SkillsServerBuilder::access`](crate::SkillsServerBuilder::access).
pub type AccessPolicy = dyn Fn(&Skill, &Caller<'_>) -> Access + Send + Sync;

/// Who a request comes from, as a policy sees it: the HTTP request head
/// (when the request came over HTTP) and the MCP request context (when it
/// came over MCP). An MCP request over streamable HTTP has both; a catalog
/// route has only the first; a stdio session only the second.
///
/// Build one from an MCP context with [`Caller::from_mcp`], from a plain HTTP
/// route with [`Caller::from_http`]; the policy then reads what the author's
/// layer put in the request extensions with [`Caller::extension`]:
///
/// ```
/// use std::collections::HashSet;
/// use skills_runtime::server::{Access, Caller};
///
/// /// What the author's auth layer resolved for this request.
/// #[derive(Clone)]
/// struct Owned(HashSet<String>);
///
/// let mut request = http::Request::new(());
/// request.extensions_mut().insert(Owned(HashSet::from(["ard".to_owned()])));
/// let (parts, ()) = request.into_parts();
///
/// let caller = Caller::from_http(&parts);
/// let owns = |name: &str| caller.extension::<Owned>().is_some_and(|owned| owned.0.contains(name));
/// assert!(owns("ard"));
/// assert!(!owns("workshops"));
/// assert!(Caller::anonymous().extension::<Owned>().is_none());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct Caller<'a> {
    http: Option<&'a http::request::Parts>,
    mcp: Option<&'a RequestContext<RoleServer>>,
}

impl<'a> Caller<'a> {
    /// The caller of an MCP request; over streamable HTTP, rmcp puts the HTTP
    /// request head in the context's extensions, and this finds it there.
    pub fn from_mcp(context: &'a RequestContext<RoleServer>) -> Self {
        Self {
            http: context.extensions.get::<http::request::Parts>(),
            mcp: Some(context),
        }
    }

    /// The caller of a plain HTTP route (a catalog route, say), with no MCP
    /// context: axum hands a handler the head as `http::request::Parts`.
    pub fn from_http(parts: &'a http::request::Parts) -> Self {
        Self {
            http: Some(parts),
            mcp: None,
        }
    }

    /// A caller nothing is known about: what answers that go to every caller
    /// alike (the instructions of [`SkillsServer::instructions`]) are built for.
    ///
    /// [`SkillsServer::instructions`]: super::SkillsServer::instructions
    pub fn anonymous() -> Self {
        Self::default()
    }

    /// Whether nothing is known about the caller (no request at all).
    pub(super) fn is_anonymous(&self) -> bool {
        self.http.is_none() && self.mcp.is_none()
    }

    /// The HTTP request head, when the request came over HTTP.
    pub fn http(&self) -> Option<&'a http::request::Parts> {
        self.http
    }

    /// The MCP request context, when the request is an MCP request.
    pub fn mcp(&self) -> Option<&'a RequestContext<RoleServer>> {
        self.mcp
    }

    /// A value of type `T` from the HTTP request's extensions (where a tower
    /// layer puts what it resolved), else from the MCP context's.
    pub fn extension<T: Send + Sync + 'static>(&self) -> Option<&'a T> {
        self.http
            .and_then(|parts| parts.extensions.get::<T>())
            .or_else(|| self.mcp.and_then(|context| context.extensions.get::<T>()))
    }
}

/// How a server decides access: everyone sees everything, or a policy asks.
pub(super) enum Rule {
    Everyone,
    Policy(Box<AccessPolicy>),
}

impl Rule {
    /// Whether every caller gets the same view.
    pub(super) fn is_everyone(&self) -> bool {
        matches!(self, Self::Everyone)
    }
}
