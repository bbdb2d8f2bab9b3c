//! The platform as an OAuth 2.1 resource server, the way MCP's
//! authorization specification asks: every route but the public
//! `/.well-known/…` documents needs a bearer JWT; its signature, expiry,
//! not-before time, audience and issuer are checked against a key set
//! selected by the token's `kid` (`exp` and `nbf` with a leeway of
//! [`LEEWAY_SECONDS`]); a request without a valid token gets `401` with a
//! `WWW-Authenticate` header naming the protected resource metadata
//! (RFC 9728), where a client finds the authorization server.
//!
//! The key set is the development keys kept in the database (the `token`
//! command signs with the newest, standing in for an authorization server;
//! `rotate-key` adds one), or an authorization server's own set with
//! `serve --jwks PATH`. Either is read again on an interval (a key removed
//! from the set is refused within it) and at once when a token names a key
//! the set did not hold (at most once per [`UNKNOWN_KEY_RELOAD`], so forged
//! key ids cannot make the server read it on every request).
//!
//! Two kinds of token, told apart by their audience (RFC 8707: each names
//! the resource it is for): access tokens (`aud` the MCP endpoint) for
//! `/mcp`, `/api` and `/skills`, and install tokens (`aud` the install
//! audience, minted by `install-token`, short-lived) for
//! `/install/{token}/…` only, where the token sits in a URL (shell history,
//! proxy logs, a committed `skills-lock.json`). Each is refused where the
//! other belongs. A token whose lifetime (`exp` − `iat`) is longer than the
//! server accepts for its kind is refused too.
//!
//! The layer then resolves token → learner → entitlements once per request
//! and puts them in the request's extensions: MCP requests reach the
//! skills' access rule and the tools with that request head (rmcp hands it
//! over), and the API routes read it directly; with them the learner as the
//! [`Principal`] its MCP sessions belong to.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::jwk::{AlgorithmParameters, JwkSet};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use skills_runtime::http::Principal;

use crate::db::{Db, Unresolved};

/// Where the protected resource metadata is served (RFC 9728 §3).
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// The clock skew allowed between this server and the authorization
/// server, in seconds, on every time claim: a token is refused once `exp`
/// is more than this far in the past, and while `nbf` or `iat` (when
/// present) is more than this far in the future (RFC 7519 §4.1.4-4.1.6).
pub const LEEWAY_SECONDS: u64 = 30;

/// The longest an access token may live (`exp` − `iat`), by default.
pub const MAX_LIFETIME: Duration = Duration::from_secs(24 * 3600);

/// The longest an install token may live, by default: it sits in URLs.
pub const MAX_INSTALL_LIFETIME: Duration = Duration::from_secs(15 * 60);

/// How often the key set is read again, by default: a key removed from it
/// is refused within this.
pub const KEYS_REFRESH: Duration = Duration::from_secs(30);

/// At most one extra read of the key set per this long, for tokens naming
/// a key the set did not hold.
pub const UNKNOWN_KEY_RELOAD: Duration = Duration::from_secs(10);

/// The claims the platform issues and reads. Every field has a default
/// when read, so a token without one is refused by the required-claims
/// check (`MissingClaim`), not as a malformed JWT.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Claims {
    pub iss: String,
    pub sub: String,
    /// One audience or several (RFC 7519 §4.1.3).
    pub aud: Audience,
    /// Issued at: optional; without it the lifetime is counted from now.
    /// One more than [`LEEWAY_SECONDS`] in the future is refused.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iat: Option<u64>,
    pub exp: u64,
    /// Not before: optional, honoured when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nbf: Option<u64>,
}

/// A token's `aud`: a string, or an array of strings (RFC 7519 §4.1.3).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Audience(pub Vec<String>);

impl Audience {
    /// One audience.
    pub fn one(audience: impl Into<String>) -> Audience {
        Audience(vec![audience.into()])
    }

    fn contains(&self, audience: &str) -> bool {
        self.0.iter().any(|named| named == audience)
    }
}

