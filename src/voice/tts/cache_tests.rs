use super::*;

#[test]
fn keys_depend_on_identity_and_text() {
    let a = AudioCache::key("openai\nalloy", "Hello there.");
    assert_eq!(a, AudioCache::key("openai\nalloy", "Hello there."));
    assert_eq!(a.len(), 32);
    assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(a, AudioCache::key("openai\nnova", "Hello there."));
    assert_ne!(a, AudioCache::key("openai\nalloy", "Hello there!"));
    // The identity is length-prefixed: moving text across the boundary changes the key.
    assert_ne!(AudioCache::key("ab", "c"), AudioCache::key("a", "bc"));
}

#[test]
fn put_then_get_returns_the_clip() {
    let dir = tempfile::tempdir().unwrap();
    let cache = AudioCache::new(dir.path().join("audio_cache"));
    let key = AudioCache::key("id", "text");
    assert_eq!(cache.get(&key), None);
    let clip = Clip::new(vec![1, -2, 300, -400], 24_000);
    cache.put(&key, &clip);
    assert_eq!(cache.get(&key), Some(clip));
    assert!(cache.path(&key).starts_with(dir.path().join("audio_cache")));
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(cache.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec![format!("tts_{key}.wav")]);
}

#[test]
fn an_unwritable_directory_is_not_an_error() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the directory should be: create_dir_all fails.
    let blocker = dir.path().join("audio_cache");
    std::fs::write(&blocker, b"not a directory").unwrap();
    let cache = AudioCache::new(&blocker);
    cache.put("k", &Clip::new(vec![1, 2, 3], 16_000));
    assert_eq!(cache.get("k"), None);
}

#[test]
fn a_corrupt_entry_is_a_miss() {
    let dir = tempfile::tempdir().unwrap();
    let cache = AudioCache::new(dir.path());
    std::fs::write(cache.path("bad"), b"RIFF garbage").unwrap();
    assert_eq!(cache.get("bad"), None);
}
