//! The registry is process-wide and tests run in parallel: every test uses values of its own,
//! so no test sees another's registration.

use super::super::RedactSecrets;
use super::super::Redactor;
use super::super::redact;
use super::*;

#[test]
fn a_registered_value_without_a_vendor_prefix_is_masked_by_every_redactor() {
    let key = "Zq9xK2mP7vR4tL8wN3bH";
    let body = format!("Incorrect API key provided: {key}");
    assert_eq!(redact(&body, &[]), body, "no pattern knows this key");
    register_known_secret(key);
    assert_eq!(redact(&body, &[]), "Incorrect API key provided: ***");
    assert_eq!(
        Redactor::default().redact(&body),
        "Incorrect API key provided: ***"
    );
    assert_eq!(redact_known(&body), "Incorrect API key provided: ***");
    // The switch still means what it says for tool output and exports.
    assert_eq!(
        Redactor::new(RedactSecrets::Off, Vec::new()).redact(&body),
        body
    );
}

#[test]
fn short_blank_and_repeated_values_are_not_registered() {
    register_known_secrets(["Kw7pQ2m", "   ", "", "zzzzzzzzzzzz"]);
    for text in ["Kw7pQ2m", "a zzzzzzzzzzzz b"] {
        assert_eq!(redact_known(text), text);
    }
    // Exactly the minimum is enough; surrounding whitespace is not part of the value.
    register_known_secrets(["  Kw7pQ2mX  "]);
    assert_eq!(redact_known("[Kw7pQ2mX]"), "[***]");
    assert_eq!(MIN_REGISTERED_LEN, "Kw7pQ2mX".len());
}

#[test]
fn named_values_are_registered_only_under_secret_names() {
    register_named_secret("GATEWAY_API_KEY", "gw-Hq4nT8vB2xL6");
    register_named_secret("Authorization", "Bearer tokVx93KdLq01");
    register_named_secret("model", "model-name-Rb7c4000");
    register_named_secret("key_env", "MY_GATEWAY_KEY_NAME");
    register_named_secret("api_key", "${NOT_A_VALUE_1234}");
    register_named_secret("Authorization", "Bearer ${TOKEN_REF_Q8}");
    assert_eq!(redact_known("k=gw-Hq4nT8vB2xL6"), "k=***");
    assert_eq!(redact_known("echoed tokVx93KdLq01"), "echoed ***");
    for kept in [
        "model-name-Rb7c4000",
        "MY_GATEWAY_KEY_NAME",
        "${NOT_A_VALUE_1234}",
        "${TOKEN_REF_Q8}",
    ] {
        assert_eq!(redact_known(kept), kept);
    }
}

#[test]
fn secrets_anywhere_in_a_document_are_registered() {
    let doc = serde_json::json!({
        "providers": {"gw": {"api_key": "cfg-Lp3Wq8Zr5Tn1", "base_url": "http://gw-Lp3/v1"}},
        "mcp_servers": {"gh": {
            "env": {"GITHUB_TOKEN": "mcpTok-Ab12Cd34Ef"},
            "headers": {"Authorization": "Bearer hdrTok-9Yx8Wv7U"}
        }},
        "list": [{"password": "pw-in-list-4477"}],
    });
    register_secrets_in_json(&doc);
    let text =
        "cfg-Lp3Wq8Zr5Tn1 mcpTok-Ab12Cd34Ef hdrTok-9Yx8Wv7U pw-in-list-4477 http://gw-Lp3/v1";
    assert_eq!(redact_known(text), "*** *** *** *** http://gw-Lp3/v1");
}

#[test]
fn redact_known_masks_only_registered_values() {
    register_known_secret("only-known-Jd82Ks0q");
    let text = "OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 and only-known-Jd82Ks0q";
    assert_eq!(
        redact_known(text),
        "OPENAI_API_KEY=sk-proj-abcdefghijklmnop1234 and ***"
    );
    assert!(matches!(redact_known("nothing here"), Cow::Borrowed(_)));
    assert!(has_known_secrets());
}

#[test]
fn redact_known_json_masks_every_string_and_keeps_keys() {
    register_known_secret("json-known-Pq71Vz3m");
    let mut value = serde_json::json!({
        "type": "error",
        "json-known-Pq71Vz3m": 1,
        "text": "401: json-known-Pq71Vz3m",
        "nested": [{"deep": "x json-known-Pq71Vz3m y"}, 3, null],
    });
    assert!(redact_known_json(&mut value));
    assert_eq!(value["text"], "401: ***");
    assert_eq!(value["nested"][0]["deep"], "x *** y");
    assert_eq!(value["json-known-Pq71Vz3m"], 1);
    let mut clean = serde_json::json!({"text": "fine"});
    assert!(!redact_known_json(&mut clean));
}
