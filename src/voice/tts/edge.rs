//! `tts.provider: edge` — Microsoft Edge's free read-aloud voices, Hermes's default provider.
//!
//! Not implemented in this build: the service speaks a private websocket protocol with a
//! rotating `Sec-MS-GEC` token and browser-version headers that it changes without notice, and
//! hermes has no websocket client. Rather than pretend, selecting it reports
//! [`SynthError::Unavailable`] with the working alternatives.

use super::SynthError;

/// The error every use of the Edge provider gets.
pub fn unavailable() -> SynthError {
    SynthError::Unavailable(
        "edge: the Microsoft Edge read-aloud voices are not available in this build of hermes; \
         set tts.provider to openai or elevenlabs, or to a command provider such as espeak-ng \
         (tts.providers.espeak: {type: command, command: \"espeak-ng -w {output_path} -f {input_path}\", output_format: wav})"
            .to_string(),
    )
}
