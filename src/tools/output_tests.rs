use super::*;

#[test]
fn cap_text_keeps_short_text() {
    assert_eq!(cap_text("hello", 10), "hello");
}

#[test]
fn cap_text_keeps_head_and_tail_with_exact_count() {
    let text = format!("{}{}", "a".repeat(100), "b".repeat(100));
    let out = cap_text(&text, 20);
    assert!(out.starts_with(&"a".repeat(10)), "{out}");
    assert!(out.ends_with(&"b".repeat(10)), "{out}");
    assert!(out.contains("[… 180 bytes omitted …]"), "{out}");
}

#[test]
fn cap_text_cuts_on_char_boundaries() {
    let text = "é".repeat(100); // 2 bytes each
    let out = cap_text(&text, 11);
    // 5 bytes of head → 2 chars (4 bytes); 6 bytes of tail → 3 chars.
    assert!(out.starts_with("éé\n"), "{out}");
    assert!(out.ends_with("\néééé") || out.ends_with("\nééé"), "{out}");
    let omitted: usize = 200 - out.matches('é').count() * 2;
    assert!(
        out.contains(&format!("[… {omitted} bytes omitted …]")),
        "{out}"
    );
}

#[test]
fn binary_detection_and_lossy() {
    assert!(looks_binary(b"abc\0def"));
    assert!(!looks_binary(b"plain text\n"));
    let mut late_nul = vec![b'a'; BINARY_SNIFF_BYTES];
    late_nul.push(0);
    assert!(!looks_binary(&late_nul));
    assert_eq!(lossy(b"ok \xff\xfe end"), "ok \u{fffd}\u{fffd} end");
    assert!(render_bytes(b"\0\0\x01", 100).starts_with("[binary output: 3 bytes"));
}

#[test]
fn buffer_keeps_everything_when_small() {
    let mut buf = OutputBuffer::new(10, 10);
    buf.push(b"hello ");
    buf.push(b"world");
    assert_eq!(buf.total(), 11);
    assert_eq!(buf.render(100), "hello world");
    assert_eq!(buf.since(6), (b"world".to_vec(), 0));
}

#[test]
fn buffer_drops_the_middle_and_counts_it() {
    let mut buf = OutputBuffer::new(4, 4);
    for chunk in [&b"0123"[..], b"4567", b"89ab", b"cdef"] {
        buf.push(chunk);
    }
    assert_eq!(buf.total(), 16);
    let out = buf.render(100);
    assert_eq!(out, "0123\n[… 8 bytes omitted …]\ncdef");
    // From inside the dropped middle: skip to the tail.
    assert_eq!(buf.since(6), (b"cdef".to_vec(), 6));
    // From inside the head: head rest, then the gap, then the tail.
    assert_eq!(buf.since(2), (b"23cdef".to_vec(), 8));
    assert!(
        buf.render_since(6, 100)
            .starts_with("[… 6 bytes omitted …]\ncdef")
    );
    assert_eq!(buf.since(16), (Vec::new(), 0));
}

#[test]
fn buffer_big_single_push_keeps_tail() {
    let mut buf = OutputBuffer::new(2, 3);
    buf.push(b"abcdefghij");
    assert_eq!(buf.since(0), (b"abhij".to_vec(), 5));
}

#[test]
fn buffer_render_caps_and_fixes_utf8_cuts() {
    let mut buf = OutputBuffer::new(1000, 1000);
    buf.push("é".repeat(300).as_bytes());
    let out = buf.render(11);
    assert!(!out.contains('\u{fffd}'), "{out}");
    assert!(out.contains("bytes omitted"), "{out}");
}

#[test]
fn buffer_binary_is_summarised() {
    let mut buf = OutputBuffer::new(100, 100);
    buf.push(b"\x7fELF\0\0\0");
    assert!(buf.render(1000).starts_with("[binary output: 7 bytes"));
}

#[test]
fn buffer_binary_in_the_tail_is_summarised() {
    let mut buf = OutputBuffer::new(4, 100);
    buf.push(b"text then \0 binary");
    assert!(buf.render(1000).starts_with("[binary output: 18 bytes"));
}

