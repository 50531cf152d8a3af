use super::*;

fn home() -> PathBuf {
    PathBuf::from("/home/ada")
}

fn path(text: &str) -> Option<PathBuf> {
    pasted_image_path(text, Some(&home()))
}

fn some(p: &str) -> Option<PathBuf> {
    Some(PathBuf::from(p))
}

#[test]
fn plain_absolute_paths_with_each_extension() {
    for ext in IMAGE_EXTENSIONS {
        let text = format!("/tmp/shot.{ext}");
        assert_eq!(path(&text), some(&text), "{text}");
    }
}

#[test]
fn extension_match_ignores_case() {
    assert_eq!(path("/tmp/SHOT.PNG"), some("/tmp/SHOT.PNG"));
    assert_eq!(path("/tmp/a.JpEg"), some("/tmp/a.JpEg"));
    assert!(has_image_extension(Path::new("x.WebP")));
    assert!(!has_image_extension(Path::new("x.tiff")));
}

#[test]
fn surrounding_whitespace_and_trailing_newline_are_trimmed() {
    assert_eq!(path("  /tmp/a.png \n"), some("/tmp/a.png"));
    assert_eq!(path("\t/tmp/a.png\r\n"), some("/tmp/a.png"));
}

#[test]
fn macos_screenshot_in_quotes() {
    let raw = "/var/folders/x1/abc_123/T/TemporaryItems/NSIRD_screencaptureui_Q/Screenshot 2026-11-30 at 10.00.00.png";
    assert_eq!(path(&format!("'{raw}'")), some(raw));
    assert_eq!(path(&format!("\"{raw}\"")), some(raw));
    // Some terminals paste it unquoted and unescaped.
    assert_eq!(path(raw), some(raw));
    // Terminal.app adds a trailing space after a dropped file.
    assert_eq!(path(&format!("'{raw}' ")), some(raw));
}

#[test]
fn backslash_escaped_spaces_and_metacharacters() {
    assert_eq!(
        path(r"/tmp/Screen\ Shot\ 2026.png"),
        some("/tmp/Screen Shot 2026.png")
    );
    assert_eq!(path(r"/tmp/a\(1\).png"), some("/tmp/a(1).png"));
    assert_eq!(path(r"/tmp/Bob\'s.png"), some("/tmp/Bob's.png"));
    // A raw apostrophe in an unquoted path is just part of the name.
    assert_eq!(path("/tmp/Bob's shot.png"), some("/tmp/Bob's shot.png"));
    // A dangling escape is not a complete path.
    assert_eq!(path(r"/tmp/a.png\"), None);
}

#[test]
fn double_quotes_unescape_like_a_shell() {
    assert_eq!(
        path(r#""/tmp/say \"hi\".png""#),
        some(r#"/tmp/say "hi".png"#)
    );
    assert_eq!(path(r#""/tmp/a\b.png""#), some(r"/tmp/a\b.png"));
    // Inside single quotes nothing is an escape.
    assert_eq!(path(r"'/tmp/a\ b.png'"), some(r"/tmp/a\ b.png"));
}

#[test]
fn file_uris_are_percent_decoded() {
    assert_eq!(path("file:///tmp/a%20b.png"), some("/tmp/a b.png"));
    assert_eq!(path("file://localhost/tmp/x.gif"), some("/tmp/x.gif"));
    assert_eq!(path("FILE://LOCALHOST/tmp/x.gif"), some("/tmp/x.gif"));
    assert_eq!(path("file:/tmp/x.png"), some("/tmp/x.png"));
    assert_eq!(
        path("file:///Users/ada/Desktop/Screenshot%202026-11-30%20at%2010.00.00.png\n"),
        some("/Users/ada/Desktop/Screenshot 2026-11-30 at 10.00.00.png")
    );
    // UTF-8 sequences decode to the character.
    assert_eq!(path("file:///tmp/caf%C3%A9.PNG"), some("/tmp/café.PNG"));
    // The extension may itself be encoded; a query or fragment is not part of the path.
    assert_eq!(path("file:///tmp/a%2Epng"), some("/tmp/a.png"));
    assert_eq!(path("file:///tmp/a.png?x=1#top"), some("/tmp/a.png"));
    assert_eq!(
        path("'file:///tmp/q%20uoted.png'"),
        some("/tmp/q uoted.png")
    );
}

#[test]
fn bad_file_uris_are_rejected() {
    for text in [
        "file://server/share/a.png",
        "file:///tmp/a%2.png",
        "file:///tmp/a%zz.png",
        "file:///tmp/bad%FF.png",
        "file:///tmp/nul%00.png",
        "file:///tmp/a.png file:///tmp/b.png",
        "file:relative.png",
        "file:///tmp/a.txt",
    ] {
        assert_eq!(path(text), None, "{text}");
    }
}

#[test]
fn home_relative_paths_expand_only_with_a_home() {
    assert_eq!(path("~/Desktop/a.png"), some("/home/ada/Desktop/a.png"));
    assert_eq!(pasted_image_path("~/Desktop/a.png", None), None);
    assert_eq!(path("~bob/a.png"), None);
    assert_eq!(
        path("'~/Pictures/My Shot.jpg'"),
        some("/home/ada/Pictures/My Shot.jpg")
    );
}

#[test]
fn relative_paths_need_a_dot_prefix() {
    assert_eq!(path("./a.png"), some("./a.png"));
    assert_eq!(path("../img/a.png"), some("../img/a.png"));
    assert_eq!(path("a.png"), None);
    assert_eq!(path("img/a.png"), None);
}

#[test]
fn other_texts_are_not_image_paths() {
    for text in [
        "",
        "   \n",
        "/tmp/notes.txt",
        "/tmp/archive.png.zip",
        "/tmp/png",
        "/tmp/.png",
        "https://example.com/a.png",
        "http://example.com/a.png",
        "data:image/png;base64,iVBORw0KGgo=",
        "look at /tmp/a.png",
        "/tmp/a.png please",
        "/tmp/a.png\n/tmp/b.png",
        "/tmp/a.png\r/tmp/b.png",
        "/tmp/a.png /tmp/b.png",
        r"/tmp/a\ b.png /tmp/c.png",
        "'/tmp/a.png' '/tmp/b.png'",
        "\"/tmp/a.png\" \"/tmp/b.png\"",
        "/tmp/a.png ~/b.png",
        "'/tmp/unterminated.png",
        "'",
        "\"\"",
        "/tmp/tab\u{7}bell.png",
    ] {
        assert_eq!(path(text), None, "{text:?}");
    }
}

#[test]
fn huge_pastes_are_rejected_early() {
    let long = format!("/{}.png", "a".repeat(MAX_PATH_TEXT_BYTES));
    assert_eq!(path(&long), None);
    let just_fits = format!("/{}.png", "a".repeat(MAX_PATH_TEXT_BYTES - 5));
    assert_eq!(
        path(&just_fits).map(|p| p.as_os_str().len()),
        Some(MAX_PATH_TEXT_BYTES)
    );

    let ten_mb = "x".repeat(10 * 1024 * 1024);
    let started = std::time::Instant::now();
    for _ in 0..1000 {
        assert_eq!(path(&ten_mb), None);
    }
    // A length check, not a scan: a thousand 10 MB pastes take no measurable time.
    assert!(started.elapsed() < std::time::Duration::from_millis(50));
}
