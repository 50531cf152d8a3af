//! The one HTTP exchange the Nous Portal's OAuth endpoints need: a form-encoded POST with a
//! JSON answer, sent through the shared client under a timeout and cancellation.
//!
//! What it does not do: interpret OAuth errors (the device-code and refresh modules do).
//! Invariant: the refresh token travels only in the `x-nous-refresh-token` header, and no
//! header or form value ever reaches a log line or an error.

use std::time::Duration;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::ProviderError;
use super::http::read_body;
use super::http::send_raw;
use super::http::target_of;
use crate::util::secret::Secret;

/// Error and token bodies are small; anything beyond this is not a Portal answer.
const BODY_LIMIT: usize = 256 * 1024;

/// A Portal answer: the status and the body parsed as JSON, when it is JSON.
#[derive(Debug)]
pub(crate) struct PortalReply {
    pub status: u16,
    pub json: Option<Value>,
}

/// POSTs `form` (URL-encoded) to `url`, with the refresh token header when given.
pub(crate) async fn post_form(
    client: &reqwest::Client,
    url: &str,
    form: &[(&str, &str)],
    refresh_token: Option<&Secret>,
    timeout: Duration,
    cancel: &CancellationToken,
) -> Result<PortalReply, ProviderError> {
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter().copied())
        .finish();
    let mut request = client
        .post(url)
        .header(reqwest::header::ACCEPT, "application/json")
        .header(
            reqwest::header::CONTENT_TYPE,
            "application/x-www-form-urlencoded",
        )
        .timeout(timeout)
        .body(body);
    if let Some(token) = refresh_token {
        request = request.header("x-nous-refresh-token", token.expose());
    }
    let target = target_of(url);
    let response = send_raw(request, &target, timeout, cancel).await?;
    let status = response.status().as_u16();
    let text = read_body(response, &target, timeout, cancel, BODY_LIMIT).await?;
    Ok(PortalReply {
        status,
        json: serde_json::from_str(&text).ok(),
    })
}

/// A string field of a JSON object answer.
pub(crate) fn field<'a>(json: Option<&'a Value>, key: &str) -> Option<&'a str> {
    json?.get(key)?.as_str()
}
