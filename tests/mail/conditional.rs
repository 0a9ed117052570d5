//! Conditional moves (issue 26) through the real Maildir, SQLite file and
//! outbox: `if` lines in chess, Marseillais and Doublemove, answered at
//! once when the opponent follows them, dropped when the opponent
//! deviates, chains of both players' lines, refusals that store nothing,
//! lines in a reply, `clear`, a tournament board, and the opponent never
//! reading a turn of a line that was not played.

use pbem_testkit::{ALICE, BOB, Harness, Sent, address, games_in, to};

/// Sends `body` (commands with passwords) from `from`; returns the replies.
fn send(h: &mut Harness, from: &str, body: &str) -> Vec<Sent> {
    h.send(from, "commands", body)
}

/// The stored conditional lines, one row a line of text.
fn lines_stored(h: &Harness) -> String {
    h.rows(&["conditional_lines"])
}

/// The text of the mail to `address` in `mails`, its lines joined (the
/// mails wrap long lines).
fn body_to(mails: &[Sent], address: &str) -> String {
    to(mails, address)
        .body
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every mail `address` received, as its decoded text and its raw file
/// (the HTML part and attachments included).
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

/// No mail to `address` names a conditional move or any of `unplayed`.
fn assert_never_read(h: &Harness, address: &str, unplayed: &[&str]) {
    for text in everything_to(h, address) {
        assert!(
            !text.to_lowercase().contains("conditional"),
            "{address} read of conditional moves:\n{text}"
        );
        for turn in unplayed {
            assert!(!text.contains(turn), "{address} read {turn}:\n{text}");
        }
    }
}

/// Alice plays 1.e4 and, in the same mail, gives three lines from the
/// position after it: two sharing 1...e5 2.Nf3, one after 1...c5.
fn alice_opens_with_three_lines(h: &mut Harness) {
    h.alice_and_bob_on("chess");
    let mails = send(
        h,
        ALICE,
        "move 101 alice alice-pw e4\n\
         if 101 alice alice-pw e5 Nf3 Nc6 Bb5 a6 Ba4\n\
         if 101 alice alice-pw 1...e5 2.Nf3 Nf6 3.Nxe5\n\
         if 101 alice alice-pw c5 Nf3",
    );
    let answer = body_to(&mails, ALICE);
    assert_eq!(count(&answer, "Your conditional moves"), 1, "{answer}");
    assert!(
        answer.contains("1...e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4"),
        "{answer}"
    );
    assert!(answer.contains("1...c5 2.Nf3"), "{answer}");
    let shown = send(h, ALICE, "show 101");
    assert!(
        shown[0]
            .body
            .contains("Your conditional moves (only you see them):"),
        "{}",
        shown[0].body
    );
    assert!(
        shown[0].body.contains("1...e5 2.Nf3 Nf6 3.Nxe5"),
        "{}",
        shown[0].body
    );
}

#[test]
fn answers_are_played_at_once_along_a_line_and_a_deviation_drops_the_rest() {
    let mut h = Harness::new();
    alice_opens_with_three_lines(&mut h);
    // Bob follows a line: Nf3 is played at once, in the same mail.
    let mails = send(&mut h, BOB, "move 101 bob bob-pw e5");
    let bob = body_to(&mails, BOB);
    assert!(bob.contains("1.e4 e5 2.Nf3"), "{bob}");
    assert!(bob.contains("It is bob's turn"), "{bob}");
    let alice = body_to(&mails, ALICE);
    assert!(
        alice.contains("Played from your conditional moves: 2.Nf3 (2 of your lines go on)."),
        "{alice}"
    );
    assert!(alice.contains("2...Nc6 3.Bb5 a6 4.Ba4"), "{alice}");
    assert!(
        !alice.contains("1...c5"),
        "the line after 1...c5 is gone: {alice}"
    );
    // And again along the line.
    let mails = send(&mut h, BOB, "move 101 bob bob-pw Nc6");
    assert!(
        body_to(&mails, BOB).contains("2.Nf3 Nc6 3.Bb5"),
        "{}",
        body_to(&mails, BOB)
    );
    assert!(
        body_to(&mails, ALICE)
            .contains("Played from your conditional moves: 3.Bb5 (1 of your lines goes on)."),
        "{}",
        body_to(&mails, ALICE)
    );
    // Bob deviates: nothing is answered, the rest is dropped and Alice told.
    let mails = send(&mut h, BOB, "move 101 bob bob-pw Nf6");
    let bob = body_to(&mails, BOB);
    assert!(bob.contains("3.Bb5 Nf6"), "{bob}");
    assert!(bob.contains("It is alice's turn"), "{bob}");
    let alice = body_to(&mails, ALICE);
    assert!(
        alice.contains("Your opponent played Nf6, which begins none of your conditional lines: your conditional line was dropped."),
        "{alice}"
    );
    assert_eq!(lines_stored(&h), "");
    assert_never_read(&h, BOB, &["4.Ba4", "3.Nxe5", "1...c5", "a6 4."]);
}

#[test]
fn whole_turn_lines_in_marseillais_and_doublemove() {
    let mut h = Harness::new();
    h.alice_and_bob_on("marseillais");
    send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw e4,d4\nif 101 alice alice-pw e5,d5 exd5,Nc3\nif 101 alice alice-pw d5,e5 dxe5,Nf3",
    );
    let mails = send(&mut h, BOB, "move 101 bob bob-pw e7-e5,d7-d5");
    let bob = body_to(&mails, BOB);
    assert!(bob.contains("1.e4,d4 e5,d5 2.exd5,Nc3"), "{bob}");
    assert!(
        body_to(&mails, ALICE).contains("Played from your conditional moves: 2.exd5,Nc3"),
        "{}",
        body_to(&mails, ALICE)
    );
    assert_eq!(lines_stored(&h), "");
    assert_never_read(&h, BOB, &["2.dxe5,Nf3", "1...d5,e5"]);

    let mut h = Harness::new();
    h.alice_and_bob_on("doublemove");
    send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw e4\nif 101 alice alice-pw e5,d5 exd5,Qh5\nif 101 alice alice-pw f6,Kf7 Qh5,Qxf7",
    );
    let mails = send(&mut h, BOB, "move 101 bob bob-pw e5,d5");
    assert!(
        body_to(&mails, BOB).contains("1.e4 e5,d5 2.exd5,Qh5"),
        "{}",
        body_to(&mails, BOB)
    );
    assert_never_read(&h, BOB, &["2.Qh5,Qxf7", "1...f6,Kf7"]);
}

