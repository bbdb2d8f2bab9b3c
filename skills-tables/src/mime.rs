//! MIME types and the text-or-binary decision, made once when a file is loaded.

/// The MIME type of `SKILL.md` (SEP-2640 §Resource Mapping).
pub const MARKDOWN: &str = "text/markdown";

/// The MIME type for a file at `path` whose bytes are text or not (see [`is_text`]).
///
/// Known extensions map to their registered type. An unknown extension is
/// `text/plain` for text and `application/octet-stream` otherwise, so every
/// resource carries a `mimeType`.
pub fn for_path(path: &str, is_text: bool) -> &'static str {
    let name = path.rsplit('/').next().unwrap_or(path);
    if name == crate::SKILL_MD {
        return MARKDOWN;
    }
    // Called on every read and listing: compare without allocating.
    let ends_with = |suffix: &str| {
        name.len() >= suffix.len()
            && name.as_bytes()[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
    };
    if ends_with(".tar.gz") || ends_with(".tgz") {
        return "application/gzip";
    }
    let mut buffer = [0u8; 8];
    let extension = name
        .rsplit_once('.')
        .and_then(|(_, extension)| buffer.get_mut(..extension.len()).zip(Some(extension)))
        .and_then(|(lower, extension)| {
            lower.copy_from_slice(extension.as_bytes());
            lower.make_ascii_lowercase();
            std::str::from_utf8(lower).ok()
        });
    let known = match extension {
        Some("md" | "markdown") => MARKDOWN,
        Some("txt" | "text") => "text/plain",
        Some("csv") => "text/csv",
        Some("tsv") => "text/tab-separated-values",
        Some("html" | "htm") => "text/html",
        Some("css") => "text/css",
        Some("js" | "mjs" | "cjs") => "text/javascript",
        Some("ts" | "tsx") => "text/x-typescript",
        Some("jsx") => "text/jsx",
        Some("py") => "text/x-python",
        Some("rb") => "text/x-ruby",
        Some("rs") => "text/x-rust",
        Some("go") => "text/x-go",
        Some("java") => "text/x-java",
        Some("c" | "h") => "text/x-c",
        Some("cpp" | "cc" | "hpp") => "text/x-c++",
        Some("cs") => "text/x-csharp",
        Some("sql") => "application/sql",
        Some("sh" | "bash") => "application/x-sh",
        Some("ps1") => "text/plain",
        Some("json") => "application/json",
        Some("jsonl" | "ndjson") => "application/jsonl",
        Some("yaml" | "yml") => "application/yaml",
        Some("toml") => "application/toml",
        Some("xml" | "xsd" | "xsl" | "xslt") => "application/xml",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("ico") => "image/vnd.microsoft.icon",
        Some("pdf") => "application/pdf",
        Some("zip") => "application/zip",
        Some("gz") => "application/gzip",
        Some("tar") => "application/x-tar",
        Some("ttf") => "font/ttf",
        Some("otf") => "font/otf",
        Some("woff") => "font/woff",
        Some("woff2") => "font/woff2",
        Some("wasm") => "application/wasm",
        _ => "",
    };
    if !known.is_empty() {
        known
    } else if is_text {
        "text/plain"
    } else {
        "application/octet-stream"
    }
}

/// Whether `bytes` can travel as MCP `text` and come back byte for byte:
/// UTF-8 and no NUL (the rule agentskills-mcp-server and rmcp apply).
pub fn is_text(bytes: &[u8]) -> bool {
    !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_extensions_and_falls_back_on_content() {
        let cases: [(&str, &[u8], &str); 13] = [
            ("SKILL.md", b"---", "text/markdown"),
            ("references/API.MD", b"x", "text/markdown"),
            ("fonts/a.ttf", b"\0\x01", "font/ttf"),
            ("scripts/shadcn.tar.gz", b"\x1f\x8b", "application/gzip"),
            ("assets/logo.png", b"\x89PNG", "image/png"),
            ("schemas/a.xsd", b"<x/>", "application/xml"),
            ("LICENSE", b"MIT", "text/plain"),
            ("data/blob", b"\xff\xfe\0", "application/octet-stream"),
            ("notes.unknown", b"hello", "text/plain"),
            ("assets/Ünïcödé.PNG", b"\x89PNG", "image/png"),
            ("dist/BUNDLE.TGZ", b"\x1f\x8b", "application/gzip"),
            (
                "data/x.averylongextension",
                b"\0",
                "application/octet-stream",
            ),
            ("é.ü", b"text", "text/plain"),
        ];
        for (path, bytes, expected) in cases {
            assert_eq!(for_path(path, is_text(bytes)), expected, "{path}");
        }
    }
}
