//! OpenAI Responses rendering: the typed SSE event stream (`response.created`,
//! `response.output_item.added`/`.done`, `response.output_text.delta`,
//! `response.function_call_arguments.delta`/`.done`, `response.reasoning_summary_text.delta`,
//! `response.completed`, `response.failed`) and the non-streamed `response` object.
//!
//! Handles content kinds only; HTTP errors and resets are `reply`'s job. Invariants: every
//! event has `type` and a growing `sequence_number`; output indexes are 0,1,2… in order
//! (reasoning item, then message, then function calls); every added item is done in a
//! completed stream, and `response.completed` repeats the finished items. Reasoning items
//! carry `encrypted_content` `enc-scripted-<seq>-<n>` so replay can be checked.

use std::time::Duration;

use serde_json::Value;
use serde_json::json;

use super::reply::JSON;
use super::reply::Reply;
use super::reply::RequestCtx;
use super::reply::SSE;
use super::reply::StreamEnd;
use super::reply::error_type;
use super::reply::joined;
use super::reply::split_fragments;
use super::script::Response;
use super::script::ResponseKind;
use super::script::ScriptedCall;
use super::script::ScriptedUsage;

const ARG_FRAGMENTS: usize = 3;

struct Events<'a> {
    ctx: &'a RequestCtx,
    events: Vec<String>,
    output: Vec<Value>,
}

impl Events<'_> {
    fn push(&mut self, kind: &str, mut data: Value) {
        data["type"] = json!(kind);
        data["sequence_number"] = json!(self.events.len());
        self.events.push(format!("event: {kind}\ndata: {data}\n\n"));
    }

    fn next_index(&self) -> usize {
        self.output.len()
    }

    fn added(&mut self, item: &Value) {
        let index = self.next_index();
        self.push(
            "response.output_item.added",
            json!({"output_index": index, "item": item}),
        );
    }

    fn done(&mut self, item: Value) {
        let index = self.next_index();
        self.push(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
        );
        self.output.push(item);
    }

    fn reasoning(&mut self, parts: &[String]) {
        let n = self.next_index();
        let id = format!("rs_scripted_{}_{n}", self.ctx.seq);
        self.added(&json!({"id": id, "type": "reasoning", "summary": []}));
        for part in parts {
            self.push(
                "response.reasoning_summary_text.delta",
                json!({"item_id": id, "output_index": n, "summary_index": 0, "delta": part}),
            );
        }
        let text = joined(parts).unwrap_or_default();
        self.done(reasoning_item(self.ctx, n, &text));
    }

    fn message(&mut self, chunks: &[String], complete: bool) {
        let n = self.next_index();
        let id = format!("msg_scripted_{}_{n}", self.ctx.seq);
        self.added(
            &json!({"id": id, "type": "message", "status": "in_progress",
            "role": "assistant", "content": []}),
        );
        for chunk in chunks {
            self.push(
                "response.output_text.delta",
                json!({"item_id": id, "output_index": n, "content_index": 0, "delta": chunk}),
            );
        }
        if complete {
            self.done(message_item(&id, &chunks.concat()));
        }
    }

    fn call(&mut self, call: &ScriptedCall) {
        let n = self.next_index();
        let id = format!("fc_scripted_{}_{n}", self.ctx.seq);
        self.added(
            &json!({"id": id, "type": "function_call", "status": "in_progress",
            "call_id": call.id, "name": call.name, "arguments": ""}),
        );
        for frag in split_fragments(&call.arguments, ARG_FRAGMENTS) {
            self.push(
                "response.function_call_arguments.delta",
                json!({"item_id": id, "output_index": n, "delta": frag}),
            );
        }
        self.push(
            "response.function_call_arguments.done",
            json!({"item_id": id, "output_index": n, "arguments": call.arguments}),
        );
        self.done(call_item(&id, call));
    }
}

/// A streamed answer.
pub fn stream(resp: &Response, ctx: &RequestCtx) -> Reply {
    let mut e = Events {
        ctx,
        events: Vec::new(),
        output: Vec::new(),
    };
    e.push(
        "response.created",
        json!({"response": response_object(ctx, "in_progress", &[], None)}),
    );
    let mut end = StreamEnd::Complete;
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            if !reasoning.is_empty() {
                e.reasoning(reasoning);
            }
            e.message(chunks, true);
            completed(&mut e, &resp.usage);
        }
        ResponseKind::ToolCalls {
            text_before, calls, ..
        } => {
            if let Some(text) = text_before {
                e.message(std::slice::from_ref(text), true);
            }
            for call in calls {
                e.call(call);
            }
            completed(&mut e, &resp.usage);
        }
        ResponseKind::StallAfter { chunks, stall_secs } => {
            e.message(chunks, false);
            end = StreamEnd::StallThenDrop(Duration::from_secs(*stall_secs));
        }
        ResponseKind::ResetAfter { chunks } => {
            e.message(chunks, false);
            end = StreamEnd::Reset;
        }
        ResponseKind::MalformedChunk => {
            e.message(&["partial".to_string()], false);
            e.events
                .push("event: response.output_text.delta\ndata: {not json\n\n".into());
        }
        ResponseKind::StreamError {
            code,
            message,
            chunks,
        } => {
            if !chunks.is_empty() {
                e.message(chunks, true);
            }
            let text = message
                .clone()
                .unwrap_or_else(|| format!("scripted {code} error"));
            let error = json!({"code": error_code(*code, &text), "message": text});
            let failed = response_object(ctx, "failed", &e.output, Some(error));
            e.push("response.failed", json!({"response": failed}));
        }
        // Empty, plus kinds `reply::render` never hands us: no output items at all.
        _ => completed(&mut e, &resp.usage),
    }
    Reply::Stream {
        content_type: SSE,
        events: e.events,
        delay: Duration::from_millis(resp.delay_ms_between_chunks),
        end,
    }
}

