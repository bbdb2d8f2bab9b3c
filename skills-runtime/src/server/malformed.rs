//! Requests for a method rmcp knows, whose params it could not read.
//!
//! rmcp reads a request into its typed variant or, failing that, into a
//! `CustomRequest`: `resources/read` with `"uri": 42`, or `tools/call` with
//! string arguments, reaches `on_custom_request`, whose default answer is
//! `-32601` (method not found). The method exists; its params are wrong, which
//! JSON-RPC answers with `-32602`, saying what did not parse.

use rmcp::ErrorData;
use rmcp::model::{
    CallToolRequestParams, CompleteRequestParams, ConstString, CustomRequest, ErrorCode,
    GetSkillRequestParams, ReadResourceDirectoryRequestParams, ReadResourceRequestParams,
};
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

/// Whether rmcp has a typed variant for `method`: a request for it that
/// arrives as a custom request had params rmcp could not read.
pub(crate) fn typed_by_rmcp(method: &str) -> bool {
    TYPED_BY_RMCP.contains(&method)
}

/// `-32602` naming what did not parse when rmcp knows the method (so only its
/// params can be at fault), `-32601` otherwise, as rmcp answers by default.
pub(crate) fn refuse(request: &CustomRequest) -> ErrorData {
    let method = request.method.as_str();
    if !typed_by_rmcp(method) {
        return ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_owned(), None);
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn custom(method: &str, params: Option<Value>) -> CustomRequest {
        CustomRequest::new(method, params)
    }

    #[test]
    fn a_known_method_with_bad_params_is_invalid_params() {
        let error = refuse(&custom("resources/read", Some(json!({ "uri": 42 }))));
        assert_eq!(error.code, ErrorCode::INVALID_PARAMS);
        assert!(
            error.message.contains("expected a string"),
            "{}",
            error.message
        );
        assert_eq!(error.data, Some(json!({ "method": "resources/read" })));
        let missing = refuse(&custom("skills/get", None));
        assert!(missing.message.contains("missing"), "{}", missing.message);
    }

    #[test]
    fn an_unknown_method_is_method_not_found() {
        let error = refuse(&custom("skills/delete", Some(json!({}))));
        assert_eq!(error.code, ErrorCode::METHOD_NOT_FOUND);
        assert_eq!(error.message, "skills/delete");
    }
}