#[test]
fn both_players_lines_answer_each_other_in_a_chain() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw e4\nif 101 alice alice-pw e5 Nf3 Nc6 Bb5 a6 Ba4",
    );
    // Bob's line starts after his own turn, given earlier in his mail.
    let mails = send(
        &mut h,
        BOB,
        "move 101 bob bob-pw e5\nif 101 bob bob-pw Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    );
    for address in [ALICE, BOB] {
        let body = body_to(&mails, address);
        assert!(
            body.contains("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6"),
            "{body}"
        );
        assert!(body.contains("It is alice's turn"), "{body}");
    }
    assert!(body_to(&mails, BOB).contains("Played from your conditional moves: 4...Nf6"));
    assert_eq!(lines_stored(&h), "");
}

#[test]
fn illegal_and_ambiguous_lines_are_refused_and_store_nothing() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw e4\nif 101 alice alice-pw e5 Nf3",
    );
    let before = (h.game_state(), lines_stored(&h));
    assert!(!before.1.is_empty(), "the first line is stored");
    let mails = send(&mut h, ALICE, "if 101 alice alice-pw e5 Nc3");
    let body = &mails[0].body;
    assert!(body.contains("\"e5 Nc3\""), "the line named: {body}");
    assert!(body.contains("nothing was stored"), "{body}");
    assert_eq!((h.game_state(), lines_stored(&h)), before);
    let mails = send(&mut h, ALICE, "if 101 alice alice-pw c5 Nf3 Nc6 Ke3");
    let body = &mails[0].body;
    assert!(body.contains("\"c5 Nf3 Nc6 Ke3\""), "{body}");
    assert!(body.contains("Ke3"), "the turn named: {body}");
    assert_eq!((h.game_state(), lines_stored(&h)), before);
    // Nor may Bob give lines while it is his turn, nor anyone on his behalf.
    let mails = send(&mut h, BOB, "if 101 bob bob-pw Nf3 Nc6");
    assert!(
        mails[0].body.contains("it is your turn on board 101"),
        "{}",
        mails[0].body
    );
    let mails = send(&mut h, BOB, "if 101 alice wrong-pw e5 Nf3");
    assert!(
        mails[0].body.contains("wrong userid or password"),
        "{}",
        mails[0].body
    );
    assert_eq!((h.game_state(), lines_stored(&h)), before);
}

