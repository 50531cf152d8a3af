#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;

use super::*;

fn typed(bytes: &[u8]) -> String {
    stray_keys(bytes)
        .0
        .iter()
        .map(|k| match k.code {
            KeyCode::Char(c) if k.modifiers.contains(KeyModifiers::CONTROL) => format!("^{c}"),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "⏎".to_owned(),
            other => format!("<{other:?}>"),
        })
        .collect()
}

#[test]
fn no_mouse_report_types_text() {
    let reports: &[&[u8]] = &[
        // X10: a click at 1,1 (`" !!"`), a release, a wheel event.
        b"\x1b[M !!",
        b"\x1b[M#!!",
        b"\x1b[M`*+",
        // X10 beyond column 95: raw bytes >= 0x80, not UTF-8.
        b"\x1b[M \xe1\x80",
        b"\x1b[M\xc0\xff\xfe",
        // UTF-8 (1005): columns above 95 as two-byte characters.
        b"\x1b[M \xc2\xa0\xc2\xa1",
        // SGR (1006), press and release, and urxvt (1015).
        b"\x1b[<0;1;1M",
        b"\x1b[<0;120;40m",
        b"\x1b[32;1;1M",
    ];
    for report in reports {
        let mut bytes = b"a".to_vec();
        bytes.extend_from_slice(report);
        bytes.extend_from_slice(b"b");
        assert_eq!(typed(&bytes), "ab", "{report:?}");
        assert!(!ends_mid_sequence(&bytes), "{report:?}");
    }
}

#[test]
fn a_report_cut_at_the_end_types_nothing_and_is_reported_as_cut() {
    let whole: &[u8] = b"\x1b[M !!";
    for cut in 1..whole.len() {
        let mut bytes = b"hi".to_vec();
        bytes.extend_from_slice(&whole[..cut]);
        assert_eq!(typed(&bytes), "hi", "cut after {cut} bytes");
        assert!(ends_mid_sequence(&bytes), "cut after {cut} bytes");
    }
    assert!(ends_mid_sequence(b"x\x1b[<0;1;"));
    assert!(!ends_mid_sequence(b"x\x1b[A"));
}

#[test]
fn typed_text_around_sequences_is_kept() {
    assert_eq!(
        typed("aB é\x1b[A\r\x1bxz\t\x03".as_bytes()),
        "aB é⏎z<Tab>^c"
    );
    assert_eq!(
        typed(b"ok\xffgo"),
        "okgo",
        "an invalid byte is dropped alone"
    );
    assert_eq!(typed(b"\x1bOPq"), "q", "SS3 (F1)");
}
