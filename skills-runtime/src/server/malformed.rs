//! Requests for a method rmcp knows, whose params it could not read.
//!
//! rmcp reads a request into its typed variant or, failing that, into a
//! `CustomRequest`: `resources/read` with `"uri": 42`, or `tools/call` with
//! string arguments, reaches `on_custom_request`, whose default answer is
//! `-32601` (method not found). The method exists; its params are wrong, which
//! JSON-RPC answers with `-32602`, saying what did not parse.
//!
//! Except for a method the caller's protocol era removed: a 2026-07-28
//! request for `initialize`, `ping`, `logging/setLevel`, `resources/subscribe`
//! or `resources/unsubscribe` asks for a method that does not exist there,
//! whatever its params, so it is `-32601` (which rmcp's streamable HTTP
//! answers with HTTP 404 on that era's path, as SEP-2575 requires). The same
//! methods from a 2025-11-25 session keep their `-32602`.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CompleteRequestParams, ConstString, CustomRequest, ErrorCode,
    GetSkillRequestParams, ProtocolVersion, ReadResourceDirectoryRequestParams,
    ReadResourceRequestParams,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::json;

/// Every client request method rmcp reads into a typed variant.
const TYPED_BY_RMCP: [&str; 21] = [
    rmcp::model::InitializeResultMethod::VALUE,
    rmcp::model::DiscoverRequestMethod::VALUE,
    rmcp::model::PingRequestMethod::VALUE,
    rmcp::model::CompleteRequestMethod::VALUE,
    rmcp::model::SetLevelRequestMethod::VALUE,
    rmcp::model::GetPromptRequestMethod::VALUE,
    rmcp::model::ListPromptsRequestMethod::VALUE,
    rmcp::model::ListResourcesRequestMethod::VALUE,
    rmcp::model::ListResourceTemplatesRequestMethod::VALUE,
    rmcp::model::ReadResourceRequestMethod::VALUE,
    rmcp::model::SubscriptionsListenRequestMethod::VALUE,
    rmcp::model::SubscribeRequestMethod::VALUE,
    rmcp::model::UnsubscribeRequestMethod::VALUE,
    rmcp::model::CallToolRequestMethod::VALUE,
    rmcp::model::ListToolsRequestMethod::VALUE,
    rmcp::model::GetTaskMethod::VALUE,
    rmcp::model::UpdateTaskMethod::VALUE,
    rmcp::model::CancelTaskMethod::VALUE,
    rmcp::model::ListSkillsRequestMethod::VALUE,
    rmcp::model::GetSkillRequestMethod::VALUE,
    rmcp::model::ReadResourceDirectoryRequestMethod::VALUE,
];

/// The client methods the 2026-07-28 era removed (SEP-2575 and SEP-2567:
/// no handshake, no ping, no session state to set a level or subscribe in).
const REMOVED_IN_2026_07_28: [&str; 5] = [
    rmcp::model::InitializeResultMethod::VALUE,
    rmcp::model::PingRequestMethod::VALUE,
    rmcp::model::SetLevelRequestMethod::VALUE,
    rmcp::model::SubscribeRequestMethod::VALUE,
    rmcp::model::UnsubscribeRequestMethod::VALUE,
];

/// The `_meta` key of a 2026-07-28 request that names its protocol version.
const PROTOCOL_VERSION_META_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// Whether `version` is 2026-07-28 or later (ISO dates compare as text).
fn is_2026_07_28_or_later(version: &str) -> bool {
    version >= ProtocolVersion::V_2026_07_28.as_str()
}

/// Whether `request` speaks 2026-07-28 or later: its own `_meta` says so, or
/// the context rmcp gave it does (the request's `_meta`, else the session's
/// negotiated version).
fn speaks_2026_07_28(
    request: &CustomRequest,
    context: Option<&RequestContext<RoleServer>>,
) -> bool {
    let in_params = request
        .params
        .as_ref()
        .and_then(|params| params.get("_meta"))
        .and_then(|meta| meta.get(PROTOCOL_VERSION_META_KEY))
        .and_then(|version| version.as_str());
    if let Some(version) = in_params {
        return is_2026_07_28_or_later(version);
    }
    context
        .and_then(RequestContext::protocol_version)
        .is_some_and(|version| is_2026_07_28_or_later(version.as_str()))
}

