use super::*;

#[test]
fn second_holder_waits_until_the_first_drops() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.lock");
    let first = FileLock::acquire(&path, Duration::from_secs(1)).unwrap();
    let started = Instant::now();
    let err = FileLock::acquire(&path, Duration::from_millis(100)).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::TimedOut);
    assert!(started.elapsed() >= Duration::from_millis(100));

    let waiter =
        std::thread::spawn(move || FileLock::acquire(&path, Duration::from_secs(5)).map(|_| ()));
    std::thread::sleep(Duration::from_millis(50));
    drop(first);
    waiter.join().unwrap().unwrap();
}
