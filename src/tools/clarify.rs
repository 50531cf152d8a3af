//! The `clarify` tool: ask the user a question (optionally with up to four suggested answers)
//! through the `ToolHost` and return the answer to the model.
//!
//! It never runs in parallel with other calls (`Concurrency::Exclusive`). A declined question,
//! or a frontend that cannot ask, is a normal result telling the model to proceed on its own
//! judgement; cancellation ends the wait.

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::protocol::ClarifyAnswer;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;

pub const MAX_CHOICES: usize = 4;

pub struct ClarifyTool;

#[derive(Debug, Deserialize)]
struct ClarifyArgs {
    question: String,
    #[serde(default)]
    choices: Option<Vec<String>>,
}

#[async_trait]
impl Tool for ClarifyTool {
    fn name(&self) -> &'static str {
        "clarify"
    }

    fn toolset(&self) -> &'static str {
        "clarify"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Ask the user a clarifying question when the request is ambiguous and a wrong guess would be costly. \
                Optionally offer up to 4 short suggested answers (the user may still answer freely). \
                Do not use it for things you can find out yourself with other tools. \
                Returns the user's answer, or a note that they declined or could not be asked."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "question": {"type": "string", "description": "The question to ask."},
                    "choices": {
                        "type": "array",
                        "items": {"type": "string"},
                        "maxItems": MAX_CHOICES,
                        "description": "Up to 4 suggested answers."
                    }
                },
                "required": ["question"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Exclusive
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        args::preview_text(args::str_field(args, "question"), 80)
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: ClarifyArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let question = args.question.trim();
        if question.is_empty() {
            return ToolOutput::error("question is empty");
        }
        let mut choices: Vec<String> = args
            .choices
            .unwrap_or_default()
            .into_iter()
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect();
        let dropped = choices.len().saturating_sub(MAX_CHOICES);
        choices.truncate(MAX_CHOICES);
        let answer = tokio::select! {
            a = ctx.host.clarify(question, &choices) => a,
            () = ctx.cancel.cancelled() => return ToolOutput::cancelled("cancelled while waiting for the user's answer"),
        };
        let note = if dropped > 0 {
            format!(" (only the first {MAX_CHOICES} choices were shown; {dropped} dropped)")
        } else {
            String::new()
        };
        match answer {
            ClarifyAnswer::Text(text) => ToolOutput::ok(format!("The user answered: {text}{note}")),
            ClarifyAnswer::Declined => ToolOutput::ok(format!(
                "The user declined to answer or could not be asked{note}. Proceed with your best judgement and state the assumptions you make."
            )),
        }
    }
}

#[cfg(test)]
#[path = "clarify_tests.rs"]
mod tests;
