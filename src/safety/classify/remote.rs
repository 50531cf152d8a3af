//! Commands that run somewhere else: `ssh HOST CMD`, `docker|podman exec CTR CMD`,
//! `kubectl|oc exec POD -- CMD`.
//!
//! `remote` finds the command words (empty when the remote side reads its script from
//! stdin, as in `ssh host <<EOF`). The walker classifies them on their own and reports a
//! single dangerous `remote_command` finding when they would need approval here: a remote
//! `rm -rf /` is serious, but it is not this machine's hardline. It does not know the remote
//! home or anything else about the other side. Invariant: returned words are a suffix of
//! the arguments.

use super::opts::scan;
use super::words::Word;

pub(super) struct Remote<'a> {
    /// "host", "container web", "pod api".
    pub label: String,
    pub command: &'a [Word],
    /// The words are joined and parsed by a shell on the other side (ssh); otherwise they
    /// are the argv of the command (`docker exec`, `kubectl exec`).
    pub via_shell: bool,
}

pub(super) fn remote<'a>(prog: &str, args: &'a [Word]) -> Option<Remote<'a>> {
    match prog {
        "ssh" => {
            let s = scan(args, "BbcDEeFIiJLlmOoPpQRSWw", &[]);
            let host = s.operands.first()?;
            Some(Remote {
                label: format!("host {}", host.text),
                command: after(args, host),
                via_shell: true,
            })
        }
        "docker" | "podman" => {
            let at = match (args.first(), args.get(1)) {
                (Some(a), _) if a.text == "exec" => 1,
                (Some(a), Some(b)) if a.text == "container" && b.text == "exec" => 2,
                _ => return None,
            };
            let rest = &args[at..];
            let s = scan(
                rest,
                "euw",
                &[
                    "--env",
                    "--user",
                    "--workdir",
                    "--env-file",
                    "--detach-keys",
                ],
            );
            let container = s.operands.first()?;
            Some(Remote {
                label: format!("container {}", container.text),
                command: after(rest, container),
                via_shell: false,
            })
        }
        "kubectl" | "oc" => {
            if args.first().map(|a| a.text.as_str()) != Some("exec") {
                return None;
            }
            let dash = args.iter().position(|a| a.text == "--")?;
            let pod = args[1..dash]
                .iter()
                .find(|a| !a.text.starts_with('-'))
                .map_or("a pod", |a| a.text.as_str());
            Some(Remote {
                label: format!("pod {pod}"),
                command: &args[dash + 1..],
                via_shell: false,
            })
        }
        _ => None,
    }
}

/// The words after `word` (which is one of `args`).
fn after<'a>(args: &'a [Word], word: &Word) -> &'a [Word] {
    let at = args
        .iter()
        .position(|a| std::ptr::eq(a, word))
        .map_or(args.len(), |i| i + 1);
    &args[at..]
}
