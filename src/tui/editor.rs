//! `Ctrl+G`: edit the draft in `$VISUAL` / `$EDITOR` (falling back to `vi`). The terminal is
//! handed over while the editor runs and taken back afterwards; the caller drops its input
//! stream first so the editor gets every keystroke.

use super::terminal::TerminalSession;

pub async fn edit_in_editor(
    session: &mut TerminalSession,
    draft: String,
) -> Result<String, String> {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".to_string());
    let file = std::env::temp_dir().join(format!("hermes-draft-{}.md", std::process::id()));
    std::fs::write(&file, &draft).map_err(|e| format!("{}: {e}", file.display()))?;
    session.suspend().map_err(|e| e.to_string())?;
    let path = file.clone();
    let editor_for_task = editor.clone();
    // The editor owns the terminal; the UI has nothing to draw until it exits.
    let status = tokio::task::spawn_blocking(move || {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("{editor_for_task} \"$1\""))
            .arg("sh")
            .arg(&path)
            .status()
    })
    .await;
    let resumed = session.resume();
    let result = match status {
        Ok(Ok(status)) if status.success() => std::fs::read_to_string(&file)
            .map(|text| text.trim_end_matches('\n').to_string())
            .map_err(|e| format!("{}: {e}", file.display())),
        Ok(Ok(status)) => Err(format!(
            "{editor} exited with {status}; the draft is unchanged"
        )),
        Ok(Err(e)) => Err(format!("could not start {editor}: {e}")),
        Err(e) => Err(e.to_string()),
    };
    let _ = std::fs::remove_file(&file);
    resumed.map_err(|e| e.to_string())?;
    result
}
