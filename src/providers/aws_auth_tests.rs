use std::collections::HashMap;
use std::time::Duration;
use std::time::UNIX_EPOCH;

use pretty_assertions::assert_eq;

use super::*;

/// An environment whose HOME is `home`, plus `vars`.
fn env_with(home: &Path, vars: &[(&str, &str)]) -> AwsEnv {
    let map: HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .chain([("HOME".to_string(), home.display().to_string())])
        .collect();
    AwsEnv::capture(&|k| map.get(k).cloned())
}

fn write(home: &Path, name: &str, text: &str) {
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(home.join(".aws").join(name), text).unwrap();
}

fn keys_of(setup: &AwsSetup) -> (&str, &str, Option<&str>) {
    match &setup.auth {
        AwsAuth::Keys(k) => (
            k.access_key_id.expose(),
            k.secret_access_key.expose(),
            k.session_token.as_ref().map(Secret::expose),
        ),
        AwsAuth::Bearer(_) => panic!("expected keys"),
    }
}

#[test]
fn capture_reads_the_variables_and_hides_secrets() {
    let env = AwsEnv::capture(&|k| match k {
        "AWS_ACCESS_KEY_ID" => Some("AKIAEXAMPLE".into()),
        "AWS_SECRET_ACCESS_KEY" => Some("very-secret-value".into()),
        "AWS_DEFAULT_REGION" => Some("eu-west-1".into()),
        "AWS_DEFAULT_PROFILE" => Some("work".into()),
        "AWS_SESSION_TOKEN" => Some("  ".into()),
        _ => None,
    });
    assert_eq!(env.region.as_deref(), Some("eu-west-1"));
    assert_eq!(env.profile.as_deref(), Some("work"));
    assert!(env.session_token.is_none(), "blank counts as unset");
    let debug = format!("{env:?}");
    assert!(
        !debug.contains("very-secret-value") && !debug.contains("AKIAEXAMPLE"),
        "{debug}"
    );
}

#[test]
fn precedence_bearer_then_environment_then_profile_files() {
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "credentials",
        "[default]\naws_access_key_id = AKIDFILE\naws_secret_access_key = file-secret\n",
    );
    let from_file = load(&env_with(home.path(), &[]), None).unwrap();
    assert_eq!(keys_of(&from_file), ("AKIDFILE", "file-secret", None));
    assert!(
        from_file.source.contains("profile default"),
        "{}",
        from_file.source
    );

    let env_keys = env_with(
        home.path(),
        &[
            ("AWS_ACCESS_KEY_ID", "AKIDENV"),
            ("AWS_SECRET_ACCESS_KEY", "env-secret"),
            ("AWS_SESSION_TOKEN", "tok"),
        ],
    );
    assert_eq!(
        keys_of(&load(&env_keys, None).unwrap()),
        ("AKIDENV", "env-secret", Some("tok"))
    );

    let bearer = env_with(
        home.path(),
        &[
            ("AWS_BEARER_TOKEN_BEDROCK", "bedrock-key"),
            ("AWS_ACCESS_KEY_ID", "AKIDENV"),
        ],
    );
    assert!(matches!(
        load(&bearer, None).unwrap().auth,
        AwsAuth::Bearer(ref t) if t.expose() == "bedrock-key"
    ));
}

#[test]
fn named_profiles_come_from_credentials_then_config() {
    let home = tempfile::tempdir().unwrap();
    write(
        home.path(),
        "credentials",
        "# keys\n[dev]\naws_access_key_id=AKIDDEV\naws_secret_access_key=dev-secret\naws_session_token=devtok\n",
    );
    write(
        home.path(),
        "config",
        "[default]\nregion = us-west-2\n\n[profile ops]\nregion = ap-south-1\naws_access_key_id = AKIDOPS\naws_secret_access_key = ops-secret\ns3 =\n  max_concurrent_requests = 20\n[sso-session corp]\nsso_region = us-east-1\n",
    );
    let dev = load(&env_with(home.path(), &[("AWS_PROFILE", "dev")]), None).unwrap();
    assert_eq!(keys_of(&dev), ("AKIDDEV", "dev-secret", Some("devtok")));
    let ops = load(&env_with(home.path(), &[("AWS_PROFILE", "ops")]), None).unwrap();
    assert_eq!(keys_of(&ops), ("AKIDOPS", "ops-secret", None));
    assert_eq!(ops.region, "ap-south-1", "the profile's region");
    let missing = load(&env_with(home.path(), &[("AWS_PROFILE", "nope")]), None).unwrap_err();
    assert!(
        matches!(missing, AwsCredentialError::ProfileNotFound { ref profile, .. } if profile == "nope"),
        "{missing:?}"
    );
}

