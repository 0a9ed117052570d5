//! What the board commands share (their acts are in `commands/`): playing
//! and storing a turn, the queued turn after it, the board a speaker plays
//! on, the first steps of the one-word board commands, and loading a board
//! to read.

use shakmaty::Color;

use super::board_mail::{self, Loaded, load};
use super::challenges;
use super::ending::{Ending, end_game};
use super::{Failure, MailCtx, refuse};
use crate::command::Speaker;
use crate::domain::{BoardNumber, PlayerId};
use crate::reader::Sight;
use crate::rules::PlayError;
use crate::rules::notation::parse_turn;
use crate::store::boards::{self, OfferKind, StoredTurn};
use crate::store::players::{self, Player};
use crate::store::{CachedStatements, deadlines, parse_time, time_text};

/// What every one-word board command (`resign`, `draw`, `accept`,
/// `reject`, `undo`, `decline`) does first: the board (a bare word in a
/// reply names the reply's), the speaker, and the board they play on,
/// still running. `answers_challenge`: the command is `accept` or
/// `decline`, which in a reply to the challenge's board mail answer the
/// challenge even when the challenger has played since (neither depends on
/// the position).
pub(super) fn board_action(
    ctx: &mut MailCtx<'_>,
    board: u32,
    speaker: &Speaker,
    token: Option<(BoardNumber, PlayerId)>,
    answers_challenge: bool,
) -> Result<(BoardNumber, Player, Loaded, Color), Failure> {
    let number = if board == 0 {
        token.map_or(BoardNumber(0), |(board, _)| board)
    } else {
        BoardNumber(board)
    };
    let answers_challenge = answers_challenge
        && *speaker == Speaker::Token
        && match (boards::get(ctx.conn, number)?, token) {
            (Some(board), Some((_, by))) => challenges::waiting_for(ctx, &board)? == Some(by),
            _ => false,
        };
    let player = if answers_challenge {
        let stale = ctx.stale.take();
        let player = ctx.speaker(speaker, token, Some(number));
        ctx.stale = stale;
        player?
    } else {
        ctx.speaker(speaker, token, Some(number))?
    };
    let (loaded, color) = my_active_board(ctx, number, &player)?;
    Ok((number, player, loaded, color))
}

/// Whether the opponent of `player` on board `number` stands by an offer
/// of `kind`.
pub(super) fn offer_by_opponent(
    ctx: &MailCtx<'_>,
    number: BoardNumber,
    opponent: PlayerId,
    kind: OfferKind,
) -> Result<bool, Failure> {
    Ok(boards::offer(ctx.conn, number, kind)?.is_some_and(|offer| offer.by == opponent))
}

/// `accept` or `reject` of the opponent's standing offer (a draw, or taking
/// back the last turn); `accepted` tells which.
pub(super) fn answer_offer(
    ctx: &mut MailCtx<'_>,
    number: BoardNumber,
    player: &Player,
    opponent: PlayerId,
    loaded: &mut Loaded,
    accepted: bool,
) -> Result<(), Failure> {
    let kind = if offer_by_opponent(ctx, number, opponent, OfferKind::Draw)? {
        OfferKind::Draw
    } else if offer_by_opponent(ctx, number, opponent, OfferKind::Undo)? {
        OfferKind::Undo
    } else {
        return Err(refuse(
            format!("your opponent has no standing offer on board {number}"),
            Some(number),
        ));
    };
    boards::clear_offer(ctx.conn, number, kind)?;
    let what = match kind {
        OfferKind::Draw => "draw offer",
        OfferKind::Undo => "request to take back the last turn",
    };
    let verb = if accepted { "accepted" } else { "rejected" };
    let by = players::by_id(ctx.conn, opponent)?.userid;
    ctx.tell(
        number,
        format!("{} {verb} the {what} of {by}.", player.userid),
    );
    if accepted {
        match kind {
            OfferKind::Draw => end_game(ctx, number, DRAW_BY_AGREEMENT)?,
            OfferKind::Undo => {
                boards::remove_last_turn(ctx.conn, number, ctx.now)?;
                *loaded = load(ctx, number)?;
                let to_move = loaded.board.player(loaded.game.state().turn());
                deadlines::set_to_move(ctx.conn, number, to_move)?;
            }
        }
    }
    Ok(())
}

/// Loads a board the speaker plays on, refusing finished boards.
pub(super) fn my_active_board(
    ctx: &mut MailCtx<'_>,
    number: BoardNumber,
    player: &Player,
) -> Result<(Loaded, Color), Failure> {
    let loaded = load(ctx, number)?;
    let Some(color) = loaded.board.color_of(player.id) else {
        return Err(refuse(
            format!("{} does not play on board {number}", player.userid),
            Some(number),
        ));
    };
    if let Some(result) = &loaded.board.result {
        return Err(refuse(
            format!("board {number} is finished ({result})"),
            Some(number),
        ));
    }
    Ok((loaded, color))
}

