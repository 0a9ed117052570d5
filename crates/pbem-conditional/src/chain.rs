//! Answers in a row: after a turn, the tree of the player now to move
//! answers it; when the other player's tree answers that answer in turn,
//! the answers chain until a tree has no line that fits, the game ends, or
//! [`MAX_CHAIN_TURNS`] automatic turns were played.
//!
//! The chain is worked out on a copy of the game; the caller plays the
//! turns it lists (their canonical texts, each legal where it stands) as it
//! plays any turn, and stores the trees as the chain left them.

use pbem_rules::notation::parse_turn;
use pbem_rules::{Game, GameEnd};
use shakmaty::Color;

use crate::line::MAX_TURNS_PER_LINE;
use crate::tree::{Follow, Tree};

/// At most this many automatic turns after one turn. Each answer takes a
/// tree one pair deeper and a line has at most ten pairs, so two trees
/// answer at most twenty times anyway; the bound holds whatever the trees.
pub const MAX_CHAIN_TURNS: usize = MAX_TURNS_PER_LINE;

/// A turn played from a player's lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AutoTurn {
    /// Whose lines answered.
    pub player: Color,
    /// The turn pair number, as in `12.` of a record.
    pub number: u32,
    /// The turn in canonical notation (`#` on a mate), to play and to show.
    pub text: String,
    /// How many of the player's lines go on after it.
    pub lines_kept: usize,
}

/// Why the chain stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The game has no turn yet to answer.
    NothingToAnswer,
    /// The player to move has no lines (maybe after answering before).
    NoLines { player: Color },
    /// The player to move had lines, none beginning with the last turn:
    /// all `dropped` were dropped.
    NoLineFits { player: Color, dropped: usize },
    /// The game is over: every line left was dropped, `dropped` per player
    /// who had some.
    GameOver {
        end: GameEnd,
        dropped: Vec<(Color, usize)>,
    },
    /// [`MAX_CHAIN_TURNS`] automatic turns were played.
    Limit,
    /// An answer could not be played (it cannot happen while trees are
    /// checked and followed as this crate does; the player's lines were
    /// dropped rather than trusted).
    Unplayable {
        player: Color,
        text: String,
        reason: String,
    },
}

/// The automatic turns after the last turn of a game, in order, and why
/// they stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub turns: Vec<AutoTurn>,
    pub stop: Stop,
}

