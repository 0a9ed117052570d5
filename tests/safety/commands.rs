//! Safety II, one definition per command (issue 24): the command table is
//! what the parser, the password blanking, the reply reader and `help`
//! go by, and no line of a mail, well formed or mistaken, is ever quoted
//! back with its password. Through the real Maildir and outbox.

use pbem_testkit::{ALICE, BOB, Harness, Sent};

fn assert_never_quoted(h: &Harness, mails: &[Sent], password: &str) {
    assert!(!mails.is_empty(), "the mail is answered");
    let text = h.outbox_text();
    assert!(
        !text.contains(password),
        "the password {password} is quoted back:\n{text}"
    );
}

#[test]
fn a_malformed_tournament_entry_is_answered_without_its_password() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let mails = h.send(ALICE, "entry", "tournament enter spring alice alice-pw now");
    assert_never_quoted(&h, &mails, "alice-pw");
    // The answer still says what was wrong and how the command goes.
    let body = &mails[0].body;
    assert!(body.contains("tournament enter"), "{body}");
    assert!(body.contains("unexpected words"), "{body}");
}

#[test]
fn a_malformed_subscription_is_answered_without_its_password() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.signup("ann", "ann@example.org");
    let mails = h.send("ann@example.org", "follow", "subscribe 101 ann ann-pw now");
    assert_never_quoted(&h, &mails, "ann-pw");
    assert!(mails[0].body.contains("subscribe 101"), "{}", mails[0].body);
}

#[test]
fn a_refused_command_in_the_subject_of_a_reply_is_quoted_without_its_password() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // An illegal move in the Subject, behind the `Re:` of a mail client.
    let mails = h.send(ALICE, "Re: move 101 alice alice-pw e5", "");
    assert_never_quoted(&h, &mails, "alice-pw");
    assert!(
        mails[0].body.contains("move 101 alice ******** e5"),
        "{}",
        mails[0].body
    );
}

#[test]
fn a_well_formed_line_whose_login_fails_may_have_its_words_out_of_place() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // Userid and password swapped: it parses, with the password where the
    // userid goes, and the login fails.
    let mails = h.send(ALICE, "move", "move 101 alice-pw alice e4");
    assert_never_quoted(&h, &mails, "alice-pw");
    // A word missing before the password: the password stands in the
    // userid's place.
    let mails = h.send(ALICE, "chat", "chat 101 alice-pw hello there");
    assert_never_quoted(&h, &mails, "alice-pw");
}

#[test]
fn a_right_login_keeps_the_line_readable() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let mails = h.send(
        ALICE,
        "two",
        "move 101 alice alice-pw e4\nmove 101 alice alice-pw d4\nmy alice-pw is safe",
    );
    assert_never_quoted(&h, &mails, "alice-pw");
    let answer = pbem_testkit::to(&mails, ALICE);
    assert!(
        answer
            .body
            .contains("2. move 101 alice ******** d4: refused: it is not your turn"),
        "{}",
        answer.body
    );
}

#[test]
fn a_mistaken_line_s_error_never_repeats_the_password() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // The value is the password, the preference the userid: the parser's
    // complaint would quote it.
    for line in [
        "set alice board alice-pw compact",
        "set board alice-pw",
        "tournament adjudicate spring alice alice-pw x 1-0 lost",
        "password alice alice-pw",
        "challenge alice-pw bob --white",
        "resign 101 alice-pw",
        "tournament create alice alice-pw 9lives chess",
    ] {
        let mails = h.send(ALICE, "x", line);
        assert_never_quoted(&h, &mails, "alice-pw");
    }
}
#[test]
fn help_names_every_command_word_of_the_table() {
    let mut h = Harness::new();
    let mails = h.send(BOB, "help", "help");
    let body = &mails[0].body;
    for word in pbem::command::Word::ALL {
        for spelling in word.definition().words {
            assert!(
                body.split(|c: char| !c.is_ascii_alphanumeric())
                    .any(|w| w == *spelling),
                "help does not name {spelling}:\n{body}"
            );
        }
    }
}

/// The property tests: every form of every command that holds a
/// password, written right or with one mistake, never shows its password
/// (a marker) in anything pbem sends. A failing seed is kept with the fuzz
/// suite's, in `tests/safety/fuzz.proptest-regressions`.
mod no_password_echoed {
    use std::cell::RefCell;