/// Judges and stores one turn; records the result if the game ended.
pub(super) fn play_turn(
    ctx: &MailCtx<'_>,
    loaded: &mut Loaded,
    player: PlayerId,
    written: &str,
) -> Result<(), Failure> {
    let number = loaded.board.number;
    let moves = parse_turn(written).map_err(|e| refuse(e.to_string(), Some(number)))?;
    let (text, notes) = match loaded.game.play(&moves) {
        Ok(played) => (played.text(), played.notes.clone()),
        Err(PlayError::Illegal(error)) => return Err(refuse(error.to_string(), Some(number))),
        Err(PlayError::GameOver(end)) => {
            return Err(refuse(
                format!("the game is over ({})", end.score()),
                Some(number),
            ));
        }
    };
    let seq = loaded.turns.len() as u32 + 1;
    boards::append_turn(
        ctx.conn,
        number,
        seq,
        &text,
        player,
        Some(&ctx.mail.message_id),
        ctx.now,
    )?;
    // How pbem read a move the text left open (plain move or en passant).
    for note in &notes {
        boards::add_comment(ctx.conn, number, None, seq, note, ctx.now)?;
    }
    // The turn as stored, without reading the board's turns again.
    loaded.turns.push(StoredTurn {
        seq,
        text,
        player,
        played_at: parse_time(&time_text(ctx.now))?,
    });
    deadlines::set_to_move(
        ctx.conn,
        number,
        loaded.board.player(loaded.game.state().turn()),
    )?;
    if let Some(end) = loaded.game.end() {
        end_game(
            ctx,
            number,
            Ending::Played {
                score: end.score(),
                reason: end.reason.describe(),
            },
        )?;
        loaded.board.result = Some(end.score().to_string());
    }
    Ok(())
}

/// Plays the queued turn of the player now to move, if there is one and
/// it is legal; a queued turn that is not is dropped with a comment.
pub(super) fn play_queued(ctx: &MailCtx<'_>, loaded: &mut Loaded) -> Result<(), Failure> {
    if loaded.board.result.is_some() {
        return Ok(());
    }
    let number = loaded.board.number;
    let next = loaded.board.player(loaded.game.state().turn());
    let Some(queued) = boards::queued_turn(ctx.conn, number, next)? else {
        return Ok(());
    };
    boards::clear_queued_turn(ctx.conn, number, next)?;
    let seq = loaded.turns.len() as u32;
    ctx.conn.execute_cached("SAVEPOINT queued", [])?;
    match play_turn(ctx, loaded, next, &queued) {
        Ok(()) => {
            ctx.conn.execute_cached("RELEASE queued", [])?;
            let note = format!("The queued turn {queued} was played.");
            boards::add_comment(ctx.conn, number, None, seq + 1, &note, ctx.now)?;
        }
        Err(Failure::Refused(refusal)) => {
            ctx.conn
                .execute_batch("ROLLBACK TO queued; RELEASE queued")?;
            *loaded = load(ctx, number)?;
            let note = format!(
                "The queued turn {queued} was not played: {}",
                refusal.message
            );
            boards::add_comment(ctx.conn, number, None, seq, &note, ctx.now)?;
        }
        Err(fatal) => return Err(fatal),
    }
    Ok(())
}

/// Loads a board for `show`, `history`, `pgn` or `subscribe` as the
/// reader policy (`crate::reader`) lets the sender read it: a `--private`
/// game or a challenge nobody accepted only for its two players (to anyone
/// else it is no board at all), a running game of an event with a
/// `--public-delay` as many turns behind for all but its players and a
/// director who does not play.
pub(super) fn load_to_read(
    ctx: &mut MailCtx<'_>,
    number: BoardNumber,
) -> Result<(Loaded, Sight), Failure> {
    let Some(sight) = crate::reader::board(ctx.conn, number, ctx.who()?)? else {
        return Err(refuse(format!("there is no board {number}"), None));
    };
    let mut loaded = load(ctx, number)?;
    let shown = sight.turns_shown(loaded.turns.len());
    if shown < loaded.turns.len() {
        loaded.game = board_mail::replay(&loaded.board, &loaded.turns, shown)?;
        loaded.turns.truncate(shown);
    }
    Ok((loaded, sight))
}

/// Drops every conditional line on board `number` (issue 26), telling
/// each owner alone.
pub(super) fn drop_conditional_lines(
    ctx: &MailCtx<'_>,
    number: BoardNumber,
    why: &str,
) -> Result<(), Failure> {
    for row in crate::store::conditional::of_board(ctx.conn, number)? {
        crate::store::conditional::clear(ctx.conn, number, row.player)?;
        ctx.tell_player(
            number,
            row.player,
            format!("Your conditional moves on board {number} were dropped: {why}."),
        );
    }
    Ok(())
}

/// The end of a game drawn by accepting an offer.
pub(super) const DRAW_BY_AGREEMENT: Ending<'static> = Ending::Played {
    score: "1/2-1/2",
    reason: "draw by agreement",
};
