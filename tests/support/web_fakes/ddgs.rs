//! The DuckDuckGo HTML endpoint (`/html/`): a form POST (or GET) with `q`, answered with a
//! results page saved in the shape html.duckduckgo.com serves (an ad first, results whose
//! links go through `//duckduckgo.com/l/?uddg=` redirects, one direct link), or its anomaly
//! and "No results." pages.

use super::RawRequest;
use super::Reply;
use super::query;

pub const RESULTS_PAGE: &str = include_str!("fixtures/ddgs_results.html");
pub const ANOMALY_PAGE: &str = include_str!("fixtures/ddgs_anomaly.html");
pub const NO_RESULTS_PAGE: &str = include_str!("fixtures/ddgs_no_results.html");

pub(super) fn answer(request: &RawRequest) -> Reply {
    let (path, params) = query(request);
    if path != "/html/" && path != "/html" {
        return Reply::html(404, "<html><body>Not Found</body></html>");
    }
    let form = match request.method.as_str() {
        "GET" => params,
        "POST" => {
            let content_type = request.headers.get("content-type").map(String::as_str);
            if content_type != Some("application/x-www-form-urlencoded") {
                return Reply::reject(format!(
                    "POST /html/ needs a form body, got {content_type:?}"
                ));
            }
            form_urlencoded::parse(&request.body)
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        }
        other => {
            return Reply::html(
                405,
                &format!("<html><body>{other} not allowed</body></html>"),
            );
        }
    };
    // DuckDuckGo serves its bot page to clients without a User-Agent.
    if request
        .headers
        .get("user-agent")
        .is_none_or(String::is_empty)
    {
        return Reply::html(202, ANOMALY_PAGE);
    }
    match form.get("q").map(|q| q.trim()) {
        Some(q) if !q.is_empty() => Reply::html(200, RESULTS_PAGE),
        // An empty query gets the bare search page, which has no results list.
        _ => Reply::html(
            200,
            "<html><head><title>DuckDuckGo</title></head><body><form action=\"/html/\"></form></body></html>",
        ),
    }
}
