//! AWS credentials, region and SigV4 signing for Bedrock.
//!
//! `AwsEnv` is what the environment says (the process environment and HERMES_HOME/.env, as the
//! engine's lookup sees them), captured when the provider is resolved so resolution stays free
//! of I/O. [`load`] runs at request time (off the async runtime, via `spawn_blocking`) and adds
//! what `~/.aws/credentials` and `~/.aws/config` say for the selected profile.
//!
//! Credential order (Hermes's): `AWS_BEARER_TOKEN_BEDROCK` (a Bedrock API key, sent as
//! `Authorization: Bearer`); `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+
//! `AWS_SESSION_TOKEN`); the profile `AWS_PROFILE` (default `default`) in the shared
//! credentials file, then in the config file. Region: the Bedrock host of the base URL,
//! `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region` in the config file, `us-east-1`.
//!
//! Not supported: SSO, assume-role, `credential_process`, web identity and instance/container
//! metadata. A profile that relies on one of them gets an error naming it and saying how to
//! export static keys instead. Invariant: secrets live only in `Secret` (whose `Debug` is
//! `***`); no error message or log line here contains one.

use std::collections::HashMap;
use std::path::Path;
use std::path::PathBuf;
use std::time::SystemTime;

use aws_credential_types::Credentials;
use aws_sigv4::http_request::SignableBody;
use aws_sigv4::http_request::SignableRequest;
use aws_sigv4::http_request::SigningSettings;
use aws_sigv4::sign::v4;

use super::registry::Secret;

/// The SigV4 signing name of `bedrock-runtime`.
pub const BEDROCK_SERVICE: &str = "bedrock";
/// Used when nothing names a region (boto3's and Hermes's default for Bedrock).
pub const DEFAULT_REGION: &str = "us-east-1";
const DEFAULT_PROFILE: &str = "default";

/// The AWS variables of the environment the engine resolved the provider with.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AwsEnv {
    pub bearer_token: Option<Secret>,
    pub access_key_id: Option<Secret>,
    pub secret_access_key: Option<Secret>,
    pub session_token: Option<Secret>,
    /// `AWS_PROFILE` (or `AWS_DEFAULT_PROFILE`).
    pub profile: Option<String>,
    /// `AWS_REGION`, else `AWS_DEFAULT_REGION`.
    pub region: Option<String>,
    /// `AWS_SHARED_CREDENTIALS_FILE`.
    pub credentials_file: Option<PathBuf>,
    /// `AWS_CONFIG_FILE`.
    pub config_file: Option<PathBuf>,
    /// `HOME`, for `~/.aws/…`; the OS home directory when unset.
    pub home: Option<PathBuf>,
}

impl AwsEnv {
    /// Reads the AWS variables through `lookup`; empty values count as unset.
    pub fn capture(lookup: &dyn Fn(&str) -> Option<String>) -> Self {
        let get = |name: &str| {
            lookup(name)
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let secret = |name: &str| get(name).map(Secret::new);
        Self {
            bearer_token: secret("AWS_BEARER_TOKEN_BEDROCK"),
            access_key_id: secret("AWS_ACCESS_KEY_ID"),
            secret_access_key: secret("AWS_SECRET_ACCESS_KEY"),
            session_token: secret("AWS_SESSION_TOKEN"),
            profile: get("AWS_PROFILE").or_else(|| get("AWS_DEFAULT_PROFILE")),
            region: get("AWS_REGION").or_else(|| get("AWS_DEFAULT_REGION")),
            credentials_file: get("AWS_SHARED_CREDENTIALS_FILE").map(PathBuf::from),
            config_file: get("AWS_CONFIG_FILE").map(PathBuf::from),
            home: get("HOME").map(PathBuf::from),
        }
    }

    fn profile_name(&self) -> &str {
        self.profile.as_deref().unwrap_or(DEFAULT_PROFILE)
    }

    fn home_dir(&self) -> Option<PathBuf> {
        self.home.clone().or_else(dirs::home_dir)
    }

    /// `path` with a leading `~/` expanded, or `~/.aws/<default_name>`.
    fn aws_file(&self, path: Option<&Path>, default_name: &str) -> PathBuf {
        match path {
            Some(p) => match (p.strip_prefix("~"), self.home_dir()) {
                (Ok(rest), Some(home)) => home.join(rest),
                _ => p.to_path_buf(),
            },
            None => self
                .home_dir()
                .unwrap_or_default()
                .join(".aws")
                .join(default_name),
        }
    }

    pub fn credentials_path(&self) -> PathBuf {
        self.aws_file(self.credentials_file.as_deref(), "credentials")
    }

    pub fn config_path(&self) -> PathBuf {
        self.aws_file(self.config_file.as_deref(), "config")
    }
}

/// Static access keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsKeys {
    pub access_key_id: Secret,
    pub secret_access_key: Secret,
    pub session_token: Option<Secret>,
}

