//! The run's stdout, watched: the first failed write or flush is kept, so a run whose answer
//! never reached its destination (`hermes -z … > file` on a full disk, a closed pipe) exits
//! with `exit_code::OUTPUT_FAILED` instead of 0 with the answer lost.
//!
//! Not here: stderr (progress and notes are best effort; a run does not fail for them).

use std::io::Write;

pub(super) struct Watched<'a> {
    inner: &'a mut (dyn Write + Send),
    failure: Option<std::io::Error>,
}

impl<'a> Watched<'a> {
    pub(super) fn new(inner: &'a mut (dyn Write + Send)) -> Self {
        Self {
            inner,
            failure: None,
        }
    }

    /// The first write or flush error, if any.
    pub(super) fn take_failure(&mut self) -> Option<std::io::Error> {
        self.failure.take()
    }

    fn keep<T>(&mut self, result: std::io::Result<T>) -> std::io::Result<T> {
        if let Err(err) = &result
            && self.failure.is_none()
        {
            self.failure = Some(std::io::Error::new(err.kind(), err.to_string()));
        }
        result
    }
}

impl Write for Watched<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let result = self.inner.write(buf);
        self.keep(result)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let result = self.inner.flush();
        self.keep(result)
    }
}
