//! What the scripted server knows about one request: which API it addressed (`Endpoint`,
//! from method and path) and the recorded request with helpers to read its body in each
//! wire format. No I/O, no state.

use std::collections::BTreeMap;

use serde_json::Value;

/// Which API a request addressed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    /// `POST /v1/chat/completions` (or `/chat/completions`).
    ChatCompletions,
    /// `POST /v1/messages` (or `/messages`).
    Messages,
    /// `POST /v1/responses` (or `/responses`): OpenAI Responses.
    Responses,
    /// `POST /model/{modelId}/converse-stream`: AWS Bedrock ConverseStream.
    ConverseStream,
    /// `GET /v1/models` (or `/models`).
    Models,
    Other,
}

impl Endpoint {
    pub fn of(method: &str, path: &str) -> Self {
        let path = path.split('?').next().unwrap_or_default();
        if method == "POST" && converse_model(path).is_some() {
            return Self::ConverseStream;
        }
        let path = path.strip_prefix("/v1").unwrap_or(path);
        match (method, path) {
            ("POST", "/chat/completions") => Self::ChatCompletions,
            ("POST", "/messages") => Self::Messages,
            ("POST", "/responses") => Self::Responses,
            ("GET", "/models") => Self::Models,
            _ => Self::Other,
        }
    }

    /// A completion request (any wire format).
    pub fn is_completion(self) -> bool {
        matches!(
            self,
            Self::ChatCompletions | Self::Messages | Self::Responses | Self::ConverseStream
        )
    }
}

/// The model id of a `/model/{id}/converse-stream` path, percent-decoded.
pub fn converse_model(path: &str) -> Option<String> {
    let encoded = path
        .split('?')
        .next()?
        .strip_prefix("/model/")?
        .strip_suffix("/converse-stream")?;
    (!encoded.is_empty() && !encoded.contains('/')).then(|| percent_decode(encoded))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// One request as the server saw it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedRequest {
    /// The request line and headers as sent.
    pub head: String,
    pub method: String,
    /// Request target as sent (including any query string).
    pub path: String,
    /// Header names lowercased.
    pub headers: BTreeMap<String, String>,
    /// The body parsed as JSON; `Null` when empty or not JSON.
    pub body: Value,
    /// The body's bytes as sent (multipart uploads, form posts).
    pub raw_body: Vec<u8>,
}

impl RecordedRequest {
    /// A header by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// The body's bytes as text (lossy UTF-8): form posts, raw JSON as sent.
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.raw_body).into_owned()
    }

    pub fn endpoint(&self) -> Endpoint {
        Endpoint::of(&self.method, &self.path)
    }

    /// The body asked for a streamed answer (Bedrock's converse-stream always streams).
    pub fn is_streaming(&self) -> bool {
        self.endpoint() == Endpoint::ConverseStream
            || self.body.get("stream").and_then(Value::as_bool) == Some(true)
    }

    /// The `content` of every `tool` message in the body, in order (OpenAI format).
    pub fn tool_results(&self) -> Vec<String> {
        self.messages()
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["content"].as_str().unwrap_or_default().to_string())
            .collect()
    }

    /// The names of the tools offered in the body (OpenAI format).
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .map(|tools| {
                tools
                    .iter()
                    .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The body's `messages` array (empty if absent).
    pub fn messages(&self) -> &[Value] {
        self.body
            .get("messages")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// The body's Responses `input` items (empty if absent).
    pub fn input_items(&self) -> &[Value] {
        self.body
            .get("input")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
    }

    /// `(call_id, output)` of every Responses `function_call_output` item, in order.
    pub fn function_call_outputs(&self) -> Vec<(String, Value)> {
        self.input_items()
            .iter()
            .filter(|i| i["type"] == "function_call_output")
            .map(|i| {
                let id = i["call_id"].as_str().unwrap_or_default().to_string();
                (id, i["output"].clone())
            })
            .collect()
    }

    /// `(toolUseId, text)` of every Bedrock `toolResult` block, in order.
    pub fn converse_tool_results(&self) -> Vec<(String, String)> {
        self.messages()
            .iter()
            .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
            .filter_map(|block| {
                let result = block.get("toolResult")?;
                let id = result["toolUseId"].as_str().unwrap_or_default().to_string();
                let text = result["content"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string();
                Some((id, text))
            })
            .collect()
    }

    /// The model id of a Bedrock request (from the path).
    pub fn converse_model(&self) -> Option<String> {
        converse_model(&self.path)
    }
}

/// The ids of the tool calls in an OpenAI chat `messages` array that the messages right after
/// their assistant message do not answer — what strict servers (OpenAI, DeepSeek) refuse with
/// a 400 ("An assistant message with 'tool_calls' must be followed by tool messages …").
pub fn unanswered_tool_calls(messages: &[Value]) -> Vec<String> {
    let mut missing = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        if message["role"] != "assistant" {
            continue;
        }
        let Some(calls) = message["tool_calls"].as_array() else {
            continue;
        };
        let answered: Vec<&str> = messages[i + 1..]
            .iter()
            .take_while(|m| m["role"] == "tool")
            .filter_map(|m| m["tool_call_id"].as_str())
            .collect();
        missing.extend(
            calls
                .iter()
                .filter_map(|c| c["id"].as_str())
                .filter(|id| !answered.contains(id))
                .map(str::to_string),
        );
    }
    missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_every_wire_format() {
        assert_eq!(Endpoint::of("POST", "/v1/responses"), Endpoint::Responses);
        assert_eq!(Endpoint::of("POST", "/responses"), Endpoint::Responses);
        assert_eq!(
            Endpoint::of("POST", "/model/us.amazon.nova-pro-v1%3A0/converse-stream"),
            Endpoint::ConverseStream
        );
        assert_eq!(
            Endpoint::of("POST", "/model//converse-stream"),
            Endpoint::Other
        );
        assert_eq!(
            converse_model("/model/arn%3Aaws%3Abedrock%2Fx/converse-stream").as_deref(),
            Some("arn:aws:bedrock/x")
        );
    }

    #[test]
    fn tool_calls_must_be_answered_by_the_tool_messages_right_after_them() {
        let call = serde_json::json!({"role":"assistant","tool_calls":[{"id":"a"},{"id":"b"}]});
        let tool = |id: &str| serde_json::json!({"role":"tool","tool_call_id":id});
        let user = serde_json::json!({"role":"user","content":"x"});
        assert!(unanswered_tool_calls(&[call.clone(), tool("a"), tool("b")]).is_empty());
        assert_eq!(unanswered_tool_calls(&[call.clone(), tool("a")]), ["b"]);
        assert_eq!(
            unanswered_tool_calls(&[call, user, tool("a"), tool("b")]),
            ["a", "b"]
        );
    }
}
