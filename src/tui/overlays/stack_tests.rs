#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::cell::RefCell;
use std::rc::Rc;

use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::Event;
use crate::protocol::ModelSelection;
use crate::protocol::SecretRequest;
use crate::tui::overlays::model_picker::ModelPicker;
use crate::tui::overlays::secret_prompt::SecretPrompt;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::setup;

/// What the probes saw, in order: `(probe, what)`.
type Log = Rc<RefCell<Vec<(u8, String)>>>;

/// A test overlay; each `ID` is its own type (the stack keeps one per type). `a` closes it,
/// `d` makes it complete; it takes pastes when `TAKES_PASTE`.
struct Probe<const ID: u8, const TAKES_PASTE: bool> {
    log: Log,
    title: String,
    done: bool,
}

impl<const ID: u8, const TAKES_PASTE: bool> Probe<ID, TAKES_PASTE> {
    fn new(log: &Log) -> Self {
        Self {
            log: Rc::clone(log),
            title: format!("probe {ID}"),
            done: false,
        }
    }
}

impl<const ID: u8, const TAKES_PASTE: bool> Overlay for Probe<ID, TAKES_PASTE> {
    fn title(&self) -> &str {
        &self.title
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        self.log
            .borrow_mut()
            .push((ID, format!("key {:?}", key.code)));
        match key.code {
            KeyCode::Char('a') => OverlayAction::Close,
            KeyCode::Char('d') => {
                self.done = true;
                OverlayAction::None
            }
            _ => OverlayAction::None,
        }
    }

    fn handle_paste(&mut self, text: &str) -> Paste {
        self.log.borrow_mut().push((ID, format!("paste {text}")));
        if TAKES_PASTE {
            Paste::Consumed
        } else {
            Paste::Ignored
        }
    }

    fn render(&mut self, _area: Rect, _buf: &mut Buffer, _theme: &Theme) {
        self.log.borrow_mut().push((ID, "render".into()));
    }

    fn is_complete(&self) -> bool {
        self.done
    }
}

type Bottom = Probe<1, true>;
type Middle = Probe<2, false>;
type Top = Probe<3, false>;

fn three_probes(app: &mut App) -> Log {
    let log = Log::default();
    app.overlays.push(Bottom::new(&log));
    app.overlays.push(Middle::new(&log));
    app.overlays.push(Top::new(&log));
    log
}

fn seen(log: &Log) -> Vec<(u8, String)> {
    log.borrow_mut().drain(..).collect()
}

fn paste(app: &mut App, text: &str) {
    crate::tui::input::on_terminal_event(app, TermEvent::Paste(text.into()));
}

#[test]
fn keys_go_to_the_topmost_overlay_only() {
    let (_dir, mut app, _ops) = setup();
    let log = three_probes(&mut app);
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        seen(&log),
        [(3, "key Char('x')".into()), (3, "key Esc".into())]
    );
    assert!(app.composer.is_empty(), "nothing reached the composer");
}

#[test]
fn a_paste_goes_to_the_topmost_overlay_that_takes_it_else_to_the_composer() {
    let (_dir, mut app, _ops) = setup();
    let log = three_probes(&mut app);
    paste(&mut app, "sk-123");
    assert_eq!(
        seen(&log),
        [
            (3, "paste sk-123".into()),
            (2, "paste sk-123".into()),
            (1, "paste sk-123".into())
        ],
        "asked top down until one took it"
    );
    assert!(app.composer.is_empty());
    app.overlays.remove::<Bottom>();
    paste(&mut app, "hello");
    assert_eq!(seen(&log).len(), 2, "both remaining overlays were asked");
    assert_eq!(
        app.composer.text(),
        "hello",
        "nobody took it: the composer did"
    );
}

#[test]
fn render_draws_bottom_to_top() {
    let (_dir, mut app, _ops) = setup();
    let log = three_probes(&mut app);
    let _ = crate::tui::test_support::draw_app(&mut app, 80, 24);
    let renders: Vec<u8> = seen(&log)
        .into_iter()
        .filter(|(_, what)| what == "render")
        .map(|(id, _)| id)
        .collect();
    assert_eq!(
        renders,
        [1, 2, 3],
        "the one that gets the keys is drawn last"
    );
}

