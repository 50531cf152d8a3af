//! A corpus of realistic snippets: what must be masked (and how), and what must survive.
//! The keys are fake but have the real shapes.

use super::*;

/// (input, expected output).
const POSITIVE: &[(&str, &str)] = &[
    // Provider formats in running text: the vendor prefix stays.
    (
        "using sk-ant-api03-Xy9_abcDEF-1234567890abcdef now",
        "using sk-ant-*** now",
    ),
    (
        "OpenRouter key sk-or-v1-5f2b8c1d9e7a4b3c2d1e0f9a8b7c6d5e rejected",
        "OpenRouter key sk-or-v1-*** rejected",
    ),
    (
        "Incorrect API key provided: sk-proj-AbC123dEf456GhI7",
        "Incorrect API key provided: sk-proj-***",
    ),
    (
        "svc sk-svcacct-Zz81aa0bb9cc8dd7ee6ff5",
        "svc sk-svcacct-***",
    ),
    (
        "deepseek sk-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c",
        "deepseek sk-***",
    ),
    (
        "remote: ghp_0123456789abcdefghijABCDEFGHIJ1234",
        "remote: ghp_***",
    ),
    (
        "oauth gho_16C7e42F292c6912E7710c838347Ae178B4a",
        "oauth gho_***",
    ),
    ("ghu_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "ghu_***"),
    (
        "app token ghs_ZyXwVuTsRqPoNmLkJiHg1234567890",
        "app token ghs_***",
    ),
    (
        "ghr_1B4a2e77838347a7E420ce178F2E7c6912E169246c34E1ccbF66C46812d16D5B1A9Dc86A1498",
        "ghr_***",
    ),
    (
        "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEF",
        "github_pat_***",
    ),
    ("glpat-xYz12AbC34dEf56GhI78", "glpat-***"),
    (
        "bot xoxb-2384729347-2938472938-aBcDeFgHiJkLmNoP",
        "bot xoxb-***",
    ),
    (
        "user xoxp-1234567890-0987654321-abcdefabcdef",
        "user xoxp-***",
    ),
    ("xapp-1-A0123456789-1234567890123-abcdef0123", "xapp-***"),
    (
        "charge with sk_live_51H8xYzAbCdEfGhIj0123",
        "charge with sk_live_***",
    ),
    ("rk_live_4eC39HqLyjWDarjtT1zdp7dc", "rk_live_***"),
    ("pk_live_TYooMQauvdEDq54NiTphI7jx", "pk_live_***"),
    ("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "sk_test_***"),
    (
        "maps AIzaSyA0123456789abcdefghijklmnopqrstuv",
        "maps AIza***",
    ),
    ("id AKIAIOSFODNN7REALKEY and more", "id AKIA*** and more"),
    ("temp ASIAQNZGKWTQ4EXAMPLZ", "temp ASIA***"),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq9LmN3kP0",
        "aws_secret_access_key = ***",
    ),
    ("login hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345", "login hf_***"),
    (
        "//registry.npmjs.org/:_authToken=npm_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
        "//registry.npmjs.org/:_authToken=***",
    ),
    ("groq gsk_aBcDeFgHiJkLmNoPqRsT1234", "groq gsk_***"),
    ("xai-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "xai-***"),
    (
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U end",
        "jwt *** end",
    ),
    (
        "TELEGRAM 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1 ok",
        "TELEGRAM 123456789:*** ok",
    ),
    (
        "discord MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs done",
        "discord *** done",
    ),
    (
        "Authorization: Bearer abc123.def456-ghi789",
        "Authorization: Bearer ***",
    ),
    (
        "Proxy-Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l",
        "Proxy-Authorization: Basic ***",
    ),
    (
        "Authorization: token ghp_0123456789abcdefghijABCDEFGHIJ1234",
        "Authorization: token ***",
    ),
    (
        r#"{"Authorization": "Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln"}"#,
        r#"{"Authorization": "Bearer ***"}"#,
    ),
    ("x-api-key: abcdef0123456789", "x-api-key: ***"),
    (
        r#"curl -H "X-Goog-Api-Key: Qw3rTy8uIoP0aSdF" https://x"#,
        r#"curl -H "X-Goog-Api-Key: ***" https://x"#,
    ),
    (
        "postgres://admin:s3cr3tP4ss@db.internal:5432/app",
        "postgres://admin:***@db.internal:5432/app",
    ),
    (
        "DATABASE_URL=mysql://root:rootpass123@localhost/db",
        "DATABASE_URL=mysql://root:***@localhost/db",
    ),
    (
        "GET /v1/data?api_key=a1b2c3d4e5f6g7h8&page=2",
        "GET /v1/data?api_key=***&page=2",
    ),
    (
        "https://app.test/cb?access_token=Zk81mQ0pLx7aB2cD9eF&token_type=Bearer",
        "https://app.test/cb?access_token=***&token_type=Bearer",
    ),
    (
        r#"export DB_PASSWORD="correct horse battery staple""#,
        r#"export DB_PASSWORD="***""#,
    ),
    ("  password: hunter2", "  password: ***"),
    ("DB_PASS=abcd1234", "DB_PASS=***"),
    (
        r#"{"clientSecret": "Zx8-QwErTy1234", "clientId": "app"}"#,
        r#"{"clientSecret": "***", "clientId": "app"}"#,
    ),
    (
        "SECRET_KEY = 'django-insecure-8f#k2l!x'",
        "SECRET_KEY = '***'",
    ),
    (
        "aws_session_token=IQoJb3JpZ2luX2VjEJr0123abcDEF",
        "aws_session_token=***",
    ),
    (
        r#"{"token": "9f86d081884c7d659a2f"}"#,
        r#"{"token": "***"}"#,
    ),
    (
        r#"{\"api_key\": \"abc123def456ghi\"}"#,
        r#"{\"api_key\": \"***\"}"#,
    ),
    ("{'password': 'pa55word'}", "{'password': '***'}"),
    (r#"apiKey: "AbC123xYz789","#, r#"apiKey: "***","#),
    (
        "mytool --api-key=abc123def456 run",
        "mytool --api-key=*** run",
    ),
    (
        "     3|ANTHROPIC_API_KEY=sk-ant-api03-AbCdEfGh12345678",
        "     3|ANTHROPIC_API_KEY=***",
    ),
    (
        "SLACK_WEBHOOK=https://hooks.slack.com/services/T00000000/B00000000/Xb7Yc8Zd9Ae0Bf1Cg2Dh3Ei4",
        "SLACK_WEBHOOK=https://hooks.slack.com/services/***",
    ),
    (
        "git remote add origin https://x-access-token:ghs_ZyXwVuTsRqPoNmLkJiHg1234567890@github.com/o/r.git",
        "git remote add origin https://x-access-token:***@github.com/o/r.git",
    ),
    (
        "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oS0GtjJb1MDH\n-----END EC PRIVATE KEY-----",
        "-----BEGIN EC PRIVATE KEY-----\n***\n-----END EC PRIVATE KEY-----",
    ),
    (
        "STRIPE_WEBHOOK_SECRET=whsec_abcdefghijklmnop0123",
        "STRIPE_WEBHOOK_SECRET=***",
    ),
    ("encryption_key: 8d969eef6ecad3c2", "encryption_key: ***"),
];

/// Text that must come back borrowed, untouched.
const NEGATIVE: &[&str] = &[
    "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "id: 550e8400-e29b-41d4-a716-446655440000",
    r#"checksum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855""#,
    "image: sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "max_tokens: 4096, tokens=500, token: 5, keys: 3",
    "PASSWORD_MIN_LENGTH=8",
    r#"let api_key = env::var("API_KEY")?;"#,
    r#"api_key = os.environ["OPENAI_API_KEY"]"#,
    "client = OpenAI(api_key=api_key, base_url=base_url)",
    "const token = process.env.GITHUB_TOKEN;",
    "    password: String,",
    "  apiKey: string;",
    "    api_key: Option<String>,",
    "fn redact(text: &str, known_secrets: &[String]) -> String",
    "def login(username, password=None):",
    "if password == confirm_password:",
    "secret = Secret::new(raw)",
    "Enter your password: ",
    "The token is invalid; please log in again.",
    "Authorization header is required for this endpoint.",
    "KEYBOARD_LAYOUT=us-intl-2",
    "MONKEY_PATCH=enabled123",
    "token_type: bearer",
    "SSH_AUTH_SOCK=/tmp/ssh-XXXXabcd/agent.1234",
    "PWD=/home/user/project2",
    "OPENAI_API_KEY=your-api-key-here",
    "OPENAI_API_KEY=${OPENAI_API_KEY}",
    r#"curl -H "Authorization: Bearer $TOKEN" https://api.example.com"#,
    "x-api-key: ${API_KEY}",
    r#"{"key": "ArrowDown", "code": 40}"#,
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "https://localhost:8080/api/v1/items?page=2&limit=50",
    "git@github.com:org/repo.git",
    "Install scikit-learn with pip; see sk-learn docs.",
    r#""author": "Jane Doe <jane@example.com>""#,
    "tokenizer: cl100k_base",
    "TOKENIZERS_PARALLELISM=false",
    "primary_key=True, sort_key=created_at_2024",
    r#"pad_token: "<|endoftext|>""#,
    "private: true",
    "The bearer of bad news arrived.",
    "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----",
    "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUJ\n-----END CERTIFICATE-----",
    "api_key_env: OPENAI_API_KEY",
    "password_reset_url: https://app.test/reset?id=42",
    "private_key_id: 1a2b3c4d5e6f7a8b9c0d",
    "Telegram chat 1234567890 joined",
    "2024-01-15T10:30:00Z INFO request_id=7f3a9c2e-1b4d total_tokens=1234",
    "OPENAI_API_KEY=sk-...",
    "passport_number: AB1234567",
    "expires_at: 1700000000",
    "task-list-management-system and risk-assessment-procedures",
    "base_url: http://localhost:8080/v1",
    "api_key is empty; set api_key: in config.yaml",
];

#[test]
fn every_positive_is_masked_as_expected() {
    assert!(POSITIVE.len() >= 40, "{} positives", POSITIVE.len());
    let mut failures = Vec::new();
    for (input, want) in POSITIVE {
        let got = redact(input, &[]);
        if got != *want {
            failures.push(format!("{input:?}\n   got {got:?}\n  want {want:?}"));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn every_negative_is_borrowed_untouched() {
    assert!(NEGATIVE.len() >= 30, "{} negatives", NEGATIVE.len());
    let changed: Vec<String> = NEGATIVE
        .iter()
        .filter_map(|input| match redact(input, &[]) {
            Cow::Borrowed(_) => None,
            Cow::Owned(out) => Some(format!("{input:?}\n   -> {out:?}")),
        })
        .collect();
    assert!(changed.is_empty(), "\n{}", changed.join("\n"));
}

#[test]
fn the_whole_corpus_as_one_text() {
    // Detectors must not interfere across lines: joined, each line redacts as it did alone.
    let input: Vec<&str> = POSITIVE
        .iter()
        .map(|(i, _)| *i)
        .chain(NEGATIVE.iter().copied())
        .collect();
    let want: Vec<&str> = POSITIVE
        .iter()
        .map(|(_, w)| *w)
        .chain(NEGATIVE.iter().copied())
        .collect();
    assert_eq!(redact(&input.join("\n\n"), &[]), want.join("\n\n"));
}
