//! What an unquoted YAML scalar means, and whether every reader agrees.
//!
//! Hosts re-parse `SKILL.md` with their own YAML library and compare it field
//! by field with the JSON the server advertised (SEP-2640 §Host requirements).
//! fast-agent uses PyYAML, which implements YAML 1.1: `yes` is a boolean,
//! `0123` is 83, `2024-01-01` is a date. TypeScript hosts and our parser follow
//! the YAML 1.2 core schema, where all three are strings or 123. An unquoted
//! scalar is accepted only when both readings agree on type and value and the
//! value survives JSON; everything else must be quoted.
//!
//! The YAML 1.1 side mirrors PyYAML's implicit resolvers (`yaml/resolver.py`,
//! quoted next to each matcher); the YAML 1.2 side is the core schema (YAML
//! 1.2.2 §10.3.2).

/// `text` as a YAML string that reads back as exactly `text`: in double
/// quotes, or in single quotes when it holds `"` or `\`.
pub(crate) fn quoted(text: &str) -> String {
    if text.contains(['"', '\\']) {
        format!("'{}'", text.replace('\'', "''"))
    } else {
        format!("\"{text}\"")
    }
}

/// The value an unquoted scalar stands for, when every reader agrees on it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Plain {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str,
}

/// An unquoted scalar that readers disagree on, or that JSON cannot carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ambiguity {
    /// What PyYAML (YAML 1.1) makes of it.
    pub yaml11: &'static str,
    /// What the YAML 1.2 core schema makes of it.
    pub yaml12: &'static str,
}

/// The largest integer every JSON reader holds exactly (JavaScript's 2^53 - 1).
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// Resolves a plain (unquoted) scalar the way every reader would, or says how
/// YAML 1.1 and 1.2 read it when they do not agree (or JSON cannot hold it).
pub(crate) fn resolve(text: &str) -> Result<Plain, Ambiguity> {
    let yaml11 = yaml11_type(text);
    let yaml12 = yaml12_type(text);
    let ambiguity = Ambiguity { yaml11, yaml12 };
    match (yaml11, yaml12) {
        ("string", "string") => Ok(Plain::Str),
        ("null", "null") => Ok(Plain::Null),
        ("boolean", "boolean") => Ok(Plain::Bool(text.eq_ignore_ascii_case("true"))),
        ("integer", "integer") if is_decimal_integer(text) => text
            .parse::<i64>()
            .ok()
            .filter(|value| value.abs() <= MAX_SAFE_INTEGER)
            .map(Plain::Int)
            .ok_or(ambiguity),
        ("float", "float") if is_decimal_fraction(text) => text
            .parse::<f64>()
            .ok()
            .filter(|value| value.is_finite())
            .map(Plain::Float)
            .ok_or(ambiguity),
        _ => Err(ambiguity),
    }
}

/// `-?(0|[1-9][0-9]*)`, the one integer spelling both schemas and JSON share.
fn is_decimal_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (digits == "0" || !digits.starts_with('0'))
}

/// `-?(0|[1-9][0-9]*)\.[0-9]+`, the one fraction spelling both schemas and JSON share.
fn is_decimal_fraction(text: &str) -> bool {
    text.split_once('.').is_some_and(|(whole, fraction)| {
        is_decimal_integer(whole)
            && !fraction.is_empty()
            && fraction.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The type PyYAML's `SafeLoader` resolves a plain scalar to.
fn yaml11_type(text: &str) -> &'static str {
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        "null"
    } else if matches!(
        text,
        "yes"
            | "Yes"
            | "YES"
            | "no"
            | "No"
            | "NO"
            | "true"
            | "True"
            | "TRUE"
            | "false"
            | "False"
            | "FALSE"
            | "on"
            | "On"
            | "ON"
            | "off"
            | "Off"
            | "OFF"
    ) {
        "boolean"
    } else if yaml11_int(text) {
        "integer"
    } else if yaml11_float(text) {
        "float"
    } else if yaml11_timestamp(text) {
        "timestamp"
    } else if text == "<<" {
        "merge key"
    } else if text == "=" {
        "value key"
    } else {
        "string"
    }
}

/// The type the YAML 1.2 core schema resolves a plain scalar to.
fn yaml12_type(text: &str) -> &'static str {
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        "null"
    } else if matches!(text, "true" | "True" | "TRUE" | "false" | "False" | "FALSE") {
        "boolean"
    } else if yaml12_int(text) {
        "integer"
    } else if yaml12_float(text) {
        "float"
    } else {
        "string"
    }
}

fn strip_sign(text: &str) -> &str {
    text.strip_prefix(['-', '+']).unwrap_or(text)
}

fn all(text: &str, class: impl Fn(u8) -> bool) -> bool {
    text.bytes().all(class)
}

fn is_digit_or_underscore(b: u8) -> bool {
    b.is_ascii_digit() || b == b'_'
}

/// `.nan`, `.inf`, `-.Inf` and friends: the same spellings in both schemas.
fn is_special_float(text: &str) -> bool {
    matches!(text, ".nan" | ".NaN" | ".NAN") || matches!(strip_sign(text), ".inf" | ".Inf" | ".INF")
}

