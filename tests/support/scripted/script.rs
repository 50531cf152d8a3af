//! The script the scripted provider replays: one [`Response`] per completion request, in
//! order, loadable from JSON (see `tests/support/scripted/README.md`).
//!
//! This module only describes responses; it does not know HTTP or any wire dialect (that is
//! `reply`, `sse_openai`, `sse_anthropic`, `sse_responses` and `eventstream_bedrock`). Invariant: every value round-trips through
//! serde, so a script written in Rust can be dumped to a file and replayed by the example.

use std::path::Path;

use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;

/// One scripted answer: what to send, plus pacing and usage numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Response {
    #[serde(flatten)]
    pub kind: ResponseKind,
    /// Pause between SSE events of a streamed answer (interrupt tests use this).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub delay_ms_between_chunks: u64,
    #[serde(default)]
    pub usage: ScriptedUsage,
}

/// What a response does. The JSON tag is `"type"` in snake_case (`"text"`, `"tool_calls"`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResponseKind {
    /// Text split into the given chunks (one SSE event each), after optional reasoning chunks.
    Text {
        chunks: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        reasoning: Vec<String>,
    },
    /// Tool calls, optionally preceded by text. Arguments are split over several deltas.
    ToolCalls {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text_before: Option<String>,
        calls: Vec<ScriptedCall>,
        /// OpenAI dialect only: every call uses index 0 with a new id (an Ollama quirk).
        #[serde(default, skip_serializing_if = "is_false")]
        reuse_index_zero: bool,
    },
    /// An HTTP error. `body` replaces the whole body; otherwise `message` (or a default) is
    /// wrapped in the endpoint's error envelope.
    Status {
        code: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        retry_after: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body: Option<String>,
    },
    /// Read the request, then close the socket with a TCP reset before answering.
    Reset,
    /// Send these text chunks, then nothing for `stall_secs` (connection open), then drop it.
    StallAfter {
        #[serde(default)]
        chunks: Vec<String>,
        stall_secs: u64,
    },
    /// One valid chunk, then a `data: {not json` line, then the stream ends.
    MalformedChunk,
    /// A well-formed stream with no content at all.
    Empty,
    /// HTTP 200, these text chunks, then the dialect's in-stream error (an OpenAI `error`
    /// chunk, an Anthropic `error` event, a Responses `response.failed`, a Bedrock exception
    /// frame) for HTTP-equivalent `code`. Non-streamed requests get the HTTP error itself.
    StreamError {
        code: u16,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        chunks: Vec<String>,
    },
    /// Send these text chunks, then close the socket with a TCP reset mid-body.
    ResetAfter {
        #[serde(default)]
        chunks: Vec<String>,
    },
    /// Streaming requests get HTTP 400 "streaming is not supported" without consuming this
    /// entry; the next non-streaming request consumes it and gets `then`.
    RejectStreaming { then: Box<Response> },
    /// For any HTTP API, not only completions: these bytes verbatim (a whole HTTP response,
    /// status line included, so it may be deliberately broken), then close; with
    /// `stall_secs` > 0 the connection stays open and silent that long instead. Answers the
    /// next request whatever its method and path.
    Raw {
        bytes: Vec<u8>,
        #[serde(default, skip_serializing_if = "is_zero")]
        stall_secs: u64,
    },
}

/// One tool call of a [`ResponseKind::ToolCalls`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptedCall {
    pub id: String,
    pub name: String,
    /// Raw argument text sent to the client (may be deliberately malformed). In JSON it may
    /// be written as a string or as an object (which is serialized compactly).
    #[serde(deserialize_with = "string_or_json")]
    pub arguments: String,
}

/// Token counts reported by the response.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScriptedUsage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    /// OpenAI `prompt_tokens_details.cached_tokens`; Anthropic `cache_read_input_tokens`.
    pub cached_tokens: u64,
    /// OpenAI `completion_tokens_details.reasoning_tokens` (Anthropic has no field).
    pub reasoning_tokens: u64,
}

impl Default for ScriptedUsage {
    fn default() -> Self {
        Self {
            prompt_tokens: 10,
            completion_tokens: 5,
            cached_tokens: 0,
            reasoning_tokens: 0,
        }
    }
}

