//! Approval requests in headless mode: asked on the terminal when stdin is one, denied when
//! it is not (scripts allow dangerous commands with `--yolo`, never by piping "y").
//!
//! The prompt goes to stderr so stdout keeps only the answer (or JSON). An empty line, EOF,
//! an unreadable stdin or no answer within the request's timeout all mean "deny".

use std::io::Write;
use std::time::Duration;

use super::PromptMode;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalKind;
use crate::protocol::ApprovalRequest;

pub async fn ask(
    request: &ApprovalRequest,
    mode: PromptMode,
    err: &mut (dyn Write + Send),
) -> ApprovalDecision {
    let _ = err.write_all(describe(request).as_bytes());
    match mode {
        PromptMode::Decline => {
            let _ = writeln!(err, "   ⊘ {}", declined_because(request.kind));
            if request.kind == ApprovalKind::HookConsent {
                tracing::warn!(
                    "shell hook skipped (no consent, stdin is not a terminal): {}",
                    request.subject
                );
            }
            ApprovalDecision::Deny
        }
        PromptMode::AskOnTerminal => {
            let _ = write!(err, "{}", choice_prompt(request));
            let _ = err.flush();
            let read = tokio::task::spawn_blocking(|| {
                let mut line = String::new();
                std::io::stdin().read_line(&mut line).map(|_| line)
            });
            let timeout = Duration::from_secs(request.timeout_secs.max(1));
            match tokio::time::timeout(timeout, read).await {
                Ok(Ok(Ok(line))) => parse_choice(&line, &request.choices),
                Ok(_) => ApprovalDecision::Deny,
                Err(_) => {
                    let _ = writeln!(
                        err,
                        "\n   ⊘ no answer within {}s: denied",
                        timeout.as_secs()
                    );
                    ApprovalDecision::Deny
                }
            }
        }
    }
}

/// Why a request was declined and how a script allows it: `--yolo` does not enable hooks.
fn declined_because(kind: ApprovalKind) -> &'static str {
    match kind {
        ApprovalKind::Command | ApprovalKind::FileWrite => {
            "denied: stdin is not a terminal, so nobody can approve (use --yolo to allow dangerous commands in scripts)"
        }
        ApprovalKind::HookConsent => {
            "hook skipped: stdin is not a terminal, so nobody can consent (use --accept-hooks, or hooks_auto_accept: true in config.yaml, to run configured hooks in scripts)"
        }
    }
}

fn describe(request: &ApprovalRequest) -> String {
    let what = match request.kind {
        ApprovalKind::Command => format!("   $ {}", request.subject),
        ApprovalKind::FileWrite => format!("   write {}", request.subject),
        ApprovalKind::HookConsent => format!("   run hook: {}", request.subject),
    };
    let mut who = if request.agent == "main" {
        String::new()
    } else {
        format!(" ({})", request.agent)
    };
    if let Some(via) = &request.via {
        who.push_str(&format!(" via {via}"));
    }
    format!(
        "⚠ approval needed{who}: {}\n{what}\n   in {}\n",
        request.reason, request.cwd
    )
}

fn choice_prompt(request: &ApprovalRequest) -> String {
    let labels: Vec<&str> = request
        .choices
        .iter()
        .map(|choice| match choice {
            ApprovalDecision::Once => "[o]nce",
            ApprovalDecision::Session => "[s]ession",
            ApprovalDecision::Always => "[a]lways",
            ApprovalDecision::Deny => "[D]eny",
        })
        .collect();
    format!("   {} > ", labels.join(" | "))
}

/// `o`/`y`/`once`, `s`/`session`, `a`/`always`; anything else (including an empty line)
/// denies. A choice the request does not offer denies too.
pub fn parse_choice(line: &str, offered: &[ApprovalDecision]) -> ApprovalDecision {
    let picked = match line.trim().to_ascii_lowercase().as_str() {
        "o" | "y" | "yes" | "once" => ApprovalDecision::Once,
        "s" | "session" => ApprovalDecision::Session,
        "a" | "always" => ApprovalDecision::Always,
        _ => ApprovalDecision::Deny,
    };
    if offered.contains(&picked) {
        picked
    } else {
        ApprovalDecision::Deny
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [ApprovalDecision; 4] = [
        ApprovalDecision::Once,
        ApprovalDecision::Session,
        ApprovalDecision::Always,
        ApprovalDecision::Deny,
    ];

    #[test]
    fn choices_parse_and_default_to_deny() {
        assert_eq!(parse_choice("o\n", &ALL), ApprovalDecision::Once);
        assert_eq!(parse_choice("Y", &ALL), ApprovalDecision::Once);
        assert_eq!(parse_choice("session", &ALL), ApprovalDecision::Session);
        assert_eq!(parse_choice("a", &ALL), ApprovalDecision::Always);
        assert_eq!(parse_choice("", &ALL), ApprovalDecision::Deny);
        assert_eq!(parse_choice("maybe", &ALL), ApprovalDecision::Deny);
        let no_always = [ApprovalDecision::Once, ApprovalDecision::Deny];
        assert_eq!(parse_choice("a", &no_always), ApprovalDecision::Deny);
    }

    #[tokio::test]
    async fn without_a_terminal_requests_are_denied_and_explained() {
        let request = ApprovalRequest {
            id: "approval_1".into(),
            agent: "main".into(),
            via: None,
            kind: ApprovalKind::Command,
            subject: "rm -rf ~/project-x".into(),
            reason: "recursive delete".into(),
            cwd: "/home/dev".into(),
            choices: ALL.to_vec(),
            timeout_secs: 60,
        };
        let mut err = Vec::new();
        let decision = ask(&request, PromptMode::Decline, &mut err).await;
        assert_eq!(decision, ApprovalDecision::Deny);
        let text = String::from_utf8(err).unwrap_or_default();
        assert!(text.contains("$ rm -rf ~/project-x"), "{text}");
        assert!(text.contains("--yolo"), "{text}");
    }

    #[tokio::test]
    async fn a_hook_without_consent_names_accept_hooks_not_yolo() {
        let request = ApprovalRequest {
            id: "approval_2".into(),
            agent: "main".into(),
            via: None,
            kind: ApprovalKind::HookConsent,
            subject: "~/.hermes/hooks/notify.sh".into(),
            reason: "post_tool_call".into(),
            cwd: "/home/dev".into(),
            choices: vec![
                ApprovalDecision::Once,
                ApprovalDecision::Always,
                ApprovalDecision::Deny,
            ],
            timeout_secs: 60,
        };
        let mut err = Vec::new();
        let decision = ask(&request, PromptMode::Decline, &mut err).await;
        assert_eq!(decision, ApprovalDecision::Deny);
        let text = String::from_utf8(err).unwrap_or_default();
        assert!(text.contains("--accept-hooks"), "{text}");
        assert!(!text.contains("--yolo"), "{text}");
    }
}
