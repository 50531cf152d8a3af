//! Image files for the conversation: reading and validating them (`image_file`: magic-byte
//! format detection, bounded decoding, saving attachments as timestamped PNGs) and encoding
//! them for a request within the embed budget (`embed`).
//!
//! A leaf service: it knows the `protocol`'s `ImageAttachment` and the `model`'s
//! `ImagePayload` and nothing above them, so the clipboard, the vision tool and the engine
//! all reach it. Not here: reading the clipboard (`clipboard`) or deciding whether a model
//! gets pixels (`engine::images`). Invariants: every decode is bounded (file size, pixel
//! count, decoder memory); an error names the file or the cause.

pub mod embed;
pub mod image_file;
#[cfg(test)]
pub(crate) mod test_images;
