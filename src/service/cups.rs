//! Knockout cups (issue 28) on the tournament room: the start (seeds by
//! rating, then userid; round 1's games) and, as each game ends, the games
//! the bracket needs next (a playoff, the next round once the round's last
//! match is decided) or the end of the event when the final is decided.
//! The bracket is never stored: `tournament::knockout` computes it again
//! from the event's games, their results and the withdrawals.

use super::event_rounds::{finish_event, notice_to, start_game, subject};
use super::{Ctx, Failure, MailCtx, ServiceError, refuse};
use crate::domain::PlayerId;
use crate::mail::outgoing::Outgoing;
use crate::store::StoreError;
use crate::store::players;
use crate::store::tournaments::{self as store, Event, Status};
use crate::tournament::knockout::{Bracket, Knockout, KnockoutGame};
use crate::tournament::{Format, GameResult, text};

/// A knockout event's shape, its players by seed (seed `s` is
/// `seeds[s - 1]`) and where its bracket stands; `None` for other formats
/// and for a cup not started yet.
pub(super) fn bracket_of(
    ctx: &Ctx<'_>,
    event: &Event,
) -> Result<Option<(Knockout, Vec<PlayerId>, Bracket)>, ServiceError> {
    let Format::Knockout { match_games, tie } = event.settings.format else {
        return Ok(None);
    };
    if event.status == Status::Open {
        return Ok(None);
    }
    let corrupt = |problem: String| {
        StoreError::Corrupt(format!("knockout {}: {problem}", event.settings.name))
    };
    let mut entries = store::entries(ctx.conn, event.id)?;
    entries.retain(|e| e.start_number.is_some());
    entries.sort_by_key(|e| e.start_number);
    let seeds: Vec<PlayerId> = entries.iter().map(|e| e.player).collect();
    let seed_of = |player: PlayerId| -> Result<u32, StoreError> {
        seeds
            .iter()
            .position(|&p| p == player)
            .map(|i| i as u32 + 1)
            .ok_or_else(|| corrupt(format!("player {} has no seed", player.0)))
    };
    let shape = Knockout::new(seeds.len() as u32, match_games, tie)
        .map_err(|problem| corrupt(problem.to_string()))?;
    let mut record = Vec::new();
    for game in store::games(ctx.conn, event.id)? {
        record.push(KnockoutGame {
            round: game.round,
            white: seed_of(game.white)?,
            black: seed_of(game.black)?,
            result: match &game.result {
                None => GameResult::Pending,
                Some(score) => GameResult::from_score(score, game.forfeit),
            },
        });
    }
    let mut withdrawn = Vec::new();
    for entry in entries.iter().filter(|e| e.withdrawn) {
        withdrawn.push(seed_of(entry.player)?);
    }
    let bracket = shape
        .compute_with_withdrawals(&record, &withdrawn)
        .map_err(|problem| corrupt(problem.to_string()))?;
    Ok(Some((shape, seeds, bracket)))
}

/// The bracket as text (rounds as columns, match scores, its key), for
/// `tournament show` and the final mail; `None` when the event is no
/// knockout or has not started.
pub(super) fn bracket_text(ctx: &Ctx<'_>, event: &Event) -> Result<Option<String>, ServiceError> {
    let Some((_, seeds, bracket)) = bracket_of(ctx, event)? else {
        return Ok(None);
    };
    let mut names = Vec::with_capacity(seeds.len());
    for player in seeds {
        names.push(players::by_id(ctx.conn, player)?.userid);
    }
    Ok(Some(format!(
        "{}\n{}",
        text::bracket(&bracket, &names),
        text::bracket_legend()
    )))
}

/// Starts a knockout: seeds by rating (highest first, then userid), and
/// the games of round 1 (a bye for the top seeds when the players are no
/// power of two).
pub(super) fn start_knockout(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    entries: &[store::Entry],
    rating_of: impl Fn(&MailCtx<'_>, PlayerId) -> Result<i32, ServiceError>,
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    let Format::Knockout { match_games, tie } = event.settings.format else {
        return Ok(Vec::new());
    };
    let shape = Knockout::new(entries.len() as u32, match_games, tie)
        .map_err(|problem| refuse(format!("\"{name}\" cannot start: {problem}"), None))?;
    let mut seeded = Vec::with_capacity(entries.len());
    for entry in entries {
        let player = players::by_id(ctx.conn, entry.player)?;
        let rating = rating_of(ctx, player.id)?;
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
    let event = store::by_id(ctx.conn, event.id)?;
    advance(ctx, &event)?;
    let text = format!(
        "\"{name}\" has started: a {}, a bracket of {} with {} bye{} for the top seeds. Seeds by rating:\n{list}\nThe games of round 1 follow in a notice of their own; each player has a board mail for each game.",
        event.settings.format.describe(),
        shape.size(),
        shape.byes(),
        if shape.byes() == 1 { "" } else { "s" },
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "started"), &text)?,
    ])
}

/// After a game of a knockout ended (or at its start): starts the games
/// the bracket needs now (a match's games, a playoff, the next round) and
/// tells the director, or ends the event when the final is decided.
pub(super) fn advance(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    if event.status != Status::Running {
        return Ok(());
    }
    let Some((shape, seeds, bracket)) = bracket_of(ctx, event)? else {
        return Ok(());
    };
    if bracket.winner.is_some() {
        return finish_event(ctx, event);
    }
    let games = bracket.to_start();
    if games.is_empty() {
        return Ok(());
    }
    let round = bracket.current_round();
    if round != event.current_round {
        store::set_round(ctx.conn, event.id, round, ctx.now)?;
    }
    let player = |seed: u32| -> Result<PlayerId, ServiceError> {
        seed.checked_sub(1)
            .and_then(|index| seeds.get(index as usize))
            .copied()
            .ok_or_else(|| StoreError::Corrupt(format!("seed {seed} has no player")).into())
    };
    let mut lines = Vec::new();
    for game in &games {
        lines.push(start_game(
            ctx,
            event,
            game.round,
            player(game.white)?,
            player(game.black)?,
        )?);
    }
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let text = format!(
        "{} of \"{}\": {} game{} started:\n{}\n",
        shape.round_name(round),
        event.settings.name,
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        lines.join("\n")
    );
    let mail = notice_to(
        ctx,
        &director,
        &subject(event, &format!("round {round} games")),
        &text,
    )?;
    ctx.send_later([mail]);
    Ok(())
}
