use super::*;

fn map(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn process_env_wins_over_dotenv() {
    let lookup = EnvLookup::from_maps(
        map(&[("OPENAI_API_KEY", "from-process"), ("EMPTY", "")]),
        map(&[
            ("OPENAI_API_KEY", "from-file"),
            ("ANTHROPIC_API_KEY", "file-only"),
            ("EMPTY", "file-value"),
        ]),
    );
    assert_eq!(
        lookup.get("OPENAI_API_KEY").as_deref(),
        Some("from-process")
    );
    assert_eq!(
        lookup.get("ANTHROPIC_API_KEY").as_deref(),
        Some("file-only")
    );
    assert_eq!(lookup.get("EMPTY").as_deref(), Some("file-value"));
    assert_eq!(lookup.get("MISSING"), None);
    let f = lookup.as_fn();
    let dynf: &dyn Fn(&str) -> Option<String> = &f;
    assert_eq!(dynf("ANTHROPIC_API_KEY").as_deref(), Some("file-only"));
    let secrets = lookup.secret_values();
    assert!(secrets.contains(&"from-process".to_string()));
    assert!(secrets.contains(&"file-only".to_string()));
    assert!(!format!("{lookup:?}").contains("file-only"));
}

#[test]
fn reads_dotenv_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".env");
    std::fs::write(
        &path,
        "# secrets\nOPENROUTER_API_KEY=sk-or-1\nexport NOUS_API_KEY='n k'\nQ=\"a b\" # note\n",
    )
    .unwrap();
    let (m, warnings) = read_dotenv(&path).unwrap();
    assert!(warnings.is_empty());
    assert_eq!(m["OPENROUTER_API_KEY"], "sk-or-1");
    assert_eq!(m["NOUS_API_KEY"], "n k");
    assert_eq!(m["Q"], "a b");
    let (m, _) = read_dotenv(&dir.path().join("missing")).unwrap();
    assert!(m.is_empty());
}

#[test]
fn bad_dotenv_line_warns_without_echoing_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".env");
    std::fs::write(&path, "A=1\nB=secret-value w\nC=3\n").unwrap();
    let (m, warnings) = read_dotenv(&path).unwrap();
    assert_eq!(m.get("A").map(String::as_str), Some("1"));
    assert_eq!(warnings.len(), 1);
    let text = warnings[0].to_string();
    assert!(!text.contains("secret-value"), "{text}");
    assert!(text.contains(":2:"), "{text}");
    // Only that line is skipped, as python-dotenv does: the keys after it still count.
    assert_eq!(m.get("C").map(String::as_str), Some("3"));
    assert!(!m.contains_key("B"));
}

#[test]
fn a_byte_order_mark_does_not_hide_the_first_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".env");
    std::fs::write(&path, "\u{feff}OPENAI_API_KEY=sk-1\r\nB=2\r\n").unwrap();
    let (m, warnings) = read_dotenv(&path).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(m.get("OPENAI_API_KEY").map(String::as_str), Some("sk-1"));
    assert_eq!(m.get("B").map(String::as_str), Some("2"));
}

#[test]
fn set_env_var_keeps_other_lines_and_replaces_in_place() {
    let old = "# header\nA=1\n\nexport OPENAI_API_KEY=old # c\nB=2\nOPENAI_API_KEY=dup\n";
    let new = rewrite_env_text(old, "OPENAI_API_KEY", "sk-new");
    assert_eq!(new, "# header\nA=1\n\nexport OPENAI_API_KEY=sk-new\nB=2\n");
    let appended = rewrite_env_text("A=1", "B", "2");
    assert_eq!(appended, "A=1\nB=2\n");
    assert_eq!(rewrite_env_text("", "B", "2"), "B=2\n");
    // A key that is only a prefix of another is not touched.
    assert_eq!(rewrite_env_text("AB=1\n", "A", "2"), "AB=1\nA=2\n");
}

#[test]
fn quoted_values_round_trip_through_dotenvy() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".env");
    let values = [
        "plain-Value_1.2:3/4",
        "has space",
        "has # hash",
        "dollar $HOME and ${X}",
        "quote ' and \" both",
        "multi\nline $x \\ end",
        "",
    ];
    for (i, value) in values.iter().enumerate() {
        set_env_var_at(&path, &format!("K{i}"), value).unwrap();
    }
    let (m, warnings) = read_dotenv(&path).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    for (i, value) in values.iter().enumerate() {
        assert_eq!(m[&format!("K{i}")], *value, "value {i}");
    }
}

#[test]
fn bad_keys_and_values_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(".env");
    for key in ["", "1A", "A-B", "A B", "A=B"] {
        assert!(set_env_var_at(&path, key, "v").is_err(), "{key:?}");
    }
    assert!(set_env_var_at(&path, "A", "x\ry").is_err());
    assert!(!path.exists());
}

#[cfg(unix)]
#[test]
fn env_file_mode_is_0600_on_create_and_rewrite() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    set_env_var(&home, "OPENAI_API_KEY", "sk-1").unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&home.env_path()), 0o600);
    std::fs::set_permissions(home.env_path(), std::fs::Permissions::from_mode(0o644)).unwrap();
    set_env_var(&home, "OPENAI_API_KEY", "sk-2").unwrap();
    assert_eq!(mode(&home.env_path()), 0o600);
    let (lookup, _) = EnvLookup::load(&home).unwrap();
    assert_eq!(lookup.dotenv()["OPENAI_API_KEY"], "sk-2");
}