/// Whether rmcp has a typed variant for `method`: a request for it that
/// arrives as a custom request had params rmcp could not read.
pub(crate) fn typed_by_rmcp(method: &str) -> bool {
    TYPED_BY_RMCP.contains(&method)
}

/// `-32602` naming what did not parse when rmcp knows the method (so only its
/// params can be at fault), `-32601` otherwise, as rmcp answers by default.
/// A method the 2026-07-28 era removed, asked for on that era, is `-32601`
/// too, naming the era.
pub(crate) fn refuse(
    request: &CustomRequest,
    context: Option<&RequestContext<RoleServer>>,
) -> ErrorData {
    let method = request.method.as_str();
    if !typed_by_rmcp(method) {
        return ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_owned(), None);
    }
    if REMOVED_IN_2026_07_28.contains(&method) && speaks_2026_07_28(request, context) {
        return removed_in_2026_07_28(method);
    }
    // What serde says about the params, read as the typed variant would have.
    let present = match method {
        "resources/read" => request
            .params_as::<ReadResourceRequestParams>()
            .map(|p| p.is_some()),
        "skills/get" => request
            .params_as::<GetSkillRequestParams>()
            .map(|p| p.is_some()),
        "resources/directory/read" => request
            .params_as::<ReadResourceDirectoryRequestParams>()
            .map(|p| p.is_some()),
        "completion/complete" => request
            .params_as::<CompleteRequestParams>()
            .map(|p| p.is_some()),
        "tools/call" => request
            .params_as::<CallToolRequestParams>()
            .map(|p| p.is_some()),
        _ => Ok(request.params.is_some()),
    };
    let why = match present {
        Err(error) => error.to_string(),
        Ok(false) => "they are missing".to_owned(),
        Ok(true) => "they do not match the method's schema".to_owned(),
    };
    ErrorData::invalid_params(
        format!("the params of {method} are malformed: {why}"),
        Some(json!({ "method": method })),
    )
}

/// `-32601` for `method`, which protocol 2026-07-28 does not have.
pub(crate) fn removed_in_2026_07_28(method: &str) -> ErrorData {
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!("{method} does not exist in protocol 2026-07-28 (it was removed in that revision)"),
        Some(json!({ "method": method })),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn custom(method: &str, params: Option<Value>) -> CustomRequest {
        CustomRequest::new(method, params)
    }

    fn refuse_without_context(request: &CustomRequest) -> ErrorData {
        refuse(request, None)
    }

    #[test]
    fn a_method_2026_07_28_removed_is_method_not_found_on_that_era_only() {
        let meta = |version: &str| json!({ "_meta": { "io.modelcontextprotocol/protocolVersion": version } });
        for method in REMOVED_IN_2026_07_28 {
            let modern = refuse_without_context(&custom(method, Some(meta("2026-07-28"))));
            assert_eq!(modern.code, ErrorCode::METHOD_NOT_FOUND, "{method}");
            assert!(modern.message.contains("2026-07-28"), "{}", modern.message);
            let older = refuse_without_context(&custom(method, Some(meta("2025-11-25"))));
            assert_eq!(older.code, ErrorCode::INVALID_PARAMS, "{method}");
            let bare = refuse_without_context(&custom(method, Some(json!({}))));
            assert_eq!(bare.code, ErrorCode::INVALID_PARAMS, "{method}");
        }
        // A method 2026-07-28 kept is still a matter of params there.
        let read = refuse_without_context(&custom("resources/read", Some(meta("2026-07-28"))));
        assert_eq!(read.code, ErrorCode::INVALID_PARAMS);
    }

    #[test]
    fn a_known_method_with_bad_params_is_invalid_params() {
        let error = refuse_without_context(&custom("resources/read", Some(json!({ "uri": 42 }))));
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error.message.contains("expected a string"),
            "{}",
            error.message
        );
        assert_eq!(error.data, Some(json!({ "method": "resources/read" })));
        let missing = refuse_without_context(&custom("skills/get", None));
        assert!(missing.message.contains("missing"), "{}", missing.message);
    }

    #[test]
    fn an_unknown_method_is_method_not_found() {
        let error = refuse_without_context(&custom("skills/delete", Some(json!({}))));
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
        assert_eq!(error.message, "skills/delete");
    }
}
