//! The per-server utility tools: `mcp_<server>_list_resources`, `_read_resource`,
//! `_list_prompts` and `_get_prompt`, with Hermes's descriptions and schemas.
//!
//! Registered only when the server advertises the capability and `tools.resources` /
//! `tools.prompts` allow it (`server.rs` decides). Outputs are JSON like Hermes's, so skills
//! written for Hermes read them the same way.

use std::sync::Arc;

use async_trait::async_trait;
use rmcp::model::ContentBlock;
use rmcp::model::GetPromptRequestParams;
use rmcp::model::ReadResourceRequestParams;
use serde_json::Value;
use serde_json::json;

use super::link::CallError;
use super::link::ServerLink;
use super::result::MediaSink;
use super::result::render_resource;
use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::output::cap_text;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Utility {
    ListResources,
    ReadResource,
    ListPrompts,
    GetPrompt,
}

impl Utility {
    pub const RESOURCES: [Self; 2] = [Self::ListResources, Self::ReadResource];
    pub const PROMPTS: [Self; 2] = [Self::ListPrompts, Self::GetPrompt];

    fn suffix(self) -> &'static str {
        match self {
            Self::ListResources => "list_resources",
            Self::ReadResource => "read_resource",
            Self::ListPrompts => "list_prompts",
            Self::GetPrompt => "get_prompt",
        }
    }
}

pub struct UtilityTool {
    link: Arc<ServerLink>,
    utility: Utility,
    registered: String,
}

impl UtilityTool {
    pub fn new(link: &Arc<ServerLink>, utility: Utility) -> Self {
        Self {
            link: Arc::clone(link),
            utility,
            registered: link.tool_name(utility.suffix()),
        }
    }

    async fn run(&self, args: &Value) -> Result<String, UtilityError> {
        let peer = self.link.peer()?;
        let failed =
            |what: &str, err: rmcp::service::ServiceError| self.link.request_failed(what, err);
        match self.utility {
            Utility::ListResources => {
                let resources = peer
                    .list_all_resources()
                    .await
                    .map_err(|e| failed("resources/list", e))?;
                let list: Vec<Value> = resources
                    .iter()
                    .map(|r| {
                        let mut entry = json!({"uri": r.uri, "name": r.name});
                        if let Some(d) = &r.description {
                            entry["description"] = json!(d);
                        }
                        if let Some(m) = &r.mime_type {
                            entry["mimeType"] = json!(m);
                        }
                        entry
                    })
                    .collect();
                Ok(json!({"resources": list}).to_string())
            }
            Utility::ReadResource => {
                let uri = required_string(args, "uri")?;
                let result = peer
                    .read_resource(ReadResourceRequestParams::new(uri.clone()))
                    .await
                    .map_err(|e| failed(&format!("reading {uri}"), e))?;
                let sink = MediaSink {
                    dir: &self.link.media_dir,
                    prefix: &self.registered,
                };
                let texts: Vec<String> = result
                    .contents
                    .iter()
                    .enumerate()
                    .map(|(i, c)| render_resource(c, &sink, i))
                    .collect();
                Ok(json!({"result": texts.join("\n")}).to_string())
            }
            Utility::ListPrompts => {
                let prompts = peer
                    .list_all_prompts()
                    .await
                    .map_err(|e| failed("prompts/list", e))?;
                let list: Vec<Value> = prompts
                    .iter()
                    .map(|p| {
                        let mut entry = json!({"name": p.name});
                        if let Some(d) = &p.description {
                            entry["description"] = json!(d);
                        }
                        if let Some(args) = &p.arguments {
                            entry["arguments"] = serde_json::to_value(args).unwrap_or(Value::Null);
                        }
                        entry
                    })
                    .collect();
                Ok(json!({"prompts": list}).to_string())
            }
            Utility::GetPrompt => {
                let name = required_string(args, "name")?;
                let mut params = GetPromptRequestParams::new(name.clone());
                if let Some(Value::Object(given)) = args.get("arguments") {
                    // Prompt arguments are strings; other values are sent as JSON text.
                    let strings = given
                        .iter()
                        .filter(|(_, v)| !v.is_null())
                        .map(|(k, v)| {
                            let text = v.as_str().map(str::to_string).unwrap_or(v.to_string());
                            (k.clone(), Value::String(text))
                        })
                        .collect();
                    params.arguments = Some(strings);
                }
                let result = peer
                    .get_prompt(params)
                    .await
                    .map_err(|e| failed(&format!("prompt {name}"), e))?;
                let messages: Vec<Value> = result
                    .messages
                    .iter()
                    .map(|m| {
                        let content = match &m.content {
                            ContentBlock::Text(t) => t.text.clone(),
                            other => serde_json::to_string(other).unwrap_or_default(),
                        };
                        json!({"role": m.role, "content": content})
                    })
                    .collect();
                let mut out = json!({"messages": messages});
                if let Some(d) = &result.description {
                    out["description"] = json!(d);
                }
                Ok(out.to_string())
            }
        }
    }
}