/// How requests authenticate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AwsAuth {
    /// A Bedrock API key: `Authorization: Bearer <token>`, no signing.
    Bearer(Secret),
    /// SigV4 with these keys.
    Keys(AwsKeys),
}

/// Credentials plus the region to sign for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AwsSetup {
    pub auth: AwsAuth,
    pub region: String,
    /// Where the credentials came from (`environment`, `profile dev in ~/.aws/credentials`),
    /// for the debug log; never the credentials themselves.
    pub source: String,
}

#[derive(Debug, thiserror::Error)]
pub enum AwsCredentialError {
    #[error(
        "no AWS credentials found for Bedrock: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE, or AWS_BEARER_TOKEN_BEDROCK in HERMES_HOME/.env, or add a [{profile}] section to {credentials}"
    )]
    NotFound {
        profile: String,
        credentials: String,
    },
    #[error(
        "AWS profile `{profile}` was not found in {credentials} or {config} (AWS_PROFILE names it)"
    )]
    ProfileNotFound {
        profile: String,
        credentials: String,
        config: String,
    },
    #[error("{set} is set but {missing} is not; set both (in HERMES_HOME/.env or the environment)")]
    PartialKeys {
        set: &'static str,
        missing: &'static str,
    },
    #[error(
        "AWS profile `{profile}` in {path} uses {kind}, which hermes does not support; export static keys with `aws configure export-credentials --profile {profile} --format env` and put them in HERMES_HOME/.env"
    )]
    UnsupportedProfile {
        profile: String,
        path: String,
        kind: &'static str,
    },
    #[error("AWS profile `{profile}` in {path} has no {missing}")]
    IncompleteProfile {
        profile: String,
        path: String,
        missing: &'static str,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
}

