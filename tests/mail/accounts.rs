//! Accounts by mail (issue 36): a lost password reset through a one-time
//! reply address mailed to the player's confirmed addresses, and replies
//! without a password to every notice pbem sends a player.

use pbem_testkit::{ALICE, Harness, Sent, days, flat};

const STRANGER: &str = "someone@stranger.example";
const ANSWER: &str = "If alice is a player with a confirmed address, a mail to reset its password went to that player's addresses";

/// Whether `userid` logs in with `password` (a `settings` answer).
fn logs_in(h: &mut Harness, userid: &str, password: &str) -> bool {
    let answer = h.send(ALICE, "s", &format!("settings {userid} {password}"));
    answer.iter().any(|mail| mail.subject == "pbem settings")
}

fn reset_mail(mails: &[Sent]) -> Option<&Sent> {
    mails
        .iter()
        .find(|mail| mail.body.contains("reply to this mail from this address"))
}

#[test]
fn a_reset_mail_goes_to_the_confirmed_addresses_and_its_reply_sets_the_password_once() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let asked = h.send(STRANGER, "help", "password reset alice");
    assert_eq!(asked.len(), 2, "{asked:#?}");
    let answer = asked.iter().find(|m| m.to == STRANGER).expect("answer");
    assert!(flat(&answer.body).contains(ANSWER), "{}", answer.body);
    assert!(
        answer.reply_to.is_none(),
        "the requester gets no reply address"
    );
    let reset = reset_mail(&asked).expect("the reset mail").clone();
    assert_eq!(reset.to, ALICE);
    // A second reset the same day mails nothing more; the requester's
    // answer stays the same, as for a userid nobody has.
    let again = h.send(STRANGER, "help", "password reset alice");
    assert_eq!(again.len(), 1, "{again:#?}");
    assert_eq!(again[0].body, answer.body);
    let unknown = h.send(STRANGER, "help", "password reset nobody");
    assert_eq!(unknown.len(), 1, "{unknown:#?}");
    assert_eq!(
        unknown[0].body.replace("nobody", "alice"),
        answer.body,
        "the same answer for an unknown userid"
    );
    // The reply sets the password; the old one no longer works.
    let set = h.reply(&reset, ALICE, "password fresh-pw");
    assert!(
        set.iter().any(|m| m.subject == "pbem password changed"),
        "{set:#?}"
    );
    assert!(logs_in(&mut h, "alice", "fresh-pw"));
    assert!(!logs_in(&mut h, "alice", "alice-pw"));
    // The address works once.
    let reused = h.reply(&reset, ALICE, "password other-pw");
    assert!(
        reused.iter().all(|m| m.subject != "pbem password changed"),
        "{reused:#?}"
    );
    assert!(
        reused
            .iter()
            .any(|m| flat(&m.body).contains("was used already")),
        "{reused:#?}"
    );
    assert!(logs_in(&mut h, "alice", "fresh-pw"));
    assert!(!logs_in(&mut h, "alice", "other-pw"));
}

#[test]
fn a_reset_address_expires_after_a_day() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let asked = h.send(ALICE, "help", "password reset alice");
    let reset = reset_mail(&asked).expect("the reset mail").clone();
    h.now += days(1);
    let late = h.reply(&reset, ALICE, "password fresh-pw");
    assert!(
        late.iter().any(|m| flat(&m.body).contains("has expired")),
        "{late:#?}"
    );
    assert!(!logs_in(&mut h, "alice", "fresh-pw"));
    assert!(logs_in(&mut h, "alice", "alice-pw"));
    // A day later a new reset mail goes.
    let asked = h.send(ALICE, "help", "password reset alice");
    assert!(reset_mail(&asked).is_some(), "{asked:#?}");
}

/// A command without password in a reply to `mail` is done.
fn reply_works(h: &mut Harness, mail: &Sent) {
    let replies = h.reply(mail, ALICE, "settings");
    assert!(
        replies.iter().any(|m| m.subject == "pbem settings"),
        "a reply to {:?}: {replies:#?}",
        mail.subject
    );
}

