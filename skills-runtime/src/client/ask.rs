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
