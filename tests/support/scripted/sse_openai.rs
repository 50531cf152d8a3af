//! OpenAI chat-completions rendering: `chat.completion.chunk` SSE streams and
//! `chat.completion` JSON bodies, in the exact shapes OpenAI sends.
//!
//! Handles content kinds only (text, tool calls, stall, malformed, empty); HTTP errors and
//! resets are `reply`'s job. Invariants: every stream starts with a role delta; a completed
//! stream ends with a finish_reason chunk, the usage chunk when `include_usage` was asked
//! for, then `data: [DONE]`.

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

/// `created` timestamp in every object; fixed so snapshots are stable.
const CREATED: u64 = 1_700_000_000;
/// How many deltas a tool call's arguments are split into (fewer when short).
const ARG_FRAGMENTS: usize = 3;

struct Chunks<'a> {
    ctx: &'a RequestCtx,
    events: Vec<String>,
}

impl Chunks<'_> {
    fn push(&mut self, delta: Value, finish_reason: Option<&str>) {
        let chunk = json!({
            "id": id(self.ctx),
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": self.ctx.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}],
        });
        self.events.push(format!("data: {chunk}\n\n"));
    }

    fn finish(&mut self, reason: &str, usage: &ScriptedUsage) {
        self.push(json!({}), Some(reason));
        if self.ctx.include_usage {
            let chunk = json!({
                "id": id(self.ctx),
                "object": "chat.completion.chunk",
                "created": CREATED,
                "model": self.ctx.model,
                "choices": [],
                "usage": usage_json(usage),
            });
            self.events.push(format!("data: {chunk}\n\n"));
        }
        self.events.push("data: [DONE]\n\n".into());
    }
}

/// A streamed answer.
pub fn stream(resp: &Response, ctx: &RequestCtx) -> Reply {
    let mut c = Chunks {
        ctx,
        events: Vec::new(),
    };
    c.push(json!({"role": "assistant", "content": ""}), None);
    let mut end = StreamEnd::Complete;
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            for r in reasoning {
                c.push(json!({"reasoning_content": r}), None);
            }
            for t in chunks {
                c.push(json!({"content": t}), None);
            }
            c.finish("stop", &resp.usage);
        }
        ResponseKind::ToolCalls {
            text_before,
            calls,
            reuse_index_zero,
        } => {
            if let Some(text) = text_before {
                c.push(json!({"content": text}), None);
            }
            for (i, call) in calls.iter().enumerate() {
                let index = if *reuse_index_zero { 0 } else { i };
                c.push(
                    json!({"tool_calls": [{
                        "index": index,
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": ""},
                    }]}),
                    None,
                );
                for frag in split_fragments(&call.arguments, ARG_FRAGMENTS) {
                    c.push(
                        json!({"tool_calls": [{"index": index, "function": {"arguments": frag}}]}),
                        None,
                    );
                }
            }
            c.finish("tool_calls", &resp.usage);
        }
        ResponseKind::StallAfter { chunks, stall_secs } => {
            for t in chunks {
                c.push(json!({"content": t}), None);
            }
            end = StreamEnd::StallThenDrop(Duration::from_secs(*stall_secs));
        }
        ResponseKind::MalformedChunk => {
            c.push(json!({"content": "partial"}), None);
            c.events.push("data: {not json\n\n".into());
        }
        ResponseKind::StreamError {
            code,
            message,
            chunks,
        } => {
            for t in chunks {
                c.push(json!({"content": t}), None);
            }
            // OpenRouter's mid-stream error chunk.
            let text = message
                .clone()
                .unwrap_or_else(|| format!("scripted {code} error"));
            let error = json!({"error": {"code": code, "message": text}});
            c.events.push(format!("data: {error}\n\n"));
        }
        ResponseKind::ResetAfter { chunks } => {
            for t in chunks {
                c.push(json!({"content": t}), None);
            }
            end = StreamEnd::Reset;
        }
        // Empty, plus kinds `reply::render` never hands us: a contentless but valid stream.
        _ => c.finish("stop", &resp.usage),
    }
    Reply::Stream {
        content_type: SSE,
        events: c.events,
        delay: Duration::from_millis(resp.delay_ms_between_chunks),
        end,
    }
}