    use mail_parser::MessageParser;
    use pbem::command::blank::Blanking;
    use pbem::command::{Word, parse_line};
    use pbem::service::{Service, ServiceConfig};
    use pbem::store::{Store, mailbox};
    use proptest::prelude::*;
    use proptest::test_runner::TestRunner;
    use time::macros::datetime;
    use time::{Duration, OffsetDateTime};

    /// The passwords of the lines: `Zq7Marker0`, `Zq7Marker1`; every
    /// player of the service-level test has `Zq7Marker0`.
    const MARKER: &str = "Zq7Marker";

    fn marker_in(text: &str) -> bool {
        text.to_ascii_lowercase()
            .contains(&MARKER.to_ascii_lowercase())
    }

    /// The words of every form's example with passwords, the passwords
    /// as markers.
    fn forms() -> Vec<Vec<String>> {
        Word::ALL
            .iter()
            .flat_map(|word| word.definition().forms.iter())
            .filter(|form| !form.passwords.is_empty())
            .map(|form| {
                let mut words: Vec<String> = form.example.split(' ').map(String::from).collect();
                for (n, place) in form.passwords.iter().enumerate() {
                    words[*place] = format!("{MARKER}{n}");
                }
                words
            })
            .collect()
    }

    /// One mistake a writer makes, after the command word.
    #[derive(Clone, Debug)]
    enum Mistake {
        None,
        Drop(prop::sample::Index),
        Add(prop::sample::Index, &'static str),
        Swap(prop::sample::Index),
        /// Userid and password written at the end of the line.
        LoginLast,
    }

    fn mistake() -> impl Strategy<Value = Mistake> {
        let extra = prop::sample::select(vec![
            "101", "alice", "spring", "e4", "now", "x", "--white", "board", "td",
        ]);
        prop_oneof![
            Just(Mistake::None),
            any::<prop::sample::Index>().prop_map(Mistake::Drop),
            (any::<prop::sample::Index>(), extra).prop_map(|(at, w)| Mistake::Add(at, w)),
            any::<prop::sample::Index>().prop_map(Mistake::Swap),
            Just(Mistake::LoginLast),
        ]
    }

    /// A line of a form: with a mistake, the command word in odd case,
    /// odd whitespace, perhaps a variant before it.
    fn line() -> impl Strategy<Value = String> {
        let forms = forms();
        (
            0..forms.len(),
            mistake(),
            0..3usize,
            prop::collection::vec(prop::sample::select(vec![" ", "  ", "\t", " \t "]), 12),
            prop::sample::select(vec!["", "chess2 ", "Chess "]),
        )
            .prop_map(move |(which, mistake, case, gaps, variant)| {
                let mut words = forms[which].clone();
                let after = |at: prop::sample::Index, len: usize| 1 + at.index(len.max(1));
                match mistake {
                    Mistake::None => {}
                    Mistake::Drop(at) => {
                        let at = after(at, words.len() - 1);
                        if at < words.len() {
                            words.remove(at);
                        }
                    }
                    Mistake::Add(at, word) => {
                        let at = after(at, words.len());
                        words.insert(at.min(words.len()), word.to_string());
                    }
                    Mistake::Swap(at) => {
                        let at = after(at, words.len() - 1);
                        if at + 1 < words.len() {
                            words.swap(at, at + 1);
                        }
                    }
                    Mistake::LoginLast => {
                        if let Some(at) = words.iter().position(|w| w.starts_with(MARKER))
                            && at >= 2
                        {
                            let login: Vec<String> = words.drain(at - 1..=at).collect();
                            words.extend(login);
                        }
                    }
                }
                words[0] = match case {
                    0 => words[0].to_uppercase(),
                    1 => {
                        let mut chars = words[0].chars();
                        chars
                            .next()
                            .map(|c| c.to_uppercase().chain(chars).collect())
                            .unwrap_or_default()
                    }
                    _ => words[0].clone(),
                };
                let mut line = variant.to_string();
                for (word, gap) in words.iter().zip(gaps.iter().cycle()) {
                    line.push_str(word);
                    line.push_str(gap);
                }
                line
            })
    }

