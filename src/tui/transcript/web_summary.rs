//! What a `web_search` / `web_extract` cell shows instead of the JSON the model got: the result
//! count and each result's site and title, or per URL its site, size (and whether the page was
//! cut and saved) and title, or the reason it failed. Site and size lead, so a narrow pane
//! cuts the title, not them.
//!
//! Reads the tools' Hermes-shaped results (`{"success", "data": {"web": [...]}}` and
//! `{"results": [{url, title, content, error}]}`); anything else (an old or foreign result, a
//! bounded cut) is left to the generic view by returning `None`.

use serde_json::Value;

/// The cell text for a finished web tool call, when `output` is one of their results.
pub fn summarize(tool: &str, output: &str) -> Option<String> {
    let value: Value = serde_json::from_str(output).ok()?;
    match tool {
        "web_search" => search(&value),
        "web_extract" => extract(&value),
        _ => None,
    }
}

fn search(value: &Value) -> Option<String> {
    if let Some(error) = top_level_error(value) {
        return Some(error);
    }
    let hits = value.get("data")?.get("web")?.as_array()?;
    let mut lines = vec![match hits.len() {
        0 => "no results".to_string(),
        1 => "1 result".to_string(),
        n => format!("{n} results"),
    }];
    for (i, hit) in hits.iter().enumerate() {
        let title = text(hit, "title");
        let url = text(hit, "url");
        let title = if title.is_empty() { url } else { title };
        lines.push(format!("{}. {title} — {}", i + 1, site(url)));
    }
    Some(lines.join("\n"))
}

fn extract(value: &Value) -> Option<String> {
    if let Some(error) = top_level_error(value) {
        return Some(error);
    }
    let results = value.get("results")?.as_array()?;
    let mut lines = Vec::new();
    for result in results {
        let url = text(result, "url");
        if let Some(error) = result.get("error").and_then(Value::as_str) {
            lines.push(format!("✗ {} — {error}", short_url(url)));
            continue;
        }
        let content = text(result, "content");
        let title = text(result, "title");
        let title = if title.is_empty() {
            short_url(url)
        } else {
            title.to_string()
        };
        let size = match total_chars_in_footer(content) {
            Some(total) => format!("{total} chars, cut to fit (full text saved)"),
            None => match content.chars().count() {
                1 => "1 char".to_string(),
                n => format!("{} chars", crate::util::digits::thousands(n)),
            },
        };
        let warning = if result.get("warning").is_some() {
            " ⚠ reads like a prompt injection"
        } else {
            ""
        };
        lines.push(format!("✓ {} · {size}{warning} — {title}", site(url)));
    }
    Some(lines.join("\n"))
}

fn top_level_error(value: &Value) -> Option<String> {
    let failed = value.get("success").and_then(Value::as_bool) == Some(false)
        || value.get("results").is_none() && value.get("data").is_none();
    if !failed {
        return None;
    }
    value
        .get("error")
        .and_then(Value::as_str)
        .map(str::to_string)
}

fn text<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The `N` of the `[TRUNCATED]` footer's "of N total clean characters".
fn total_chars_in_footer(content: &str) -> Option<&str> {
    let footer = content.rfind("[TRUNCATED]")?;
    let rest = &content[footer..];
    let end = rest.find(" total clean characters")?;
    let start = rest[..end].rfind("of ")? + 3;
    Some(&rest[start..end])
}

/// `https://www.example.com/a/b` → `example.com`.
fn site(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let host = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    host.strip_prefix("www.").unwrap_or(host)
}

/// A URL without its scheme, cut to 60 characters.
fn short_url(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    if rest.chars().count() > 60 {
        let cut: String = rest.chars().take(59).collect();
        format!("{cut}…")
    } else {
        rest.to_string()
    }
}

#[cfg(test)]
#[path = "web_summary_tests.rs"]
mod tests;
