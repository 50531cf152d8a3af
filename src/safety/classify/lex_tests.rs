use super::*;

fn expand() -> Expand {
    Expand {
        home: "/home/dev".to_string(),
        hermes_home: "/home/dev/.hermes".to_string(),
    }
}

fn words(src: &str) -> Vec<String> {
    lex(src, &expand())
        .tokens
        .into_iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.text),
            _ => None,
        })
        .collect()
}

#[test]
fn quote_removal() {
    assert_eq!(
        words(r#"r\m "a b" 'c d' e"f"'g'"#),
        ["rm", "a b", "c d", "efg"]
    );
    assert_eq!(words(r#""a \"q\" \$x \n""#), [r#"a "q" $x \n"#]);
    assert_eq!(words(r"$'\x72\155\t'"), ["rm\t"]);
    assert_eq!(words("a\\\nb"), ["ab"]);
    assert_eq!(words("'unterminated rm -rf /"), ["unterminated rm -rf /"]);
}

#[test]
fn known_expansions() {
    assert_eq!(
        words("~ ~/x $HOME ${HOME}/y \"$HOME\" '$HOME' ~root ~alice x~ $HERMES_HOME ${HOME:-/}"),
        [
            "/home/dev",
            "/home/dev/x",
            "/home/dev",
            "/home/dev/y",
            "/home/dev",
            "$HOME",
            "/root",
            "/home/alice",
            "x~",
            "/home/dev/.hermes",
            "/home/dev",
        ]
    );
    assert_eq!(words("of=~/disk.img"), ["of=/home/dev/disk.img"]);
    assert_eq!(words("rm${IFS}-rf$IFS/"), ["rm", "-rf", "/"]);
    assert_eq!(words("\"a${IFS}b\""), ["a b"]);
}

#[test]
fn unknown_expansions_are_dynamic() {
    let lexed = lex("$X \"$Y\"z $(cmd) ok", &expand());
    let ws: Vec<&Word> = lexed
        .tokens
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w),
            _ => None,
        })
        .collect();
    assert!(ws[0].dynamic && ws[0].opaque());
    assert!(ws[1].dynamic && !ws[1].opaque());
    assert!(ws[2].opaque());
    assert_eq!(ws[2].substitutions, ["cmd"]);
    assert!(!ws[3].dynamic);
}

#[test]
fn operators_and_substitutions() {
    let lexed = lex(
        "a && b || c | d |& e; f & g\nh (i) `j` $(k $(l)) <(m)",
        &expand(),
    );
    let ops: Vec<Op> = lexed
        .tokens
        .iter()
        .filter_map(|t| match t {
            Token::Op(op) => Some(*op),
            _ => None,
        })
        .collect();
    assert_eq!(
        ops,
        [
            Op::And,
            Op::Or,
            Op::Pipe,
            Op::Pipe,
            Op::Seq,
            Op::Background,
            Op::Seq,
            Op::Open,
            Op::Close
        ]
    );
    assert_eq!(lexed.substitutions, ["j", "k $(l)", "m"]);
}

#[test]
fn comments_are_skipped_but_not_inside_words() {
    assert_eq!(words("ls # rm -rf /\necho a#b"), ["ls", "echo", "a#b"]);
}

#[test]
fn redirections() {
    let lexed = lex("cmd 2>err >>out &>all 2>&1 <in 3<>rw >|clob", &expand());
    let redirs: Vec<(Option<String>, &str, RedirKind, String)> = lexed
        .tokens
        .iter()
        .filter_map(|t| match t {
            Token::Redirect(r) => Some((r.fd.clone(), r.op, r.kind, r.target.text.clone())),
            _ => None,
        })
        .collect();
    let fd = |s: &str| Some(s.to_string());
    assert_eq!(
        redirs,
        [
            (fd("2"), ">", RedirKind::Write, "err".to_string()),
            (None, ">>", RedirKind::Append, "out".to_string()),
            (None, "&>", RedirKind::Write, "all".to_string()),
            (fd("2"), ">&", RedirKind::Dup, "1".to_string()),
            (None, "<", RedirKind::Read, "in".to_string()),
            (fd("3"), "<>", RedirKind::ReadWrite, "rw".to_string()),
            (None, ">|", RedirKind::Write, "clob".to_string()),
        ]
    );
    // A quoted digit is an argument, not a file descriptor.
    let lexed = lex("echo '2'>f", &expand());
    assert!(matches!(&lexed.tokens[1], Token::Word(w) if w.text == "2"));
}

#[test]
fn heredoc_bodies_attach_to_their_redirect() {
    let lexed = lex(
        "cat <<EOF > out\nrm -rf /\n$(touch x)\nEOF\necho after",
        &expand(),
    );
    let body = lexed.tokens.iter().find_map(|t| match t {
        Token::Redirect(r) if r.kind == RedirKind::Heredoc => r.body.clone(),
        _ => None,
    });
    assert_eq!(body.as_deref(), Some("rm -rf /\n$(touch x)\n"));
    assert_eq!(lexed.substitutions, ["touch x"]);
    assert_eq!(
        words("cat <<EOF > out\nrm -rf /\nEOF\necho after"),
        ["cat", "echo", "after"]
    );
    // Quoted delimiter: no substitutions; <<- strips tabs before the delimiter.
    let lexed = lex("cat <<-'E'\n\t$(touch x)\n\tE\n", &expand());
    assert!(lexed.substitutions.is_empty());
    assert_eq!(words("cat <<-'E'\n\tx\n\tE\nls"), ["cat", "ls"]);
}
