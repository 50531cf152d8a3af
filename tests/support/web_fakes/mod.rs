//! Loopback fakes of the web search/extract services (DuckDuckGo HTML, SearXNG, Brave,
//! Tavily, Exa, Firecrawl, Parallel) for `web::backends`' unit tests and the integration
//! suite. Each fake checks a request the way its service does — path, method, auth header or
//! body key, JSON fields — and answers with the service's documented response shape; a
//! request it does not accept gets HTTP 400 with `{"fake_error": "..."}` saying what was
//! wrong, so a test fails with a reason. A `Fault` makes it answer with one of the service's
//! error shapes instead (401, 429 with Retry-After, malformed JSON, 500, DuckDuckGo's anomaly
//! page).
//!
//! One request per connection (`Connection: close`), 127.0.0.1 only; the server stops when
//! the `FakeService` is dropped. Not a general HTTP server: see `scripted/http.rs`.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;

use serde_json::Value;
use serde_json::json;
use tokio::net::TcpListener;

// The scripted server's HTTP reader, shared by path (the lib's unit tests load it twice).
#[allow(dead_code, unused_imports, clippy::duplicate_mod)]
#[path = "../scripted/http.rs"]
mod http;

mod content_apis;
mod ddgs;
mod search_apis;

/// The DuckDuckGo pages the fake serves, for tests that parse them directly.
#[allow(unused_imports)]
pub mod ddgs_pages {
    pub use super::ddgs::ANOMALY_PAGE;
    pub use super::ddgs::NO_RESULTS_PAGE;
    pub use super::ddgs::RESULTS_PAGE;
}

pub use http::RawRequest;

/// The key every fake accepts (any other is refused as the service refuses a bad key).
pub const FAKE_KEY: &str = "fake-key-7f3a9c21";

/// Which service a fake plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ddgs,
    Searxng,
    Brave,
    Tavily,
    Exa,
    Firecrawl,
    /// A self-hosted Firecrawl without auth that predates the v2 API.
    FirecrawlSelfHostedV1,
    Parallel,
}

/// An error the fake answers every request with, in its service's shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// 401 with the service's error body (as for a revoked key).
    Unauthorized,
    /// 429 with `Retry-After: seconds`.
    RateLimited { retry_after: u64 },
    /// 200 with a body cut off mid-JSON.
    MalformedJson,
    /// 500 with the service's error body.
    ServerError,
    /// HTTP 403 (SearXNG without `json` in `search.formats`: Flask's Forbidden page).
    Forbidden,
    /// DuckDuckGo's anomaly (CAPTCHA) page, HTTP 202 as DuckDuckGo sends it.
    Anomaly,
    /// DuckDuckGo's "No results." page.
    NoResults,
    /// HTTP 202 with an empty body, DuckDuckGo's other way of turning a client away.
    EmptyAccepted,
}

/// One answer.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub content_type: &'static str,
    pub body: String,
}

impl Reply {
    pub fn json(status: u16, body: &Value) -> Self {
        Self {
            status,
            headers: Vec::new(),
            content_type: "application/json",
            body: body.to_string(),
        }
    }

    pub fn html(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: Vec::new(),
            content_type: "text/html; charset=utf-8",
            body: body.to_string(),
        }
    }

    /// The fake's "your request is not what the service accepts".
    pub fn reject(why: impl std::fmt::Display) -> Self {
        Self::json(400, &json!({ "fake_error": why.to_string() }))
    }

    fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }
}

/// A running fake. Dropping it stops the server.
pub struct FakeService {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<RawRequest>>>,
    task: tokio::task::JoinHandle<()>,
}

impl FakeService {
    /// A fake of `kind` answering normally.
    pub async fn start(kind: Kind) -> Self {
        Self::start_with(kind, None).await
    }

