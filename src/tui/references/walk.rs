//! Walking folders with the `ignore` crate (hidden files skipped, `.gitignore` respected even
//! outside a git repository): the listing attached for `@folder/`, and the path list the
//! composer completes `@` from.

use std::path::Path;

use ignore::WalkBuilder;

use super::FOLDER_DEPTH;
use super::FOLDER_ENTRIES;

/// Deepest level `list_paths` descends to.
const MAX_COMPLETION_DEPTH: usize = 16;

fn walker(root: &Path, depth: usize) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .max_depth(Some(depth))
        .hidden(true)
        .require_git(false)
        .follow_links(false)
        .sort_by_file_name(Ord::cmp);
    builder
}

/// Entries under `root` (not `root` itself) up to `depth` levels, with their depth, as
/// `/`-separated paths relative to `root`, folders with a trailing `/`, in walk order (sorted
/// by name within each folder). Lazy: the walk stops when the caller stops taking.
fn entries(root: &Path, depth: usize) -> impl Iterator<Item = (usize, String)> + '_ {
    walker(root, depth)
        .build()
        .flatten()
        .filter(|entry| entry.depth() > 0)
        .filter_map(move |entry| {
            let rel = entry.path().strip_prefix(root).ok()?;
            let mut rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            if entry.file_type().is_some_and(|t| t.is_dir()) {
                rel.push('/');
            }
            Some((entry.depth(), rel))
        })
}

/// The indented listing attached for a folder reference, headed by `label` (e.g. `src/`), and
/// the number of entries in it.
pub(super) fn folder_listing(dir: &Path, label: &str) -> (String, usize) {
    let mut entries: Vec<(usize, String)> = self::entries(dir, FOLDER_DEPTH)
        .take(FOLDER_ENTRIES + 1)
        .collect();
    let stopped = entries.len() > FOLDER_ENTRIES;
    entries.truncate(FOLDER_ENTRIES);
    let mut text = label.to_owned();
    for (depth, rel) in &entries {
        let name = rel
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(rel.as_str());
        let slash = if rel.ends_with('/') { "/" } else { "" };
        text.push('\n');
        text.push_str(&"  ".repeat(*depth));
        text.push_str(name);
        text.push_str(slash);
    }
    if entries.is_empty() {
        text.push_str("\n  (empty)");
    }
    if stopped {
        text.push_str(&format!(
            "\n  … (listing stops at {FOLDER_ENTRIES} entries)"
        ));
    }
    (text, entries.len())
}

/// Paths under `cwd` for `@` completion: `/`-separated, relative, folders ending in `/`,
/// hidden and git-ignored entries skipped, at most `limit`. Shallow entries come first (all of
/// the top two levels, then deeper ones) so a large tree cannot crowd them out.
///
/// Blocking (it reads the disk): run it off the UI task, e.g. in `spawn_blocking`.
pub fn list_paths(cwd: &Path, limit: usize) -> Vec<String> {
    let mut paths: Vec<String> = entries(cwd, 2).map(|(_, p)| p).take(limit).collect();
    if paths.len() < limit {
        let extra = entries(cwd, MAX_COMPLETION_DEPTH)
            .filter(|(depth, _)| *depth > 2)
            .map(|(_, p)| p)
            .take(limit - paths.len());
        paths.extend(extra);
    }
    paths
}
