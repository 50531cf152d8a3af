//! What each slash command does. The registry (`slash.rs`) says which commands exist; this
//! module carries them out against the app state and the engine. Unknown commands get a
//! readable notice with the closest match.

use std::time::Instant;

use super::app::App;
use super::app::AppEvent;
use super::copy::CopyReach;
use super::overlays::model_picker::ModelPicker;
use super::overlays::sessions_picker::SessionsPicker;
use super::status_bar::Visibility;
use super::status_bar::format_tokens;
use crate::protocol::ModelSelection;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::protocol::Yolo;

pub fn execute(app: &mut App, name: &str, args: &str) {
    let args = args.trim();
    let Some(command) = super::slash::find(name) else {
        // Not a built-in: the engine runs a skill of that name, or says it is unknown.
        let line = format!("/{name} {args}");
        app.transcript.push_user(line.trim_end());
        app.chat.scroll_to_bottom();
        app.send(Op::SlashCommand {
            name: name.to_string(),
            args: args.to_string(),
        });
        return;
    };
    match command.name {
        "help" => {
            let body = help_body(app.composer.dynamic_commands());
            let header = match app.theme.branding.help_header.trim() {
                "" => "Commands".to_string(),
                header => header.to_string(),
            };
            app.transcript.push_info(&header, &body);
        }
        "skin" => super::skins_flow::command(app, args),
        "new" => new_session(app, "new session started"),
        "clear" => {
            app.transcript.clear();
            new_session(app, "screen cleared; new session started");
        }
        "model" => model(app, args),
        "usage" => app.transcript.push_info("Usage", &usage_body(app)),
        "status" => app.transcript.push_info("Status", &status_body(app)),
        "stop" => {
            if app.turn_running {
                app.send(Op::Interrupt);
            }
            app.send(Op::StopBackground);
        }
        "retry" => app.send(Op::Retry),
        "queue" => queue(app, args),
        "steer" => {
            if args.is_empty() {
                notice(
                    app,
                    "usage: /steer <text> — guidance delivered after the next tool call",
                );
            } else if app.turn_running {
                super::input::steer(app, args.to_string());
            } else {
                let images = app.attach.take_images();
                super::input::send_message(app, args.to_string(), images);
            }
        }
        "verbose" => {
            let detail = app.chat.cycle_detail();
            notice(app, &format!("tool output and reasoning: {detail}"));
        }
        "statusbar" => {
            app.status.visible = match app.status.visible {
                Visibility::Shown => Visibility::Hidden,
                Visibility::Hidden => Visibility::Shown,
            };
        }
        "yolo" => {
            let next = match app.info.as_ref().map(|i| i.yolo) {
                Some(Yolo::On) => Yolo::Off,
                Some(Yolo::Off) | None => Yolo::On,
            };
            app.send(Op::SetYolo(next));
        }
        "copy" => copy(app, args),
        "voice" => super::voice_link::command(app, args),
        "paste" => super::attachments::paste_command(app),
        "image" => super::attachments::image_command(app, args),
        "resume" if args.is_empty() => open_sessions(app),
        "resume" => app.send(Op::ResumeSession {
            target: args.to_string(),
        }),
        "sessions" => open_sessions(app),
        "title" => app.send(Op::SetTitle {
            title: args.to_string(),
        }),
        "branch" => app.send(Op::BranchSession {
            title: (!args.is_empty()).then(|| args.to_string()),
        }),
        "undo" => match if args.is_empty() {
            Ok(1)
        } else {
            args.parse::<u32>()
        } {
            Ok(turns) => app.send(Op::UndoTurns { turns }),
            Err(_) => notice(
                app,
                "usage: /undo [N] — N user turns to take back (default 1)",
            ),
        },
        "history" => history(app),
        "compress" => app.send(Op::Compress),
        "rollback" => super::rollback_link::open(app, args),
        "agents" => match args {
            "" => super::agents_flow::open(app),
            "history" => super::spawn_trees_link::open(app),
            _ => notice(
                app,
                "usage: /agents [history] — history reopens a saved spawn tree",
            ),
        },
        "reload-mcp" => super::mcp_flow::command(app, args),
        "tools" => super::tools_flow::command(app, args),
        "cron" => super::cron_flow::command(app, args),
        "goal" => super::goals_flow::goal_command(app, args),
        "subgoal" => super::goals_flow::subgoal_command(app, args),
        "quit" => app.quit = true,
        other => notice(app, &format!("/{other} is not available here")),
    }
}

fn open_sessions(app: &mut App) {
    app.overlays.push(SessionsPicker::new(""));
    app.send(Op::ListSessions {
        query: String::new(),
        limit: 50,
    });
}

/// `/history`: this conversation's user messages, numbered, oldest first.
fn history(app: &mut App) {
    let mut body = String::new();
    let mut n = 0;
    for entry in app.transcript.entries() {
        if let super::transcript::Cell::User { text, .. } = entry.cell() {
            n += 1;
            let first = text.lines().next().unwrap_or("");
            body.push_str(&format!("{n:>3}. {first}\n"));
        }
    }
    if n == 0 {
        body.push_str("nothing sent yet in this session");
    }
    app.transcript.push_info("History", body.trim_end());
}

fn notice(app: &mut App, text: &str) {
    app.transcript.push_notice(NoticeLevel::Info, text);
}

