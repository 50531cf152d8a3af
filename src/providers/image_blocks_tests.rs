use std::path::PathBuf;
use std::sync::Arc;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::model::ImagePayload;

fn loaded(path: &str, media_type: &str, base64: &str) -> ImagePart {
    ImagePart {
        path: PathBuf::from(path),
        payload: Some(Arc::new(ImagePayload {
            media_type: media_type.into(),
            base64: base64.into(),
        })),
    }
}

#[test]
fn loaded_image_in_both_formats() {
    let part = loaded("/home/u/.hermes/images/a.jpg", "image/jpeg", "/9j/AAA=");
    assert_eq!(
        openai_part(&part),
        json!({"type":"image_url","image_url":{"url":"data:image/jpeg;base64,/9j/AAA="}})
    );
    assert_eq!(
        anthropic_block(&part),
        json!({"type":"image","source":{"type":"base64","media_type":"image/jpeg","data":"/9j/AAA="}})
    );
}

#[test]
fn missing_payload_becomes_a_note_with_the_file_name() {
    let part = ImagePart::new("/home/u/.hermes/images/clip_20250101_120000.png");
    let note = json!({"type":"text","text":"[image unavailable: clip_20250101_120000.png]"});
    assert_eq!(openai_part(&part), note);
    assert_eq!(anthropic_block(&part), note);
}

#[test]
fn note_falls_back_to_the_whole_path_without_a_file_name() {
    assert_eq!(
        unavailable_note(Path::new("/tmp/..")),
        "[image unavailable: /tmp/..]"
    );
    assert_eq!(unavailable_note(Path::new("")), "[image unavailable: ]");
}