#[test]
fn a_line_in_a_reply_and_clear() {
    let mut h = Harness::new();
    let (alice_new, _) = h.alice_and_bob_on("chess");
    let mails = h.reply(&alice_new, ALICE, "e4\nif e5 Nf3\nif c5 Nc3");
    let answer = to(&mails, ALICE);
    assert!(answer.body.contains("1...c5 2.Nc3"), "{}", answer.body);
    assert!(!lines_stored(&h).is_empty(), "the lines are stored");
    // Prose beginning with "if" is a comment, not a command.
    let mails = h.send(ALICE, "hi", "show 101\nIf you agree, we play on.");
    let body = body_to(&mails, ALICE);
    assert!(!body.contains("if: "), "{body}");
    assert!(!body.contains("looks like a command"), "{body}");
    // A reply to the board mail of the current position clears them.
    let board_mail = h
        .all_mails()
        .into_iter()
        .rfind(|m| m.to == ALICE && m.reply_to.is_some())
        .expect("a board mail to Alice");
    let mails = h.reply(&board_mail, ALICE, "if clear");
    assert!(
        mails[0]
            .body
            .contains("Your 2 conditional lines on board 101 were dropped."),
        "{}",
        mails[0].body
    );
    assert_eq!(lines_stored(&h), "");
    let mails = send(&mut h, BOB, "move 101 bob bob-pw c5");
    assert!(body_to(&mails, BOB).contains("It is alice's turn"));
    assert_never_read(&h, BOB, &["2.Nc3", "2.Nf3", "1...e5"]);
}

#[test]
fn queue_and_draw_offers_drop_lines() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw e4\nif 101 alice alice-pw e5 Nf3",
    );
    let mails = send(&mut h, ALICE, "queue 101 alice alice-pw d4");
    assert!(
        mails[0]
            .body
            .contains("conditional moves on this board were dropped"),
        "{}",
        mails[0].body
    );
    assert_eq!(lines_stored(&h), "");
    send(&mut h, ALICE, "if 101 alice alice-pw e5 Nf3");
    assert!(
        h.rows(&["queued_turns"]).is_empty(),
        "the lines replace the queued turn"
    );
    let mails = send(&mut h, BOB, "draw 101 bob bob-pw");
    assert!(
        body_to(&mails, ALICE)
            .contains("Your conditional moves on board 101 were dropped: a draw was offered."),
        "{}",
        body_to(&mails, ALICE)
    );
    assert_eq!(lines_stored(&h), "");
    assert_never_read(&h, BOB, &["2.Nf3", "1...e5"]);
}