#[test]
fn replies_to_the_account_mails_work_without_a_password() {
    let mut h = Harness::new();
    let confirmation = h.send(ALICE, "hello", "signup alice alice-pw");
    assert_eq!(confirmation.len(), 1, "{confirmation:#?}");
    let confirmed = h.confirm(&confirmation[0], ALICE);
    let welcome = confirmed
        .iter()
        .find(|m| m.subject == "pbem signup alice")
        .expect("the welcome mail")
        .clone();
    reply_works(&mut h, &welcome);
    let settings = h.send(ALICE, "s", "settings alice alice-pw");
    reply_works(&mut h, &settings[0]);
    let address = h.send(ALICE, "a", "address alice alice-pw alice@example.org");
    let notice = address
        .iter()
        .find(|m| m.to == ALICE && m.reply_to.is_some())
        .unwrap_or_else(|| panic!("the address answer: {address:#?}"))
        .clone();
    reply_works(&mut h, &notice);
}

const HOME: &str = "alice@home.example";

/// The confirmation mail among `mails`.
fn confirmation_mail(mails: &[Sent]) -> Sent {
    mails
        .iter()
        .find(|m| m.subject.starts_with("confirm "))
        .unwrap_or_else(|| panic!("a confirmation mail: {mails:#?}"))
        .clone()
}

/// Whether `mails` show alice's settings (alone, or in the answer to
/// several commands).
fn settings_answer(mails: &[Sent]) -> bool {
    mails.iter().any(|m| m.body.contains("Settings of alice:"))
}

/// Whether `mails` tell that `words` were said (alone or in an answer).
fn says(mails: &[Sent], words: &str) -> bool {
    mails.iter().any(|m| flat(&m.body).contains(words))
}

#[test]
fn a_reply_to_the_confirmation_mail_confirms_and_then_speaks_for_the_player() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let asked = h.send(
        ALICE,
        "a",
        &format!("address alice alice-pw {ALICE} {HOME}"),
    );
    let confirmation = confirmation_mail(&asked);
    assert_eq!(confirmation.to, HOME);

    // From another address the reply confirms nothing and acts for nobody.
    let stranger = h.reply_to_confirmation(&confirmation, STRANGER, "settings");
    assert!(!settings_answer(&stranger), "{stranger:#?}");
    // Nor does the address itself act for alice before it confirms: the
    // same command in a mail that does not bring the code back.
    let unconfirmed = h.send(HOME, "s", "settings");
    assert!(!settings_answer(&unconfirmed), "{unconfirmed:#?}");

    // From the address named, the reply confirms it, and its command then
    // speaks for alice as a reply to any other notice does.
    let replies = h.reply_to_confirmation(&confirmation, HOME, "settings");
    assert!(
        says(&replies, "alice@home.example is now an address of alice"),
        "{replies:#?}"
    );
    assert!(settings_answer(&replies), "{replies:#?}");
}

#[test]
fn a_reply_to_the_signup_confirmation_confirms_and_then_speaks_for_the_new_player() {
    let mut h = Harness::new();
    let asked = h.send(ALICE, "hello", &format!("signup alice alice-pw {HOME}"));
    let confirmation = confirmation_mail(&asked);
    let stranger = h.reply_to_confirmation(&confirmation, STRANGER, "settings");
    assert!(!settings_answer(&stranger), "{stranger:#?}");
    assert!(!logs_in(&mut h, "alice", "alice-pw"), "not confirmed yet");

    let replies = h.reply_to_confirmation(&confirmation, HOME, "settings");
    assert!(says(&replies, "Welcome to pbem, alice!"), "{replies:#?}");
    assert!(settings_answer(&replies), "{replies:#?}");
}

#[test]
fn a_confirm_that_fails_lets_no_command_of_its_mail_speak() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let asked = h.send(
        ALICE,
        "a",
        &format!("address alice alice-pw {ALICE} {HOME}"),
    );
    confirmation_mail(&asked);
    let wrong = h.send(HOME, "confirm WRONGCODE2", "settings");
    assert!(!settings_answer(&wrong), "{wrong:#?}");
}
