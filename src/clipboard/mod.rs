//! Images from the clipboard: reading it (arboard, with the `wl-paste`/`xclip`/PowerShell
//! fallbacks) and turning clipboard pixels or a pasted file into a timestamped PNG under
//! `HERMES_HOME/images/` (decoding and saving are `images::image_file`).
//!
//! Engine-side: frontends reach it only through the attach service (`service`) and the
//! `protocol` types, so nothing here runs on the UI task. Invariants: every decode is bounded
//! (file size, pixel count, decoder memory); an error names the file or the cause.

pub mod service;
pub mod source;
