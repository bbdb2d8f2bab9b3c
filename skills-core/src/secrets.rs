//! Validate step for content: credentials do not belong in skills.
//!
//! Whatever a host loads into a model's context can be copied out of it, so a
//! key in a skill is a key published. Only high-confidence shapes are
//! reported: PEM private-key blocks with a real body, and well-known token
//! formats at their exact length and alphabet. Placeholders (`ghp_xxx`,
//! `sk-...`, `AKIAIOSFODNN7EXAMPLE`, runs of one character) pass.
//!
//! Every prefix is found in one pass over the text with an Aho-Corasick
//! automaton; only the places where a prefix starts are looked at closer.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};

use crate::diagnostic::{Diagnostic, Diagnostics, Position};
use crate::rules::{OptionHint, Rule};

/// A credential found in a file: what it looks like and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Finding {
    pub kind: &'static str,
    pub offset: usize,
    /// How many characters the credential (or the PEM header) spans.
    pub length: usize,
}

/// What follows a prefix: runs of characters from a class, each with a length range.
struct Shape {
    kind: &'static str,
    prefix: &'static str,
    body: &'static [(Class, usize, usize)],
}

#[derive(Clone, Copy)]
enum Class {
    /// `[A-Za-z0-9]`
    Alnum,
    /// `[A-Z0-9]`
    UpperAlnum,
    /// `[0-9]`
    Digit,
    /// `[A-Za-z0-9_-]` (URL-safe base64)
    UrlSafe,
    /// `[A-Za-z]`
    Alpha,
    /// One literal character.
    Literal(u8),
}

impl Class {
    fn matches(self, byte: u8) -> bool {
        match self {
            Self::Alnum => byte.is_ascii_alphanumeric(),
            Self::UpperAlnum => byte.is_ascii_uppercase() || byte.is_ascii_digit(),
            Self::Digit => byte.is_ascii_digit(),
            Self::UrlSafe => byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-',
            Self::Alpha => byte.is_ascii_alphabetic(),
            Self::Literal(literal) => byte == literal,
        }
    }
}

use Class::{Alnum, Alpha, Digit, Literal, UpperAlnum, UrlSafe};

