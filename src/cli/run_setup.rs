//! What the binary sets up around a run: the start-up skin for this terminal, the attach
//! service for the TUI, and the `--image` files of a one-shot prompt. Binary edge only.

use hermes::config::HermesHome;

/// The skin from `display.skin`, for this terminal: colour depth from the environment
/// (`NO_COLOR`, `COLORTERM`, `TERM`), background from `display.theme_mode` or `COLORFGBG`
/// (the TUI asks the terminal itself, with OSC 11, once the first frame is up).
pub fn startup_theme(
    home: &HermesHome,
    display: &hermes::config::DisplayConfig,
) -> (hermes::theme::Theme, Vec<String>) {
    use hermes::theme::Background;
    use hermes::theme::ThemeMode;
    let env = |key: &str| std::env::var(key).ok();
    let (mode, mode_warning) = ThemeMode::parse(&display.theme_mode);
    let background = match mode {
        ThemeMode::Light => Some(Background::Light),
        ThemeMode::Dark => Some(Background::Dark),
        ThemeMode::Auto => env("COLORFGBG")
            .as_deref()
            .and_then(hermes::theme::background::from_colorfgbg),
    };
    let options = hermes::theme::skins::LoadOptions {
        depth: hermes::theme::ColorDepth::detect(&env),
        background,
        mode,
    };
    let (theme, mut notices) =
        hermes::theme::skins::load(&home.root().join("skins"), display.skin.trim(), &options);
    notices.extend(mode_warning);
    (theme, notices)
}

/// The clipboard and image-file service for the TUI (its own thread; the clipboard is opened
/// on first use, not here).
pub fn spawn_attach_service(home: &HermesHome) -> hermes::protocol::AttachHandle {
    use hermes::clipboard::service;
    use hermes::clipboard::source;
    let env = source::ClipboardEnv::from_process();
    service::spawn(service::AttachSettings {
        images_dir: home.images_dir(),
        cwd: std::env::current_dir().unwrap_or_default(),
        home_dir: dirs::home_dir(),
        env: env.clone(),
        reader: Box::new(source::SystemClipboard::new(env)),
    })
}

/// `--image PATH…`: each file decoded, checked and saved as a PNG under HERMES_HOME/images.
pub fn attach_image_files(
    home: &HermesHome,
    paths: &[std::path::PathBuf],
) -> Result<Vec<hermes::protocol::ImageAttachment>, hermes::images::image_file::ImageError> {
    use hermes::images::image_file;
    paths
        .iter()
        .map(|path| {
            let image = image_file::decode_file(path)?;
            image_file::save_png(&home.images_dir(), &image, std::time::SystemTime::now())
        })
        .collect()
}

/// The error and its causes, each only if the text does not say it yet (an io error under
/// `path: Permission denied`, SQLite's `Error code 14: …` under its own message).
pub fn describe(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        let gist = cause.rsplit(": ").next().unwrap_or(&cause);
        if !text.contains(gist) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// The TUI's cron scheduler for `home`; `None` (with a log line) when its thread cannot start.
pub fn start_cron(
    home: &HermesHome,
    config: &hermes::config::Config,
    env: &hermes::config::EnvLookup,
) -> Option<hermes::engine::cron_link::SchedulerThread> {
    let cron = hermes::cron::CronHome::open(home, config, env);
    let link = hermes::engine::cron_link::CronLink::for_home(cron);
    match hermes::engine::cron_link::spawn_scheduler(link) {
        Ok(thread) => Some(thread),
        Err(err) => {
            tracing::warn!("cron scheduler not started: {err}");
            None
        }
    }
}
