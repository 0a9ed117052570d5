//! An event's side of its games as they end: [`game_ended`], which
//! `ending::end_game` calls for every game that ends, in the same
//! transaction, scores the game for its event and tells the director; when
//! the round's last game ends, the next Swiss round is paired and its games
//! started, or the event ends with the final crosstable to every entrant
//! and the director; a knockout or an event of groups (`cups`) moves on
//! match by match (a playoff, the next round, the final stage). The
//! tournament commands (`service::commands::tournament`) use the same steps to start
//! and finish events.

mod cup_news;
mod cups;

pub(super) use crate::store::cups::{bracket_text, groups_text};
pub(super) use cups::start_cup;

use super::board_mail::{self, Occasion};
pub(super) use super::event_start::with_token;
use super::event_start::{NewGame, start_games};
use super::{Ctx, ServiceError};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::outgoing::Outgoing;
use crate::render::templates::{MAX_LINE, wrap_long_lines};
use crate::store::players::{self, Player};
use crate::store::tournaments::{self as store, Event, Status};
use crate::tournament::{ByeKind, Crosstable, EventResults, Format, text};

/// Scores the end of board `board` for its event, if it is a tournament
/// board: the director hears of it, and the last game ends the event.
pub(super) fn game_ended(
    ctx: &Ctx<'_>,
    board: BoardNumber,
    score: &str,
    reason: &str,
    forfeit: bool,
) -> Result<(), ServiceError> {
    let Some((event_id, game)) = store::game_of_board(ctx.conn, board)? else {
        return Ok(());
    };
    store::set_game_result(ctx.conn, board, score, forfeit)?;
    let event = store::by_id(ctx.conn, event_id)?;
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let white = players::by_id(ctx.conn, game.white)?.userid;
    let black = players::by_id(ctx.conn, game.black)?.userid;
    let result = match (score, forfeit) {
        ("-", _) => "cancelled".to_string(),
        (score, true) => format!("{score} by forfeit"),
        (score, false) => score.to_string(),
    };
    let games = store::games(ctx.conn, event.id)?;
    let open = games.iter().filter(|g| g.result.is_none()).count();
    let text = format!(
        "Board {board}, round {} of \"{}\": {white} - {black} {result} ({reason}). {} of the event {} still on.",
        game.round,
        event.settings.name,
        crate::render::count(open, "game"),
        if open == 1 { "is" } else { "are" }
    );
    let notice = notice_to(
        ctx,
        &director,
        &subject(&event, &format!("board {board} finished")),
        &text,
    )?;
    ctx.send_later([notice]);
    // A knockout moves on match by match (a playoff), not only when every
    // game has ended.
    if event.settings.format.is_cup() {
        cups::game_of_match_ended(ctx, &event, &game)?;
    }
    if open == 0 || event.settings.format.is_cup() {
        next_round_or_end(ctx, event.id)?;
    }
    Ok(())
}

/// When every game has ended: a Swiss with rounds to go pairs the next
/// one; otherwise the event ends.
fn next_round_or_end(ctx: &Ctx<'_>, event_id: i64) -> Result<(), ServiceError> {
    let event = store::by_id(ctx.conn, event_id)?;
    match event.settings.format {
        Format::Swiss { rounds } if event.current_round < rounds => pair_next_round(ctx, &event),
        Format::Knockout { .. } | Format::Groups { .. } => cups::advance(ctx, &event),
        _ => finish_event(ctx, &event),
    }
}

/// Ends a running event whose games all have results.
pub(super) fn finish_if_done(ctx: &Ctx<'_>, event_id: i64) -> Result<(), ServiceError> {
    let event = store::by_id(ctx.conn, event_id)?;
    if event.status == Status::Running
        && store::games(ctx.conn, event.id)?
            .iter()
            .all(|g| g.result.is_some())
    {
        next_round_or_end(ctx, event.id)?;
    }
    Ok(())
}

/// Marks the event finished and mails the final crosstable to every
/// entrant and the director.
pub(super) fn finish_event(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    if event.status != Status::Running {
        return Ok(());
    }
    store::set_status(ctx.conn, event.id, Status::Finished, ctx.now)?;
    // A knockout (or a knockout final stage) names its winner in words,
    // over its bracket.
    let winner = crate::store::cups::bracket_of(ctx.conn, event)?.and_then(|cup| {
        let seed = cup.bracket.winner?.checked_sub(1)?;
        cup.seeds.get(seed as usize).copied()
    });
    let (title, what, won) = match winner {
        Some(player) => {
            let userid = players::by_id(ctx.conn, player)?.userid;
            (
                "Final bracket",
                // not a count: "wins" is a verb.
                format!("{userid} wins the cup"),
                format!(" {userid} wins the cup."), // not a count
            )
        }
        None => (
            "Final crosstable",
            "final crosstable".to_string(),
            String::new(),
        ),
    };
    let (intro, table) = crosstable_text(ctx, event, title)?;
    let text = format!(
        "\"{}\" is over.{won} Thank you for playing.\n\n{intro}",
        event.settings.name
    );
    let mut readers: Vec<PlayerId> = store::entries(ctx.conn, event.id)?
        .iter()
        .map(|e| e.player)
        .collect();
    if !readers.contains(&event.settings.director) {
        readers.push(event.settings.director);
    }
    for reader in readers {
        let player = players::by_id(ctx.conn, reader)?;
        let mail = notice_with_block_to(ctx, &player, &subject(event, &what), &text, &table)?;
        ctx.send_later([mail]);
    }
    Ok(())
}