impl Serialize for Audience {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0.as_slice() {
            [one] => serializer.serialize_str(one),
            many => many.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Audience {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum OneOrMany {
            One(String),
            Many(Vec<String>),
        }
        Ok(match OneOrMany::deserialize(deserializer)? {
            OneOrMany::One(one) => Audience(vec![one]),
            OneOrMany::Many(many) => Audience(many),
        })
    }
}

/// What a token is for: the audience it must name, and the longest it may
/// live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// `/mcp`, `/api`, `/skills`: an access token.
    Access,
    /// `/install/{token}/…`: an install token.
    Install,
}

/// Why a token was refused: said in the `401`'s `error_description`. None
/// of them repeats what the token said (its `kid`, its claims), so a
/// client's input never comes back in a header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenError {
    Malformed,
    NoKeyId,
    UnknownKey,
    Algorithm,
    Signature,
    Expired,
    NotYetValid,
    Audience,
    Issuer,
    MissingClaim,
    TooLong,
    UnknownLearner,
}

impl TokenError {
    pub fn description(self) -> &'static str {
        match self {
            Self::Malformed => "the token is not a well-formed JWT",
            Self::NoKeyId => "the token names no signing key (kid)",
            Self::UnknownKey => "the token was signed with a key this server does not know",
            Self::Algorithm => "the token's algorithm does not match its signing key",
            Self::Signature => "the token's signature does not verify",
            Self::Expired => "the token has expired",
            Self::NotYetValid => "the token is not valid yet",
            Self::Audience => {
                "the token was issued for another resource (audience): access tokens serve /mcp, /api and /skills, install tokens /install only"
            }
            Self::Issuer => "the token was issued by another authorization server",
            Self::MissingClaim => {
                "the token lacks a required claim (iss, sub, aud, exp) or a time claim is not a number"
            }
            Self::TooLong => {
                "the token lives longer (exp - iat) than this server accepts for its kind"
            }
            Self::UnknownLearner => "the token's learner does not exist",
        }
    }
}

/// The keys of a set that a token can select, by `kid`.
pub struct KeyMap(HashMap<String, (DecodingKey, Option<Algorithm>)>);

impl KeyMap {
    /// The keys of `set` that have a `kid` (a token selects its key by it).
    /// Symmetric keys are refused: a resource server that holds a shared
    /// secret could forge tokens.
    pub fn new(set: &JwkSet) -> anyhow::Result<KeyMap> {
        let mut keys = HashMap::new();
        for jwk in &set.keys {
            let Some(kid) = jwk.common.key_id.clone() else {
                tracing::warn!(
                    "a key of the set has no kid: no token can select it, so it is ignored"
                );
                continue;
            };
            if matches!(jwk.algorithm, AlgorithmParameters::OctetKey(_)) {
                anyhow::bail!(
                    "key {kid} is a shared secret (kty oct); a resource server takes public keys only"
                );
            }
            let algorithm = match jwk.common.key_algorithm {
                Some(algorithm) => Some(Algorithm::try_from(algorithm).map_err(|_| {
                    anyhow::anyhow!("key {kid} has an algorithm jsonwebtoken cannot verify")
                })?),
                None => None,
            };
            let key = DecodingKey::from_jwk(jwk).map_err(|error| {
                anyhow::anyhow!("key {kid} is not a usable public key: {error}")
            })?;
            keys.insert(kid, (key, algorithm));
        }
        if keys.is_empty() {
            anyhow::bail!("the key set holds no key with a kid");
        }
        Ok(KeyMap(keys))
    }
}

/// Where the key set is read from, at start-up and again.
#[derive(Clone)]
pub enum KeySource {
    /// The development keys of the database (public halves).
    Database(Db),
    /// An authorization server's key set, a JWKS file.
    File(PathBuf),
}

impl KeySource {
    async fn read(&self) -> anyhow::Result<KeyMap> {
        let set = match self {
            KeySource::Database(db) => development_keys(db).await?,
            KeySource::File(path) => key_set_file(path)?,
        };
        KeyMap::new(&set)
    }

