//! `hermes login nous`, `hermes logout [nous]` and `hermes auth add|status|logout`: parsing,
//! printing and exit codes only. The device-code flow and the token refresh live in
//! `hermes::providers::nous_login*`, the credential store in `hermes::config::auth_store*`.
//!
//! Output follows Python Hermes's wording where it has one (`Login successful!`, `Logged out
//! of Nous Portal.`, `nous: logged in`). A failed login is one line (`Login failed: …`, exit
//! 1); Ctrl+C prints `Login cancelled.` and exits 130. A browser is opened only on a local
//! graphical session and never with `--no-browser`.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use clap::Subcommand;
use hermes::config::HermesHome;
use hermes::config::auth_store::AuthPaths;
use hermes::config::auth_store::AuthStore;
use hermes::config::auth_store::lock_store;
use hermes::config::auth_store_nous::NOUS;
use hermes::config::env::EnvLookup;
use hermes::headless::exit_code;
use hermes::providers::nous_login::LoginError;
use hermes::providers::nous_login::LoginEvent;
use hermes::providers::nous_login::LoginOptions;
use hermes::providers::nous_login::login;
use hermes::providers::nous_login::tokio_sleep;
use hermes::providers::nous_login_refresh::RefreshContext;
use hermes::providers::nous_login_refresh::RefreshError;
use hermes::providers::nous_login_refresh::RefreshMode;
use hermes::providers::nous_login_refresh::fresh_credential;
use hermes::providers::nous_login_token::NousEnv;
use tokio_util::sync::CancellationToken;

const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";

/// The flags of `hermes login` and `hermes auth add` (Hermes's names).
#[derive(Args, Debug, Clone)]
pub struct LoginArgs {
    /// Provider to log in to; only `nous` (Nous Portal) has a login. Also `--provider nous`.
    #[arg(id = "login_provider", value_name = "PROVIDER")]
    pub provider: Option<String>,
    /// Portal base URL (default: HERMES_PORTAL_BASE_URL, NOUS_PORTAL_BASE_URL, or
    /// https://portal.nousresearch.com).
    #[arg(long = "portal-url", value_name = "URL")]
    pub portal_url: Option<String>,
    /// Inference API base URL to record (default: NOUS_INFERENCE_BASE_URL or the Portal's).
    #[arg(long = "inference-url", value_name = "URL")]
    pub inference_url: Option<String>,
    /// OAuth client id (default: hermes-cli).
    #[arg(long = "client-id", value_name = "ID")]
    pub client_id: Option<String>,
    /// OAuth scope to request (default: inference:invoke).
    #[arg(long)]
    pub scope: Option<String>,
    /// Display name for this login in Hermes's credential pool.
    #[arg(long)]
    pub label: Option<String>,
    /// Do not try to open the verification page in a browser.
    #[arg(long = "no-browser")]
    pub no_browser: bool,
    /// Timeout of each request to the Portal, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 15.0)]
    pub timeout: f64,
}

#[derive(Subcommand, Debug)]
pub enum AuthAction {
    /// Log in (`hermes auth add nous`, Python Hermes's name for `hermes login nous`).
    Add {
        #[command(flatten)]
        login: LoginArgs,
        /// Credential type; `nous` has only `oauth`.
        #[arg(long = "type", value_name = "TYPE")]
        auth_type: Option<String>,
    },
    /// Show whether a login is usable (refreshing it if it is about to expire).
    Status {
        /// Provider to check (default: `nous`, the only one with a login).
        #[arg(value_name = "PROVIDER")]
        target: Option<String>,
    },
    /// Remove a provider's stored login.
    Logout {
        /// Provider to log out of, e.g. `nous`.
        #[arg(value_name = "PROVIDER")]
        target: String,
    },
}

