use pretty_assertions::assert_eq;

use super::*;
use crate::store::NewSession;
use crate::store::test_support::new_session;
use crate::store::test_support::temp_store;

fn route(model: &str) -> BillingRoute {
    BillingRoute {
        model: model.into(),
        provider: "openrouter".into(),
        base_url: "https://openrouter.ai/api/v1".into(),
    }
}

fn tokens(input: u64, output: u64, cache_read: u64) -> CallTokens {
    CallTokens {
        input,
        output,
        cache_read,
        cache_write: 2,
        reasoning: 1,
    }
}

type UsageRowView = (
    String,
    String,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
    Option<String>,
);

fn usage_rows(store: &SessionStore) -> Vec<UsageRowView> {
    let conn = store.conn();
    let mut stmt = conn
        .prepare(
            "SELECT model, billing_provider, billing_base_url, task, api_call_count, \
             input_tokens, output_tokens, cache_read_tokens, cost_status \
             FROM session_model_usage ORDER BY task, model",
        )
        .unwrap();
    stmt.query_map([], |r| {
        Ok((
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
            r.get(5)?,
            r.get(6)?,
            r.get(7)?,
            r.get(8)?,
        ))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

#[test]
fn provider_usage_splits_cached_prompt_tokens_out_of_input() {
    let usage = Usage {
        input_tokens: 1_000,
        output_tokens: 50,
        cache_read_tokens: 700,
        cache_write_tokens: 200,
        reasoning_tokens: 5,
    };
    assert_eq!(
        CallTokens::from_usage(&usage),
        CallTokens {
            input: 100,
            output: 50,
            cache_read: 700,
            cache_write: 200,
            reasoning: 5,
        }
    );
}

#[test]
fn each_call_adds_to_the_session_and_its_route_row() {
    let (_dir, store) = temp_store();
    store
        .create_session(&NewSession {
            model: "anthropic/claude-sonnet-4".into(),
            provider: "openrouter".into(),
            base_url: "https://openrouter.ai/api/v1".into(),
            ..new_session("s")
        })
        .unwrap();
    let claude = route("anthropic/claude-sonnet-4");
    store
        .record_api_call("s", &claude, &tokens(10, 5, 100))
        .unwrap();
    store
        .record_api_call("s", &claude, &tokens(20, 6, 200))
        .unwrap();
    // A /model switch: later calls go to another row; the session keeps its first route.
    store
        .record_api_call("s", &route("openai/gpt-5"), &tokens(1, 1, 0))
        .unwrap();
    let row = store.session("s").unwrap().unwrap();
    assert_eq!(
        (
            row.input_tokens,
            row.output_tokens,
            row.cache_read_tokens,
            row.cache_write_tokens,
            row.reasoning_tokens,
            row.api_call_count
        ),
        (31, 12, 300, 6, 3, 3)
    );
    assert_eq!(row.model.as_deref(), Some("anthropic/claude-sonnet-4"));
    assert_eq!(row.estimated_cost_usd, None, "hermes cannot price calls");
    let base = "https://openrouter.ai/api/v1".to_string();
    assert_eq!(
        usage_rows(&store),
        vec![
            (
                "anthropic/claude-sonnet-4".into(),
                "openrouter".into(),
                base.clone(),
                String::new(),
                2,
                30,
                11,
                300,
                Some("unknown".into())
            ),
            (
                "openai/gpt-5".into(),
                "openrouter".into(),
                base,
                String::new(),
                1,
                1,
                1,
                0,
                Some("unknown".into())
            ),
        ]
    );
    let (status, source, cost): (String, String, f64) = store
        .conn()
        .query_row(
            "SELECT cost_status, cost_source, estimated_cost_usd FROM sessions WHERE id = 's'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(
        (status.as_str(), source.as_str(), cost),
        ("unknown", "none", 0.0)
    );
}

#[test]
fn the_first_call_sets_the_route_of_a_session_created_with_another() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    store
        .record_api_call("s", &route("fallback-model"), &tokens(1, 1, 0))
        .unwrap();
    let row = store.session("s").unwrap().unwrap();
    assert_eq!(row.model.as_deref(), Some("fallback-model"));
    assert_eq!(row.billing_provider.as_deref(), Some("openrouter"));
}

#[test]
fn auxiliary_calls_get_their_own_row_and_leave_the_totals_alone() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    store
        .record_auxiliary_call(
            "s",
            AuxTask::Compression,
            &route("summariser"),
            &tokens(9, 3, 0),
        )
        .unwrap();
    store
        .record_auxiliary_call(
            "s",
            AuxTask::Compression,
            &route("summariser"),
            &CallTokens::default(),
        )
        .unwrap();
    let row = store.session("s").unwrap().unwrap();
    assert_eq!((row.input_tokens, row.api_call_count), (0, 0));
    let rows = usage_rows(&store);
    assert_eq!(rows.len(), 1, "a call without tokens is not recorded");
    assert_eq!(rows[0].0, "summariser");
    assert_eq!(rows[0].3, "compression");
    assert_eq!((rows[0].4, rows[0].5), (1, 9));
    assert_eq!(
        rows[0].8, None,
        "Hermes leaves cost_status NULL on auxiliary rows"
    );
    assert!(matches!(
        store.record_auxiliary_call("zz", AuxTask::Compression, &route("m"), &tokens(1, 1, 0)),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.record_api_call("zz", &route("m"), &tokens(1, 1, 0)),
        Err(StoreError::NotFound(_))
    ));
}

#[test]
fn deleting_a_session_deletes_its_usage_rows() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    store
        .record_api_call("s", &route("m"), &tokens(1, 1, 0))
        .unwrap();
    assert!(store.delete_session("s").unwrap());
    assert!(usage_rows(&store).is_empty());
}

#[test]
fn billing_urls_never_keep_credentials() {
    for (raw, want) in [
        ("http://user:pw@host:8080/v1", "http://host:8080/v1"),
        (
            "https://sk-secret@openrouter.ai/api/v1",
            "https://openrouter.ai/api/v1",
        ),
        (
            "https://proxy.example/v1?key=sk-1#frag",
            "https://proxy.example/v1",
        ),
        ("https://openrouter.ai", "https://openrouter.ai"),
        ("http://127.0.0.1:4000/v1/", "http://127.0.0.1:4000/v1/"),
        ("not a url user:pw@host/v1?k=1", "host/v1"),
        ("", ""),
    ] {
        assert_eq!(billing_base_url(raw), want, "{raw}");
    }
    let (_dir, store) = temp_store();
    store
        .create_session(&NewSession {
            base_url: "http://user:hunter2@proxy.local/v1".into(),
            ..new_session("s")
        })
        .unwrap();
    let secret_route = BillingRoute {
        base_url: "http://user:hunter2@proxy.local/v1".into(),
        ..route("m")
    };
    store
        .record_api_call("s", &secret_route, &tokens(1, 1, 0))
        .unwrap();
    store
        .record_auxiliary_call("s", AuxTask::Compression, &secret_route, &tokens(1, 1, 0))
        .unwrap();
    let dump: String = store
        .conn()
        .query_row(
            "SELECT group_concat(u, '|') FROM (SELECT billing_base_url AS u FROM sessions \
             UNION ALL SELECT billing_base_url FROM session_model_usage)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!dump.contains("hunter2"), "{dump}");
    assert!(dump.contains("http://proxy.local/v1"), "{dump}");
}
