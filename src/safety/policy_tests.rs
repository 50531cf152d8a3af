use super::*;

#[tokio::test]
async fn yolo_on_allows_ordinary_commands() {
    let p = YoloPolicy::new(YoloMode::On);
    assert_eq!(p.check("ls -la").await, CommandVerdict::Allow);
    assert_eq!(p.check("rm -rf ./build").await, CommandVerdict::Allow);
}

#[tokio::test]
async fn yolo_on_still_blocks_hardline() {
    let p = YoloPolicy::new(YoloMode::On);
    match p.check("sudo rm -rf /").await {
        CommandVerdict::Deny { reason } => {
            assert!(reason.starts_with("blocked: "), "{reason}");
            assert!(reason.contains("even in YOLO mode"), "{reason}");
        }
        CommandVerdict::Allow => panic!("rm -rf / was allowed"),
    }
}

#[tokio::test]
async fn yolo_off_denies_everything_with_guidance() {
    let p = YoloPolicy::new(YoloMode::Off);
    assert_eq!(
        p.check("ls").await,
        CommandVerdict::Deny {
            reason: APPROVAL_UNAVAILABLE.to_string()
        }
    );
    assert!(APPROVAL_UNAVAILABLE.contains("--yolo"));
    // Hardline commands get the more specific reason.
    match p.check("mkfs.ext4 /dev/sda1").await {
        CommandVerdict::Deny { reason } => assert!(reason.contains("mkfs"), "{reason}"),
        CommandVerdict::Allow => panic!("allowed"),
    }
}
