//! One request with a deadline: what every client module sends through.

use std::future::Future;

use super::error::ClientError;

/// Sends one request with a deadline, naming the method and URI in errors.
pub(crate) async fn ask<T>(
    method: &'static str,
    uri: Option<&str>,
    timeout: std::time::Duration,
    request: impl Future<Output = Result<T, rmcp::ServiceError>>,
) -> Result<T, ClientError> {
    match tokio::time::timeout(timeout, request).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(error)) => Err(ClientError::Request {
            method,
            uri: uri.map(str::to_owned),
            error: Box::new(error),
        }),
        Err(_) => Err(ClientError::Timeout {
            method,
            uri: uri.map(str::to_owned),
            after: timeout,
        }),
    }
}

/// `resources/read` of `uri`, past rmcp's response cache. rmcp's own
/// `read_resource` keeps every answer (up to 512, expired ones too, to serve
/// when a later read fails): for a client that verifies every byte against
/// a digest and writes each skill once, that is memory of up to 512 files
/// (8 GiB of 16 MiB ones) and an old answer where a failure was due.
pub(crate) async fn read_resource(
    peer: &rmcp::service::Peer<rmcp::RoleClient>,
    uri: &str,
    timeout: std::time::Duration,
) -> Result<rmcp::model::ReadResourceResult, ClientError> {
    use rmcp::model::{
        ClientRequest, ReadResourceRequest, ReadResourceRequestParams, ServerResult,
    };
    let request = ClientRequest::ReadResourceRequest(ReadResourceRequest::new(
        ReadResourceRequestParams::new(uri.to_owned()),
    ));
    match ask(
        "resources/read",
        Some(uri),
        timeout,
        peer.send_request(request),
    )
    .await?
    {
        ServerResult::ReadResourceResult(result) => Ok(result),
        _ => Err(ClientError::Request {
            method: "resources/read",
            uri: Some(uri.to_owned()),
            error: Box::new(rmcp::ServiceError::UnexpectedResponse),
        }),
    }
}