/// Sends a board's mails: at the end of the mail when a mail is being
/// answered, or with the sweep's mails.
pub(super) fn send_board_mails(
    ctx: &Ctx<'_>,
    board: BoardNumber,
    occasion: Occasion,
) -> Result<(), ServiceError> {
    let mails = board_mail::board_mails(ctx, board, occasion)?;
    ctx.send_later(mails);
    Ok(())
}

/// Seeds `entries` of `event` by rating (highest first, then userid),
/// stores their start numbers and ratings, and marks the event running.
/// Returns the list the director's notice shows (`  1. ann  1650`).
pub(super) fn seed_by_rating(
    ctx: &Ctx<'_>,
    event: &Event,
    entries: &[store::Entry],
    rating_of: impl Fn(PlayerId) -> Result<i32, ServiceError>,
) -> Result<String, ServiceError> {
    let mut seeded = Vec::with_capacity(entries.len());
    for entry in entries {
        let player = players::by_id(ctx.conn, entry.player)?;
        let rating = rating_of(player.id)?;
        seeded.push((rating, player));
    }
    seeded.sort_by(|(ra, a), (rb, b)| {
        rb.cmp(ra)
            .then_with(|| a.userid.to_lowercase().cmp(&b.userid.to_lowercase()))
    });
    let mut list = String::new();
    for (number, (rating, player)) in seeded.iter().enumerate() {
        store::set_start_number(ctx.conn, event.id, player.id, number as u32 + 1)?;
        store::set_rating(ctx.conn, event.id, player.id, *rating)?;
        list.push_str(&format!(
            "  {:>3}. {:<24} {rating}\n",
            number + 1,
            player.userid
        ));
    }
    store::set_status(ctx.conn, event.id, Status::Running, ctx.now)?;
    Ok(list)
}

/// Pairs and starts the next round of a Swiss (FIDE Dutch, `pairing::dutch`);
/// withdrawn players are left out (a zero-point bye each). The director
/// gets the pairings; a player who gets the pairing-allocated bye is told.
/// A round that cannot be paired (too few players left who have not met)
/// ends the event with the rounds played: nothing else would ever end it.
pub(super) fn pair_next_round(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    let Format::Swiss { rounds } = event.settings.format else {
        return Ok(());
    };
    let name = &event.settings.name;
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let mut round = event.current_round + 1;
    while round <= rounds {
        for entry in store::entries(ctx.conn, event.id)? {
            if entry.withdrawn {
                store::add_bye(ctx.conn, event.id, round, entry.player, ByeKind::Zero)?;
            }
        }
        let results = results(ctx, event)?;
        let trf = crate::tournament::swiss::trf(&results, name, rounds);
        let pairing = match crate::pairing::dutch::pair(&trf) {
            Ok(pairing) => pairing,
            Err(error) => {
                // The round is not played: its byes go again.
                store::remove_byes(ctx.conn, event.id, round)?;
                let played = round - 1;
                let text = format!(
                    "pbem could not pair round {round} of \"{name}\": {error}. The event ends with the {played} round{} played; every player gets the final crosstable.",
                    if played == 1 { "" } else { "s" }
                );
                let mail = notice_to(ctx, &director, &subject(event, "pairing failed"), &text)?;
                ctx.send_later([mail]);
                break;
            }
        };
        let entries = store::entries(ctx.conn, event.id)?;
        let by_start = |start: u32| -> Option<PlayerId> {
            entries
                .iter()
                .find(|e| e.start_number == Some(start))
                .map(|e| e.player)
        };
        store::set_round(ctx.conn, event.id, round, ctx.now)?;
        let games: Vec<NewGame> = pairing
            .pairs
            .iter()
            .filter_map(|(white, black)| {
                Some(NewGame {
                    round,
                    white: by_start(*white)?,
                    black: by_start(*black)?,
                })
            })
            .collect();
        let heading = if round == 1 {
            format!(
                "\"{name}\" has started: a Swiss of {}. Round 1 is paired.",
                crate::render::count(rounds, "round")
            )
        } else {
            format!("Round {round} of {rounds} of \"{name}\" is paired.")
        };
        let mut lines: Vec<String> = start_games(ctx, event, &games, &heading)?
            .into_iter()
            .map(|started| started.line)
            .collect();
        if let Some(player) = pairing.bye.and_then(by_start) {
            store::add_bye(ctx.conn, event.id, round, player, ByeKind::Full)?;
            let player = players::by_id(ctx.conn, player)?;
            lines.push(format!("  Round {round:>2}  bye  {}", player.userid));
            let text = format!(
                "{} has the bye in round {round} of \"{name}\": one point, no game this round.",
                player.userid
            );
            let mail = notice_to(
                ctx,
                &player,
                &subject(event, &format!("round {round} bye")),
                &text,
            )?;
            ctx.send_later([mail]);
        }
        let text = format!(
            "Round {round} of {rounds} of \"{name}\" is paired (FIDE Dutch system):\n{}\n",
            lines.join("\n")
        );
        let mail = notice_to(
            ctx,
            &director,
            &subject(event, &format!("round {round}")),
            &text,
        )?;
        ctx.send_later([mail]);
        if !pairing.pairs.is_empty() {
            return Ok(());
        }
        // Nobody to play (everyone sits out): on to the next round.
        round += 1;
    }
    let event = store::by_id(ctx.conn, event.id)?;
    finish_event(ctx, &event)
}

