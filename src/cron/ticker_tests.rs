use super::*;

#[test]
fn a_fresh_python_heartbeat_counts_as_a_live_ticker_and_a_stale_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let paths = CronPaths::under(dir.path().to_path_buf());
    std::fs::create_dir_all(&paths.cron_dir).unwrap();
    let now: Timestamp = "2026-06-01T10:00:00Z".parse().unwrap();
    assert!(!status(&paths, now).alive());
    std::fs::write(&paths.heartbeat, format!("{}", now.as_second() - 30)).unwrap();
    let live = status(&paths, now);
    assert!(live.alive());
    assert!(
        live.describe().contains("Python Hermes gateway"),
        "{}",
        live.describe()
    );
    std::fs::write(&paths.heartbeat, format!("{}.5", now.as_second() - 500)).unwrap();
    assert!(!status(&paths, now).alive());
}

#[test]
fn the_heartbeat_is_written_as_epoch_seconds() {
    let dir = tempfile::tempdir().unwrap();
    let paths = CronPaths::under(dir.path().to_path_buf());
    std::fs::create_dir_all(&paths.cron_dir).unwrap();
    beat(
        &paths,
        "2026-06-01T10:00:00.5Z".parse().unwrap(),
        TickOutcome::Succeeded,
    );
    assert_eq!(
        std::fs::read_to_string(&paths.heartbeat).unwrap(),
        "1780308000.500000"
    );
    assert!(paths.last_success.exists());
}