/// `1.5e+3` → (`1.5`, `+3`).
fn split_exponent(unsigned: &str) -> (&str, Option<&str>) {
    match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    }
}

/// `[0-9][0-9_]*`
fn yaml11_digits(text: &str) -> bool {
    text.as_bytes().first().is_some_and(u8::is_ascii_digit) && all(text, is_digit_or_underscore)
}

/// `(?::[0-5]?[0-9])+` after the first part of a sexagesimal number.
fn yaml11_sexagesimal_tail(parts: &[&str]) -> bool {
    !parts.is_empty()
        && parts.iter().all(|part| {
            let bytes = part.as_bytes();
            match bytes {
                [d] => d.is_ascii_digit(),
                [a, b] => (b'0'..=b'5').contains(a) && b.is_ascii_digit(),
                _ => false,
            }
        })
}

/// PyYAML int: `[-+]?0b[0-1_]+ | [-+]?0[0-7_]+ | [-+]?(?:0|[1-9][0-9_]*)
/// | [-+]?0x[0-9a-fA-F_]+ | [-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+`
fn yaml11_int(text: &str) -> bool {
    let body = strip_sign(text);
    if let Some(binary) = body.strip_prefix("0b") {
        return !binary.is_empty() && all(binary, |b| matches!(b, b'0' | b'1' | b'_'));
    }
    if let Some(hex) = body.strip_prefix("0x") {
        return !hex.is_empty() && all(hex, |b| b.is_ascii_hexdigit() || b == b'_');
    }
    if let Some(octal) = body.strip_prefix('0') {
        return octal.is_empty() || all(octal, |b| matches!(b, b'0'..=b'7' | b'_'));
    }
    let mut parts = body.split(':');
    let first = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    let decimal = first
        .as_bytes()
        .first()
        .is_some_and(|b| (b'1'..=b'9').contains(b))
        && all(first, is_digit_or_underscore);
    decimal && (rest.is_empty() || yaml11_sexagesimal_tail(&rest))
}

/// PyYAML float: `[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
/// | \.[0-9][0-9_]*(?:[eE][-+][0-9]+)? | [-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
/// | [-+]?\.(?:inf|Inf|INF) | \.(?:nan|NaN|NAN)`
fn yaml11_float(text: &str) -> bool {
    if is_special_float(text) {
        return true;
    }
    let (mantissa, exponent) = split_exponent(strip_sign(text));
    // PyYAML wants a sign in the exponent: `1.5e3` is a string to it.
    let exponent_ok = exponent.is_none_or(|exponent| {
        exponent
            .strip_prefix(['-', '+'])
            .is_some_and(|digits| !digits.is_empty() && all(digits, |b| b.is_ascii_digit()))
    });
    let Some((whole, fraction)) = mantissa.split_once('.') else {
        return false;
    };
    let fraction_ok = all(fraction, is_digit_or_underscore);
    if whole.is_empty() {
        // `\.[0-9][0-9_]*` takes no sign.
        return text.starts_with('.') && yaml11_digits(fraction) && exponent_ok;
    }
    let mut parts = whole.split(':');
    let first = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    if rest.is_empty() {
        yaml11_digits(first) && fraction_ok && exponent_ok
    } else {
        exponent.is_none() && yaml11_digits(first) && yaml11_sexagesimal_tail(&rest) && fraction_ok
    }
}

/// PyYAML timestamp: `[0-9]{4}-[0-9]{2}-[0-9]{2}` or a date with a time,
/// `[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}
/// (?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?`
fn yaml11_timestamp(text: &str) -> bool {
    fn digits(text: &str, min: usize, max: usize) -> Option<&str> {
        let count = text.bytes().take_while(u8::is_ascii_digit).count();
        (min..=max).contains(&count).then(|| &text[count..])
    }
    fn date(text: &str, short: bool) -> Option<&str> {
        let (min, max) = if short { (1, 2) } else { (2, 2) };
        let rest = digits(text, 4, 4)?.strip_prefix('-')?;
        let rest = digits(rest, min, max)?.strip_prefix('-')?;
        digits(rest, min, max)
    }
    if date(text, false) == Some("") {
        return true;
    }
    let Some(rest) = date(text, true) else {
        return false;
    };
    let rest = match rest.strip_prefix(['T', 't']) {
        Some(rest) => rest,
        None => {
            let trimmed = rest.trim_start_matches([' ', '\t']);
            if trimmed.len() == rest.len() {
                return false;
            }
            trimmed
        }
    };
    let time = (|| {
        let rest = digits(rest, 1, 2)?.strip_prefix(':')?;
        let rest = digits(rest, 2, 2)?.strip_prefix(':')?;
        digits(rest, 2, 2)
    })();
    let Some(mut rest) = time else {
        return false;
    };
    if let Some(fraction) = rest.strip_prefix('.') {
        rest = fraction.trim_start_matches(|c: char| c.is_ascii_digit());
    }
    let rest = rest.trim_start_matches([' ', '\t']);
    if rest.is_empty() || rest == "Z" {
        return true;
    }
    rest.strip_prefix(['-', '+'])
        .and_then(|zone| digits(zone, 1, 2))
        .is_some_and(|zone| {
            zone.is_empty() || zone.strip_prefix(':').and_then(|m| digits(m, 2, 2)) == Some("")
        })
}

