//! The SSRF guard: which URLs and addresses `web_extract` may fetch, by Python Hermes's
//! `tools/url_safety.py` rules plus its secret-in-URL check from `web_extract_tool`.
//!
//! - [`check_url`]: the URL itself, before any lookup: http/https only, no `user:pass@`, no
//!   secret-shaped token (raw or percent-decoded), no credential-named query parameter, no
//!   cloud-metadata host name. It returns the parsed, normalised URL (IDNA host, non-ASCII
//!   percent-encoded, as Hermes's `normalize_url_for_request`).
//! - [`check_addr`]: one IP address, after DNS resolution (or a literal host), under the
//!   caller's [`PrivateAddresses`] setting. `fetch` applies it to every address a name
//!   resolves to, on every redirect hop, and connects only to addresses it passed.
//!
//! Invariants: cloud-metadata addresses and host names, and the whole IPv4 link-local range
//! they live in (169.254.0.0/16, as Hermes), are refused even when private addresses are
//! allowed. An IPv6 address that embeds an IPv4 one (mapped `::ffff:a.b.c.d`, NAT64, 6to4,
//! the old compatible form) is judged by the IPv4 address when that one is not public.
//! Not here: DNS lookups and connections (`fetch`).

use std::borrow::Cow;
use std::net::IpAddr;
use std::net::Ipv4Addr;
use std::net::Ipv6Addr;

use reqwest::Url;

use super::WebError;
use crate::util::redact;

/// Whether loopback, private, link-local (IPv6), CGNAT and other non-public addresses may be
/// fetched (`web.allow_private_urls` and its fallbacks). Metadata addresses never may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PrivateAddresses {
    #[default]
    Refused,
    Allowed,
}

impl From<bool> for PrivateAddresses {
    /// `true` (the config value of `allow_private_urls`) is [`PrivateAddresses::Allowed`].
    fn from(allowed: bool) -> Self {
        if allowed {
            Self::Allowed
        } else {
            Self::Refused
        }
    }
}

/// What kind of address an IP is, for the guard's verdict and its wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AddrClass {
    Public,
    /// A cloud instance-metadata endpoint: always refused.
    Metadata,
    /// 169.254.0.0/16: always refused (every IPv4 metadata endpoint lives here).
    LinkLocalV4,
    Loopback,
    /// RFC 1918, IPv6 unique-local (fc00::/7) and site-local (fec0::/10), local NAT64.
    Private,
    /// fe80::/10.
    LinkLocalV6,
    /// 100.64.0.0/10, carrier-grade NAT (also Tailscale).
    Cgnat,
    Multicast,
    Unspecified,
    Broadcast,
    /// 198.18.0.0/15.
    Benchmark,
    Documentation,
    /// "This network", IETF protocol assignments, 240/4, and IPv6 outside 2000::/3.
    Reserved,
}

impl AddrClass {
    fn describe(self) -> &'static str {
        match self {
            Self::Public => "a public address",
            Self::Metadata => "a cloud metadata endpoint",
            Self::LinkLocalV4 | Self::LinkLocalV6 => "a link-local address",
            Self::Loopback => "a loopback address",
            Self::Private => "a private network address",
            Self::Cgnat => "a carrier-grade NAT address",
            Self::Multicast => "a multicast address",
            Self::Unspecified => "the unspecified address",
            Self::Broadcast => "the broadcast address",
            Self::Benchmark => "a benchmarking address",
            Self::Documentation => "a documentation address",
            Self::Reserved => "a reserved address",
        }
    }

    fn always_refused(self) -> bool {
        matches!(self, Self::Metadata | Self::LinkLocalV4)
    }
}

/// Host names of metadata services, refused whatever they resolve to.
const METADATA_HOSTS: &[&str] = &["metadata.google.internal", "metadata.goog"];

const METADATA_V4: &[Ipv4Addr] = &[
    Ipv4Addr::new(169, 254, 169, 254), // AWS, GCP, Azure, DigitalOcean, Oracle
    Ipv4Addr::new(169, 254, 170, 2),   // AWS ECS task credentials
    Ipv4Addr::new(169, 254, 169, 253), // Azure wire server
    Ipv4Addr::new(100, 100, 100, 200), // Alibaba Cloud
];

const METADATA_V6: &[Ipv6Addr] = &[Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254)];

/// Query parameter names that always carry a credential (Hermes's
/// `_SENSITIVE_QUERY_PARAM_NAMES`; deliberately narrow: `key`, `code`, `auth` are ordinary).
const SENSITIVE_QUERY_NAMES: &[&str] = &[
    "access_token",
    "api_key",
    "apikey",
    "auth_token",
    "authorization",
    "awsaccesskeyid",
    "client_secret",
    "credential",
    "credentials",
    "jwt",
    "password",
    "passwd",
    "secret",
    "session_id",
    "signature",
    "token",
    "x_amz_security_token",
    "x_amz_signature",
    "x-amz-security-token",
    "x-amz-signature",
];

