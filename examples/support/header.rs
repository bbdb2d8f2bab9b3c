//! `--header 'NAME: VALUE'` for the client examples that reach a server over
//! HTTP (`catalog`, `sync`), shared with `#[path]` (not an example of its own:
//! Cargo only finds `examples/*.rs` and `examples/*/main.rs`).

/// Each `--header` argument as a (name, value) pair, both trimmed; an
/// argument without a colon is an error that quotes it.
pub fn parse_all(headers: &[String]) -> anyhow::Result<Vec<(String, String)>> {
    headers
        .iter()
        .map(|header| {
            let (name, value) = header
                .split_once(':')
                .ok_or_else(|| anyhow::anyhow!("--header takes `NAME: VALUE`, not `{header}`"))?;
            Ok((name.trim().to_owned(), value.trim().to_owned()))
        })
        .collect()
}
