//! The charge model (issue "Safety II"): every mail pbem sends is charged
//! to whoever caused it, within ceilings a password never lifts; answers
//! to a sender that may be forged are small and quote nothing of the mail.
//! Through the real Maildir, SQLite file and outbox.

use pbem_testkit::{ALICE, BOB, Harness, flat, to};

const VICTIM: &str = "victim@stranger.example";
const MARKER: &str = "BUY-CHEAP-WATCHES";

/// Finding 1: mails forged from a stranger with a valid password (the
/// attacker's own) were each answered to the stranger, quoting 60 lines
/// of the attacker's text.
#[test]
fn forged_mail_with_a_valid_password_reflects_neither_text_nor_volume_to_a_stranger() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let spam: String = (0..60).map(|n| format!("{MARKER} line {n}\n")).collect();
    let mut to_victim = Vec::new();
    for _ in 0..30 {
        let replies = h.send(
            VICTIM,
            "hi",
            &format!("move 101 alice alice-pw Zz9\n{spam}"),
        );
        to_victim.extend(replies.into_iter().filter(|m| m.to == VICTIM));
    }
    assert!(
        to_victim.len() <= 5,
        "a stranger gets at most its hourly ceiling: {} mails",
        to_victim.len()
    );
    assert!(!to_victim.is_empty(), "the first mails are answered");
    for mail in &to_victim {
        assert!(!mail.body.contains(MARKER), "{}", mail.body);
        assert!(!mail.body.contains("alice-pw"), "{}", mail.body);
        assert!(
            mail.body.contains("not quoted back"),
            "the answer says why it quotes nothing: {}",
            mail.body
        );
    }
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 0);
}

/// A right password moves the charge to the player's budget: it never
/// lifts the ceiling, and a mail whose answers would pass it changes
/// nothing at all.
#[test]
fn a_password_never_lifts_the_players_ceiling_and_a_mail_over_it_changes_nothing() {
    let mut h = Harness::with_config(|config| {
        config.service.sent.player.hour = 8;
    });
    h.alice_and_bob_on("chess");
    let accepted = h.send(BOB, "a", "accept 101 bob bob-pw");
    assert!(!accepted.is_empty(), "bob pays for his own acceptance");
    // The challenge cost alice 2 mails; 3 `settings` answers cost 3 more.
    for _ in 0..3 {
        let answer = h.send(ALICE, "s", "settings alice alice-pw");
        assert_eq!(answer.len(), 1, "{answer:#?}");
    }
    // A move costs 2 (both players' board mails): 7 in all.
    let played = h.send(ALICE, "m", "move 101 alice alice-pw e4");
    assert_eq!(played.len(), 2, "{played:#?}");
    let before = h.game_state();
    // A draw offer would cost 2 more: 9 passes 8. Nothing changes, and
    // alice hears why, once.
    let refused = h.send(ALICE, "d", "draw 101 alice alice-pw");
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        refused[0].body.contains("Nothing of your mail was done"),
        "{}",
        refused[0].body
    );
    assert_eq!(h.game_state(), before);
    let again = h.send(ALICE, "d", "draw 101 alice alice-pw");
    assert!(again.is_empty(), "told once an hour: {again:#?}");
    assert_eq!(h.game_state(), before);
    // Bob pays for his own mails.
    let answered = h.send(BOB, "m", "move 101 bob bob-pw e5");
    assert_eq!(answered.len(), 2, "{answered:#?}");
    // An hour later alice has room again.
    h.now += time::Duration::hours(1);
    let offered = h.send(ALICE, "d", "draw 101 alice alice-pw");
    assert_eq!(offered.len(), 2, "{offered:#?}");
}

