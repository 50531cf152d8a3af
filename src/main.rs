//! The `hermes` binary: command-line parsing and wiring only. Configuration, the engine and
//! the frontends live in the library; this file turns flags into calls and errors into exit
//! codes (`anyhow` is used here, at the edge, and nowhere else).

#[path = "cli/config_commands.rs"]
mod config_commands;
#[path = "cli/cron_commands.rs"]
mod cron_commands;
#[path = "cli/data_commands.rs"]
mod data_commands;
#[path = "cli/login_commands.rs"]
mod login_commands;
#[path = "cli/mcp_commands.rs"]
mod mcp_commands;
#[path = "cli/run_setup.rs"]
mod run_setup;
#[path = "cli/safety_commands.rs"]
mod safety_commands;
#[path = "cli/skins_commands.rs"]
mod skins_commands;
#[path = "cli/tools_commands.rs"]
mod tools_commands;
#[path = "cli/voice_commands.rs"]
mod voice_commands;

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use clap::Parser;
use clap::Subcommand;

use hermes::config::HermesHome;
use hermes::config::env::EnvLookup;
use hermes::config::load;
use hermes::engine::bootstrap::ModelOverrides;
use hermes::engine::bootstrap::StartOptions;
use hermes::engine::bootstrap::start_session;
use hermes::engine::spec_parts::ResumeTarget;
use hermes::headless::OutputMode;
use hermes::headless::PromptMode;
use hermes::headless::exit_code;
use hermes::headless::run_one_shot;
use hermes::safety::YoloMode;
use hermes::util::logging::LogOptions;
use hermes::util::logging::Verbosity;
use hermes::util::logging::init_logging;

#[derive(Parser, Debug)]
#[command(
    name = "hermes",
    version,
    about = "A terminal AI agent (Rust Hermes Agent)"
)]
struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    /// Run one turn for PROMPT without the full-screen interface, print the answer, exit.
    #[arg(short = 'z', long = "oneshot", value_name = "PROMPT")]
    oneshot: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Args, Debug, Clone)]
