use super::*;

fn w(text: &str) -> Word {
    Word {
        dynamic: text.contains('$'),
        ..Word::plain(text)
    }
}

fn texts(cmd: &Simple) -> Vec<&str> {
    cmd.words.iter().map(|w| w.text.as_str()).collect()
}

#[test]
fn substitutes_known_names_only() {
    let mut vars = Vars::default();
    vars.assign(&Word::plain("a=rm -rf"));
    vars.assign(&Word::plain("dir=/"));
    let cmd = Simple {
        words: vec![w("$a"), w("${dir}"), w("$other"), w("$(ls)"), w("$ab")],
        redirects: Vec::new(),
    };
    let out = vars.substitute(&cmd).unwrap();
    assert_eq!(texts(&out), ["rm", "-rf", "/", "$other", "$(ls)", "$ab"]);
}

#[test]
fn quoted_values_stay_one_word_and_unknown_values_are_forgotten() {
    let mut vars = Vars::default();
    vars.assign(&Word::plain("x=rm -rf /"));
    let mut quoted = w("$x");
    quoted.quoted = true;
    let cmd = Simple {
        words: vec![w("eval"), quoted],
        redirects: Vec::new(),
    };
    assert_eq!(texts(&vars.substitute(&cmd).unwrap()), ["eval", "rm -rf /"]);
    vars.assign(&w("x=$(date)"));
    assert!(vars.substitute(&cmd).is_none());
}

#[test]
fn assignment_values_are_not_split() {
    let mut vars = Vars::default();
    vars.assign(&Word::plain("a=rm -rf /"));
    let cmd = Simple {
        words: vec![w("b=$a")],
        redirects: Vec::new(),
    };
    assert_eq!(texts(&vars.substitute(&cmd).unwrap()), ["b=rm -rf /"]);
}