#[test]
fn buffer_keeps_head_and_tail_of_a_long_stream_in_small_chunks() {
    let mut buf = OutputBuffer::new(8, 8);
    for i in 0..10_000u32 {
        buf.push(format!("{i}\n").as_bytes());
    }
    assert_eq!(buf.total(), 48_890);
    let (tail, skipped) = buf.since(48_890 - 8);
    assert_eq!((tail, skipped), (b"98\n9999\n".to_vec(), 0));
    let out = buf.render(16);
    assert!(out.starts_with("0\n1\n2\n3\n"), "{out}");
    assert!(out.ends_with("98\n9999\n"), "{out}");
    assert!(out.contains("[… 48874 bytes omitted …]"), "{out}");
}

fn numbered(from: u32, to: u32) -> String {
    (from..=to).map(|i| format!("line {i}\n")).collect()
}

#[test]
fn progress_keeps_the_newest_lines_of_a_burst() {
    let mut lines = ProgressLines::default();
    lines.feed(numbered(1, 100_000).as_bytes());
    let got = lines.take();
    let want: Vec<String> = (100_001 - PROGRESS_LINES as u32..=100_000)
        .map(|i| format!("line {i}"))
        .collect();
    assert_eq!(got, want);
    assert!(!lines.has_pending());
    assert!(lines.take().is_empty());
}

#[test]
fn progress_lines_span_chunks_and_the_last_line_needs_no_newline() {
    let mut lines = ProgressLines::default();
    for chunk in ["hel", "lo\r\nwor", "ld\n\n   \nfin", "al"] {
        lines.feed(chunk.as_bytes());
    }
    assert_eq!(lines.take(), ["hello", "world"]);
    lines.finish();
    assert_eq!(lines.take(), ["final"]);
}

#[test]
fn a_partial_line_is_dropped_with_the_burst_it_started() {
    let mut lines = ProgressLines::default();
    lines.feed(b"old start ");
    lines.feed(format!("of a line\n{}", numbered(1, 40)).as_bytes());
    let got = lines.take();
    assert_eq!(got.len(), PROGRESS_LINES);
    assert_eq!(got.last().map(String::as_str), Some("line 40"));
    assert!(!got.iter().any(|l| l.contains("old")), "{got:?}");
}

#[test]
fn output_without_newlines_shows_progress_in_bounded_pieces() {
    let mut lines = ProgressLines::default();
    // 'é' is 2 bytes, so pieces of PROGRESS_LINE_BYTES would cut characters if cut blindly.
    let text = format!("a{}", "é".repeat(40_000));
    for chunk in text.as_bytes().chunks(777) {
        lines.feed(chunk);
    }
    let got = lines.take();
    assert_eq!(got.len(), PROGRESS_LINES);
    for line in &got {
        assert!(line.len() <= PROGRESS_LINE_BYTES, "{}", line.len());
        assert!(!line.contains('\u{fffd}'), "a character was cut: {line}");
    }
}

#[test]
fn an_overlong_line_is_shown_in_pieces_cut_between_characters() {
    let piece = "ü".repeat(PROGRESS_LINE_BYTES / 2);
    let long = "ü".repeat(5_000);
    let mut want = vec!["first".to_string()];
    want.extend(std::iter::repeat_n(piece, 9));
    want.push("ü".repeat(5_000 - 9 * PROGRESS_LINE_BYTES / 2));
    want.push("short".to_string());
    let all = format!("first\n{long}\nshort\n");
    let rest = format!("{}\nshort\n", "ü".repeat(4_998));
    let long_rest = format!("{long}\nshort\n");
    // The long line inside a chunk, first in a chunk, and continuing a partial line.
    for chunks in [
        vec![all.as_str()],
        vec!["first\n", long_rest.as_str()],
        vec!["first\nüü", rest.as_str()],
    ] {
        let mut lines = ProgressLines::default();
        for chunk in &chunks {
            lines.feed(chunk.as_bytes());
        }
        assert_eq!(
            lines.take(),
            want,
            "chunks of {:?}",
            chunks.iter().map(|c| c.len()).collect::<Vec<_>>()
        );
    }
}