struct GlobalArgs {
    /// Use the profile HERMES_HOME/profiles/NAME.
    #[arg(short = 'p', long = "profile", value_name = "NAME", global = true)]
    profile: Option<String>,
    /// Model id (overrides model.default).
    #[arg(long, global = true)]
    model: Option<String>,
    /// Provider: openrouter, openai, anthropic, nous or custom (overrides model.provider).
    #[arg(long, global = true)]
    provider: Option<String>,
    /// Endpoint base URL (overrides model.base_url).
    #[arg(long = "base-url", value_name = "URL", global = true)]
    base_url: Option<String>,
    /// Print every engine event as a JSON line instead of the answer (headless).
    #[arg(long, global = true)]
    json: bool,
    /// Let the agent run dangerous commands without asking (hardline commands stay blocked).
    /// Also HERMES_YOLO_MODE=1.
    #[arg(long, global = true)]
    yolo: bool,
    /// Run the shell hooks configured in config.yaml without asking for consent first (also
    /// HERMES_ACCEPT_HOOKS=1 or hooks_auto_accept: true).
    #[arg(long = "accept-hooks", global = true)]
    accept_hooks: bool,
    /// Debug-level logging to HERMES_HOME/logs/hermes.log.
    #[arg(short = 'v', long, global = true)]
    verbose: bool,
    /// Continue a stored session: an id, a unique id prefix, or a title.
    #[arg(
        short = 'r',
        long,
        value_name = "ID",
        global = true,
        conflicts_with = "continue_last"
    )]
    resume: Option<String>,
    /// Continue the most recent session started in this directory.
    #[arg(short = 'c', long = "continue", global = true)]
    continue_last: bool,
    /// Use these toolsets for this run instead of `platform_toolsets.cli` (comma-separated,
    /// e.g. `terminal,file`; `all` for every tool).
    #[arg(long, value_name = "LIST", value_delimiter = ',', global = true)]
    toolsets: Option<Vec<String>>,
    /// Attach an image file to the -z prompt (repeatable; png, jpg, gif, webp, bmp).
    #[arg(long = "image", value_name = "PATH", global = true)]
    images: Vec<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Chat with the agent; with -q, run one turn headless.
    Chat {
        /// Run one turn for PROMPT and exit (same as hermes -z PROMPT).
        #[arg(short = 'q', long = "query", value_name = "PROMPT")]
        query: Option<String>,
    },
    /// Show or change config.yaml.
    Config {
        #[command(subcommand)]
        action: config_commands::ConfigAction,
    },
    /// List, show, export, delete or prune stored sessions (HERMES_HOME/state.db).
    Sessions {
        #[command(subcommand)]
        action: data_commands::SessionsAction,
    },
    /// List, show, install or remove skills (HERMES_HOME/skills).
    Skills {
        #[command(subcommand)]
        action: data_commands::SkillsAction,
    },
    /// List, test, revoke or check the shell hooks in config.yaml.
    Hooks {
        #[command(subcommand)]
        action: safety_commands::HooksAction,
    },
    /// List or prune file checkpoints (HERMES_HOME/checkpoints).
    Checkpoints {
        #[command(subcommand)]
        action: safety_commands::CheckpointsAction,
    },
    /// List, show or validate skins (colours, spinner, branding; HERMES_HOME/skins).
    Skins {
        #[command(subcommand)]
        action: skins_commands::SkinsAction,
    },
    /// List, add, remove or test MCP servers (`mcp_servers:` in config.yaml).
    Mcp {
        #[command(subcommand)]
        action: mcp_commands::McpAction,
    },
    /// List the toolsets, or enable or disable them (`platform_toolsets.cli` in config.yaml).
    Tools {
        #[command(subcommand)]
        action: Option<tools_commands::ToolsAction>,
    },
    /// Transcribe, speak, list audio devices, test the microphone, manage whisper models.
    Voice {
        #[command(subcommand)]
        action: voice_commands::VoiceAction,
    },
    /// Scheduled jobs: list, create, edit, pause, resume, run, remove, status, tick, runs, daemon.
    Cron {
        #[command(subcommand)]
        action: cron_commands::CronAction,
    },
    /// Log in to Nous Portal (device-code login; tokens in HERMES_HOME/auth.json).
    Login(login_commands::LoginArgs),
    /// Remove a stored login (default: the active one).
    Logout {
        /// Provider to log out of (default: the active login, else `nous` if config.yaml
        /// selects it).
        #[arg(value_name = "PROVIDER")]
        target: Option<String>,
    },
    /// Add, check or remove stored logins (`hermes auth add nous`, `hermes auth status`).
    Auth {
        #[command(subcommand)]
        action: login_commands::AuthAction,
    },
}

fn main() -> ExitCode {
    hermes::util::startup::mark();
    hermes::util::allocator::return_large_buffers_on_free();
    hermes::util::expected_panic::install_filter();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
        Err(err) => {
            say(&format!("hermes: {}", run_setup::describe(&err)));
            ExitCode::from(u8::try_from(exit_code::CONFIG).unwrap_or(2))
        }
    }
}

/// One line on stderr; not `eprintln!`, which panics when stderr is gone (a closed terminal).
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

fn run(cli: Cli) -> anyhow::Result<i32> {
    let process_env = |key: &str| std::env::var(key).ok();
    let home = HermesHome::resolve(cli.global.profile.as_deref(), &process_env)?;
    match cli.command {
        Some(Command::Config { action }) => config_commands::config_command(&home, action),
        Some(Command::Tools { action }) => tools_commands::tools_command(&home, action),
        Some(Command::Sessions { action }) => data_commands::sessions_command(&home, action),
        Some(Command::Skills { action }) => data_commands::skills_command(&home, action),
        Some(Command::Hooks { action }) => safety_commands::hooks_command(&home, action),
        Some(Command::Checkpoints { action }) => {
            safety_commands::checkpoints_command(&home, action)
        }
        Some(Command::Voice { action }) => voice_commands::voice_command(&home, action),
        Some(Command::Skins { action }) => skins_commands::skins_command(&home, action),
        Some(Command::Mcp { action }) => mcp_commands::mcp_command(&home, action),
        Some(Command::Cron { action }) => cron_commands::cron_command(&home, action),
        Some(Command::Login(args)) => {
            login_commands::login_command(&home, args, cli.global.provider.as_deref())
        }
        Some(Command::Logout { target }) => {
            login_commands::logout_command(&home, target.as_deref(), cli.global.provider.as_deref())
        }
        Some(Command::Auth { action }) => {
            login_commands::auth_command(&home, action, cli.global.provider.as_deref())
        }
        Some(Command::Chat {
            query: Some(prompt),
        }) => one_shot(&home, &cli.global, prompt),
        Some(Command::Chat { query: None }) | None => match cli.oneshot {
            Some(prompt) => one_shot(&home, &cli.global, prompt),
            None => run_tui(&home, &cli.global),
        },
    }
}

