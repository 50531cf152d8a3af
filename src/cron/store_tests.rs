use super::*;

fn store() -> (tempfile::TempDir, JobStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = JobStore::new(CronPaths::under(dir.path().to_path_buf()));
    (dir, store)
}

#[test]
fn a_missing_file_is_no_jobs_and_writes_are_hermes_format_0600() {
    let (_dir, store) = store();
    assert!(store.load().unwrap().jobs.is_empty());
    store
        .update("2026-06-01T10:00:00+00:00", |file| {
            file.jobs.push(Job::from_map(
                serde_json::json!({"id": "abc", "name": "x"})
                    .as_object()
                    .unwrap()
                    .clone(),
            ));
            Ok(Edit::changed(()))
        })
        .unwrap();
    let text = std::fs::read_to_string(&store.paths().jobs_file).unwrap();
    assert!(
        text.starts_with("{\n  \"jobs\": [\n    {\n      \"id\": \"abc\""),
        "{text}"
    );
    assert!(text.contains("\"updated_at\": \"2026-06-01T10:00:00+00:00\""));
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&store.paths().jobs_file)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn a_bom_control_characters_and_a_bare_list_are_read_like_hermes() {
    let (_dir, store) = store();
    std::fs::create_dir_all(&store.paths().cron_dir).unwrap();
    std::fs::write(
        &store.paths().jobs_file,
        "\u{feff}[{\"id\": \"a\", \"prompt\": \"line\tone\nline two\"}, 7]",
    )
    .unwrap();
    let file = store.load().unwrap();
    assert_eq!(file.jobs[0].prompt(), "line\tone\nline two");
    assert_eq!(file.others, [serde_json::json!(7)]);
}

#[test]
fn a_corrupt_file_is_named_and_never_overwritten() {
    let (_dir, store) = store();
    std::fs::create_dir_all(&store.paths().cron_dir).unwrap();
    std::fs::write(&store.paths().jobs_file, "{\"jobs\": [\n  {\"id\": ").unwrap();
    let err = store.load().unwrap_err().to_string();
    assert!(
        err.contains("jobs.json is not a valid job file (line 2"),
        "{err}"
    );
    let result = store.update("now", |_| Ok(Edit::changed(())));
    assert!(result.is_err());
    assert_eq!(
        std::fs::read_to_string(&store.paths().jobs_file).unwrap(),
        "{\"jobs\": [\n  {\"id\": "
    );
}
