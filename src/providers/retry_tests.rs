use std::sync::Mutex;
use std::time::Instant;

use super::*;

fn fast(max_retries: u32) -> RetryPolicy {
    RetryPolicy {
        base_delay: Duration::from_millis(1),
        max_delay: Duration::from_millis(5),
        ..RetryPolicy::new(max_retries)
    }
}

#[test]
fn backoff_grows_exponentially_within_jitter_bounds_and_caps() {
    let p = RetryPolicy::new(5);
    for _ in 0..50 {
        let d0 = p.backoff(0, None).unwrap();
        assert!(
            d0 >= Duration::from_millis(500) && d0 <= Duration::from_secs(1),
            "{d0:?}"
        );
        let d3 = p.backoff(3, None).unwrap();
        assert!(
            d3 >= Duration::from_secs(4) && d3 <= Duration::from_secs(8),
            "{d3:?}"
        );
        let d20 = p.backoff(20, None).unwrap();
        assert!(
            d20 >= Duration::from_secs(15) && d20 <= Duration::from_secs(30),
            "{d20:?}"
        );
    }
}

#[test]
fn retry_after_overrides_backoff_unless_too_long() {
    let p = RetryPolicy::new(3);
    assert_eq!(
        p.backoff(0, Some(Duration::from_secs(7))),
        Some(Duration::from_secs(7))
    );
    assert_eq!(p.backoff(0, Some(Duration::from_secs(3600))), None);
}

#[test]
fn parses_retry_after_seconds() {
    assert_eq!(parse_retry_after(" 12 "), Some(Duration::from_secs(12)));
    assert_eq!(parse_retry_after("0.5"), Some(Duration::from_millis(500)));
    assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    assert_eq!(parse_retry_after("-1"), None);
}

#[test]
fn classifies_statuses() {
    let auth = classify_status(401, None, r#"{"error":{"message":"Invalid API key"}}"#);
    assert_eq!(
        auth,
        ProviderError::Auth {
            status: 401,
            message: "Invalid API key".into()
        }
    );
    assert!(matches!(
        classify_status(403, None, "forbidden"),
        ProviderError::Auth { status: 403, .. }
    ));
    assert_eq!(
        classify_status(429, Some(Duration::from_secs(2)), "slow down"),
        ProviderError::RateLimited {
            retry_after: Some(Duration::from_secs(2))
        }
    );
    let ctx = classify_status(
        400,
        None,
        r#"{"error":{"message":"This model's maximum context length is 8192 tokens"}}"#,
    );
    assert!(
        matches!(ctx, ProviderError::ContextTooLong { ref message } if message.contains("8192"))
    );
    assert!(matches!(
        classify_status(
            413,
            None,
            "prompt is too long: 210000 tokens > 200000 maximum"
        ),
        ProviderError::ContextTooLong { .. }
    ));
    let bad = classify_status(400, None, r#"{"error":"unknown field foo"}"#);
    assert_eq!(
        bad,
        ProviderError::BadResponse {
            message: "HTTP 400: unknown field foo".into()
        }
    );
    let five = classify_status(503, None, "upstream down");
    assert_eq!(
        five,
        ProviderError::Transport {
            message: "HTTP 503 from the provider: upstream down".into()
        }
    );
    assert!(
        matches!(classify_status(404, None, ""), ProviderError::BadResponse { ref message } if message.contains("empty"))
    );
}

#[test]
fn server_messages_are_redacted_and_short() {
    let msg = server_message(
        r#"{"error":{"message":"Incorrect API key provided: sk-proj-abcdef123456. Check it."}}"#,
    );
    assert!(!msg.contains("abcdef"), "{msg}");
    assert!(msg.contains("Incorrect API key provided"));
    assert!(!server_message("Authorization: Bearer secret-token-x").contains("secret-token-x"));
    assert!(server_message(&"x".repeat(1000)).chars().count() <= 301);
}

/// Scripted attempt results; records how many attempts ran.
async fn drive(
    policy: RetryPolicy,
    script: Vec<Result<u32, Failure>>,
    emitted: &AtomicBool,
) -> (Result<u32, ProviderError>, usize) {
    let script = Mutex::new(script.into_iter());
    let calls = Mutex::new(0usize);
    let cancel = CancellationToken::new();
    let result = run("test", &policy, &cancel, emitted, |_| {
        *calls.lock().unwrap() += 1;
        let next = script.lock().unwrap().next().unwrap();
        async move { next }
    })
    .await;
    let n = *calls.lock().unwrap();
    (result, n)
}

fn transport() -> Failure {
    ProviderError::Transport {
        message: "reset".into(),
    }
    .into()
}

#[tokio::test]
async fn retries_transport_errors_up_to_the_budget() {
    let no = AtomicBool::new(false);
    let (r, n) = drive(
        fast(3),
        vec![Err(transport()), Err(transport()), Ok(7)],
        &no,
    )
    .await;
    assert_eq!((r, n), (Ok(7), 3));
    let (r, n) = drive(
        fast(2),
        vec![Err(transport()), Err(transport()), Err(transport())],
        &no,
    )
    .await;
    assert!(matches!(r, Err(ProviderError::Transport { .. })));
    assert_eq!(n, 3);
}

#[tokio::test]
async fn final_errors_are_not_retried() {
    let no = AtomicBool::new(false);
    let auth = Failure::from(ProviderError::Auth {
        status: 401,
        message: "no".into(),
    });
    let (r, n) = drive(fast(3), vec![Err(auth), Ok(1)], &no).await;
    assert!(matches!(r, Err(ProviderError::Auth { .. })));
    assert_eq!(n, 1);
}

#[tokio::test]
async fn hang_is_retried_once() {
    let no = AtomicBool::new(false);
    let hang = || Failure::from(ProviderError::Hang { idle_secs: 1 });
    let (r, n) = drive(fast(5), vec![Err(hang()), Err(hang()), Ok(1)], &no).await;
    assert_eq!(r, Err(ProviderError::Hang { idle_secs: 1 }));
    assert_eq!(n, 2);
}

#[tokio::test]
async fn nothing_is_retried_after_a_delta_was_emitted() {
    let yes = AtomicBool::new(true);
    let (r, n) = drive(fast(3), vec![Err(transport()), Ok(1)], &yes).await;
    assert!(r.is_err());
    assert_eq!(n, 1);
}

#[tokio::test]
async fn retry_after_hint_is_slept() {
    let no = AtomicBool::new(false);
    let hinted = Failure {
        error: ProviderError::Transport {
            message: "HTTP 503".into(),
        },
        retry_after: Some(Duration::from_millis(150)),
    };
    let start = Instant::now();
    let (r, _) = drive(fast(3), vec![Err(hinted), Ok(2)], &no).await;
    assert_eq!(r, Ok(2));
    assert!(start.elapsed() >= Duration::from_millis(140));
}

#[tokio::test]
async fn cancellation_interrupts_backoff() {
    let policy = RetryPolicy {
        base_delay: Duration::from_secs(60),
        max_delay: Duration::from_secs(60),
        ..RetryPolicy::new(3)
    };
    let cancel = CancellationToken::new();
    let c = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(30)).await;
        c.cancel();
    });
    let no = AtomicBool::new(false);
    let start = Instant::now();
    let r: Result<(), _> = run("test", &policy, &cancel, &no, |_| async {
        Err(transport())
    })
    .await;
    assert_eq!(r, Err(ProviderError::Cancelled));
    assert!(start.elapsed() < Duration::from_secs(5));
}