/// Token formats with a fixed, documented shape.
const SHAPES: &[Shape] = &[
    Shape {
        kind: "GitHub personal access token",
        prefix: "ghp_",
        body: &[(Alnum, 36, 36)],
    },
    Shape {
        kind: "GitHub OAuth token",
        prefix: "gho_",
        body: &[(Alnum, 36, 36)],
    },
    Shape {
        kind: "GitHub user-to-server token",
        prefix: "ghu_",
        body: &[(Alnum, 36, 36)],
    },
    Shape {
        kind: "GitHub server-to-server token",
        prefix: "ghs_",
        body: &[(Alnum, 36, 36)],
    },
    Shape {
        kind: "GitHub refresh token",
        prefix: "ghr_",
        body: &[(Alnum, 36, 36)],
    },
    Shape {
        kind: "GitHub fine-grained token",
        prefix: "github_pat_",
        body: &[(Alnum, 22, 22), (Literal(b'_'), 1, 1), (Alnum, 59, 59)],
    },
    Shape {
        kind: "GitLab personal access token",
        prefix: "glpat-",
        body: &[(UrlSafe, 20, 20)],
    },
    Shape {
        kind: "AWS access key ID",
        prefix: "AKIA",
        body: &[(UpperAlnum, 16, 16)],
    },
    Shape {
        kind: "AWS temporary access key ID",
        prefix: "ASIA",
        body: &[(UpperAlnum, 16, 16)],
    },
    Shape {
        kind: "Anthropic API key",
        prefix: "sk-ant-api03-",
        body: &[(UrlSafe, 93, 93), (Literal(b'A'), 2, 2)],
    },
    Shape {
        kind: "Anthropic admin key",
        prefix: "sk-ant-admin01-",
        body: &[(UrlSafe, 93, 93), (Literal(b'A'), 2, 2)],
    },
    Shape {
        kind: "OpenAI project key",
        prefix: "sk-proj-",
        body: &[(UrlSafe, 74, 200)],
    },
    Shape {
        kind: "OpenAI service account key",
        prefix: "sk-svcacct-",
        body: &[(UrlSafe, 74, 200)],
    },
    Shape {
        kind: "OpenAI API key",
        prefix: "sk-",
        body: &[
            (Alnum, 20, 20),
            (Literal(b'T'), 1, 1),
            (Literal(b'3'), 1, 1),
            (Literal(b'B'), 1, 1),
            (Literal(b'l'), 1, 1),
            (Literal(b'b'), 1, 1),
            (Literal(b'k'), 1, 1),
            (Literal(b'F'), 1, 1),
            (Literal(b'J'), 1, 1),
            (Alnum, 20, 20),
        ],
    },
    Shape {
        kind: "Stripe live secret key",
        prefix: "sk_live_",
        body: &[(Alnum, 24, 99)],
    },
    Shape {
        kind: "Stripe live restricted key",
        prefix: "rk_live_",
        body: &[(Alnum, 24, 99)],
    },
    Shape {
        kind: "Google API key",
        prefix: "AIza",
        body: &[(UrlSafe, 35, 35)],
    },
    Shape {
        kind: "Slack bot token",
        prefix: "xoxb-",
        body: &[
            (Digit, 10, 13),
            (Literal(b'-'), 1, 1),
            (Digit, 10, 13),
            (Literal(b'-'), 1, 1),
            (Alnum, 24, 24),
        ],
    },
    Shape {
        kind: "Slack user token",
        prefix: "xoxp-",
        body: &[
            (Digit, 10, 13),
            (Literal(b'-'), 1, 1),
            (Digit, 10, 13),
            (Literal(b'-'), 1, 1),
            (Digit, 10, 13),
            (Literal(b'-'), 1, 1),
            (Alnum, 32, 32),
        ],
    },
    Shape {
        kind: "Slack webhook URL",
        prefix: "https://hooks.slack.com/services/T",
        body: &[
            (UpperAlnum, 8, 12),
            (Literal(b'/'), 1, 1),
            (Literal(b'B'), 1, 1),
            (UpperAlnum, 8, 12),
            (Literal(b'/'), 1, 1),
            (Alnum, 24, 24),
        ],
    },
    Shape {
        kind: "npm access token",
        prefix: "npm_",
        body: &[(Alnum, 36, 36)],
    },
    Shape {
        kind: "Hugging Face token",
        prefix: "hf_",
        body: &[(Alpha, 34, 34)],
    },
    Shape {
        kind: "PyPI API token",
        prefix: "pypi-AgEIcHlwaS5vcmc",
        body: &[(UrlSafe, 50, 300)],
    },
];

/// A small number standing for a finding's kind (where the shape is in
/// [`SHAPES`], or one past them for a private key), for the read cache.
pub(crate) fn kind_index(kind: &str) -> usize {
    SHAPES
        .iter()
        .position(|shape| shape.kind == kind)
        .unwrap_or(SHAPES.len())
}

/// The kind [`kind_index`] stands for; `None` for a number it never gives.
pub(crate) fn kind_at(index: usize) -> Option<&'static str> {
    match SHAPES.get(index) {
        Some(shape) => Some(shape.kind),
        None => (index == SHAPES.len()).then_some(PRIVATE_KEY),
    }
}

const PRIVATE_KEY: &str = "private key";

/// The PEM block opener; what follows decides whether it is a private key.
const PEM_BEGIN: &str = "-----BEGIN ";

/// Below this much text, a scan uses the automaton that is cheap to build.
/// Measured inside the unoptimised macro (callgrind): the DFA costs about
/// 14 M instructions to build and 205 a byte to search, the contiguous NFA
/// 3 M and 280; they break even near 150 KB.
const SMALL_SCAN_BYTES: usize = 150 * 1024;