/// Home directories, logging, `.env` and `config.yaml`: what every run mode needs first.
struct Prepared {
    env: EnvLookup,
    loaded: hermes::config::LoadedConfig,
    /// Problems to show the user (config, .env, logging), already formatted.
    warnings: Vec<String>,
    _log: hermes::util::logging::LogGuard,
}

fn prepare(home: &HermesHome, global: &GlobalArgs) -> anyhow::Result<Prepared> {
    home.ensure_dirs()?;
    let (env, env_warnings) = EnvLookup::load(home)?;
    let verbosity = if global.verbose {
        Verbosity::Verbose
    } else {
        Verbosity::Normal
    };
    let log = init_logging(
        &home.logs_dir(),
        &LogOptions::from_env(verbosity, env.secret_values(), &env.as_fn()),
    );
    let loaded = load::load(home);
    let warnings = loaded
        .warnings
        .iter()
        .chain(env_warnings.iter())
        .map(ToString::to_string)
        .chain(log.warnings.iter().cloned())
        .collect();
    hermes::util::http::install_crypto_provider();
    Ok(Prepared {
        env,
        loaded,
        warnings,
        _log: log.guard,
    })
}

fn overrides(global: &GlobalArgs) -> ModelOverrides {
    ModelOverrides {
        model: global.model.clone(),
        provider: global.provider.clone(),
        base_url: global.base_url.clone(),
    }
}

fn resume_target(global: &GlobalArgs) -> Option<ResumeTarget> {
    match (&global.resume, global.continue_last) {
        (Some(key), _) => Some(ResumeTarget::Session(key.clone())),
        (None, true) => Some(ResumeTarget::MostRecent),
        (None, false) => None,
    }
}

/// `--toolsets a,b`, names trimmed, empty ones dropped.
fn toolsets_flag(global: &GlobalArgs) -> Option<Vec<String>> {
    global.toolsets.as_ref().map(|names| {
        names
            .iter()
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty())
            .collect()
    })
}

fn accept_hooks(global: &GlobalArgs) -> hermes::safety::hooks::AcceptHooks {
    if global.accept_hooks {
        hermes::safety::hooks::AcceptHooks::AcceptAll
    } else {
        hermes::safety::hooks::AcceptHooks::Ask
    }
}

/// `--yolo`, or `HERMES_YOLO_MODE=1` (read at each start, never frozen at import time —
/// Hermes #60328).
fn yolo(global: &GlobalArgs) -> YoloMode {
    let from_env = std::env::var("HERMES_YOLO_MODE").is_ok_and(|v| {
        matches!(
            v.trim().to_ascii_lowercase().as_str(),
            "1" | "true" | "yes" | "on"
        )
    });
    if global.yolo || from_env {
        YoloMode::On
    } else {
        YoloMode::Off
    }
}

