use crate::config::schema::ProviderConfig;
use crate::providers::ProviderSetupError;
use crate::providers::Secret;
use crate::providers::registry::CredentialSources;
use crate::providers::registry::ResolvedProvider;
use crate::providers::registry::StoredLogin;
use crate::providers::registry::resolve_with;
use crate::providers::registry::tests::env_of;
use crate::providers::registry::tests::model;
use crate::providers::registry::tests::resolve_env;

fn auto(env: &[(&str, &str)]) -> Result<ResolvedProvider, ProviderSetupError> {
    resolve_env(&model("auto", ""), env)
}

fn picked(env: &[(&str, &str)]) -> String {
    auto(env)
        .map(|r| r.name)
        .unwrap_or_else(|e| format!("error: {e}"))
}

#[test]
fn auto_and_empty_mean_the_same() {
    let env = [("DEEPSEEK_API_KEY", "sk-ds-1")];
    assert_eq!(picked(&env), "deepseek");
    assert_eq!(resolve_env(&model("", ""), &env).unwrap().name, "deepseek");
    assert_eq!(
        resolve_env(&model(" Auto ", ""), &env).unwrap().name,
        "deepseek"
    );
}

#[test]
fn a_configured_base_url_comes_first() {
    let keys = [
        ("OPENROUTER_API_KEY", "sk-or-1"),
        ("OPENAI_API_KEY", "sk-proj-1"),
    ];
    let local = resolve_env(&model("auto", "http://127.0.0.1:1234/v1"), &keys).unwrap();
    assert_eq!(local.name, "custom");
    assert_eq!(local.api_key, None, "no cloud key goes to a local server");
    let own = resolve_env(&model("", "https://openrouter.ai/api/v1"), &keys).unwrap();
    assert_eq!(
        (own.name.as_str(), own.api_key),
        ("openrouter", Some(Secret::new("sk-or-1")))
    );
    let openai = resolve_env(&model("auto", "https://api.openai.com/v1"), &keys).unwrap();
    assert_eq!(openai.name, "openai-api");
}

#[test]
fn keys_pick_in_hermes_order() {
    let all = [
        ("OPENROUTER_API_KEY", "sk-or-1"),
        ("OPENAI_API_KEY", "sk-proj-1"),
        ("GEMINI_API_KEY", "AIza-1"),
        ("GLM_API_KEY", "glm-key"),
        ("ANTHROPIC_API_KEY", "sk-ant-api03-1"),
        ("DEEPSEEK_API_KEY", "sk-ds-1"),
        ("UPSTAGE_API_KEY", "up-key"),
        ("NOUS_API_KEY", "nous-key"),
    ];
    let expected = [
        "openrouter",
        "openai-api",
        "gemini",
        "zai",
        "anthropic",
        "deepseek",
        "upstage",
        "nous",
    ];
    for (i, name) in expected.iter().enumerate() {
        assert_eq!(picked(&all[i..]), *name, "with {:?}", &all[i..]);
    }
    assert_eq!(auto(&[]).unwrap_err(), ProviderSetupError::NoProvider);
}

#[test]
fn an_openrouter_key_in_openai_api_key_means_openrouter() {
    let r = auto(&[("OPENAI_API_KEY", "sk-or-v1-abc")]).unwrap();
    assert_eq!(r.name, "openrouter");
    assert_eq!(r.api_key, Some(Secret::new("sk-or-v1-abc")));
    let r = auto(&[
        ("OPENAI_API_KEY", "sk-proj-abc"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:9/v1"),
    ])
    .unwrap();
    assert_eq!(r.name, "openai-api");
    assert_eq!(r.base_url, "http://127.0.0.1:9/v1");
}

#[test]
fn some_keys_need_the_provider_named() {
    // GitHub tokens and LM Studio's optional key do not pick a provider (as in Hermes).
    let env = [("GITHUB_TOKEN", "ghp_abcdef"), ("LM_API_KEY", "lm-key")];
    assert_eq!(auto(&env).unwrap_err(), ProviderSetupError::NoProvider);
    // Placeholders are not keys.
    assert_eq!(
        picked(&[
            ("DEEPSEEK_API_KEY", "changeme"),
            ("XAI_API_KEY", "xai-real")
        ]),
        "xai"
    );
}

#[test]
fn the_logged_in_provider_is_the_last_resort_before_aws() {
    let login = StoredLogin {
        access: Secret::new("portal-token"),
        inference_base_url: None,
    };
    let stored = move |id: &str| (id == "nous").then(|| login.clone());
    let run = |env: &[(&str, &str)], active: Option<&str>| {
        let lookup = env_of(env);
        let sources = CredentialSources {
            env: &lookup,
            login: &stored,
            active_login: active,
        };
        resolve_with(&model("auto", ""), &ProviderConfig::default(), &sources)
    };
    let r = run(&[], Some("nous")).unwrap();
    assert_eq!(
        (r.name.as_str(), r.api_key),
        ("nous", Some(Secret::new("portal-token")))
    );
    // An API key wins over the login (Hermes #29285).
    assert_eq!(
        run(&[("DEEPSEEK_API_KEY", "sk-ds-1")], Some("nous"))
            .unwrap()
            .name,
        "deepseek"
    );
    // A login hermes cannot use says so, in one line.
    let err = run(&[("AWS_PROFILE", "work")], Some("openai-codex")).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("openai-codex") && text.contains("auth.json"),
        "{text}"
    );
    assert!(text.contains("`openai-api` with OPENAI_API_KEY"), "{text}");
}

#[test]
fn aws_credentials_mean_bedrock() {
    assert_eq!(picked(&[("AWS_PROFILE", "work")]), "bedrock");
    assert_eq!(
        picked(&[
            ("AWS_ACCESS_KEY_ID", "AKIAX"),
            ("AWS_SECRET_ACCESS_KEY", "secret")
        ]),
        "bedrock"
    );
    assert_eq!(picked(&[("AWS_BEARER_TOKEN_BEDROCK", "tok")]), "bedrock");
    // Half a key pair is nothing.
    assert_eq!(
        auto(&[("AWS_ACCESS_KEY_ID", "AKIAX")]).unwrap_err(),
        ProviderSetupError::NoProvider
    );
}

#[test]
fn hermes_inference_provider_applies_only_when_unset() {
    let env = [
        ("HERMES_INFERENCE_PROVIDER", "deepseek"),
        ("DEEPSEEK_API_KEY", "sk-ds-1"),
        ("XAI_API_KEY", "xai-real"),
    ];
    assert_eq!(resolve_env(&model("", ""), &env).unwrap().name, "deepseek");
    assert_eq!(resolve_env(&model("xai", ""), &env).unwrap().name, "xai");
    let env = [("HERMES_INFERENCE_PROVIDER", "nope")];
    let text = resolve_env(&model("", ""), &env).unwrap_err().to_string();
    assert!(text.contains("in HERMES_INFERENCE_PROVIDER"), "{text}");
}
