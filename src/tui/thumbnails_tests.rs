use pretty_assertions::assert_eq;

use super::*;

/// Environment variables as name–value pairs.
type Vars<'a> = &'a [(&'a str, &'a str)];

fn detect_with(vars: Vars<'_>) -> Option<Graphics> {
    let env = |name: &str| {
        vars.iter()
            .find(|(key, _)| *key == name)
            .map(|(_, value)| (*value).to_string())
    };
    detect(&env)
}

#[test]
fn terminals_with_inline_graphics_are_recognised() {
    let cases: &[(Vars<'_>, Option<Graphics>)] = &[
        (&[("TERM", "xterm-kitty")], Some(Graphics::Kitty)),
        (
            &[("TERM", "xterm-256color"), ("KITTY_WINDOW_ID", "3")],
            Some(Graphics::Kitty),
        ),
        (&[("TERM_PROGRAM", "iTerm.app")], Some(Graphics::Iterm2)),
        (
            &[("TERM", "xterm-256color"), ("TERM_PROGRAM", "WezTerm")],
            Some(Graphics::Iterm2),
        ),
        (&[("TERM", "foot")], Some(Graphics::Sixel)),
        (&[("TERM", "foot-extra")], Some(Graphics::Sixel)),
        (&[("TERM", "mlterm")], Some(Graphics::Sixel)),
    ];
    for (vars, expected) in cases {
        assert_eq!(detect_with(vars), *expected, "{vars:?}");
    }
}

#[test]
fn other_terminals_show_badges_alone() {
    let cases: &[Vars<'_>] = &[
        &[],
        &[("TERM", "xterm-256color")],
        &[("TERM", "alacritty")],
        &[("TERM_PROGRAM", "Apple_Terminal")],
        &[("TERM_PROGRAM", "vscode")],
        &[("TERM", "linux")],
        // Empty values count as unset.
        &[("KITTY_WINDOW_ID", "")],
    ];
    for vars in cases {
        assert_eq!(detect_with(vars), None, "{vars:?}");
    }
}

#[test]
fn never_inside_tmux_or_screen() {
    let cases: &[Vars<'_>] = &[
        &[
            ("TERM", "xterm-kitty"),
            ("TMUX", "/tmp/tmux-1000/default,1,0"),
        ],
        &[("TERM", "tmux-256color"), ("KITTY_WINDOW_ID", "1")],
        &[("TERM", "screen-256color"), ("TERM_PROGRAM", "iTerm.app")],
        &[("TERM", "screen"), ("KITTY_WINDOW_ID", "1")],
        &[("TERM_PROGRAM", "tmux"), ("KITTY_WINDOW_ID", "1")],
        &[("TERM", "foot"), ("STY", "1234.pts-0.host")],
    ];
    for vars in cases {
        assert_eq!(detect_with(vars), None, "{vars:?}");
    }
}

#[test]
fn hermes_thumbnails_off_disables_them() {
    for value in ["off", "OFF", "0", "false", "no"] {
        assert_eq!(
            detect_with(&[("TERM", "xterm-kitty"), ("HERMES_THUMBNAILS", value)]),
            None,
            "{value}"
        );
    }
    assert_eq!(
        detect_with(&[("TERM", "xterm-kitty"), ("HERMES_THUMBNAILS", "on")]),
        Some(Graphics::Kitty)
    );
}

#[test]
fn columns_are_reserved_only_with_graphics() {
    assert_eq!(Thumbnails::with(None).columns(), 0);
    assert_eq!(
        Thumbnails::with(Some(Graphics::Kitty)).columns(),
        usize::from(THUMB_COLS) + 1
    );
}

#[test]
fn a_thumbnail_is_made_from_a_png_and_a_bad_file_fails_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shot.png");
    image::RgbImage::from_pixel(64, 32, image::Rgb([200, 30, 30]))
        .save(&path)
        .unwrap();
    for graphics in [Graphics::Kitty, Graphics::Iterm2, Graphics::Sixel] {
        let thumbnail = make(&path, graphics).unwrap();
        assert!(thumbnail.0.size().width <= THUMB_COLS, "{graphics:?}");
        assert_eq!(thumbnail.0.size().height, 1, "{graphics:?}");
    }
    let bad = dir.path().join("bad.png");
    std::fs::write(&bad, b"not an image").unwrap();
    assert!(make(&bad, Graphics::Kitty).is_err());
    assert!(make(&dir.path().join("missing.png"), Graphics::Kitty).is_err());
}

#[tokio::test]
async fn an_attached_image_gets_its_thumbnail_off_the_ui_task() {
    use crate::protocol::AttachEvent;
    use crate::tui::test_support::attach_app;
    use crate::tui::test_support::deliver_attach_events;
    use crate::tui::test_support::draw_app;
    use crate::tui::test_support::screen_rows;

    let (dir, mut app, ends, _ops) = attach_app();
    app.thumbnails = Thumbnails::with(Some(Graphics::Kitty));
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    app.app_tx = tx;
    let path = dir.path().join("shot.png");
    image::RgbImage::from_pixel(64, 32, image::Rgb([20, 120, 220]))
        .save(&path)
        .unwrap();
    crate::tui::attachments::paste_command(&mut app);
    ends.answer(AttachEvent::Attached {
        image: crate::protocol::ImageAttachment {
            path: path.clone(),
            width: 64,
            height: 32,
            bytes: 200,
        },
        origin: "clipboard".into(),
    });
    deliver_attach_events(&mut app);
    assert!(matches!(
        app.thumbnails.slots.get(&path),
        Some(Slot::Loading)
    ));
    // Nothing is drawn while it loads; the badge keeps its place after the thumbnail's.
    let rows = screen_rows(&draw_app(&mut app, 80, 12));
    let badge_row = rows.iter().position(|r| r.contains("Image #1")).unwrap();
    assert!(
        rows[badge_row].starts_with("     [📎"),
        "{:?}",
        rows[badge_row]
    );

    let event = rx.recv().await.unwrap();
    app.on_app_event(event);
    assert!(matches!(
        app.thumbnails.slots.get(&path),
        Some(Slot::Ready(_))
    ));
    let terminal = draw_app(&mut app, 80, 12);
    let first = terminal.backend().buffer()[(0, u16::try_from(badge_row).unwrap())]
        .symbol()
        .to_string();
    // Kitty: the image is sent once, in an APC escape, with the first placeholder cell.
    assert!(first.starts_with("\u{1b}_G"), "{first:?}");

    // Sending the message forgets the thumbnail at the next attach.
    app.attach.take_images();
    attached(&mut app);
    assert!(app.thumbnails.slots.is_empty());
}
