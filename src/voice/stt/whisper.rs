//! Local whisper: model-file resolution (always built) and the whisper-rs engine (only with the
//! `whisper` cargo feature).
//!
//! `stt.local.model` is a name (`base.en` → `HERMES_HOME/models/ggml-base.en.bin`) or a path
//! (contains `/` or ends in `.bin`; `~/` expands). The engine loads the model once, on first
//! use or [`LocalWhisper::preload`], and keeps it for the life of the engine and its clones;
//! every call runs on tokio's blocking pool with a fresh decoder state (greedy, no
//! timestamps, at most 4 threads). whisper.cpp's own logging is switched off.
//! Invariant: a missing file is reported as [`SttError::ModelMissing`] with the download
//! command, before whisper.cpp ever sees the path.

use std::path::PathBuf;

use super::SttError;
use crate::config::HermesHome;

/// First four bytes of a whisper.cpp ggml model (`0x67676d6c` little-endian).
pub const GGML_MAGIC: [u8; 4] = *b"lmgg";
/// The model used when `stt.local.model` is empty.
pub const DEFAULT_MODEL: &str = "base.en";

/// The model file `stt.local.model` names, and the name to suggest downloading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelLocation {
    pub path: PathBuf,
    /// The standard model name, for "run `hermes voice models download NAME`".
    pub name: String,
}

/// Resolves `stt.local.model` against `home`'s `models/` directory.
pub fn resolve_model(model: &str, home: &HermesHome) -> ModelLocation {
    let model = model.trim();
    let model = if model.is_empty() {
        DEFAULT_MODEL
    } else {
        model
    };
    if model.contains('/') || model.ends_with(".bin") {
        let path = expand_tilde(model);
        let name = path
            .file_name()
            .and_then(|f| f.to_str())
            .and_then(|f| f.strip_prefix("ggml-"))
            .and_then(|f| f.strip_suffix(".bin"))
            .unwrap_or(DEFAULT_MODEL)
            .to_string();
        return ModelLocation { path, name };
    }
    let name = super::models::canonical_name(model).to_string();
    ModelLocation {
        path: super::models::model_path(home, &name),
        name,
    }
}

fn expand_tilde(value: &str) -> PathBuf {
    match value.strip_prefix("~/") {
        Some(rest) => match dirs::home_dir() {
            Some(home) => home.join(rest),
            None => PathBuf::from(value),
        },
        None => PathBuf::from(value),
    }
}

/// Checks that `path` exists, starts with the ggml magic and has plausible hyperparameters.
/// whisper.cpp aborts the process (not an error) on some malformed headers, so garbage must
/// be caught here; a file cut short after the header is whisper.cpp's to report.
pub fn check_model_file(location: &ModelLocation) -> Result<(), SttError> {
    use std::io::Read;
    let path = &location.path;
    let invalid = |detail: String| SttError::ModelInvalid {
        path: path.clone(),
        detail,
    };
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(SttError::ModelMissing {
                path: path.clone(),
                name: location.name.clone(),
            });
        }
        Err(source) => {
            return Err(SttError::Io {
                path: path.clone(),
                source,
            });
        }
    };
    let mut header = [0u8; 4 + 4 * HPARAMS.len()];
    let mut read = 0;
    while read < header.len() {
        match file.read(&mut header[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(source) => {
                return Err(SttError::Io {
                    path: path.clone(),
                    source,
                });
            }
        }
    }
    if read < 4 || header[..4] != GGML_MAGIC {
        let shown = &header[..read.min(4)];
        return Err(invalid(format!(
            "it starts with {shown:02x?}, not the ggml magic"
        )));
    }
    if read < header.len() {
        return Err(invalid("the file ends inside the header".into()));
    }
    for (i, (name, range)) in HPARAMS.iter().enumerate() {
        let at = 4 + 4 * i;
        let value =
            i32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]]);
        if !range.contains(&value) {
            return Err(invalid(format!("header field {name} is {value}")));
        }
    }
    Ok(())
}

/// The ggml header after the magic, in file order, with generous plausible ranges.
const HPARAMS: [(&str, std::ops::RangeInclusive<i32>); 11] = [
    ("n_vocab", 1..=1_000_000),
    ("n_audio_ctx", 1..=100_000),
    ("n_audio_state", 1..=16_384),
    ("n_audio_head", 1..=256),
    ("n_audio_layer", 1..=256),
    ("n_text_ctx", 1..=100_000),
    ("n_text_state", 1..=16_384),
    ("n_text_head", 1..=256),
    ("n_text_layer", 1..=256),
    ("n_mels", 1..=1024),
    ("ftype", 0..=1_000_000),
];

/// Threads whisper uses: the available cores, at most 4.
pub fn thread_count() -> usize {
    std::thread::available_parallelism()
        .map(std::num::NonZero::get)
        .unwrap_or(1)
        .clamp(1, 4)
}

#[cfg(feature = "whisper")]
pub use engine::LocalWhisper;