/// `hermes login`. `global_provider` is the global `--provider` flag, which Hermes's `hermes
/// login --provider nous` spelling lands in.
pub fn login_command(
    home: &HermesHome,
    args: LoginArgs,
    global_provider: Option<&str>,
) -> anyhow::Result<i32> {
    let provider = chosen_provider(args.provider.as_deref(), global_provider, Some(NOUS));
    if provider.as_deref() != Some(NOUS) {
        eprintln!(
            "hermes: only Nous Portal has a login (`hermes login nous`); `{}` uses an API key in HERMES_HOME/.env",
            provider.unwrap_or_default()
        );
        return Ok(exit_code::CONFIG);
    }
    home.ensure_dirs()?;
    let (env, _) = EnvLookup::load(home)?;
    let ctx = refresh_context(home, &env, args.timeout)?;
    let options = LoginOptions {
        portal_url: args.portal_url,
        inference_url: args.inference_url,
        client_id: args.client_id,
        scope: args.scope,
        label: args.label,
    };
    let browser = if args.no_browser {
        Browser::Never
    } else {
        Browser::IfGraphical
    };
    let on_event = move |event: LoginEvent| print_event(&event, browser);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let cancel = CancellationToken::new();
    let result = runtime.block_on(async {
        tokio::select! {
            result = login(&ctx, &options, &tokio_sleep, &on_event, &cancel) => result,
            _ = tokio::signal::ctrl_c() => {
                cancel.cancel();
                Err(LoginError::Cancelled)
            }
        }
    });
    let mut out = std::io::stdout();
    match result {
        Ok(outcome) => {
            if let Some(backup) = &outcome.corrupt_backup {
                writeln!(
                    out,
                    "note: {} was not valid JSON; it was kept as {}",
                    outcome.saved_to.display(),
                    backup.display()
                )?;
            }
            writeln!(out, "\nLogin successful!")?;
            writeln!(out, "  Auth state: {}", outcome.saved_to.display())?;
            let configured = hermes::config::load(home).config.model.provider;
            if !configured.trim().eq_ignore_ascii_case(NOUS) {
                writeln!(
                    out,
                    "  To use it: hermes config set model.provider nous (then choose a Nous model with model.default)"
                )?;
            }
            Ok(exit_code::OK)
        }
        Err(LoginError::Cancelled) => {
            writeln!(out, "\nLogin cancelled.")?;
            Ok(exit_code::INTERRUPTED)
        }
        Err(err) => {
            writeln!(out, "Login failed: {err}")?;
            Ok(exit_code::INTERNAL)
        }
    }
}

/// `hermes auth …`.
pub fn auth_command(
    home: &HermesHome,
    action: AuthAction,
    global_provider: Option<&str>,
) -> anyhow::Result<i32> {
    match action {
        AuthAction::Add { login, auth_type } => {
            let oauth = auth_type
                .as_deref()
                .is_none_or(|t| t.trim().eq_ignore_ascii_case("oauth"));
            if !oauth {
                eprintln!(
                    "hermes: `nous` logs in with OAuth only; API keys go in HERMES_HOME/.env"
                );
                return Ok(exit_code::CONFIG);
            }
            login_command(home, login, global_provider)
        }
        AuthAction::Status { target } => status_command(home, target.as_deref()),
        AuthAction::Logout { target } => logout_command(home, Some(&target), None),
    }
}

/// `hermes auth status [nous]`: Hermes validates a login by resolving (and if needed
/// refreshing) it; so does this.
fn status_command(home: &HermesHome, provider: Option<&str>) -> anyhow::Result<i32> {
    let provider = chosen_provider(provider, None, Some(NOUS)).unwrap_or_default();
    if provider != NOUS {
        eprintln!("hermes: `hermes auth status` checks the `nous` login only");
        return Ok(exit_code::CONFIG);
    }
    let (env, _) = EnvLookup::load(home)?;
    let ctx = refresh_context(home, &env, 15.0)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let cancel = CancellationToken::new();
    let result = runtime.block_on(fresh_credential(&ctx, RefreshMode::IfNeeded, &cancel));
    let mut out = std::io::stdout();
    match result {
        Ok(credential) => {
            writeln!(out, "nous: logged in")?;
            writeln!(
                out,
                "  inference_base_url: {}",
                credential.inference_base_url
            )?;
            if let Some(at) = credential.expires_at {
                writeln!(out, "  expires_at: {}", at.to_rfc3339())?;
            }
            writeln!(out, "  auth state: {}", ctx.paths.auth_file.display())?;
        }
        Err(RefreshError::NotLoggedIn) => writeln!(out, "nous: logged out")?,
        Err(err) => writeln!(out, "nous: logged out ({err})")?,
    }
    Ok(exit_code::OK)
}

/// `hermes logout [PROVIDER]` (Hermes's `logout_command`): removes the login and, when
/// `config.yaml` selects that provider, resets `model.provider` to `auto`.
pub fn logout_command(
    home: &HermesHome,
    provider: Option<&str>,
    global_provider: Option<&str>,
) -> anyhow::Result<i32> {
    let (env, _) = EnvLookup::load(home)?;
    let paths = AuthPaths::for_home(home, &env.as_fn());
    let config = hermes::config::load(home).config;
    let configured = config.model.provider.trim().to_ascii_lowercase();
    let active = AuthStore::read(&paths.auth_file)
        .ok()
        .and_then(|s| s.active_provider().map(str::to_string));
    let from_config = (configured == NOUS).then(|| configured.clone());
    let Some(target) = chosen_provider(provider, global_provider, None)
        .or(active)
        .or(from_config)
    else {
        println!("No provider is currently logged in.");
        return Ok(exit_code::OK);
    };
    let cleared = {
        let _lock = lock_store(&paths.auth_file)?;
        let mut store = AuthStore::read(&paths.auth_file)?;
        let changed = store.remove_login(&target);
        if changed {
            store.write(&paths.auth_file)?;
        }
        changed
    };
    let reset_config = configured == target;
    if reset_config {
        hermes::config::config_set(home, "model.provider", "auto")?;
        if !config.model.base_url.trim().is_empty() {
            hermes::config::config_set(home, "model.base_url", OPENROUTER_BASE_URL)?;
        }
    }
    let name = if target == NOUS {
        "Nous Portal"
    } else {
        target.as_str()
    };
    if !cleared && !reset_config {
        println!("No auth state found for {name}.");
        return Ok(exit_code::OK);
    }
    println!("Logged out of {name}.");
    if reset_config && env.get("OPENROUTER_API_KEY").is_some() {
        println!("Hermes will use OpenRouter for inference.");
    } else if reset_config {
        println!(
            "Put an API key in HERMES_HOME/.env (e.g. OPENROUTER_API_KEY) or run `hermes login nous` to use hermes."
        );
    } else {
        println!("Model provider configuration was unchanged.");
    }
    Ok(exit_code::OK)
}

