//! End-to-end test of the full-screen app as a user drives it: the real binary in tmux
//! against the scripted provider. Type a prompt and see the streamed answer, see a tool cell,
//! interrupt a slow turn, queue a message while busy, quit, and check the terminal was
//! restored (alternate screen off).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp as App;

const WAIT: Duration = Duration::from_secs(15);

fn slow_words(prefix: &str, n: usize) -> Response {
    Response::text((0..n).map(|i| format!("{prefix}{i} "))).with_delay_ms(100)
}

fn alternate_screen_on(session: &Tmux) -> bool {
    let out = std::process::Command::new("tmux")
        .args([
            "display-message",
            "-p",
            "-t",
            session.name(),
            "#{alternate_on}",
        ])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim() == "1"
}

#[test]
fn chat_tool_interrupt_queue_and_quit_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["Hello ", "from ", "the ", "scripted ", "model."]),
        Response::tool_calls([ScriptedCall::terminal("call_1", "echo tool-ran")]),
        Response::text(["Tool ", "finished."]),
        slow_words("slow", 300),
        slow_words("busy", 300),
        Response::text(["Queued ", "answer."]),
    ]);
    let app = App::new(&server, "--yolo");
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);
    assert!(
        alternate_screen_on(&tmux),
        "the app should use the alternate screen"
    );

    // A prompt and its streamed answer.
    tmux.type_text("hello there");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Hello from the scripted model.", WAIT);

    // A tool round-trip shows a tool cell.
    tmux.type_text("run the tool");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("Tool finished.", WAIT);
    assert!(
        screen.contains("💻 echo tool-ran"),
        "tool cell missing:\n{screen}"
    );

    // Interrupt a slow turn with Esc.
    tmux.type_text("talk slowly");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("slow3", WAIT);
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("interrupted", WAIT);

    // Queue a message while busy (Tab), then interrupt: the queued message is sent next.
    tmux.type_text("keep busy");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("busy3", WAIT);
    tmux.type_text("queued question");
    tmux.keys(&["Tab"]);
    tmux.wait_for_text("queued question", WAIT);
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("Queued answer.", WAIT);

    // Quit with a double Ctrl+C; the terminal is restored.
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("Ctrl+C again", WAIT);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
    assert!(
        !alternate_screen_on(&tmux),
        "alternate screen still on after exit"
    );

    let requests = server.completion_requests();
    let last = requests.last().unwrap();
    let messages = last.body["messages"].as_array().unwrap();
    let last_user = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
    assert_eq!(last_user["content"], "queued question");
}

#[test]
fn close_reopen_find_by_word_and_resume_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["Pineapples ", "noted."]).with_usage(1_234, 56),
        Response::text(["Still ", "here."]),
    ]);
    let app = App::new(&server, "");
    {
        let tmux = app.start();
        tmux.wait_for_text("Message Hermes", WAIT);
        tmux.type_text("/title fruit planning");
        tmux.keys(&["Enter"]);
        tmux.type_text("remember the pineapples");
        tmux.keys(&["Enter"]);
        tmux.wait_for_text("Pineapples noted.", WAIT);
        tmux.type_text("/quit");
        tmux.keys(&["Enter"]);
        tmux.wait_for_text("[exited 0]", WAIT);
    }
    // A new hermes: find the session by a word in it and resume it.
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);
    tmux.type_text("/sessions");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("search:", WAIT);
    tmux.type_text("fruit");
    tmux.wait_for_text("fruit planning", WAIT);
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("Pineapples noted.", WAIT);
    assert!(screen.contains("remember the pineapples"), "{screen}");
    assert!(
        screen.contains("↑1.2k ↓56"),
        "token counts restored:\n{screen}"
    );
    tmux.type_text("are you still there?");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Still here.", WAIT);
    let requests = server.completion_requests();
    let messages = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(messages[1]["content"], "remember the pineapples");
    assert_eq!(messages[2]["content"], "Pineapples noted.");
}

fn write_file_call(id: &str, path: &str, content: &str) -> ScriptedCall {
    let arguments = serde_json::json!({ "path": path, "content": content }).to_string();
    ScriptedCall::new(id, "write_file", &arguments)
}

