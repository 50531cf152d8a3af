use super::*;

#[tokio::test]
async fn ordinary_and_merely_dangerous_commands_are_allowed() {
    let p = HardlineOnly;
    let cwd = Path::new("/tmp");
    assert_eq!(p.check_command("ls -la", cwd).await, CommandVerdict::Allow);
    assert_eq!(
        p.check_command("rm -rf ./build", cwd).await,
        CommandVerdict::Allow
    );
    assert_eq!(
        p.check_write("write_file", Path::new("/etc/hosts")).await,
        CommandVerdict::Allow
    );
}

#[tokio::test]
async fn hardline_is_blocked() {
    match HardlineOnly
        .check_command("sudo rm -rf /", Path::new("/tmp"))
        .await
    {
        CommandVerdict::Deny { reason } => {
            assert!(reason.starts_with("blocked: "), "{reason}");
            assert!(reason.contains("even in YOLO mode"), "{reason}");
        }
        CommandVerdict::Allow | CommandVerdict::Approved => panic!("rm -rf / was allowed"),
    }
}
