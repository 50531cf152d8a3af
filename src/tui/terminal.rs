//! Terminal setup and guaranteed restoration.
//!
//! `TerminalSession::enter` switches to the alternate screen with raw mode, bracketed paste,
//! mouse reporting and (where the terminal supports it) the kitty keyboard protocol, so
//! Shift+Enter is distinguishable from Enter. Restoration runs exactly once, whichever comes
//! first: normal drop, the panic hook, or a signal-driven shutdown. The panic hook also writes
//! a crash report to `HERMES_HOME/logs/` before the default hook prints the panic.

use std::io::Stdout;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;

use crossterm::event::DisableBracketedPaste;
use crossterm::event::DisableMouseCapture;
use crossterm::event::EnableBracketedPaste;
use crossterm::event::EnableMouseCapture;
use crossterm::event::KeyboardEnhancementFlags;
use crossterm::event::PopKeyboardEnhancementFlags;
use crossterm::event::PushKeyboardEnhancementFlags;
use crossterm::execute;
use crossterm::terminal::EnterAlternateScreen;
use crossterm::terminal::LeaveAlternateScreen;
use crossterm::terminal::disable_raw_mode;
use crossterm::terminal::enable_raw_mode;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

/// True while the terminal is in our mode; guards against restoring twice.
static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether we pushed kitty keyboard flags (they must be popped on restore).
static KEYBOARD_ENHANCED: AtomicBool = AtomicBool::new(false);

pub type Tui = Terminal<CrosstermBackend<Stdout>>;

pub struct TerminalSession {
    pub terminal: Tui,
}

impl TerminalSession {
    pub fn enter() -> std::io::Result<Self> {
        setup()?;
        let mut terminal = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
        terminal.clear()?;
        Ok(Self { terminal })
    }

    /// Hand the terminal to another program (e.g. `$EDITOR`).
    pub fn suspend(&mut self) -> std::io::Result<()> {
        restore()
    }

    /// Take the terminal back after `suspend`, repainting everything.
    pub fn resume(&mut self) -> std::io::Result<()> {
        setup()?;
        let _ = crate::util::stderr::recapture();
        self.terminal.clear()
    }
}

fn setup() -> std::io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut stdout = std::io::stdout();
    execute!(
        stdout,
        EnterAlternateScreen,
        EnableBracketedPaste,
        EnableMouseCapture
    )?;
    // Asking the terminal blocks briefly, before the UI loop runs.
    if crossterm::terminal::supports_keyboard_enhancement().unwrap_or(false) {
        execute!(
            stdout,
            // Key releases make the record key true push-to-talk where the terminal reports
            // them (kitty keyboard protocol); other keys ignore releases.
            PushKeyboardEnhancementFlags(
                KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES
                    | KeyboardEnhancementFlags::REPORT_EVENT_TYPES
            )
        )?;
        KEYBOARD_ENHANCED.store(true, Ordering::SeqCst);
    }
    Ok(())
}

impl Drop for TerminalSession {
    fn drop(&mut self) {
        let _ = restore();
        // ratatui's own drop `eprintln!`s when it cannot show the cursor, and `eprintln!`
        // panics once the terminal has hung up (EIO), turning a closed window into a crash
        // report. With the cursor shown it has nothing to do; if even that fails, what it
        // prints goes to the log file.
        if self.terminal.show_cursor().is_err() {
            let _ = crate::util::stderr::recapture();
        }
    }
}

/// Put the terminal back as we found it. Safe to call any number of times.
pub fn restore() -> std::io::Result<()> {
    // The real stderr first, so a panic message after this is seen.
    crate::util::stderr::release();
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return Ok(());
    }
    let mut stdout = std::io::stdout();
    if KEYBOARD_ENHANCED.swap(false, Ordering::SeqCst) {
        let _ = execute!(stdout, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(
        stdout,
        DisableMouseCapture,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = stdout.flush();
    disable_raw_mode()
}

/// Whether a frame failed because the terminal is gone (`true`, logged): a closed window or a
/// dropped ssh session makes writes to the tty fail with EIO before (or without) a SIGHUP, and
/// that is a normal way to end a session, not an error. Any other failure is returned.
pub fn hung_up(drawn: std::io::Result<()>) -> std::io::Result<bool> {
    match drawn {
        Ok(()) => Ok(false),
        Err(err)
            if err.kind() == std::io::ErrorKind::BrokenPipe
                || matches!(
                    err.raw_os_error(),
                    Some(libc::EIO | libc::ENXIO | libc::EBADF)
                ) =>
        {
            tracing::warn!(error = %err, "the terminal is gone; quitting");
            Ok(true)
        }
        Err(err) => Err(err),
    }
}

/// Ring the terminal bell: BEL written through the backend's writer (between frames, so it
/// never lands inside a synchronized update).
pub fn ring_bell(terminal: &mut Tui) -> std::io::Result<()> {
    let backend = terminal.backend_mut();
    backend.write_all(b"\x07")?;
    Write::flush(backend)
}

/// Restore the terminal and write a crash report before the default panic output.
pub fn install_panic_hook(crash_dir: PathBuf) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // A parser's panic hermes catches and reports is not a crash.
        if crate::util::expected_panic::is_expected() {
            return;
        }
        let _ = restore();
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let path = crash_dir.join(format!("crash-{stamp}.txt"));
        let report = format!(
            "hermes {} crashed\n{info}\n\nbacktrace:\n{}\n",
            env!("CARGO_PKG_VERSION"),
            std::backtrace::Backtrace::force_capture()
        );
        if std::fs::create_dir_all(&crash_dir).is_ok() && std::fs::write(&path, report).is_ok() {
            // Not `eprintln!`: a panic while panicking (stderr gone) would abort.
            let _ = writeln!(
                std::io::stderr(),
                "hermes crashed; a report was written to {}",
                path.display()
            );
        }
        previous(info);
    }));
}
