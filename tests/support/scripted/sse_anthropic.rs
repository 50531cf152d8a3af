//! Anthropic Messages rendering: the named-event SSE stream (`message_start`, `ping`,
//! `content_block_*`, `message_delta`, `message_stop`) and the non-streamed `message` JSON.
//!
//! Handles content kinds only; HTTP errors and resets are `reply`'s job. Invariants: content
//! block indexes are 0,1,2… in order (thinking, then text, then tool_use blocks); every
//! started block is stopped in a completed stream; `reuse_index_zero` is an OpenAI quirk and
//! is ignored here.

use std::time::Duration;

use serde_json::Value;
use serde_json::json;

use super::reply::JSON;
use super::reply::Reply;
use super::reply::RequestCtx;
use super::reply::SSE;
use super::reply::StreamEnd;
use super::reply::joined;
use super::reply::split_fragments;
use super::script::Response;
use super::script::ResponseKind;
use super::script::ScriptedUsage;

const ARG_FRAGMENTS: usize = 3;
const SIGNATURE: &str = "scripted-signature";

struct Events {
    events: Vec<String>,
    next_index: usize,
}

impl Events {
    fn push(&mut self, name: &str, data: Value) {
        self.events.push(format!("event: {name}\ndata: {data}\n\n"));
    }

    /// Start a content block and return its index.
    fn start_block(&mut self, block: Value) -> usize {
        let index = self.next_index;
        self.next_index += 1;
        self.push(
            "content_block_start",
            json!({"type": "content_block_start", "index": index, "content_block": block}),
        );
        index
    }

    fn delta(&mut self, index: usize, delta: Value) {
        self.push(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        );
    }

    fn stop_block(&mut self, index: usize) {
        self.push(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        );
    }

    fn text_block(&mut self, chunks: &[String]) {
        let i = self.start_block(json!({"type": "text", "text": ""}));
        for t in chunks {
            self.delta(i, json!({"type": "text_delta", "text": t}));
        }
        self.stop_block(i);
    }

    fn finish(&mut self, stop_reason: &str, usage: &ScriptedUsage) {
        self.push(
            "message_delta",
            json!({
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": null},
                "usage": {"output_tokens": usage.completion_tokens},
            }),
        );
        self.push("message_stop", json!({"type": "message_stop"}));
    }
}

/// A streamed answer.
pub fn stream(resp: &Response, ctx: &RequestCtx) -> Reply {
    let mut e = Events {
        events: Vec::new(),
        next_index: 0,
    };
    let mut start = message(ctx, &resp.usage);
    start["usage"]["output_tokens"] = json!(1);
    e.push(
        "message_start",
        json!({"type": "message_start", "message": start}),
    );
    e.push("ping", json!({"type": "ping"}));
    let mut end = StreamEnd::Complete;
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            if !reasoning.is_empty() {
                let i = e.start_block(json!({"type": "thinking", "thinking": "", "signature": ""}));
                for r in reasoning {
                    e.delta(i, json!({"type": "thinking_delta", "thinking": r}));
                }
                e.delta(
                    i,
                    json!({"type": "signature_delta", "signature": SIGNATURE}),
                );
                e.stop_block(i);
            }
            e.text_block(chunks);
            e.finish("end_turn", &resp.usage);
        }
        ResponseKind::ToolCalls {
            text_before, calls, ..
        } => {
            if let Some(text) = text_before {
                e.text_block(std::slice::from_ref(text));
            }
            for call in calls {
                let i = e.start_block(
                    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": {}}),
                );
                for frag in split_fragments(&call.arguments, ARG_FRAGMENTS) {
                    e.delta(i, json!({"type": "input_json_delta", "partial_json": frag}));
                }
                e.stop_block(i);
            }
            e.finish("tool_use", &resp.usage);
        }
        ResponseKind::StallAfter { chunks, stall_secs } => {
            let i = e.start_block(json!({"type": "text", "text": ""}));
            for t in chunks {
                e.delta(i, json!({"type": "text_delta", "text": t}));
            }
            end = StreamEnd::StallThenDrop(Duration::from_secs(*stall_secs));
        }
        ResponseKind::StreamError {
            code,
            message,
            chunks,
        } => {
            if !chunks.is_empty() {
                let i = e.start_block(json!({"type": "text", "text": ""}));
                for t in chunks {
                    e.delta(i, json!({"type": "text_delta", "text": t}));
                }
            }
            let text = message
                .clone()
                .unwrap_or_else(|| format!("scripted {code} error"));
            let kind = match super::reply::error_type(*code, &text) {
                "context_length_exceeded" => "invalid_request_error",
                other => other,
            };
            e.push(
                "error",
                json!({"type": "error", "error": {"type": kind, "message": text}}),
            );
        }
        ResponseKind::ResetAfter { chunks } => {
            let i = e.start_block(json!({"type": "text", "text": ""}));
            for t in chunks {
                e.delta(i, json!({"type": "text_delta", "text": t}));
            }
            end = StreamEnd::Reset;
        }
        ResponseKind::MalformedChunk => {
            let i = e.start_block(json!({"type": "text", "text": ""}));
            e.delta(i, json!({"type": "text_delta", "text": "partial"}));
            e.events
                .push("event: content_block_delta\ndata: {not json\n\n".into());
        }
        // Empty, plus kinds `reply::render` never hands us: no content blocks at all.
        _ => e.finish("end_turn", &resp.usage),
    }
    Reply::Stream {
        content_type: SSE,
        events: e.events,
        delay: Duration::from_millis(resp.delay_ms_between_chunks),
        end,
    }
}