    /// A fake of `kind`; with a fault it answers every request with that error.
    pub async fn start_with(kind: Kind, fault: Option<Fault>) -> Self {
        let listener = match TcpListener::bind("127.0.0.1:0").await {
            Ok(l) => l,
            Err(e) => panic!("fake {kind:?}: cannot bind 127.0.0.1: {e}"),
        };
        let addr = match listener.local_addr() {
            Ok(a) => a,
            Err(e) => panic!("fake {kind:?}: no local address: {e}"),
        };
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let recorded = Arc::clone(&recorded);
                let fault = fault.clone();
                tokio::spawn(async move {
                    let Ok(request) = http::read_request(&mut stream).await else {
                        return;
                    };
                    let reply = match &fault {
                        Some(fault) => fault_reply(kind, fault),
                        None => answer(kind, &request),
                    };
                    recorded
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push(request);
                    let _ = http::write_fixed(
                        &mut stream,
                        reply.status,
                        &reply.headers,
                        reply.content_type,
                        &reply.body,
                    )
                    .await;
                });
            }
        });
        Self {
            addr,
            requests,
            task,
        }
    }

    /// `http://127.0.0.1:PORT`, the value for the backend's base-URL variable.
    pub fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in arrival order.
    pub fn requests(&self) -> Vec<RawRequest> {
        self.requests
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl Drop for FakeService {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn answer(kind: Kind, request: &RawRequest) -> Reply {
    match kind {
        Kind::Ddgs => ddgs::answer(request),
        Kind::Searxng => search_apis::searxng(request),
        Kind::Brave => search_apis::brave(request),
        Kind::Tavily => content_apis::tavily(request),
        Kind::Exa => content_apis::exa(request),
        Kind::Firecrawl => content_apis::firecrawl(request, content_apis::Firecrawl::Cloud),
        Kind::FirecrawlSelfHostedV1 => {
            content_apis::firecrawl(request, content_apis::Firecrawl::SelfHostedV1)
        }
        Kind::Parallel => content_apis::parallel(request),
    }
}

/// Each service's error bodies, as they document or send them.
fn fault_reply(kind: Kind, fault: &Fault) -> Reply {
    match fault {
        Fault::Unauthorized => unauthorized(kind),
        Fault::RateLimited { retry_after } => {
            let seconds = retry_after.to_string();
            let reply = match kind {
                Kind::Ddgs => Reply::html(429, "<html><body>Too Many Requests</body></html>"),
                Kind::Searxng => {
                    Reply::html(429, "<!doctype html><title>429 Too Many Requests</title>")
                }
                _ => Reply::json(429, &error_body(kind, "Rate limit exceeded")),
            };
            reply.with_header("Retry-After", &seconds)
        }
        Fault::MalformedJson => Reply::json(200, &json!(null)).truncated_json(),
        Fault::ServerError => match kind {
            Kind::Ddgs | Kind::Searxng => Reply::html(
                500,
                "<!doctype html><title>500 Internal Server Error</title>",
            ),
            _ => Reply::json(500, &error_body(kind, "Internal server error")),
        },
        Fault::Forbidden => Reply::html(403, SEARXNG_FORBIDDEN),
        Fault::Anomaly => Reply::html(202, ddgs::ANOMALY_PAGE),
        Fault::NoResults => Reply::html(200, ddgs::NO_RESULTS_PAGE),
        Fault::EmptyAccepted => Reply::html(202, ""),
    }
}

impl Reply {
    /// A 200 whose JSON stops halfway, as a proxy that cut the connection leaves it.
    fn truncated_json(mut self) -> Self {
        self.body = r#"{"results": [{"title": "Rust", "url": "https://www.rust-lang"#.to_string();
        self
    }
}

/// Flask's 403 page, which SearXNG serves for `format=json` when `json` is not in
/// `search.formats`.
pub const SEARXNG_FORBIDDEN: &str = "<!doctype html>\n<html lang=en>\n<title>403 Forbidden</title>\n<h1>Forbidden</h1>\n<p>You don&#39;t have the permission to access the requested resource. It is either read-protected or not readable by the server.</p>\n";

fn unauthorized(kind: Kind) -> Reply {
    match kind {
        Kind::Ddgs | Kind::Searxng => {
            Reply::html(401, "<!doctype html><title>401 Unauthorized</title>")
        }
        Kind::Brave => Reply::json(
            401,
            &json!({
                "type": "ErrorResponse",
                "error": {
                    "id": "6c0d5f5e-3b1a-4c55-9a0e-2f8b1c7d9e10",
                    "status": 401,
                    "code": "SUBSCRIPTION_TOKEN_INVALID",
                    "detail": "The provided subscription token is invalid.",
                    "meta": { "component": "authentication" }
                },
                "time": 1_736_400_000
            }),
        ),
        _ => Reply::json(
            401,
            &error_body(kind, "Unauthorized: missing or invalid API key."),
        ),
    }
}

/// The JSON error body each API sends with a message.
fn error_body(kind: Kind, message: &str) -> Value {
    match kind {
        // Tavily: {"detail": {"error": ...}}
        Kind::Tavily => json!({ "detail": { "error": message } }),
        // Exa: {"requestId", "error", "tag"}
        Kind::Exa => {
            json!({ "requestId": "b1946ac92492d2347c6235b4d2611184", "error": message, "tag": "ERROR" })
        }
        // Firecrawl: {"success": false, "error": ...}
        Kind::Firecrawl | Kind::FirecrawlSelfHostedV1 => {
            json!({ "success": false, "error": message })
        }
        // Parallel: {"type": "error", "error": {"ref_id", "message"}}
        Kind::Parallel => {
            json!({ "type": "error", "error": { "ref_id": "e2a0f1c3", "message": message } })
        }
        Kind::Brave => json!({
            "type": "ErrorResponse",
            "error": { "id": "0b7f", "status": 429, "code": "RATE_LIMITED", "detail": message },
        }),
        Kind::Ddgs | Kind::Searxng => json!({ "error": message }),
    }
}

// ---- request checks shared by the fakes ----

/// The request's query string as a map (percent- and `+`-decoded).
pub(crate) fn query(request: &RawRequest) -> (String, BTreeMap<String, String>) {
    let (path, query) = request
        .path
        .split_once('?')
        .unwrap_or((request.path.as_str(), ""));
    let params = form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    (path.to_string(), params)
}

/// `method path` must match, else the rejection to send.
pub(crate) fn expect_route(request: &RawRequest, method: &str, path: &str) -> Result<(), Reply> {
    let (actual, _) = query(request);
    if request.method != method || actual != path {
        return Err(Reply::json(
            404,
            &json!({ "fake_error": format!("no route {} {actual} (expected {method} {path})", request.method) }),
        ));
    }
    Ok(())
}

/// The header `name` must be `value`.
pub(crate) fn expect_header(request: &RawRequest, name: &str, value: &str) -> Result<(), Reply> {
    match request.headers.get(name) {
        Some(v) if v == value => Ok(()),
        other => Err(Reply::reject(format!(
            "header {name}: expected {value:?}, got {other:?}"
        ))),
    }
}

/// The body as a JSON object, sent as `application/json`.
pub(crate) fn json_body(request: &RawRequest) -> Result<serde_json::Map<String, Value>, Reply> {
    let content_type = request.headers.get("content-type").map(String::as_str);
    if !content_type.is_some_and(|c| c.starts_with("application/json")) {
        return Err(Reply::reject(format!(
            "content-type {content_type:?} is not application/json"
        )));
    }
    match serde_json::from_slice::<Value>(&request.body) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Reply::reject(format!("body is not a JSON object: {other}"))),
        Err(e) => Err(Reply::reject(format!("body is not JSON: {e}"))),
    }
}

