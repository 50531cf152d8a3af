//! Server-sent events over a byte stream, with the idle watchdog and cancellation.
//!
//! `SseEvents` wraps any `Stream<Item = Result<B, ProviderError>>` (a reqwest body in
//! production, canned bytes in tests) and yields parsed events. The watchdog measures the gap
//! between *byte chunks*, not events: a server that trickles bytes is alive, one that sends
//! nothing for `idle` is hung (`ProviderError::Hang`). Cancelling the token ends the stream
//! with `ProviderError::Cancelled` at once. It does not interpret event payloads (that is the
//! wire-format modules' job) and does not retry.
//!
//! Invariant: after the first error the stream is finished; `next` keeps returning `Ok(None)`.

use std::pin::Pin;
use std::time::Duration;

use eventsource_stream::EventStream;
use eventsource_stream::EventStreamError;
use futures::Stream;
use futures::StreamExt;
use tokio_util::sync::CancellationToken;

use super::ProviderError;

/// One SSE event. `event` is `"message"` when the server sent no `event:` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: String,
    pub data: String,
}

type BoxedEvents<'a> = Pin<
    Box<
        dyn Stream<Item = Result<eventsource_stream::Event, EventStreamError<ProviderError>>>
            + Send
            + 'a,
    >,
>;

pub struct SseEvents<'a> {
    inner: BoxedEvents<'a>,
    finished: bool,
}

impl<'a> SseEvents<'a> {
    pub fn new<S, B>(bytes: S, idle: Duration, cancel: &CancellationToken) -> Self
    where
        S: Stream<Item = Result<B, ProviderError>> + Send + 'a,
        B: AsRef<[u8]> + Send + 'a,
    {
        let guarded = watchdog(bytes, idle, cancel.clone());
        Self {
            inner: Box::pin(EventStream::new(guarded)),
            finished: false,
        }
    }

    /// The next event, `Ok(None)` at the end of the stream.
    pub async fn next(&mut self) -> Result<Option<SseEvent>, ProviderError> {
        if self.finished {
            return Ok(None);
        }
        let item = self.inner.next().await;
        match item {
            None => {
                self.finished = true;
                Ok(None)
            }
            Some(Ok(ev)) => Ok(Some(SseEvent {
                event: ev.event,
                data: ev.data,
            })),
            Some(Err(err)) => {
                self.finished = true;
                Err(match err {
                    EventStreamError::Transport(e) => e,
                    EventStreamError::Utf8(e) => ProviderError::BadResponse {
                        message: format!("the event stream is not valid UTF-8 ({e})"),
                    },
                    EventStreamError::Parser(e) => ProviderError::BadResponse {
                        message: format!("malformed event stream line ({})", excerpt(&e.input, 80)),
                    },
                })
            }
        }
    }
}

/// Races every chunk against the idle timer and the cancellation token.
pub fn watchdog<'a, S, B>(
    bytes: S,
    idle: Duration,
    cancel: CancellationToken,
) -> impl Stream<Item = Result<B, ProviderError>> + Send + 'a
where
    S: Stream<Item = Result<B, ProviderError>> + Send + 'a,
    B: Send + 'a,
{
    let state = (Box::pin(bytes), cancel, false);
    futures::stream::unfold(state, move |(mut bytes, cancel, done)| async move {
        if done {
            return None;
        }
        let item = tokio::select! {
            biased;
            () = cancel.cancelled() => Err(ProviderError::Cancelled),
            next = tokio::time::timeout(idle, bytes.next()) => match next {
                Err(_elapsed) => Err(ProviderError::Hang { idle_secs: idle.as_secs() }),
                Ok(None) => return None,
                Ok(Some(item)) => item,
            },
        };
        let done = item.is_err();
        Some((item, (bytes, cancel, done)))
    })
}

/// At most `max` characters of `s`, for error messages.
pub fn excerpt(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;
