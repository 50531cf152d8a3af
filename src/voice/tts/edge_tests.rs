use super::*;

#[test]
fn sec_ms_gec_matches_python_hashlib() {
    // python3: t = 1700000000 + 11644473600; t -= t % 300; t *= 10**7
    //          sha256(f"{t}6A5AA1D4EAFF4E9FB37E23D68491D6F4".encode()).hexdigest().upper()
    let expected = "42301B335578FEFDAE2637DED1ABD614505D432559EC08032B82048483726AFF";
    assert_eq!(sec_ms_gec(1_700_000_000), expected);
    assert_eq!(sec_ms_gec(1_700_000_099), expected, "same 5-minute window");
    assert_eq!(
        sec_ms_gec(1_700_000_100),
        "AE4CF72E466874182A75878E20EADA83D29A1C12CAD9C3E0E014CCE0BFA55880"
    );
}

#[test]
fn rates_from_speed() {
    assert_eq!(rate_of(1.0), "+0%");
    assert_eq!(rate_of(1.5), "+50%");
    assert_eq!(rate_of(0.8), "-20%");
    assert_eq!(rate_of(0.1), "-50%");
    assert_eq!(rate_of(9.0), "+100%");
    assert_eq!(rate_of(f64::NAN), "+0%");
}

#[test]
fn text_is_escaped_for_ssml() {
    assert_eq!(
        escape_xml("Tom & Jerry <b>\"hi\" it's\u{b}x\n"),
        "Tom &amp; Jerry &lt;b&gt;&quot;hi&quot; it&apos;s x\n"
    );
    let doc = ssml("en-US-AriaNeural", "+0%", &escape_xml("a<b"));
    assert!(doc.contains("<voice name='en-US-AriaNeural'>"), "{doc}");
    assert!(doc.contains("rate='+0%'"), "{doc}");
    assert!(doc.contains(">a&lt;b</prosody>"), "{doc}");
    assert!(ssml("x'y", "+0%", "").contains("name='x&apos;y'"));
}

#[test]
fn binary_frames_carry_audio_after_their_header() {
    let head = b"X-RequestId:1\r\nContent-Type:audio/mpeg\r\nPath:audio\r\n";
    let mut frame = (head.len() as u16).to_be_bytes().to_vec();
    frame.extend_from_slice(head);
    frame.extend_from_slice(b"MP3");
    assert_eq!(audio_frame(&frame).unwrap(), Some(&b"MP3"[..]));
    let other = [&[0u8, 10][..], b"Path:other"].concat();
    assert_eq!(audio_frame(&other).unwrap(), None);
    assert!(audio_frame(&[0]).is_err());
    assert!(audio_frame(&[0, 50, b'P']).is_err());
}

#[test]
fn text_frames_are_recognised_by_path() {
    assert_eq!(
        text_path("X-RequestId:1\r\nPath:turn.end\r\n\r\n{}"),
        Some("turn.end")
    );
    assert_eq!(
        text_path("Path:turn.start\r\n\r\nPath:turn.end"),
        Some("turn.start")
    );
    assert_eq!(text_path("nothing"), None);
}

#[test]
fn dates_look_like_javascript() {
    assert_eq!(
        js_date(1_700_000_000),
        "Tue Nov 14 2023 22:13:20 GMT+0000 (Coordinated Universal Time)"
    );
    assert!(js_date(951_782_400).starts_with("Tue Feb 29 2000 00:00:00"));
}

#[test]
fn long_text_is_split_at_whitespace() {
    assert_eq!(split_text("  one two three ", 8), vec!["one two", "three"]);
    assert_eq!(split_text("abcdefgh", 3), vec!["abc", "def", "gh"]);
    assert!(split_text("   ", 3).is_empty());
    assert_eq!(split_text("short", 100), vec!["short"]);
}