#[test]
fn a_tournament_board_answers_and_the_game_end_counts() {
    let mut h = Harness::new();
    h.signup("td", &address("td"));
    for player in ["ann", "cy", "dee"] {
        h.signup(player, &address(player));
    }
    send(
        &mut h,
        &address("td"),
        "tournament create td td-pw cup chess",
    );
    for player in ["ann", "cy", "dee"] {
        send(
            &mut h,
            &address(player),
            &format!("tournament enter cup {player} {player}-pw"),
        );
    }
    let started = send(&mut h, &address("td"), "tournament start cup td td-pw");
    let notice = to(&started, &address("td"));
    let (board, white, black) = games_in(&notice.body)
        .into_iter()
        .next()
        .map(|game| (game.board.to_string(), game.white, game.black))
        .unwrap_or_else(|| panic!("a pairing: {started:#?}"));
    // Fool's mate from White's lines: the game ends, the event counts it.
    send(
        &mut h,
        &address(&white),
        &format!("move {board} {white} {white}-pw f3"),
    );
    send(
        &mut h,
        &address(&black),
        &format!("move {board} {black} {black}-pw e5\nif {board} {black} {black}-pw g4 Qh4#"),
    );
    let mails = send(
        &mut h,
        &address(&white),
        &format!("move {board} {white} {white}-pw g4"),
    );
    let body = body_to(&mails, &address(&white));
    assert!(body.contains("1.f3 e5 2.g4 Qh4#"), "{body}");
    assert!(body.contains("Result: 0-1"), "{body}");
    let standings = send(&mut h, &address("td"), "tournament standings cup");
    assert!(standings[0].body.contains(&black), "{}", standings[0].body);
    assert_eq!(lines_stored(&h), "");
    assert_never_read(&h, &address(&white), &[]);
}

/// The opponent's every mail in a game with branches given, followed,
/// left and cleared, and with `show`, `history` and `pgn` asked by the
/// opponent: no turn of an unplayed line, no word of conditional moves.
#[test]
fn the_opponent_never_reads_an_unplayed_line() {
    let mut h = Harness::new();
    alice_opens_with_three_lines(&mut h);
    send(&mut h, BOB, "move 101 bob bob-pw e5");
    for asked in ["show 101", "history 101", "pgn 101", "games bob"] {
        send(&mut h, BOB, asked);
    }
    send(&mut h, BOB, "move 101 bob bob-pw Nf6");
    send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw Nxe5\nif 101 alice alice-pw d6 Nf3 Nxe4 d3",
    );
    send(&mut h, BOB, "show 101");
    send(&mut h, BOB, "resign 101 bob bob-pw");
    assert_eq!(lines_stored(&h), "");
    assert_never_read(
        &h,
        BOB,
        &["3.Bb5", "4.Ba4", "1...c5", "Nxe4 5.d3", "d6 4.Nf3", "4.Nf3"],
    );
}

/// `if cancel`, `if none` and `if stop` in a reply clear the sender's
/// lines and are answered (issue 35); such a line is never passed on as
/// chat, nor is an `if` line that cannot be read, while prose after `if`
/// ("If you agree, ...") stays a comment the opponent reads.
#[test]
fn if_in_a_reply_is_never_chat() {
    for clearing in ["if cancel", "If none.", "if STOP"] {
        let mut h = Harness::new();
        let (alice_new, _) = h.alice_and_bob_on("chess");
        h.reply(&alice_new, ALICE, "e4\nif e5 Nf3");
        assert!(!lines_stored(&h).is_empty(), "the line is stored");
        let board_mail = h
            .all_mails()
            .into_iter()
            .rfind(|m| m.to == ALICE && m.reply_to.is_some())
            .expect("a board mail to Alice");
        let mails = h.reply(&board_mail, ALICE, clearing);
        let answer = body_to(&mails, ALICE);
        assert!(
            answer.contains("Your conditional line on board 101 was dropped."),
            "{clearing}: {answer}"
        );
        assert_eq!(lines_stored(&h), "", "{clearing}");
        assert!(
            mails.iter().all(|m| m.to != BOB),
            "{clearing} reached bob: {mails:#?}"
        );
        let word = clearing.split_whitespace().nth(1).expect("a word");
        for text in everything_to(&h, BOB) {
            assert!(!text.contains(word), "{clearing} reached bob:\n{text}");
        }
    }
    // A line that cannot be read is refused and passes on to nobody.
    let mut h = Harness::new();
    let (alice_new, _) = h.alice_and_bob_on("chess");
    h.reply(&alice_new, ALICE, "e4");
    let board_mail = h
        .all_mails()
        .into_iter()
        .rfind(|m| m.to == ALICE && m.reply_to.is_some())
        .expect("a board mail to Alice");
    let mails = h.reply(&board_mail, ALICE, "if e5 Qxh7");
    assert!(mails.iter().all(|m| m.to != BOB), "{mails:#?}");
    assert!(body_to(&mails, ALICE).contains("nothing was stored"));
    assert_eq!(lines_stored(&h), "");
    // Prose after `if` in a reply is a comment that reaches the opponent.
    let bob_mail = h
        .all_mails()
        .into_iter()
        .rfind(|m| m.to == BOB && m.reply_to.is_some())
        .expect("a board mail to Bob");
    let mails = h.reply(&bob_mail, BOB, "e5\nIf you agree, a quiet game.");
    assert!(
        body_to(&mails, ALICE).contains("If you agree, a quiet game."),
        "{mails:#?}"
    );
}

