//! `hermes sessions …` and `hermes skills …`: flag parsing and printing only; the work is in
//! `hermes::store::cli` and `hermes::skills::cli`.

use clap::Subcommand;
use hermes::config::EnvLookup;
use hermes::config::HermesHome;
use hermes::config::load;
use hermes::headless::exit_code;

#[derive(Subcommand, Debug)]
pub enum SkillsAction {
    /// Every installed skill, by category.
    List,
    /// One skill's details and SKILL.md.
    Show { name: String },
    /// Install a skill from a local directory or SKILL.md file.
    Install {
        source: String,
        /// Install under this name instead of the skill's own.
        #[arg(long)]
        name: Option<String>,
        /// Install under this category directory.
        #[arg(long)]
        category: Option<String>,
        /// Replace an installed skill of the same name.
        #[arg(long)]
        force: bool,
    },
    /// Remove an installed skill.
    Remove { name: String },
    /// Clear a bundled skill's sync record so updates apply again (the copy is kept).
    Reset {
        name: String,
        /// Also replace your copy with the bundled version.
        #[arg(long)]
        restore: bool,
    },
}

#[derive(Subcommand, Debug)]
pub enum SessionsAction {
    /// Recent sessions, newest first.
    List {
        /// Only sessions whose title, id or first message contains TEXT.
        #[arg(long)]
        search: Option<String>,
        #[arg(long, default_value_t = 30)]
        limit: usize,
    },
    /// A session's details and conversation.
    Show { id: String },
    /// Print a session as markdown or JSON.
    Export {
        id: String,
        #[arg(long, value_enum, default_value = "md")]
        format: ExportArg,
    },
    /// Delete a session and its messages.
    Delete { id: String },
    /// Delete sessions older than DAYS days.
    Prune {
        #[arg(long = "older-than", value_name = "DAYS")]
        older_than: u32,
    },
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum ExportArg {
    Md,
    Json,
}

pub fn sessions_command(home: &HermesHome, action: SessionsAction) -> anyhow::Result<i32> {
    use hermes::store::cli;
    let path = home.state_db_path();
    let reads_only = matches!(
        action,
        SessionsAction::List { .. } | SessionsAction::Show { .. } | SessionsAction::Export { .. }
    );
    let store = match hermes::store::SessionStore::open(&path) {
        Ok(store) => store,
        // A read-only home (or a database file without write permission) still lists.
        Err(hermes::store::StoreError::Open { .. } | hermes::store::StoreError::Io { .. })
            if reads_only =>
        {
            hermes::store::SessionStore::open_read_only(&path)?
        }
        Err(e) => return Err(e.into()),
    };
    let text = match action {
        SessionsAction::List { search, limit } => cli::list(&store, search.as_deref(), limit)?,
        SessionsAction::Show { id } => cli::show_with(&store, &id, &redactor(home)?)?,
        SessionsAction::Export { id, format } => {
            let format = match format {
                ExportArg::Md => cli::ExportFormat::Markdown,
                ExportArg::Json => cli::ExportFormat::Json,
            };
            cli::export_with(&store, &id, format, &redactor(home)?)?
        }
        SessionsAction::Delete { id } => cli::delete(&store, &id)?,
        SessionsAction::Prune { older_than } => cli::prune(&store, older_than)?,
    };
    print!("{text}");
    Ok(exit_code::OK)
}

/// `security.redact_secrets` and the `.env` values, for exports.
fn redactor(home: &HermesHome) -> anyhow::Result<hermes::util::redact::Redactor> {
    use hermes::util::redact::RedactSecrets;
    let (env, _) = EnvLookup::load(home)?;
    let switch = RedactSecrets::from(load::load(home).config.security.redact_secrets);
    Ok(hermes::util::redact::Redactor::new(
        switch,
        env.secret_values(),
    ))
}

pub fn skills_command(home: &HermesHome, action: SkillsAction) -> anyhow::Result<i32> {
    use hermes::skills::cli;
    home.ensure_dirs()?;
    let report = hermes::skills::bundled::sync_bundled(&home.skills_dir());
    for error in &report.errors {
        eprintln!("warning: bundled skills: {error}");
    }
    let loaded = load::load(home);
    let mut loader = hermes::skills::catalog::SkillLoader::new(home.skills_dir());
    loader.external_dirs = loaded
        .config
        .skills
        .external_dirs
        .iter()
        .map(std::path::PathBuf::from)
        .collect();
    loader.bundles_dir = Some(home.root().join("skill-bundles"));
    let memory = hermes::knowledge::MemorySettings::from_config(&loaded.config.memory);
    loader.availability = hermes::engine::spec_parts::default_availability(
        home,
        &std::sync::Arc::new(loader.clone()),
        &memory,
    );
    let catalog = loader.load();
    let text = match action {
        SkillsAction::List => {
            use std::io::IsTerminal as _;
            let columns = std::io::stdout()
                .is_terminal()
                .then(|| crossterm::terminal::size().ok())
                .flatten()
                .map(|(w, _)| usize::from(w));
            cli::list_for_width(&catalog, columns)
        }
        SkillsAction::Show { name } => cli::show(&catalog, &name)?,
        SkillsAction::Install {
            source,
            name,
            category,
            force,
        } => cli::install(
            &catalog,
            &source,
            &cli::InstallOptions {
                name,
                category,
                force,
            },
        )?,
        SkillsAction::Remove { name } => cli::remove(&catalog, &name)?,
        SkillsAction::Reset { name, restore } => {
            let mode = if restore {
                hermes::skills::ResetMode::Restore
            } else {
                hermes::skills::ResetMode::KeepCopy
            };
            hermes::skills::reset_bundled(&home.skills_dir(), &name, mode)?
        }
    };
    println!("{}", text.trim_end());
    Ok(exit_code::OK)
}