/// The bytes of a fixed-length HTTP/1.1 response that closes the connection.
pub fn raw_http(status: u16, content_type: &str, extra: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "HTTP/1.1 {status} X\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n",
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// A script file could not be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    #[error("cannot read script {path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    #[error("invalid script JSON: {0}")]
    Parse(#[from] serde_json::Error),
}

/// Parse a script: a JSON array of responses, or `{"responses": [...]}`.
pub fn parse_script(json: &str) -> Result<Vec<Response>, ScriptError> {
    let value: serde_json::Value = serde_json::from_str(json)?;
    let list = match value {
        serde_json::Value::Object(mut map) => map
            .remove("responses")
            .unwrap_or(serde_json::Value::Array(Vec::new())),
        other => other,
    };
    Ok(serde_json::from_value(list)?)
}

/// Read and parse a script file.
pub fn load_script(path: &Path) -> Result<Vec<Response>, ScriptError> {
    let text = std::fs::read_to_string(path).map_err(|source| ScriptError::Read {
        path: path.display().to_string(),
        source,
    })?;
    parse_script(&text)
}

impl Response {
    fn of(kind: ResponseKind) -> Self {
        Self {
            kind,
            delay_ms_between_chunks: 0,
            usage: ScriptedUsage::default(),
        }
    }

    /// Streamed text, one SSE event per chunk.
    pub fn text<I, S>(chunks: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::of(ResponseKind::Text {
            chunks: strings(chunks),
            reasoning: Vec::new(),
        })
    }

    /// Tool calls with sequential indexes and no preceding text.
    pub fn tool_calls(calls: impl IntoIterator<Item = ScriptedCall>) -> Self {
        Self::of(ResponseKind::ToolCalls {
            text_before: None,
            calls: calls.into_iter().collect(),
            reuse_index_zero: false,
        })
    }

    /// A single tool call.
    pub fn tool_call(id: &str, name: &str, arguments: &str) -> Self {
        Self::tool_calls([ScriptedCall::new(id, name, arguments)])
    }

    /// HTTP error `code` with the default message for the endpoint.
    pub fn status(code: u16) -> Self {
        Self::of(ResponseKind::Status {
            code,
            retry_after: None,
            message: None,
            body: None,
        })
    }

    /// HTTP 429, with a `Retry-After: secs` header when given.
    pub fn rate_limited(retry_after: Option<u64>) -> Self {
        Self::of(ResponseKind::Status {
            code: 429,
            retry_after,
            message: Some("Rate limit reached; please retry later.".into()),
            body: None,
        })
    }

    /// HTTP 400 with a context-length message in the endpoint's error envelope.
    pub fn context_too_long() -> Self {
        Self::of(ResponseKind::Status {
            code: 400,
            retry_after: None,
            message: Some(CONTEXT_TOO_LONG.into()),
            body: None,
        })
    }

    pub fn reset() -> Self {
        Self::of(ResponseKind::Reset)
    }

    pub fn stall_after<I, S>(chunks: I, stall_secs: u64) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::of(ResponseKind::StallAfter {
            chunks: strings(chunks),
            stall_secs,
        })
    }

    /// An in-stream error equivalent to HTTP `code`, after `chunks` of text.
    pub fn stream_error<I, S>(code: u16, chunks: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::of(ResponseKind::StreamError {
            code,
            message: None,
            chunks: strings(chunks),
        })
    }

    /// Text chunks, then a TCP reset in the middle of the body.
    pub fn reset_after<I, S>(chunks: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::of(ResponseKind::ResetAfter {
            chunks: strings(chunks),
        })
    }

    /// These bytes verbatim, then close (see [`ResponseKind::Raw`]).
    pub fn raw(bytes: impl Into<Vec<u8>>) -> Self {
        Self::of(ResponseKind::Raw {
            bytes: bytes.into(),
            stall_secs: 0,
        })
    }

    /// These bytes verbatim, then a silent open connection for 30 s.
    pub fn raw_then_stall(bytes: impl Into<Vec<u8>>) -> Self {
        Self::of(ResponseKind::Raw {
            bytes: bytes.into(),
            stall_secs: 30,
        })
    }

    /// A whole fixed-length HTTP response (`Connection: close`) with `extra` headers, as
    /// [`Response::raw`]. The reason phrase is always `X`: clients read only the code.
    pub fn raw_http(
        status: u16,
        content_type: &str,
        extra: &[(&str, &str)],
        body: impl AsRef<[u8]>,
    ) -> Self {
        Self::raw(raw_http(status, content_type, extra, body.as_ref()))
    }

    /// [`Response::raw_http`] with a JSON body.
    pub fn raw_json(status: u16, body: &str) -> Self {
        Self::raw_http(status, "application/json", &[], body.as_bytes())
    }

    /// [`Response::raw_http`]: HTTP 200 with an SSE body sent in one piece.
    pub fn raw_sse(body: &str) -> Self {
        Self::raw_http(200, "text/event-stream", &[], body.as_bytes())
    }

    pub fn malformed_chunk() -> Self {
        Self::of(ResponseKind::MalformedChunk)
    }

    pub fn empty() -> Self {
        Self::of(ResponseKind::Empty)
    }

    pub fn reject_streaming(then: Response) -> Self {
        Self::of(ResponseKind::RejectStreaming {
            then: Box::new(then),
        })
    }

    /// Adds reasoning chunks (a `Text` response only; other kinds are returned unchanged).
    pub fn with_reasoning<I, S>(mut self, chunks: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        if let ResponseKind::Text { reasoning, .. } = &mut self.kind {
            *reasoning = strings(chunks);
        }
        self
    }

    /// Adds text before the calls (a `ToolCalls` response only).
    pub fn with_text_before(mut self, text: &str) -> Self {
        if let ResponseKind::ToolCalls { text_before, .. } = &mut self.kind {
            *text_before = Some(text.to_owned());
        }
        self
    }

    /// Every call uses index 0 with a fresh id (a `ToolCalls` response only).
    pub fn reusing_index_zero(mut self) -> Self {
        if let ResponseKind::ToolCalls {
            reuse_index_zero, ..
        } = &mut self.kind
        {
            *reuse_index_zero = true;
        }
        self
    }

    /// Sets the `Retry-After` seconds (a `Status` response only).
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        if let ResponseKind::Status { retry_after, .. } = &mut self.kind {
            *retry_after = Some(secs);
        }
        self
    }

    /// Sets the error message (a `Status` or `StreamError` response only).
    pub fn with_message(mut self, text: &str) -> Self {
        if let ResponseKind::Status { message, .. } | ResponseKind::StreamError { message, .. } =
            &mut self.kind
        {
            *message = Some(text.to_owned());
        }
        self
    }

    /// Sets the whole error body, sent as is instead of the endpoint's envelope (a `Status`
    /// response only): what a gateway that echoes the request's key answers.
    pub fn with_body(mut self, text: &str) -> Self {
        if let ResponseKind::Status { body, .. } = &mut self.kind {
            *body = Some(text.to_owned());
        }
        self
    }

    /// Sets the cached-token count reported in the usage.
    pub fn with_cached_tokens(mut self, cached: u64) -> Self {
        self.usage.cached_tokens = cached;
        self
    }

    /// Sets the reasoning-token count reported in the usage.
    pub fn with_reasoning_tokens(mut self, reasoning: u64) -> Self {
        self.usage.reasoning_tokens = reasoning;
        self
    }

    pub fn with_delay_ms(mut self, ms: u64) -> Self {
        self.delay_ms_between_chunks = ms;
        self
    }

    pub fn with_usage(mut self, prompt_tokens: u64, completion_tokens: u64) -> Self {
        self.usage.prompt_tokens = prompt_tokens;
        self.usage.completion_tokens = completion_tokens;
        self
    }
}

