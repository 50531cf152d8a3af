//! `Role`: what a piece of text is, which is all a widget tells the theme. The mapping from
//! roles to palette keys is `Theme::style`; this file only names them.

/// What a piece of text is, for styling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// Ordinary text.
    Text,
    /// Secondary text: hints, timestamps, previews.
    Dim,
    /// Highlights: the agent's name, links, focused things.
    Accent,
    /// Labels in lists and headers.
    Label,
    Ok,
    Warn,
    Error,
    /// The user's own messages.
    User,
    /// The assistant's response label and border.
    Assistant,
    /// Model reasoning (dimmed, italic).
    Reasoning,
    /// Tool names and tool cell headers.
    Tool,
    /// The skin's `tool_prefix` glyph before tool lines.
    ToolPrefix,
    /// Inline code and code blocks without highlighting.
    Code,
    /// Markdown headings.
    Heading,
    /// The composer prompt symbol and input text.
    Prompt,
    /// The rule above the composer.
    InputRule,
    /// The `$` before a shell command.
    ShellDollar,
    /// Pane borders.
    Border,
    /// The border of the focused pane.
    BorderFocused,
    /// Pane titles.
    Title,
    /// Session names and labels in session lists.
    SessionLabel,
    /// Borders of session panels.
    SessionBorder,
    /// Banner art and text, by Hermes's `banner_*` keys.
    BannerBorder,
    BannerTitle,
    BannerAccent,
    BannerDim,
    BannerText,
    StatusBar,
    StatusBarStrong,
    StatusBarDim,
    StatusBarGood,
    StatusBarWarn,
    StatusBarBad,
    StatusBarCritical,
    /// The voice-mode status line.
    VoiceStatus,
    /// A badge such as YOLO.
    Badge,
    /// Selected row in a list or popup (background only; the row keeps its text colours).
    Selection,
    /// Completion popup rows.
    Menu,
    MenuCurrent,
    /// The completion popup's description column.
    MenuMeta,
    MenuMetaCurrent,
}

impl Role {
    /// Every role, for tests and previews.
    pub const ALL: &'static [Role] = &[
        Role::Text,
        Role::Dim,
        Role::Accent,
        Role::Label,
        Role::Ok,
        Role::Warn,
        Role::Error,
        Role::User,
        Role::Assistant,
        Role::Reasoning,
        Role::Tool,
        Role::ToolPrefix,
        Role::Code,
        Role::Heading,
        Role::Prompt,
        Role::InputRule,
        Role::ShellDollar,
        Role::Border,
        Role::BorderFocused,
        Role::Title,
        Role::SessionLabel,
        Role::SessionBorder,
        Role::BannerBorder,
        Role::BannerTitle,
        Role::BannerAccent,
        Role::BannerDim,
        Role::BannerText,
        Role::StatusBar,
        Role::StatusBarStrong,
        Role::StatusBarDim,
        Role::StatusBarGood,
        Role::StatusBarWarn,
        Role::StatusBarBad,
        Role::StatusBarCritical,
        Role::VoiceStatus,
        Role::Badge,
        Role::Selection,
        Role::Menu,
        Role::MenuCurrent,
        Role::MenuMeta,
        Role::MenuMetaCurrent,
    ];
}
