use super::*;

#[test]
fn provider_flag_drops_the_files_base_url() {
    let file = ModelConfig {
        provider: "custom".into(),
        base_url: "http://127.0.0.1:8080/v1".into(),
        default: "local".into(),
        ..ModelConfig::default()
    };
    let overrides = ModelOverrides {
        provider: Some("openrouter".into()),
        ..ModelOverrides::default()
    };
    let model = apply_overrides(&file, &overrides);
    assert_eq!(model.provider, "openrouter");
    assert_eq!(model.base_url, "");
    assert_eq!(model.default, "local");
}

#[test]
fn base_url_and_model_flags_override_the_file() {
    let file = ModelConfig {
        provider: "custom".into(),
        base_url: "http://127.0.0.1:8080/v1".into(),
        ..ModelConfig::default()
    };
    let overrides = ModelOverrides {
        model: Some("m2".into()),
        provider: Some("custom".into()),
        base_url: Some("http://127.0.0.1:9/v1".into()),
    };
    let model = apply_overrides(&file, &overrides);
    assert_eq!(model.base_url, "http://127.0.0.1:9/v1");
    assert_eq!(model.default, "m2");
}

#[test]
fn cwd_resolution_checks_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(resolve_cwd(".", dir.path()).unwrap(), dir.path());
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    assert_eq!(
        resolve_cwd("sub", dir.path()).unwrap(),
        dir.path().join("sub")
    );
    let err = resolve_cwd("missing", dir.path()).unwrap_err();
    assert!(err.to_string().contains("missing"), "{err}");
}

#[test]
fn session_ids_sort_by_time_and_are_unique() {
    let a = new_session_id();
    let b = new_session_id();
    assert_ne!(a, b);
    assert_eq!(a.len(), "20261129_1954_abcdef".len(), "{a}");
    assert!(
        a.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "{a}"
    );
}

#[test]
fn auxiliary_auto_and_main_mean_the_main_provider() {
    let main = ModelConfig {
        provider: "custom".into(),
        base_url: "http://127.0.0.1:8080/v1".into(),
        default: "big".into(),
        ..ModelConfig::default()
    };
    let env = EnvLookup::from_maps(Default::default(), Default::default());
    let client = crate::util::http::build_client().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    let logins = LoginSources::load(&home, &|_| None, client.clone());
    for provider in ["auto", "main", "Auto"] {
        let mut config = Config::default();
        config.auxiliary.compression = crate::config::AuxiliaryModel {
            model: "small".into(),
            provider: provider.into(),
            base_url: String::new(),
        };
        let mut notices = Vec::new();
        let endpoint = auxiliary_endpoint(
            &main,
            AuxTask::Compression,
            &config,
            &env,
            &client,
            &logins,
            &mut notices,
        )
        .unwrap_or_else(|| panic!("{provider}: {notices:?}"));
        assert_eq!(endpoint.base_url, "http://127.0.0.1:8080/v1", "{provider}");
        assert_eq!(endpoint.model, "small");
    }
}

#[test]
fn auxiliary_errors_name_the_setting() {
    let main = ModelConfig {
        provider: "custom".into(),
        base_url: "http://127.0.0.1:8080/v1".into(),
        ..ModelConfig::default()
    };
    let env = EnvLookup::from_maps(Default::default(), Default::default());
    let client = crate::util::http::build_client().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    let logins = LoginSources::load(&home, &|_| None, client.clone());
    let mut config = Config::default();
    config.auxiliary.vision = crate::config::AuxiliaryModel {
        model: "v".into(),
        provider: "gemni".into(),
        base_url: String::new(),
    };
    let mut notices = Vec::new();
    assert!(
        auxiliary_endpoint(
            &main,
            AuxTask::Vision,
            &config,
            &env,
            &client,
            &logins,
            &mut notices
        )
        .is_none()
    );
    assert!(
        notices[0].contains("in auxiliary.vision.provider") && notices[0].contains("`gemini`"),
        "{notices:?}"
    );
}
