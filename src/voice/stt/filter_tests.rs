use super::*;

fn speech(text: &str) -> String {
    match filter(text) {
        Filtered::Speech(s) => s,
        Filtered::Hallucination => panic!("{text:?} was dropped as a hallucination"),
    }
}

fn dropped(text: &str) {
    assert_eq!(filter(text), Filtered::Hallucination, "{text:?} survived");
}

#[test]
fn the_list_has_about_26_phrases_in_several_languages() {
    assert!((24..=30).contains(&KNOWN_HALLUCINATIONS.len()));
    let non_ascii = KNOWN_HALLUCINATIONS
        .iter()
        .filter(|p| !p.is_ascii())
        .count();
    assert!(non_ascii >= 8, "only {non_ascii} non-English phrases");
}

#[test]
fn every_known_phrase_is_dropped_as_written_and_shouted() {
    for phrase in KNOWN_HALLUCINATIONS {
        dropped(phrase);
        dropped(&phrase.to_uppercase());
        dropped(&format!("  {phrase}  "));
    }
}

#[test]
fn known_phrases_are_dropped_whatever_the_punctuation() {
    dropped("Thank you for watching");
    dropped("thank you for watching!!!");
    dropped("Thanks for watching.");
    dropped("  Subscribe  ");
    dropped("Like and subscribe!");
    dropped("Thank you");
    dropped("You.");
    dropped("Продолжение следует");
    dropped("Sous-titres réalisés para la communauté d'Amara.org.");
    dropped("ご視聴ありがとうございました。");
    dropped("감사합니다.");
}

#[test]
fn annotations_and_music_alone_are_dropped() {
    dropped("[BLANK_AUDIO]");
    dropped("[Music]");
    dropped("(music)");
    dropped("(upbeat music) (applause)");
    dropped("♪");
    dropped("♪ ♪ ♪");
    dropped("");
    dropped("   ...   ");
}

#[test]
fn a_sequence_of_known_phrases_is_dropped() {
    dropped("Thank you. Thank you.");
    dropped("Thanks for watching! Bye.");
    dropped("Thank you for watching. Please subscribe.");
    dropped("Bye. Bye.");
}

#[test]
fn subtitle_credits_are_dropped_in_any_variant() {
    dropped("Sous-titres réalisés par la communauté d'Amara.org");
    dropped("Untertitel im Auftrag des ZDF für funk, 2017");
    dropped("Subtitles by the Amara.org community.");
    dropped("Untertitel der Amara.org-Community");
}

#[test]
fn a_transcript_that_is_one_long_run_is_dropped() {
    dropped("the the the the");
    dropped("the the the the the the the the the");
    dropped("Thank you. Thank you. Thank you. Thank you.");
    dropped("I'm sorry. I'm sorry. I'm sorry. I'm sorry. I'm sorry.");
    dropped("okay okay okay okay okay");
}

#[test]
fn runs_inside_real_speech_are_collapsed() {
    assert_eq!(
        speech("Please open the file the the the the the the"),
        "Please open the file the"
    );
    assert_eq!(
        speech(
            "Open the settings. Open the settings. Open the settings. Open the settings. Then save."
        ),
        "Open the settings. Then save."
    );
}

#[test]
fn three_repeats_are_not_a_run() {
    assert_eq!(speech("no no no"), "no no no");
    assert_eq!(speech("very very very good"), "very very very good");
}

#[test]
fn real_sentences_with_thank_you_survive() {
    assert_eq!(
        speech("Thank you for the help with the parser."),
        "Thank you for the help with the parser."
    );
    assert_eq!(
        speech("Thank you, now run the tests"),
        "Thank you, now run the tests"
    );
    assert_eq!(
        speech("Please subscribe me to the newsletter list"),
        "Please subscribe me to the newsletter list"
    );
    assert_eq!(speech("You should watch this"), "You should watch this");
    assert_eq!(
        speech("bye for now, see you tomorrow"),
        "bye for now, see you tomorrow"
    );
}

#[test]
fn real_speech_keeps_its_text_but_loses_annotations() {
    assert_eq!(
        speech("  The quick brown fox   jumps over the lazy dog. "),
        "The quick brown fox jumps over the lazy dog."
    );
    assert_eq!(speech("[Music] Hello there"), "Hello there");
    assert_eq!(speech("Привет, как дела?"), "Привет, как дела?");
    assert_eq!(speech("2 + 2 = 4"), "2 + 2 = 4");
}

#[test]
fn a_long_text_mentioning_amara_org_is_speech() {
    let text = "I read on amara org that volunteers write subtitles for many videos and \
                I would like to help them translate a few of the talks this weekend";
    assert_eq!(
        speech(text),
        text.split_whitespace().collect::<Vec<_>>().join(" ")
    );
}

#[test]
fn normalise_ignores_case_punctuation_and_spacing() {
    assert_eq!(normalise("Thank  you!"), "thank you");
    assert_eq!(normalise("Amara.org"), "amara org");
    assert_eq!(
        normalise("...Продолжение следует..."),
        "продолжение следует"
    );
    assert_eq!(normalise("!?"), "");
}
