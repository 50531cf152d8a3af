//! Hook consent through the approval flow: the first run of a configured shell hook becomes an
//! `ApprovalRequest` of kind `HookConsent` ("Allow once", "Always allow", "Deny"), answered in
//! the approvals pane or on the headless terminal like any other request.

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::ask::Asker;
use super::ask::Question;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalKind;
use crate::safety::hooks::ConsentAnswer;
use crate::safety::hooks::ConsentAsker;
use crate::safety::hooks::HookEvent;

pub struct HookConsentAsker {
    pub asker: Asker,
    pub agent: String,
    pub cwd: String,
}

#[async_trait]
impl ConsentAsker for HookConsentAsker {
    async fn ask(&self, event: HookEvent, command: &str) -> ConsentAnswer {
        let question = Question {
            agent: self.agent.clone(),
            via: None,
            kind: ApprovalKind::HookConsent,
            subject: command.to_string(),
            reason: format!(
                "a shell hook for {} (hooks: in config.yaml) runs for the first time",
                event.as_str()
            ),
            cwd: self.cwd.clone(),
            choices: vec![
                ApprovalDecision::Once,
                ApprovalDecision::Always,
                ApprovalDecision::Deny,
            ],
        };
        // Consent is about the hook, not the turn: an interrupt does not answer it.
        let (decision, _) = self.asker.ask(question, &CancellationToken::new()).await;
        match decision {
            ApprovalDecision::Once | ApprovalDecision::Session => ConsentAnswer::Once,
            ApprovalDecision::Always => ConsentAnswer::Always,
            ApprovalDecision::Deny => ConsentAnswer::Deny,
        }
    }
}
