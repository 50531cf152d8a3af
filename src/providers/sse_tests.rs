use std::time::Duration;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;

use super::*;

fn chunks(
    parts: &[&'static str],
) -> impl Stream<Item = Result<&'static [u8], ProviderError>> + Send {
    futures::stream::iter(parts.iter().map(|p| Ok(p.as_bytes())))
}

#[tokio::test]
async fn parses_events_split_across_chunks() {
    let cancel = CancellationToken::new();
    let mut ev = SseEvents::new(
        chunks(&[
            "data: {\"a\"",
            ":1}\n\nevent: ping\nda",
            "ta: x\n\n",
            "data: [DONE]\n\n",
        ]),
        Duration::from_secs(5),
        &cancel,
    );
    let first = ev.next().await.unwrap().unwrap();
    assert_eq!(first.event, "message");
    assert_eq!(first.data, "{\"a\":1}");
    let second = ev.next().await.unwrap().unwrap();
    assert_eq!((second.event.as_str(), second.data.as_str()), ("ping", "x"));
    assert_eq!(ev.next().await.unwrap().unwrap().data, "[DONE]");
    assert_eq!(ev.next().await.unwrap(), None);
}

#[tokio::test]
async fn stalled_stream_is_a_hang() {
    let cancel = CancellationToken::new();
    let stalled = chunks(&["data: 1\n\n"]).chain(futures::stream::pending());
    let mut ev = SseEvents::new(stalled, Duration::from_millis(100), &cancel);
    assert_eq!(ev.next().await.unwrap().unwrap().data, "1");
    let started = std::time::Instant::now();
    let err = ev.next().await.unwrap_err();
    assert_eq!(err, ProviderError::Hang { idle_secs: 0 });
    assert!(started.elapsed() >= Duration::from_millis(90));
    assert_eq!(ev.next().await.unwrap(), None);
}

#[tokio::test]
async fn slow_but_steady_bytes_are_not_a_hang() {
    let cancel = CancellationToken::new();
    // One byte every 20 ms with a 150 ms idle limit: alive, although the event takes ~280 ms.
    let slow = futures::stream::iter(b"data: slowly\n\n".to_vec()).then(|b| async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        Ok::<_, ProviderError>(vec![b])
    });
    let mut ev = SseEvents::new(slow, Duration::from_millis(150), &cancel);
    assert_eq!(ev.next().await.unwrap().unwrap().data, "slowly");
}

#[tokio::test]
async fn cancellation_ends_a_pending_stream() {
    let cancel = CancellationToken::new();
    let mut ev = SseEvents::new(
        futures::stream::pending::<Result<Vec<u8>, ProviderError>>(),
        Duration::from_secs(3600),
        &cancel,
    );
    let c = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        c.cancel();
    });
    assert_eq!(ev.next().await.unwrap_err(), ProviderError::Cancelled);
}

#[tokio::test]
async fn transport_errors_pass_through() {
    let cancel = CancellationToken::new();
    let failing = futures::stream::iter(vec![
        Ok(b"data: 1\n\n".to_vec()),
        Err(ProviderError::Transport {
            message: "connection reset".into(),
        }),
    ]);
    let mut ev = SseEvents::new(failing, Duration::from_secs(5), &cancel);
    assert!(ev.next().await.unwrap().is_some());
    assert!(matches!(
        ev.next().await,
        Err(ProviderError::Transport { .. })
    ));
}

#[tokio::test]
async fn invalid_utf8_is_bad_response() {
    let cancel = CancellationToken::new();
    let bad = futures::stream::iter(vec![Ok::<_, ProviderError>(vec![
        b'd', b'a', 0xff, 0xfe, b'\n', b'\n',
    ])]);
    let mut ev = SseEvents::new(bad, Duration::from_secs(5), &cancel);
    assert!(matches!(
        ev.next().await,
        Err(ProviderError::BadResponse { .. })
    ));
}

#[test]
fn excerpt_truncates_on_char_boundaries() {
    assert_eq!(excerpt("héllo", 2), "hé…");
    assert_eq!(excerpt("hi", 2), "hi");
}
