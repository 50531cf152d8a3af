//! `hermes hooks …` and `hermes checkpoints …`: flag parsing and printing only; the work is in
//! `hermes::safety::hooks::cli` and `hermes::safety::checkpoints::cli`.

use std::path::PathBuf;

use clap::Subcommand;
use hermes::config::HermesHome;
use hermes::config::load;
use hermes::headless::exit_code;

#[derive(Subcommand, Debug)]
pub enum HooksAction {
    /// Configured shell hooks with matcher, timeout and consent status.
    List,
    /// Fire the hooks of EVENT with a synthetic payload and show what each returned.
    Test {
        event: String,
        /// For tool events: the tool name the matcher sees.
        #[arg(long = "for-tool", value_name = "TOOL")]
        for_tool: Option<String>,
        /// A JSON object merged into the synthetic payload.
        #[arg(long = "payload-file", value_name = "FILE")]
        payload_file: Option<PathBuf>,
    },
    /// Forget the consent given to COMMAND (asked again on its next run).
    Revoke { command: String },
    /// Check every hook: executable, consent, changed since consent, output, run time.
    Doctor,
}

#[derive(Subcommand, Debug)]
pub enum CheckpointsAction {
    /// Checkpoints of DIR (default: every directory with checkpoints).
    List { dir: Option<PathBuf> },
    /// Remove checkpoints of directories that no longer exist (and, with --older-than,
    /// of directories untouched for DAYS days), then compact the rest.
    Prune {
        #[arg(long = "older-than", value_name = "DAYS")]
        older_than: Option<u64>,
    },
}

pub fn hooks_command(home: &HermesHome, action: HooksAction) -> anyhow::Result<i32> {
    use hermes::safety::hooks::cli;
    let loaded = load::load(home);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let text = runtime.block_on(async {
        match action {
            HooksAction::List => Ok(cli::list(home, &loaded.config).await),
            HooksAction::Test {
                event,
                for_tool,
                payload_file,
            } => {
                cli::test(
                    home,
                    &loaded.config,
                    &event,
                    for_tool.as_deref(),
                    payload_file.as_deref(),
                )
                .await
            }
            HooksAction::Revoke { command } => cli::revoke(home, &command),
            HooksAction::Doctor => Ok(cli::doctor(home, &loaded.config).await),
        }
    })?;
    print!("{text}");
    Ok(exit_code::OK)
}

pub fn checkpoints_command(home: &HermesHome, action: CheckpointsAction) -> anyhow::Result<i32> {
    use hermes::safety::checkpoints::CheckpointSettings;
    use hermes::safety::checkpoints::CheckpointStore;
    use hermes::safety::checkpoints::PruneOptions;
    use hermes::safety::checkpoints::cli;
    let loaded = load::load(home);
    let store = CheckpointStore::new(
        home.root().join("checkpoints"),
        CheckpointSettings::from_config(&loaded.config.checkpoints),
    );
    let text = match action {
        CheckpointsAction::List { dir } => {
            let dir = match dir {
                Some(dir) => Some(std::path::absolute(dir)?),
                None => None,
            };
            cli::list(&store, dir.as_deref())?
        }
        CheckpointsAction::Prune { older_than } => cli::prune(
            &store,
            PruneOptions {
                older_than_days: older_than,
                ..PruneOptions::default()
            },
        )?,
    };
    print!("{text}");
    Ok(exit_code::OK)
}