/// A non-streamed `message` object.
pub fn json(resp: &Response, ctx: &RequestCtx) -> Reply {
    let mut body = message(ctx, &resp.usage);
    let mut content = Vec::new();
    let mut stop = "end_turn";
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            if let Some(r) = joined(reasoning) {
                content.push(json!({"type": "thinking", "thinking": r, "signature": SIGNATURE}));
            }
            content.push(json!({"type": "text", "text": chunks.concat()}));
        }
        ResponseKind::ToolCalls {
            text_before, calls, ..
        } => {
            if let Some(text) = text_before {
                content.push(json!({"type": "text", "text": text}));
            }
            for call in calls {
                // The real API always sends an object; a deliberately malformed script
                // argument string is passed through as a string so the test still sees it.
                let input = serde_json::from_str::<Value>(&call.arguments)
                    .unwrap_or_else(|_| Value::String(call.arguments.clone()));
                content.push(
                    json!({"type": "tool_use", "id": call.id, "name": call.name, "input": input}),
                );
            }
            stop = "tool_use";
        }
        _ => {}
    }
    body["content"] = json!(content);
    body["stop_reason"] = json!(stop);
    Reply::Fixed {
        status: 200,
        headers: Vec::new(),
        content_type: JSON,
        body: body.to_string(),
    }
}

/// The `message` object without content (as in `message_start`).
fn message(ctx: &RequestCtx, usage: &ScriptedUsage) -> Value {
    json!({
        "id": format!("msg_scripted_{}", ctx.seq),
        "type": "message",
        "role": "assistant",
        "model": ctx.model,
        "content": [],
        "stop_reason": null,
        "stop_sequence": null,
        "usage": {
            "input_tokens": usage.prompt_tokens,
            "output_tokens": usage.completion_tokens,
            "cache_read_input_tokens": usage.cached_tokens,
            "cache_creation_input_tokens": 0,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::super::reply::Dialect;
    use super::super::script::ScriptedCall;
    use super::*;

    fn names_and_data(resp: &Response) -> Vec<(String, Value)> {
        let ctx = RequestCtx::from_body(Dialect::Anthropic, &json!({"stream": true}), 2);
        let Reply::Stream { events, .. } = stream(resp, &ctx) else {
            panic!("not a stream");
        };
        events
            .iter()
            .map(|ev| {
                let (name, data) = ev.split_once('\n').unwrap();
                let name = name.strip_prefix("event: ").unwrap().to_owned();
                let data = data.strip_prefix("data: ").unwrap().trim_end();
                (name, serde_json::from_str(data).unwrap())
            })
            .collect()
    }

    #[test]
    fn thinking_then_text() {
        let ev = names_and_data(&Response::text(["Hi"]).with_reasoning(["hmm"]));
        let names: Vec<&str> = ev.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "ping",
                "content_block_start",
                "content_block_delta",
                "content_block_delta",
                "content_block_stop",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        assert_eq!(ev[3].1["delta"]["thinking"], "hmm");
        assert_eq!(ev[7].1["index"], 1);
        assert_eq!(ev[7].1["delta"]["text"], "Hi");
        assert_eq!(ev[9].1["delta"]["stop_reason"], "end_turn");
    }

    #[test]
    fn tool_use_fragments_reassemble() {
        let call = ScriptedCall::terminal("toolu_1", "echo hi");
        let ev = names_and_data(&Response::tool_calls([call.clone()]));
        let json: String = ev
            .iter()
            .filter_map(|(_, d)| d["delta"]["partial_json"].as_str().map(str::to_owned))
            .collect();
        assert_eq!(json, call.arguments);
        assert!(
            ev.iter()
                .any(|(_, d)| d["delta"]["stop_reason"] == "tool_use")
        );
    }
}