#[test]
fn approvals_deny_sticks_and_once_runs_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::terminal("c1", "rm -rf ~/project-x")]),
        Response::tool_calls([ScriptedCall::terminal(
            "c2",
            "/bin/rm  -rf  $HOME/project-x",
        )]),
        Response::tool_calls([ScriptedCall::terminal("c3", "rm -rf build")]),
        Response::text(["Cleaned ", "build."]),
        Response::tool_calls([ScriptedCall::terminal(
            "c4",
            "sudo /bin/rm -rf --no-preserve-root /",
        )]),
        Response::text(["Refused ", "as ", "expected."]),
    ]);
    let app = App::new(&server, "");
    std::fs::create_dir_all(app.dir.path().join("build/deep")).unwrap();
    std::fs::write(app.dir.path().join("build/deep/out.o"), "x").unwrap();
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);

    tmux.type_text("clean up");
    tmux.keys(&["Enter"]);
    // The request opens the pane and takes focus (the composer is empty).
    let screen = tmux.wait_for_text("$ rm -rf ~/project-x", WAIT);
    assert!(screen.contains("main agent wants to run"), "{screen}");
    assert!(screen.contains("recursive delete"), "{screen}");
    tmux.keys(&["n"]);
    // The model asks again in other words: refused without a request; then a new one asks.
    tmux.wait_for_text("$ rm -rf build", WAIT);
    let screen = tmux.screen();
    assert!(screen.contains("already denied"), "{screen}");
    tmux.keys(&["y"]);
    tmux.wait_for_text("Cleaned build.", WAIT);
    assert!(
        !app.dir.path().join("build").exists(),
        "approved once: it ran"
    );

    // Hardline under /yolo: blocked, no request.
    tmux.type_text("/yolo");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("YOLO on", WAIT);
    tmux.type_text("wipe everything");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("Refused as expected.", WAIT);
    assert!(screen.contains("blocked"), "{screen}");
    assert!(
        !screen.contains("wants to run"),
        "no request for hardline:\n{screen}"
    );

    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}

#[test]
fn rollback_restores_a_checkpoint_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([write_file_call("c1", "notes.txt", "second draft\n")]),
        Response::text(["Rewrote ", "notes."]),
    ]);
    let app = App::new(&server, "");
    std::fs::write(app.dir.path().join("notes.txt"), "first draft\n").unwrap();
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);
    tmux.type_text("rewrite the notes");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Rewrote notes.", WAIT);
    assert_eq!(
        std::fs::read_to_string(app.dir.path().join("notes.txt")).unwrap(),
        "second draft\n"
    );

    tmux.type_text("/rollback");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("before turn 1: write_file", WAIT);
    assert!(screen.contains("notes.txt"), "{screen}");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("first draft", WAIT);
    assert!(
        screen.contains("second draft"),
        "the diff shows both:\n{screen}"
    );
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("restored checkpoint", WAIT);
    assert_eq!(
        std::fs::read_to_string(app.dir.path().join("notes.txt")).unwrap(),
        "first draft\n"
    );
    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}

#[test]
fn watch_steer_stop_and_approve_subagents_while_chatting_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_echo_on_own_thread();
    let app = App::new(&server, "");
    std::fs::create_dir_all(app.dir.path().join("build/x")).unwrap();
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);
    tmux.type_text("delegate: run: sleep 30 ;; run: rm -rf build ;; say hello");
    tmux.keys(&["Enter"]);

    // Three children appear; the second asks to delete build, labelled with its task.
    let screen = tmux.wait_for_text("subagent task 2/3: run: rm -rf build", WAIT);
    assert!(screen.contains("task 1/3: run: sleep 30"), "{screen}");
    tmux.keys(&["y"]);
    tmux.wait_for("build removed", WAIT, |_| {
        !app.dir.path().join("build").exists()
    });

    // Chat with the main agent while the first child still sleeps.
    tmux.type_text("still there?");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("You said: still there?", WAIT);

    // The monitor: open the sleeping child's log, steer it, then stop it.
    tmux.keys(&["C-t"]);
    tmux.wait_for_text("Spawn tree", WAIT);
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("sleep 30  running", WAIT);
    tmux.keys(&["Escape"]);
    // An Escape followed at once by a letter reads as Alt+letter on a busy machine.
    std::thread::sleep(Duration::from_millis(300));
    tmux.keys(&["e"]);
    tmux.type_text("wrap up soon");
    tmux.keys(&["Enter"]);
    tmux.keys(&["x"]);
    tmux.keys(&["Escape"]);
    let screen = tmux.wait_for_text("interrupted (stopped by the user)", WAIT);
    assert!(screen.contains("Results from 3 subagent(s)"), "{screen}");
    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}

/// The spec's goal walkthrough as a user drives it: `/goal …` creates four files, one per
/// turn, with the judge's "↻ Continuing" lines in between, and ends with "✓ Goal achieved";
/// the Goals pane follows along. Then a second goal is paused and cleared from the pane.
#[test]
fn goal_walkthrough_and_the_goals_pane_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let mut script = support::load_script(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scripts/goal_walkthrough.json"
    )))
    .unwrap();
    // The second goal: a slow first turn, paused from the pane while it runs.
    script.push(slow_words("step", 40));
    let server = ScriptedServer::start_on_own_thread(script);
    let app = App::new(&server, "");
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);

    tmux.type_text(
        "/goal Create four files note_{1..4}.txt, one per turn, each containing its number",
    );
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("✓ Goal achieved: All four files were created", WAIT);
    assert!(
        screen.contains("↻ Continuing toward goal (3/20): 3 of 4 files created; 1 remains."),
        "{screen}"
    );
    assert!(
        screen.contains("[Continuing toward your standing goal]"),
        "{screen}"
    );
    assert!(screen.contains("achieved"), "the Goals pane: {screen}");
    assert!(screen.contains("3/20 turns"), "the Goals pane: {screen}");
    let requests = server.requests();
    let results: Vec<String> = requests
        .iter()
        .flat_map(support::RecordedRequest::tool_results)
        .collect();
    for n in 1..=4 {
        let text = std::fs::read_to_string(app.dir.path().join(format!("note_{n}.txt")))
            .unwrap_or_else(|e| panic!("note_{n}.txt: {e}; tool results: {results:?}"));
        assert_eq!(text.trim(), n.to_string());
    }

    // A new goal, paused from the focused Goals pane mid-turn, then cleared with c, y.
    tmux.type_text("/goal take small steps");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("step3", WAIT);
    tmux.keys(&["C-o", "C-o", "C-o"]);
    tmux.wait_for_text("p pause", WAIT);
    tmux.keys(&["p"]);
    tmux.wait_for_text("⏸ Goal paused — 0/20 turns used", WAIT);
    tmux.keys(&["c"]);
    tmux.wait_for_text("Clear the goal? y / n", WAIT);
    tmux.keys(&["y"]);
    tmux.wait_for_text("⊘ Goal cleared.", WAIT);
    tmux.wait_for_text("step39", WAIT);
    // The paused goal's turn finished without a judge call or continuation.
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(server.completion_requests().len(), 13);
}

