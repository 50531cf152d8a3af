//! Test helpers for the providers' image tests: image parts with a payload, and messages
//! carrying them.

use std::sync::Arc;

use crate::model::ImagePart;
use crate::model::ImagePayload;
use crate::model::Message;

/// A PNG image part at `path` whose payload is `base64`.
pub fn png(path: &str, base64: &str) -> ImagePart {
    ImagePart {
        path: path.into(),
        payload: Some(Arc::new(ImagePayload {
            media_type: "image/png".into(),
            base64: base64.into(),
        })),
    }
}

pub fn with_images(mut m: Message, images: Vec<ImagePart>) -> Message {
    m.images = images;
    m
}
