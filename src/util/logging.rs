//! File logging: `tracing` events to `<logs dir>/hermes.YYYY-MM-DD.log` (daily rotation,
//! 7 files kept, `hermes.log` links to the current one), through a non-blocking writer
//! and a redacting writer so API keys and auth headers never reach the disk.
//!
//! Level: `HERMES_LOG` (an `EnvFilter` string such as `debug` or `hermes=trace,info`) when
//! set, else `debug` with `--verbose`, else `info`. Setup never fails the program: problems
//! come back as warnings and logging is then off. Does not log to the terminal (the TUI owns
//! it). Invariant: every byte written goes through `redact` first.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;

use super::redact::redact;

/// Environment variable holding an `EnvFilter` directive string.
pub const HERMES_LOG_ENV: &str = "HERMES_LOG";
/// Name of the link to the current log file inside the logs directory.
pub const LOG_FILE_NAME: &str = "hermes.log";
const MAX_LOG_FILES: usize = 7;
/// Chatty transport crates stay at info even with `--verbose`.
const VERBOSE_FILTER: &str = "debug,hyper=info,hyper_util=info,h2=info,rustls=info,reqwest=info";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verbosity {
    #[default]
    Normal,
    Verbose,
}

#[derive(Debug, Clone, Default)]
pub struct LogOptions {
    pub verbosity: Verbosity,
    /// The value of `HERMES_LOG`, if set.
    pub filter: Option<String>,
    /// Exact secret values (e.g. keys from `.env`) to mask wherever they appear.
    pub known_secrets: Vec<String>,
}

/// Log lines queued for the writer thread at most.
const LOG_QUEUE_LINES: usize = 4_096;

impl LogOptions {
    /// Options with the filter read from `HERMES_LOG` through `env`.
    pub fn from_env(
        verbosity: Verbosity,
        known_secrets: Vec<String>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Self {
        Self {
            verbosity,
            filter: env(HERMES_LOG_ENV).filter(|f| !f.trim().is_empty()),
            known_secrets,
        }
    }
}

/// Keep this alive for the life of the program: dropping it flushes and stops the writer.
#[must_use = "dropping the guard stops file logging"]
pub struct LogGuard {
    _worker: Option<WorkerGuard>,
}

pub struct LogInit {
    pub guard: LogGuard,
    /// Where logs go (the `hermes.log` link), or `None` when logging is off.
    pub log_path: Option<PathBuf>,
    /// Human-readable problems met during setup; logging may still be on.
    pub warnings: Vec<String>,
}

/// Installs the global file logger. Never fails: see `LogInit::warnings`.
pub fn init_logging(logs_dir: &Path, options: &LogOptions) -> LogInit {
    let mut warnings = Vec::new();
    let (subscriber, worker) = match build_subscriber(logs_dir, options, &mut warnings) {
        Ok(parts) => parts,
        Err(e) => {
            warnings.push(format!(
                "running without a log file: cannot write to {} ({e})",
                logs_dir.display()
            ));
            return LogInit {
                guard: LogGuard { _worker: None },
                log_path: None,
                warnings,
            };
        }
    };
    if let Err(e) = tracing::subscriber::set_global_default(subscriber) {
        warnings.push(format!("logging disabled: {e}"));
        return LogInit {
            guard: LogGuard { _worker: None },
            log_path: None,
            warnings,
        };
    }
    LogInit {
        guard: LogGuard {
            _worker: Some(worker),
        },
        log_path: Some(logs_dir.join(LOG_FILE_NAME)),
        warnings,
    }
}

/// Builds the subscriber without installing it (tests use `with_default`).
pub fn build_subscriber(
    logs_dir: &Path,
    options: &LogOptions,
    warnings: &mut Vec<String>,
) -> io::Result<(
    impl tracing::Subscriber + Send + Sync + 'static,
    WorkerGuard,
)> {
    create_private_dir(logs_dir)?;
    let appender = RollingFileAppender::builder()
        .rotation(Rotation::DAILY)
        .filename_prefix("hermes")
        .filename_suffix("log")
        .max_log_files(MAX_LOG_FILES)
        .latest_symlink(LOG_FILE_NAME)
        .build(logs_dir)
        .map_err(io::Error::other)?;
    // The default queue (128k lines) is 4 MB allocated and touched up front — a tenth of the
    // RSS budget for a log that is mostly idle. Lines over the limit are dropped, never waited
    // for (lossy), so logging never blocks the UI.
    let (writer, worker) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .lossy(true)
        .finish(appender);
    let layer = tracing_subscriber::fmt::layer()
        .with_ansi(false)
        .with_writer(RedactingMakeWriter::new(
            writer,
            options.known_secrets.clone(),
        ));
    let subscriber = tracing_subscriber::registry()
        .with(filter_for(options, warnings))
        .with(layer);
    Ok((subscriber, worker))
}

fn filter_for(options: &LogOptions, warnings: &mut Vec<String>) -> EnvFilter {
    if let Some(spec) = &options.filter {
        match EnvFilter::try_new(spec) {
            Ok(filter) => return filter,
            Err(e) => warnings.push(format!(
                "{HERMES_LOG_ENV}={spec:?} is not a valid filter ({e}); using the default level"
            )),
        }
    }
    let default = match options.verbosity {
        Verbosity::Verbose => VERBOSE_FILTER,
        Verbosity::Normal => "info",
    };
    EnvFilter::try_new(default).unwrap_or_else(|_| EnvFilter::new("info"))
}

fn create_private_dir(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder.create(dir)
}

/// Wraps any `MakeWriter` so each formatted event is redacted before it is written.
#[derive(Debug, Clone)]
pub struct RedactingMakeWriter<M> {
    inner: M,
    known_secrets: std::sync::Arc<[String]>,
}

impl<M> RedactingMakeWriter<M> {
    pub fn new(inner: M, known_secrets: Vec<String>) -> Self {
        Self {
            inner,
            known_secrets: known_secrets.into(),
        }
    }
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for RedactingMakeWriter<M> {
    type Writer = RedactingWriter<M::Writer>;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter::new(
            self.inner.make_writer(),
            std::sync::Arc::clone(&self.known_secrets),
        )
    }

    fn make_writer_for(&'a self, meta: &tracing::Metadata<'_>) -> Self::Writer {
        RedactingWriter::new(
            self.inner.make_writer_for(meta),
            std::sync::Arc::clone(&self.known_secrets),
        )
    }
}

/// Buffers one event's bytes and writes them redacted on flush or drop. Buffering whole
/// events matters: a secret split across two `write` calls would otherwise slip through.
pub struct RedactingWriter<W: Write> {
    inner: W,
    buf: Vec<u8>,
    known_secrets: std::sync::Arc<[String]>,
}

impl<W: Write> RedactingWriter<W> {
    fn new(inner: W, known_secrets: std::sync::Arc<[String]>) -> Self {
        Self {
            inner,
            buf: Vec::new(),
            known_secrets,
        }
    }

    fn drain(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&self.buf);
        let clean = redact(&text, &self.known_secrets).into_owned();
        self.buf.clear();
        self.inner.write_all(clean.as_bytes())
    }
}

impl<W: Write> Write for RedactingWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
        self.inner.flush()
    }
}

impl<W: Write> Drop for RedactingWriter<W> {
    fn drop(&mut self) {
        // Nowhere to report a failure from drop; the log line is lost, nothing else.
        let _ = self.drain();
    }
}

#[cfg(test)]
#[path = "logging_tests.rs"]
mod tests;