    /// Where the keys come from, for the log.
    pub fn describe(&self) -> String {
        match self {
            KeySource::Database(_) => {
                "the database's development keys (`token LEARNER`, `rotate-key`)".to_owned()
            }
            KeySource::File(path) => path.display().to_string(),
        }
    }
}

/// What tokens must name and how long they may live.
#[derive(Debug, Clone)]
pub struct TokenRules {
    /// The audience of access tokens (`/mcp`, `/api`).
    pub audience: String,
    /// The audience of install tokens (`/install/{token}`).
    pub install_audience: String,
    /// The issuer every token must name.
    pub issuer: String,
    /// The longest an access token may live.
    pub max_lifetime: Duration,
    /// The longest an install token may live.
    pub max_install_lifetime: Duration,
}

impl TokenRules {
    /// The audience and issuer the database names, with the default
    /// lifetimes.
    pub async fn of(db: &Db) -> anyhow::Result<TokenRules> {
        Ok(TokenRules {
            audience: db.setting("audience").await?,
            install_audience: db.setting("install_audience").await?,
            issuer: db.setting("issuer").await?,
            max_lifetime: MAX_LIFETIME,
            max_install_lifetime: MAX_INSTALL_LIFETIME,
        })
    }
}

/// Checks bearer tokens against a key set read again over time, the
/// audiences and the issuer.
pub struct Verifier {
    keys: RwLock<Arc<KeyMap>>,
    source: KeySource,
    rules: TokenRules,
    /// When a token naming an unknown key last made it read the set.
    unknown_key_reload: tokio::sync::Mutex<Option<Instant>>,
}

impl Verifier {
    /// Reads the key set from `source` (refusing a set no token could
    /// use) and checks tokens by `rules`.
    pub async fn new(source: KeySource, rules: TokenRules) -> anyhow::Result<Verifier> {
        let keys = source.read().await?;
        Ok(Verifier {
            keys: RwLock::new(Arc::new(keys)),
            source,
            rules,
            unknown_key_reload: tokio::sync::Mutex::new(None),
        })
    }

    /// The rules tokens are checked by.
    pub fn rules(&self) -> &TokenRules {
        &self.rules
    }

