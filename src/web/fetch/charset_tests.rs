use super::*;

/// "Привет, мир" in windows-1251.
const PRIVET_1251: &[u8] = b"\xcf\xf0\xe8\xe2\xe5\xf2, \xec\xe8\xf0";

#[test]
fn header_charset_wins_over_meta() {
    let mut page = b"<html><head><meta charset=\"utf-8\"></head><body>".to_vec();
    page.extend_from_slice(PRIVET_1251);
    let text = decode_html(&page, Some("windows-1251"));
    assert!(text.contains("Привет, мир"), "{text}");
}

#[test]
fn meta_charset_and_http_equiv_are_read() {
    for head in [
        "<meta charset=\"windows-1251\">",
        "<meta charset=cp1251>",
        "<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=windows-1251\">",
    ] {
        let mut page = format!("<html><head><title>x</title>{head}</head><body>").into_bytes();
        page.extend_from_slice(PRIVET_1251);
        let text = decode_html(&page, None);
        assert!(text.contains("Привет, мир"), "{head}: {text}");
    }
}

#[test]
fn a_bom_decides_and_is_removed() {
    let mut page = vec![0xEF, 0xBB, 0xBF];
    page.extend_from_slice("<p>héllo</p>".as_bytes());
    assert_eq!(decode_html(&page, Some("iso-8859-1")), "<p>héllo</p>");
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain("hi".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_eq!(decode_plain(&utf16, None), "hi");
}

#[test]
fn undeclared_bytes_are_utf8_then_windows_1252() {
    assert_eq!(decode_plain("日本語".as_bytes(), None), "日本語");
    assert_eq!(decode_plain(b"caf\xe9", None), "café");
}

#[test]
fn charset_parameter_is_parsed() {
    assert_eq!(
        charset_param("text/html; charset=\"KOI8-R\""),
        Some("KOI8-R")
    );
    assert_eq!(charset_param("text/html;Charset=utf-8"), Some("utf-8"));
    assert_eq!(charset_param("text/html"), None);
}
