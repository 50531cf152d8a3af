//! A fetched document to `(title, clean text)`: HTML to markdown of its main content
//! (`html`), PDF text (`pdf`), JSON pretty-printed, plain text as it is.
//!
//! The kind comes from the media type, or from the bytes when the server sent none or
//! `application/octet-stream` (`%PDF-`, an HTML start, JSON, NUL bytes meaning binary).
//! Inline base64 images become `[IMAGE: alt]` placeholders (Hermes's
//! `convert_base64_images_to_links`): one PNG can be tens of thousands of tokens.
//! Invariants: pure and synchronous (callers run it off the async threads: a big page or
//! PDF takes milliseconds to tens of milliseconds); never panics on hostile bytes (the PDF
//! reader's panics are caught); text in any script survives (it is never re-encoded).

mod html;
mod pdf;

use std::sync::LazyLock;

use regex::Regex;

use super::WebError;
use super::fetch::charset;
use super::fetch::mime_essence;

/// A document's title and its text for the model.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Extracted {
    pub title: String,
    pub text: String,
}

/// What a document is, for choosing its extractor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocKind {
    Html,
    Pdf,
    Json,
    Text,
}

/// `body` (as served, with its `Content-Type` header if any) to title and clean text;
/// `url` (the page's final URL) makes relative links absolute.
pub fn extract(
    body: &[u8],
    content_type: Option<&str>,
    url: Option<&str>,
) -> Result<Extracted, WebError> {
    let header_charset = content_type.and_then(charset::charset_param);
    let extracted = match kind(body, content_type)? {
        DocKind::Html => html::extract(&charset::decode_html(body, header_charset), url),
        DocKind::Pdf => pdf::extract(body)?,
        DocKind::Json => json(&charset::decode_plain(body, header_charset)),
        DocKind::Text => Extracted {
            title: String::new(),
            text: charset::decode_plain(body, header_charset),
        },
    };
    let text = tidy(&replace_base64_images(&extracted.text));
    if text.trim().is_empty() {
        return Err(WebError::Empty);
    }
    Ok(Extracted {
        title: extracted.title.trim().to_string(),
        text,
    })
}

/// The document's kind by media type, sniffing the bytes when that says nothing useful.
pub fn kind(body: &[u8], content_type: Option<&str>) -> Result<DocKind, WebError> {
    let mime = content_type.map(mime_essence).unwrap_or_default();
    let by_type = match mime.as_str() {
        "text/html" | "application/xhtml+xml" => Some(DocKind::Html),
        "application/pdf" | "application/x-pdf" => Some(DocKind::Pdf),
        "application/json" | "text/json" => Some(DocKind::Json),
        m if m.ends_with("+json") => Some(DocKind::Json),
        m if m.starts_with("text/") || m.ends_with("+xml") || m.ends_with("/xml") => {
            Some(DocKind::Text)
        }
        "application/javascript" | "application/x-yaml" | "application/yaml" => Some(DocKind::Text),
        _ => None,
    };
    if let Some(kind) = by_type {
        return Ok(kind);
    }
    sniff(body).ok_or_else(|| WebError::NotText {
        content_type: if mime.is_empty() {
            "binary data".into()
        } else {
            mime
        },
    })
}

fn sniff(body: &[u8]) -> Option<DocKind> {
    if body.starts_with(b"%PDF-") {
        return Some(DocKind::Pdf);
    }
    let head = body.get(..8192).unwrap_or(body);
    if head.contains(&0) {
        return None;
    }
    let start: Vec<u8> = head
        .iter()
        .skip_while(|b| b.is_ascii_whitespace() || **b == 0xEF || **b == 0xBB || **b == 0xBF)
        .take(512)
        .map(u8::to_ascii_lowercase)
        .collect();
    let contains = |needle: &[u8]| start.windows(needle.len()).any(|w| w == needle);
    if start.starts_with(b"<!doctype html") || contains(b"<html") || contains(b"<body") {
        return Some(DocKind::Html);
    }
    if matches!(start.first(), Some(b'{' | b'['))
        && serde_json::from_slice::<serde_json::Value>(body).is_ok()
    {
        return Some(DocKind::Json);
    }
    Some(DocKind::Text)
}

fn json(text: &str) -> Extracted {
    let text = serde_json::from_str::<serde_json::Value>(text)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| text.to_string());
    Extracted {
        title: String::new(),
        text,
    }
}

static MD_BASE64_IMAGE: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"!\[(?P<alt>[^\]]*)\]\(\s*data:image/[^;]+;base64,[A-Za-z0-9+/=\s]+\)").ok()
});
static PAREN_BASE64_IMAGE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\(\s*data:image/[^;]+;base64,[A-Za-z0-9+/=\s]+\)").ok());
static BARE_BASE64_IMAGE: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"data:image/[^;]+;base64,[A-Za-z0-9+/=]+").ok());

/// Hermes's three rules, in its order: a markdown image keeps its alt text
/// (`[IMAGE: alt]`, or `[IMAGE]`), a parenthesised or bare base64 image is `[IMAGE]`.
pub fn replace_base64_images(text: &str) -> String {
    if !text.contains("base64,") {
        return text.to_string();
    }
    let mut out = text.to_string();
    if let Some(re) = MD_BASE64_IMAGE.as_ref() {
        out = re
            .replace_all(&out, |caps: &regex::Captures<'_>| {
                let alt = caps.name("alt").map_or("", |m| m.as_str().trim());
                if alt.is_empty() {
                    "[IMAGE]".to_string()
                } else {
                    format!("[IMAGE: {alt}]")
                }
            })
            .into_owned();
    }
    for re in [&PAREN_BASE64_IMAGE, &BARE_BASE64_IMAGE] {
        if let Some(re) = re.as_ref() {
            out = re.replace_all(&out, "[IMAGE]").into_owned();
        }
    }
    out
}

/// Trailing spaces off, runs of blank lines down to one, no blank start or end.
fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut blank = 0;
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            blank += 1;
            continue;
        }
        if !out.is_empty() {
            out.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        out.push_str(line);
    }
    out
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
