//! Safety II (issue 24), accounts: an account exists only once an address
//! of it confirms; until then its userid is only reserved, and it cannot
//! log in, be challenged, invited or rated. One mail makes at most a few
//! confirmation mails and one signup, and wrong confirmation codes pause
//! their sender. Each test goes through the real Maildir, SQLite file and
//! outbox.

use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

const GHOST: &str = "ghost@example.net";
const MALLORY: &str = "mallory@example.net";

/// The one answer of a mail, to its sender.
fn answer(mails: &[Sent], from: &str) -> String {
    assert_eq!(mails.len(), 1, "one answer: {mails:#?}");
    assert_eq!(mails[0].to, from, "{mails:#?}");
    mails[0].body.clone()
}

#[test]
fn an_unconfirmed_signup_cannot_log_in_and_is_told_to_confirm_first() {
    let mut h = Harness::new();
    h.signup("bob", BOB);
    let confirmation = h.send(GHOST, "hello", "signup ghost ghost-pw");
    assert_eq!(confirmation.len(), 1, "{confirmation:#?}");
    assert!(confirmation[0].subject.starts_with("confirm "));
    let before = h.game_state();
    let body = [
        "chess challenge ghost ghost-pw bob",
        "tournament create ghost ghost-pw cup chess",
        "password ghost ghost-pw ghost-new-pw",
        "address ghost ghost-pw ghost@example.net other@example.net",
        "set ghost ghost-pw board compact",
        "vacation ghost ghost-pw 3",
    ]
    .join("\n");
    let mails = h.send(GHOST, "hello", &body);
    let text = answer(&mails, GHOST);
    assert_eq!(h.game_state(), before, "nothing changed");
    assert_eq!(h.count("SELECT COUNT(*) FROM tournaments"), 0);
    assert_eq!(
        text.matches("\"ghost\" is not confirmed yet").count(),
        6,
        "every login is refused and says why:\n{text}"
    );
    assert!(
        text.contains("Reply to the confirmation mail"),
        "it says how to confirm:\n{text}"
    );
    // A wrong password is only a wrong password.
    let wrong = h.send(GHOST, "hello", "chess challenge ghost guess-pw bob");
    let wrong = answer(&wrong, GHOST);
    assert!(wrong.contains("wrong userid or password"), "{wrong}");
    assert!(!wrong.contains("not confirmed"), "{wrong}");
    // Once the address confirms, the account exists and plays.
    let welcome = h.confirm(&confirmation[0], GHOST);
    assert_eq!(welcome[0].subject, "pbem signup ghost");
    let board = h.send(GHOST, "game", "chess challenge ghost ghost-pw bob");
    assert_eq!(board.len(), 2, "{board:#?}");
    to(&board, BOB);
}

#[test]
fn a_mail_that_names_an_unconfirmed_userid_proves_nobody_over_the_ceiling() {
    let mut h = Harness::with_config(|config| config.service.mails_per_sender_per_hour = 2);
    h.signup("bob", BOB);
    let confirmation = h.send(GHOST, "hello", "signup ghost ghost-pw");
    assert_eq!(confirmation.len(), 1, "{confirmation:#?}");
    let mut answered = 0;
    for _ in 0..4 {
        answered += h
            .send(GHOST, "hello", "chess challenge ghost ghost-pw bob")
            .len();
    }
    // The second mail of the hour is answered, the third gets the short
    // error of the ceiling, and the password of an unconfirmed signup lifts
    // no ceiling.
    assert_eq!(answered, 2);
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 0);
}

