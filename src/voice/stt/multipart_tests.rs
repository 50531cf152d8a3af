use super::*;

#[test]
fn body_has_each_part_and_the_closing_boundary() {
    let form = Multipart::new();
    let content_type = form.content_type();
    let boundary = content_type
        .strip_prefix("multipart/form-data; boundary=")
        .unwrap()
        .to_string();
    let body = form
        .text("model", "whisper-1")
        .file("file", "audio.wav", "audio/wav", b"RIFF\x00\x01")
        .finish();
    let mut expected = Vec::new();
    expected.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\nwhisper-1\r\n"
        )
        .as_bytes(),
    );
    expected.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; \
             filename=\"audio.wav\"\r\nContent-Type: audio/wav\r\n\r\n"
        )
        .as_bytes(),
    );
    expected.extend_from_slice(b"RIFF\x00\x01\r\n");
    expected.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    assert_eq!(body, expected);
}

#[test]
fn boundaries_differ_between_bodies() {
    assert_ne!(
        Multipart::new().content_type(),
        Multipart::new().content_type()
    );
}