/// The class of `ip`. IPv4-in-IPv6 forms are judged by their IPv4 address when that one is
/// not public (a mapped loopback is loopback, a NAT64 metadata address is metadata).
pub fn classify(ip: IpAddr) -> AddrClass {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

fn in_v4(ip: Ipv4Addr, net: [u8; 4], prefix: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
    (u32::from(ip) & mask) == (u32::from(Ipv4Addr::from(net)) & mask)
}

fn in_v6(ip: Ipv6Addr, net: Ipv6Addr, prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
    (u128::from(ip) & mask) == (u128::from(net) & mask)
}

fn classify_v4(ip: Ipv4Addr) -> AddrClass {
    use AddrClass::*;
    if METADATA_V4.contains(&ip) {
        return Metadata;
    }
    const TABLE: &[([u8; 4], u32, AddrClass)] = &[
        ([0, 0, 0, 0], 32, Unspecified),
        ([0, 0, 0, 0], 8, Reserved),
        ([10, 0, 0, 0], 8, Private),
        ([100, 64, 0, 0], 10, Cgnat),
        ([127, 0, 0, 0], 8, Loopback),
        ([169, 254, 0, 0], 16, LinkLocalV4),
        ([172, 16, 0, 0], 12, Private),
        ([192, 0, 0, 0], 24, Reserved),
        ([192, 0, 2, 0], 24, Documentation),
        ([192, 168, 0, 0], 16, Private),
        ([198, 18, 0, 0], 15, Benchmark),
        ([198, 51, 100, 0], 24, Documentation),
        ([203, 0, 113, 0], 24, Documentation),
        ([224, 0, 0, 0], 4, Multicast),
        ([255, 255, 255, 255], 32, Broadcast),
        ([240, 0, 0, 0], 4, Reserved),
    ];
    TABLE
        .iter()
        .find(|(net, prefix, _)| in_v4(ip, *net, *prefix))
        .map_or(Public, |(_, _, class)| *class)
}

fn classify_v6(ip: Ipv6Addr) -> AddrClass {
    use AddrClass::*;
    if METADATA_V6.contains(&ip) {
        return Metadata;
    }
    if ip.is_unspecified() {
        return Unspecified;
    }
    if ip.is_loopback() {
        return Loopback;
    }
    let bits = u128::from(ip);
    let low_v4 = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    // ::ffff:a.b.c.d is the IPv4 address itself (what a dual-stack socket connects to).
    if let Some(v4) = ip.to_ipv4_mapped() {
        return classify_v4(v4);
    }
    // NAT64 (64:ff9b::/96) and the deprecated compatible form (::a.b.c.d) reach the IPv4
    // address through a gateway; 6to4 (2002::/16) carries it in bits 16..48.
    let embedded = if in_v6(ip, Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96)
        || in_v6(ip, Ipv6Addr::UNSPECIFIED, 96)
    {
        Some(low_v4)
    } else if in_v6(ip, Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16) {
        Some(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32))
    } else {
        None
    };
    if let Some(class) = embedded.map(classify_v4).filter(|c| *c != Public) {
        return class;
    }
    let table: [(Ipv6Addr, u32, AddrClass); 8] = [
        (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48, Private),
        (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7, Private),
        (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10, LinkLocalV6),
        (Ipv6Addr::new(0xfec0, 0, 0, 0, 0, 0, 0, 0), 10, Private),
        (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8, Multicast),
        (
            Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0),
            32,
            Documentation,
        ),
        (
            Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0),
            20,
            Documentation,
        ),
        // IETF protocol assignments: Teredo, ORCHID, benchmarking (2001:2::/48), …
        (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23, Reserved),
    ];
    if let Some((_, _, class)) = table.iter().find(|(net, p, _)| in_v6(ip, *net, *p)) {
        return *class;
    }
    // Only 2000::/3 is global unicast; everything else left (::/8 incl. NAT64, 100::/64
    // discard, …) is reserved, as Python's `is_reserved` has it.
    if in_v6(ip, Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0), 3) {
        Public
    } else {
        Reserved
    }
}

