#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Cursor;

use super::*;
use crate::config::VisionConfig;
use crate::providers::recording::RecordingProvider;

fn write_png(path: &Path, width: u32, height: u32) {
    let image = image::RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([(x % 256) as u8, (y % 256) as u8, 90, 255])
    });
    let mut out = Cursor::new(Vec::new());
    image::DynamicImage::ImageRgba8(image)
        .write_to(&mut out, image::ImageFormat::Png)
        .unwrap();
    std::fs::write(path, out.into_inner()).unwrap();
}

fn with_image(text: &str, path: &Path) -> Message {
    let mut m = Message::user(text);
    m.images = vec![ImagePart::new(path)];
    m
}

#[tokio::test]
async fn payloads_are_filled_once_and_shared() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.png");
    write_png(&path, 4, 3);
    let state = Arc::new(ImageState::default());
    let (first, problems) = prepare(&state, 262_144, true, vec![with_image("look", &path)]).await;
    assert!(problems.is_empty());
    let payload = first[0].images[0].payload.clone().unwrap();
    assert_eq!(payload.media_type, "image/png");
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(&payload.base64)
        .unwrap();
    assert_eq!(bytes, std::fs::read(&path).unwrap());
    let (second, _) = prepare(&state, 262_144, true, vec![with_image("again", &path)]).await;
    assert!(Arc::ptr_eq(
        &payload,
        second[0].images[0].payload.as_ref().unwrap()
    ));
}

#[tokio::test]
async fn a_missing_file_is_reported_once_and_sent_without_payload() {
    let state = Arc::new(ImageState::default());
    let gone = Path::new("/tmp/hermes-test-no-such-image.png");
    let (messages, problems) = prepare(&state, 262_144, true, vec![with_image("x", gone)]).await;
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0]
            .to_string()
            .contains("hermes-test-no-such-image.png"),
        "{problems:?}"
    );
    assert!(messages[0].images[0].payload.is_none());
    let (_, again) = prepare(&state, 262_144, true, vec![with_image("x", gone)]).await;
    assert!(again.is_empty());
}

#[tokio::test]
async fn a_text_only_model_gets_no_pixels_only_the_file_name() {
    let state = Arc::new(ImageState::default());
    let path = Path::new("/h/images/image_1.png");
    let described = with_image("see image_1.png described above", path);
    let plain = with_image("what is this?", path);
    let (messages, problems) = prepare(&state, 262_144, false, vec![described, plain]).await;
    assert!(problems.is_empty());
    assert!(messages.iter().all(|m| m.images.is_empty()));
    assert_eq!(messages[0].content, "see image_1.png described above");
    assert_eq!(
        messages[1].content,
        "what is this?\n[image image_1.png: not shown to this model]"
    );
}

#[test]
fn the_embed_cap_counts_resolved_paths() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.png");
    write_png(&path, 1, 1);
    let state = ImageState::default();
    assert_eq!(state.note_embed(&path, Some(1)), Ok(()));
    let dotted = dir.path().join(".").join("a.png");
    assert_eq!(state.note_embed(&dotted, Some(1)), Err(1));
    for _ in 0..10 {
        assert_eq!(state.note_embed(&path, None), Ok(()));
    }
}

#[test]
fn unset_cap_limits_only_subagents_and_zero_means_none() {
    let unset = VisionSettings::from_config(&VisionConfig::default(), None);
    assert_eq!(unset.max_embeds_per_image, None);
    assert_eq!(unset.for_subagent().max_embeds_per_image, Some(3));
    let zero = VisionSettings::from_config(
        &VisionConfig {
            max_calls_per_image: Some(0),
            ..VisionConfig::default()
        },
        None,
    );
    assert_eq!(zero.for_subagent().max_embeds_per_image, None);
    let two = VisionSettings::from_config(
        &VisionConfig {
            max_calls_per_image: Some(2),
            embed_target_bytes: 1,
        },
        None,
    );
    assert_eq!(two.max_embeds_per_image, Some(2));
    assert_eq!(two.for_subagent().max_embeds_per_image, Some(2));
    assert_eq!(two.embed_target_bytes, 65_536);
}

#[tokio::test]
async fn the_describer_gets_the_pixels_and_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shot.png");
    write_png(&path, 8, 8);
    let provider = Arc::new(RecordingProvider::replying("  A red square.  "));
    let describer = Describer {
        provider: Arc::clone(&provider) as _,
        model: "vision-model".into(),
    };
    let state = Arc::new(ImageState::default());
    let question = attached_image_question("what colour?");
    let text = describe(
        &describer,
        &state,
        262_144,
        &path,
        &question,
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(text, "A red square.");
    let seen = provider.requests();
    assert_eq!(seen[0].model, "vision-model");
    assert!(seen[0].messages[0].content.ends_with("what colour?"));
    assert!(seen[0].messages[0].images[0].payload.is_some());
    assert!(seen[0].tools.is_empty());
}

#[tokio::test]
async fn an_empty_description_or_unreadable_file_is_an_error() {
    let provider = Arc::new(RecordingProvider::replying(" "));
    let describer = Describer {
        provider,
        model: "m".into(),
    };
    let state = Arc::new(ImageState::default());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.png");
    write_png(&path, 2, 2);
    let cancel = CancellationToken::new();
    let empty = describe(&describer, &state, 262_144, &path, "q", &cancel).await;
    assert_eq!(
        empty.unwrap_err().to_string(),
        "m returned an empty description"
    );
    let missing = describe(
        &describer,
        &state,
        262_144,
        &dir.path().join("no.png"),
        "q",
        &cancel,
    )
    .await
    .unwrap_err()
    .to_string();
    assert!(missing.contains("no.png"), "{missing}");
}
