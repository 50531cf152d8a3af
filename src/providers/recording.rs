//! A provider for unit tests: answers every request with a fixed text (after an optional
//! delay, with fixed usage) and keeps the requests it got. Test-only.

use std::sync::Mutex;
use std::time::Duration;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::ChatRequest;
use super::Completion;
use super::DeltaSink;
use super::Provider;
use super::ProviderError;
use crate::model::Usage;

pub struct RecordingProvider {
    pub reply: String,
    pub delay: Duration,
    pub usage: Usage,
    pub seen: Mutex<Vec<ChatRequest>>,
}

impl RecordingProvider {
    /// Answers `reply` at once, with no usage.
    pub fn replying(reply: &str) -> Self {
        Self {
            reply: reply.to_string(),
            delay: Duration::ZERO,
            usage: Usage::default(),
            seen: Mutex::new(Vec::new()),
        }
    }

    /// The requests so far.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

#[async_trait]
impl Provider for RecordingProvider {
    fn name(&self) -> &str {
        "recording"
    }

    async fn complete(
        &self,
        request: &ChatRequest,
        _on_delta: DeltaSink<'_>,
        _cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        self.seen
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push(request.clone());
        tokio::time::sleep(self.delay).await;
        Ok(Completion {
            text: self.reply.clone(),
            usage: self.usage,
            finish_reason: Some("stop".into()),
            ..Completion::default()
        })
    }
}
