use super::*;

fn r(text: &str) -> String {
    redact(text, &[]).into_owned()
}

#[test]
fn provider_key_formats() {
    let cases = [
        (
            "key sk-abcdefghijklmnopqrstuvwxyz123456 end",
            "key sk-*** end",
        ),
        ("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv-_xyz", "sk-ant-***"),
        ("sk-or-v1-0123456789abcdef0123456789abcdef", "sk-or-v1-***"),
        ("sk-proj-0123456789abcdef0123456789", "sk-proj-***"),
        ("ghp_0123456789abcdefghijABCDEFGHIJ1234", "ghp_***"),
        ("AIzaSyA0123456789abcdefghijklmnopqrstuv", "AIza***"),
        ("hf_abcdefghijklmnopqrstuvwxyz", "hf_***"),
        ("xoxb-1234567890-abcdefghij", "xoxb-***"),
        ("AKIAABCDEFGHIJKLMNOP", "AKIA***"),
    ];
    for (input, want) in cases {
        assert_eq!(r(input), want, "input {input:?}");
    }
}

#[test]
fn headers_and_bearer() {
    assert_eq!(
        r("Authorization: Bearer abc.def-ghi_jkl"),
        "Authorization: Bearer ***"
    );
    assert_eq!(
        r("authorization=Basic dXNlcjpwYXNz"),
        "authorization=Basic ***"
    );
    assert_eq!(r("x-api-key: sk-ant-xyz"), "x-api-key: ***");
    assert_eq!(
        r(r#"{"x-api-key": "abcd1234efgh", "model": "m"}"#),
        r#"{"x-api-key": "***", "model": "m"}"#
    );
    assert_eq!(r("sent Bearer eyJhbGciOiJIUzI1NiJ9.x"), "sent Bearer ***");
    assert_eq!(
        r("headers: {\"authorization\": \"Bearer tok12345678\"}"),
        "headers: {\"authorization\": \"Bearer ***\"}"
    );
}

#[test]
fn assignments() {
    assert_eq!(r("OPENAI_API_KEY=abcdefgh123"), "OPENAI_API_KEY=***");
    assert_eq!(r(r#""api_key": "k-12345678""#), r#""api_key": "***""#);
    assert_eq!(r("GITHUB_TOKEN: gh-something-long"), "GITHUB_TOKEN: ***");
    assert_eq!(r("password = hunter2hunter2"), "password = ***");
}

#[test]
fn known_secret_values() {
    let secrets = vec!["my-local-secret-9".to_string(), "abc".to_string()];
    let out = redact("using my-local-secret-9 and abc", &secrets);
    assert_eq!(out, "using *** and abc");
}

#[test]
fn ordinary_text_is_untouched_and_borrowed() {
    let texts = [
        "The task-list-management-system is risky: risk-assessment-procedures apply.",
        "max_tokens: 4096, tokens=500, token: 5",
        "Install scikit-learn with pip; see sk-learn docs.",
        "The bearer of bad news arrived.",
        "The bearer responsibility matters.",
        "authorization was granted by the board",
        "api_key is empty",
        "base_url: http://localhost:8080/v1",
    ];
    for text in texts {
        let out = redact(text, &[]);
        assert!(
            matches!(out, Cow::Borrowed(_)),
            "changed {text:?} to {out:?}"
        );
    }
}

#[test]
fn pem_private_keys_keep_their_armour_lines() {
    let key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn\n/ygWyF8PbnGy0AHB7MhgwMbRvI0\n-----END RSA PRIVATE KEY-----\n";
    assert_eq!(
        r(&format!("cat id_rsa\n{key}done")),
        "cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----\n***\n-----END RSA PRIVATE KEY-----\ndone"
    );
    // Escaped in a JSON string; under a secret name the whole value goes.
    assert_eq!(
        r(
            r#"{"pem": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n", "x": 1}"#
        ),
        r#"{"pem": "-----BEGIN PRIVATE KEY-----\n***\n-----END PRIVATE KEY-----\n", "x": 1}"#
    );
    assert_eq!(
        r(
            r#"{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n"}"#
        ),
        r#"{"private_key": "***"}"#
    );
    // No END line: masked to the end of the text.
    assert_eq!(
        r("head -3 key.pem\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAA"),
        "head -3 key.pem\n-----BEGIN OPENSSH PRIVATE KEY-----\n***"
    );
    // Public keys and certificates are not secret.
    let public = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----";
    assert!(matches!(redact(public, &[]), Cow::Borrowed(_)));
}

#[test]
fn the_switch_and_the_redactor() {
    let text = "OPENAI_API_KEY=sk-proj-0123456789abcdef and my-local-secret-9";
    let known = vec!["my-local-secret-9".to_string()];
    assert_eq!(redact_if(RedactSecrets::Off, text, &known), text);
    assert_eq!(
        redact_if(RedactSecrets::On, text, &known),
        "OPENAI_API_KEY=*** and ***"
    );
    let on = Redactor::new(RedactSecrets::from(true), known);
    assert_eq!(on.redact(text), "OPENAI_API_KEY=*** and ***");
    assert_eq!(on.switch(), RedactSecrets::On);
    assert!(matches!(Redactor::off().redact(text), Cow::Borrowed(_)));
    assert_eq!(RedactSecrets::from(false), RedactSecrets::Off);
    assert_eq!(RedactSecrets::default(), RedactSecrets::On);
    // Debug never shows the known values.
    let debug = format!("{on:?}");
    assert!(!debug.contains("my-local"), "{debug}");
    assert!(debug.contains("known_secrets: 1"), "{debug}");
}

#[test]
fn json_values_are_redacted_in_place() {
    let mut value = serde_json::json!({
        "role": "tool",
        "content": "export GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ1234",
        "nested": [{"password": "hunter2"}, {"api_key": "$OPENAI_API_KEY"}],
        "token_count": 12,
        "arguments": "{\"command\":\"curl -H 'Authorization: Bearer abc123def456'\"}",
    });
    Redactor::default().redact_json(&mut value);
    assert_eq!(value["content"], "export GITHUB_TOKEN=***");
    assert_eq!(value["nested"][0]["password"], MASK);
    assert_eq!(value["nested"][1]["api_key"], "$OPENAI_API_KEY");
    assert_eq!(value["token_count"], 12);
    assert_eq!(
        value["arguments"],
        "{\"command\":\"curl -H 'Authorization: Bearer ***'\"}"
    );
    let mut untouched = serde_json::json!({"password": "hunter2"});
    Redactor::off().redact_json(&mut untouched);
    assert_eq!(untouched["password"], "hunter2");
}

#[test]
fn overlapping_matches_become_one_mask() {
    assert_eq!(
        r("Authorization: Bearer sk-ant-api03-abcdefghijkl"),
        "Authorization: Bearer ***"
    );
    assert_eq!(
        redact(
            "key=abcdef123456abcdef",
            &["abcdef123456abcdef".to_string()]
        ),
        "key=***"
    );
}

/// About 1 MB of tool output: code, JSON, logs, non-ASCII prose, base64, a few secrets.
fn mixed_megabyte() -> String {
    let chunk = concat!(
        "    let api_key = env::var(\"API_KEY\")?; // read the key\n",
        "    client = OpenAI(api_key=api_key, base_url=base_url, max_tokens=4096)\n",
        "{\"id\": \"msg_01\", \"role\": \"assistant\", \"key\": \"item-7\", \"token_count\": 12}\n",
        "2026-01-15T10:30:00Z INFO hermes::engine request_id=7f3a9c2e total_tokens=1234 ok\n",
        "Die Straße ist naß — “quoted” prose with ✓ marks and the word token in it.\n",
        "checksum = \"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\"\n",
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAA\n",
    );
    let secrets = "OPENAI_API_KEY=sk-proj-AbC123dEf456GhI7\nAuthorization: Bearer abc123def456\n";
    let mut text = String::with_capacity(1_050_000);
    let mut n = 0;
    while text.len() < 1_000_000 {
        text.push_str(chunk);
        n += 1;
        if n % 100 == 0 {
            text.push_str(secrets);
        }
    }
    text
}

/// `cargo test --release --lib util::redact::tests::throughput -- --ignored --nocapture`
#[test]
#[ignore = "timing; run in release"]
fn throughput() {
    let text = mixed_megabyte();
    let redactor = Redactor::new(
        RedactSecrets::On,
        (0..20).map(|i| format!("known-secret-{i:04}")).collect(),
    );
    let masked = redactor.redact(&text).matches(MASK).count();
    let runs = 20;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        std::hint::black_box(redactor.redact(&text));
    }
    let per_mb = start.elapsed().as_secs_f64() * 1000.0 / runs as f64;
    println!(
        "{} bytes, {masked} masks: {per_mb:.2} ms per run",
        text.len()
    );
    assert!(masked > 0);
}
