//! Turning what an MCP server returns into what the model reads.
//!
//! Text blocks are joined with newlines; images, audio and binary resources are saved under
//! `HERMES_HOME/images/` (images also ride along as `ToolOutput::images`, so a vision model
//! sees them) and named in the text; resource links and structured content are described.
//! `isError` results become tool errors. The text is capped like every tool's output.
//! Never panics on odd content: undecodable base64 or unknown block types become a line that
//! says so.

use std::path::Path;
use std::path::PathBuf;

use base64::Engine;
use rmcp::model::CallToolResult;
use rmcp::model::ContentBlock;
use rmcp::model::ResourceContents;

use crate::tools::ToolOutput;
use crate::tools::output::cap_text;

/// Where decoded media goes, and how the files are named.
pub struct MediaSink<'a> {
    pub dir: &'a Path,
    /// `mcp_<server>_<tool>`: the file name prefix.
    pub prefix: &'a str,
}

/// The tool output for `result`, capped at `max_bytes`.
pub fn render_call_result(
    result: &CallToolResult,
    sink: &MediaSink<'_>,
    read_resource_tool: &str,
    max_bytes: usize,
) -> ToolOutput {
    let mut lines: Vec<String> = Vec::new();
    let mut images: Vec<PathBuf> = Vec::new();
    let mut texts: Vec<&str> = Vec::new();
    for (index, block) in result.content.iter().enumerate() {
        match block {
            ContentBlock::Text(text) => {
                texts.push(&text.text);
                lines.push(text.text.clone());
            }
            ContentBlock::Image(image) => {
                match save_base64(sink, index, &image.data, &image.mime_type) {
                    Ok((path, bytes)) => {
                        lines.push(format!(
                            "[image: {}, {}, saved to {}]",
                            image.mime_type,
                            size(bytes),
                            path.display()
                        ));
                        images.push(path);
                    }
                    Err(why) => {
                        lines.push(format!("[image ({}) not saved: {why}]", image.mime_type))
                    }
                }
            }
            ContentBlock::Audio(audio) => {
                match save_base64(sink, index, &audio.data, &audio.mime_type) {
                    Ok((path, bytes)) => lines.push(format!(
                        "[audio: {}, {}, saved to {}]",
                        audio.mime_type,
                        size(bytes),
                        path.display()
                    )),
                    Err(why) => {
                        lines.push(format!("[audio ({}) not saved: {why}]", audio.mime_type))
                    }
                }
            }
            ContentBlock::Resource(embedded) => {
                lines.push(render_resource(&embedded.resource, sink, index));
            }
            ContentBlock::ResourceLink(link) => lines.push(format!(
                "[MCP resource link: uri={}, name={}{} — read it with {read_resource_tool}]",
                link.uri,
                link.name,
                link.mime_type
                    .as_deref()
                    .map(|m| format!(", mimeType={m}"))
                    .unwrap_or_default(),
            )),
            _ => lines.push("[MCP content dropped: an unsupported block type]".to_string()),
        }
    }
    if let Some(structured) = &result.structured_content
        && !repeats_text(structured, &texts)
    {
        lines.push(format!("structuredContent: {structured}"));
    }
    let is_error = result.is_error.unwrap_or(false);
    let mut text = lines.join("\n");
    if text.trim().is_empty() {
        text = match is_error {
            true => "MCP tool returned an error".to_string(),
            false => "(the tool returned no content)".to_string(),
        };
    }
    let text = cap_text(&text, max_bytes);
    let mut output = match is_error {
        true => ToolOutput::error(text),
        false => ToolOutput::ok(text),
    };
    output.images = images;
    output
}

/// One `resources/read` content entry as text (a blob is saved and named).
pub fn render_resource(resource: &ResourceContents, sink: &MediaSink<'_>, index: usize) -> String {
    match resource {
        ResourceContents::TextResourceContents { text, .. } => text.clone(),
        ResourceContents::BlobResourceContents {
            uri,
            mime_type,
            blob,
            ..
        } => {
            let mime = mime_type.as_deref().unwrap_or("application/octet-stream");
            match save_base64(sink, index, blob, mime) {
                Ok((path, bytes)) => format!(
                    "[MCP resource {uri} saved to {} ({mime}, {}) — read it with read_file or terminal tools]",
                    path.display(),
                    size(bytes)
                ),
                Err(why) => format!("[MCP resource {uri} ({mime}) not saved: {why}]"),
            }
        }
        _ => "[MCP resource dropped: an unsupported kind of contents]".to_string(),
    }
}

/// Whether `structured` only repeats the text blocks: one of them is the same JSON, or (as
/// server-filesystem does, `{"content": <the text>}`) every leaf is a string found in them.
fn repeats_text(structured: &serde_json::Value, texts: &[&str]) -> bool {
    if texts
        .iter()
        .any(|t| serde_json::from_str::<serde_json::Value>(t).is_ok_and(|p| &p == structured))
    {
        return true;
    }
    fn leaves_in(value: &serde_json::Value, texts: &[&str]) -> bool {
        match value {
            serde_json::Value::String(s) => texts.iter().any(|t| t.contains(s.as_str())),
            serde_json::Value::Object(map) => map.values().all(|v| leaves_in(v, texts)),
            serde_json::Value::Array(items) => items.iter().all(|v| leaves_in(v, texts)),
            _ => false,
        }
    }
    !texts.is_empty() && leaves_in(structured, texts)
}

fn size(bytes: usize) -> String {
    match bytes {
        0..1_024 => format!("{bytes} B"),
        _ => format!("{:.1} KB", bytes as f64 / 1_024.0),
    }
}

/// Largest media file kept from one block (Hermes caps blobs at 50 MiB).
const MAX_MEDIA_BYTES: usize = 50 * 1024 * 1024;

/// Why a media block was not saved; it is shown inline in the result.
#[derive(Debug, thiserror::Error)]
enum MediaError {
    #[error("larger than {} MB", MAX_MEDIA_BYTES / (1024 * 1024))]
    TooLarge,
    #[error("not valid base64 ({0})")]
    Base64(#[source] base64::DecodeError),
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

fn save_base64(
    sink: &MediaSink<'_>,
    index: usize,
    data: &str,
    mime: &str,
) -> Result<(PathBuf, usize), MediaError> {
    // base64 is 4/3 of the payload; refuse before decoding anything huge.
    if data.len() / 4 * 3 > MAX_MEDIA_BYTES {
        return Err(MediaError::TooLarge);
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .map_err(MediaError::Base64)?;
    std::fs::create_dir_all(sink.dir)?;
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    let path = sink.dir.join(format!(
        "{}_{stamp}_{index}.{}",
        sink.prefix,
        extension(mime)
    ));
    crate::util::fs::atomic_write(&path, &bytes, crate::util::fs::FileMode::Exactly(0o600))?;
    Ok((path, bytes.len()))
}

fn extension(mime: &str) -> &'static str {
    match mime.split(';').next().unwrap_or("").trim() {
        "image/png" => "png",
        "image/jpeg" | "image/jpg" => "jpg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "image/bmp" => "bmp",
        "image/svg+xml" => "svg",
        "audio/wav" | "audio/x-wav" => "wav",
        "audio/mpeg" => "mp3",
        "audio/ogg" => "ogg",
        "application/pdf" => "pdf",
        "application/json" => "json",
        "text/plain" => "txt",
        "application/gzip" => "gz",
        _ => "bin",
    }
}

#[cfg(test)]
#[path = "result_tests.rs"]
mod tests;