#[test]
fn an_unconfirmed_signup_looks_like_nobody_to_challenges_invitations_and_lookups() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    // Mallory reserves "carol" with an address she cannot confirm.
    let squat = h.send(
        MALLORY,
        "hello",
        "signup carol carol-secret carol@example.org",
    );
    assert_eq!(squat.len(), 2, "{squat:#?}");
    let created = h.send(ALICE, "event", "tournament create alice alice-pw cup chess");
    assert_eq!(created.len(), 1, "{created:#?}");
    let before = h.game_state();
    for command in [
        "chess challenge alice alice-pw {}",
        "tournament invite cup alice alice-pw {}",
        "games {}",
        "rating {}",
    ] {
        let reserved = h.send(ALICE, "hello", &command.replace("{}", "carol"));
        let reserved = answer(&reserved, ALICE);
        let unknown = h.send(ALICE, "hello", &command.replace("{}", "nobody"));
        let unknown = answer(&unknown, ALICE);
        assert_eq!(
            reserved.replace("carol", "nobody"),
            unknown,
            "{command}: a reserved userid is answered as an unknown one"
        );
    }
    assert_eq!(h.game_state(), before, "nothing changed");
    assert_eq!(
        h.count("SELECT COUNT(*) FROM tournament_invites"),
        0,
        "nobody invited"
    );
    assert!(
        h.all_mails()
            .iter()
            .filter(|m| m.to == "carol@example.org")
            .count()
            == 1,
        "carol@example.org got its confirmation mail and nothing else"
    );
}

#[test]
fn a_mail_of_sixteen_signups_of_four_addresses_mails_four_strangers_and_signs_up_one() {
    let mut h = Harness::new();
    let body: Vec<String> = (0..16)
        .map(|n| {
            let victims: Vec<String> = (0..4)
                .map(|k| format!("victim{n}-{k}@victim.example"))
                .collect();
            format!("signup sock{n} sock-password {}", victims.join(" "))
        })
        .collect();
    let mails = h.send(MALLORY, "hello", &body.join("\n"));
    let strangers: Vec<&Sent> = mails.iter().filter(|m| m.to != MALLORY).collect();
    assert_eq!(strangers.len(), 4, "{mails:#?}");
    assert!(strangers.iter().all(|m| m.subject.starts_with("confirm ")));
    assert_eq!(h.count("SELECT COUNT(*) FROM players"), 1);
    assert_eq!(h.count("SELECT COUNT(*) FROM address_claims"), 4);
    let to_mallory = to(&mails, MALLORY);
    assert_eq!(
        to_mallory.body.matches("one signup per mail").count(),
        15,
        "{}",
        to_mallory.body
    );
}

#[test]
fn the_address_commands_of_one_mail_mail_at_most_four_new_addresses_in_all() {
    let mut h = Harness::new();
    h.signup("mallory", MALLORY);
    let body = [
        format!("address mallory mallory-pw {MALLORY} a@victim.example b@victim.example"),
        format!("address mallory mallory-pw {MALLORY} c@victim.example d@victim.example"),
        format!("address mallory mallory-pw {MALLORY} e@victim.example f@victim.example"),
        format!("address mallory mallory-pw {MALLORY} g@victim.example"),
    ]
    .join("\n");
    let mails = h.send(MALLORY, "hello", &body);
    let strangers: Vec<&str> = mails
        .iter()
        .filter(|m| m.to != MALLORY)
        .map(|m| m.to.as_str())
        .collect();
    assert_eq!(
        strangers,
        [
            "a@victim.example",
            "b@victim.example",
            "c@victim.example",
            "d@victim.example"
        ],
        "{mails:#?}"
    );
    let refusals: String = mails
        .iter()
        .filter(|m| m.to == MALLORY)
        .map(|m| m.body.as_str())
        .collect();
    assert_eq!(
        refusals
            .matches("one mail sends at most 4 confirmation mails")
            .count(),
        2,
        "{refusals}"
    );
    // The refused commands changed nothing: c and d are claimed, e, f and
    // g are not.
    assert_eq!(
        h.count(
            "SELECT COUNT(*) FROM address_claims WHERE code != '' AND address IN ('c@victim.example', 'd@victim.example')"
        ),
        2
    );
    assert_eq!(
        h.count(
            "SELECT COUNT(*) FROM address_claims WHERE address IN ('e@victim.example', 'f@victim.example', 'g@victim.example')"
        ),
        0
    );
}

