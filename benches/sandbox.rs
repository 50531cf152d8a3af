//! Sandbox set-up overhead per command (run: `cargo bench --bench sandbox`): `bash -c true`
//! spawned and waited for, unconfined and confined, 400 times each, interleaved. The confined
//! time includes everything a real command pays: working out the rules for this user's home
//! and hermes home (listing the chain directories), building the Landlock ruleset, and
//! applying it in the child. Budget: p50 overhead ≤ 2 ms.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;
use std::time::Instant;

use hermes::safety::classify::ShellContext;
use hermes::safety::sandbox::Sandbox;
use hermes::safety::sandbox::SandboxSettings;
use hermes::safety::sandbox::Support;
use hermes::util::process::StdinMode;
use hermes::util::process::spawn_confined;

const RUNS: usize = 400;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

fn main() {
    let support = Support::probe();
    println!("support: {support:?}");
    let sandbox = Sandbox::new(
        SandboxSettings::default(),
        support,
        ShellContext::from_env(),
    );
    assert!(
        sandbox.is_active(),
        "no sandbox here: {}",
        sandbox.status_line()
    );
    let cwd = std::env::current_dir().unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut plain = Vec::with_capacity(RUNS);
    let mut confined = Vec::with_capacity(RUNS);
    let mut setup_only = Vec::with_capacity(RUNS);
    rt.block_on(async {
        for _ in 0..RUNS {
            let started = Instant::now();
            let child = spawn_confined("true", &cwd, StdinMode::Null, &[], None).unwrap();
            assert!(child.wait_with_output().await.unwrap().status.success());
            plain.push(started.elapsed());

            let started = Instant::now();
            let confine = sandbox.confine(&cwd).unwrap();
            setup_only.push(started.elapsed());
            let child =
                spawn_confined("true", &cwd, StdinMode::Null, &[], confine.as_ref()).unwrap();
            assert!(child.wait_with_output().await.unwrap().status.success());
            confined.push(started.elapsed());
        }
    });
    let rules = sandbox.plan(&cwd).unwrap().grants.len();
    for v in [&mut plain, &mut confined, &mut setup_only] {
        v.sort();
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("rules per command: {rules}");
    println!(
        "unconfined `true`: p50 {:.2} ms  p99 {:.2} ms",
        ms(percentile(&plain, 0.5)),
        ms(percentile(&plain, 0.99))
    );
    println!(
        "confined `true`:   p50 {:.2} ms  p99 {:.2} ms",
        ms(percentile(&confined, 0.5)),
        ms(percentile(&confined, 0.99))
    );
    println!(
        "rules set-up alone: p50 {:.3} ms  p99 {:.3} ms",
        ms(percentile(&setup_only, 0.5)),
        ms(percentile(&setup_only, 0.99))
    );
    println!(
        "overhead: p50 {:.2} ms  p99 {:.2} ms (budget: p50 ≤ 2 ms)",
        ms(percentile(&confined, 0.5)) - ms(percentile(&plain, 0.5)),
        ms(percentile(&confined, 0.99)) - ms(percentile(&plain, 0.99))
    );
}
