//! The platform as an OAuth 2.1 resource server, the way MCP's
//! authorization specification asks: every route but the public
//! `/.well-known/…` documents needs a bearer JWT; its signature, expiry,
//! not-before time, audience and issuer are checked against a key set
//! selected by the token's `kid` (`exp` and `nbf` with a leeway of
//! [`LEEWAY_SECONDS`]); a request without a valid token gets `401` with a
//! `WWW-Authenticate` header naming the protected resource metadata
//! (RFC 9728), where a client finds the authorization server.
//!
//! The key set is the development key kept in the database (the `token`
//! command signs with it, standing in for an authorization server), or an
//! authorization server's own set with `serve --jwks PATH`.
//!
//! The layer then resolves token → learner → entitlements once per request
//! and puts them in the request's extensions: MCP requests reach the
//! skills' access rule and the tools with that request head (rmcp hands it
//! over), and the API routes read it directly.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

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

use crate::db::Db;

/// Where the protected resource metadata is served (RFC 9728 §3).
pub const METADATA_PATH: &str = "/.well-known/oauth-protected-resource";

/// The clock skew allowed between this server and the authorization
/// server, in seconds, on both time claims: a token is refused once `exp`
/// is more than this far in the past, and while `nbf` (when present) is
/// more than this far in the future (RFC 7519 §4.1.4, §4.1.5).
pub const LEEWAY_SECONDS: u64 = 30;

/// The claims the platform issues and reads. Every field has a default
/// when read, so a token without one is refused by the required-claims
/// check (`MissingClaim`), not as a malformed JWT.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct Claims {
    pub iss: String,
    pub sub: String,
    pub aud: String,
    pub iat: u64,
    pub exp: u64,
    /// Not before: optional, honoured when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nbf: Option<u64>,
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
            Self::Audience => "the token was issued for another resource (audience)",
            Self::Issuer => "the token was issued by another authorization server",
            Self::MissingClaim => {
                "the token lacks a required claim (iss, sub, aud, exp) or a time claim is not a number"
            }
            Self::UnknownLearner => "the token's learner does not exist",
        }
    }
}

/// Checks bearer tokens against a key set, an audience and an issuer.
pub struct Verifier {
    keys: HashMap<String, (DecodingKey, Option<Algorithm>)>,
    audience: String,
    issuer: String,
}

impl Verifier {
    /// A verifier for the keys of `set` that have a `kid` (a token selects
    /// its key by it). Symmetric keys are refused: a resource server that
    /// holds a shared secret could forge tokens.
    pub fn new(set: &JwkSet, audience: &str, issuer: &str) -> anyhow::Result<Verifier> {
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
        Ok(Verifier {
            keys,
            audience: audience.to_owned(),
            issuer: issuer.to_owned(),
        })
    }

    /// The learner a valid token names (its `sub`).
    pub fn verify(&self, token: &str) -> Result<String, TokenError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| TokenError::Malformed)?;
        let kid = header.kid.as_deref().ok_or(TokenError::NoKeyId)?;
        let (key, algorithm) = self.keys.get(kid).ok_or(TokenError::UnknownKey)?;
        // The key decides the algorithm when it says one; otherwise the
        // header's must belong to the key's family (jsonwebtoken checks it),
        // so an RS256 key cannot be used as an HS256 secret.
        let algorithm = algorithm.unwrap_or(header.alg);
        if header.alg != algorithm {
            return Err(TokenError::Algorithm);
        }
        let mut validation = Validation::new(algorithm);
        validation.set_audience(&[&self.audience]);
        validation.set_issuer(&[&self.issuer]);
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
        Ok(data.claims.sub)
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

/// A development token for `learner`, signed with the database's key, for
/// the audience and issuer the database names, valid for `ttl`.
pub async fn mint(db: &Db, learner: &str, ttl: Duration) -> anyhow::Result<String> {
    let (kid, pkcs8, _) = db
        .signing_keys()
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("the database holds no signing key"))?;
    let now = u64::try_from(crate::db::now()).unwrap_or(0);
    let claims = Claims {
        iss: db.setting("issuer").await?,
        sub: learner.to_owned(),
        aud: db.setting("audience").await?,
        iat: now,
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

/// What the auth layer needs.
#[derive(Clone)]
pub struct Auth {
    pub verifier: Arc<Verifier>,
    pub db: Db,
}

/// The auth layer: bearer token → learner → entitlements, once per request,
/// into the request's extensions; `401` otherwise.
pub async fn authenticate(State(auth): State<Auth>, mut request: Request, next: Next) -> Response {
    let metadata = metadata_url(request.headers());
    let Some(token) = bearer(request.headers()) else {
        return unauthorized(&metadata, None);
    };
    let learner = match auth.verifier.verify(token) {
        Ok(learner) => learner,
        Err(error) => return unauthorized(&metadata, Some(error)),
    };
    let resolved = auth.db.entitlements(&learner).await;
    match resolved {
        Ok(Some(entitlements)) => {
            request.extensions_mut().insert(Principal::new(learner));
            request.extensions_mut().insert(entitlements);
            next.run(request).await
        }
        Ok(None) => unauthorized(&metadata, Some(TokenError::UnknownLearner)),
        // The database cannot be reached: what this replica last resolved
        // for the learner still authorises reads of what they owned then
        // (a grant made meanwhile shows once it is back; routes that need
        // the database answer 503).
        Err(error) => match auth.db.last_known(&learner) {
            Some(entitlements) => {
                tracing::warn!("answering from the last-known entitlements: {error:#}");
                request.extensions_mut().insert(Principal::new(learner));
                request.extensions_mut().insert(entitlements);
                next.run(request).await
            }
            None => {
                tracing::error!("cannot read the entitlements: {error:#}");
                StatusCode::SERVICE_UNAVAILABLE.into_response()
            }
        },
    }
}

/// Where installers that send no header (the `skills` CLI on npm: `npx
/// skills add URL`) read a learner's well-known skills index: the bearer
/// token rides in the path, `/install/{token}/.well-known/agent-skills/index.json`.
pub const INSTALL_PATH: &str = "/install/{token}";

/// For [`INSTALL_PATH`]: the token the path carries, handed to
/// [`authenticate`] as the bearer token it checks (a request that also
/// sends a header keeps the path's token). The token then sits in URLs,
/// proxy logs and the `skills-lock.json` the CLI writes: mint a short one
/// for installing (`token LEARNER --ttl 600`).
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

/// The URL of the protected resource metadata, on the host the client used.
fn metadata_url(headers: &HeaderMap) -> String {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .filter(|host| {
            !host.is_empty()
                && host.bytes().all(|byte| byte.is_ascii_graphic())
                && !host.contains('"')
        })
        .unwrap_or("localhost");
    let scheme = match headers
        .get("x-forwarded-proto")
        .and_then(|value| value.to_str().ok())
    {
        Some("https") => "https",
        _ => "http",
    };
    format!("{scheme}://{host}{METADATA_PATH}")
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
