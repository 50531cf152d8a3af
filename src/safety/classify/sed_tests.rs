use super::*;

fn fx(args: &[&str]) -> SedEffects {
    let words: Vec<Word> = args.iter().map(|a| Word::plain(a)).collect();
    effects(&words)
}

#[test]
fn scripts_that_only_edit_run_nothing() {
    for args in [
        &["-n", "/e/p"][..],
        &["s/e/E/g", "file"],
        &["-n", "1e2p"],
        &["-e", "s/a/b/", "-e", "p"],
        &["1d;$d"],
        &["y/abc/xyz/"],
        &["-i", "s/foo/bar/", "src/main.rs"],
        &["-i", "", "s/x/y/", "f"],
        &["/start/,/end/{s/a/b/;p}"],
        &["--sandbox", "e rm -rf /"],
        &["a hello; e world"],
    ] {
        let got = fx(args);
        if args == ["-n", "1e2p"] {
            // `1e2p` runs the command `2p` (GNU sed): nothing hermes knows.
            assert_eq!(got.runs, ["2p"], "{args:?}");
            continue;
        }
        assert_eq!(got, SedEffects::default(), "{args:?}");
    }
}

#[test]
fn commands_and_writes() {
    assert_eq!(fx(&["e rm -rf /"]).runs, ["rm -rf /"]);
    assert!(fx(&["-n", "e"]).runs_input);
    let s = fx(&["s/.*/rm -rf \\//e", "x"]);
    assert_eq!(s.runs, ["rm -rf /"]);
    assert!(s.runs_input);
    assert_eq!(fx(&["-n", "w /etc/passwd", "x"]).writes, ["/etc/passwd"]);
    assert_eq!(fx(&["s/a/b/w /tmp/out"]).writes, ["/tmp/out"]);
    assert_eq!(fx(&["-e", "1e reboot"]).runs, ["reboot"]);
    assert_eq!(fx(&["-ne", "$e id"]).runs, ["id"]);
}
