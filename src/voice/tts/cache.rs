//! The TTS audio cache: synthesised sentences as 16-bit mono WAV files in
//! `HERMES_HOME/audio_cache/`, named by a SHA-256 of the provider identity (provider, voice,
//! model, speed, …) and the text, so the same sentence with the same voice is synthesised once.
//!
//! The cache never fails speech: an unreadable entry is a miss, an unwritable directory is
//! logged and ignored. Writes go to a temporary name and are renamed into place, so a reader
//! never sees half a file. Blocking file I/O: call from `spawn_blocking`.

use std::path::Path;
use std::path::PathBuf;

use sha2::Digest;

use super::decode;
use crate::voice::audio::Clip;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AudioCache {
    dir: PathBuf,
}

impl AudioCache {
    /// A cache in `dir` (normally `HermesHome::audio_cache_dir()`); created on first write.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key for `text` spoken by the provider `identity` (see `Synthesizer::identity`).
    pub fn key(identity: &str, text: &str) -> String {
        let mut hasher = sha2::Sha256::new();
        hasher.update(identity.len().to_le_bytes());
        hasher.update(identity.as_bytes());
        hasher.update(text.as_bytes());
        let digest = hasher.finalize();
        digest.iter().take(16).map(|b| format!("{b:02x}")).collect()
    }

    /// Where the entry for `key` lives.
    pub fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("tts_{key}.wav"))
    }

    /// The cached clip, if there is a readable one.
    pub fn get(&self, key: &str) -> Option<Clip> {
        let path = self.path(key);
        if !path.is_file() {
            return None;
        }
        match decode::read_wav(&path) {
            Ok(clip) if !clip.samples.is_empty() => Some(clip),
            Ok(_) => None,
            Err(e) => {
                tracing::debug!("audio cache: ignoring {}: {e}", path.display());
                None
            }
        }
    }

    /// Store `clip` under `key`; failures are logged, never returned.
    pub fn put(&self, key: &str, clip: &Clip) {
        if clip.samples.is_empty() {
            return;
        }
        if let Err(e) = self.try_put(key, clip) {
            tracing::warn!("audio cache: not saved in {}: {e}", self.dir.display());
        }
    }

    fn try_put(&self, key: &str, clip: &Clip) -> Result<(), decode::AudioFileError> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.path(key);
        let tmp = self
            .dir
            .join(format!(".tts_{key}.{}.tmp", uuid::Uuid::new_v4().simple()));
        let written =
            decode::write_wav(&tmp, clip).and_then(|()| Ok(std::fs::rename(&tmp, &path)?));
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }
}

#[cfg(test)]
#[path = "cache_tests.rs"]
mod tests;
