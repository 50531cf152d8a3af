//! Image parts in both wire formats: an OpenAI `image_url` content part with a base64 data URL,
//! an Anthropic `image` block with a base64 source.
//!
//! Providers never read image files: the engine fills `ImagePart::payload` before a request.
//! An image whose payload is missing (the file could not be read) is never dropped silently;
//! it becomes a text part `[image unavailable: <file name>]` in the image's place, so the model
//! knows an image was meant to be there. These bodies hold the base64 data, so they must not
//! be logged whole.

use std::path::Path;

use serde_json::Value;
use serde_json::json;

use crate::model::ImagePart;

/// The text part of the extra user message that carries images returned by tools on OpenAI
/// chat completions (tool messages there can only hold text).
pub const TOOL_IMAGES_NOTE: &str = "[Images returned by the tool call(s) above]";

/// `[image unavailable: <file name>]`; the whole path when it has no file name.
pub fn unavailable_note(path: &Path) -> String {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    );
    format!("[image unavailable: {name}]")
}

/// One OpenAI chat-completions content part for `part`.
pub fn openai_part(part: &ImagePart) -> Value {
    match &part.payload {
        Some(payload) => json!({ "type": "image_url", "image_url": { "url": payload.data_url() } }),
        None => json!({ "type": "text", "text": unavailable_note(&part.path) }),
    }
}

/// One Anthropic Messages content block for `part`.
pub fn anthropic_block(part: &ImagePart) -> Value {
    match &part.payload {
        Some(payload) => json!({
            "type": "image",
            "source": { "type": "base64", "media_type": payload.media_type, "data": payload.base64 },
        }),
        None => json!({ "type": "text", "text": unavailable_note(&part.path) }),
    }
}

#[cfg(test)]
#[path = "image_blocks_tests.rs"]
mod tests;
