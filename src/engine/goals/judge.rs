//! The goal judge: after each turn an auxiliary model (`auxiliary.goal_judge`, the main model
//! by default) reads the goal, its subgoals and the last ~4 KB of the latest reply, and answers
//! strict JSON `{"done": bool, "reason": "…"}`.
//!
//! Fail-open: a judge that cannot be reached (error, timeout) yields `JudgeError`, which the
//! loop treats as "continue"; an answer that is not the JSON asked for yields `Unreadable`
//! (also "continue", but three in a row pause the goal). The judge never sees the rest of the
//! conversation and never changes the session's system prompt.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::numbered;
use crate::model::Message;
use crate::protocol::VerdictOutcome;
use crate::providers::ChatRequest;
use crate::providers::Provider;

/// How long the judge may take.
pub const JUDGE_TIMEOUT: Duration = Duration::from_secs(30);
/// Characters of the reply the judge sees (its end, where conclusions are).
pub const SNIPPET_CHARS: usize = 4_000;
/// Output budget (Hermes's; thinking models need room before the JSON).
const JUDGE_MAX_TOKENS: u32 = 4_096;
/// Reasons longer than this are cut (a judge that writes an essay is still readable).
const REASON_CHARS: usize = 400;

const SYSTEM: &str = "You judge whether an AI agent has achieved a standing goal, from the \
agent's latest reply. Be conservative: answer done only when the reply explicitly confirms the \
goal is complete, when the final deliverable was clearly produced, or when the goal is \
unreachable or blocked (then done, with the blocking reason, so no more turns are wasted). If \
additional criteria are listed, the goal is done only when every one of them is met too. \
Otherwise it is not done. A false \"done\" is worse than a false \"not done\". Reply with only \
a JSON object, no other text: {\"done\": true or false, \"reason\": \"<one-sentence \
rationale>\"}";

/// A verdict as the loop uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub outcome: VerdictOutcome,
    pub reason: String,
}

/// The model that judges.
#[derive(Clone)]
pub struct GoalJudge {
    pub provider: Arc<dyn Provider>,
    pub model: String,
}

impl GoalJudge {
    pub async fn judge(
        &self,
        goal: &str,
        subgoals: &[String],
        reply: &str,
        cancel: &CancellationToken,
    ) -> Judged {
        let request = ChatRequest {
            model: self.model.clone(),
            system: SYSTEM.to_string(),
            messages: vec![Message::user(judge_prompt(goal, subgoals, reply))],
            tools: Vec::new(),
            max_tokens: Some(JUDGE_MAX_TOKENS),
        };
        let call = self.provider.complete(&request, &|_| {}, cancel);
        match tokio::time::timeout(JUDGE_TIMEOUT, call).await {
            Ok(Ok(completion)) => parse_verdict(&completion.text),
            Ok(Err(error)) => {
                tracing::warn!(%error, "goal judge failed; continuing (fail-open)");
                Judged {
                    outcome: VerdictOutcome::JudgeError,
                    reason: format!("the judge could not be asked ({error}); continuing"),
                }
            }
            Err(_) => {
                tracing::warn!("goal judge timed out; continuing (fail-open)");
                Judged {
                    outcome: VerdictOutcome::JudgeError,
                    reason: format!(
                        "the judge did not answer within {} s; continuing",
                        JUDGE_TIMEOUT.as_secs()
                    ),
                }
            }
        }
    }
}

/// The judge's user message: the goal, its criteria and the end of the reply.
pub fn judge_prompt(goal: &str, subgoals: &[String], reply: &str) -> String {
    let mut prompt = format!("Goal: {goal}\n\n");
    if !subgoals.is_empty() {
        prompt.push_str(
            "Additional criteria the user appended mid-loop (every one must also be met):\n",
        );
        prompt.push_str(&numbered(subgoals));
        prompt.push('\n');
    }
    let snippet = tail_chars(reply.trim(), SNIPPET_CHARS);
    let snippet = if snippet.is_empty() {
        "(the reply was empty)"
    } else {
        snippet
    };
    prompt.push_str(&format!(
        "The agent's latest reply (at most its last {SNIPPET_CHARS} characters):\n---\n{snippet}\n---\n\n\
         Has the goal been achieved? Answer with the JSON object only."
    ));
    prompt
}

/// The last `n` characters of `text`, cut on a character boundary.
fn tail_chars(text: &str, n: usize) -> &str {
    let count = text.chars().count();
    match text.char_indices().nth(count.saturating_sub(n)) {
        Some((index, _)) if count > n => &text[index..],
        _ => text,
    }
}

/// Read `{"done": …, "reason": …}` from the judge's answer. A code fence or a sentence around
/// the object is tolerated; a missing or non-boolean `done` is not.
pub fn parse_verdict(answer: &str) -> Judged {
    let unreadable = || Judged {
        outcome: VerdictOutcome::Unreadable,
        reason: format!(
            "the judge's answer was not the JSON asked for ({}); continuing",
            preview(answer)
        ),
    };
    let Some(object) = json_object(answer) else {
        return unreadable();
    };
    let done = match object.get("done") {
        Some(serde_json::Value::Bool(done)) => *done,
        Some(serde_json::Value::String(s)) if s.eq_ignore_ascii_case("true") => true,
        Some(serde_json::Value::String(s)) if s.eq_ignore_ascii_case("false") => false,
        _ => return unreadable(),
    };
    let reason = object
        .get("reason")
        .and_then(serde_json::Value::as_str)
        .map(|r| r.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| "(the judge gave no reason)".to_string());
    Judged {
        outcome: if done {
            VerdictOutcome::Done
        } else {
            VerdictOutcome::Continue
        },
        reason: cut(&reason, REASON_CHARS),
    }
}

/// The first JSON object in `text`: the whole text, or from its first `{` to its last `}`.
fn json_object(text: &str) -> Option<serde_json::Map<String, serde_json::Value>> {
    let trimmed = text.trim();
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str(trimmed) {
        return Some(map);
    }
    let start = trimmed.find('{')?;
    let end = trimmed.rfind('}')?;
    if end <= start {
        return None;
    }
    match serde_json::from_str(&trimmed[start..=end]) {
        Ok(serde_json::Value::Object(map)) => Some(map),
        _ => None,
    }
}

fn preview(answer: &str) -> String {
    let one_line = answer.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        return "an empty answer".to_string();
    }
    format!("{:?}", cut(&one_line, 60))
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
#[path = "judge_tests.rs"]
mod tests;
