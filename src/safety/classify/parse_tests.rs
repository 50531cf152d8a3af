use super::*;
use crate::safety::classify::lex::lex;
use crate::safety::classify::words::Expand;

fn expand() -> Expand {
    Expand {
        home: "/home/dev".to_string(),
        hermes_home: "/home/dev/.hermes".to_string(),
    }
}

fn simple_commands(src: &str) -> Vec<Vec<String>> {
    parse(lex(src, &expand()).tokens)
        .into_iter()
        .flat_map(|p| p.cmds)
        .map(|c| c.words.into_iter().map(|w| w.text).collect())
        .collect()
}

#[test]
fn keywords_and_headers_are_dropped() {
    assert_eq!(
        simple_commands("if true; then rm x; else ! ls; fi"),
        [vec!["true"], vec!["rm", "x"], vec!["ls"]]
    );
    assert_eq!(
        simple_commands("for f in a b; do echo $f; done"),
        [vec!["echo", "$f"]]
    );
    assert_eq!(simple_commands("{ a; }"), [vec!["a"]]);
    // A quoted keyword is a command name.
    assert_eq!(simple_commands("'if' x"), [vec!["if", "x"]]);
}

#[test]
fn pipelines_group_commands() {
    let pipelines = parse(lex("a | b | c && d", &expand()).tokens);
    assert_eq!(pipelines.len(), 2);
    assert_eq!(pipelines[0].cmds.len(), 3);
    assert_eq!(pipelines[1].cmds.len(), 1);
}

#[test]
fn brace_expansion() {
    assert_eq!(simple_commands("{rm,-rf,/}"), [vec!["rm", "-rf", "/"]]);
    assert_eq!(
        simple_commands("ls /{etc,usr}/x"),
        [vec!["ls", "/etc/x", "/usr/x"]]
    );
    assert_eq!(
        simple_commands("echo {a,{b,c}}d"),
        [vec!["echo", "ad", "bd", "cd"]]
    );
    assert_eq!(
        simple_commands("echo '{a,b}' {} {a..c} x{y}"),
        [vec!["echo", "{a,b}", "{}", "{a..c}", "x{y}"]]
    );
    let huge = "{a,b}".repeat(20);
    let expanded = simple_commands(&format!("echo {huge}"));
    assert_eq!(
        expanded[0].len(),
        2,
        "over the limit the word stays as written"
    );
}

#[test]
fn fork_bomb_shapes() {
    let bomb = |s: &str| is_fork_bomb(&lex(s, &expand()).tokens);
    assert!(bomb(":(){ :|:& };:"));
    assert!(bomb("f() { f | f & }; f"));
    assert!(bomb("function f { f|f& }; f"));
    assert!(!bomb("echo ':(){ :|:& };:'"));
    assert!(!bomb("f() { g | f & }"));
    assert!(!bomb("f() { echo hi; }"));
}
