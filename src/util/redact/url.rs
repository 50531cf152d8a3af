//! [`strip_url_credentials`]: a URL as it may be shown or stored — without the `user:password@`
//! part of its authority. For base URLs (`model.base_url`) in `session_info`, `/status`, the
//! session database and error messages; the request itself still uses the URL as configured.
//!
//! What it does not do: parse or normalise the URL (text that is not a URL comes back as it
//! was, apart from a `user@` before its first `/`), or mask secrets in a query string (the
//! redaction rules do that where text is redacted). Invariant: the scheme, host, port, path,
//! query and fragment are kept byte for byte.

use std::borrow::Cow;

/// `url` without userinfo: `http://admin:pw@host:8080/v1` → `http://host:8080/v1`. Borrowed
/// when there is none.
pub fn strip_url_credentials(url: &str) -> Cow<'_, str> {
    let (scheme_end, rest) = match url.find("://") {
        Some(at) => (at + 3, &url[at + 3..]),
        None => (0, url),
    };
    let authority_len = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_len];
    match authority.rfind('@') {
        Some(at) => {
            let mut out = String::with_capacity(url.len());
            out.push_str(&url[..scheme_end]);
            out.push_str(&rest[at + 1..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(url),
    }
}

#[cfg(test)]
#[path = "url_tests.rs"]
mod tests;
