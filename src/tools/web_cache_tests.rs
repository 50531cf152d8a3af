use super::*;

fn cache(dir: &Path) -> PageCache {
    PageCache {
        dir: dir.to_path_buf(),
        ttl: Duration::from_secs(3600),
        max_bytes: 10_000,
    }
}

#[test]
fn names_files_as_hermes_does() {
    // sha256("https://example.com/a?b=1")[:10] == 6cb547ac73 (Python hashlib).
    assert_eq!(
        file_name("https://example.com/a?b=1"),
        "example.com-6cb547ac73.md"
    );
    assert!(file_name("https://user@Ex_Ample.COM:8443/x").starts_with("ex_ample.com-"));
    assert!(file_name("not a url").starts_with("not-a-url-"));
    assert!(file_name("https:///x").starts_with("page-"));
}

#[test]
fn stores_the_page_and_caps_it_with_a_marker() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = cache(dir.path());
    c.max_bytes = u64::MAX;
    let path = c.store("https://a.example/p", "hello\nworld").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "hello\nworld");
    let big = "é".repeat(MAX_STORED_CHARS + 5);
    let path = c.store("https://a.example/big", &big).unwrap();
    let stored = std::fs::read_to_string(&path).unwrap();
    assert!(stored.starts_with(&"é".repeat(100)));
    assert!(stored.ends_with(
        "[... stored copy truncated at 2,000,000 chars of 2,000,005; re-extract a more specific \
         URL for the rest ...]"
    ));
}

#[test]
fn expired_and_oldest_entries_are_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let c = cache(dir.path());
    let old = dir.path().join("old-0000000000.md");
    std::fs::write(&old, "x").unwrap();
    let two_hours_ago = SystemTime::now() - Duration::from_secs(7200);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(two_hours_ago)
        .unwrap();
    let first = c.store("https://a.example/1", &"a".repeat(6_000)).unwrap();
    assert!(!old.exists(), "an entry older than the ttl is removed");
    let older = SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&first)
        .unwrap()
        .set_modified(older)
        .unwrap();
    let second = c.store("https://a.example/2", &"b".repeat(6_000)).unwrap();
    assert!(second.exists());
    let third = c.store("https://a.example/3", &"c".repeat(6_000)).unwrap();
    assert!(third.exists());
    assert!(
        !first.exists(),
        "the oldest entry goes when the cap is exceeded"
    );
    let total: u64 = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .map(|e| e.metadata().unwrap().len())
        .sum();
    assert!(total <= 12_000, "cache holds {total} bytes");
}
