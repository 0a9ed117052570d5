//! Conditional moves (issue 26), wired into the mail transaction: the
//! `if` command ([`give`]), answering the opponent's turns from a
//! player's lines at the end of each mail ([`answer_turns`]), dropping
//! lines (`play::drop_conditional_lines`, on a draw offer); the owner's own view of them is the board
//! mails' (`board_mail::views`).
//! The lines themselves (checking, the tree, chains, the stored text) are
//! `pbem-conditional`'s.
//!
//! A player's tree is stored with the number of turns of the position it
//! is relative to (the owner's opponent to move). Answers are worked out
//! once per mail, after all its commands, for every board the mail
//! touched: so a line may start from the position after the player's own
//! turn earlier in the same mail, and the opponent's trees answer it then.
//! A tree is followed when exactly the opponent's one turn was played
//! since it was given; any other change of position (a turn taken back,
//! the owner playing by hand) drops it, and the owner is told. Every
//! answer is played through the same code as a turn by mail
//! (`play::play_turn`), so the game's end, ratings and events follow.
//!
//! Nothing here tells the opponent of an unplayed line: what is said of
//! the lines goes to their owner alone (`Ctx::tell_player`).

use pbem_conditional::{Stop, Tree, chain};
use shakmaty::Color;

use super::board_mail::{self, Loaded, Occasion, load};
use super::play::{play_queued, play_turn};
use super::{Failure, MailCtx, ServiceError};
use crate::domain::{BoardNumber, PlayerId};
use crate::store::CachedStatements;
use crate::store::conditional::{self as stored, StoredLines};

/// The number of turns played on a loaded board.
pub(super) fn turn_count(loaded: &Loaded) -> u32 {
    u32::try_from(loaded.turns.len()).unwrap_or(u32::MAX)
}

/// `player`'s tree on the board as it stands, when it is relative to the
/// current position; otherwise (none, or stale) an empty one.
pub(super) fn current_tree(
    ctx: &MailCtx<'_>,
    loaded: &Loaded,
    player: PlayerId,
    color: Color,
) -> Result<Tree, ServiceError> {
    let row = stored::of_player(ctx.conn, loaded.board.number, player)?;
    Ok(row
        .filter(|row| row.at_turn == turn_count(loaded) && loaded.game.state().turn() != color)
        .and_then(|row| Tree::from_stored(&row.stored, &loaded.game, color).ok())
        .unwrap_or_else(|| Tree::new(color)))
}

/// After all the commands of a mail: on every board it touched, the lines
/// answer the turns played, chaining while both players' lines fit.
pub(super) fn answer_turns(ctx: &mut MailCtx<'_>) -> Result<(), ServiceError> {
    for number in ctx.touched_boards() {
        match answer_on(ctx, number) {
            Ok(()) | Err(Failure::Refused(_)) => {}
            Err(Failure::Fatal(error)) => return Err(error),
        }
    }
    Ok(())
}

/// At most this many rounds of answers and queued turns after one mail:
/// each queued turn is played once, so two rounds suffice; the bound
/// holds whatever the store holds.
const ROUNDS: usize = 4;