pub(super) fn subject(event: &Event, what: &str) -> String {
    format!("pbem tournament {}: {what}", event.settings.name)
}

/// A notice to a player at the player's own address: it answers no mail
/// of theirs unless they sent the mail, and carries the player's reply
/// token, so that a reply to it speaks for the player in any command.
pub(super) fn notice_to(
    ctx: &Ctx<'_>,
    player: &Player,
    subject: &str,
    text: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = ctx.notice(vec![player.mail_address().to_string()], subject, text)?;
    own_thread(ctx, &mut mail, player);
    Ok(mail)
}

/// [`notice_to`] with `block` (a table, a bracket) below its text.
pub(super) fn notice_with_block_to(
    ctx: &Ctx<'_>,
    player: &Player,
    subject: &str,
    text: &str,
    block: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = notice_with_block(
        ctx,
        vec![player.mail_address().to_string()],
        subject,
        text,
        block,
    )?;
    own_thread(ctx, &mut mail, player);
    Ok(mail)
}

/// Makes `mail`, addressed to `player` alone, a thread of its own unless
/// the player sent the mail being answered, and gives it the player's
/// reply token.
fn own_thread(ctx: &Ctx<'_>, mail: &mut Outgoing, player: &Player) {
    if !ctx
        .answered_sender()
        .is_some_and(|sender| player.owns_address(sender))
    {
        mail.in_reply_to = None;
        mail.references.clear();
    }
    with_token(ctx, mail, player);
}

/// The event's results, for the crosstable.
pub(super) fn results(ctx: &Ctx<'_>, event: &Event) -> Result<EventResults, ServiceError> {
    Ok(store::results(ctx.conn, event)?)
}

/// The crosstable's heading (wrapped like any text) and the table with its
/// key (sent as it is: wide tables keep their columns).
pub(super) fn crosstable_text(
    ctx: &Ctx<'_>,
    event: &Event,
    title: &str,
) -> Result<(String, String), ServiceError> {
    let table = Crosstable::compute(&results(ctx, event)?);
    let cup = match groups_text(ctx.conn, event)? {
        Some(text) => Some(text),
        None => bracket_text(ctx.conn, event)?,
    };
    if let Some(bracket) = cup {
        return Ok((
            format!(
                "{title}: {} ({}), {} of {} {} finished.",
                event.settings.name,
                event.settings.format.describe(),
                table.finished_games,
                table.games,
                crate::render::noun(table.games, "game"),
            ),
            bracket,
        ));
    }
    Ok((
        format!(
            "{title}: {} ({}), {} of {} {} finished.",
            event.settings.name,
            event.settings.format.describe(),
            table.finished_games,
            table.games,
            crate::render::noun(table.games, "game"),
        ),
        format!(
            "{}\n{}",
            text::crosstable(&table),
            wrap_long_lines(&text::legend(&table), MAX_LINE)
        ),
    ))
}

/// A notice whose `block` (a table, a TRF, a PGN) follows the text
/// unwrapped, so that its lines keep their columns however long.
pub(super) fn notice_with_block(
    ctx: &Ctx<'_>,
    to: Vec<String>,
    subject: &str,
    text: &str,
    block: &str,
) -> Result<Outgoing, ServiceError> {
    let mut mail = ctx.notice(to, subject, text)?;
    if !mail.body.ends_with('\n') {
        mail.body.push('\n');
    }
    mail.body.push('\n');
    mail.body.push_str(block);
    if !mail.body.ends_with('\n') {
        mail.body.push('\n');
    }
    Ok(mail)
}
