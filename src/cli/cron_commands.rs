//! `hermes cron …`: create, list, edit, pause, resume, run, remove jobs; `status` (is a
//! scheduler alive?), `tick` (run what is due once, for the system's crontab), `runs` /
//! `history` (the ledger), `daemon` (a scheduler in the foreground) and `install-service`
//! (prints a systemd user unit and a launchd plist). Parsing and printing only; the work is
//! in `hermes::cron`.

use std::sync::Arc;

use clap::Subcommand;
use hermes::config::EnvLookup;
use hermes::config::HermesHome;
use hermes::cron::CronHome;
use hermes::cron::Job;
use hermes::cron::delivery::Delivery;
use hermes::cron::delivery::DeliverySink;
use hermes::cron::delivery::Inbox;
use hermes::cron::ledger::Ledger;
use hermes::cron::ops;
use hermes::cron::ops::IncludeDisabled;
use hermes::cron::ops::JobUpdate;
use hermes::cron::ops::NewJob;
use hermes::cron::ops::SkillEdit;
use hermes::cron::scheduler::Scheduler;
use hermes::cron::ticker;
use hermes::engine::cron_run::EngineJobRunner;
use hermes::headless::exit_code;

#[derive(Subcommand, Debug)]
pub enum CronAction {
    /// List jobs (paused and finished ones too with --all).
    List {
        #[arg(long)]
        all: bool,
    },
    #[command(alias = "add")]
    /// Create a job: SCHEDULE is `30m`, `every 2h`, `0 9 * * *`, `every day 7am` or an ISO time.
    Create {
        schedule: String,
        prompt: Option<String>,
        #[arg(long = "skill", value_name = "NAME")]
        skills: Vec<String>,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        repeat: Option<i64>,
        #[arg(long)]
        deliver: Option<String>,
        #[arg(long)]
        workdir: Option<String>,
        #[arg(long)]
        script: Option<String>,
        #[arg(long)]
        no_agent: bool,
        #[arg(long = "context-from", value_name = "JOB")]
        context_from: Vec<String>,
    },
    /// Change a job (only the fields given).
    Edit {
        job: String,
        #[arg(long)]
        schedule: Option<String>,
        #[arg(long)]
        prompt: Option<String>,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        deliver: Option<String>,
        #[arg(long = "skill", value_name = "NAME")]
        skills: Vec<String>,
        #[arg(long = "add-skill", value_name = "NAME")]
        add_skills: Vec<String>,
        #[arg(long = "remove-skill", value_name = "NAME")]
        remove_skills: Vec<String>,
        #[arg(long)]
        clear_skills: bool,
        #[arg(long)]
        workdir: Option<String>,
        #[arg(long)]
        script: Option<String>,
        #[arg(long)]
        repeat: Option<i64>,
        /// Make it a script-only job (its script's stdout is the message).
        #[arg(long, conflicts_with = "agent")]
        no_agent: bool,
        /// Make a script-only job an agent job again.
        #[arg(long)]
        agent: bool,
    },
    Pause {
        job: String,
    },
    Resume {
        job: String,
    },
    /// Make a job due now: it runs at the scheduler's next tick.
    Run {
        job: String,
    },
    Remove {
        job: String,
    },
    /// Whether a scheduler is alive for this home, and the next jobs.
    Status,
    /// Run whatever is due once and wait for it (for `* * * * * hermes cron tick`).
    Tick,
    /// The execution ledger, newest first.
    #[command(alias = "history")]
    Runs {
        job: Option<String>,
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
    /// Run the scheduler in the foreground until Ctrl+C.
    Daemon,
    /// Print a systemd user unit and a launchd plist that run `hermes cron daemon`.
    InstallService,
}

pub fn cron_command(home: &HermesHome, action: CronAction) -> anyhow::Result<i32> {
    let (env, _) = EnvLookup::load(home)?;
    let config = hermes::config::load(home).config;
    let cron = Arc::new(CronHome::open(home, &config, &env));
    if let Some(warning) = &cron.zone.warning {
        eprintln!("warning: {warning}");
    }
    let result = match action {
        CronAction::List { all } => list(&cron, all),
        CronAction::Create {
            schedule,
            prompt,
            skills,
            name,
            repeat,
            deliver,
            workdir,
            script,
            no_agent,
            context_from,
        } => ops::create(
            &cron,
            NewJob {
                prompt: prompt.unwrap_or_default(),
                schedule,
                name,
                repeat,
                deliver,
                skills,
                script,
                no_agent,
                context_from,
                workdir,
                ..NewJob::default()
            },
        )
        .map(|job| {
            println!("Created job {} ({})", job.id(), job.name());
            print_job(&cron, &job);
            warn_if_no_ticker(&cron);
        }),
        CronAction::Edit {
            job,
            schedule,
            prompt,
            name,
            deliver,
            skills,
            add_skills,
            remove_skills,
            clear_skills,
            workdir,
            script,
            repeat,
            no_agent,
            agent,
        } => {
            let no_agent = (no_agent || agent).then_some(no_agent);
            let skills = if clear_skills {
                SkillEdit::Set(Vec::new())
            } else if !skills.is_empty() {
                SkillEdit::Set(skills)
            } else if !add_skills.is_empty() || !remove_skills.is_empty() {
                SkillEdit::Change {
                    add: add_skills,
                    remove: remove_skills,
                }
            } else {
                SkillEdit::Keep
            };
            let change = JobUpdate {
                prompt,
                schedule,
                name,
                deliver,
                skills,
                workdir,
                script,
                repeat,
                no_agent,
                ..JobUpdate::default()
            };
            ops::update(&cron, &job, change).map(|job| print_job(&cron, &job))
        }
        CronAction::Pause { job } => {
            ops::pause(&cron, &job, None).map(|j| println!("Paused {} ({})", j.id(), j.name()))
        }
        CronAction::Resume { job } => ops::resume(&cron, &job).map(|j| {
            println!(
                "Resumed {} ({}); next run {}",
                j.id(),
                j.name(),
                next_local(&cron, &j)
            )
        }),
        CronAction::Run { job } => ops::trigger(&cron, &job).map(|j| {
            println!(
                "Job {} ({}) will run at the scheduler's next tick.",
                j.id(),
                j.name()
            );
            warn_if_no_ticker(&cron);
        }),
        CronAction::Remove { job } => {
            ops::remove(&cron, &job).map(|j| println!("Removed {} ({})", j.id(), j.name()))
        }
        CronAction::Status => status(&cron),
        CronAction::Tick => return tick(cron, &config),
        CronAction::Runs { job, limit } => runs(&cron, job.as_deref(), limit),
        CronAction::Daemon => return daemon(cron, &config),
        CronAction::InstallService => {
            install_service(home);
            Ok(())
        }
    };
    match result {
        Ok(()) => Ok(exit_code::OK),
        Err(err) => {
            eprintln!("hermes cron: {err}");
            Ok(exit_code::CONFIG)
        }
    }
}

fn next_local(cron: &CronHome, job: &Job) -> String {
    match job.next_run_at().and_then(|t| cron.zone.parse(t)) {
        Some(at) => format!("{} ({})", cron.zone.local_minutes(at), cron.zone.name),
        None => "—".to_string(),
    }
}

fn print_job(cron: &CronHome, job: &Job) {
    let state = match job.state() {
        "paused" => "[paused]",
        "completed" => "[completed]",
        "error" => "[error]",
        _ if job.enabled() => "[active]",
        _ => "[disabled]",
    };
    println!("  {} {state}", job.id());
    println!("    Name:      {}", job.name());
    let words = job
        .schedule()
        .map(|s| hermes::cron::next::describe(s, &cron.zone))
        .unwrap_or_default();
    println!("    Schedule:  {}  ({words})", job.schedule_display());
    println!(
        "    Repeat:    {}",
        hermes::tools::cronjob::repeat_display(job)
    );
    println!("    Next run:  {}", next_local(cron, job));
    println!("    Deliver:   {}", job.deliver());
    let skills = job.skills();
    if !skills.is_empty() {
        println!("    Skills:    {}", skills.join(", "));
    }
    for (label, key) in [
        ("Script", "script"),
        ("Workdir", "workdir"),
        ("Profile", "profile"),
    ] {
        if let Some(value) = job.text(key) {
            println!("    {label}:{}{value}", " ".repeat(10 - label.len()));
        }
    }
    if job.no_agent() {
        println!("    Mode:      no-agent (script stdout delivered directly)");
    }
    if let Some(status) = job.text("last_status") {
        let detail = match status {
            "ok" => "ok".to_string(),
            other => format!("{other}: {}", job.text("last_error").unwrap_or("?")),
        };
        println!(
            "    Last run:  {}  {detail}",
            job.last_run_at().unwrap_or("?")
        );
    }
    if let Some(problem) = job.text("last_delivery_error") {
        println!("    Delivery:  {problem}");
    }
}

fn warn_if_no_ticker(cron: &CronHome) {
    let status = ticker::status(&cron.paths, cron.now());
    if !status.alive() {
        println!("\n{}", status.describe());
    }
}

fn list(cron: &CronHome, all: bool) -> Result<(), hermes::cron::CronError> {
    let include = if all {
        IncludeDisabled::Yes
    } else {
        IncludeDisabled::No
    };
    let jobs = ops::list(cron, include)?;
    if jobs.is_empty() {
        println!("No scheduled jobs.");
        println!("Create one with 'hermes cron create ...' or the /cron command in chat.");
    }
    for job in &jobs {
        print_job(cron, job);
        println!();
    }
    println!("{}", ticker::status(&cron.paths, cron.now()).describe());
    Ok(())
}

fn status(cron: &CronHome) -> Result<(), hermes::cron::CronError> {
    let status = ticker::status(&cron.paths, cron.now());
    println!("{}", status.describe());
    println!("Time zone: {}", cron.zone.name);
    let mut jobs: Vec<(jiff::Timestamp, Job)> = ops::list(cron, IncludeDisabled::No)?
        .into_iter()
        .filter_map(|j| {
            j.next_run_at()
                .and_then(|t| cron.zone.parse(t))
                .map(|at| (at, j))
        })
        .collect();
    jobs.sort_by_key(|(at, _)| *at);
    println!("{} active job(s).", jobs.len());
    for (at, job) in jobs.iter().take(5) {
        println!(
            "  next: {}  {} ({})",
            cron.zone.local_minutes(*at),
            job.name(),
            job.id()
        );
    }
    Ok(())
}

fn runs(cron: &CronHome, job: Option<&str>, limit: usize) -> Result<(), hermes::cron::CronError> {
    let id = match job {
        Some(reference) => Some(ops::find(cron, reference)?.id().to_string()),
        None => None,
    };
    let ledger = Ledger::open(&cron.paths.ledger)?;
    let rows = ledger.list(id.as_deref(), limit)?;
    if rows.is_empty() {
        println!("No executions recorded.");
    }
    for row in rows {
        let mut line = format!(
            "{}  {:<9}  job={}  source={}  {}",
            row.id, row.status, row.job_id, row.source, row.claimed_at
        );
        if let Some(ms) = row.duration_ms {
            line.push_str(&format!("  {:.1}s", ms as f64 / 1000.0));
        }
        if let (Some(i), Some(o)) = (row.input_tokens, row.output_tokens) {
            line.push_str(&format!("  tokens {i}/{o}"));
        }
        if let Some(error) = row.error {
            line.push_str(&format!("\n    {}", error.lines().next().unwrap_or("")));
        }
        println!("{line}");
    }
    Ok(())
}

/// Prints each delivery as it is kept for the TUI.
struct PrintingInbox(Inbox);

impl DeliverySink for PrintingInbox {
    fn deliver(&self, delivery: Delivery) {
        println!(
            "[{}] {} ({}) finished; result kept for the next hermes start ({})",
            delivery.at, delivery.job_name, delivery.job_id, delivery.output_path
        );
        self.0.deliver(delivery);
    }
}

fn scheduler(cron: Arc<CronHome>) -> anyhow::Result<Scheduler> {
    let runner = Arc::new(EngineJobRunner {
        inactivity: cron.settings.inactivity_timeout,
    });
    let sink = Arc::new(PrintingInbox(Inbox::new(&cron.paths.deliveries)));
    Ok(Scheduler::new(cron, runner, sink)?)
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?)
}

