//! macOS enforcement: a Seatbelt profile (SBPL) from the same `Plan`, run as
//! `sandbox-exec -p PROFILE bash -c COMMAND`, the way codex confines commands on macOS.
//!
//! Seatbelt has deny rules, so the profile states the plan directly: writes are denied but
//! under the writable roots and to the usual device files; protected paths are denied writes
//! and secrets reads, after the allows (in SBPL the last matching rule wins); outbound network
//! is denied when the network is off. The profile text is built on every platform so the
//! Linux tests cover it, but it is only run on macOS and has not been run by this project's
//! tests (no macOS machine here).

use std::ffi::OsString;

use super::NetworkAccess;
use super::plan::Access;
use super::plan::Plan;
use super::protected::SpecialAccess;
use crate::util::process::Confine;

pub const SANDBOX_EXEC: &str = "/usr/bin/sandbox-exec";

/// The SBPL profile for `plan`.
pub fn profile(plan: &Plan, network: NetworkAccess) -> String {
    let mut out = String::from("(version 1)\n(allow default)\n(deny file-write*)\n");
    let mut writable: Vec<String> = plan
        .roots
        .iter()
        .map(|root| format!("(subpath {})", quote(&root.to_string_lossy())))
        .collect();
    for grant in &plan.grants {
        if grant.access == Access::ReadWriteFiles {
            let filter = if grant.is_dir { "subpath" } else { "literal" };
            writable.push(format!(
                "({filter} {})",
                quote(&grant.path.to_string_lossy())
            ));
        }
    }
    if !writable.is_empty() {
        out.push_str(&format!(
            "(allow file-write*\n  {})\n",
            writable.join("\n  ")
        ));
    }
    for special in &plan.specials {
        let path = quote(&special.path.to_string_lossy());
        out.push_str(&format!("(deny file-write* (subpath {path}))\n"));
        if special.access == SpecialAccess::None {
            out.push_str(&format!("(deny file-read* (subpath {path}))\n"));
        }
    }
    if network == NetworkAccess::Denied {
        out.push_str("(deny network-outbound)\n(allow network-outbound (remote unix-socket))\n");
        out.push_str("(deny network-bind)\n");
    }
    out
}

/// `sandbox-exec -p PROFILE` in front of the shell.
pub fn confine(plan: &Plan, network: NetworkAccess) -> Confine {
    Confine {
        wrapper: vec![
            OsString::from(SANDBOX_EXEC),
            OsString::from("-p"),
            OsString::from(profile(plan, network)),
        ],
        in_child: None,
    }
}

/// An SBPL string literal.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}