fn chosen_provider(
    positional: Option<&str>,
    flag: Option<&str>,
    default: Option<&str>,
) -> Option<String> {
    positional
        .or(flag)
        .or(default)
        .map(|p| p.trim().to_ascii_lowercase())
        .filter(|p| !p.is_empty())
}

fn refresh_context(
    home: &HermesHome,
    env: &EnvLookup,
    timeout_secs: f64,
) -> anyhow::Result<RefreshContext> {
    let lookup = env.as_fn();
    let timeout = if timeout_secs.is_finite() && timeout_secs > 0.0 {
        Duration::from_secs_f64(timeout_secs)
    } else {
        Duration::from_secs(15)
    };
    Ok(RefreshContext {
        paths: AuthPaths::for_home(home, &lookup),
        env: NousEnv::from_env(&lookup),
        client: hermes::util::http::build_client()?,
        timeout,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Browser {
    Never,
    IfGraphical,
}

fn print_event(event: &LoginEvent, browser: Browser) {
    let mut out = std::io::stdout();
    let _ = match event {
        LoginEvent::Starting { portal } => writeln!(
            out,
            "Starting Hermes login via Nous Portal...\nPortal: {portal}"
        ),
        LoginEvent::Verification { url, user_code } => {
            let _ = writeln!(
                out,
                "\nTo continue:\n  1. Open: {url}\n  2. If prompted, enter code: {user_code}"
            );
            if browser == Browser::IfGraphical
                && can_open_graphical_browser(&|k| std::env::var(k).ok())
            {
                if webbrowser::open(url).is_ok() {
                    writeln!(out, "  (Opened browser for verification)")
                } else {
                    writeln!(
                        out,
                        "  Could not open browser automatically — use the URL above."
                    )
                }
            } else {
                Ok(())
            }
        }
        LoginEvent::Waiting { interval_secs } => writeln!(
            out,
            "Waiting for approval (polling every {interval_secs}s)..."
        ),
        LoginEvent::SlowDown { interval_secs } => writeln!(
            out,
            "The Portal asked for slower polling; now every {interval_secs}s."
        ),
        LoginEvent::PortalInferenceUrl { url } => {
            writeln!(out, "Using portal-provided inference URL: {url}")
        }
    };
    let _ = out.flush();
}

/// Hermes's `_is_remote_session` and `_can_open_graphical_browser`: no browser over SSH or
/// in a browser-only cloud shell, none named as a console browser, and on Linux none without
/// a display server (a text browser would take over the terminal).
fn can_open_graphical_browser(env: &dyn Fn(&str) -> Option<String>) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.trim().is_empty());
    let remote = [
        "SSH_CLIENT",
        "SSH_TTY",
        "CLOUD_SHELL",
        "CODESPACES",
        "CODESPACE_NAME",
        "GITPOD_WORKSPACE_ID",
        "REPL_ID",
        "STACKBLITZ",
    ];
    if remote.iter().any(|k| set(k)) {
        return false;
    }
    let browser = env("BROWSER").unwrap_or_default();
    let console = [
        "w3m",
        "lynx",
        "links",
        "links2",
        "elinks",
        "www-browser",
        "browsh",
    ];
    let named = browser
        .split_whitespace()
        .next()
        .and_then(|cmd| std::path::Path::new(cmd).file_name())
        .map(|n| n.to_string_lossy().to_ascii_lowercase());
    if named.is_some_and(|n| console.contains(&n.as_str())) {
        return false;
    }
    if cfg!(target_os = "linux") && !set("DISPLAY") && !set("WAYLAND_DISPLAY") && browser.is_empty()
    {
        return false;
    }
    true
}

#[cfg(test)]
#[path = "login_commands_tests.rs"]
mod tests;