    #[test]
    fn no_line_of_any_command_is_quoted_with_its_password() {
        let mut runner = TestRunner::new(crate::fuzz::keeping_failures(4096));
        runner
            .run(&line(), |line| {
                // A line that parsed with a marker as its password logged
                // in; any other line did not.
                let logged_in: Vec<String> = match parse_line(&line) {
                    Some(Ok(parsed)) => parsed
                        .command
                        .credentials()
                        .filter(|(_, password)| password.starts_with(MARKER))
                        .map(|(userid, _)| userid.to_string())
                        .into_iter()
                        .collect(),
                    _ => Vec::new(),
                };
                let blanking = Blanking::of_mail([line.as_str()], logged_in);
                let quoted = blanking.line(&line);
                prop_assert!(!marker_in(&quoted), "{line:?} quoted as {quoted:?}");
                if let Some(Err(error)) = parse_line(&line) {
                    let told = blanking.message(&line, &error.to_string());
                    prop_assert!(!marker_in(&told), "{line:?} told as {told:?}");
                }
                Ok(())
            })
            .expect("no password quoted");
    }

    /// A service on an in-memory store: alice, bob, ann and td (all with
    /// the password `Zq7Marker0`), board 101 of alice and bob, and td's
    /// event `spring`.
    struct World {
        service: Service,
        now: OffsetDateTime,
        sequence: u32,
    }

    impl World {
        fn new() -> World {
            let store = Store::open_in_memory().expect("store");
            let service = Service::new(store, ServiceConfig::default()).expect("service");
            let mut world = World {
                service,
                now: datetime!(2026-03-01 12:00 UTC),
                sequence: 0,
            };
            for who in ["alice", "bob", "ann", "td"] {
                let from = format!("{who}@example.org");
                world.send(&from, "hi", &format!("signup {who} {MARKER}0"));
                let code: String = world
                    .service
                    .store()
                    .conn()
                    .query_row(
                        "SELECT code FROM address_claims WHERE address = ?1",
                        [&from],
                        |row| row.get(0),
                    )
                    .expect("a claim");
                world.send(&from, &format!("Re: confirm {code}"), "");
            }
            world.send(
                "alice@example.org",
                "game",
                &format!("challenge alice {MARKER}0 bob --white"),
            );
            world.send(
                "td@example.org",
                "event",
                &format!("tournament create td {MARKER}0 spring chess"),
            );
            world.take_outbox();
            world
        }

        fn send(&mut self, from: &str, subject: &str, body: &str) {
            self.sequence += 1;
            self.now += Duration::minutes(1);
            let raw = format!(
                "From: {from}\r\nTo: pbem@localhost\r\nSubject: {subject}\r\nMessage-ID: <p{}@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
                self.sequence
            );
            self.service
                .handle(raw.as_bytes(), self.now)
                .expect("the service handles the mail");
        }

        /// Every part of every mail queued since the last call, decoded.
        fn take_outbox(&mut self) -> Vec<String> {
            let store = self.service.store();
            let queued = mailbox::unsent(store.conn(), 10_000).expect("outbox");
            let ids: Vec<i64> = queued.iter().map(|q| q.id).collect();
            mailbox::mark_all_sent(store, &ids, self.now).expect("marked");
            queued
                .iter()
                .map(|mail| {
                    let message = MessageParser::default()
                        .parse(&mail.message)
                        .expect("pbem writes parseable mail");
                    let mut text = message.subject().unwrap_or_default().to_string();
                    for part in &message.parts {
                        text.push('\n');
                        text.push_str(&String::from_utf8_lossy(part.contents()));
                    }
                    text
                })
                .collect()
        }
    }

    #[test]
    fn no_mail_of_a_line_of_any_command_holds_its_password() {
        let world = RefCell::new(World::new());
        let mut runner = TestRunner::new(crate::fuzz::keeping_failures(192));
        runner
            .run(&(line(), any::<bool>()), |(line, in_subject)| {
                let mut world = world.borrow_mut();
                if in_subject {
                    world.send("alice@example.org", &line, "");
                } else {
                    world.send("alice@example.org", "x", &line);
                }
                for mail in world.take_outbox() {
                    prop_assert!(!marker_in(&mail), "{line:?} answered with:\n{mail}");
                }
                Ok(())
            })
            .expect("no password in any mail");
    }
}
