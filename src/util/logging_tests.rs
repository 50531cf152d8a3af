use super::*;

fn read_logs(dir: &Path) -> String {
    let mut out = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("hermes.")
            && !std::fs::symlink_metadata(&path)
                .unwrap()
                .file_type()
                .is_symlink()
        {
            out.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    out
}

#[test]
fn writes_log_file_without_secrets() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let options = LogOptions {
        verbosity: Verbosity::Normal,
        filter: None,
        known_secrets: vec!["custom-secret-value-42".into()],
    };
    let mut warnings = Vec::new();
    let (subscriber, worker) = build_subscriber(&logs, &options, &mut warnings).unwrap();
    tracing::subscriber::with_default(subscriber, || {
        tracing::info!(
            key = "sk-or-v1-0123456789abcdef0123456789abcdef",
            "sending Authorization: Bearer tok_0123456789 with custom-secret-value-42"
        );
        tracing::debug!("debug is filtered at the default level");
    });
    drop(worker);
    assert!(warnings.is_empty(), "{warnings:?}");
    let text = read_logs(&logs);
    assert!(text.contains("sending Authorization: Bearer ***"), "{text}");
    assert!(!text.contains("0123456789abcdef"), "{text}");
    assert!(!text.contains("tok_0123456789"), "{text}");
    assert!(!text.contains("custom-secret-value-42"), "{text}");
    assert!(!text.contains("debug is filtered"), "{text}");
    #[cfg(unix)]
    assert!(
        std::fs::symlink_metadata(logs.join(LOG_FILE_NAME))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn verbose_and_hermes_log_filters() {
    let dir = tempfile::tempdir().unwrap();
    let logs = dir.path().join("logs");
    let options = LogOptions::from_env(Verbosity::Verbose, Vec::new(), &|_| None);
    let mut warnings = Vec::new();
    let (subscriber, worker) = build_subscriber(&logs, &options, &mut warnings).unwrap();
    tracing::subscriber::with_default(subscriber, || tracing::debug!("verbose line"));
    drop(worker);
    assert!(read_logs(&logs).contains("verbose line"));

    let options = LogOptions::from_env(Verbosity::Verbose, Vec::new(), &|k| {
        (k == HERMES_LOG_ENV).then(|| "warn".to_string())
    });
    let logs2 = dir.path().join("logs2");
    let (subscriber, worker) = build_subscriber(&logs2, &options, &mut warnings).unwrap();
    tracing::subscriber::with_default(subscriber, || tracing::info!("info line"));
    drop(worker);
    assert!(!read_logs(&logs2).contains("info line"));
}

#[test]
fn bad_filter_warns_and_falls_back() {
    let options = LogOptions {
        filter: Some("[[[".into()),
        ..LogOptions::default()
    };
    let mut warnings = Vec::new();
    let _ = filter_for(&options, &mut warnings);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("HERMES_LOG"));
}

#[test]
fn unusable_log_dir_disables_logging_without_failing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let mut warnings = Vec::new();
    assert!(build_subscriber(&file.join("logs"), &LogOptions::default(), &mut warnings).is_err());
}

#[test]
fn redacting_writer_joins_split_writes() {
    let mut sink = Vec::new();
    {
        let mut w = RedactingWriter::new(&mut sink, Vec::<String>::new().into());
        w.write_all(b"key sk-ant-0123456789").unwrap();
        w.write_all(b"abcdefghij end\n").unwrap();
    }
    assert_eq!(String::from_utf8(sink).unwrap(), "key sk-ant-*** end\n");
}
