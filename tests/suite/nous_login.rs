//! `hermes login nous` end to end against a fake Nous Portal (`nous_login/fake_portal.rs`):
//! the device-code flow and its stops, the stored `auth.json` (format, other entries kept,
//! 0600), refresh of an expired login when a session runs (the inference request, served by
//! the scripted provider, carries the new token), a failed refresh's one line, logout and
//! status — and the same files read and written by the real Python Hermes 0.19.
//!
//! The Python tests need Hermes's virtualenv (`$HERMES_PY_VENV`, default `/tmp/hvenv`): they
//! skip with a message when it is missing, and fail instead when `CI=true`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fake_portal;
use crate::support;
use crate::support::env::CleanEnv;

use std::path::Path;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use fake_portal::FakePortal;
use fake_portal::Poll;
use fake_portal::Refresh;
use fake_portal::USER_CODE;
use fake_portal::jwt;
use serde_json::Value;
use serde_json::json;
use support::Response;
use support::ScriptedServer;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// A HERMES_HOME and a working directory in one tempdir.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        Self { dir }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    fn auth_file(&self) -> PathBuf {
        self.home().join("auth.json")
    }

    fn shared_file(&self) -> PathBuf {
        self.home().join("shared/nous_auth.json")
    }

    fn auth(&self) -> Value {
        read_json(&self.auth_file())
    }

    fn write_auth(&self, auth: &Value) {
        std::fs::write(
            self.auth_file(),
            serde_json::to_string_pretty(auth).unwrap(),
        )
        .unwrap();
    }

    fn write_config(&self, yaml: &str) {
        std::fs::write(self.home().join("config.yaml"), yaml).unwrap();
    }

    fn hermes(&self, args: &[&str], env: &[(&str, &str)]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hermes"));
        cmd.clean_env()
            .args(args)
            .current_dir(self.dir.path().join("work"))
            .env("HERMES_HOME", self.home())
            .stdin(std::process::Stdio::null());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    fn login(&self, portal: &FakePortal) -> Run {
        self.hermes(
            &[
                "login",
                "nous",
                "--no-browser",
                "--portal-url",
                &portal.url(),
            ],
            &[],
        )
    }

    /// A stored login whose access token expires in `ttl_secs` (negative: expired).
    fn seed_login(&self, portal: &FakePortal, ttl_secs: i64, refresh: &str) -> String {
        let access = jwt(ttl_secs, "inference:invoke");
        portal.accept_refresh_token(refresh);
        self.write_auth(&json!({
            "version": 1,
            "providers": {
                "nous": {
                    "access_token": access, "refresh_token": refresh, "agent_key": access,
                    "client_id": "hermes-cli", "portal_base_url": portal.url(),
                    "inference_base_url": "https://inference-api.nousresearch.com/v1",
                    "token_type": "Bearer", "scope": "inference:invoke",
                    "expires_at": "2020-01-01T00:00:00+00:00",
                    "tls": {"insecure": false, "ca_bundle": null},
                },
                "openai-codex": {"tokens": {"access_token": "codex-token"}},
            },
            "credential_pool": {"openrouter": [{"id": "abc123", "source": "manual", "access_token": "sk-or"}]},
            "active_provider": "nous",
            "a_key_from_a_newer_hermes": [1, 2],
        }));
        access
    }
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn nous_config(server: &ScriptedServer) -> (String, String) {
    (
        "model:\n  provider: nous\n  default: Hermes-4-70B\nprovider:\n  stream_idle_timeout: 5\n  max_retries: 0\n".to_string(),
        server.base_url(),
    )
}

#[test]
fn login_shows_the_code_waits_for_approval_and_stores_the_tokens_like_hermes() {
    let portal = FakePortal::start(&[Poll::Pending, Poll::Approve], 1);
    let fx = Fixture::new();
    let others = json!({
        "version": 1,
        "providers": {"openai-codex": {"tokens": {"access_token": "codex-token"}}},
        "credential_pool": {"openrouter": [{"id": "abc123", "source": "manual", "access_token": "sk-or"}]},
        "active_provider": "openai-codex",
        "a_key_from_a_newer_hermes": {"keep": true},
    });
    fx.write_auth(&others);

    let run = fx.login(&portal);
    assert_eq!(
        run.code, 0,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    for expected in [
        format!("Portal: {}", portal.url()),
        format!("  1. Open: https://portal.example/device?user_code={USER_CODE}"),
        format!("  2. If prompted, enter code: {USER_CODE}"),
        "Waiting for approval (polling every 1s)...".to_string(),
        "Login successful!".to_string(),
        format!("  Auth state: {}", fx.auth_file().display()),
    ] {
        assert!(
            run.stdout.contains(&expected),
            "missing {expected:?} in:\n{}",
            run.stdout
        );
    }
    assert!(
        !run.stdout.contains("device-secret-1"),
        "the device code is never shown"
    );

    let auth = fx.auth();
    let access = portal.issued()[0].clone();
    let nous = &auth["providers"]["nous"];
    assert_eq!(nous["access_token"], access.as_str());
    assert_eq!(nous["agent_key"], access.as_str());
    assert_eq!(nous["refresh_token"], "rt-1");
    assert_eq!(nous["portal_base_url"], portal.url().as_str());
    assert_eq!(
        nous["inference_base_url"],
        "https://inference-api.nousresearch.com/v1"
    );
    assert_eq!(auth["active_provider"], "nous");
    assert_eq!(auth["version"], 1);
    for kept in ["credential_pool", "a_key_from_a_newer_hermes"] {
        assert_eq!(auth[kept], others[kept], "{kept}");
    }
    assert_eq!(
        auth["providers"]["openai-codex"],
        others["providers"]["openai-codex"]
    );
    assert_eq!(mode_of(&fx.auth_file()), 0o600);
    assert_eq!(mode_of(&fx.shared_file()), 0o600);
    assert_eq!(read_json(&fx.shared_file())["refresh_token"], "rt-1");
    assert!(
        fx.home().join("auth.lock").exists(),
        "Hermes's lock file was used"
    );

    let requests = portal.requests();
    assert_eq!(requests[0].path, "/api/oauth/device/code");
    assert_eq!(
        requests[0].form.get("scope").map(String::as_str),
        Some("inference:invoke")
    );
    let polls = portal.token_requests("urn:ietf:params:oauth:grant-type:device_code");
    assert_eq!(polls.len(), 2, "pending, then approved");
    let gap = polls[1].at - polls[0].at;
    assert!(
        gap >= Duration::from_millis(900),
        "polled after {gap:?}, interval is 1s"
    );
}

#[test]
fn expired_and_denied_codes_stop_with_one_line_and_store_nothing() {
    for (poll, reason) in [
        (
            Poll::Expired,
            "the code expired before it was approved (expired_token)",
        ),
        (
            Poll::Denied,
            "access was denied at the Portal (access_denied)",
        ),
    ] {
        let portal = FakePortal::start(&[Poll::Pending, poll], 1);
        let fx = Fixture::new();
        let run = fx.login(&portal);
        assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
        let last = run.stdout.lines().last().unwrap();
        assert!(
            last.starts_with("Login failed: ") && last.contains(reason),
            "{last}"
        );
        assert_eq!(
            run.stdout.lines().filter(|l| l.contains("failed")).count(),
            1,
            "{}",
            run.stdout
        );
        assert!(run.stderr.is_empty(), "{}", run.stderr);
        assert!(!fx.auth_file().exists());
        assert_eq!(
            portal
                .token_requests("urn:ietf:params:oauth:grant-type:device_code")
                .len(),
            2,
            "polling stopped at the answer"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_down_makes_every_later_poll_wait_longer() {
    use hermes::providers::nous_login::DeviceAuthorization;
    use hermes::providers::nous_login::LoginEvent;
    use hermes::providers::nous_login::request_device_code;
    use hermes::providers::nous_login_refresh::RefreshContext;

    let portal = FakePortal::start(
        &[Poll::SlowDown, Poll::Pending, Poll::SlowDown, Poll::Approve],
        1,
    );
    let fx = Fixture::new();
    let home = hermes::config::HermesHome::from_base(fx.home(), None).unwrap();
    let ctx = RefreshContext {
        paths: hermes::config::auth_store::AuthPaths::for_home(&home, &|_| None),
        env: Default::default(),
        client: hermes::util::http::build_client().unwrap(),
        timeout: Duration::from_secs(5),
    };
    let cancel = tokio_util::sync::CancellationToken::new();
    let device: DeviceAuthorization = request_device_code(
        &ctx,
        &portal.url(),
        "hermes-cli",
        "inference:invoke",
        &cancel,
    )
    .await
    .unwrap();
    assert_eq!(device.interval, 1);
    let asked = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&asked);
    let sleep = move |d: Duration| -> futures::future::BoxFuture<'static, ()> {
        record.lock().unwrap().push(d.as_secs());
        Box::pin(async {})
    };
    let events = Mutex::new(Vec::new());
    let token = hermes::providers::nous_login::poll_for_token(
        &ctx,
        &portal.url(),
        "hermes-cli",
        &device,
        &sleep,
        &|e: LoginEvent| events.lock().unwrap().push(e),
        &cancel,
    )
    .await
    .unwrap();
    assert_eq!(token["access_token"], portal.issued()[0].as_str());
    assert_eq!(
        *asked.lock().unwrap(),
        [1, 6, 6, 11],
        "RFC 8628: +5 s per slow_down"
    );
    assert_eq!(
        *events.lock().unwrap(),
        [
            LoginEvent::SlowDown { interval_secs: 6 },
            LoginEvent::SlowDown { interval_secs: 11 }
        ]
    );
}

#[test]
fn an_expired_login_is_refreshed_when_the_session_runs_and_the_request_carries_the_new_token() {
    let portal = FakePortal::start(&[], 1);
    let server = ScriptedServer::start_on_own_thread([Response::text(["Hello from Nous."])]);
    let fx = Fixture::new();
    let before = fx.seed_login(&portal, -300, "rt-seed");
    let (config, inference) = nous_config(&server);
    fx.write_config(&config);

    let run = fx.hermes(&["-z", "hi"], &[("NOUS_INFERENCE_BASE_URL", &inference)]);
    assert_eq!(
        run.code, 0,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    assert!(run.stdout.contains("Hello from Nous."), "{}", run.stdout);

    let refreshes = portal.token_requests("refresh_token");
    assert_eq!(refreshes.len(), 1);
    assert_eq!(
        refreshes[0]
            .headers
            .get("x-nous-refresh-token")
            .map(String::as_str),
        Some("rt-seed")
    );
    let fresh = portal.issued()[0].clone();
    assert_ne!(fresh, before);
    let request = &server.completion_requests()[0];
    assert_eq!(
        request.header("authorization"),
        Some(format!("Bearer {fresh}").as_str())
    );
    assert_eq!(request.body["model"], "Hermes-4-70B");

    let auth = fx.auth();
    assert_eq!(auth["providers"]["nous"]["access_token"], fresh.as_str());
    assert_eq!(auth["providers"]["nous"]["refresh_token"], "rt-1");
    assert_eq!(
        auth["providers"]["openai-codex"]["tokens"]["access_token"],
        "codex-token"
    );
    assert_eq!(auth["credential_pool"]["openrouter"][0]["id"], "abc123");
    assert_eq!(auth["a_key_from_a_newer_hermes"], json!([1, 2]));
    assert_eq!(
        auth["providers"]["nous"]["inference_base_url"],
        "https://inference-api.nousresearch.com/v1",
        "the env override is never written"
    );
    assert_eq!(mode_of(&fx.auth_file()), 0o600);
    assert_eq!(read_json(&fx.shared_file())["refresh_token"], "rt-1");

    // A second run finds a usable token and does not refresh again.
    server.push(Response::text(["Again."]));
    let run = fx.hermes(&["-z", "hi"], &[("NOUS_INFERENCE_BASE_URL", &inference)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(portal.token_requests("refresh_token").len(), 1);
}

#[test]
fn a_failed_refresh_is_one_line_naming_hermes_login_nous() {
    let portal = FakePortal::start(&[], 1);
    portal.push_refresh(Refresh::Fail("invalid_grant"));
    let server = ScriptedServer::start_on_own_thread([Response::text(["never"])]);
    let fx = Fixture::new();
    fx.seed_login(&portal, -300, "rt-seed");
    let (config, inference) = nous_config(&server);
    fx.write_config(&config);

    let run = fx.hermes(&["-z", "hi"], &[("NOUS_INFERENCE_BASE_URL", &inference)]);
    assert_eq!(run.code, 3, "the auth exit code; stderr:\n{}", run.stderr);
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    assert_eq!(
        errors,
        [
            "error: Nous Portal login expired and could not be refreshed: the Portal refused the \
          refresh token (invalid_grant): the refresh token was revoked; run `hermes login nous`"
        ],
        "stderr:\n{}",
        run.stderr
    );
    assert!(
        server.completion_requests().is_empty(),
        "no request with a dead token"
    );
    let nous = &fx.auth()["providers"]["nous"];
    assert!(
        nous.get("refresh_token").is_none(),
        "quarantined like Hermes does"
    );
    assert_eq!(nous["last_auth_error"]["code"], "invalid_grant");
}

#[test]
fn logout_and_status() {
    let portal = FakePortal::start(&[], 1);
    let fx = Fixture::new();
    fx.seed_login(&portal, 3600, "rt-seed");

    let run = fx.hermes(&["auth", "status", "nous"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("nous: logged in\n"),
        "{}",
        run.stdout
    );
    assert!(portal.token_requests("refresh_token").is_empty());

    let run = fx.hermes(&["logout"], &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("Logged out of Nous Portal."),
        "{}",
        run.stdout
    );
    let auth = fx.auth();
    assert!(auth["providers"].get("nous").is_none());
    assert_eq!(auth["active_provider"], Value::Null);
    assert_eq!(
        auth["providers"]["openai-codex"]["tokens"]["access_token"],
        "codex-token"
    );
    assert_eq!(auth["credential_pool"]["openrouter"][0]["id"], "abc123");
    assert_eq!(mode_of(&fx.auth_file()), 0o600);

    let run = fx.hermes(&["auth", "status"], &[]);
    assert_eq!(run.stdout, "nous: logged out\n");
    let run = fx.hermes(&["logout", "nous"], &[]);
    assert_eq!(run.stdout, "No auth state found for Nous Portal.\n");
}

#[test]
fn only_nous_has_a_login() {
    let fx = Fixture::new();
    let run = fx.hermes(&["login", "openai-codex"], &[]);
    assert_eq!(run.code, 2);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("hermes login nous"), "{}", run.stderr);
}

// ----- the real Python Hermes -------------------------------------------------------------

/// Hermes's virtualenv python, or `None` (with the reason printed) when absent locally.
fn python_hermes() -> Option<PathBuf> {
    let venv = std::env::var("HERMES_PY_VENV").unwrap_or_else(|_| "/tmp/hvenv".to_string());
    let python = Path::new(&venv).join("bin/python");
    if python.is_file() {
        return Some(python);
    }
    let reason = format!(
        "Python Hermes not found at {} (set HERMES_PY_VENV)",
        python.display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{reason}; CI must provide it");
    }
    eprintln!("skipping: {reason}");
    None
}

/// Runs `code` with Python Hermes on `fx`'s home; returns its last stdout line as JSON.
fn run_python(python: &Path, fx: &Fixture, code: &str) -> Value {
    let out = Command::new(python)
        .clean_env()
        .arg("-c")
        .arg(code)
        .env("HERMES_HOME", fx.home())
        .current_dir(fx.dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "python failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.lines().last().unwrap_or("null")).unwrap()
}

const PY_STATUS: &str = r#"
import json
import hermes_cli.auth as a
from agent.credential_pool import load_pool
status = a.get_nous_auth_status()
creds = a.resolve_nous_runtime_credentials()
pool = [e.access_token for e in load_pool("nous").entries() if e.source == "device_code"]
print(json.dumps({"logged_in": status["logged_in"], "error": status.get("error"),
                  "api_key": creds["api_key"], "active": a.get_active_provider(), "pool": pool}))
"#;

#[test]
fn python_hermes_uses_a_login_hermes_made_and_its_refreshes() {
    let Some(python) = python_hermes() else {
        return;
    };
    let portal = FakePortal::start(&[Poll::Approve], 1);
    let fx = Fixture::new();
    let run = fx.login(&portal);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let token = portal.issued()[0].clone();

    let seen = run_python(&python, &fx, PY_STATUS);
    assert_eq!(seen["logged_in"], true, "{seen}");
    assert_eq!(seen["api_key"], token.as_str());
    assert_eq!(seen["active"], "nous");
    assert_eq!(
        seen["pool"],
        json!([token]),
        "Hermes's pool seeds from our state"
    );

    // Python refreshes with the refresh token hermes stored (the Portal accepts only the
    // current one, so a stale copy anywhere would fail here).
    let forced = run_python(
        &python,
        &fx,
        "import json, hermes_cli.auth as a\n\
         c = a.resolve_nous_runtime_credentials(force_refresh=True)\n\
         print(json.dumps({'api_key': c['api_key']}))",
    );
    assert_eq!(forced["api_key"], portal.issued()[1].as_str());
    assert_eq!(fx.auth()["providers"]["nous"]["refresh_token"], "rt-2");

    // …and hermes refreshes after Python, again with the current token.
    let mut auth = fx.auth();
    auth["providers"]["nous"]["access_token"] = json!(jwt(-60, "inference:invoke"));
    fx.write_auth(&auth);
    let run = fx.hermes(&["auth", "status", "nous"], &[]);
    assert!(
        run.stdout.starts_with("nous: logged in"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(fx.auth()["providers"]["nous"]["refresh_token"], "rt-3");
    let seen = run_python(&python, &fx, PY_STATUS);
    assert_eq!(seen["logged_in"], true, "{seen}");
    assert_eq!(seen["api_key"], portal.issued()[2].as_str());

    // A forced Python refresh first adopts the shared store's refresh token when it differs:
    // had hermes left the spent rt-2 there, the Portal would answer refresh_token_reused.
    let forced = run_python(
        &python,
        &fx,
        "import json, hermes_cli.auth as a\n\
         c = a.resolve_nous_runtime_credentials(force_refresh=True)\n\
         print(json.dumps({'api_key': c['api_key']}))",
    );
    assert_eq!(forced["api_key"], portal.issued()[3].as_str());
}

#[test]
fn hermes_uses_a_login_python_hermes_made() {
    let Some(python) = python_hermes() else {
        return;
    };
    let portal = FakePortal::start(&[Poll::Approve], 1);
    let fx = Fixture::new();
    fx.write_auth(&json!({"version": 1, "providers": {}, "credential_pool": {"openrouter": [{"id": "x1", "source": "manual", "access_token": "sk"}]}}));
    let code = format!(
        "import json, hermes_cli.auth as a\n\
         s = a._nous_device_code_login(portal_base_url='{}', open_browser=False)\n\
         a.persist_nous_credentials(s)\n\
         print(json.dumps({{'ok': True}}))",
        portal.url()
    );
    assert_eq!(run_python(&python, &fx, &code)["ok"], true);
    let python_token = portal.issued()[0].clone();

    let run = fx.hermes(&["auth", "status", "nous"], &[]);
    assert!(
        run.stdout.starts_with("nous: logged in"),
        "{}{}",
        run.stdout,
        run.stderr
    );

    let server = ScriptedServer::start_on_own_thread([Response::text(["From Python's login."])]);
    let (config, inference) = nous_config(&server);
    fx.write_config(&config);
    let run = fx.hermes(&["-z", "hi"], &[("NOUS_INFERENCE_BASE_URL", &inference)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        server.completion_requests()[0].header("authorization"),
        Some(format!("Bearer {python_token}").as_str())
    );
    assert!(portal.token_requests("refresh_token").is_empty());
    assert_eq!(fx.auth()["credential_pool"]["openrouter"][0]["id"], "x1");
}

#[test]
fn hermes_waits_for_python_hermes_holding_the_auth_lock() {
    let Some(python) = python_hermes() else {
        return;
    };
    let portal = FakePortal::start(&[], 1);
    let fx = Fixture::new();
    fx.seed_login(&portal, 3600, "rt-seed");
    let mut holder = Command::new(&python)
        .arg("-c")
        .arg(
            "import time, hermes_cli.auth as a\n\
             with a._auth_store_lock():\n\
             \x20   print('locked', flush=True)\n\
             \x20   time.sleep(1.5)\n",
        )
        .env("HERMES_HOME", fx.home())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(holder.stdout.take().unwrap()),
        &mut line,
    )
    .unwrap();
    assert_eq!(line.trim(), "locked");
    let started = std::time::Instant::now();
    let run = fx.hermes(&["logout", "nous"], &[]);
    let waited = started.elapsed();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        waited >= Duration::from_millis(1000),
        "hermes wrote auth.json while Python Hermes held its lock (after {waited:?})"
    );
    assert!(holder.wait().unwrap().success());
    assert!(fx.auth()["providers"].get("nous").is_none());
}
