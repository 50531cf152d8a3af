use std::path::PathBuf;

use super::*;

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/skills-manifest")
        .join(rel)
}

/// `dir_hashes.txt`: `_dir_hash` of each fixture skill, computed by Python Hermes (make.py).
fn python_hashes() -> Vec<(String, String)> {
    std::fs::read_to_string(fixture("dir_hashes.txt"))
        .unwrap()
        .lines()
        .map(|l| {
            let (rel, hash) = l.split_once(' ').unwrap();
            (rel.to_string(), hash.to_string())
        })
        .collect()
}

#[test]
fn dir_hash_is_pythons_md5_in_component_order_with_dot_files() {
    let hashes = python_hashes();
    assert_eq!(hashes.len(), 3);
    for (rel, expected) in hashes {
        assert_eq!(dir_hash(&fixture("bundle").join(&rel)), expected, "{rel}");
    }
}

#[test]
fn files_hash_of_a_table_equals_the_hash_of_its_files_on_disk() {
    let dir = fixture("bundle/dev/alpha");
    let files = [
        "SKILL.md",
        "references/a-b.md",
        "references/a/b.md",
        ".notes",
    ];
    let contents: Vec<(String, Vec<u8>)> = files
        .iter()
        .map(|f| (f.to_string(), std::fs::read(dir.join(f)).unwrap()))
        .collect();
    let table = contents.iter().map(|(p, b)| (p.as_str(), b.as_slice()));
    assert_eq!(files_hash(table), dir_hash(&dir));
}

#[test]
fn a_python_written_manifest_round_trips_byte_for_byte() {
    let text = std::fs::read_to_string(fixture("bundled_manifest")).unwrap();
    let manifest = parse(&text);
    // The fixture holds a tombstone (gamma, deleted by the user) and a user-modified entry.
    assert_eq!(manifest.len(), 3);
    assert_eq!(render(&manifest), text);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(PYTHON_MANIFEST);
    write(&path, &manifest).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert_eq!(read(&path).unwrap(), Some(manifest));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "as Python's mkstemp leaves it");
    }
}

#[test]
fn parse_reads_v1_lines_blank_lines_and_spaces_as_python_does() {
    let manifest = parse("  old-skill  \n\nb : abc \nc:d:e\n");
    assert_eq!(manifest.get("old-skill").map(String::as_str), Some(""));
    assert_eq!(manifest.get("b").map(String::as_str), Some("abc"));
    assert_eq!(manifest.get("c").map(String::as_str), Some("d:e"));
    assert_eq!(render(&manifest), "b:abc\nc:d:e\nold-skill:\n");
    assert_eq!(render(&Manifest::new()), "\n", "Python writes one newline");
}

#[test]
fn read_tells_a_missing_file_from_an_unreadable_one() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(read(&dir.path().join("none")).unwrap(), None);
    // A directory where the file should be cannot be read.
    assert!(read(dir.path()).is_err());
}

#[test]
fn legacy_hashes_are_recognised_and_recomputed() {
    assert!(is_legacy_hash("0123456789abcdef"));
    assert!(!is_legacy_hash("78cd492c1d4fc813b11fa3695db80cbd"));
    assert!(!is_legacy_hash(""));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("SKILL.md"), "x").unwrap();
    let before = legacy_dir_hash(dir.path());
    assert!(is_legacy_hash(&before));
    std::fs::write(dir.path().join(".ignored"), "dot-files never counted").unwrap();
    assert_eq!(legacy_dir_hash(dir.path()), before);
    std::fs::write(dir.path().join("SKILL.md"), "y").unwrap();
    assert_ne!(legacy_dir_hash(dir.path()), before);
}

#[test]
fn legacy_hash_matches_what_old_hermes_builds_wrote() {
    // The value the FNV `dir_hash` of hermes before the MD5 change gave for this directory.
    assert_eq!(
        legacy_dir_hash(&fixture("bundle/dev/alpha")),
        "0b98a649df48ce85"
    );
}
