//! Which pane has the keyboard. Exactly one pane is focused at a time and the focused pane's
//! border is drawn with `Role::BorderFocused`, so focus is always visible.

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Focus {
    /// Typing goes to the composer (the default).
    #[default]
    Composer,
    /// The transcript: arrows scroll, Enter expands the selected tool cell.
    Chat,
    Agents,
    Goals,
    Approvals,
}

impl Focus {
    /// Side panes, in the order they are stacked.
    pub const SIDE: [Focus; 3] = [Focus::Agents, Focus::Goals, Focus::Approvals];

    pub fn is_side(self) -> bool {
        matches!(self, Focus::Agents | Focus::Goals | Focus::Approvals)
    }
}