/// The credentials and region for a request. `url_region` is the region named by the Bedrock
/// host of the base URL, if any. Blocking (reads files).
pub fn load(env: &AwsEnv, url_region: Option<&str>) -> Result<AwsSetup, AwsCredentialError> {
    let config_path = env.config_path();
    let config = read_profiles(&config_path, FileKind::Config)?;
    let profile = env.profile_name();
    let config_section = config.get(profile);
    let region = url_region
        .map(str::to_string)
        .or_else(|| env.region.clone())
        .or_else(|| config_section.and_then(|s| s.get("region")).cloned())
        .unwrap_or_else(|| DEFAULT_REGION.to_string());
    let setup = |auth, source: String| AwsSetup {
        auth,
        region: region.clone(),
        source,
    };

    if let Some(token) = &env.bearer_token {
        return Ok(setup(
            AwsAuth::Bearer(token.clone()),
            "AWS_BEARER_TOKEN_BEDROCK".into(),
        ));
    }
    match (&env.access_key_id, &env.secret_access_key) {
        (Some(id), Some(secret)) => {
            let keys = AwsKeys {
                access_key_id: id.clone(),
                secret_access_key: secret.clone(),
                session_token: env.session_token.clone(),
            };
            return Ok(setup(AwsAuth::Keys(keys), "environment".into()));
        }
        (Some(_), None) => {
            return Err(AwsCredentialError::PartialKeys {
                set: "AWS_ACCESS_KEY_ID",
                missing: "AWS_SECRET_ACCESS_KEY",
            });
        }
        (None, Some(_)) => {
            return Err(AwsCredentialError::PartialKeys {
                set: "AWS_SECRET_ACCESS_KEY",
                missing: "AWS_ACCESS_KEY_ID",
            });
        }
        (None, None) => {}
    }

    let credentials_path = env.credentials_path();
    let credentials = read_profiles(&credentials_path, FileKind::Credentials)?;
    for (section, path) in [
        (credentials.get(profile), &credentials_path),
        (config_section, &config_path),
    ] {
        let Some(section) = section else { continue };
        if let Some(keys) = profile_keys(profile, section, path)? {
            let source = format!("profile {profile} in {}", path.display());
            return Ok(setup(AwsAuth::Keys(keys), source));
        }
    }
    if env.profile.is_some() && config_section.is_none() && !credentials.contains_key(profile) {
        return Err(AwsCredentialError::ProfileNotFound {
            profile: profile.to_string(),
            credentials: credentials_path.display().to_string(),
            config: config_path.display().to_string(),
        });
    }
    Err(AwsCredentialError::NotFound {
        profile: profile.to_string(),
        credentials: credentials_path.display().to_string(),
    })
}

/// Keys other credential sources use, and what to call them in an error.
const UNSUPPORTED_SOURCES: &[(&str, &str)] = &[
    ("sso_session", "AWS IAM Identity Center (SSO)"),
    ("sso_start_url", "AWS IAM Identity Center (SSO)"),
    ("role_arn", "an assumed role (role_arn)"),
    ("credential_process", "credential_process"),
    ("web_identity_token_file", "a web identity token"),
];

