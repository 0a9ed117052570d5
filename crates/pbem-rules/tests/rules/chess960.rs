//! Chess960: perft against the published table, the Scharnagl numbering of
//! the starting arrays, FEN in and out, and castling as written by players.

use std::collections::HashSet;

use pbem_rules::{Game, Variant};

use crate::common;

const PERFT_TABLE: &str = include_str!("../fixtures/chess960/perft.txt");

/// Every row of the table, to depth 4, through the same `State::perft` the
/// other variants use.
#[test]
fn perft_matches_the_published_table() {
    let mut rows = 0;
    for line in PERFT_TABLE.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().expect("a FEN");
        let game = Game::from_fen(Variant::Chess960, fen).expect("valid table position");
        for (depth, expected) in (1..).zip(fields) {
            let expected: u64 = expected.parse().expect("a count");
            assert_eq!(
                game.state().perft(game.rules(), depth),
                expected,
                "{fen} at depth {depth}"
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 12);
}

/// 518 is the usual array, 0 is BBQNNRKR, 959 the last; 960 is none. The
/// 960 arrays are all different.
#[test]
fn arrays_are_numbered_as_scharnagl() {
    let fen = |n| Game::chess960(n).expect("an array").fen();
    assert_eq!(
        fen(518),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert_eq!(
        fen(0),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
    );
    assert_eq!(
        fen(959),
        "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1"
    );
    assert!(Game::chess960(960).is_none());
    assert!(Game::chess960(u32::MAX).is_none());
    let distinct: HashSet<String> = (0..960).map(fen).collect();
    assert_eq!(distinct.len(), 960);
    assert_eq!(Game::new(Variant::Chess960).fen(), fen(518));
}

/// Shredder-FEN and X-FEN castling are both read; X-FEN is written (file
/// letters only where a rook is not the outermost on its side).
#[test]
fn fen_reads_shredder_and_x_fen_and_writes_x_fen() {
    let shredder = Game::from_fen(
        Variant::Chess960,
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    )
    .expect("Shredder-FEN");
    assert_eq!(
        shredder.fen(),
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    );
    let x_fen = Game::from_fen(
        Variant::Chess960,
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
    )
    .expect("X-FEN");
    assert_eq!(x_fen.fen(), shredder.fen());
    // A rook inside the outer one keeps its file letter.
    let inner =
        Game::from_fen(Variant::Chess960, "4k3/8/8/8/8/8/8/RR2K2R w BH - 0 1").expect("inner rook");
    assert_eq!(inner.fen(), "4k3/8/8/8/8/8/8/RR2K2R w KB - 0 1");
}

/// From array 0 (BBQNNRKR) the king already stands on g1: O-O moves only
/// the h1 rook, to f1, once the f1 rook has made room; the king taking its
/// own rook (`g1h1`) is the same move, and so is Black's.
#[test]
fn castling_by_o_o_and_by_king_takes_rook() {
    let mut game = Game::chess960(0).expect("array 0");
    let mut play = |text: &str| {
        game.play(&common::turn(text))
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .text()
    };
    assert_eq!(play("f4"), "f4");
    assert_eq!(play("f5"), "f5");
    assert_eq!(play("Rf3"), "Rf3");
    assert_eq!(play("Rf6"), "Rf6");
    let mut by_uci = game.clone();
    assert_eq!(
        by_uci
            .play(&common::turn("g1h1"))
            .expect("king takes own rook")
            .text(),
        "O-O"
    );
    assert_eq!(game.play(&common::turn("O-O")).expect("O-O").text(), "O-O");
    assert_eq!(
        game.play(&common::turn("g8h8"))
            .expect("king takes own rook")
            .text(),
        "O-O"
    );
    assert_eq!(
        game.fen(),
        "bbqnnrk1/ppppp1pp/5r2/5p2/5P2/5R2/PPPPP1PP/BBQNNRK1 w - - 4 4"
    );
}

/// The king may not castle through an attacked square: from array 0 with
/// the f-file open to a black rook, O-O-O (king g1 to c1) passes f1.
#[test]
fn castling_may_not_cross_an_attacked_square() {
    let game =
        Game::from_fen(Variant::Chess960, "1r4k1/8/8/8/8/8/8/R5K1 w A - 0 1").expect("position");
    let mut allowed = game.clone();
    assert_eq!(
        allowed.play(&common::turn("O-O-O")).expect("legal").text(),
        "O-O-O"
    );
    let attacked =
        Game::from_fen(Variant::Chess960, "5rk1/8/8/8/8/8/8/R5K1 w A - 0 1").expect("position");
    assert!(attacked.clone().play(&common::turn("O-O-O")).is_err());
}
