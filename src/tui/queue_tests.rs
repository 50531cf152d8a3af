use super::*;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn draw(queue: &QueuedMessages, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let theme = Theme::default();
    terminal
        .draw(|f| queue.render(f.area(), f.buffer_mut(), &theme))
        .unwrap();
    terminal
}

#[test]
fn push_pop_take_last() {
    let mut q = QueuedMessages::new();
    assert!(q.is_empty());
    assert_eq!(q.desired_height(), 0);
    q.push("one");
    q.push("two");
    q.push("three");
    assert_eq!(q.len(), 3);
    assert_eq!(q.items().collect::<Vec<_>>(), ["one", "two", "three"]);
    let text = |m: Option<QueuedMessage>| m.map(|m| m.text);
    assert_eq!(text(q.take_last()).as_deref(), Some("three"));
    assert_eq!(text(q.pop_front()).as_deref(), Some("one"));
    assert_eq!(text(q.pop_front()).as_deref(), Some("two"));
    assert_eq!(q.pop_front(), None);
    assert_eq!(q.take_last(), None);
}

#[test]
fn desired_height_caps() {
    let mut q = QueuedMessages::new();
    for i in 0..20 {
        q.push(format!("m{i}"));
    }
    assert_eq!(usize::from(q.desired_height()), MAX_ROWS);
}

#[test]
fn fit_truncates_by_display_width() {
    assert_eq!(fit("hello", 5), "hello");
    assert_eq!(fit("hello world", 6), "hello…");
    assert_eq!(fit("日本語テキスト", 7), "日本語…");
    assert_eq!(fit("abc", 0), "");
}

#[test]
fn snapshot_two_items() {
    let mut q = QueuedMessages::new();
    q.push("run the tests again");
    q.push("then summarise\nthe failures in a table, grouped by module, with links to every file");
    let terminal = draw(&q, 50, q.desired_height());
    insta::assert_snapshot!("queue_two_items", terminal.backend());
}

#[test]
fn overflow_summarises_the_rest() {
    let mut q = QueuedMessages::new();
    for i in 0..8 {
        q.push(format!("message {i}"));
    }
    let terminal = draw(&q, 40, q.desired_height());
    let text: Vec<String> = (0..MAX_ROWS as u16)
        .map(|y| {
            (0..40)
                .map(|x| terminal.backend().buffer()[(x, y)].symbol().to_owned())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect();
    assert_eq!(text[0], "⋯ queued 1: message 0");
    assert_eq!(text[MAX_ROWS - 1], "⋯ and 4 more queued");
}