fn tick(cron: Arc<CronHome>, _config: &hermes::config::Config) -> anyhow::Result<i32> {
    let scheduler = scheduler(Arc::clone(&cron))?;
    runtime()?.block_on(async {
        let cancel = tokio_util::sync::CancellationToken::new();
        let mut runs = tokio::task::JoinSet::new();
        let report = scheduler.tick(&mut runs, &cancel)?;
        if report.skipped {
            println!("Another scheduler is ticking this home right now; nothing done.");
            return Ok(exit_code::OK);
        }
        if report.recovered_unknown > 0 {
            println!(
                "{} interrupted execution(s) marked unknown.",
                report.recovered_unknown
            );
        }
        println!("{} job(s) due.", report.started.len());
        while runs.join_next().await.is_some() {}
        ticker::beat(&cron.paths, cron.now(), ticker::TickOutcome::Succeeded);
        Ok(exit_code::OK)
    })
}

fn daemon(cron: Arc<CronHome>, _config: &hermes::config::Config) -> anyhow::Result<i32> {
    let scheduler = scheduler(Arc::clone(&cron))?;
    runtime()?.block_on(async {
        let cancel = tokio_util::sync::CancellationToken::new();
        let stop = cancel.clone();
        tokio::spawn(async move {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
            }
            stop.cancel();
        });
        let status = ticker::status(&cron.paths, cron.now());
        if status.lock_held {
            println!("Another hermes is the scheduler for {} ({}); standing by to take over.", cron.paths.home.display(), status.describe());
        } else {
            println!("hermes cron daemon: scheduling jobs for {} in {} (Ctrl+C stops).", cron.paths.home.display(), cron.zone.name);
        }
        scheduler.run_forever(cancel).await;
        println!("hermes cron daemon: stopped.");
        Ok(exit_code::OK)
    })
}