/// Only these fields may be present (the APIs reject unknown fields with 400/422).
pub(crate) fn only_fields(
    body: &serde_json::Map<String, Value>,
    allowed: &[&str],
) -> Result<(), Reply> {
    match body.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(field) => Err(Reply::json(
            422,
            &json!({ "fake_error": format!("unknown field {field:?}") }),
        )),
        None => Ok(()),
    }
}

/// A required string field.
pub(crate) fn string_field<'a>(
    body: &'a serde_json::Map<String, Value>,
    name: &str,
) -> Result<&'a str, Reply> {
    body.get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| Reply::reject(format!("field {name:?} missing or not a string")))
}

/// A required array-of-strings field.
pub(crate) fn strings_field(
    body: &serde_json::Map<String, Value>,
    name: &str,
) -> Result<Vec<String>, Reply> {
    let items = body
        .get(name)
        .and_then(Value::as_array)
        .ok_or_else(|| Reply::reject(format!("field {name:?} missing or not an array")))?;
    items
        .iter()
        .map(|v| v.as_str().map(str::to_string))
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| Reply::reject(format!("field {name:?} holds a non-string")))
}

/// A required integer field within `range`.
pub(crate) fn int_field(
    body: &serde_json::Map<String, Value>,
    name: &str,
    range: std::ops::RangeInclusive<u64>,
) -> Result<u64, Reply> {
    let value = body
        .get(name)
        .and_then(Value::as_u64)
        .ok_or_else(|| Reply::reject(format!("field {name:?} missing or not an integer")))?;
    if !range.contains(&value) {
        return Err(Reply::reject(format!(
            "field {name:?} = {value} outside {range:?}"
        )));
    }
    Ok(value)
}

/// The canned pages a fake's extract endpoint knows; any other URL fails as not found.
pub(crate) fn known_page(url: &str) -> Option<(&'static str, &'static str)> {
    match url {
        "https://example.com/article" => Some((
            "An Example Article",
            "# An Example Article\n\nThe main text of the article, with a [link](https://example.com/next).",
        )),
        "https://example.org/docs" => Some((
            "Example Docs",
            "# Example Docs\n\n| option | meaning |\n| --- | --- |\n| `-v` | verbose |",
        )),
        _ => None,
    }
}
