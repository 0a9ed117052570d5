//! Chess960 through the server: a game from a chosen array played by mail
//! to mate, with the start in the board mails and the PGN; a drawn array
//! without `--position`; bad positions refused without a board; and
//! `pbem perft` on positions of the published table.

use std::process::Command;

use pbem_testkit::{ALICE, BOB, Harness, flat, to};

/// Array 0 is BBQNNRKR. White opens both bishops' diagonals and mates on
/// g7 once Black's e8 knight, the only guard of g7 but the king, has left.
#[test]
fn a_chess960_game_from_array_0_is_played_by_mail_to_mate() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(
        ALICE,
        "new game",
        "chess960 challenge alice alice-pw bob --white --position=0",
    );
    assert_eq!(mails.len(), 2, "{mails:#?}");
    for mail in &mails {
        assert!(
            mail.body.contains("Start: Chess960 position 0 (BBQNNRKR)."),
            "{}",
            mail.body
        );
        assert!(
            mail.subject.contains("Chess960 Board 101"),
            "{}",
            mail.subject
        );
    }
    let turns = [
        (ALICE, "alice", "b3"),
        (BOB, "bob", "Nd6"),
        (ALICE, "alice", "d3"),
        (BOB, "bob", "a6"),
        (ALICE, "alice", "Qg5"),
        (BOB, "bob", "a5"),
    ];
    for (address, who, turn) in turns {
        let mails = h.send(address, "turn", &format!("move 101 {who} {who}-pw {turn}"));
        assert_eq!(mails.len(), 2, "{turn}: {mails:#?}");
    }
    let mails = h.send(ALICE, "turn", "move 101 alice alice-pw Qxg7");
    let body = &to(&mails, BOB).body;
    assert!(body.contains("4.Qxg7#"), "{body}");
    assert!(body.contains("1-0"), "{body}");
    let pgn = h.send(BOB, "pgn", "pgn 101");
    let text = &pgn[0].body;
    assert!(text.contains("[Variant \"Chess960\"]"), "{text}");
    assert!(text.contains("[SetUp \"1\"]"), "{text}");
    assert!(
        text.contains("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]"),
        "{text}"
    );
    assert!(
        text.contains("1.b3 Nd6 2.d3 a6 3.Qg5 a5 4.Qxg7# 1-0"),
        "{text}"
    );
}

/// Without `--position` an array is drawn, shown and stored; the usual
/// chess board carries no start line and no FEN tag.
#[test]
fn without_position_an_array_is_drawn() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess960");
    let drawn: u32 = h
        .database()
        .query_row(
            "SELECT start_position FROM boards WHERE number = 101",
            [],
            |r| r.get(0),
        )
        .expect("a drawn array");
    assert!(drawn < 960);
    assert!(
        alice
            .body
            .contains(&format!("Start: Chess960 position {drawn} (")),
        "{}",
        alice.body
    );
    let mails = h.send(ALICE, "new", "chess challenge alice alice-pw bob --white");
    assert!(
        !to(&mails, ALICE).body.contains("Start:"),
        "{}",
        to(&mails, ALICE).body
    );
    let pgn = h.send(BOB, "pgn", "pgn 102");
    assert!(!pgn[0].body.contains("[FEN"), "{}", pgn[0].body);
    let pgn = h.send(BOB, "pgn", "pgn 101");
    assert!(pgn[0].body.contains("[FEN"), "{}", pgn[0].body);
}

/// A position past 959, one that is no number, and `--position` on a
/// variant without arrays are refused, and no board is made.
#[test]
fn bad_positions_are_refused_and_change_nothing() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    for (line, expected) in [
        (
            "chess960 challenge alice alice-pw bob --position=960",
            "--position=960: give the number of a Chess960 starting array, from 0 to 959",
        ),
        (
            "chess960 challenge alice alice-pw bob --position=first",
            "--position=first: give the number of a Chess960 starting array",
        ),
        (
            "chess2 challenge alice alice-pw bob --position=12",
            "--position chooses a Chess960 starting array; chess2 has only the usual start",
        ),
    ] {
        let mails = h.send(ALICE, "new", line);
        assert_eq!(mails.len(), 1, "{line}: {mails:#?}");
        assert!(
            flat(&mails[0].body).contains(expected),
            "{line}: {}",
            mails[0].body
        );
        assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 0, "{line}");
    }
    // The entitled twin: a good position makes the board.
    h.send(
        ALICE,
        "new",
        "chess960 challenge alice alice-pw bob --position=959",
    );
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE start_position = 959"),
        1
    );
}

/// `pbem perft --variant chess960 --fen` agrees with the published table
/// (Shredder-FEN castling, as the table writes it).
#[test]
fn the_command_line_perft_of_chess960() {
    for (fen, depth, count) in [
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            3,
            12_189,
        ),
        (
            "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 3 9",
            3,
            26_895,
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .args([
                "perft",
                "--variant",
                "chess960",
                "--fen",
                fen,
                &depth.to_string(),
            ])
            .output()
            .expect("pbem runs");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.ends_with(&format!("turns({depth}) = {count}\n")),
            "{fen}: {text}"
        );
    }
}
