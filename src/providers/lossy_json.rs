//! JSON decoding that forgives what real gateways send: a lone UTF-16 surrogate escape
//! (`"\ud83d"` — a proxy splitting an emoji between chunks) is decoded as U+FFFD, as
//! Python's `json` keeps it rather than failing, and `null` where a list belongs reads as
//! empty (`null_as_default`).
//!
//! It does not repair anything else: malformed JSON is still an error. Invariant: text
//! without a lone surrogate escape is parsed exactly as `serde_json::from_str` does; the
//! repair runs only after a failure, and only when it changes the text.

use serde::Deserialize;
use serde::Deserializer;
use serde::de::DeserializeOwned;

/// `serde_json::from_str`, retried once with lone surrogate escapes replaced by `\ufffd`.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, serde_json::Error> {
    match serde_json::from_str(text) {
        // serde_json names a lone surrogate in several ways ("lone leading surrogate",
        // "unexpected end of hex escape"); a repair that changes nothing is not retried.
        Err(e) if text.contains("\\u") => {
            let repaired = replace_lone_surrogates(text);
            if repaired == text {
                Err(e)
            } else {
                serde_json::from_str(&repaired)
            }
        }
        other => other,
    }
}

/// For `#[serde(deserialize_with = …)]`: `null` becomes `T::default()`.
pub fn null_as_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Ok(Option::<T>::deserialize(deserializer)?.unwrap_or_default())
}

/// Rewrites every `\uXXXX` escape that is half of a surrogate pair without its other half
/// as `\ufffd`; everything else is copied. Backslashes only occur inside JSON strings, so
/// scanning escapes needs no string tracking.
pub fn replace_lone_surrogates(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        let Some(unit) = escape_at(bytes, i) else {
            // Another escape (`\\`, `\"`, `\n`): skip both bytes so `\\u` is not read as `\u`.
            i += 2;
            continue;
        };
        let next = escape_at(bytes, i + 6);
        let paired = match unit {
            0xD800..=0xDBFF => next.is_some_and(|n| (0xDC00..=0xDFFF).contains(&n)),
            0xDC00..=0xDFFF => false,
            _ => {
                i += 6;
                continue;
            }
        };
        if paired {
            i += 12;
            continue;
        }
        out.push_str(&text[copied..i]);
        out.push_str("\\ufffd");
        i += 6;
        copied = i;
    }
    out.push_str(&text[copied..]);
    out
}

/// The code unit of a `\uXXXX` escape starting at `at`.
fn escape_at(bytes: &[u8], at: usize) -> Option<u32> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u32::from_str_radix(hex, 16).ok()
}

#[cfg(test)]
#[path = "lossy_json_tests.rs"]
mod tests;
