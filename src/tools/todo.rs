//! The `todo` tool (as Hermes): the session's task list. Without `todos` it returns the list;
//! with `todos` it replaces the list, or with `merge=true` updates items by id and appends new
//! ones. The answer is always the whole rendered list with counts.
//!
//! The list lives in `SessionTools` and is not persisted. Invariants: ids are unique and
//! non-empty; every item has content.

use async_trait::async_trait;
use serde::Deserialize;
use serde::Serialize;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
    Cancelled,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TodoItem {
    pub id: String,
    pub content: String,
    pub status: TodoStatus,
}

/// An item as the model sends it; in merge mode only `id` is required.
#[derive(Debug, Deserialize)]
struct TodoPatch {
    #[serde(deserialize_with = "id_string")]
    id: String,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    status: Option<TodoStatus>,
}

#[derive(Debug, Deserialize)]
struct TodoArgs {
    #[serde(default)]
    todos: Option<Vec<TodoPatch>>,
    #[serde(default, deserialize_with = "args::lenient_bool")]
    merge: bool,
}

/// Models send ids as numbers as often as strings.
fn id_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        other => Err(serde::de::Error::custom(format!(
            "id must be a string, got {other}"
        ))),
    }
}

pub struct TodoTool;

#[async_trait]
impl Tool for TodoTool {
    fn name(&self) -> &'static str {
        "todo"
    }

    fn toolset(&self) -> &'static str {
        "todo"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Manage your task list for this session. Use it for work with 3 or more steps: \
                write the plan as todos, keep exactly one item in_progress, and mark items completed as soon as they are done. \
                Call with no arguments to read the list. With `todos` the list is replaced; with merge=true items are updated by id \
                (only the fields you give) and unknown ids are appended. Returns the whole list with counts."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "todos": {
                        "type": "array",
                        "description": "Items to write.",
                        "items": {
                            "type": "object",
                            "properties": {
                                "id": {"type": "string", "description": "Unique id of the item."},
                                "content": {"type": "string", "description": "What to do."},
                                "status": {"type": "string", "enum": ["pending", "in_progress", "completed", "cancelled"]}
                            },
                            "required": ["id"]
                        }
                    },
                    "merge": {"type": "boolean", "description": "Update items by id instead of replacing the list (default false)."}
                }
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        match args.get("todos").and_then(|t| t.as_array()) {
            None => "read".to_string(),
            Some(items) => {
                let verb = if args.get("merge").and_then(serde_json::Value::as_bool) == Some(true) {
                    "merge"
                } else {
                    "write"
                };
                format!("{verb} {} item(s)", items.len())
            }
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: TodoArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let result = ctx.session.with_todos(|list| {
            if let Some(patches) = args.todos {
                let updated = if args.merge {
                    merge(list, patches)?
                } else {
                    replace(patches)?
                };
                *list = updated;
            }
            Ok::<_, TodoError>(render(list))
        });
        match result {
            Ok(text) => ToolOutput::ok(text),
            Err(e) => ToolOutput::error(e.to_string()),
        }
    }
}

/// A todo update the tool refuses; the text is for the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum TodoError {
    #[error("every todo needs a non-empty id")]
    EmptyId,
    #[error("duplicate todo id {0:?}; ids must be unique")]
    DuplicateId(String),
    #[error("todo {0:?} needs content")]
    NoContent(String),
    #[error("new todo {0:?} needs content")]
    NewWithoutContent(String),
}

fn replace(patches: Vec<TodoPatch>) -> Result<Vec<TodoItem>, TodoError> {
    let mut out: Vec<TodoItem> = Vec::with_capacity(patches.len());
    for p in patches {
        check_id(&p.id)?;
        if out.iter().any(|t| t.id == p.id) {
            return Err(TodoError::DuplicateId(p.id));
        }
        let content = p
            .content
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| TodoError::NoContent(p.id.clone()))?;
        out.push(TodoItem {
            id: p.id,
            content,
            status: p.status.unwrap_or(TodoStatus::Pending),
        });
    }
    Ok(out)
}

fn merge(list: &[TodoItem], patches: Vec<TodoPatch>) -> Result<Vec<TodoItem>, TodoError> {
    let mut out = list.to_vec();
    for p in patches {
        check_id(&p.id)?;
        let content = p.content.filter(|c| !c.trim().is_empty());
        match out.iter_mut().find(|t| t.id == p.id) {
            Some(item) => {
                if let Some(c) = content {
                    item.content = c;
                }
                if let Some(s) = p.status {
                    item.status = s;
                }
            }
            None => out.push(TodoItem {
                content: content.ok_or_else(|| TodoError::NewWithoutContent(p.id.clone()))?,
                id: p.id,
                status: p.status.unwrap_or(TodoStatus::Pending),
            }),
        }
    }
    Ok(out)
}

fn check_id(id: &str) -> Result<(), TodoError> {
    if id.trim().is_empty() {
        Err(TodoError::EmptyId)
    } else {
        Ok(())
    }
}

/// The list as the model and the user see it, with counts.
pub fn render(list: &[TodoItem]) -> String {
    if list.is_empty() {
        return "Todo list is empty.".to_string();
    }
    let count = |s: TodoStatus| list.iter().filter(|t| t.status == s).count();
    let mut out = format!(
        "Todo list ({} items: {} pending, {} in progress, {} completed, {} cancelled)\n",
        list.len(),
        count(TodoStatus::Pending),
        count(TodoStatus::InProgress),
        count(TodoStatus::Completed),
        count(TodoStatus::Cancelled),
    );
    for item in list {
        let mark = match item.status {
            TodoStatus::Pending => "[ ]",
            TodoStatus::InProgress => "[>]",
            TodoStatus::Completed => "[x]",
            TodoStatus::Cancelled => "[-]",
        };
        out.push_str(&format!("{mark} {}. {}\n", item.id, item.content));
    }
    out.pop();
    out
}

#[cfg(test)]
#[path = "todo_tests.rs"]
mod tests;