/// Why a utility call failed; the text is for the model.
#[derive(Debug, thiserror::Error)]
enum UtilityError {
    #[error(transparent)]
    Call(#[from] CallError),
    #[error("Missing required parameter '{0}'")]
    Missing(&'static str),
}

fn required_string(args: &Value, key: &'static str) -> Result<String, UtilityError> {
    match args.get(key).and_then(Value::as_str).map(str::trim) {
        Some(value) if !value.is_empty() => Ok(value.to_string()),
        _ => Err(UtilityError::Missing(key)),
    }
}

#[async_trait]
impl Tool for UtilityTool {
    fn name(&self) -> &str {
        &self.registered
    }

    fn toolset(&self) -> &str {
        &self.link.toolset
    }

    fn schema(&self) -> ToolSchema {
        let server = &self.link.name;
        let (description, parameters) = match self.utility {
            Utility::ListResources => (
                format!("List available resources from MCP server '{server}'"),
                json!({"type": "object", "properties": {}}),
            ),
            Utility::ReadResource => (
                format!("Read a resource by URI from MCP server '{server}'"),
                json!({"type": "object", "properties": {"uri": {"type": "string", "description": "URI of the resource to read"}}, "required": ["uri"]}),
            ),
            Utility::ListPrompts => (
                format!("List available prompts from MCP server '{server}'"),
                json!({"type": "object", "properties": {}}),
            ),
            Utility::GetPrompt => (
                format!("Get a prompt by name from MCP server '{server}'"),
                json!({"type": "object", "properties": {"name": {"type": "string", "description": "Name of the prompt to retrieve"}, "arguments": {"type": "object", "description": "Optional arguments to pass to the prompt", "properties": {}, "additionalProperties": true}}, "required": ["name"]}),
            ),
        };
        ToolSchema {
            name: self.registered.clone(),
            description,
            parameters,
        }
    }

    fn concurrency(&self) -> Concurrency {
        // Listing and reading do not change the server.
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &Value) -> String {
        super::tool::preview_args(args)
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> ToolOutput {
        let timeout = self.link.call_timeout;
        tokio::select! {
            () = ctx.cancel.cancelled() => ToolOutput::cancelled(format!("{} was interrupted", self.registered)),
            done = tokio::time::timeout(timeout, self.run(&args)) => match done {
                Ok(Ok(text)) => ToolOutput::ok(cap_text(&text, ctx.limits.max_output_bytes)),
                Ok(Err(why)) => ToolOutput::error(why.to_string()),
                Err(_) => ToolOutput::error(format!(
                    "MCP server '{}' did not answer {} within {:.0} s",
                    self.link.name,
                    self.registered,
                    timeout.as_secs_f64()
                )),
            },
        }
    }
}