#[cfg(feature = "whisper")]
mod engine {
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex, PoisonError};

    use whisper_rs::{FullParams, SamplingStrategy, WhisperContext, WhisperContextParameters};

    use super::{ModelLocation, SttError, check_model_file, thread_count};

    /// whisper.cpp returns nothing for less than a second of audio; shorter clips are padded
    /// with silence to this many samples (1.1 s at 16 kHz).
    const MIN_SAMPLES: usize = 17_600;

    /// The whisper-rs engine. Clones share one loaded model.
    #[derive(Clone)]
    pub struct LocalWhisper {
        inner: Arc<Inner>,
    }

    struct Inner {
        location: ModelLocation,
        /// `None` or "auto" detects the language.
        language: Option<String>,
        threads: usize,
        context: Mutex<Option<Arc<WhisperContext>>>,
    }

    impl std::fmt::Debug for LocalWhisper {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("LocalWhisper")
                .field("model", &self.inner.location.path)
                .field("language", &self.inner.language)
                .field("threads", &self.inner.threads)
                .finish_non_exhaustive()
        }
    }

    impl LocalWhisper {
        /// An engine for `location`, speaking `language` (`en`, `auto`, …). Loads nothing yet;
        /// a language with a NUL byte is treated as `auto`.
        pub fn new(location: ModelLocation, language: &str) -> Self {
            let language = language.trim();
            let language = (!language.is_empty()
                && !language.eq_ignore_ascii_case("auto")
                && !language.contains('\0'))
            .then(|| language.to_ascii_lowercase());
            Self {
                inner: Arc::new(Inner {
                    location,
                    language,
                    threads: thread_count(),
                    context: Mutex::new(None),
                }),
            }
        }

        pub fn model_path(&self) -> &Path {
            &self.inner.location.path
        }

        /// Loads the model on the blocking pool if it is not loaded yet.
        pub async fn preload(&self) -> Result<(), SttError> {
            let inner = Arc::clone(&self.inner);
            run_blocking(&self.inner.location.path, move || {
                inner.context().map(|_| ())
            })
            .await
        }

        /// The text whisper hears in 16 kHz mono `samples` (empty for no samples).
        pub async fn transcribe(&self, samples: &[i16]) -> Result<String, SttError> {
            if samples.is_empty() {
                return Ok(String::new());
            }
            let mut audio: Vec<f32> = samples.iter().map(|&s| f32::from(s) / 32768.0).collect();
            if audio.len() < MIN_SAMPLES {
                audio.resize(MIN_SAMPLES, 0.0);
            }
            let inner = Arc::clone(&self.inner);
            run_blocking(&self.inner.location.path, move || inner.run(&audio)).await
        }
    }

    impl Inner {
        fn context(&self) -> Result<Arc<WhisperContext>, SttError> {
            let mut slot = self.context.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(ctx) = slot.as_ref() {
                return Ok(Arc::clone(ctx));
            }
            check_model_file(&self.location)?;
            whisper_rs::install_logging_hooks();
            let path = &self.location.path;
            let ctx = WhisperContext::new_with_params(path, WhisperContextParameters::default())
                .map_err(|e| SttError::ModelLoad {
                    path: path.clone(),
                    detail: match e {
                        whisper_rs::WhisperError::InitError => {
                            "whisper.cpp rejected the file (cut short or not a whisper model?)"
                                .to_string()
                        }
                        other => format!("{other:?}"),
                    },
                })?;
            let ctx = Arc::new(ctx);
            *slot = Some(Arc::clone(&ctx));
            Ok(ctx)
        }

        fn run(&self, audio: &[f32]) -> Result<String, SttError> {
            let ctx = self.context()?;
            let fail = |what: &str, e: whisper_rs::WhisperError| SttError::Whisper {
                path: self.location.path.clone(),
                detail: format!("{what}: {e:?}"),
            };
            let mut state = ctx
                .create_state()
                .map_err(|e| fail("creating a state", e))?;
            let mut params = FullParams::new(SamplingStrategy::Greedy { best_of: 1 });
            params.set_language(Some(self.language.as_deref().unwrap_or("auto")));
            params.set_n_threads(i32::try_from(self.threads).unwrap_or(1));
            params.set_translate(false);
            params.set_no_context(true);
            params.set_no_timestamps(true);
            params.set_suppress_nst(true);
            params.set_print_special(false);
            params.set_print_progress(false);
            params.set_print_realtime(false);
            params.set_print_timestamps(false);
            state
                .full(params, audio)
                .map_err(|e| fail("transcribing", e))?;
            let mut text = String::new();
            for segment in state.as_iter() {
                let piece = segment
                    .to_str_lossy()
                    .map_err(|e| fail("reading a segment", e))?;
                text.push_str(&piece);
                text.push(' ');
            }
            Ok(text.split_whitespace().collect::<Vec<_>>().join(" "))
        }
    }

    async fn run_blocking<T: Send + 'static>(
        path: &Path,
        job: impl FnOnce() -> Result<T, SttError> + Send + 'static,
    ) -> Result<T, SttError> {
        let path: PathBuf = path.to_path_buf();
        tokio::task::spawn_blocking(job).await.unwrap_or_else(|e| {
            Err(SttError::Whisper {
                path,
                detail: format!("the whisper thread stopped: {e}"),
            })
        })
    }
}

#[cfg(test)]
#[path = "whisper_tests.rs"]
mod tests;