#[test]
fn closing_pops_the_right_one() {
    let (_dir, mut app, _ops) = setup();
    let _log = three_probes(&mut app);
    assert_eq!(app.overlays.titles(), ["probe 1", "probe 2", "probe 3"]);
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(
        app.overlays.titles(),
        ["probe 1", "probe 2"],
        "Close pops the top"
    );
    app.overlays.push(Top::new(&_log));
    assert!(app.overlays.remove::<Middle>().is_some());
    assert_eq!(
        app.overlays.titles(),
        ["probe 1", "probe 3"],
        "closing by type takes it from the middle"
    );
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(app.overlays.titles(), ["probe 1"], "complete pops the top");
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(
        app.overlays.titles(),
        ["probe 1"],
        "a plain key closes nothing"
    );
    press(&mut app, KeyCode::Char('a'));
    assert!(app.overlays.is_empty());
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(
        app.composer.text(),
        "a",
        "with none open, keys reach the composer"
    );
}

#[test]
fn opening_one_of_a_kind_again_replaces_it_on_top() {
    let (_dir, mut app, _ops) = setup();
    let log = three_probes(&mut app);
    app.overlays.push(Bottom::new(&log));
    assert_eq!(app.overlays.titles(), ["probe 2", "probe 3", "probe 1"]);
}

fn secret_request() -> SecretRequest {
    SecretRequest {
        id: "secret_1".into(),
        name: "GITHUB_TOKEN".into(),
        prompt: "GitHub token".into(),
        reason: "the /gh-pr skill needs GITHUB_TOKEN".into(),
    }
}

fn model_picker() -> ModelPicker {
    let env = |key: &str| (key == "OPENROUTER_API_KEY").then(|| "sk-x".to_string());
    ModelPicker::new(None, &env)
}

/// A secret request that arrives while `/model`'s picker is open goes on top of it: it takes
/// the keys and pastes until answered, then the picker has them again.
#[test]
fn a_secret_prompt_arriving_over_the_model_picker_is_answered_first() {
    let (_dir, mut app, mut ops) = setup();
    app.overlays.push(model_picker());
    crate::tui::engine_link::on_engine_event(&mut app, Event::SecretRequest(secret_request()));
    assert_eq!(app.overlays.titles(), [" Switch model ", "GITHUB_TOKEN"]);
    paste(&mut app, "ghp_");
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        ops_sent(&mut ops),
        [Op::SecretReply {
            id: "secret_1".into(),
            value: Some("ghp_x".into())
        }]
    );
    assert_eq!(app.overlays.titles(), [" Switch model "]);
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        ops_sent(&mut ops),
        [Op::SwitchModel(ModelSelection {
            model: "anthropic/claude-sonnet-4".into(),
            provider: Some("openrouter".into()),
            base_url: None,
        })]
    );
    assert!(app.overlays.is_empty());
}

#[test]
fn snapshot_two_overlays_the_newest_drawn_over_the_other() {
    let mut picker = model_picker();
    picker.add_local_servers(&[crate::tui::probe::LocalServer {
        name: "Ollama".into(),
        base_url: "http://127.0.0.1:11434/v1".into(),
        models: [
            "qwen2.5:7b",
            "llama3.2:3b",
            "hermes3:8b",
            "mistral:7b",
            "phi4:14b",
        ]
        .map(String::from)
        .to_vec(),
    }]);
    let mut stack = OverlayStack::default();
    stack.push(picker);
    stack.push(SecretPrompt::new(secret_request()));
    let mut terminal = Terminal::new(TestBackend::new(80, 16)).unwrap();
    terminal
        .draw(|f| stack.render(f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    insta::assert_snapshot!("two_overlays", terminal.backend());
}

#[test]
fn ctrl_c_in_an_overlay_is_the_overlays() {
    let (_dir, mut app, _ops) = setup();
    let log = three_probes(&mut app);
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    crate::tui::input::on_terminal_event(&mut app, TermEvent::Key(ctrl_c));
    assert_eq!(seen(&log), [(3, "key Char('c')".into())]);
    assert!(app.ctrl_c_armed.is_none(), "the app's Ctrl+C did not run");
}