fn help_body(skills: &[super::slash::SkillCommand]) -> String {
    format!(
        "{}\nKeys: Enter send · Shift/Alt+Enter or Ctrl+J newline · Tab queue while busy · \
         ↑/↓ history · Ctrl+G edit in $EDITOR · !cmd run a shell command\n\
         Images: Ctrl+V or Alt+V paste from the clipboard · /paste · /image PATH · \
         Backspace on an empty draft removes the last · Ctrl+C clears them\n\
         Esc/Ctrl+C interrupt · Ctrl+C twice or Ctrl+D exit · PgUp/PgDn scroll · \
         Ctrl+O cycle focus · Ctrl+T or /agents subagent monitor · F7 fold the live bar · F2 show/hide side panes · \
         F3 approvals\n\
         Approvals pane: y once · s session · a always · n/Esc deny · ←→ Enter choose · \
         ↑↓ next request\n\
         Goals pane: p pause/resume · c clear (y/n) · a add a subgoal",
        super::slash::help_text_with(skills).trim_end()
    )
}

fn new_session(app: &mut App, message: &str) {
    app.queue.clear();
    app.pending_clarify = None;
    if std::mem::take(&mut app.tools_changed) {
        // The tool list is fixed per session: a fresh start reads the toolsets anew.
        app.start_session();
        return notice(
            app,
            &format!("{message} with the toolsets from config.yaml"),
        );
    }
    app.send(Op::NewSession);
    app.status.session_started = Instant::now();
    notice(app, message);
}

fn model(app: &mut App, args: &str) {
    if args.is_empty() {
        let info = app.info.clone();
        let home = app.home.clone();
        let tx = app.app_tx.clone();
        tokio::task::spawn_blocking(move || {
            let env = crate::config::EnvLookup::load(&home)
                .map(|(env, _)| env)
                .ok();
            let lookup = |key: &str| env.as_ref().and_then(|env| env.get(key));
            let picker = ModelPicker::new(info.as_ref(), &lookup);
            let _ = tx.send(AppEvent::ModelPickerReady(picker));
        });
        return;
    }
    const PROVIDERS: [&str; 10] = [
        "openrouter",
        "openai-api",
        "openai",
        "anthropic",
        "nous",
        "custom",
        "ollama",
        "lmstudio",
        "vllm",
        "llamacpp",
    ];
    let selection = match args.split_once(':') {
        Some((provider, model)) if PROVIDERS.contains(&provider) => ModelSelection {
            model: model.to_string(),
            provider: Some(provider.to_string()),
            base_url: None,
        },
        // Model ids may contain ':' themselves (`qwen2.5:7b`).
        _ => ModelSelection {
            model: args.to_string(),
            provider: None,
            base_url: None,
        },
    };
    app.send(Op::SwitchModel(selection));
}

fn usage_body(app: &App) -> String {
    let s = &app.last_status;
    let cost = s
        .cost_usd
        .map(|c| format!("${c:.4}"))
        .unwrap_or_else(|| "unknown for this model".to_string());
    format!(
        "input tokens: {} (cache read {}, cache write {})\noutput tokens: {} (reasoning {})\n\
         API calls: {}\ncontext: {} of {}\ncost: {cost}",
        format_tokens(s.input_tokens),
        format_tokens(s.cache_read_tokens),
        format_tokens(s.cache_write_tokens),
        format_tokens(s.output_tokens),
        format_tokens(s.reasoning_tokens),
        s.api_calls,
        format_tokens(s.context_tokens),
        format_tokens(app.status.context_window),
    )
}

fn status_body(app: &App) -> String {
    let Some(info) = &app.info else {
        return "no session is running".to_string();
    };
    let yolo = match info.yolo {
        Yolo::On => "on",
        Yolo::Off => "off",
    };
    format!(
        "session: {}\nmodel: {} via {} ({})\nworking directory: {}\ncontext: {} of {} tokens\n\
         YOLO: {yolo}\nsandbox: {}\nwhile busy, Enter {}\nHERMES_HOME: {}\n{}",
        info.session_id,
        info.model,
        info.provider,
        info.base_url,
        info.cwd,
        format_tokens(app.status.context_tokens),
        format_tokens(info.context_window),
        if info.sandbox.is_empty() {
            "none"
        } else {
            &info.sandbox
        },
        app.busy_mode.label(),
        app.home.root().display(),
        super::mcp_flow::status_section(&app.mcp_servers),
    )
}

fn queue(app: &mut App, args: &str) {
    if args.is_empty() {
        return notice(
            app,
            "usage: /queue <text> — sent when the current turn ends",
        );
    }
    if app.turn_running {
        super::input::queue_message(app, args.to_string());
    } else {
        let images = app.attach.take_images();
        super::input::send_message(app, args.to_string(), images);
    }
}

fn copy(app: &mut App, args: &str) {
    let n = if args.is_empty() {
        Ok(1)
    } else {
        args.parse::<usize>()
    };
    let Ok(n) = n else {
        return notice(
            app,
            "usage: /copy [N] — N counts replies from the end (1 = last)",
        );
    };
    let Some(text) = app.transcript.assistant_text(n.max(1)).map(str::to_string) else {
        return notice(app, "no reply to copy yet");
    };
    let tx = app.app_tx.clone();
    let chars = text.chars().count();
    tokio::spawn(async move {
        let reach = super::copy::copy_text(text).await;
        let where_to = match reach {
            CopyReach::SystemClipboard => "the clipboard",
            CopyReach::TerminalOnly => "the terminal clipboard (OSC 52)",
        };
        let _ = tx.send(AppEvent::Notice(
            NoticeLevel::Info,
            format!("copied {chars} characters to {where_to}"),
        ));
    });
}
