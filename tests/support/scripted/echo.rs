//! Echo mode: instead of a script, answer each completion request from its own messages, so a
//! human can drive the real binary without writing a script.
//!
//! Rules, on the last message of the request: a tool result → "Tool said: <first 200 chars>";
//! a user message starting with `run:` → a `terminal` tool call running the rest;
//! `delegate: A ;; B` → a `delegate_task` call with one task per `;;`-separated goal;
//! `orchestrate: A ;; B` → one orchestrator child whose goal is `delegate: A ;; B`;
//! `call: NAME {json}` → a call of tool NAME with those arguments (`{}` when left out); any other
//! user message → "You said: <text>", plus "[I see 1 image: 320×200 image/png]" when it carries
//! images (OpenAI `image_url` data URLs or Anthropic base64 `image` blocks). A subagent's task message (`Goal: …`) follows the same
//! rules for the goal. Works for OpenAI and Anthropic message shapes. Never runs out.

use serde_json::Value;

use super::script::Response;
use super::script::ScriptedCall;

/// How many characters of a tool result "Tool said:" quotes.
const TOOL_QUOTE_CHARS: usize = 200;

/// The answer to a request whose JSON body is `body`; `seq` makes tool-call ids unique.
pub fn echo_response(body: &Value, seq: u64) -> Response {
    let messages = body
        .get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    let Some(last) = messages.last() else {
        return words("You said nothing.");
    };
    if let Some(output) = tool_result(last) {
        let quoted: String = output.chars().take(TOOL_QUOTE_CHARS).collect();
        return words(&format!("Tool said: {quoted}"));
    }
    let last_user = messages
        .iter()
        .rev()
        .find(|m| m.get("role").and_then(Value::as_str) == Some("user"));
    let said = last_user.map(text_of).unwrap_or_default();
    let seen = last_user.map(seen_images).unwrap_or_default();
    let asked = said.trim_start();
    let asked = asked.strip_prefix("Goal: ").unwrap_or(asked);
    if let Some(goals) = asked.strip_prefix("orchestrate:") {
        let arguments = serde_json::json!({
            "tasks": [{"goal": format!("delegate:{goals}")}],
            "role": "orchestrator"
        })
        .to_string();
        return Response::tool_calls([ScriptedCall::new(
            &format!("call_echo_{seq}"),
            "delegate_task",
            &arguments,
        )]);
    }
    if let Some(goals) = asked.strip_prefix("delegate:") {
        let tasks: Vec<Value> = goals
            .split(";;")
            .map(|g| serde_json::json!({"goal": g.trim()}))
            .collect();
        let arguments = serde_json::json!({ "tasks": tasks }).to_string();
        return Response::tool_calls([ScriptedCall::new(
            &format!("call_echo_{seq}"),
            "delegate_task",
            &arguments,
        )]);
    }
    if let Some(call) = asked.strip_prefix("call:") {
        let call = call.lines().next().unwrap_or_default().trim();
        let (name, arguments) = call.split_once(char::is_whitespace).unwrap_or((call, "{}"));
        return Response::tool_calls([ScriptedCall::new(
            &format!("call_echo_{seq}"),
            name,
            arguments.trim(),
        )]);
    }
    match asked.strip_prefix("run:") {
        Some(command) => Response::tool_calls([ScriptedCall::terminal(
            &format!("call_echo_{seq}"),
            command.lines().next().unwrap_or_default().trim(),
        )]),
        None if seen.is_empty() => words(&format!("You said: {said}")),
        None => words(&format!(
            "You said: {said} [I see {} image{}: {}]",
            seen.len(),
            if seen.len() == 1 { "" } else { "s" },
            seen.join(", ")
        )),
    }
}

/// `WxH media/type` for each image part of a message (or `unreadable …`).
fn seen_images(message: &Value) -> Vec<String> {
    use base64::Engine;
    let Some(parts) = message.get("content").and_then(Value::as_array) else {
        return Vec::new();
    };
    parts
        .iter()
        .filter_map(|part| match part.get("type").and_then(Value::as_str) {
            Some("image_url") => {
                let url = part.pointer("/image_url/url")?.as_str()?;
                let (header, data) = url.split_once(',')?;
                let media = header
                    .trim_start_matches("data:")
                    .trim_end_matches(";base64");
                Some((media.to_string(), data.to_string()))
            }
            Some("image") => Some((
                part.pointer("/source/media_type")?.as_str()?.to_string(),
                part.pointer("/source/data")?.as_str()?.to_string(),
            )),
            _ => None,
        })
        .map(|(media, data)| {
            let decoded = base64::engine::general_purpose::STANDARD
                .decode(data)
                .ok()
                .and_then(|bytes| image::load_from_memory(&bytes).ok());
            match decoded {
                Some(img) => format!("{}×{} {media}", img.width(), img.height()),
                None => format!("unreadable {media}"),
            }
        })
        .collect()
}

