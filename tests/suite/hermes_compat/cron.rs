//! Scheduled jobs on one `HERMES_HOME`, hermes → Python → hermes: jobs hermes creates are
//! listed by Python Hermes's `hermes cron list` with the same schedules, and Python's own
//! `compute_next_run` agrees with the next run hermes stored (same zone from `config.yaml`);
//! Python pauses one and creates another, hermes sees both; hermes runs Python's job
//! (`hermes cron run` + `hermes cron tick` against the scripted provider) and Python reads
//! the result: its ledger rows, the output file, the job's `last_status`.

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

fn job_id(listing: &str, name: &str) -> Option<String> {
    // Both programs print `  <id> [state]` and then `    Name:      <name>`.
    let lines: Vec<&str> = listing.lines().collect();
    lines.windows(2).find_map(|w| {
        let id = w[0].split_whitespace().next()?;
        let named = w[1].trim() == format!("Name:      {name}");
        (named && id.len() == 12).then(|| id.to_string())
    })
}

#[test]
fn both_programs_share_jobs_schedules_runs_and_the_ledger() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("cron", py, ScriptedServer::start_echo_on_own_thread());
    h.write_provider_config();
    let config = std::fs::read_to_string(h.path("config.yaml")).unwrap();
    std::fs::write(
        h.path("config.yaml"),
        format!("{config}timezone: America/New_York\n"),
    )
    .unwrap();
    let work = h.work("project");

    h.hermes(
        &work,
        &[
            "cron",
            "create",
            "every 2h",
            "Check the build",
            "--name",
            "build",
        ],
    )
    .ok();
    h.hermes(
        &work,
        &[
            "cron",
            "create",
            "0 9 * * 1-5",
            "Summarise new issues",
            "--name",
            "digest",
        ],
    )
    .ok();
    h.hermes(
        &work,
        &["cron", "create", "30m", "Stretch", "--name", "stretch"],
    )
    .ok();

    let python = h.python(&work, &["cron", "list"]).ok();
    for (name, schedule) in [
        ("build", "every 120m"),
        ("digest", "0 9 * * 1-5"),
        ("stretch", "once in 30m"),
    ] {
        h.check(job_id(&python.stdout, name).is_some(), || {
            format!(
                "Python does not list hermes's job {name}:\n{}",
                python.stdout
            )
        });
        h.check(
            python.stdout.contains(&format!("Schedule:  {schedule}")),
            || {
                format!(
                    "Python shows another schedule for {name}:\n{}",
                    python.stdout
                )
            },
        );
    }
    let agree = h.python_code(
        "import json\nfrom cron.jobs import load_jobs, compute_next_run\n\
         j = [x for x in load_jobs() if x['name'] == 'digest'][0]\n\
         print(json.dumps({'stored': j['next_run_at'], 'python': compute_next_run(j['schedule'])}))",
    )
    .ok();
    let value: serde_json::Value = serde_json::from_str(agree.stdout.trim()).unwrap_or_default();
    h.check(
        value["stored"].is_string() && value["stored"] == value["python"],
        || format!("next run of the weekday job differs: {}", agree.stdout),
    );

    let digest = job_id(&python.stdout, "digest").unwrap_or_default();
    h.python(&work, &["cron", "pause", &digest]).ok();
    h.python(
        &work,
        &[
            "cron",
            "create",
            "every 1h",
            "Report the queue",
            "--name",
            "py-job",
        ],
    )
    .ok();
    let ours = h.hermes(&work, &["cron", "list", "--all"]).ok();
    h.check(ours.stdout.contains(&format!("{digest} [paused]")), || {
        format!("hermes does not see Python's pause:\n{}", ours.stdout)
    });
    let py_job = job_id(&ours.stdout, "py-job");
    h.check(py_job.is_some(), || {
        format!("hermes does not list Python's job:\n{}", ours.stdout)
    });
    let py_job = py_job.unwrap_or_default();

    h.hermes(&work, &["cron", "run", "py-job"]).ok();
    let ticked = h.hermes(&work, &["cron", "tick"]).ok();
    h.check(ticked.stdout.contains("1 job(s) due."), || {
        format!("tick: {}", ticked.stdout)
    });
    let outputs: Vec<_> = std::fs::read_dir(h.path(&format!("cron/output/{py_job}")))
        .map(|d| d.flatten().collect())
        .unwrap_or_default();
    h.check(outputs.len() == 1, || {
        format!("{} output files for Python's job", outputs.len())
    });

    let seen = h.python_code(&format!(
        "import json\nfrom cron.executions import list_executions\nfrom cron.jobs import get_job\n\
         rows = list_executions(job_id='{py_job}')\nj = get_job('{py_job}')\n\
         print(json.dumps({{'rows': [r['status'] for r in rows], 'last': j['last_status'], \
         'next': j['next_run_at'], 'completed': j['repeat']['completed']}}))"
    ))
    .ok();
    let value: serde_json::Value = serde_json::from_str(seen.stdout.trim()).unwrap_or_default();
    h.check(value["rows"] == serde_json::json!(["completed"]), || {
        format!("Python reads hermes's ledger as {}", seen.stdout)
    });
    h.check(value["last"] == "ok" && value["completed"] == 1, || {
        format!("Python reads the run as {}", seen.stdout)
    });
    let python_runs = h.python(&work, &["cron", "runs"]).ok();
    h.check(python_runs.stdout.contains("completed"), || {
        format!("Python's `cron runs`:\n{}", python_runs.stdout)
    });
    h.python(&work, &["cron", "remove", &py_job]).ok();
    let ours = h.hermes(&work, &["cron", "list", "--all"]).ok();
    h.check(job_id(&ours.stdout, "py-job").is_none(), || {
        format!("Python's remove is not seen:\n{}", ours.stdout)
    });
    h.finish();
}
