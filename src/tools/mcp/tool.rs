//! `McpTool`: one tool of an MCP server, offered to the model as `mcp_<server>_<tool>` in
//! toolset `mcp-<server>` with the server's own description and (normalised) JSON schema.
//!
//! A call goes through the server's `ServerLink`, with the server's `timeout` and the turn's
//! cancellation; whatever happens, the model gets a readable result naming the server.

use std::sync::Arc;

use async_trait::async_trait;
use rmcp::RoleClient;
use rmcp::model::CallToolRequest;
use rmcp::model::CallToolRequestParams;
use rmcp::model::CallToolResult;
use rmcp::model::CancelledNotificationParam;
use rmcp::model::ClientRequest;
use rmcp::model::RequestId;
use rmcp::model::ServerResult;
use rmcp::service::Peer;
use rmcp::service::PeerRequestOptions;
use rmcp::service::ServiceError;
use serde_json::Value;

use super::link::ServerLink;
use super::result::MediaSink;
use super::result::render_call_result;
use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;

pub struct McpTool {
    link: Arc<ServerLink>,
    /// `mcp_<server>_<tool>`.
    registered: String,
    /// The server's own name for it.
    remote: String,
    description: String,
    parameters: Value,
}

impl McpTool {
    pub fn new(link: &Arc<ServerLink>, tool: &rmcp::model::Tool) -> Self {
        let remote = tool.name.to_string();
        let description = tool
            .description
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| format!("MCP tool {remote} from {}", link.name));
        Self {
            link: Arc::clone(link),
            registered: link.tool_name(&remote),
            remote,
            description,
            parameters: normalize_schema(Value::Object((*tool.input_schema).clone())),
        }
    }
}

#[async_trait]
impl Tool for McpTool {
    fn name(&self) -> &str {
        &self.registered
    }

    fn toolset(&self) -> &str {
        &self.link.toolset
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.registered.clone(),
            description: self.description.clone(),
            parameters: self.parameters.clone(),
        }
    }

    fn concurrency(&self) -> Concurrency {
        self.link.concurrency
    }

    fn preview(&self, args: &Value) -> String {
        preview_args(args)
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> ToolOutput {
        let arguments = match args {
            Value::Object(map) => Some(map),
            Value::Null => None,
            other => {
                return ToolOutput::error(format!(
                    "{} takes an object of arguments, not {other}",
                    self.registered
                ));
            }
        };
        let peer = match self.link.peer() {
            Ok(peer) => peer,
            Err(why) => return ToolOutput::error(why.to_string()),
        };
        let mut params = CallToolRequestParams::new(self.remote.clone());
        params.arguments = arguments;
        let timeout = self.link.call_timeout;
        let started = std::time::Instant::now();
        let what = format!("the call to {}", self.remote);
        tokio::select! {
            () = ctx.cancel.cancelled() => ToolOutput::cancelled(format!("{} was interrupted", self.registered)),
            answer = tokio::time::timeout(timeout, self.call_with_progress(&peer, params, ctx)) => match answer {
                Ok(Ok(result)) => render_call_result(
                    &result,
                    &MediaSink { dir: &self.link.media_dir, prefix: &self.registered },
                    &self.link.tool_name("read_resource"),
                    ctx.limits.max_output_bytes,
                ),
                Ok(Err(err)) => ToolOutput::error(self.link.request_failed(&what, err).to_string()),
                Err(_) => ToolOutput::error(format!(
                    "MCP call timed out after {:.1}s (configured timeout: {:.1}s; mcp_servers.{}.timeout)",
                    started.elapsed().as_secs_f64(),
                    timeout.as_secs_f64(),
                    self.link.name
                )),
            },
        }
    }
}