/// Text streamed word by word so streaming is visible.
fn words(text: &str) -> Response {
    Response::text(text.split_inclusive(' ').map(str::to_owned))
}

/// The tool output if `message` is a tool result (OpenAI `role: tool`, or an Anthropic user
/// message holding a `tool_result` block).
fn tool_result(message: &Value) -> Option<String> {
    if message.get("role").and_then(Value::as_str) == Some("tool") {
        return Some(text_of(message));
    }
    let blocks = message.get("content")?.as_array()?;
    let block = blocks
        .iter()
        .find(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))?;
    Some(content_text(block.get("content").unwrap_or(&Value::Null)))
}

fn text_of(message: &Value) -> String {
    content_text(message.get("content").unwrap_or(&Value::Null))
}

/// Text of a content value: a string, or the text parts of a parts/blocks array.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::script::ResponseKind;
    use super::*;
    use serde_json::json;

    fn text(resp: &Response) -> String {
        match &resp.kind {
            ResponseKind::Text { chunks, .. } => chunks.concat(),
            other => panic!("not text: {other:?}"),
        }
    }

    #[test]
    fn call_makes_a_call_of_any_tool() {
        let body = json!({"messages": [{"role": "user", "content": "call: web_search {\"query\": \"rust\"}"}]});
        match echo_response(&body, 3).kind {
            ResponseKind::ToolCalls { calls, .. } => {
                assert_eq!(calls[0].name, "web_search");
                assert_eq!(calls[0].arguments, r#"{"query": "rust"}"#);
            }
            other => panic!("not a tool call: {other:?}"),
        }
    }

    #[test]
    fn echoes_user_text_in_both_shapes() {
        let openai = json!({"messages": [{"role": "user", "content": "hi there"}]});
        assert_eq!(text(&echo_response(&openai, 1)), "You said: hi there");
        let anthropic =
            json!({"messages": [{"role": "user", "content": [{"type": "text", "text": "yo"}]}]});
        assert_eq!(text(&echo_response(&anthropic, 1)), "You said: yo");
    }

    #[test]
    fn images_are_described_by_size_and_type() {
        use base64::Engine;
        let mut png = std::io::Cursor::new(Vec::new());
        image::DynamicImage::ImageRgb8(image::RgbImage::new(3, 2))
            .write_to(&mut png, image::ImageFormat::Png)
            .unwrap();
        let data = base64::engine::general_purpose::STANDARD.encode(png.into_inner());
        let body = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "what?"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{data}")}},
            {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "AAAA"}}
        ]}]});
        assert_eq!(
            text(&echo_response(&body, 1)),
            "You said: what? [I see 2 images: 3×2 image/png, unreadable image/jpeg]"
        );
    }

    #[test]
    fn run_prefix_becomes_terminal_call() {
        let body = json!({"messages": [{"role": "user", "content": "run: ls -la"}]});
        match echo_response(&body, 3).kind {
            ResponseKind::ToolCalls { calls, .. } => {
                assert_eq!(calls[0].name, "terminal");
                assert_eq!(calls[0].id, "call_echo_3");
                assert_eq!(calls[0].arguments, r#"{"command":"ls -la"}"#);
            }
            other => panic!("not a tool call: {other:?}"),
        }
    }

    #[test]
    fn tool_results_are_quoted_and_truncated() {
        let long = "x".repeat(300);
        let openai = json!({"messages": [{"role": "tool", "content": long}]});
        assert_eq!(
            text(&echo_response(&openai, 1)),
            format!("Tool said: {}", "x".repeat(200))
        );
        let anthropic = json!({"messages": [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": "ok"}]}]});
        assert_eq!(text(&echo_response(&anthropic, 1)), "Tool said: ok");
    }
}
