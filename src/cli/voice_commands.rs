//! `hermes voice …`: flag parsing and printing only; the work is in `hermes::voice::cli`.
//! Results go to stdout (a transcript, a device list), progress and notes to stderr.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Subcommand;
use hermes::config::EnvLookup;
use hermes::config::HermesHome;
use hermes::config::load;
use hermes::headless::exit_code;
use hermes::voice::audio::AudioError;
use hermes::voice::audio::AudioSink;
use hermes::voice::cli;

#[derive(Subcommand, Debug)]
pub enum VoiceAction {
    /// Print what is said in FILE (a WAV file) with the configured speech-to-text engine.
    Transcribe { file: PathBuf },
    /// Speak TEXT with the configured text-to-speech provider, or write it to --out as WAV.
    Say {
        text: String,
        #[arg(long, value_name = "FILE.wav")]
        out: Option<PathBuf>,
    },
    /// List the audio input and output devices.
    Devices,
    /// Record a few seconds from the microphone and play them back.
    Test {
        #[arg(long, default_value_t = 3)]
        seconds: u64,
    },
    /// List the whisper models, or download one.
    Models {
        #[command(subcommand)]
        action: Option<ModelsAction>,
    },
}

#[derive(Subcommand, Debug)]
pub enum ModelsAction {
    /// Download NAME (e.g. base.en) into HERMES_HOME/models.
    Download {
        name: String,
        /// Another place to fetch ggml-NAME.bin from (a mirror).
        #[arg(long, value_name = "URL")]
        base_url: Option<String>,
    },
}

fn speaker() -> Result<Arc<dyn AudioSink>, AudioError> {
    Ok(Arc::new(hermes::voice::playback::RodioSink::open()?))
}

pub fn voice_command(home: &HermesHome, action: VoiceAction) -> anyhow::Result<i32> {
    let config = load::load(home).config;
    let (env, _) = EnvLookup::load(home)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async {
        match action {
            VoiceAction::Transcribe { file } => {
                let report = cli::transcribe_file(&file, &config, home, &env).await?;
                if let Some(note) = &report.fallback_note {
                    eprintln!("note: {note}");
                }
                eprintln!(
                    "{}: {:.1} s of audio in {:.2} s (real-time factor {:.2})",
                    report.engine,
                    report.audio.as_secs_f64(),
                    report.elapsed.as_secs_f64(),
                    report.elapsed.as_secs_f64() / report.audio.as_secs_f64().max(0.001)
                );
                match report.text {
                    Some(text) => println!("{text}"),
                    None => eprintln!(
                        "note: only noise or silence ({:?} was dropped as a known whisper \
                         hallucination)",
                        report.raw
                    ),
                }
            }
            VoiceAction::Say { text, out } => {
                let report = cli::say(&text, out.as_deref(), &config, &env, &speaker).await?;
                if let Some(note) = &report.note {
                    eprintln!("note: {note}");
                }
                match report.written {
                    Some(path) => println!(
                        "{} ({:.1} s, {})",
                        path.display(),
                        report.audio.as_secs_f64(),
                        report.provider
                    ),
                    None => eprintln!(
                        "spoke {:.1} s with {}",
                        report.audio.as_secs_f64(),
                        report.provider
                    ),
                }
            }
            VoiceAction::Devices => {
                let text = tokio::task::spawn_blocking(cli::devices_text).await??;
                print!("{text}");
            }
            VoiceAction::Test { seconds } => {
                eprintln!("recording {seconds} s — say something…");
                let report = tokio::task::spawn_blocking(move || {
                    let mut microphone = hermes::voice::capture::CpalCapture::new();
                    let sink = match speaker() {
                        Ok(sink) => Some(sink),
                        Err(err) => {
                            eprintln!("note: no playback: {err}");
                            None
                        }
                    };
                    cli::record_and_play(&mut microphone, sink, Duration::from_secs(seconds))
                })
                .await??;
                let threshold = config.voice.silence_threshold;
                println!(
                    "{}: recorded {:.1} s, loudest {:.0} RMS ({} with voice.silence_threshold {threshold})",
                    report.device,
                    report.recorded.as_secs_f64(),
                    report.peak_rms,
                    if report.peak_rms > f64::from(threshold) {
                        "speech would be heard"
                    } else {
                        "too quiet: speech would not be heard"
                    }
                );
            }
            VoiceAction::Models { action: None } => print!("{}", cli::models_text(home, &config)),
            VoiceAction::Models {
                action: Some(ModelsAction::Download { name, base_url }),
            } => {
                let base = base_url
                    .unwrap_or_else(|| hermes::voice::stt::models::DEFAULT_BASE_URL.to_string());
                let mut last_percent = u64::MAX;
                let mut progress = |got: u64, total: Option<u64>| {
                    if let Some(total) = total.filter(|t| *t > 0) {
                        let percent = got * 100 / total;
                        if percent != last_percent {
                            last_percent = percent;
                            let filled = usize::try_from(percent / 5).unwrap_or(20);
                            eprint!(
                                "\r[{}{}] {percent:>3}%  {} / {} MiB",
                                "█".repeat(filled),
                                "░".repeat(20 - filled.min(20)),
                                got / (1024 * 1024),
                                total / (1024 * 1024)
                            );
                        }
                    }
                };
                let path = cli::download_model(home, &name, &base, &mut progress).await?;
                eprintln!();
                println!("{}", path.display());
            }
        }
        anyhow::Ok(exit_code::OK)
    })
}
