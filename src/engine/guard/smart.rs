//! `approvals.mode: smart`: the auxiliary model reviews a flagged command and answers
//! APPROVE, DENY or ESCALATE (as Hermes's `_smart_approve`, 16 output tokens).
//!
//! Anything but a clear APPROVE or DENY — ESCALATE, an error, a timeout, an empty or chatty
//! reply — escalates to the user. The model only sees the command, the reasons it was
//! flagged and the working directory, never the conversation.

use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::model::Message;
use crate::providers::ChatRequest;
use crate::providers::Provider;

/// How long the approver may think before the user is asked instead.
const SMART_TIMEOUT: Duration = Duration::from_secs(30);

const SYSTEM: &str = "You review shell commands an AI coding agent wants to run on a \
developer's machine. A rule-based filter flagged the command as potentially dangerous. Answer \
APPROVE if it is routine and clearly safe in context (e.g. deleting a build directory inside \
the project), DENY if it is destructive, exfiltrates data, weakens security or could damage \
the system, and ESCALATE if you are unsure. Reply with exactly one word: APPROVE, DENY or \
ESCALATE.";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmartVerdict {
    Approve,
    Deny,
    Escalate,
}

#[derive(Clone)]
pub struct SmartApprover {
    pub provider: Arc<dyn Provider>,
    pub model: String,
}

impl SmartApprover {
    pub async fn review(
        &self,
        subject: &str,
        reasons: &str,
        cwd: &str,
        cancel: &CancellationToken,
    ) -> SmartVerdict {
        let request = ChatRequest {
            model: self.model.clone(),
            system: SYSTEM.to_string(),
            messages: vec![Message::user(format!(
                "Command: {subject}\nFlagged because: {reasons}\nWorking directory: {cwd}"
            ))],
            tools: Vec::new(),
            max_tokens: Some(16),
        };
        let call = self.provider.complete(&request, &|_| {}, cancel);
        match tokio::time::timeout(SMART_TIMEOUT, call).await {
            Ok(Ok(completion)) => parse_verdict(&completion.text),
            Ok(Err(error)) => {
                tracing::warn!(%error, "smart approval failed; asking the user");
                SmartVerdict::Escalate
            }
            Err(_) => {
                tracing::warn!("smart approval timed out; asking the user");
                SmartVerdict::Escalate
            }
        }
    }
}

/// The first word decides; anything else escalates.
pub fn parse_verdict(text: &str) -> SmartVerdict {
    let word: String = text
        .trim_start()
        .chars()
        .take_while(char::is_ascii_alphabetic)
        .collect::<String>()
        .to_ascii_uppercase();
    match word.as_str() {
        "APPROVE" | "APPROVED" => SmartVerdict::Approve,
        "DENY" | "DENIED" => SmartVerdict::Deny,
        _ => SmartVerdict::Escalate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_parse_from_the_first_word_only() {
        assert_eq!(parse_verdict("APPROVE"), SmartVerdict::Approve);
        assert_eq!(parse_verdict("  approve."), SmartVerdict::Approve);
        assert_eq!(parse_verdict("DENY\nbecause"), SmartVerdict::Deny);
        assert_eq!(parse_verdict("ESCALATE"), SmartVerdict::Escalate);
        assert_eq!(parse_verdict(""), SmartVerdict::Escalate);
        assert_eq!(parse_verdict("I think APPROVE"), SmartVerdict::Escalate);
    }
}
