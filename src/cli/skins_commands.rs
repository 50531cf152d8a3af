//! `hermes skins …`: list the skins, show one with its inherited values filled in, or
//! validate a skin file. Parsing and printing only; the work is in `hermes::theme::skins`.
//! Results go to stdout, problems to stderr; `validate` exits 2 when the file has errors.

use std::io::Write;
use std::path::Path;
use std::path::PathBuf;

use clap::Subcommand;
use hermes::config::HermesHome;
use hermes::headless::exit_code;
use hermes::theme::ColorDepth;
use hermes::theme::ThemeMode;
use hermes::theme::skins;

#[derive(Subcommand, Debug)]
pub enum SkinsAction {
    /// List the built-in skins and those in HERMES_HOME/skins (the active one is marked).
    List,
    /// Print a skin as YAML with every inherited value filled in.
    Show { name: String },
    /// Check a skin file: YAML, key names, colour values (exit 2 on errors).
    Validate { file: PathBuf },
}

pub fn skins_command(home: &HermesHome, action: SkinsAction) -> anyhow::Result<i32> {
    let skins_dir = home.root().join("skins");
    let mut out = std::io::stdout();
    match action {
        SkinsAction::List => {
            let active = hermes::config::load(home).config.display.skin;
            list(&skins_dir, active.trim(), &mut out)?;
            Ok(exit_code::OK)
        }
        SkinsAction::Show { name } => {
            let options = skins::LoadOptions {
                depth: ColorDepth::TrueColor,
                background: None,
                mode: ThemeMode::Dark,
            };
            let (theme, notices) = skins::load(&skins_dir, &name, &options);
            for notice in &notices {
                eprintln!("note: {notice}");
            }
            if theme.name != name {
                return Ok(exit_code::CONFIG);
            }
            write!(out, "{}", skins::resolved_yaml(&theme))?;
            Ok(exit_code::OK)
        }
        SkinsAction::Validate { file } => validate(&file, &mut out),
    }
}

fn list(skins_dir: &Path, active: &str, out: &mut dyn Write) -> std::io::Result<()> {
    let all = skins::list(skins_dir);
    let width = all
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(0);
    for skin in all {
        let marker = if skin.name == active { "*" } else { " " };
        let source = match &skin.source {
            skins::SkinSource::BuiltIn => "built-in".to_string(),
            skins::SkinSource::User(path) => path.display().to_string(),
        };
        writeln!(
            out,
            "{marker} {:<width$}  {}  ({source})",
            skin.name, skin.description
        )?;
    }
    writeln!(
        out,
        "\nSwitch with /skin NAME in the TUI, or: hermes config set display.skin NAME"
    )
}

fn validate(file: &Path, out: &mut dyn Write) -> anyhow::Result<i32> {
    match skins::validate_file(file) {
        Ok(warnings) => {
            for warning in &warnings {
                eprintln!("warning: {warning}");
            }
            writeln!(out, "{}: ok", file.display())?;
            Ok(exit_code::OK)
        }
        Err(errors) => {
            for error in &errors {
                eprintln!("error: {error}");
            }
            Ok(exit_code::CONFIG)
        }
    }
}