/// Voice mode as a user drives it, through the real ALSA stack: the microphone is the ALSA
/// file plugin reading an espeak-ng clip, the record key is F8 (Ctrl+B is tmux's prefix),
/// whisper tiny.en transcribes, and the words are sent to the (echoing) model.
#[test]
fn voice_push_to_talk_sends_the_spoken_words_in_tmux() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let Ok(model) = std::env::var("WHISPER_TEST_MODEL") else {
        eprintln!("skipping: WHISPER_TEST_MODEL is not set (scripts/test.sh builds it)");
        return;
    };
    let server = ScriptedServer::start_echo_on_own_thread();
    let app = App::new(&server, "");
    let dir = app.dir.path();
    // The spoken question, as 16 kHz mono raw with silence around it.
    let wav = dir.join("question.wav");
    let ok = std::process::Command::new("espeak-ng")
        .args([
            "-w",
            wav.to_str().unwrap(),
            "Please open the settings file.",
        ])
        .status()
        .unwrap()
        .success();
    assert!(ok, "espeak-ng failed");
    let mut samples = vec![0i16; 8_000];
    samples.extend(hermes::voice::wav::read_16k_mono(&wav).unwrap());
    samples.extend(vec![0i16; 64_000]);
    let raw: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::write(dir.join("capture.raw"), raw).unwrap();
    // Playback goes nowhere: the unclocked file plugin would write silence without end.
    let asoundrc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/audio/asoundrc.example"
    ))
    .unwrap()
    .replace("@PLAYBACK_RAW@", "/dev/null")
    .replace("@CAPTURE_RAW@", dir.join("capture.raw").to_str().unwrap());
    std::fs::create_dir_all(dir.join("userhome")).unwrap();
    std::fs::write(dir.join("userhome/.asoundrc"), asoundrc).unwrap();
    let tmux = app.start_with_voice(&format!(
        "voice:\n  record_key: f8\n  beep_enabled: false\nstt:\n  local:\n    model: {model}\n"
    ));

    // With voice mode off, F8 does nothing; /voice on says which key records.
    tmux.type_text("/voice on");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("voice mode on — press f8 to record", WAIT);
    tmux.keys(&["F8"]);
    let screen = tmux.wait_for_text(
        "You said: Please open the settings file",
        Duration::from_secs(60),
    );
    assert!(
        screen.contains("❯ Please open the settings file"),
        "{screen}"
    );
    // Continuous mode records again after the reply; F8 during that take ends it.
    tmux.keys(&["F8"]);
    tmux.type_text("/voice off");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("voice mode off", WAIT);
}

/// Without any audio device the record key explains itself, and ALSA's own complaints on
/// stderr go to HERMES_HOME/logs/stderr.log instead of over the screen.
#[test]
fn voice_without_a_device_explains_itself_and_keeps_the_screen_clean() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_echo_on_own_thread();
    let app = App::new(&server, "");
    // No ~/.asoundrc: ALSA's stock configuration looks for sound card 0, which a test machine
    // does not have, and says so on stderr.
    let tmux = app.start_with_voice("voice:\n  record_key: f8\n");
    tmux.type_text("/voice on");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("voice mode on", WAIT);
    tmux.keys(&["F8"]);
    // The speaker's own warning can come first; wait for the microphone's. The pane wraps
    // the message, so it is matched on the pane's joined text.
    let chat = tmux.wait_for_chat_text("No audio device found: no microphone", WAIT);
    std::thread::sleep(Duration::from_millis(300));
    let screen = tmux.screen();
    assert!(!screen.contains("ALSA lib"), "{screen}");
    assert!(chat.contains("PulseAudio or PipeWire"), "{chat}");
    // ALSA did complain — into the log, not onto the screen.
    let log = std::fs::read_to_string(app.home().join("logs/stderr.log")).unwrap_or_default();
    assert!(log.contains("ALSA lib"), "stderr.log: {log:?}");
}
