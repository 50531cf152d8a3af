//! Bytes to text by the page's declared charset: a byte-order mark first (as browsers do: it
//! cannot be wrong), then the `Content-Type` header's `charset`, then (HTML only) a
//! `<meta charset>` or `http-equiv` declaration in the first 4 KiB, then UTF-8, and
//! windows-1252 when the bytes are not valid UTF-8 and nothing was declared (the web's legacy
//! default). Labels are resolved by the WHATWG Encoding Standard (`encoding_rs`), so
//! `cp1251`, `latin1` and `shift_jis` all work. Never fails: undecodable bytes become U+FFFD.

use std::sync::LazyLock;

use encoding_rs::Encoding;
use regex::bytes::Regex;

/// How far into an HTML document a `<meta>` charset is looked for (browsers use 1024; pages
/// with long `<head>`s put it later).
const META_SCAN: usize = 4096;

static META_CHARSET: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r#"(?i)<meta\b[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)"#).ok()
});

/// An HTML document's text: BOM, header, `<meta>`, then the defaults.
pub fn decode_html(bytes: &[u8], header_charset: Option<&str>) -> String {
    let declared = label(header_charset).or_else(|| meta_charset(bytes));
    decode(bytes, declared)
}

/// A plain-text (or JSON, XML) document's text: BOM, header, then the defaults.
pub fn decode_plain(bytes: &[u8], header_charset: Option<&str>) -> String {
    decode(bytes, label(header_charset))
}

/// The `charset` parameter of a `Content-Type` value, if any.
pub fn charset_param(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|param| {
        let (name, value) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| value.trim().trim_matches(['"', '\'']))
    })
}

fn label(name: Option<&str>) -> Option<&'static Encoding> {
    name.and_then(|n| Encoding::for_label(n.trim().as_bytes()))
}

fn meta_charset(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = bytes.get(..META_SCAN).unwrap_or(bytes);
    let caps = META_CHARSET.as_ref()?.captures(head)?;
    let encoding = Encoding::for_label(caps.get(1)?.as_bytes())?;
    // A UTF-16 declaration the parser could read as ASCII is wrong (HTML spec: use UTF-8).
    if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        return Some(encoding_rs::UTF_8);
    }
    Some(encoding)
}

fn decode(bytes: &[u8], declared: Option<&'static Encoding>) -> String {
    if let Some((bom_encoding, _)) = Encoding::for_bom(bytes) {
        return bom_encoding.decode_with_bom_removal(bytes).0.into_owned();
    }
    match declared {
        Some(encoding) => encoding.decode_without_bom_handling(bytes).0.into_owned(),
        None => match std::str::from_utf8(bytes) {
            Ok(text) => text.to_string(),
            Err(_) => encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(bytes)
                .0
                .into_owned(),
        },
    }
}

#[cfg(test)]
#[path = "charset_tests.rs"]
mod tests;
