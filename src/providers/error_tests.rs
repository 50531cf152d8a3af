use super::*;

#[test]
fn an_invalid_base_url_is_named_without_its_credentials() {
    let error = ProviderSetupError::InvalidBaseUrl {
        url: "ftp://admin:hunter2pw@gateway.internal:21/v1".into(),
        reason: "the scheme must be http or https".into(),
    };
    assert_eq!(
        error.to_string(),
        "invalid model.base_url `ftp://gateway.internal:21/v1`: the scheme must be http or https"
    );
}
