//! `hermes config show|get|set`: print the effective configuration or one value, or set
//! one value keeping the file's comments. Parsing and printing only; the work is in
//! `hermes::config::view` and `hermes::config::edit`.

use std::io::Write;

use clap::Subcommand;
use hermes::config::HermesHome;
use hermes::config::edit;
use hermes::headless::exit_code;

#[derive(Subcommand, Debug)]
pub enum ConfigAction {
    /// Print the effective configuration (secrets masked).
    Show,
    /// Print one value, e.g. `hermes config get model.default`.
    Get { key: String },
    /// Set one value, keeping the file's comments and other keys.
    Set { key: String, value: String },
}

pub fn config_command(home: &HermesHome, action: ConfigAction) -> anyhow::Result<i32> {
    let mut stdout = std::io::stdout();
    match action {
        ConfigAction::Show => {
            write!(stdout, "{}", hermes::config::view::config_show(home)?)?;
            // Provider names are checked here: the config layer does not know providers.
            let loaded = hermes::config::load::load(home);
            for warning in hermes::providers::config_check::provider_warnings(&loaded) {
                writeln!(stdout, "# warning: {warning}")?;
            }
        }
        ConfigAction::Get { key } => {
            writeln!(stdout, "{}", hermes::config::view::config_get(home, &key)?)?
        }
        ConfigAction::Set { key, value } => {
            let outcome = edit::config_set(home, &key, &value)?;
            for notice in outcome.notices {
                say(&format!("note: {notice}"));
            }
            writeln!(stdout, "{key} = {value}")?;
        }
    }
    Ok(exit_code::OK)
}

/// One line on stderr; not `eprintln!`, which panics when stderr is gone.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}
