//! The DNS resolver the fetch client uses: it looks a name up (the system resolver, through
//! tokio), refuses metadata names, and checks every address with `guard::check_addr`. Only
//! when all pass are they handed to reqwest, which connects to one of them, so the address
//! connected to is always one that was checked. One refused address refuses the name (as
//! Hermes's `is_safe_url`: an attacker controls which answer a client picks).

use std::net::SocketAddr;

use reqwest::dns::Addrs;
use reqwest::dns::Name;
use reqwest::dns::Resolve;
use reqwest::dns::Resolving;

use super::super::WebError;
use super::super::guard;
use super::super::guard::PrivateAddresses;

/// A refusal or lookup failure, carried through reqwest's error chain to `map_error`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ResolveError(pub WebError);

pub struct GuardedResolver {
    private: PrivateAddresses,
}

impl GuardedResolver {
    pub fn new(private: PrivateAddresses) -> Self {
        Self { private }
    }
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let private = self.private;
        let host = name.as_str().to_string();
        Box::pin(async move {
            let addrs = checked_addrs(&host, private).await.map_err(|e| {
                Box::new(ResolveError(e)) as Box<dyn std::error::Error + Send + Sync>
            })?;
            Ok(Box::new(addrs.into_iter()) as Addrs)
        })
    }
}

/// `host`'s addresses (port 0: reqwest puts the URL's port in), each checked.
pub async fn checked_addrs(
    host: &str,
    private: PrivateAddresses,
) -> Result<Vec<SocketAddr>, WebError> {
    guard::check_host_name(host)?;
    let dns = |detail: String| WebError::Dns {
        host: host.to_string(),
        detail,
    };
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((host, 0))
        .await
        .map_err(|e| dns(e.to_string()))?
        .collect();
    if addrs.is_empty() {
        return Err(dns("no addresses".into()));
    }
    for addr in &addrs {
        guard::check_addr(host, addr.ip(), private)?;
    }
    Ok(addrs)
}
