//! Standard chess perft through the variant layer (`State::perft`, the same
//! code path every variant uses) against the published numbers for the six
//! standard test positions (chessprogramming.org, "Perft Results").

use pbem_rules::{Game, Variant};

fn perft(fen: Option<&str>, depth: u32) -> u64 {
    let game = match fen {
        Some(fen) => Game::from_fen(Variant::Chess, fen).expect("valid test position"),
        None => Game::new(Variant::Chess),
    };
    game.state().perft(game.rules(), depth)
}

#[test]
fn start_position_to_depth_5() {
    let expected = [20, 400, 8_902, 197_281, 4_865_609];
    for (depth, &count) in (1..).zip(expected.iter()) {
        assert_eq!(perft(None, depth), count, "depth {depth}");
    }
}

#[test]
fn kiwipete_to_depth_4() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for (depth, count) in [(1, 48), (2, 2_039), (3, 97_862), (4, 4_085_603)] {
        assert_eq!(perft(Some(fen), depth), count, "depth {depth}");
    }
}

#[test]
fn position_3_to_depth_5() {
    let fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    for (depth, count) in [(1, 14), (2, 191), (3, 2_812), (4, 43_238), (5, 674_624)] {
        assert_eq!(perft(Some(fen), depth), count, "depth {depth}");
    }
}

#[test]
fn position_4_to_depth_4() {
    let fen = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    for (depth, count) in [(1, 6), (2, 264), (3, 9_467), (4, 422_333)] {
        assert_eq!(perft(Some(fen), depth), count, "depth {depth}");
    }
}

#[test]
fn position_4_mirrored_to_depth_4() {
    let fen = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1";
    for (depth, count) in [(1, 6), (2, 264), (3, 9_467), (4, 422_333)] {
        assert_eq!(perft(Some(fen), depth), count, "depth {depth}");
    }
}

#[test]
fn position_5_to_depth_4() {
    let fen = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";
    for (depth, count) in [(1, 44), (2, 1_486), (3, 62_379), (4, 2_103_487)] {
        assert_eq!(perft(Some(fen), depth), count, "depth {depth}");
    }
}

#[test]
fn position_6_to_depth_4() {
    let fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
    for (depth, count) in [(1, 46), (2, 2_079), (3, 89_890), (4, 3_894_594)] {
        assert_eq!(perft(Some(fen), depth), count, "depth {depth}");
    }
}

/// `first_turn` finds, without enumerating, the turn `visit_turns` visits first.
#[test]
fn the_first_turn_is_the_first_one_visited() {
    for variant in Variant::ALL {
        let game = Game::new(variant);
        let state = game.state();
        let mut first = None;
        state.visit_turns(game.rules(), &mut |turn, _| {
            first.get_or_insert_with(|| turn.clone());
        });
        assert_eq!(state.first_turn(game.rules()), first, "{variant}");
    }
}