/// Over the sender's inbound ceiling, a mail that proves its player is
/// charged to the player's own inbound budget, which has a ceiling too.
#[test]
fn over_the_senders_ceiling_a_proven_mail_still_meets_the_players_own() {
    let mut h = Harness::with_config(|config| {
        config.service.mails_per_sender_per_hour = 2;
        config.service.mails_per_player_per_hour = 4;
    });
    h.signup("alice", ALICE);
    let answered: Vec<usize> = (0..8)
        .map(|_| h.send(ALICE, "s", "settings alice alice-pw").len())
        .collect();
    // Mails 1-4 act (the first two within the sender's ceiling too); the
    // fifth passes the player's ceiling and is told so once.
    assert_eq!(answered, [1, 1, 1, 1, 1, 0, 0, 0], "{answered:?}");
}

/// An answer to a sender that proves nobody is text only and small.
#[test]
fn a_stranger_asking_for_a_board_gets_it_as_text_without_pictures() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // A challenge nobody accepted is its players' only (issue 35).
    h.send(BOB, "ok", "accept 101 bob bob-pw");
    let shown = h.send("watcher@stranger.example", "s", "show 101");
    assert_eq!(shown.len(), 1, "{shown:#?}");
    let raw = std::fs::read_to_string(&shown[0].file).expect("outbox file");
    assert!(!raw.contains("text/html"), "{raw}");
    assert!(!raw.contains("image/png"), "{raw}");
    assert!(shown[0].body.contains("Board 101"), "{}", shown[0].body);
    // A player asking from her own address gets the picture.
    let own = h.send(ALICE, "s", "show 101");
    let raw = std::fs::read_to_string(&to(&own, ALICE).file).expect("outbox file");
    assert!(raw.contains("image/png"), "{raw}");
}

/// Issue 36: once others' mails use up pbem's total ceiling, a proven
/// player's move is still played; its board mails wait in the outbox for
/// the next hour, and the mover is told when they go. A command that is no
/// game action is still refused.
#[test]
fn the_total_ceiling_holds_back_a_proven_move_instead_of_refusing_it() {
    use time::macros::datetime;
    let mut h = Harness::with_config(|config| {
        config.service.sent.total.hour = 10;
    });
    // Eight mails in the first hour: two signups, the challenge, the
    // acceptance.
    h.alice_and_bob_on("chess");
    h.bob_accepts();
    // The next hour, ten strangers' `help` answers use up the total.
    h.now = datetime!(2026-03-01 13:00 UTC);
    for n in 0..10 {
        let answer = h.send(&format!("s{n}@stranger.example"), "help", "help");
        assert_eq!(answer.len(), 1, "{answer:#?}");
    }
    let told = h.send(ALICE, "m", "move 101 alice alice-pw e4");
    assert_eq!(told.len(), 1, "only the notice goes now: {told:#?}");
    assert_eq!(told[0].to, ALICE);
    assert!(
        flat(&told[0].body).contains("go out, in order, at 2026-03-01 14:00 UTC"),
        "{}",
        told[0].body
    );
    assert_eq!(
        h.count("SELECT COUNT(*) FROM turns WHERE board = 101"),
        1,
        "played"
    );
    // Anything else is refused as before.
    let refused = h.send(BOB, "g", "games bob bob-pw");
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        refused[0].body.contains("Nothing of your mail was done"),
        "{}",
        refused[0].body
    );
    let boards = h.count("SELECT COUNT(*) FROM boards");
    let refused = h.send(BOB, "c", "challenge bob bob-pw alice");
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards"),
        boards,
        "{refused:#?}"
    );
    // The board mails wait until the hour is over, then go.
    h.now = datetime!(2026-03-01 13:58 UTC);
    h.pass();
    assert!(h.new_mails().is_empty(), "held until 14:00");
    h.now = datetime!(2026-03-01 13:59 UTC);
    h.pass();
    let released = h.new_mails();
    assert_eq!(released.len(), 2, "{released:#?}");
    let bobs = to(&released, BOB).clone();
    assert!(bobs.body.contains("e4"), "{}", bobs.body);
    assert!(to(&released, ALICE).body.contains("e4"));
    // Bob answers the released board mail as usual.
    let answered = h.reply(&bobs, BOB, "e5");
    assert_eq!(answered.len(), 2, "{answered:#?}");
}