#[test]
fn wrong_confirmation_codes_pause_their_sender_and_the_right_code_works_after_the_pause() {
    let mut h = Harness::new();
    let confirmation = h.send(ALICE, "hello", "signup alice alice-pw");
    assert_eq!(confirmation.len(), 1, "{confirmation:#?}");
    let guesses: Vec<String> = (0..7).map(|n| format!("confirm WRONG{n}CODE")).collect();
    let guessed = h.send(ALICE, "guesses", &guesses.join("\n"));
    let guessed = answer(&guessed, ALICE);
    let unknown = "no confirmation with this code is waiting";
    let paused = format!("too many wrong confirmation codes from {ALICE}");
    assert_eq!(guessed.matches(unknown).count(), 5, "{guessed}");
    assert_eq!(guessed.matches(paused.as_str()).count(), 2, "{guessed}");
    // Five wrong codes pause the address for a minute, which the next mail
    // (a minute later) finds over; one more wrong code pauses it for two.
    let again = h.send(ALICE, "guess", "confirm WRONG7CODE");
    let again = answer(&again, ALICE);
    assert!(again.contains(unknown), "{again}");
    // The right code waits for the pause too.
    let early = h.confirm(&confirmation[0], ALICE);
    let early = answer(&early, ALICE);
    assert!(early.contains(&paused), "{early}");
    assert_eq!(h.count("SELECT COUNT(*) FROM addresses"), 0);
    // A sender with no claim at all is answered alike: the answers tell
    // nothing of what is waiting.
    let stranger = "nobody@example.net";
    let guessed = h.send(stranger, "guesses", &guesses.join("\n"));
    let guessed = answer(&guessed, stranger);
    assert_eq!(guessed.matches(unknown).count(), 5, "{guessed}");
    assert_eq!(
        guessed
            .matches(format!("too many wrong confirmation codes from {stranger}").as_str())
            .count(),
        2,
        "{guessed}"
    );
    // Other addresses confirm as ever.
    h.signup("bob", BOB);
    // Once the pause is over, the right code confirms.
    h.now += time::Duration::hours(1);
    let welcome = h.confirm(&confirmation[0], ALICE);
    assert_eq!(welcome.len(), 1, "{welcome:#?}");
    assert_eq!(welcome[0].subject, "pbem signup alice");
}

#[test]
fn a_reservation_signs_up_again_with_its_password_for_a_new_code_or_another_address() {
    let mut h = Harness::new();
    // Ghost mistypes its address.
    let typo = h.send(GHOST, "hello", "signup ghost ghost-pw ghots@example.net");
    assert_eq!(typo.len(), 2, "{typo:#?}");
    to(&typo, "ghots@example.net");
    // Another password cannot take the reservation over.
    let taken = h.send(MALLORY, "hello", "signup ghost guess-pw");
    let taken = answer(&taken, MALLORY);
    // (A signup line proves nothing, so its words are blanked in the
    // answer: the userid too.)
    assert!(taken.contains("is taken; choose another"), "{taken}");
    // The same signup with the same password names the right address.
    let fixed = h.send(GHOST, "hello", "signup ghost ghost-pw");
    assert_eq!(fixed.len(), 1, "{fixed:#?}");
    assert_eq!(fixed[0].to, GHOST);
    assert!(fixed[0].subject.starts_with("confirm "));
    assert_eq!(
        h.count(
            "SELECT COUNT(*) FROM address_claims WHERE address = 'ghots@example.net' AND code != ''"
        ),
        0,
        "the mistyped address is withdrawn"
    );
    // The mail got lost: signing up again sends a new code, and only the
    // newest one confirms.
    let lost = h.send(GHOST, "hello", "signup ghost ghost-pw");
    assert_eq!(lost.len(), 1, "{lost:#?}");
    assert_ne!(lost[0].subject, fixed[0].subject);
    let old = h.confirm(&fixed[0], GHOST);
    assert!(
        answer(&old, GHOST).contains("no confirmation with this code"),
        "{old:#?}"
    );
    let welcome = h.confirm(&lost[0], GHOST);
    assert_eq!(welcome[0].subject, "pbem signup ghost");
    assert_eq!(h.count("SELECT COUNT(*) FROM players"), 1);
}
