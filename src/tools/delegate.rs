//! The `delegate_task` tool: hand a goal (or a batch of goals) to subagents with fresh
//! contexts, through the session's `Delegator`.
//!
//! It validates the call (a goal or a non-empty `tasks` list, never both empty; a positive
//! iteration budget; `role` leaf or orchestrator) and leaves caps, depth and paused spawns to
//! the delegator, whose refusals come back as tool errors. It never widens a child's tools:
//! there is no toolset parameter.

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::protocol::SubagentRole;
use crate::tools::Concurrency;
use crate::tools::DelegatedTask;
use crate::tools::DelegationRequest;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;

pub struct DelegateTaskTool;

#[derive(Debug, Deserialize)]
struct DelegateArgs {
    #[serde(default)]
    goal: Option<String>,
    #[serde(default)]
    context: Option<String>,
    #[serde(default)]
    tasks: Option<Vec<TaskArg>>,
    #[serde(default)]
    max_iterations: Option<u32>,
    #[serde(default)]
    role: Option<String>,
}

#[derive(Debug, Deserialize)]
struct TaskArg {
    goal: String,
    #[serde(default)]
    context: Option<String>,
}

#[async_trait]
impl Tool for DelegateTaskTool {
    fn name(&self) -> &'static str {
        "delegate_task"
    }

    fn toolset(&self) -> &'static str {
        "delegation"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Hand work to subagents: each starts with a fresh, empty context (it knows only the goal, \
                the context you give it and the project's context file), uses the same tools, and returns a \
                structured summary (what it did, what it found, files changed, problems). Use it for \
                self-contained pieces of work, or `tasks` to run several in parallel. Give each child everything \
                it needs in `context`. When you call it, the children run in the background: the conversation \
                goes on and their results arrive together as a new message."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "goal": {"type": "string", "description": "What one child must achieve."},
                    "context": {"type": "string", "description": "Everything the child needs to know."},
                    "tasks": {
                        "type": "array",
                        "description": "Several children in parallel, each with its own goal and context.",
                        "items": {
                            "type": "object",
                            "properties": {
                                "goal": {"type": "string"},
                                "context": {"type": "string"}
                            },
                            "required": ["goal"]
                        }
                    },
                    "max_iterations": {"type": "integer", "minimum": 1, "description": "API calls each child may make (default 50)."},
                    "role": {"type": "string", "enum": ["leaf", "orchestrator"], "description": "orchestrator children may delegate further."}
                }
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Exclusive
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        match args.get("tasks").and_then(serde_json::Value::as_array) {
            Some(tasks) if !tasks.is_empty() => format!("{} subagents", tasks.len()),
            _ => args::preview_text(args::str_field(args, "goal"), 80),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: DelegateArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let request = match request_from(args) {
            Ok(request) => request,
            Err(err) => return ToolOutput::error(err.to_string()),
        };
        let Some(delegator) = &ctx.delegator else {
            return ToolOutput::error("delegation is not available here");
        };
        match delegator.delegate(request, &ctx.cancel).await {
            Ok(text) => ToolOutput::ok(text),
            Err(err) => ToolOutput::error(err.to_string()),
        }
    }
}

/// Why a `delegate_task` call is malformed; the text is for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum RequestError {
    #[error("role must be leaf or orchestrator, not {0:?}")]
    Role(String),
    #[error("give a goal, or tasks: [{{goal, context}}, …]")]
    NoGoal,
    #[error("task {0} has an empty goal")]
    EmptyGoal(usize),
    #[error("max_iterations must be at least 1")]
    NoIterations,
}

fn request_from(args: DelegateArgs) -> Result<DelegationRequest, RequestError> {
    let role = match args.role.as_deref().map(str::trim) {
        None | Some("") | Some("leaf") => SubagentRole::Leaf,
        Some("orchestrator") => SubagentRole::Orchestrator,
        Some(other) => return Err(RequestError::Role(other.to_string())),
    };
    let mut tasks: Vec<DelegatedTask> = args
        .tasks
        .unwrap_or_default()
        .into_iter()
        .map(|t| DelegatedTask {
            goal: t.goal.trim().to_string(),
            context: t.context.unwrap_or_default(),
        })
        .collect();
    if let Some(goal) = args.goal.filter(|g| !g.trim().is_empty()) {
        tasks.insert(
            0,
            DelegatedTask {
                goal: goal.trim().to_string(),
                context: args.context.unwrap_or_default(),
            },
        );
    }
    if tasks.is_empty() {
        return Err(RequestError::NoGoal);
    }
    if let Some(i) = tasks.iter().position(|t| t.goal.is_empty()) {
        return Err(RequestError::EmptyGoal(i + 1));
    }
    if args.max_iterations == Some(0) {
        return Err(RequestError::NoIterations);
    }
    let max_iterations = args.max_iterations;
    Ok(DelegationRequest {
        tasks,
        max_iterations,
        role,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(value: serde_json::Value) -> Result<DelegationRequest, String> {
        request_from(serde_json::from_value(value).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_goal_or_tasks_make_a_request_in_input_order() {
        let r = parse(serde_json::json!({"goal": "fix it", "context": "x"})).unwrap();
        assert_eq!(r.tasks.len(), 1);
        assert_eq!(r.max_iterations, None, "config decides");
        assert_eq!(r.role, SubagentRole::Leaf);
        let r = parse(serde_json::json!({
            "tasks": [{"goal": "a"}, {"goal": "b", "context": "c"}],
            "max_iterations": 7,
            "role": "orchestrator"
        }))
        .unwrap();
        let goals: Vec<&str> = r.tasks.iter().map(|t| t.goal.as_str()).collect();
        assert_eq!(goals, ["a", "b"]);
        assert_eq!(r.tasks[1].context, "c");
        assert_eq!(r.max_iterations, Some(7));
        assert_eq!(r.role, SubagentRole::Orchestrator);
    }

    #[test]
    fn bad_calls_are_explained() {
        assert!(parse(serde_json::json!({})).unwrap_err().contains("goal"));
        assert!(
            parse(serde_json::json!({"tasks": [{"goal": " "}]}))
                .unwrap_err()
                .contains("empty goal")
        );
        assert!(
            parse(serde_json::json!({"goal": "x", "max_iterations": 0}))
                .unwrap_err()
                .contains("at least 1")
        );
        assert!(
            parse(serde_json::json!({"goal": "x", "role": "boss"}))
                .unwrap_err()
                .contains("leaf or orchestrator")
        );
    }
}