    fn current(&self) -> Arc<KeyMap> {
        self.keys
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Reads the key set again; on failure the set read last stays (the
    /// database may be down for a moment).
    pub async fn reload(&self) -> anyhow::Result<()> {
        let keys = self.source.read().await?;
        *self.keys.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(keys);
        Ok(())
    }

    /// Reads the key set again every `every`, for as long as the process
    /// runs.
    pub fn refresh_every(self: &Arc<Self>, every: Duration) {
        let verifier = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                let Some(verifier) = verifier.upgrade() else {
                    return;
                };
                if let Err(error) = verifier.reload().await {
                    tracing::warn!(
                        "cannot read the key set again; keeping the last one: {error:#}"
                    );
                }
            }
        });
    }

    /// A read of the key set for a token that named a key it did not hold,
    /// unless one was made less than [`UNKNOWN_KEY_RELOAD`] ago; concurrent
    /// callers wait for the one read.
    async fn reload_for_unknown_key(&self) {
        let mut last = self.unknown_key_reload.lock().await;
        if last.is_some_and(|at| at.elapsed() < UNKNOWN_KEY_RELOAD) {
            return;
        }
        *last = Some(Instant::now());
        if let Err(error) = self.reload().await {
            tracing::warn!("cannot read the key set again: {error:#}");
        }
    }

    /// The learner a valid token for `purpose` names (its `sub`).
    pub async fn verify(&self, token: &str, purpose: Purpose) -> Result<String, TokenError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| TokenError::Malformed)?;
        let kid = header.kid.as_deref().ok_or(TokenError::NoKeyId)?;
        let mut keys = self.current();
        if !keys.0.contains_key(kid) {
            self.reload_for_unknown_key().await;
            keys = self.current();
        }
        let (key, algorithm) = keys.0.get(kid).ok_or(TokenError::UnknownKey)?;
        // The key decides the algorithm when it says one; otherwise the
        // header's must belong to the key's family (jsonwebtoken checks it),
        // so an RS256 key cannot be used as an HS256 secret.
        let algorithm = algorithm.unwrap_or(header.alg);
        if header.alg != algorithm {
            return Err(TokenError::Algorithm);
        }
        let (audience, other, max_lifetime) = match purpose {
            Purpose::Access => (
                &self.rules.audience,
                &self.rules.install_audience,
                self.rules.max_lifetime,
            ),
            Purpose::Install => (
                &self.rules.install_audience,
                &self.rules.audience,
                self.rules.max_install_lifetime,
            ),
        };
        let mut validation = Validation::new(algorithm);
        validation.set_audience(&[audience]);
        validation.set_issuer(&[&self.rules.issuer]);
        validation.set_required_spec_claims(&["exp", "aud", "iss", "sub"]);
        // Every registered time claim that is present is honoured, with
        // the same leeway: `exp` (required) and `nbf` (when sent).
        validation.validate_exp = true;
        validation.validate_nbf = true;
        validation.leeway = LEEWAY_SECONDS;
        let data =
            jsonwebtoken::decode::<Claims>(token, key, &validation).map_err(|error| match error
                .kind()
            {
                ErrorKind::InvalidSignature => TokenError::Signature,
                ErrorKind::ExpiredSignature => TokenError::Expired,
                ErrorKind::ImmatureSignature => TokenError::NotYetValid,
                ErrorKind::InvalidAudience => TokenError::Audience,
                ErrorKind::InvalidIssuer => TokenError::Issuer,
                ErrorKind::MissingRequiredClaim(_) | ErrorKind::InvalidClaimFormat(_) => {
                    TokenError::MissingClaim
                }
                ErrorKind::InvalidAlgorithm
                | ErrorKind::InvalidKeyFormat
                | ErrorKind::InvalidEddsaKey => TokenError::Algorithm,
                _ => TokenError::Malformed,
            })?;
        let claims = data.claims;
        // A token for both kinds at once is for neither.
        if claims.aud.contains(other) {
            return Err(TokenError::Audience);
        }
        let now = u64::try_from(crate::db::now()).unwrap_or(0);
        let issued = claims.iat.unwrap_or(now);
        // An `iat` in the future would shorten the lifetime counted below
        // at will (`iat` = `exp` passes any maximum): such a token is not
        // valid yet, with the leeway `nbf` gets.
        if issued > now.saturating_add(LEEWAY_SECONDS) {
            return Err(TokenError::NotYetValid);
        }
        if claims.exp.saturating_sub(issued) > max_lifetime.as_secs() {
            return Err(TokenError::TooLong);
        }
        Ok(claims.sub)
    }
}

/// The development key set kept in the database, public halves only.
pub async fn development_keys(db: &Db) -> anyhow::Result<JwkSet> {
    Ok(JwkSet {
        keys: db
            .signing_keys()
            .await?
            .into_iter()
            .map(|(_, _, jwk)| jwk)
            .collect(),
    })
}

/// An authorization server's key set, from a JWKS file.
pub fn key_set_file(path: &std::path::Path) -> anyhow::Result<JwkSet> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| anyhow::anyhow!("cannot read the key set {}: {error}", path.display()))?;
    serde_json::from_str(&text)
        .map_err(|error| anyhow::anyhow!("{} is not a JWK set: {error}", path.display()))
}

/// A development token for `learner` and `purpose`, signed with the
/// database's newest key, for the audience and issuer the database names,
/// valid for `ttl`.
pub async fn mint(
    db: &Db,
    learner: &str,
    ttl: Duration,
    purpose: Purpose,
) -> anyhow::Result<String> {
    let (kid, pkcs8, _) = db
        .signing_keys()
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("the database holds no signing key"))?;
    let now = u64::try_from(crate::db::now()).unwrap_or(0);
    let audience = match purpose {
        Purpose::Access => db.setting("audience").await?,
        Purpose::Install => db.setting("install_audience").await?,
    };
    let claims = Claims {
        iss: db.setting("issuer").await?,
        sub: learner.to_owned(),
        aud: Audience::one(audience),
        iat: Some(now),
        exp: now.saturating_add(ttl.as_secs()),
        nbf: None,
    };
    sign(&claims, &kid, &EncodingKey::from_ed_der(&pkcs8))
}