#[test]
fn region_order_url_then_environment_then_profile_then_default() {
    let home = tempfile::tempdir().unwrap();
    write(home.path(), "config", "[default]\nregion = us-west-2\n");
    let keys = [("AWS_ACCESS_KEY_ID", "A"), ("AWS_SECRET_ACCESS_KEY", "S")];
    let env = env_with(home.path(), &keys);
    assert_eq!(
        load(&env, Some("eu-central-1")).unwrap().region,
        "eu-central-1"
    );
    assert_eq!(load(&env, None).unwrap().region, "us-west-2");
    let with_region = env_with(
        home.path(),
        &[keys[0], keys[1], ("AWS_REGION", "ca-central-1")],
    );
    assert_eq!(load(&with_region, None).unwrap().region, "ca-central-1");
    let empty_home = tempfile::tempdir().unwrap();
    assert_eq!(
        load(&env_with(empty_home.path(), &keys), None)
            .unwrap()
            .region,
        DEFAULT_REGION
    );
}

#[test]
fn unusable_setups_say_what_to_do() {
    let home = tempfile::tempdir().unwrap();
    let none = load(&env_with(home.path(), &[]), None)
        .unwrap_err()
        .to_string();
    assert!(
        none.contains("AWS_ACCESS_KEY_ID") && none.contains("HERMES_HOME/.env"),
        "{none}"
    );
    let half = load(&env_with(home.path(), &[("AWS_ACCESS_KEY_ID", "A")]), None).unwrap_err();
    assert!(
        matches!(half, AwsCredentialError::PartialKeys { .. }),
        "{half:?}"
    );
    write(
        home.path(),
        "config",
        "[profile corp]\nsso_session = corp\nsso_account_id = 1\n",
    );
    let sso = load(&env_with(home.path(), &[("AWS_PROFILE", "corp")]), None)
        .unwrap_err()
        .to_string();
    assert!(
        sso.contains("SSO") && sso.contains("export-credentials"),
        "{sso}"
    );
    write(
        home.path(),
        "credentials",
        "[default]\naws_access_key_id = A\n",
    );
    let incomplete = load(&env_with(home.path(), &[]), None).unwrap_err();
    assert!(
        matches!(
            incomplete,
            AwsCredentialError::IncompleteProfile {
                missing: "aws_secret_access_key",
                ..
            }
        ),
        "{incomplete:?}"
    );
}

#[test]
fn shared_file_variables_override_the_home_paths() {
    let home = tempfile::tempdir().unwrap();
    let elsewhere = home.path().join("elsewhere");
    std::fs::write(
        &elsewhere,
        "[default]\naws_access_key_id = AKIDX\naws_secret_access_key = x-secret\n",
    )
    .unwrap();
    let env = env_with(
        home.path(),
        &[("AWS_SHARED_CREDENTIALS_FILE", elsewhere.to_str().unwrap())],
    );
    assert_eq!(keys_of(&load(&env, None).unwrap()).0, "AKIDX");
}

#[test]
fn regions_of_bedrock_hosts() {
    assert_eq!(
        region_of_host("bedrock-runtime.eu-west-3.amazonaws.com").as_deref(),
        Some("eu-west-3")
    );
    assert_eq!(
        region_of_host("bedrock-runtime-fips.us-east-1.amazonaws.com").as_deref(),
        Some("us-east-1")
    );
    assert_eq!(
        region_of_host("bedrock-runtime.cn-north-1.amazonaws.com.cn").as_deref(),
        Some("cn-north-1")
    );
    assert_eq!(region_of_host("127.0.0.1"), None);
    assert_eq!(region_of_host("proxy.example.com"), None);
}

#[test]
fn sigv4_signs_host_date_and_body_for_bedrock() {
    let keys = AwsKeys {
        access_key_id: Secret::new("AKIDEXAMPLE"),
        secret_access_key: Secret::new("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        session_token: Some(Secret::new("session-tok")),
    };
    let input = |body: &'static [u8]| SignInput {
        method: "POST",
        url: "http://127.0.0.1:8080/model/amazon.nova-pro-v1%3A0/converse-stream",
        headers: &[("content-type", "application/json")],
        body,
        time: UNIX_EPOCH + Duration::from_secs(1_700_000_000),
    };
    let headers: HashMap<String, String> = sigv4_headers(&keys, "eu-west-1", &input(b"{}"))
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(headers["x-amz-date"], "20231114T221320Z");
    assert_eq!(headers["x-amz-security-token"], "session-tok");
    let auth = &headers["authorization"];
    assert!(
        auth.starts_with(
            "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20231114/eu-west-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature="
        ),
        "{auth}"
    );
    let other: HashMap<String, String> = sigv4_headers(&keys, "eu-west-1", &input(b"{\"a\":1}"))
        .unwrap()
        .into_iter()
        .collect();
    assert_ne!(auth, &other["authorization"], "the body is signed");
    assert!(!auth.contains("wJalrXUtnFEMI"));
}