fn answer_on(ctx: &mut MailCtx<'_>, number: BoardNumber) -> Result<(), Failure> {
    for _ in 0..ROUNDS {
        let rows = stored::of_board(ctx.conn, number)?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut loaded = load(ctx, number)?;
        if loaded.board.result.is_some() {
            for row in &rows {
                stored::clear(ctx.conn, number, row.player)?;
            }
            return Ok(());
        }
        let Some((mut to_follow, mut waiting)) = trees_of(ctx, &loaded, &rows)? else {
            return Ok(());
        };
        // The game before its last turn: a line fits a turn that reaches
        // the same position by another order of its moves.
        let before = board_mail::replay(
            &loaded.board,
            &loaded.turns,
            loaded.turns.len().saturating_sub(1),
        )?;
        let answered = chain(&before, &loaded.game, &mut to_follow, &mut waiting);
        ctx.forget_after_turn();
        let last = loaded
            .game
            .turns()
            .last()
            .map(|turn| turn.text())
            .unwrap_or_default();
        let mut played_all = true;
        for auto in &answered.turns {
            let owner = loaded.board.player(auto.player);
            let numbered = match auto.player {
                Color::White => format!("{}.{}", auto.number, auto.text),
                Color::Black => format!("{}...{}", auto.number, auto.text),
            };
            ctx.conn.execute_cached("SAVEPOINT conditional", [])?;
            match play_turn(ctx, &mut loaded, owner, &auto.text) {
                Ok(()) => {
                    ctx.conn.execute_cached("RELEASE conditional", [])?;
                    let kept = match auto.lines_kept {
                        0 => "none of your lines goes on from there".to_string(),
                        1 => "1 of your lines goes on".to_string(),
                        n => format!("{n} of your lines go on"),
                    };
                    ctx.tell_player(
                        number,
                        owner,
                        format!("Played from your conditional moves: {numbered} ({kept})."),
                    );
                }
                Err(Failure::Refused(refusal)) => {
                    // Cannot happen while trees are checked; never trusted.
                    ctx.conn
                        .execute_batch("ROLLBACK TO conditional; RELEASE conditional")?;
                    loaded = load(ctx, number)?;
                    ctx.tell_player(
                        number,
                        owner,
                        format!(
                            "Your conditional answer {numbered} could not be played ({}); your lines were dropped.",
                            refusal.message
                        ),
                    );
                    stored::clear(ctx.conn, number, owner)?;
                    played_all = false;
                    break;
                }
                Err(fatal) => return Err(fatal),
            }
        }
        if !played_all {
            return Ok(());
        }
        match &answered.stop {
            Stop::NoLineFits { player, dropped } => {
                let owner = loaded.board.player(*player);
                let turn = if answered.turns.is_empty() {
                    last.clone()
                } else {
                    loaded
                        .game
                        .turns()
                        .last()
                        .map(|t| t.text())
                        .unwrap_or_default()
                };
                let lines = if *dropped == 1 {
                    "your conditional line was dropped".to_string()
                } else {
                    format!("all {dropped} of your conditional lines were dropped")
                };
                ctx.tell_player(
                    number,
                    owner,
                    format!("Your opponent played {turn}, which begins none of your conditional lines: {lines}."),
                );
            }
            Stop::GameOver { dropped, .. } => {
                for (color, _) in dropped {
                    ctx.tell_player(
                        number,
                        loaded.board.player(*color),
                        "The game ended: your remaining conditional moves were dropped."
                            .to_string(),
                    );
                }
            }
            Stop::Unplayable {
                player,
                text,
                reason,
            } => {
                ctx.tell_player(
                    number,
                    loaded.board.player(*player),
                    format!("Your conditional answer {text} could not be played ({reason}); your lines were dropped."),
                );
            }
            Stop::NothingToAnswer | Stop::NoLines { .. } | Stop::Limit => {}
        }
        store_trees(ctx, &loaded, [&to_follow, &waiting])?;
        // The player now to move may have queued a turn: it answers as
        // ever, and the other player's lines may answer it in turn.
        if !answered.turns.is_empty() {
            board_mail::board_mails(ctx, number, Occasion::Update)?;
        }
        let played = loaded.turns.len();
        play_queued(ctx, &mut loaded)?;
        if loaded.turns.len() == played {
            return Ok(());
        }
    }
    Ok(())
}

/// The tree that follows the last turn (of the player to move, given
/// before it) and the other player's (current), from the stored rows;
/// rows for any other position are dropped and their owner told. `None`
/// when no tree has a turn to follow.
fn trees_of(
    ctx: &MailCtx<'_>,
    loaded: &Loaded,
    rows: &[StoredLines],
) -> Result<Option<(Tree, Tree)>, Failure> {
    let number = loaded.board.number;
    let turns = turn_count(loaded);
    let to_move = loaded.game.state().turn();
    let mut to_follow = None;
    let mut waiting = None;
    for row in rows {
        let Some(color) = loaded.board.color_of(row.player) else {
            stored::clear(ctx.conn, number, row.player)?;
            continue;
        };
        let tree = if color == to_move && row.at_turn.checked_add(1) == Some(turns) {
            let before = board_mail::replay(&loaded.board, &loaded.turns, turns as usize - 1)?;
            Tree::from_stored(&row.stored, &before, color).ok()
        } else if color != to_move && row.at_turn == turns {
            Tree::from_stored(&row.stored, &loaded.game, color).ok()
        } else {
            None
        };
        match tree {
            Some(tree) if color == to_move => to_follow = Some(tree),
            Some(tree) => waiting = Some(tree),
            None => {
                stored::clear(ctx.conn, number, row.player)?;
                ctx.tell_player(
                    number,
                    row.player,
                    format!("Your conditional moves on board {number} were dropped: the position they were given for has changed (a turn taken back, or played by hand)."),
                );
            }
        }
    }
    Ok(to_follow.map(|tree| (tree, waiting.unwrap_or_else(|| Tree::new(!to_move)))))
}

/// Stores the trees as the chain left them: each relative to the current
/// position when its owner's opponent is to move, else to the one before
/// (it still has the last turn to follow); an empty tree is dropped.
fn store_trees<'t>(
    ctx: &MailCtx<'_>,
    loaded: &Loaded,
    trees: impl IntoIterator<Item = &'t Tree>,
) -> Result<(), ServiceError> {
    let number = loaded.board.number;
    let turns = turn_count(loaded);
    for tree in trees {
        let owner = loaded.board.player(tree.owner());
        if tree.is_empty() || loaded.board.result.is_some() {
            stored::clear(ctx.conn, number, owner)?;
        } else {
            let at = if tree.owner() == loaded.game.state().turn() {
                turns.saturating_sub(1)
            } else {
                turns
            };
            stored::set(ctx.conn, number, owner, at, &tree.to_stored(), ctx.now)?;
        }
    }
    Ok(())
}