impl McpTool {
    /// `tools/call`, with the server's progress notifications shown on the call's cell. Like
    /// the SDK's `call_tool`, an abandoned call (interrupt, timeout) tells the server
    /// `notifications/cancelled`.
    async fn call_with_progress(
        &self,
        peer: &Peer<RoleClient>,
        params: CallToolRequestParams,
        ctx: &ToolContext,
    ) -> Result<CallToolResult, ServiceError> {
        let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
        let handle = peer
            .send_cancellable_request(request, PeerRequestOptions::no_options())
            .await?;
        let _route = self.link.progress.register(
            &handle.progress_token,
            Arc::clone(&ctx.host),
            &ctx.call_id,
        );
        let mut abandoned = Abandoned {
            peer: peer.clone(),
            id: Some(handle.id.clone()),
        };
        let answer = handle.await_response().await;
        abandoned.id = None;
        match answer? {
            ServerResult::CallToolResult(result) => Ok(result),
            _ => Err(ServiceError::UnexpectedResponse),
        }
    }
}

/// Tells the server a call was given up on, when dropped before its answer came.
struct Abandoned {
    peer: Peer<RoleClient>,
    id: Option<RequestId>,
}

impl Drop for Abandoned {
    fn drop(&mut self) {
        let Some(id) = self.id.take() else {
            return;
        };
        let peer = self.peer.clone();
        let reason = Some("the call was interrupted in hermes".to_string());
        tokio::spawn(async move {
            let _ = peer
                .notify_cancelled(CancelledNotificationParam::new(Some(id), reason))
                .await;
        });
    }
}

/// One line for the tool cell: the arguments as compact JSON, shortened.
pub fn preview_args(args: &Value) -> String {
    match args {
        Value::Object(map) if map.is_empty() => String::new(),
        Value::Null => String::new(),
        other => super::clip(&other.to_string(), 80),
    }
}

/// Makes a server's input schema acceptable to every provider: always an object schema with
/// `properties`, legacy `definitions` renamed `$defs`, `required` pruned to real properties.
pub fn normalize_schema(schema: Value) -> Value {
    let Value::Object(mut map) = schema else {
        return serde_json::json!({"type": "object", "properties": {}});
    };
    if map.is_empty() {
        return serde_json::json!({"type": "object", "properties": {}});
    }
    // Meta keywords some providers reject in tool parameters.
    map.remove("$schema");
    map.remove("$id");
    if let Some(definitions) = map.remove("definitions") {
        map.entry("$defs").or_insert(definitions);
    }
    map.entry("type").or_insert(Value::String("object".into()));
    if map.get("type").and_then(Value::as_str) == Some("object") {
        map.entry("properties")
            .or_insert(Value::Object(Default::default()));
    }
    let names: Vec<String> = map
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default();
    if let Some(Value::Array(required)) = map.get_mut("required") {
        required.retain(|r| r.as_str().is_some_and(|r| names.iter().any(|n| n == r)));
        if required.is_empty() {
            map.remove("required");
        }
    }
    let text = Value::Object(map).to_string();
    // `#/definitions/…` references follow the rename.
    serde_json::from_str(&text.replace("\"#/definitions/", "\"#/$defs/"))
        .unwrap_or_else(|_| serde_json::json!({"type": "object", "properties": {}}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn empty_and_typeless_schemas_become_object_schemas() {
        assert_eq!(
            normalize_schema(json!({})),
            json!({"type": "object", "properties": {}})
        );
        assert_eq!(
            normalize_schema(
                json!({"properties": {"a": {"type": "string"}}, "required": ["a", "ghost"]})
            ),
            json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
        );
        assert_eq!(
            normalize_schema(json!({"type": "object", "required": ["x"]})),
            json!({"type": "object", "properties": {}})
        );
    }

    #[test]
    fn legacy_definitions_move_to_defs_with_their_references() {
        let schema = json!({
            "type": "object",
            "properties": {"p": {"$ref": "#/definitions/P"}},
            "definitions": {"P": {"type": "string"}}
        });
        assert_eq!(
            normalize_schema(schema),
            json!({
                "type": "object",
                "properties": {"p": {"$ref": "#/$defs/P"}},
                "$defs": {"P": {"type": "string"}}
            })
        );
    }

    #[test]
    fn previews_are_short_json() {
        assert_eq!(preview_args(&json!({})), "");
        assert_eq!(
            preview_args(&json!({"path": "/tmp/a"})),
            r#"{"path":"/tmp/a"}"#
        );
        let long = preview_args(&json!({"text": "x".repeat(200)}));
        assert!(long.chars().count() <= 80, "{long}");
    }
}
