//! A wire test per provider profile of Python Hermes 0.19 that speaks chat completions or
//! Anthropic Messages: the real `hermes -z` binary, configured only the way a Hermes user
//! would (`model.provider: <name>`, the provider's key variable and its `*_BASE_URL`
//! variable — or `model.base_url` where Hermes has no variable), runs one turn against the
//! scripted server; the test checks the request path, the auth header, the extra headers
//! Hermes sends for that provider and the model id. Also `provider: auto`, named
//! `providers:` / `custom_providers:` entries, and the one-line errors for providers hermes
//! cannot use.
//!
//! The Responses-format profiles (xai; openai-api, OpenCode Zen's GPT models and Azure
//! Foundry's GPT-5 deployments) and Bedrock (SigV4-signed Converse) are here too. The
//! environment is cleared for every run, so keys of the machine running the tests never take
//! part.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use support::RecordedRequest;
use support::Response;
use support::ScriptedServer;

/// Where the profile's base URL comes from in the test.
#[derive(Clone, Copy)]
enum Base {
    /// This variable, set to the server's `/v1` URL (OpenAI style).
    Var(&'static str),
    /// This variable, set to the server's root (Anthropic style: the client adds `/v1`).
    RootVar(&'static str),
    /// `model.base_url` in config.yaml (Hermes has no variable for the profile).
    Config,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Auth {
    Bearer,
    XApiKey,
}

struct Case {
    provider: &'static str,
    model: &'static str,
    base: Base,
    /// `(variable, value)`; empty for profiles that need no key.
    key: (&'static str, &'static str),
    /// Extra config under `model:` (e.g. `api_mode`).
    model_extra: &'static str,
    path: &'static str,
    auth: Auth,
    /// The key the request must carry (default: the key variable's value).
    sent_key: Option<&'static str>,
    headers: &'static [(&'static str, &'static str)],
}

const fn chat(provider: &'static str, base_var: &'static str, key_var: &'static str) -> Case {
    Case {
        provider,
        model: "test-model",
        base: Base::Var(base_var),
        key: (key_var, "test-key-123"),
        model_extra: "",
        path: "/v1/chat/completions",
        auth: Auth::Bearer,
        sent_key: None,
        headers: &[],
    }
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    requests: Vec<RecordedRequest>,
}

async fn run(config_yaml: &str, env: &[(&str, &str)], server: &ScriptedServer) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("config.yaml"), config_yaml).unwrap();
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
    cmd.args(["-z", "hi"])
        .current_dir(dir.path())
        .env_clear()
        .env("HERMES_HOME", &home)
        .env("HOME", dir.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let out = tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("hermes did not finish within 60 s")
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        requests: server.completion_requests(),
    }
}

async fn check(case: Case) {
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let mut model = format!(
        "model:\n  provider: {}\n  default: {}\n",
        case.provider, case.model
    );
    let mut env: Vec<(String, String)> = Vec::new();
    match case.base {
        Base::Var(var) => env.push((var.into(), server.base_url())),
        Base::RootVar(var) => env.push((var.into(), server.root_url())),
        Base::Config => model.push_str(&format!("  base_url: {}\n", server.base_url())),
    }
    if !case.key.0.is_empty() {
        env.push((case.key.0.into(), case.key.1.into()));
    }
    model.push_str(case.model_extra);
    let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let out = run(&model, &pairs, &server).await;
    let id = case.provider;
    assert_eq!(out.code, 0, "{id}: stderr: {}", out.stderr);
    assert_eq!(out.stdout, "ok\n", "{id}");
    assert_eq!(out.requests.len(), 1, "{id}");
    let req = &out.requests[0];
    assert_eq!(req.path, case.path, "{id}");
    assert_eq!(req.body["model"], case.model, "{id}");
    let key = case.sent_key.unwrap_or(case.key.1);
    match case.auth {
        Auth::Bearer => {
            assert_eq!(
                req.header("authorization"),
                Some(format!("Bearer {key}").as_str()),
                "{id}"
            );
            assert_eq!(req.header("x-api-key"), None, "{id}");
        }
        Auth::XApiKey => {
            assert_eq!(req.header("x-api-key"), Some(key), "{id}");
            assert_eq!(req.header("authorization"), None, "{id}");
        }
    }
    for (name, value) in case.headers {
        let got = req.header(name).unwrap_or_default();
        assert!(
            got.starts_with(value),
            "{id}: {name}: {got:?}, want {value:?}"
        );
    }
}

macro_rules! wire_tests {
    ($($name:ident => $case:expr;)*) => {
        $(
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() {
                check($case).await;
            }
        )*
    };
}

wire_tests! {
    openrouter => Case {
        key: ("OPENROUTER_API_KEY", "sk-or-test"),
        headers: &[("x-title", "hermes"), ("http-referer", "https://")],
        ..chat("openrouter", "OPENROUTER_BASE_URL", "")
    };
    openai_api_on_a_chat_endpoint => chat("openai-api", "OPENAI_BASE_URL", "OPENAI_API_KEY");
    gemini => chat("gemini", "GEMINI_BASE_URL", "GEMINI_API_KEY");
    gemini_by_google_api_key => chat("google", "GEMINI_BASE_URL", "GOOGLE_API_KEY");
    zai => chat("zai", "GLM_BASE_URL", "ZAI_API_KEY");
    kimi_coding => Case {
        headers: &[("user-agent", "hermes-agent/1.0")],
        ..chat("kimi-coding", "KIMI_BASE_URL", "KIMI_API_KEY")
    };
    kimi_coding_cn => Case {
        base: Base::Config,
        headers: &[("user-agent", "hermes-agent/1.0")],
        ..chat("kimi-coding-cn", "", "KIMI_CN_API_KEY")
    };
    stepfun => chat("stepfun", "STEPFUN_BASE_URL", "STEPFUN_API_KEY");
    arcee => chat("arcee", "ARCEE_BASE_URL", "ARCEEAI_API_KEY");
    gmi => Case {
        headers: &[("user-agent", "HermesAgent/")],
        ..chat("gmi", "GMI_BASE_URL", "GMI_API_KEY")
    };
    minimax => Case {
        base: Base::RootVar("MINIMAX_BASE_URL"),
        model_extra: "  api_mode: anthropic_messages\n",
        path: "/v1/messages",
        ..chat("minimax", "", "MINIMAX_API_KEY")
    };
    minimax_cn => Case {
        base: Base::RootVar("MINIMAX_CN_BASE_URL"),
        model_extra: "  api_mode: anthropic_messages\n",
        path: "/v1/messages",
        ..chat("minimax-cn", "", "MINIMAX_CN_API_KEY")
    };
    anthropic => Case {
        base: Base::RootVar("ANTHROPIC_BASE_URL"),
        key: ("ANTHROPIC_API_KEY", "sk-ant-api03-test"),
        path: "/v1/messages",
        auth: Auth::XApiKey,
        headers: &[("anthropic-version", "2023-06-01")],
        ..chat("anthropic", "", "")
    };
    alibaba => chat("alibaba", "DASHSCOPE_BASE_URL", "DASHSCOPE_API_KEY");
    alibaba_coding_plan => chat("alibaba-coding-plan", "ALIBABA_CODING_PLAN_BASE_URL", "ALIBABA_CODING_PLAN_API_KEY");
    deepseek => chat("deepseek", "DEEPSEEK_BASE_URL", "DEEPSEEK_API_KEY");
    nvidia => chat("nvidia", "NVIDIA_BASE_URL", "NVIDIA_API_KEY");
    opencode_zen_chat_model => Case {
        model: "gemini-3-flash",
        ..chat("opencode-zen", "OPENCODE_ZEN_BASE_URL", "OPENCODE_ZEN_API_KEY")
    };
    opencode_zen_claude_model => Case {
        model: "claude-sonnet-4",
        path: "/v1/messages",
        auth: Auth::XApiKey,
        ..chat("opencode-zen", "OPENCODE_ZEN_BASE_URL", "OPENCODE_ZEN_API_KEY")
    };
    opencode_go_glm_model => Case {
        model: "glm-5",
        ..chat("opencode-go", "OPENCODE_GO_BASE_URL", "OPENCODE_GO_API_KEY")
    };
    opencode_go_minimax_model => Case {
        model: "minimax-m2.7",
        path: "/v1/messages",
        auth: Auth::XApiKey,
        ..chat("opencode-go", "OPENCODE_GO_BASE_URL", "OPENCODE_GO_API_KEY")
    };
    kilocode => chat("kilocode", "KILOCODE_BASE_URL", "KILOCODE_API_KEY");
    huggingface => chat("huggingface", "HF_BASE_URL", "HF_TOKEN");
    xiaomi => chat("xiaomi", "XIAOMI_BASE_URL", "XIAOMI_API_KEY");
    tencent_tokenhub => chat("tencent-tokenhub", "TOKENHUB_BASE_URL", "TOKENHUB_API_KEY");
    ollama_cloud => chat("ollama-cloud", "OLLAMA_BASE_URL", "OLLAMA_API_KEY");
    lmstudio_without_a_key => Case {
        base: Base::RootVar("LM_BASE_URL"),
        key: ("", ""),
        sent_key: Some("dummy-lm-api-key"),
        ..chat("lmstudio", "", "")
    };
    azure_foundry => chat("azure-foundry", "AZURE_FOUNDRY_BASE_URL", "AZURE_FOUNDRY_API_KEY");
    deepinfra => chat("deepinfra", "DEEPINFRA_BASE_URL", "DEEPINFRA_API_KEY");
    fireworks => Case {
        base: Base::Config,
        ..chat("fireworks", "", "FIREWORKS_API_KEY")
    };
    novita => chat("novita", "NOVITA_BASE_URL", "NOVITA_API_KEY");
    upstage => chat("upstage", "UPSTAGE_BASE_URL", "UPSTAGE_API_KEY");
    nous_with_an_api_key => chat("nous", "NOUS_INFERENCE_BASE_URL", "NOUS_API_KEY");
    xai_on_responses => Case {
        path: "/v1/responses",
        ..chat("xai", "XAI_BASE_URL", "XAI_API_KEY")
    };
    openai_api_on_responses => Case {
        model_extra: "  api_mode: codex_responses\n",
        path: "/v1/responses",
        ..chat("openai-api", "OPENAI_BASE_URL", "OPENAI_API_KEY")
    };
    opencode_zen_gpt_model => Case {
        model: "gpt-5.4",
        path: "/v1/responses",
        ..chat("opencode-zen", "OPENCODE_ZEN_BASE_URL", "OPENCODE_ZEN_API_KEY")
    };
    azure_foundry_gpt5_deployment => Case {
        model: "gpt-5.4",
        path: "/v1/responses",
        ..chat("azure-foundry", "AZURE_FOUNDRY_BASE_URL", "AZURE_FOUNDRY_API_KEY")
    };
    custom_with_its_key => chat("custom", "CUSTOM_BASE_URL", "CUSTOM_API_KEY");
}

/// Bedrock: no key in hermes's config; AWS's variables sign the request (SigV4).
async fn check_bedrock(provider: &str) {
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let config = format!("model:\n  provider: {provider}\n  default: amazon.nova-pro-v1\n");
    let root = server.root_url();
    let env = [
        ("BEDROCK_BASE_URL", root.as_str()),
        ("AWS_ACCESS_KEY_ID", "AKIATEST"),
        ("AWS_SECRET_ACCESS_KEY", "test-secret-key"),
        ("AWS_REGION", "us-west-2"),
    ];
    let out = run(&config, &env, &server).await;
    assert_eq!(out.code, 0, "{provider}: stderr: {}", out.stderr);
    assert_eq!(out.stdout, "ok\n");
    let req = &out.requests[0];
    assert_eq!(req.path, "/model/amazon.nova-pro-v1/converse-stream");
    let auth = req.header("authorization").unwrap_or_default();
    assert!(
        auth.starts_with("AWS4-HMAC-SHA256 Credential=AKIATEST/"),
        "{auth}"
    );
    assert!(auth.contains("/us-west-2/bedrock/aws4_request"), "{auth}");
    assert!(!auth.contains("test-secret-key"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bedrock_signs_with_aws_credentials() {
    check_bedrock("bedrock").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_picks_bedrock_from_aws_credentials() {
    check_bedrock("auto").await;
}

/// `provider: auto` (Hermes's default) picks from the keys present; today's hermes said
/// "unknown provider `auto`".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_picks_the_provider_from_the_keys() {
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let config = "model:\n  provider: auto\n  default: deepseek-chat\n";
    let base = server.base_url();
    let out = run(
        config,
        &[
            ("DEEPSEEK_API_KEY", "sk-ds-test"),
            ("DEEPSEEK_BASE_URL", &base),
        ],
        &server,
    )
    .await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout, "ok\n");
    let req = &out.requests[0];
    assert_eq!(req.header("authorization"), Some("Bearer sk-ds-test"));
    assert_eq!(req.body["model"], "deepseek-chat");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_prefers_openrouter_and_uses_a_configured_base_url_first() {
    let server = ScriptedServer::start([Response::text(["ok"]), Response::text(["ok"])]).await;
    let base = server.base_url();
    let keys = [
        ("OPENROUTER_API_KEY", "sk-or-test"),
        ("OPENROUTER_BASE_URL", base.as_str()),
        ("DEEPSEEK_API_KEY", "sk-ds-test"),
    ];
    let out = run("model:\n  provider: auto\n  default: m\n", &keys, &server).await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(
        out.requests[0].header("authorization"),
        Some("Bearer sk-or-test")
    );
    assert_eq!(out.requests[0].header("x-title"), Some("hermes"));
    // A base URL in config.yaml means that server, and no cloud key goes there.
    let config = format!("model:\n  provider: auto\n  base_url: {base}\n  default: m\n");
    let out = run(&config, &keys, &server).await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.requests[1].header("authorization"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn named_providers_entry_with_key_env_and_headers() {
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let config = format!(
        "model:\n  provider: my-proxy\n  default: ''\nproviders:\n  my-proxy:\n    name: My Proxy\n    base_url: {}\n    key_env: MY_PROXY_KEY\n    default_model: proxy-model\n    extra_headers:\n      CF-Access-Client-Id: client-1\n",
        server.base_url()
    );
    let out = run(&config, &[("MY_PROXY_KEY", "proxy-secret")], &server).await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let req = &out.requests[0];
    assert_eq!(req.path, "/v1/chat/completions");
    assert_eq!(req.header("authorization"), Some("Bearer proxy-secret"));
    assert_eq!(req.header("cf-access-client-id"), Some("client-1"));
    assert_eq!(req.body["model"], "proxy-model");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legacy_custom_providers_entry_in_the_messages_format() {
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let config = format!(
        "model:\n  provider: custom:work-llm\n  default: claude-work\ncustom_providers:\n  - name: Work LLM\n    base_url: {}\n    api_key: work-inline-key\n    api_mode: anthropic_messages\n",
        server.root_url()
    );
    let out = run(&config, &[], &server).await;
    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    let req = &out.requests[0];
    assert_eq!(req.path, "/v1/messages");
    assert_eq!(req.header("x-api-key"), Some("work-inline-key"));
    assert_eq!(req.body["model"], "claude-work");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oauth_only_and_unknown_providers_fail_with_one_line() {
    let server = ScriptedServer::start([]).await;
    for (provider, expected) in [
        ("openai-codex", "use `openai-api` with OPENAI_API_KEY"),
        ("copilot", "token exchange"),
        ("xai-oauth", "use `xai` with XAI_API_KEY"),
        ("deepseeek", "did you mean `deepseek`?"),
    ] {
        let config = format!("model:\n  provider: {provider}\n  default: m\n");
        let out = run(&config, &[("OPENAI_API_KEY", "sk-proj-test")], &server).await;
        assert_eq!(out.code, 2, "{provider}: {}", out.stderr);
        assert_eq!(out.stderr.lines().count(), 1, "{provider}: {}", out.stderr);
        assert!(out.stderr.contains(expected), "{provider}: {}", out.stderr);
        assert!(
            out.stderr.contains("model.provider"),
            "{provider}: {}",
            out.stderr
        );
    }
    assert!(server.completion_requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_show_warns_about_provider_names_hermes_cannot_use() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.yaml"),
        "model:\n  provider: auto\nauxiliary:\n  vision:\n    provider: codex\n  compression:\n    provider: openroutr\ndelegation:\n  provider: deepseek\n",
    )
    .unwrap();
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"))
        .args(["config", "show"])
        .env_clear()
        .env("HERMES_HOME", dir.path())
        .env("HOME", dir.path())
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let warnings: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("# warning:") && l.contains("provider"))
        .collect();
    assert_eq!(warnings.len(), 2, "{stdout}");
    assert!(
        warnings[0].contains("auxiliary.vision.provider") && warnings[0].contains("openai-codex"),
        "{stdout}"
    );
    assert!(
        warnings[1].contains("did you mean `openrouter`?"),
        "{stdout}"
    );
}
