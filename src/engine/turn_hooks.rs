//! The shell hooks a turn fires around the model: `pre_llm_call` (its context is appended to
//! the user message) and `post_llm_call` (an observer, run in the background). Tool-call hooks
//! are in `dispatch`; session hooks in the session actor.

use super::turn::TurnContext;
use crate::model::Message;

/// `pre_llm_call` hooks: what they print as `{"context": …}` is appended to the user message
/// (never to the system prompt, which stays byte-stable for the provider's cache).
pub(super) async fn with_hook_context(
    ctx: &TurnContext,
    input: String,
    first_turn: bool,
) -> String {
    let Some(hooks) = ctx.wrapping.hooks.as_ref().filter(|h| !h.is_empty()) else {
        return input;
    };
    let extra = serde_json::json!({
        "session_id": ctx.session_id,
        "task_id": ctx.session_id,
        "turn_id": ctx.turn_id,
        "is_first_turn": first_turn,
        "model": ctx.model,
        "platform": "cli",
    });
    let contexts = hooks.pre_llm_call(&input, extra).await;
    if contexts.is_empty() {
        input
    } else {
        format!("{input}\n\n{}", contexts.join("\n\n"))
    }
}

/// `post_llm_call` hooks, in the background: observers must not delay the reply.
pub(super) fn after_reply(ctx: &TurnContext, history: &[Message], reply: &str) {
    let Some(hooks) = ctx.wrapping.hooks.clone().filter(|h| !h.is_empty()) else {
        return;
    };
    let user_message = history
        .iter()
        .rev()
        .find(|m| m.role == crate::model::Role::User)
        .map(|m| m.content.clone())
        .unwrap_or_default();
    let extra = serde_json::json!({
        "session_id": ctx.session_id,
        "user_message": user_message,
        "assistant_response": reply,
        "model": ctx.model,
        "platform": "cli",
    });
    tokio::spawn(async move {
        hooks
            .observe(crate::safety::hooks::HookEvent::PostLlmCall, extra)
            .await;
    });
}
