//! Bytes out of an MCP blob: what both the manifest (a `_manifest` read as
//! a blob) and the file fetch decode, in a leaf both reach.

use base64::Engine as _;

/// Standard base64 with padding, as MCP blobs carry bytes.
pub(super) fn decode_blob(blob: &str) -> Result<Vec<u8>, base64::DecodeError> {
    base64::engine::general_purpose::STANDARD.decode(blob)
}
