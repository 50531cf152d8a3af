#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn vars(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn secret_named_variables_are_offered_and_ordinary_ones_are_not() {
    let env = vars(&[
        ("MY_GATEWAY_TOKEN", "gw-Tq83mZp0Lx"),
        (
            "AWS_SECRET_ACCESS_KEY",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        ),
        ("DB_PASSWORD", "hunter2hunter2"),
        ("INTERNAL_SECRET_VALUE", "Zx81kLm20qPw"),
        ("HOME", "/home/u"),
        ("PATH", "/usr/bin:/bin"),
        ("TOKENIZERS_PARALLELISM", "false"),
        ("SSH_AUTH_SOCK", "/tmp/ssh-XXXX/agent.1"),
        ("PASSWORD_STORE_DIR", "/home/u/.password-store"),
        ("CREDENTIAL_HELPER_TOKEN", "keychain"),
    ]);
    let offered: Vec<&str> = environment_secrets(&env)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(
        offered,
        [
            "MY_GATEWAY_TOKEN",
            "AWS_SECRET_ACCESS_KEY",
            "DB_PASSWORD",
            "INTERNAL_SECRET_VALUE"
        ]
    );
}

const CREDENTIALS: &str = "\u{feff}# my keys
[default]
aws_access_key_id = AKIAIOSFODNN7EXAMPLE
aws_secret_access_key = Dflt8xQ2mP7vR4tL8wN3bHsecret
[work]
aws_secret_access_key=W0rk8xQ2mP7vR4tL8wN3bHsecret
aws_session_token = W0rkSess1onT0kenQ2mP7vR4tL8wN3
[other]
aws_secret_access_key = 0ther8xQ2mP7vR4tL8wN3bHsecret
this line is not ini
";

#[test]
fn the_default_and_the_chosen_profile_give_their_secrets() {
    let profiles = vec!["default".to_owned(), "work".to_owned()];
    assert_eq!(
        profile_secrets(CREDENTIALS, &profiles, Dialect::Credentials),
        [
            "Dflt8xQ2mP7vR4tL8wN3bHsecret",
            "W0rk8xQ2mP7vR4tL8wN3bHsecret",
            "W0rkSess1onT0kenQ2mP7vR4tL8wN3"
        ]
    );
    let config =
        "[default]\nregion = eu-west-1\n[profile work]\naws_session_token = Cfg5ess1onT0kenQ2mP7\n";
    assert_eq!(
        profile_secrets(config, &profiles, Dialect::Config),
        ["Cfg5ess1onT0kenQ2mP7"]
    );
}

#[test]
fn files_are_found_as_the_aws_tools_find_them_and_bad_ones_add_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_path_buf();
    let no_env = |_: &str| None;
    let files = AwsFiles::from_env(&no_env, Some(home.clone()));
    assert_eq!(files.credentials, Some(home.join(".aws/credentials")));
    assert_eq!(files.profiles, ["default"]);
    assert!(files.secrets().is_empty(), "no files: nothing, no error");

    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(home.join(".aws/credentials"), CREDENTIALS).unwrap();
    // A config that is not text at all, and a directory where a file should be.
    std::fs::write(home.join(".aws/config"), [0xff, 0xfe, 0x00, 0x5b]).unwrap();
    let env = |name: &str| (name == "AWS_PROFILE").then(|| "work".to_owned());
    let files = AwsFiles::from_env(&env, Some(home.clone()));
    assert_eq!(files.secrets().len(), 3);

    let elsewhere = home.join("creds-dir");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let env = |name: &str| {
        (name == "AWS_SHARED_CREDENTIALS_FILE").then(|| elsewhere.display().to_string())
    };
    let files = AwsFiles::from_env(&env, Some(home));
    assert_eq!(files.credentials.as_deref(), Some(elsewhere.as_path()));
    assert!(files.secrets().is_empty());
}