/// The automaton one load (or one file) scans with, chosen by how much text
/// it will scan.
#[derive(Clone, Copy)]
pub(crate) struct Scanner(&'static AhoCorasick);

impl Scanner {
    /// The scanner for `bytes` of text in all.
    pub(crate) fn for_bytes(bytes: usize) -> Self {
        static DFA: OnceLock<AhoCorasick> = OnceLock::new();
        static NFA: OnceLock<AhoCorasick> = OnceLock::new();
        let (cell, kind) = if bytes < SMALL_SCAN_BYTES {
            (&NFA, AhoCorasickKind::ContiguousNFA)
        } else {
            (&DFA, AhoCorasickKind::DFA)
        };
        Self(cell.get_or_init(|| {
            let patterns = SHAPES.iter().map(|shape| shape.prefix).chain([PEM_BEGIN]);
            AhoCorasick::builder()
                .kind(Some(kind))
                .build(patterns)
                .expect("the prefixes are valid patterns")
        }))
    }

    /// Every credential in `text`, in order.
    pub(crate) fn scan(self, text: &str) -> Vec<Finding> {
        scan_with(self.0, text)
    }
}

/// Every credential in `text`, in order.
#[cfg(test)]
pub(crate) fn scan(text: &str) -> Vec<Finding> {
    Scanner::for_bytes(text.len()).scan(text)
}

/// Every credential in `text` found through `prefixes`, an automaton over
/// every prefix of [`SHAPES`], then [`PEM_BEGIN`].
fn scan_with(prefixes: &AhoCorasick, text: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    let bytes = text.as_bytes();
    // Overlapping, so `sk-ant-api03-` is seen even where `sk-` matches too.
    for found in prefixes.find_overlapping_iter(text) {
        let offset = found.start();
        let Some(shape) = SHAPES.get(found.pattern().as_usize()) else {
            if let Some(finding) = private_key(text, offset) {
                findings.push(finding);
            }
            continue;
        };
        let boundary_before = offset == 0 || !is_token_byte(bytes[offset - 1]);
        if !boundary_before {
            continue;
        }
        if let Some(end) = match_body(bytes, found.end(), shape.body) {
            let boundary_after = bytes.get(end).is_none_or(|b| !is_token_byte(*b));
            if boundary_after && !is_placeholder(&text[found.end()..end]) {
                findings.push(Finding {
                    kind: shape.kind,
                    offset,
                    length: end - offset,
                });
            }
        }
    }
    findings.sort_by_key(|finding| finding.offset);
    findings.dedup_by_key(|finding| finding.offset);
    findings
}

fn is_token_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'-'
}

/// Greedy match of `body` at `start`; the end offset on success.
fn match_body(bytes: &[u8], start: usize, body: &[(Class, usize, usize)]) -> Option<usize> {
    let mut at = start;
    for &(class, min, max) in body {
        let run = bytes[at.min(bytes.len())..]
            .iter()
            .take(max)
            .take_while(|b| class.matches(**b))
            .count();
        if run < min {
            return None;
        }
        at += run;
    }
    Some(at)
}

/// Documentation examples and filler: `EXAMPLE`, `xxxx`, one repeated character,
/// or too few distinct characters to be random.
fn is_placeholder(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    if [
        "example", "xxxx", "0000", "1234", "abcd", "your", "dummy", "fake", "test", "sample",
    ]
    .iter()
    .any(|word| lower.contains(word))
    {
        return true;
    }
    let mut seen = [false; 128];
    let distinct = body
        .bytes()
        .filter(|b| b.is_ascii() && !std::mem::replace(&mut seen[usize::from(*b)], true))
        .count();
    distinct < 10
}