/// The static keys of one profile section; `None` when it has none and names no other source.
fn profile_keys(
    profile: &str,
    section: &HashMap<String, String>,
    path: &Path,
) -> Result<Option<AwsKeys>, AwsCredentialError> {
    let id = section.get("aws_access_key_id");
    let secret = section.get("aws_secret_access_key");
    match (id, secret) {
        (Some(id), Some(secret)) => Ok(Some(AwsKeys {
            access_key_id: Secret::new(id.clone()),
            secret_access_key: Secret::new(secret.clone()),
            session_token: section.get("aws_session_token").cloned().map(Secret::new),
        })),
        (Some(_), None) | (None, Some(_)) => Err(AwsCredentialError::IncompleteProfile {
            profile: profile.to_string(),
            path: path.display().to_string(),
            missing: if id.is_none() {
                "aws_access_key_id"
            } else {
                "aws_secret_access_key"
            },
        }),
        (None, None) => match UNSUPPORTED_SOURCES
            .iter()
            .find(|(key, _)| section.contains_key(*key))
        {
            Some((_, kind)) => Err(AwsCredentialError::UnsupportedProfile {
                profile: profile.to_string(),
                path: path.display().to_string(),
                kind,
            }),
            None => Ok(None),
        },
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    /// `~/.aws/credentials`: sections are bare profile names.
    Credentials,
    /// `~/.aws/config`: `[default]` and `[profile NAME]`; other section kinds are skipped.
    Config,
}

/// Profile name → keys of a file; a missing file has no profiles.
fn read_profiles(
    path: &Path,
    kind: FileKind,
) -> Result<HashMap<String, HashMap<String, String>>, AwsCredentialError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(parse_profiles(&text, kind)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(HashMap::new()),
        Err(source) => Err(AwsCredentialError::Read {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// The AWS shared-file INI dialect: `[section]` headers, `key = value` lines, `#`/`;` comment
/// lines. Indented lines belong to a nested block (`s3 =` settings) and are skipped. Keys are
/// lowercased; a later duplicate wins, as in the AWS CLI.
fn parse_profiles(text: &str, kind: FileKind) -> HashMap<String, HashMap<String, String>> {
    let mut profiles: HashMap<String, HashMap<String, String>> = HashMap::new();
    let mut current: Option<String> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = section_profile(header.trim(), kind);
            if let Some(name) = &current {
                profiles.entry(name.clone()).or_default();
            }
            continue;
        }
        if raw.starts_with([' ', '\t']) {
            continue;
        }
        let (Some(name), Some((key, value))) = (&current, line.split_once('=')) else {
            continue;
        };
        profiles
            .entry(name.clone())
            .or_default()
            .insert(key.trim().to_ascii_lowercase(), value.trim().to_string());
    }
    profiles
}

fn section_profile(header: &str, kind: FileKind) -> Option<String> {
    match kind {
        FileKind::Credentials => Some(header.to_string()),
        FileKind::Config if header == DEFAULT_PROFILE => Some(header.to_string()),
        FileKind::Config => header
            .strip_prefix("profile")
            .filter(|rest| rest.starts_with(char::is_whitespace))
            .map(|rest| rest.trim().to_string()),
    }
}

/// The region of a Bedrock runtime host (`bedrock-runtime.eu-west-1.amazonaws.com`,
/// `bedrock-runtime-fips.us-east-1.amazonaws.com`, `….amazonaws.com.cn`).
pub fn region_of_host(host: &str) -> Option<String> {
    let mut labels = host.split('.');
    let service = labels.next()?;
    let region = labels.next()?;
    let rest: Vec<&str> = labels.collect();
    let aws_domain = matches!(
        rest.as_slice(),
        ["amazonaws", "com"] | ["amazonaws", "com", "cn"]
    );
    (service.starts_with("bedrock") && aws_domain && !region.is_empty()).then(|| region.to_string())
}

/// Signing failed (a malformed URL or header; never a secret in the message).
#[derive(Debug, thiserror::Error)]
#[error("could not sign the Bedrock request: {source}")]
pub struct SignError {
    #[source]
    source: Box<dyn std::error::Error + Send + Sync>,
}

impl SignError {
    fn new(source: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self {
            source: Box::new(source),
        }
    }
}

/// What to sign: one request, as it will be sent.
pub struct SignInput<'a> {
    pub method: &'a str,
    /// The full URL, path already percent-encoded as sent.
    pub url: &'a str,
    /// Headers sent with the request that the signature covers (besides `host`, which the
    /// signer takes from the URL, and the `x-amz-*` ones it adds).
    pub headers: &'a [(&'a str, &'a str)],
    pub body: &'a [u8],
    pub time: SystemTime,
}

/// The headers SigV4 adds (`authorization`, `x-amz-date`, `x-amz-security-token` with a
/// session token), for `keys` in `region`.
pub fn sigv4_headers(
    keys: &AwsKeys,
    region: &str,
    input: &SignInput<'_>,
) -> Result<Vec<(String, String)>, SignError> {
    let identity = Credentials::new(
        keys.access_key_id.expose(),
        keys.secret_access_key.expose(),
        keys.session_token.as_ref().map(|t| t.expose().to_string()),
        None,
        "hermes",
    )
    .into();
    let params = v4::SigningParams::builder()
        .identity(&identity)
        .region(region)
        .name(BEDROCK_SERVICE)
        .time(input.time)
        .settings(SigningSettings::default())
        .build()
        .map_err(SignError::new)?
        .into();
    let request = SignableRequest::new(
        input.method,
        input.url,
        input.headers.iter().copied(),
        SignableBody::Bytes(input.body),
    )
    .map_err(SignError::new)?;
    let (instructions, _signature) = aws_sigv4::http_request::sign(request, &params)
        .map_err(SignError::new)?
        .into_parts();
    Ok(instructions
        .headers()
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .collect())
}

#[cfg(test)]
#[path = "aws_auth_tests.rs"]
mod tests;