fn install_service(home: &HermesHome) {
    let exe = std::env::current_exe()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| "hermes".into());
    let home_dir = home.base().display().to_string();
    let profile = home
        .profile()
        .map(|p| format!(" --profile {p}"))
        .unwrap_or_default();
    println!(
        "# systemd user unit: save as ~/.config/systemd/user/hermes-cron.service, then\n#   systemctl --user daemon-reload && systemctl --user enable --now hermes-cron\n"
    );
    println!(
        "[Unit]\nDescription=hermes cron scheduler\nAfter=network-online.target\n\n[Service]\nEnvironment=HERMES_HOME={home_dir}\nExecStart={exe}{profile} cron daemon\nRestart=on-failure\nRestartSec=10\n\n[Install]\nWantedBy=default.target\n"
    );
    println!(
        "# launchd agent (macOS): save as ~/Library/LaunchAgents/ai.hermes.cron.plist, then\n#   launchctl load -w ~/Library/LaunchAgents/ai.hermes.cron.plist\n"
    );
    let args: String = std::iter::once(exe)
        .chain(
            home.profile()
                .map(|p| vec!["--profile".to_string(), p.to_string()])
                .unwrap_or_default(),
        )
        .chain(["cron".to_string(), "daemon".to_string()])
        .map(|a| format!("    <string>{a}</string>\n"))
        .collect();
    println!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n  <key>Label</key><string>ai.hermes.cron</string>\n  <key>ProgramArguments</key>\n  <array>\n{args}  </array>\n  <key>EnvironmentVariables</key>\n  <dict><key>HERMES_HOME</key><string>{home_dir}</string></dict>\n  <key>RunAtLoad</key><true/>\n  <key>KeepAlive</key><true/>\n</dict>\n</plist>"
    );
}