/// `claims` signed with EdDSA under `kid`.
pub fn sign(claims: &Claims, kid: &str, key: &EncodingKey) -> anyhow::Result<String> {
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = Some(kid.to_owned());
    Ok(jsonwebtoken::encode(&header, claims, key)?)
}

/// Where the protected resource metadata is said to be, in every `401`:
/// the server's public URL as configured, never the request's `Host`
/// (which a client chooses). Behind a proxy the operator named, the
/// proxy's `X-Forwarded-Proto` and `X-Forwarded-Host` are used instead, when
/// the host is one the server answers to.
#[derive(Debug, Clone)]
pub struct PublicUrl {
    /// `scheme://host[:port]`, without a trailing slash.
    pub base: String,
    /// Whether a proxy in front sets `X-Forwarded-*` (`--behind-proxy`).
    pub behind_proxy: bool,
    /// The host names a forwarded host may be (the `--allow-host` names).
    pub hosts: Vec<String>,
}

impl PublicUrl {
    /// The URL of the protected resource metadata for a request with
    /// `headers`.
    fn metadata(&self, headers: &HeaderMap) -> String {
        if self.behind_proxy
            && let Some(base) = self.forwarded(headers)
        {
            return format!("{base}{METADATA_PATH}");
        }
        format!("{}{METADATA_PATH}", self.base)
    }

    fn forwarded(&self, headers: &HeaderMap) -> Option<String> {
        let value = |name: &str| {
            headers
                .get(name)
                .and_then(|value| value.to_str().ok())
                // A proxy appends: the first is what the client asked for.
                .and_then(|value| value.split(',').next())
                .map(str::trim)
        };
        let scheme = match value("x-forwarded-proto") {
            Some("https") => "https",
            Some("http") => "http",
            _ => return None,
        };
        let host = value("x-forwarded-host")?;
        let authority = axum::http::uri::Authority::try_from(host).ok()?;
        let known = self
            .hosts
            .iter()
            .any(|name| name.eq_ignore_ascii_case(authority.host()));
        (known && !host.contains(['"', '\\'])).then(|| format!("{scheme}://{host}"))
    }
}

/// What the auth layer needs.
#[derive(Clone)]
pub struct Auth {
    pub verifier: Arc<Verifier>,
    pub db: Db,
    pub public: Arc<PublicUrl>,
    /// How long the last-known entitlements may serve while the database
    /// is unreachable.
    pub stale_for: Duration,
    /// What the tokens it accepts are for.
    pub purpose: Purpose,
}

impl Auth {
    /// The same, for the install path's tokens.
    pub fn for_install(&self) -> Auth {
        Auth {
            purpose: Purpose::Install,
            ..self.clone()
        }
    }
}

/// The auth layer: bearer token → learner → entitlements, once per request,
/// into the request's extensions, with the learner as the [`Principal`] of
/// the MCP sessions it opens; `401` otherwise, and `503` when the database
/// cannot answer (after the last-known entitlements, only while it is
/// unreachable and for at most `stale_for`).
pub async fn authenticate(State(auth): State<Auth>, mut request: Request, next: Next) -> Response {
    let metadata = auth.public.metadata(request.headers());
    let Some(token) = bearer(request.headers()) else {
        return unauthorized(&metadata, None);
    };
    let learner = match auth.verifier.verify(token, auth.purpose).await {
        Ok(learner) => learner,
        Err(error) => return unauthorized(&metadata, Some(error)),
    };
    match auth
        .db
        .entitlements_for_request(&learner, auth.stale_for)
        .await
    {
        Ok(entitlements) => {
            request.extensions_mut().insert(Principal::new(learner));
            request.extensions_mut().insert(entitlements);
            next.run(request).await
        }
        Err(Unresolved::UnknownLearner) => {
            unauthorized(&metadata, Some(TokenError::UnknownLearner))
        }
        Err(Unresolved::Unavailable(error)) => {
            tracing::error!("cannot read the entitlements: {error:#}");
            unavailable()
        }
    }
}

