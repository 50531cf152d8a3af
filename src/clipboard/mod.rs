//! Images for the conversation: reading the clipboard (arboard, with the `wl-paste`/`xclip`/
//! PowerShell fallbacks), turning files and clipboard pixels into timestamped PNGs under
//! `HERMES_HOME/images/`, and encoding them for a request within the embed budget.
//!
//! Engine-side: frontends reach it only through the attach service (`service`) and the
//! `protocol` types, so nothing here runs on the UI task. Invariants: every decode is bounded
//! (file size, pixel count, decoder memory); an error names the file or the cause.

pub mod embed;
pub mod image_file;
pub mod service;
pub mod source;
#[cfg(test)]
pub(crate) mod test_images;
