//! Small thumbnails before the image badges, on terminals that can draw inline images.
//!
//! Whether the terminal can is decided once from the environment, never by asking the
//! terminal (a query would race the input stream): kitty (`TERM=xterm-kitty` or
//! `KITTY_WINDOW_ID`), the iTerm2 protocol (`TERM_PROGRAM` `iTerm.app` or `WezTerm`), sixel
//! (`TERM` containing `foot`, or `mlterm`). Never inside tmux or screen, whose passthrough
//! breaks placement; `HERMES_THUMBNAILS=off` turns them off. Anywhere else the badge is shown
//! alone.
//!
//! Decoding, scaling and encoding run on a blocking thread and come back as an `AppEvent`; a
//! frame only draws what is ready. Invariants: a thumbnail is [`THUMB_COLS`] columns by one
//! row, so it never changes the layout; with thumbnails off, [`Thumbnails::columns`] is 0
//! and nothing is decoded.

use std::collections::HashMap;
use std::path::Path;
use std::path::PathBuf;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::layout::Size;
use ratatui::widgets::Widget;
use ratatui_image::Image;
use ratatui_image::Resize;
use ratatui_image::picker::Picker;
use ratatui_image::picker::ProtocolType;
use ratatui_image::protocol::Protocol;

use super::app::App;
use super::app::AppEvent;

/// Width of a thumbnail in columns (one row high).
pub const THUMB_COLS: u16 = 4;
/// The cell size assumed when the terminal does not report its pixel size: small, so a
/// thumbnail never spills into the row below.
const FALLBACK_CELL_PIXELS: (u16, u16) = (8, 16);

/// The inline-image protocol a terminal speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graphics {
    Kitty,
    Iterm2,
    Sixel,
}

impl Graphics {
    fn protocol_type(self) -> ProtocolType {
        match self {
            Graphics::Kitty => ProtocolType::Kitty,
            Graphics::Iterm2 => ProtocolType::Iterm2,
            Graphics::Sixel => ProtocolType::Sixel,
        }
    }
}

/// The protocol for thumbnails, from environment variables (`env` looks one up); `None`
/// when thumbnails should not be drawn.
pub fn detect(env: &dyn Fn(&str) -> Option<String>) -> Option<Graphics> {
    let var = |name: &str| env(name).filter(|v| !v.is_empty());
    let setting = var("HERMES_THUMBNAILS").map(|v| v.to_ascii_lowercase());
    if matches!(setting.as_deref(), Some("off" | "0" | "false" | "no")) {
        return None;
    }
    let term = var("TERM").unwrap_or_default();
    let program = var("TERM_PROGRAM").unwrap_or_default();
    let multiplexed = var("TMUX").is_some()
        || var("STY").is_some()
        || term.starts_with("screen")
        || term.starts_with("tmux")
        || program == "tmux";
    if multiplexed {
        return None;
    }
    if term == "xterm-kitty" || var("KITTY_WINDOW_ID").is_some() {
        return Some(Graphics::Kitty);
    }
    if program == "iTerm.app" || program == "WezTerm" {
        return Some(Graphics::Iterm2);
    }
    if term.contains("foot") || term.contains("mlterm") || program == "mlterm" {
        return Some(Graphics::Sixel);
    }
    None
}

/// An encoded thumbnail, ready to draw.
pub struct Thumbnail(Protocol);

impl std::fmt::Debug for Thumbnail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Thumbnail")
    }
}

#[derive(Debug)]
enum Slot {
    Loading,
    Ready(Thumbnail),
    /// Could not be decoded; the badge shows alone.
    Failed,
}

/// The thumbnails of attached images, by path.
#[derive(Debug, Default)]
pub struct Thumbnails {
    graphics: Option<Graphics>,
    slots: HashMap<PathBuf, Slot>,
}

impl Thumbnails {
    /// Thumbnails as this process's environment allows.
    pub fn from_env() -> Self {
        Self::with(detect(&|name| std::env::var(name).ok()))
    }

    pub fn with(graphics: Option<Graphics>) -> Self {
        Self {
            graphics,
            slots: HashMap::new(),
        }
    }

    /// Columns each badge's thumbnail takes, its gap included; 0 when thumbnails are off.
    pub fn columns(&self) -> usize {
        match self.graphics {
            Some(_) => usize::from(THUMB_COLS) + 1,
            None => 0,
        }
    }

    /// Draws the thumbnail of `path` in `area` when it is ready.
    pub fn render(&mut self, path: &Path, area: Rect, buf: &mut Buffer) {
        if let Some(Slot::Ready(Thumbnail(protocol))) = self.slots.get(path) {
            Image::new(protocol).render(area, buf);
        }
    }
}

/// Images were attached: start making the thumbnails not made yet, and forget those of
/// images no longer attached.
pub fn attached(app: &mut App) {
    let Some(graphics) = app.thumbnails.graphics else {
        return;
    };
    let images = app.attach.images();
    app.thumbnails
        .slots
        .retain(|path, _| images.iter().any(|image| &image.path == path));
    for image in images {
        if app.thumbnails.slots.contains_key(&image.path) {
            continue;
        }
        app.thumbnails
            .slots
            .insert(image.path.clone(), Slot::Loading);
        let path = image.path.clone();
        let tx = app.app_tx.clone();
        tokio::task::spawn_blocking(move || {
            let thumbnail = make(&path, graphics);
            let _ = tx.send(AppEvent::ThumbnailReady { path, thumbnail });
        });
    }
}

/// A thumbnail was made (or failed: the badge then shows alone).
pub fn ready(app: &mut App, path: PathBuf, thumbnail: Result<Thumbnail, String>) {
    let Some(slot) = app.thumbnails.slots.get_mut(&path) else {
        return;
    };
    *slot = match thumbnail {
        Ok(thumbnail) => Slot::Ready(thumbnail),
        Err(reason) => {
            tracing::debug!(path = %path.display(), %reason, "no thumbnail");
            Slot::Failed
        }
    };
}

/// Decodes, scales and encodes `path` for `graphics` (blocking).
fn make(path: &Path, graphics: Graphics) -> Result<Thumbnail, String> {
    let image = image::ImageReader::open(path)
        .and_then(image::ImageReader::with_guessed_format)
        .map_err(|e| e.to_string())?
        .decode()
        .map_err(|e| e.to_string())?;
    // `from_fontsize` is the only way to give the picker a cell size without querying the
    // terminal.
    #[allow(deprecated)]
    let mut picker = Picker::from_fontsize(cell_pixels().into());
    picker.set_protocol_type(graphics.protocol_type());
    let protocol = picker
        .new_protocol(image, Size::new(THUMB_COLS, 1), Resize::Fit(None))
        .map_err(|e| e.to_string())?;
    Ok(Thumbnail(protocol))
}

/// The terminal's cell size in pixels, from the window size the kernel reports (no terminal
/// query); a small guess when it reports none.
fn cell_pixels() -> (u16, u16) {
    match crossterm::terminal::window_size() {
        Ok(size) if size.width > 0 && size.height > 0 && size.columns > 0 && size.rows > 0 => {
            (size.width / size.columns, size.height / size.rows)
        }
        _ => FALLBACK_CELL_PIXELS,
    }
}

#[cfg(test)]
#[path = "thumbnails_tests.rs"]
mod tests;