/// `503`, with the words the API's own `503`s use.
pub fn unavailable() -> Response {
    let mut response = (
        StatusCode::SERVICE_UNAVAILABLE,
        Json(serde_json::json!({
            "error": "unavailable",
            "error_description": "the Academy cannot answer right now; try again in a minute",
        })),
    )
        .into_response();
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from_static("30"));
    response
}

/// Where installers that send no header (the `skills` CLI on npm: `npx
/// skills add URL`) read a learner's well-known skills index: the bearer
/// token rides in the path, `/install/{token}/.well-known/agent-skills/index.json`.
pub const INSTALL_PATH: &str = "/install/{token}";

/// For [`INSTALL_PATH`]: the token the path carries, handed to
/// [`authenticate`] as the bearer token it checks (a request that also
/// sends a header keeps the path's token). The token then sits in URLs,
/// proxy logs and the `skills-lock.json` the CLI writes: only an install
/// token (`install-token LEARNER`, short-lived, good for nothing else) is
/// accepted there.
pub async fn token_from_path(
    Path(params): Path<HashMap<String, String>>,
    mut request: Request,
    next: Next,
) -> Response {
    let value = params
        .get("token")
        .and_then(|token| HeaderValue::from_str(&format!("Bearer {token}")).ok());
    match value {
        Some(value) => {
            request.headers_mut().insert(header::AUTHORIZATION, value);
        }
        None => {
            request.headers_mut().remove(header::AUTHORIZATION);
        }
    }
    next.run(request).await
}

/// The token of an `Authorization: Bearer …` header (the scheme is
/// case-insensitive, RFC 7235).
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// `401` with the challenge MCP clients follow (RFC 6750 §3, RFC 9728 §5.1):
/// without a token, only where the metadata is; with a bad one, also
/// `error="invalid_token"` and why.
pub fn unauthorized(metadata: &str, error: Option<TokenError>) -> Response {
    let (challenge, body) = match error {
        None => (
            format!("Bearer resource_metadata=\"{metadata}\""),
            serde_json::json!({
                "error": "unauthorized",
                "error_description": "this server needs a bearer token",
            }),
        ),
        Some(error) => (
            format!(
                "Bearer error=\"invalid_token\", error_description=\"{}\", resource_metadata=\"{metadata}\"",
                error.description()
            ),
            serde_json::json!({
                "error": "invalid_token",
                "error_description": error.description(),
            }),
        ),
    };
    let mut response = (StatusCode::UNAUTHORIZED, Json(body)).into_response();
    if let Ok(value) = HeaderValue::from_str(&challenge) {
        response
            .headers_mut()
            .insert(header::WWW_AUTHENTICATE, value);
    }
    response
}

/// The protected resource metadata (RFC 9728 §2): the resource (the
/// audience tokens must name) and the authorization server that issues
/// them. Public, like every `/.well-known/` document.
pub fn metadata(audience: &str, issuer: &str) -> serde_json::Value {
    serde_json::json!({
        "resource": audience,
        "authorization_servers": [issuer],
        "bearer_methods_supported": ["header"],
        "resource_name": "Kestrel Academy",
    })
}

/// The public routes: the metadata at its root location and at the
/// location derived from the resource's path (`/mcp`), where clients of
/// newer MCP revisions look first.
pub fn well_known(metadata: serde_json::Value) -> axum::Router {
    let metadata = Arc::new(metadata);
    let document = move || {
        let metadata = metadata.clone();
        async move { Json(metadata.as_ref().clone()) }
    };
    axum::Router::new()
        .route(METADATA_PATH, get(document.clone()))
        .route(&format!("{METADATA_PATH}/mcp"), get(document))
}