/// Refuses `ip` (reached as `host`) unless it is public, or non-public and the caller allows
/// private addresses; metadata and IPv4 link-local addresses are refused regardless.
pub fn check_addr(host: &str, ip: IpAddr, private: PrivateAddresses) -> Result<(), WebError> {
    let class = classify(ip);
    let refused = match class {
        AddrClass::Public => false,
        c if c.always_refused() => true,
        _ => private == PrivateAddresses::Refused,
    };
    if !refused {
        return Ok(());
    }
    let target = if host == ip.to_string() || host.trim_matches(['[', ']']) == ip.to_string() {
        format!("{ip} is {}", class.describe())
    } else {
        format!("{host} resolves to {ip}, {}", class.describe())
    };
    let hint = if class.always_refused() || private == PrivateAddresses::Allowed {
        ""
    } else {
        " (set web.allow_private_urls: true to allow private addresses)"
    };
    Err(WebError::Blocked {
        reason: format!("{target}{hint}"),
    })
}

/// Refuses a cloud-metadata host name (`metadata.google.internal`), whatever it resolves to.
pub fn check_host_name(host: &str) -> Result<(), WebError> {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if METADATA_HOSTS.contains(&host.as_str()) {
        return Err(WebError::Blocked {
            reason: format!("{host} is a cloud metadata endpoint"),
        });
    }
    Ok(())
}

/// `raw` parsed and normalised, or why it may not be fetched at all (scheme, credentials,
/// secrets, metadata host name). Addresses are checked later, by [`check_addr`].
pub fn check_url(raw: &str) -> Result<Url, WebError> {
    let normalised = normalize(raw);
    let url = Url::parse(&normalised).map_err(|e| WebError::BadUrl {
        reason: format!("{e} ({})", short(raw)),
    })?;
    check_parsed(raw, &url)?;
    Ok(url)
}

/// The checks of [`check_url`] that need no lookup, on an already parsed URL (a redirect's
/// `Location` resolved against the page). `raw` is the text as given.
pub fn check_parsed(raw: &str, url: &Url) -> Result<(), WebError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(WebError::Blocked {
            reason: format!(
                "only http and https URLs can be fetched, not {}:",
                url.scheme()
            ),
        });
    }
    let Some(host) = url.host_str() else {
        return Err(WebError::BadUrl {
            reason: format!("no host in {}", short(raw)),
        });
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(WebError::Blocked {
            reason: "the URL carries a user name or password; secrets must not be sent in URLs"
                .into(),
        });
    }
    if carries_secret(raw) || carries_secret(url.as_str()) {
        return Err(WebError::Blocked {
            reason: "the URL contains what appears to be an API key or token; secrets must not \
                     be sent in URLs"
                .into(),
        });
    }
    if let Some(name) = sensitive_query_name(url) {
        return Err(WebError::Blocked {
            reason: format!(
                "the URL has a credential-like query parameter ({name}); remove it to fetch \
                 the page"
            ),
        });
    }
    check_host_name(host)
}

/// Hermes's repair of `https:// host` (a model's formatting slip) before parsing; IDNA and
/// percent-encoding of non-ASCII text are the URL parser's.
fn normalize(raw: &str) -> Cow<'_, str> {
    let trimmed = raw.trim();
    if let Some(at) = trimmed.find("://") {
        let (scheme, rest) = trimmed.split_at(at + 3);
        let scheme_ok = scheme
            .trim_end_matches("://")
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '.' | '-'));
        if scheme_ok && rest.starts_with(char::is_whitespace) {
            return Cow::Owned(format!("{scheme}{}", rest.trim_start()));
        }
    }
    Cow::Borrowed(trimmed)
}

/// A secret by its shape (vendor key prefixes, JWTs, bot tokens) or a value the process knows
/// is secret, in `text` as is or percent-decoded (`%73k-` is `sk-`).
fn carries_secret(text: &str) -> bool {
    let decoded = percent_encoding::percent_decode_str(text).decode_utf8_lossy();
    [text, decoded.as_ref()]
        .into_iter()
        .any(|t| redact::has_shaped_secret(t) || matches!(redact::redact_known(t), Cow::Owned(_)))
}

/// The first query parameter with a credential's name and a value (Hermes's
/// `sensitive_query_param_name`).
fn sensitive_query_name(url: &Url) -> Option<String> {
    url.query_pairs()
        .find(|(name, value)| {
            !value.is_empty() && SENSITIVE_QUERY_NAMES.contains(&name.to_lowercase().as_str())
        })
        .map(|(name, _)| name.into_owned())
}

/// At most 80 characters of `raw` for an error message; a URL that failed to parse is
/// not shown whole (it may be a paste of anything).
fn short(raw: &str) -> String {
    let raw = redact::redact(raw.trim(), &[]);
    match raw.char_indices().nth(80) {
        Some((at, _)) => format!("{}…", raw.get(..at).unwrap_or_default()),
        None => raw.into_owned(),
    }
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