fn run_tui(home: &HermesHome, global: &GlobalArgs) -> anyhow::Result<i32> {
    let prepared = prepare(home, global)?;
    let factory = TuiSessionFactory {
        home: home.clone(),
        global: global.clone(),
        resume: resume_target(global),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    // The voice service opens no device until voice mode is used.
    let voice = {
        let _runtime = runtime.enter();
        hermes::voice::service::spawn(hermes::voice::service::VoiceSettings {
            config: prepared.loaded.config.clone(),
            home: home.clone(),
            env: prepared.env.clone(),
            devices: std::sync::Arc::new(hermes::voice::service::SystemDevices),
        })
    };
    let (theme, theme_notices) = run_setup::startup_theme(home, &prepared.loaded.config.display);
    let mut warnings = prepared.warnings;
    warnings.extend(theme_notices);
    // Jobs fire while the TUI is open (on their own thread; a second hermes stands by).
    let scheduler = run_setup::start_cron(home, &prepared.loaded.config, &prepared.env);
    let options = hermes::tui::TuiOptions {
        home: home.clone(),
        display: prepared.loaded.config.display,
        theme,
        factory: Box::new(factory),
        warnings,
        voice: hermes::tui::VoiceLink::Running(voice),
        attach: hermes::tui::AttachLink::Running(run_setup::spawn_attach_service(home)),
    };
    let result = runtime.block_on(hermes::tui::run(options));
    drop(scheduler);
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    result?;
    Ok(exit_code::OK)
}

/// Starts engine sessions for the TUI, re-reading config and `.env` each time so a provider
/// chosen in the onboarding overlay takes effect at once.
struct TuiSessionFactory {
    home: HermesHome,
    global: GlobalArgs,
    resume: Option<ResumeTarget>,
}

impl hermes::tui::SessionFactory for TuiSessionFactory {
    fn start(&mut self) -> Result<hermes::tui::StartedSession, hermes::tui::StartFailure> {
        use hermes::engine::bootstrap::StartError;
        use hermes::providers::ProviderSetupError;
        use hermes::tui::StartFailure;
        let (env, _) =
            EnvLookup::load(&self.home).map_err(|e| StartFailure::Failed(e.to_string()))?;
        let loaded = load::load(&self.home);
        let launch_dir =
            std::env::current_dir().map_err(|e| StartFailure::Failed(e.to_string()))?;
        let started = start_session(StartOptions {
            home: &self.home,
            config: &loaded.config,
            env: &env,
            overrides: overrides(&self.global),
            yolo: yolo(&self.global),
            accept_hooks: accept_hooks(&self.global),
            launch_dir,
            // Resume only once: a later restart (after onboarding) starts fresh.
            resume: self.resume.take(),
            exit_reason: hermes::store::EndReason::CliClose,
            toolsets: toolsets_flag(&self.global),
            purpose: Default::default(),
            session_id: None,
        });
        match started {
            Ok(session) => Ok(hermes::tui::StartedSession {
                handle: session.handle,
                notices: session.notices,
            }),
            Err(
                err @ StartError::Provider(
                    ProviderSetupError::NoProvider | ProviderSetupError::MissingKey { .. },
                ),
            ) => Err(StartFailure::NeedsProvider(err.to_string())),
            Err(err) => Err(StartFailure::Failed(err.to_string())),
        }
    }
}

fn one_shot(home: &HermesHome, global: &GlobalArgs, prompt: String) -> anyhow::Result<i32> {
    let started = std::time::Instant::now();
    let prepared = prepare(home, global)?;
    for warning in &prepared.warnings {
        say(&format!("warning: {warning}"));
    }
    let (env, loaded) = (&prepared.env, &prepared.loaded);
    let images = match run_setup::attach_image_files(home, &global.images) {
        Ok(images) => images,
        Err(err) => {
            say(&format!("hermes: {err}"));
            return Ok(exit_code::CONFIG);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let code = runtime.block_on(async {
        let started_session = start_session(StartOptions {
            home,
            config: &loaded.config,
            env,
            overrides: overrides(global),
            yolo: yolo(global),
            accept_hooks: accept_hooks(global),
            launch_dir: std::env::current_dir()?,
            resume: resume_target(global),
            exit_reason: hermes::store::EndReason::AgentClose,
            toolsets: toolsets_flag(global),
            purpose: hermes::engine::bootstrap::SessionPurpose::Headless,
            session_id: None,
        });
        let session = match started_session {
            Ok(session) => session,
            Err(err) => {
                say(&format!("hermes: {err}"));
                return Ok::<i32, anyhow::Error>(exit_code::CONFIG);
            }
        };
        for notice in &session.notices {
            say(&format!("note: {notice}"));
        }
        let output = if global.json {
            OutputMode::Json
        } else {
            OutputMode::Text
        };
        let mut stdout = std::io::stdout();
        let mut stderr = std::io::stderr();
        let report = run_one_shot(
            session.handle,
            prompt,
            images,
            output,
            PromptMode::detect(),
            &mut stdout,
            &mut stderr,
        )
        .await;
        tracing::info!(
            exit_code = report.exit_code,
            elapsed_ms = started.elapsed().as_millis() as u64,
            "one-shot finished"
        );
        Ok(report.exit_code)
    })?;
    // Background processes were killed at session shutdown; don't wait on stray tasks.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    drop(prepared);
    Ok(code)
}