/// The number of times `needle` stands in `haystack`.
fn count(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// One current list of lines per answer (issue 37): each `if` says what it
/// did to its line, and the player's lines as they stand after the whole
/// mail (its answers played) are shown once, under the board or after the
/// last `if`; the opponent reads none of it.
#[test]
fn one_current_list_of_lines_per_mail() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    // A turn and two lines: the list once, under the board.
    let mails = send(
        &mut h,
        ALICE,
        "move 101 alice alice-pw e4\n\
         if 101 alice alice-pw e5 Nf3\n\
         if 101 alice alice-pw c5 Nc3",
    );
    let answer = body_to(&mails, ALICE);
    assert_eq!(count(&answer, "Your conditional moves"), 1, "{answer}");
    assert!(
        answer.contains("Conditional line added on board 101: 1...e5 2.Nf3."),
        "{answer}"
    );
    assert!(
        answer.contains("Conditional line added on board 101: 1...c5 2.Nc3."),
        "{answer}"
    );
    assert_eq!(
        count(&answer, "1...e5 2.Nf3"),
        2,
        "added, then listed: {answer}"
    );
    // Lines alone (no board mail): the list once, after the last line.
    let mails = send(
        &mut h,
        ALICE,
        "if 101 alice alice-pw d5 exd5\nif 101 alice alice-pw e5 Nf3 Nc6 Bb5",
    );
    let answer = body_to(&mails, ALICE);
    assert_eq!(count(&answer, "Your conditional moves"), 1, "{answer}");
    let list = answer
        .split("Your conditional moves on board 101 now (3 lines, only you see them)")
        .nth(1)
        .unwrap_or_else(|| panic!("the list last: {answer}"));
    for line in ["1...e5 2.Nf3 Nc6 3.Bb5", "1...c5 2.Nc3", "1...d5 2.exd5"] {
        assert!(list.contains(line), "{line} in {list}");
    }
    assert!(
        answer.contains("Conditional line extended on board 101: 1...e5 2.Nf3 Nc6 3.Bb5."),
        "{answer}"
    );
    // Bob's line answered at once in his own mail: his list is the one left
    // after the chain, never the line as he gave it from the position
    // before.
    let mails = send(
        &mut h,
        BOB,
        "move 101 bob bob-pw e5\nif 101 bob bob-pw Nf3 Nc6 Bb5 a6 Ba4 Nf6",
    );
    let answer = body_to(&mails, BOB);
    assert!(answer.contains("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6"), "{answer}");
    assert_eq!(count(&answer, "Your conditional moves"), 1, "{answer}");
    let list = answer
        .split("Your conditional moves (only you see them):")
        .nth(1)
        .and_then(|rest| rest.split("Deadlines:").next())
        .unwrap_or_else(|| panic!("the list under the board: {answer}"));
    assert!(list.trim_start().starts_with("4.Ba4 Nf6"), "{list}");
    assert!(!list.contains("2.Nf3"), "{list}");
    // Bob has lines of his own, so only Alice's unplayed turns are checked.
    for text in everything_to(&h, BOB) {
        for turn in ["1...d5", "2.exd5", "1...c5", "2.Nc3"] {
            assert!(!text.contains(turn), "bob read {turn}:\n{text}");
        }
    }
    let alice = body_to(&mails, ALICE);
    assert!(!alice.contains("4.Ba4 Nf6"), "{alice}");
    assert!(!alice.contains("Ba4 Nf6"), "{alice}");
}