/// A PEM private-key block starting at `offset` whose body is real base64, not `...`.
fn private_key(text: &str, offset: usize) -> Option<Finding> {
    let rest = &text[offset + PEM_BEGIN.len()..];
    let label_end = rest.find("-----")?;
    let label = &rest[..label_end];
    if !label.ends_with("PRIVATE KEY") && !label.ends_with("PRIVATE KEY BLOCK") {
        return None;
    }
    let body = &rest[label_end + 5..];
    let body = body.split("-----END").next().unwrap_or(body);
    let base64 = body
        .bytes()
        .filter(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
        .count();
    let filler = body.contains("...") || is_placeholder(body.trim());
    (base64 >= 64 && !filler).then_some(Finding {
        kind: PRIVATE_KEY,
        offset,
        length: PEM_BEGIN.len() + label_end + 5,
    })
}

/// A `secret` problem for each credential-shaped text in `text`, the file
/// at `rel` (relative to the root): what the loader and `add_files` report.
pub(crate) fn report_secrets(rel: &str, text: &str, diagnostics: &mut Diagnostics) {
    let scanner = Scanner::for_bytes(text.len());
    report(rel, text, &scanner.scan(text), diagnostics);
}

/// The `secret` problems of `findings` in `text`, the file at `rel`.
pub(crate) fn report(rel: &str, text: &str, findings: &[Finding], diagnostics: &mut Diagnostics) {
    for finding in findings {
        let at = Position::of_offset(text, finding.offset);
        diagnostics.push(
            Diagnostic::new(
                Rule::Secret,
                rel,
                format!(
                    "this looks like a real {}; everything in a skill can end up in a model's context and be copied out",
                    finding.kind
                ),
            )
            .at(at.line, at.column)
            .length(finding.length)
            .hint("remove it and load credentials at run time; if it is a deliberate fake, allow the file")
            .option(OptionHint::AllowSecretsIn(rel.to_owned()))
            .with_source(text),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_survive_their_index() {
        for kind in SHAPES.iter().map(|shape| shape.kind).chain([PRIVATE_KEY]) {
            assert_eq!(kind_at(kind_index(kind)), Some(kind));
        }
        assert_eq!(kind_at(SHAPES.len() + 1), None);
    }

    fn kinds(text: &str) -> Vec<&'static str> {
        scan(text).into_iter().map(|finding| finding.kind).collect()
    }

    #[test]
    fn finds_real_shapes() {
        let github = format!("token: ghp_{}\n", "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5");
        assert_eq!(kinds(&github), ["GitHub personal access token"]);
        assert_eq!(scan(&github)[0].offset, 7);
        assert_eq!(kinds("key=AKIAZ7Q4MR2VD9WPLX3N;"), ["AWS access key ID"]);
        let openai = format!(
            "sk-{}T3BlbkFJ{}",
            "a1B2c3D4e5F6g7H8i9J0", "k1L2m3N4o5P6q7R8s9T0"
        );
        assert_eq!(kinds(&openai), ["OpenAI API key"]);
        let slack = "xoxb-5820193746251-9876503210987-Zq8wNc3VrT6yLp2KdX9mHs4J";
        assert_eq!(kinds(slack), ["Slack bot token"]);
        let pem = format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n{}\n-----END RSA PRIVATE KEY-----\n",
            "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun",
            "VTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK"
        );
        assert_eq!(kinds(&pem), ["private key"]);
    }

    #[test]
    fn placeholders_and_near_misses_pass() {
        for text in [
            "export GITHUB_TOKEN=ghp_xxx",
            "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "OPENAI_API_KEY=sk-...",
            "sk-your-key-here",
            "AKIAIOSFODNN7EXAMPLE",
            "AKIAZ7Q4MR2VD9WPLX3N0 (one character too long)",
            "myghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
            "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw7\n-----END PUBLIC KEY-----",
        ] {
            assert_eq!(kinds(text), Vec::<&str>::new(), "{text}");
        }
    }
}
