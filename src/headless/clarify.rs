//! `clarify` questions in headless mode: asked on the terminal (question on stderr, answer from
//! stdin, a number picks a listed choice) when stdin is one, declined at once when it is not.

use std::io::Write;

use super::PromptMode;
use crate::protocol::ClarifyAnswer;
use crate::protocol::ClarifyRequest;

pub(super) async fn ask(request: &ClarifyRequest, mode: PromptMode) -> ClarifyAnswer {
    match mode {
        PromptMode::Decline => ClarifyAnswer::Declined,
        PromptMode::AskOnTerminal => {
            // The tool-call line already showed the question (`❓ …`), cut at 80 characters.
            let mut prompt = String::new();
            if request.question.chars().count() > 80 {
                prompt.push_str(&format!("{}\n", request.question));
            }
            for (i, choice) in request.choices.iter().enumerate() {
                prompt.push_str(&format!("  {}. {choice}\n", i + 1));
            }
            prompt.push_str("answer> ");
            let choices = request.choices.clone();
            let read = tokio::task::spawn_blocking(move || {
                let mut stderr = std::io::stderr();
                let _ = stderr.write_all(prompt.as_bytes());
                let _ = stderr.flush();
                let mut line = String::new();
                std::io::stdin().read_line(&mut line).map(|_| line)
            })
            .await;
            match read {
                Ok(Ok(line)) if !line.trim().is_empty() => {
                    let line = line.trim();
                    let picked = line
                        .parse::<usize>()
                        .ok()
                        .and_then(|n| n.checked_sub(1))
                        .and_then(|i| choices.get(i).cloned());
                    ClarifyAnswer::Text(picked.unwrap_or_else(|| line.to_string()))
                }
                _ => ClarifyAnswer::Declined,
            }
        }
    }
}
