//! Which provider an explicit `model.provider` name means: a `providers:` /
//! `custom_providers:` entry (a built-in id is never shadowed by one; an alias is), a profile
//! (id or alias), a provider hermes cannot use (one-line `Unsupported` error), or nothing
//! (`UnknownProvider`, with the nearest known name and where the name came from).
//!
//! Lookups only; no environment, no I/O.

use super::ProviderSetupError;
use super::profiles;
use super::registry::Target;
use super::registry::normalise;
use crate::config::schema::EntrySource;
use crate::config::schema::NamedProvider;
use crate::config::schema::ProviderEndpoints;

/// The target an explicit (non-`auto`) name means.
pub(super) fn select<'a>(
    name: &str,
    origin: &str,
    endpoints: &'a ProviderEndpoints,
) -> Result<Target<'a>, ProviderSetupError> {
    // A built-in id is never shadowed by an entry of the same name (Hermes's rule); an alias
    // is (`kimi:` under `providers:` is the user's, not Kimi's). `custom` itself may be an
    // entry's name.
    let builtin_id = name != "custom"
        && (profiles::PROFILES.iter().any(|p| p.id == name)
            || super::unsupported::UNSUPPORTED.iter().any(|u| u.id == name));
    if !builtin_id && let Some(entry) = find_named(name, endpoints) {
        return Ok(Target::Named(entry));
    }
    if let Some(unsupported) = super::unsupported::unsupported(name) {
        return Err(ProviderSetupError::Unsupported {
            provider: unsupported.id.to_string(),
            origin: origin.to_string(),
            why: unsupported.why.to_string(),
            instead: unsupported.instead.to_string(),
        });
    }
    match profiles::profile(name) {
        Some(profile) if !name.starts_with("custom:") => Ok(Target::Profile {
            profile,
            requested: name.to_string(),
        }),
        _ => Err(unknown(name, origin, endpoints)),
    }
}

/// The entry `name` selects: a `providers:` key or entry name (also as `custom:<name>`),
/// then a `custom_providers` item's name or `provider_key`.
pub(super) fn find_named<'a>(
    name: &str,
    endpoints: &'a ProviderEndpoints,
) -> Option<&'a NamedProvider> {
    let wanted = normalise(name);
    let matches = |label: &str| {
        let label_norm = normalise(label);
        !label.trim().is_empty()
            && (wanted == label.trim()
                || wanted == label_norm
                || wanted == format!("custom:{label_norm}"))
    };
    let from = |source: EntrySource| endpoints.named.iter().filter(move |e| e.source == source);
    from(EntrySource::Providers)
        .find(|e| matches(&e.key))
        .or_else(|| from(EntrySource::Providers).find(|e| matches(&e.name)))
        .or_else(|| {
            from(EntrySource::CustomProviders).find(|e| matches(&e.name) || matches(&e.key))
        })
}

fn unknown(name: &str, origin: &str, endpoints: &ProviderEndpoints) -> ProviderSetupError {
    let named = endpoints
        .named
        .iter()
        .flat_map(|e| [e.key.as_str(), e.name.as_str()]);
    let suggestion = named
        .chain(profiles::all_names().map(|n| -> &str { n }))
        .filter(|candidate| !candidate.is_empty())
        .map(|candidate| (strsim::levenshtein(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= 2.max(name.chars().count() / 4))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate.to_string());
    ProviderSetupError::UnknownProvider {
        name: name.to_string(),
        origin: origin.to_string(),
        suggestion,
        valid: profiles::PROFILES
            .iter()
            .map(|p| p.id)
            .collect::<Vec<_>>()
            .join(", "),
    }
}
