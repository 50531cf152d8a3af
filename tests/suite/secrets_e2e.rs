//! No configured secret on any output, through the real binary against the scripted provider:
//! a gateway that echoes an unprefixed key in its 401 body (`hermes -z`, `--json`, the TUI in
//! tmux), and a base URL with `user:password@` in it (the `session_info` event, `/status`,
//! `state.db`, the log file). The request itself still carries what it carried before.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use serde_json::Value;

use crate::support;
use support::Response;
use support::ScriptedServer;
use support::cli_home::CliHome;
use support::cli_home::Run;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

/// The key: no vendor prefix, so no pattern rule can recognise it.
const KEY: &str = "Zq9xK2mP7vR4tL8wN3bH";

fn echoing_401(key: &str, json_body: bool) -> Response {
    let message = format!("Incorrect API key provided: {key}");
    let body = if json_body {
        serde_json::json!({"error": {"message": message, "type": "invalid_request_error"}})
            .to_string()
    } else {
        message
    };
    Response::status(401).with_body(&body)
}

fn home_for(base_url: &str, extra_model_yaml: &str) -> CliHome {
    CliHome::new(&format!(
        "model:\n  provider: custom\n  base_url: {base_url}\n  default: scripted-model\n{extra_model_yaml}"
    ))
}

fn run(home: &CliHome, args: &[&str]) -> Run {
    home.command(args).output().unwrap().into()
}

fn events(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

/// Every log file's text, for "the log has no secret either".
fn logs(home: &CliHome) -> String {
    let Ok(dir) = std::fs::read_dir(home.home().join("logs")) else {
        return String::new();
    };
    dir.flatten()
        .filter(|e| e.path().is_file())
        .map(|e| std::fs::read_to_string(e.path()).unwrap_or_default())
        .collect()
}

fn assert_nowhere(run: &Run, secret: &str) {
    assert!(
        !run.stdout.contains(secret),
        "{secret} on stdout:\n{}",
        run.stdout
    );
    assert!(
        !run.stderr.contains(secret),
        "{secret} on stderr:\n{}",
        run.stderr
    );
}

#[test]
fn an_echoed_key_from_dotenv_is_on_no_headless_output() {
    let server =
        ScriptedServer::start_on_own_thread([echoing_401(KEY, true), echoing_401(KEY, false)]);
    let home = home_for(&server.base_url(), "");
    std::fs::write(home.home().join(".env"), format!("CUSTOM_API_KEY={KEY}\n")).unwrap();

    let json = run(&home, &["-z", "hi", "--json"]);
    assert_eq!(
        json.code, 3,
        "stdout: {}\nstderr: {}",
        json.stdout, json.stderr
    );
    assert_nowhere(&json, KEY);
    let error = events(&json.stdout)
        .into_iter()
        .find(|e| e["type"] == "error")
        .unwrap_or_else(|| panic!("no error event:\n{}", json.stdout));
    let text = error["text"].as_str().unwrap();
    assert!(text.contains("401"), "{text}");
    assert!(
        text.contains("Incorrect API key provided: ***"),
        "the message still says what was wrong: {text}"
    );

    let plain = run(&home, &["-z", "hi"]);
    assert_eq!(plain.code, 3, "stderr: {}", plain.stderr);
    assert_nowhere(&plain, KEY);
    assert!(plain.stderr.contains("401"), "{}", plain.stderr);
    assert!(
        plain.stderr.contains("Incorrect API key provided: ***"),
        "{}",
        plain.stderr
    );

    // The key was really sent, so the server's echo was a real leak waiting to happen.
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    assert!(!logs(&home).contains(KEY));
}

#[test]
fn an_echoed_key_from_config_yaml_is_on_no_headless_output() {
    let key = "Cf7wQ1nB5yU3kD9sH2jM";
    let server = ScriptedServer::start_on_own_thread([echoing_401(key, true)]);
    let home = home_for(&server.base_url(), &format!("  api_key: {key}\n"));
    let json = run(&home, &["-z", "hi", "--json"]);
    assert_eq!(json.code, 3, "stderr: {}", json.stderr);
    assert_nowhere(&json, key);
    assert!(
        json.stdout.contains("Incorrect API key provided: ***"),
        "{}",
        json.stdout
    );
    assert_eq!(
        server.completion_requests()[0].header("authorization"),
        Some(format!("Bearer {key}").as_str())
    );
}

#[test]
fn url_credentials_are_neither_shown_nor_stored() {
    let server = ScriptedServer::start_on_own_thread([Response::text(["hello there"])]);
    let with_credentials = server.base_url().replacen("http://", "http://admin:pw@", 1);
    let home = home_for(&with_credentials, "");
    std::fs::write(home.home().join(".env"), format!("CUSTOM_API_KEY={KEY}\n")).unwrap();

    let json = run(&home, &["-z", "hi", "--json"]);
    assert_eq!(json.code, 0, "stderr: {}", json.stderr);
    assert_nowhere(&json, "admin:pw");
    let info = events(&json.stdout)
        .into_iter()
        .find(|e| e["type"] == "session_info")
        .unwrap_or_else(|| panic!("no session_info:\n{}", json.stdout));
    assert_eq!(info["base_url"], server.base_url().as_str());

    // The request is made as before: the configured key as the bearer token, and the URL's
    // user and password (which reqwest takes out of the URL) as a Basic credential.
    let request = &server.completion_requests()[0];
    let head = request.head.to_ascii_lowercase();
    assert!(
        head.contains(&format!(
            "authorization: bearer {}",
            KEY.to_ascii_lowercase()
        )),
        "{}",
        request.head
    );
    // base64("admin:pw")
    assert!(
        head.contains("authorization: basic ywrtaw46chc="),
        "{}",
        request.head
    );

    let db = rusqlite::Connection::open(home.home().join("state.db")).unwrap();
    let mut stored = Vec::new();
    for table in ["sessions", "session_model_usage"] {
        let mut rows = db
            .prepare(&format!("SELECT billing_base_url FROM {table}"))
            .unwrap();
        let urls = rows
            .query_map([], |r| r.get::<_, Option<String>>(0))
            .unwrap();
        stored.extend(urls.map(|u| (table, u.unwrap().unwrap_or_default())));
    }
    assert!(!stored.is_empty());
    for (table, url) in &stored {
        assert_eq!(url, &server.base_url(), "{table}");
    }
    assert!(!logs(&home).contains("admin:pw"));
}

const WAIT: Duration = Duration::from_secs(15);

#[test]
fn the_tui_shows_neither_an_echoed_key_nor_url_credentials() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([echoing_401(KEY, true)]);
    let app = TmuxApp::new(&server, "");
    let with_credentials = server.base_url().replacen("http://", "http://admin:pw@", 1);
    std::fs::write(
        app.home().join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {with_credentials}\n  default: scripted-model\n"
        ),
    )
    .unwrap();
    std::fs::write(app.home().join(".env"), format!("CUSTOM_API_KEY={KEY}\n")).unwrap();
    let tmux = app.start_with("", &[]);
    tmux.type_text("hi");
    tmux.keys(&["Enter"]);
    // The message wraps after "Incorrect API key"; the masked key follows "provided:".
    let screen = tmux.wait_for_text("provided: ***", WAIT);
    assert!(screen.contains("Incorrect API key"), "{screen}");
    assert!(screen.contains("401"), "{screen}");
    assert!(!screen.contains(KEY), "{screen}");
    // The key may be cut at the screen's edge: no piece of it shows either.
    assert!(!screen.contains(&KEY[..10]), "{screen}");

    tmux.type_text("/status");
    tmux.keys(&["Enter"]);
    let port = server.port().to_string();
    let screen = tmux.wait_for_text(&format!("127.0.0.1:{port}/v1"), WAIT);
    assert!(!screen.contains("admin"), "{screen}");
    assert!(!screen.contains(&KEY[..10]), "{screen}");
}