/// The 400 message used by [`Response::context_too_long`]; it carries both OpenAI's and
/// Anthropic's wording so clients matching either phrase classify it.
pub const CONTEXT_TOO_LONG: &str = "This model's maximum context length is 128000 tokens. \
However, your messages resulted in 200000 tokens (prompt is too long: 200000 tokens > 128000 maximum).";

impl ScriptedCall {
    pub fn new(id: &str, name: &str, arguments: &str) -> Self {
        Self {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        }
    }

    /// A `terminal` tool call running `command`.
    pub fn terminal(id: &str, command: &str) -> Self {
        let arguments = serde_json::json!({ "command": command }).to_string();
        Self::new(id, "terminal", &arguments)
    }
}

fn strings<I, S>(items: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    items.into_iter().map(Into::into).collect()
}

fn string_or_json<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        other => Ok(other.to_string()),
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_false(b: &bool) -> bool {
    !*b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_through_json() {
        let script = vec![
            Response::text(["a", "b"]).with_reasoning(["hm"]),
            Response::tool_calls([ScriptedCall::terminal("c1", "ls")]).reusing_index_zero(),
            Response::rate_limited(Some(3)),
            Response::reject_streaming(Response::text(["x"]).with_delay_ms(5)),
            Response::stream_error(429, ["so far"]).with_message("slow down"),
            Response::reset_after(["half"]),
        ];
        let json = serde_json::to_string(&script).unwrap();
        assert_eq!(parse_script(&json).unwrap(), script);
    }

    #[test]
    fn arguments_may_be_an_object_and_usage_defaults() {
        let s = r#"{"responses":[{"type":"tool_calls","calls":[
            {"id":"a","name":"terminal","arguments":{"command":"ls"}}]}]}"#;
        let parsed = parse_script(s).unwrap();
        match &parsed[0].kind {
            ResponseKind::ToolCalls { calls, .. } => {
                assert_eq!(calls[0].arguments, r#"{"command":"ls"}"#);
            }
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(parsed[0].usage.prompt_tokens, 10);
    }

    #[test]
    fn bad_entry_is_an_error() {
        assert!(parse_script(r#"[{"type":"nope"}]"#).is_err());
    }
}