fn completed(e: &mut Events<'_>, usage: &ScriptedUsage) {
    let mut done = response_object(e.ctx, "completed", &e.output, None);
    done["usage"] = usage_json(usage);
    e.push("response.completed", json!({"response": done}));
}

/// A non-streamed `response` object.
pub fn json(resp: &Response, ctx: &RequestCtx) -> Reply {
    let mut output = Vec::new();
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            if let Some(text) = joined(reasoning) {
                output.push(reasoning_item(ctx, 0, &text));
            }
            let id = format!("msg_scripted_{}_{}", ctx.seq, output.len());
            output.push(message_item(&id, &chunks.concat()));
        }
        ResponseKind::ToolCalls {
            text_before, calls, ..
        } => {
            if let Some(text) = text_before {
                output.push(message_item(&format!("msg_scripted_{}_0", ctx.seq), text));
            }
            for call in calls {
                let id = format!("fc_scripted_{}_{}", ctx.seq, output.len());
                output.push(call_item(&id, call));
            }
        }
        _ => {}
    }
    let mut body = response_object(ctx, "completed", &output, None);
    body["usage"] = usage_json(&resp.usage);
    Reply::Fixed {
        status: 200,
        headers: Vec::new(),
        content_type: JSON,
        body: body.to_string(),
    }
}

fn response_object(
    ctx: &RequestCtx,
    status: &str,
    output: &[Value],
    error: Option<Value>,
) -> Value {
    json!({
        "id": format!("resp_scripted_{}", ctx.seq),
        "object": "response",
        "created_at": 1_700_000_000,
        "status": status,
        "model": ctx.model,
        "output": output,
        "error": error,
        "incomplete_details": null,
        "usage": null,
    })
}

fn reasoning_item(ctx: &RequestCtx, n: usize, text: &str) -> Value {
    json!({
        "id": format!("rs_scripted_{}_{n}", ctx.seq),
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": text}],
        "encrypted_content": format!("enc-scripted-{}-{n}", ctx.seq),
    })
}

fn message_item(id: &str, text: &str) -> Value {
    json!({"id": id, "type": "message", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

fn call_item(id: &str, call: &ScriptedCall) -> Value {
    json!({"id": id, "type": "function_call", "status": "completed",
        "call_id": call.id, "name": call.name, "arguments": call.arguments})
}

/// The Responses error code for an HTTP-equivalent status.
fn error_code(code: u16, message: &str) -> &'static str {
    match error_type(code, message) {
        "context_length_exceeded" => "context_length_exceeded",
        "rate_limit_error" => "rate_limit_exceeded",
        "authentication_error" => "invalid_api_key",
        "invalid_request_error" | "not_found_error" | "permission_error" => "invalid_prompt",
        _ => "server_error",
    }
}

fn usage_json(u: &ScriptedUsage) -> Value {
    json!({
        "input_tokens": u.prompt_tokens,
        "input_tokens_details": {"cached_tokens": u.cached_tokens},
        "output_tokens": u.completion_tokens,
        "output_tokens_details": {"reasoning_tokens": u.reasoning_tokens},
        "total_tokens": u.prompt_tokens + u.completion_tokens,
    })
}

#[cfg(test)]
mod tests {
    use super::super::reply::Dialect;
    use super::*;

    fn events(resp: &Response) -> Vec<Value> {
        let ctx = RequestCtx::from_body(Dialect::Responses, &json!({"stream": true}), 3);
        let Reply::Stream { events, .. } = stream(resp, &ctx) else {
            panic!("not a stream");
        };
        events
            .iter()
            .map(|ev| {
                let (name, data) = ev.split_once('\n').unwrap();
                let data: Value =
                    serde_json::from_str(data.strip_prefix("data: ").unwrap().trim_end()).unwrap();
                assert_eq!(name.strip_prefix("event: ").unwrap(), data["type"]);
                data
            })
            .collect()
    }

    #[test]
    fn reasoning_then_text_then_completed_with_usage() {
        let ev = events(&Response::text(["Hel", "lo"]).with_reasoning(["hmm"]));
        let types: Vec<&str> = ev.iter().map(|e| e["type"].as_str().unwrap()).collect();
        assert_eq!(
            types,
            [
                "response.created",
                "response.output_item.added",
                "response.reasoning_summary_text.delta",
                "response.output_item.done",
                "response.output_item.added",
                "response.output_text.delta",
                "response.output_text.delta",
                "response.output_item.done",
                "response.completed"
            ]
        );
        assert_eq!(ev[3]["item"]["encrypted_content"], "enc-scripted-3-0");
        assert_eq!(ev[5]["output_index"], 1);
        let done = &ev[8]["response"];
        assert_eq!(done["output"].as_array().unwrap().len(), 2);
        assert_eq!(done["usage"]["input_tokens"], 10);
    }

    #[test]
    fn calls_reassemble_and_failures_carry_a_code() {
        let call = ScriptedCall::terminal("call_1", "ls -la");
        let ev = events(&Response::tool_calls([call.clone()]));
        let args: String = ev
            .iter()
            .filter(|e| e["type"] == "response.function_call_arguments.delta")
            .map(|e| e["delta"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(args, call.arguments);
        let ev = events(&Response::stream_error(429, Vec::<String>::new()));
        let last = ev.last().unwrap();
        assert_eq!(last["type"], "response.failed");
        assert_eq!(last["response"]["error"]["code"], "rate_limit_exceeded");
    }
}