#[test]
fn a_known_key_streamed_in_two_deltas_is_masked_in_every_json_event() {
    // The model streams the key cut in two: neither delta holds the whole key.
    let reply = || Response::text(["Your key is Zq9xK2", "mP7vR4tL8wN3bH, keep it safe."]);
    let server = ScriptedServer::start_on_own_thread([reply(), reply()]);
    let home = home_for(&server.base_url(), "");
    std::fs::write(home.home().join(".env"), format!("CUSTOM_API_KEY={KEY}\n")).unwrap();

    let json = run(&home, &["-z", "hi", "--json"]);
    assert_eq!(json.code, 0, "stderr: {}", json.stderr);
    assert_nowhere(&json, KEY);
    assert_nowhere(&json, &KEY[..6]);
    let events = events(&json.stdout);
    let streamed: String = events
        .iter()
        .filter(|e| e["type"] == "message_delta")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    let complete = events
        .iter()
        .find(|e| e["type"] == "message_complete")
        .unwrap_or_else(|| panic!("no message_complete:\n{}", json.stdout));
    assert_eq!(streamed, "Your key is ***, keep it safe.");
    assert_eq!(
        complete["text"],
        streamed.as_str(),
        "the deltas add up to the message"
    );

    let plain = run(&home, &["-z", "hi"]);
    assert_eq!(plain.code, 0, "stderr: {}", plain.stderr);
    assert_nowhere(&plain, &KEY[..6]);
    assert!(
        plain.stdout.contains("Your key is ***, keep"),
        "{}",
        plain.stdout
    );
}

#[test]
fn aws_credentials_and_unknown_secret_variables_are_known_values() {
    let aws_secret = "Aw5SecretQ2mP7vR4tL8wN3bHxYz01";
    let aws_session = "Aw5SessionT0kenQ2mP7vR4tL8wN3bH";
    let gateway = "gwT0ken-Hq4nT8vB2xL6";
    let body = format!("denied: {aws_secret} / {aws_session} / {gateway}");
    let server = ScriptedServer::start_on_own_thread([Response::status(401).with_body(&body)]);
    let home = home_for(&server.base_url(), &format!("  api_key: {KEY}\n"));
    let credentials = home.home().join("aws-credentials");
    std::fs::write(
        &credentials,
        format!(
            "[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\n[work]\n\
             aws_secret_access_key = {aws_secret}\naws_session_token = {aws_session}\n"
        ),
    )
    .unwrap();
    let json: Run = home
        .command(&["-z", "hi", "--json"])
        .env("AWS_SHARED_CREDENTIALS_FILE", &credentials)
        .env("AWS_PROFILE", "work")
        .env("MY_GATEWAY_TOKEN", gateway)
        .output()
        .unwrap()
        .into();
    assert_eq!(json.code, 3, "stderr: {}", json.stderr);
    for secret in [aws_secret, aws_session, gateway] {
        assert_nowhere(&json, secret);
    }
    assert!(
        json.stdout.contains("denied: *** / *** / ***"),
        "{}",
        json.stdout
    );
}