/// Core schema int: `[-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+`
fn yaml12_int(text: &str) -> bool {
    if let Some(octal) = text.strip_prefix("0o") {
        return !octal.is_empty() && all(octal, |b| matches!(b, b'0'..=b'7'));
    }
    if let Some(hex) = text.strip_prefix("0x") {
        return !hex.is_empty() && all(hex, |b| b.is_ascii_hexdigit());
    }
    let digits = strip_sign(text);
    !digits.is_empty() && all(digits, |b| b.is_ascii_digit())
}

/// Core schema float: `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
/// | [-+]?\.(inf|Inf|INF) | \.nan|\.NaN|\.NAN`
fn yaml12_float(text: &str) -> bool {
    if is_special_float(text) {
        return true;
    }
    let (mantissa, exponent) = split_exponent(strip_sign(text));
    let exponent_ok = exponent.is_none_or(|exponent| {
        let digits = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
        !digits.is_empty() && all(digits, |b| b.is_ascii_digit())
    });
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", fraction)) => !fraction.is_empty() && all(fraction, |b| b.is_ascii_digit()),
        Some((whole, fraction)) => {
            !whole.is_empty()
                && all(whole, |b| b.is_ascii_digit())
                && all(fraction, |b| b.is_ascii_digit())
        }
        None => !mantissa.is_empty() && all(mantissa, |b| b.is_ascii_digit()),
    };
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_what_every_reader_agrees_on() {
        let cases = [
            ("hello world", Plain::Str),
            ("Bash(git:*) Read", Plain::Str),
            ("1.0.0", Plain::Str),
            ("v2", Plain::Str),
            ("-", Plain::Str),
            ("Yesterday", Plain::Str),
            ("", Plain::Null),
            ("~", Plain::Null),
            ("null", Plain::Null),
            ("true", Plain::Bool(true)),
            ("FALSE", Plain::Bool(false)),
            ("0", Plain::Int(0)),
            ("42", Plain::Int(42)),
            ("-7", Plain::Int(-7)),
            ("1.5", Plain::Float(1.5)),
            ("-0.25", Plain::Float(-0.25)),
        ];
        for (text, expected) in cases {
            assert_eq!(resolve(text), Ok(expected), "{text:?}");
        }
    }

    #[test]
    fn refuses_what_readers_disagree_on() {
        let cases = [
            ("yes", "boolean", "string"),
            ("No", "boolean", "string"),
            ("on", "boolean", "string"),
            ("OFF", "boolean", "string"),
            ("0123", "integer", "integer"),
            ("09", "string", "integer"),
            ("0o17", "string", "integer"),
            ("0b101", "integer", "string"),
            ("1_000", "integer", "string"),
            ("12:30", "integer", "string"),
            ("1:20.5", "float", "string"),
            ("2024-01-01", "timestamp", "string"),
            ("2024-1-2 10:00:00", "timestamp", "string"),
            ("2001-12-14t21:59:43.10-05:00", "timestamp", "string"),
            ("1e3", "string", "float"),
            ("1.5e3", "string", "float"),
            ("1.5e+3", "float", "float"),
            ("1.", "float", "float"),
            (".5", "float", "float"),
            ("+1", "integer", "integer"),
            (".inf", "float", "float"),
            ("-.Inf", "float", "float"),
            (".nan", "float", "float"),
            ("0x1F", "integer", "integer"),
            ("<<", "merge key", "string"),
            ("=", "value key", "string"),
            ("9007199254740993", "integer", "integer"),
        ];
        for (text, yaml11, yaml12) in cases {
            assert_eq!(resolve(text), Err(Ambiguity { yaml11, yaml12 }), "{text:?}");
        }
    }

    #[test]
    fn pyyaml_corner_cases() {
        // Strings in PyYAML that look numeric.
        assert_eq!(yaml11_type("1e3"), "string");
        assert_eq!(yaml11_type("08"), "string");
        assert_eq!(yaml11_type("1.2.3"), "string");
        assert_eq!(yaml11_type("+.5"), "string");
        assert_eq!(yaml11_type("2024-1-1"), "string");
        assert_eq!(yaml11_type("12:60"), "string");
        // And the other way round.
        assert_eq!(yaml11_type("0_7"), "integer");
        assert_eq!(yaml11_type("1_0.5"), "float");
        assert_eq!(yaml11_type("190:20:30"), "integer");
        assert_eq!(yaml11_type("2024-01-01 10:00:00 +1"), "timestamp");
        assert_eq!(yaml12_type("1e3"), "float");
        assert_eq!(yaml12_type("+12"), "integer");
        assert_eq!(yaml12_type("1_0"), "string");
    }
}
