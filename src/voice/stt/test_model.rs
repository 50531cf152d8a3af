//! Test support for the STT tests: a model-file header that passes `check_model_file`. (The
//! HTTP server the STT tests answer from is the crate's one scripted test server,
//! `crate::test_server`.)

/// The tiny.en ggml header: magic, then n_vocab … ftype (no weights).
pub fn tiny_header() -> Vec<u8> {
    let mut bytes = super::whisper::GGML_MAGIC.to_vec();
    for v in [51864i32, 1500, 384, 6, 4, 448, 384, 6, 4, 80, 1] {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    bytes
}
