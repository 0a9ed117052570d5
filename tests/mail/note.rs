//! `note` (issue 35): a private note on a board by one of its players,
//! read by its writer alone, in their own board mails and `show`; never in
//! the opponent's mail, a subscriber's or a stranger's answer, PGN or the
//! web. Through the real Maildir, SQLite file and outbox.

use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

const CAROL: &str = "carol@example.org";
const NOTE: &str = "Bb5 next if he plays Nc6";

/// Every mail `address` received, decoded and raw (the HTML part too).
fn everything_to(h: &Harness, address: &str) -> Vec<String> {
    h.all_mails()
        .into_iter()
        .filter(|mail| mail.to == address)
        .flat_map(|mail| {
            let raw = std::fs::read_to_string(&mail.file).unwrap_or_default();
            [mail.body, raw]
        })
        .collect()
}

/// The last board mail to `address` (one carrying a reply address).
fn last_board_mail(h: &Harness, address: &str) -> Sent {
    h.all_mails()
        .into_iter()
        .rfind(|m| m.to == address && m.reply_to.is_some())
        .expect("a board mail")
}

/// The web site's board page, built in this process.
fn board_page(h: &Harness) -> String {
    let site = pbem::web::Site::new(&h.config, pbem::server::TimeSource::Fixed(h.now));
    let conn = h.database();
    pbem::web::pages::board(&site, &conn, 101, shakmaty::Color::White, None)
        .expect("the board page")
        .body
}

#[test]
fn a_note_is_read_by_its_writer_alone() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.bob_accepts();
    h.signup("carol", CAROL);
    h.send(CAROL, "follow", "subscribe 101 carol carol-pw");
    let mails = h.send(ALICE, "n", &format!("note 101 alice alice-pw {NOTE}"));
    assert_eq!(mails.len(), 1, "only the writer is answered: {mails:#?}");
    assert!(
        to(&mails, ALICE)
            .body
            .contains("Your note on board 101 is kept"),
        "{}",
        mails[0].body
    );
    // The writer reads it in `show` and in the board mails of the game.
    let shown = h.send(ALICE, "s", "show 101");
    assert!(shown[0].body.contains("Your notes (only you see them):"));
    assert!(shown[0].body.contains(&format!("at turn #1: {NOTE}")));
    let mails = h.send(ALICE, "m", "move 101 alice alice-pw e4");
    assert!(to(&mails, ALICE).body.contains(NOTE), "{mails:#?}");
    // In a reply to a board mail, without password.
    let board_mail = last_board_mail(&h, ALICE);
    let mails = h.reply(&board_mail, ALICE, "note 101 watch the queen");
    assert!(
        to(&mails, ALICE)
            .body
            .contains("Your note on board 101 is kept")
    );
    let mails = h.send(BOB, "m", "move 101 bob bob-pw e5\nchat 101 bob bob-pw hi");
    let alice = to(&mails, ALICE);
    assert!(alice.body.contains(NOTE) && alice.body.contains("watch the queen"));
    // Nobody else ever reads it: not the opponent, the subscriber, a
    // stranger's show or PGN, nor the web.
    let stranger = h.send("mallory@example.net", "s", "show 101\npgn 101");
    for text in everything_to(&h, BOB)
        .into_iter()
        .chain(everything_to(&h, CAROL))
        .chain(stranger.iter().map(|m| m.body.clone()))
        .chain([board_page(&h)])
    {
        assert!(!text.contains("Bb5 next"), "a note leaked:\n{text}");
        assert!(!text.contains("watch the queen"), "a note leaked:\n{text}");
        assert!(!text.contains("Your notes"), "a note leaked:\n{text}");
    }
    // Bob's own note is his alone, too.
    h.send(BOB, "n", "note 101 bob bob-pw her knight is weak");
    let shown = h.send(ALICE, "s", "show 101");
    assert!(!shown[0].body.contains("her knight is weak"));
    assert!(shown[0].body.contains(NOTE));
    // `clear` drops the writer's notes only.
    let mails = h.send(ALICE, "c", "note 101 alice alice-pw clear");
    assert!(
        to(&mails, ALICE)
            .body
            .contains("Your 2 notes on board 101 were dropped."),
        "{mails:#?}"
    );
    let shown = h.send(ALICE, "s", "show 101");
    assert!(!shown[0].body.contains("Your notes"), "{}", shown[0].body);
    let shown = h.send(BOB, "s", "show 101");
    assert!(shown[0].body.contains("her knight is weak"));
}

#[test]
fn notes_are_bounded_and_belong_to_the_board_s_players() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.bob_accepts();
    h.signup("carol", CAROL);
    let long = "x".repeat(1_990);
    let mails = h.send(ALICE, "n", &format!("note 101 alice alice-pw {long}"));
    assert!(to(&mails, ALICE).body.contains("1990 of 2000 characters"));
    let before = h.rows(&["notes"]);
    let mails = h.send(ALICE, "n", "note 101 alice alice-pw one more line");
    assert!(
        to(&mails, ALICE).body.contains("2000 characters in all"),
        "{mails:#?}"
    );
    assert_eq!(h.rows(&["notes"]), before, "a refused note changes nothing");
    // Only the board's players keep notes on it.
    let mails = h.send(CAROL, "n", "note 101 carol carol-pw mine");
    assert!(
        to(&mails, CAROL)
            .body
            .contains("carol does not play on board 101"),
        "{mails:#?}"
    );
    assert_eq!(h.rows(&["notes"]), before);
    // A line starting `note` without a board number is prose: in a reply
    // it is the comment, passed on as the player wrote it.
    let board_mail = last_board_mail(&h, ALICE);
    let mails = h.reply(&board_mail, ALICE, "e4\nNote that I travel next week.");
    assert!(
        to(&mails, BOB)
            .body
            .contains("Note that I travel next week."),
        "{mails:#?}"
    );
    assert_eq!(h.rows(&["notes"]), before);
}
