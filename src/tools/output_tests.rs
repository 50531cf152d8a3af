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
