use super::*;

#[test]
fn ex_commands_that_run_a_shell() {
    assert_eq!(ex_shell("!rm -rf /").as_deref(), Some("rm -rf /"));
    assert_eq!(ex_shell(":silent !ls").as_deref(), Some("ls"));
    assert_eq!(ex_shell("%!sort").as_deref(), Some("sort"));
    assert_eq!(ex_shell("r !date").as_deref(), Some("date"));
    assert_eq!(ex_shell("w !sh").as_deref(), Some("sh"));
    assert_eq!(
        ex_shell("call system('rm -rf ~')").as_deref(),
        Some("rm -rf ~")
    );
    assert_eq!(ex_shell("exe \"!reboot\"").as_deref(), Some("reboot"));
    assert_eq!(ex_shell("call system(g:cmd)").as_deref(), Some(UNKNOWN));
    assert_eq!(ex_shell("wq"), None);
    assert_eq!(ex_shell("w! out.txt"), None);
    assert_eq!(ex_shell("set number"), None);
    assert_eq!(ex_shell("%s/a/b/g"), None);
}

#[test]
fn make_recipes_and_shell_calls() {
    assert_eq!(make_commands("x:; rm -rf /"), ["rm -rf /"]);
    assert_eq!(make_commands("all:\n\t@echo $$HOME\n"), ["echo $HOME"]);
    assert_eq!(make_commands("X := $(shell reboot)"), ["reboot"]);
    assert!(make_commands("FOO=1").is_empty());
    assert!(make_commands("A := b;c").is_empty());
}

#[test]
fn ed_scripts() {
    let s = ed_script("a\n!rm -rf /\n.\nw\nq\n");
    assert!(s.runs.is_empty());
    assert!(s.writes);
    let s = ed_script(",p\nq\n");
    assert_eq!(s, EdScript::default());
    assert_eq!(ed_script("!reboot\n").runs, ["reboot"]);
    assert_eq!(ed_script("r !date\n").runs, ["date"]);
}