/// A non-streamed `chat.completion` object.
pub fn json(resp: &Response, ctx: &RequestCtx) -> Reply {
    let mut message = json!({"role": "assistant", "content": ""});
    let mut finish = "stop";
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            message["content"] = json!(chunks.concat());
            if let Some(r) = joined(reasoning) {
                message["reasoning_content"] = json!(r);
            }
        }
        ResponseKind::ToolCalls {
            text_before, calls, ..
        } => {
            message["content"] = json!(text_before);
            let calls: Vec<Value> = calls
                .iter()
                .map(|call| {
                    json!({
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": call.arguments},
                    })
                })
                .collect();
            message["tool_calls"] = json!(calls);
            finish = "tool_calls";
        }
        _ => {}
    }
    let body = json!({
        "id": id(ctx),
        "object": "chat.completion",
        "created": CREATED,
        "model": ctx.model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage_json(&resp.usage),
    });
    Reply::Fixed {
        status: 200,
        headers: Vec::new(),
        content_type: JSON,
        body: body.to_string(),
    }
}

fn id(ctx: &RequestCtx) -> String {
    format!("chatcmpl-scripted-{}", ctx.seq)
}

fn usage_json(u: &ScriptedUsage) -> Value {
    json!({
        "prompt_tokens": u.prompt_tokens,
        "completion_tokens": u.completion_tokens,
        "total_tokens": u.prompt_tokens + u.completion_tokens,
        "prompt_tokens_details": {"cached_tokens": u.cached_tokens},
        "completion_tokens_details": {"reasoning_tokens": u.reasoning_tokens},
    })
}

#[cfg(test)]
mod tests {
    use super::super::reply::Dialect;
    use super::super::script::ScriptedCall;
    use super::*;

    fn events(resp: &Response, include_usage: bool) -> Vec<String> {
        let body = json!({"model": "m", "stream": true,
            "stream_options": {"include_usage": include_usage}});
        match stream(resp, &RequestCtx::from_body(Dialect::OpenAi, &body, 4)) {
            Reply::Stream { events, .. } => events,
            other => panic!("not a stream: {other:?}"),
        }
    }

    fn data(event: &str) -> Value {
        let payload = event.strip_prefix("data: ").unwrap().trim_end();
        serde_json::from_str(payload).unwrap()
    }

    #[test]
    fn text_stream_shape() {
        let ev = events(&Response::text(["Hel", "lo"]), true);
        assert_eq!(ev.len(), 6, "{ev:#?}");
        assert_eq!(data(&ev[0])["choices"][0]["delta"]["role"], "assistant");
        assert_eq!(data(&ev[1])["choices"][0]["delta"]["content"], "Hel");
        assert_eq!(data(&ev[3])["choices"][0]["finish_reason"], "stop");
        assert_eq!(data(&ev[4])["usage"]["total_tokens"], 15);
        assert_eq!(data(&ev[4])["choices"], json!([]));
        assert_eq!(ev[5], "data: [DONE]\n\n");
        assert_eq!(data(&ev[1])["id"], "chatcmpl-scripted-4");
    }

    #[test]
    fn no_usage_chunk_unless_asked() {
        let ev = events(&Response::text(["x"]), false);
        assert!(ev.iter().all(|e| !e.contains("\"usage\"")));
    }

    #[test]
    fn reused_index_zero_gives_new_ids() {
        let resp = Response::tool_calls([
            ScriptedCall::terminal("a", "ls"),
            ScriptedCall::terminal("b", "pwd"),
        ])
        .reusing_index_zero();
        let starts: Vec<Value> = events(&resp, false)
            .iter()
            .filter(|e| e.contains("\"id\":\"a\"") || e.contains("\"id\":\"b\""))
            .map(|e| data(e)["choices"][0]["delta"]["tool_calls"][0].clone())
            .collect();
        assert_eq!(starts.len(), 2);
        assert!(starts.iter().all(|s| s["index"] == 0));
    }
}