/// Follows the last turn of `game` with the trees of both players (in
/// either order; a tree whose owner is not to move waits), answer after
/// answer, changing the trees as [`Tree::follow_position`] does (`before`
/// is the game before that last turn). Ends the lines of both when the
/// game ends.
pub fn chain(before: &Game, game: &Game, first: &mut Tree, second: &mut Tree) -> Chain {
    let mut before = before.clone();
    let mut game = game.clone();
    let mut turns = Vec::new();
    let stop = loop {
        if let Some(end) = game.end() {
            let dropped = [&mut *first, &mut *second]
                .into_iter()
                .filter_map(|tree| {
                    let owner = tree.owner();
                    let lines = tree.clear();
                    (lines > 0).then_some((owner, lines))
                })
                .collect();
            break Stop::GameOver { end, dropped };
        }
        if game.turns().is_empty() {
            break Stop::NothingToAnswer;
        }
        let player = game.state().turn();
        let tree = if first.owner() == player {
            &mut *first
        } else if second.owner() == player {
            &mut *second
        } else {
            break Stop::NoLines { player };
        };
        if tree.is_empty() {
            break Stop::NoLines { player };
        }
        if turns.len() >= MAX_CHAIN_TURNS {
            break Stop::Limit;
        }
        let (answer, lines_kept) = match tree.follow_position(&before, &game) {
            Follow::NoLines => break Stop::NoLines { player },
            Follow::NoLineFits { dropped } => break Stop::NoLineFits { player, dropped },
            Follow::Answer { answer, lines_kept } => (answer, lines_kept),
        };
        let number = game.state().turn_number();
        before = game.clone();
        let played = parse_turn(answer.text())
            .map_err(|error| error.to_string())
            .and_then(|moves| game.play(&moves).map_err(|error| error.to_string()))
            .and_then(|played| {
                if &played.turn == answer.turn() {
                    Ok(played.text())
                } else {
                    Err(format!("{} was read as other moves", answer.text()))
                }
            });
        match played {
            Ok(text) => turns.push(AutoTurn {
                player,
                number,
                text,
                lines_kept,
            }),
            Err(reason) => {
                tree.clear();
                break Stop::Unplayable {
                    player,
                    text: answer.text().to_string(),
                    reason,
                };
            }
        }
    };
    Chain { turns, stop }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::tests::{game_after, play};
    use pbem_rules::{EndReason, Variant};

    #[test]
    fn answers_chain_while_both_players_lines_fit() {
        // After 1.e4, White has lines for Black's turn; Black, after
        // 1...e5, would have lines for White's second turn.
        let mut game = game_after(Variant::Chess, None, "1.e4");
        let mut white = Tree::new(Color::White);
        white
            .add(&game, "e5 Nf3 Nc6 Bb5 a6 Ba4")
            .expect("White's line");
        white.add(&game, "e5 Nf3 Nf6 Nxe5").expect("White's line");
        play(&mut game, "e5");
        let mut black = Tree::new(Color::Black);
        // Black's lines start from the position after Black's own e5.
        black
            .add(&game, "Nf3 Nc6 Bb5 a6 Ba4 Nf6")
            .expect("Black's line");
        let chain = chain(&game, &game, &mut black, &mut white);
        let texts: Vec<(Color, &str)> = chain
            .turns
            .iter()
            .map(|turn| (turn.player, turn.text.as_str()))
            .collect();
        assert_eq!(
            texts,
            [
                (Color::White, "Nf3"),
                (Color::Black, "Nc6"),
                (Color::White, "Bb5"),
                (Color::Black, "a6"),
                (Color::White, "Ba4"),
                (Color::Black, "Nf6"),
            ]
        );
        assert_eq!(chain.turns[0].number, 2);
        assert_eq!(chain.turns[5].number, 4);
        assert_eq!(chain.turns[0].lines_kept, 2);
        assert_eq!(chain.turns[2].lines_kept, 1);
        // White's tree ran out: White is to move with no lines.
        assert_eq!(
            chain.stop,
            Stop::NoLines {
                player: Color::White
            }
        );
        assert!(white.is_empty() && black.is_empty());
    }

    #[test]
    fn a_turn_no_line_fits_stops_the_chain_and_drops_the_lines() {
        let mut game = game_after(Variant::Chess, None, "1.e4");
        let mut white = Tree::new(Color::White);
        white.add(&game, "e5 Nf3").expect("White's line");
        play(&mut game, "e5");
        let mut black = Tree::new(Color::Black);
        black.add(&game, "Nc3 Nf6").expect("Black's line");
        black.add(&game, "d4 exd4").expect("Black's line");
        let chain = chain(&game, &game, &mut white, &mut black);
        assert_eq!(chain.turns.len(), 1);
        assert_eq!(
            chain.stop,
            Stop::NoLineFits {
                player: Color::Black,
                dropped: 2
            }
        );
        assert!(black.is_empty());
    }

    #[test]
    fn a_mate_ends_the_chain_and_every_line() {
        let mut game = game_after(Variant::Chess, None, "1.f3");
        let mut black = Tree::new(Color::Black);
        black
            .add(&game, "e5 Nc3")
            .expect_err("Black's own turn comes first");
        play(&mut game, "e5");
        black.add(&game, "g4 Qh4").expect("mate");
        black.add(&game, "d4 Nc6 d5 Nce7").expect("another line");
        assert_eq!(
            black.numbered_lines(&game),
            ["2.g4 Qh4#", "2.d4 Nc6 3.d5 Nce7"]
        );
        let mut white = Tree::new(Color::White);
        white.add(&game, "Nc3 g3").expect_err("White's own turn");
        // White plays g4; Black's lines mate at once.
        play(&mut game, "g4");
        let chain = chain(&game, &game, &mut white, &mut black);
        assert_eq!(chain.turns.len(), 1);
        assert_eq!(chain.turns[0].text, "Qh4#");
        let Stop::GameOver { end, dropped } = chain.stop else {
            panic!("{:?}", chain.stop);
        };
        assert_eq!(end.reason, EndReason::Checkmate);
        assert_eq!(dropped, []);
    }

    #[test]
    fn a_game_already_over_drops_every_line() {
        let mut game = game_after(Variant::Chess, None, "1.f3 e5");
        let mut black = Tree::new(Color::Black);
        black.add(&game, "g4 Qh4").expect("mate");
        black.add(&game, "g3 Nc6").expect("another");
        play(&mut game, "g4");
        play(&mut game, "Qh4");
        let mut white = Tree::new(Color::White);
        let chain = chain(&game, &game, &mut white, &mut black);
        assert!(chain.turns.is_empty());
        assert!(
            matches!(chain.stop, Stop::GameOver { ref dropped, .. } if dropped == &[(Color::Black, 2)])
        );
        assert!(black.is_empty());
    }

    #[test]
    fn nothing_to_answer_at_the_start() {
        let game = Game::new(Variant::Chess);
        let mut white = Tree::new(Color::White);
        let mut black = Tree::new(Color::Black);
        assert_eq!(
            chain(&game, &game, &mut white, &mut black).stop,
            Stop::NothingToAnswer
        );
    }

    #[test]
    fn chains_in_a_double_move_variant() {
        let mut game = game_after(Variant::Marseillais, None, "1.e4,d4");
        let mut white = Tree::new(Color::White);
        white.add(&game, "e5,d5 exd5,Nc3").expect("White's line");
        play(&mut game, "e5,d5");
        let mut black = Tree::new(Color::Black);
        black
            .add(&game, "exd5,Nc3 exd4,Qxd5")
            .expect("Black's line");
        let chain = chain(&game, &game, &mut white, &mut black);
        let texts: Vec<&str> = chain.turns.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(texts, ["exd5,Nc3", "exd4,Qxd5"]);
        assert_eq!(
            chain.stop,
            Stop::NoLines {
                player: Color::White
            }
        );
    }

    #[test]
    fn the_longest_chain_is_played_whole() {
        // Each tree holds one line of ten pairs, and each answers the
        // other's: twenty automatic turns, as many as the bound allows.
        let mut game = game_after(Variant::Chess, None, "1.e4 e5 2.Nf3");
        let mut white = Tree::new(Color::White);
        white
            .add(
                &game,
                "Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 Nc3",
            )
            .expect("White's line");
        play(&mut game, "Nc6");
        let mut black = Tree::new(Color::Black);
        black
            .add(
                &game,
                "Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4 c6 Nc3 Qc7",
            )
            .expect("Black's line");
        let chain = chain(&game, &game, &mut white, &mut black);
        assert_eq!(chain.turns.len(), MAX_CHAIN_TURNS);
        assert_eq!(chain.turns[19].text, "Qc7");
        assert_eq!(chain.turns[19].number, 12);
        assert_eq!(
            chain.stop,
            Stop::NoLines {
                player: Color::White
            }
        );
    }
}
