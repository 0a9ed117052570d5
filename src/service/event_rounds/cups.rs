//! Knockout cups (issue 28) on the tournament room: the start (seeds by
//! rating, then userid; round 1's games) and, as each game ends, the games
//! the bracket needs next (a playoff, the next round once the round's last
//! match is decided) or the end of the event when the final is decided.
//! The bracket is never stored: `tournament::knockout` computes it again
//! from the event's games, their results and the withdrawals.

use super::super::{Ctx, Failure, MailCtx, ServiceError, refuse};
use super::{cup_news, finish_event, notice_to, subject};
use crate::domain::PlayerId;
use crate::mail::outgoing::Outgoing;
use crate::service::event_start::{NewGame, start_games, start_games_as};
use crate::store::StoreError;
use crate::store::cups::{Cup, bracket_of, group_rounds, group_tables, groups_of, seeds_of};
use crate::store::players;
use crate::store::tournaments::{self as store, Event, Status};
use crate::tournament::groups::{FinalStage, Groups};
use crate::tournament::knockout::{GameToStart, Knockout};
use crate::tournament::{Format, berger};

/// Starts a knockout or an event of groups: seeds by rating (highest
/// first, then userid), then round 1 of the knockout (a bye for the top
/// seeds when the players are no power of two) or every group's games.
/// Refused, changing nothing, when the entrants do not fit the format.
pub(in crate::service) fn start_cup(
    ctx: &mut MailCtx<'_>,
    event: &Event,
    entries: &[store::Entry],
    rating_of: impl Fn(&MailCtx<'_>, PlayerId) -> Result<i32, ServiceError>,
) -> Result<Vec<Outgoing>, Failure> {
    let name = &event.settings.name;
    let count = entries.len() as u32;
    let cannot = |problem: String| refuse(format!("\"{name}\" cannot start: {problem}"), None);
    let shape = match event.settings.format {
        Format::Knockout { match_games, tie } => {
            let shape =
                Knockout::new(count, match_games, tie).map_err(|p| cannot(p.to_string()))?;
            format!(
                "a bracket of {} with {} bye{} for the top seeds",
                shape.size(),
                shape.byes(),
                if shape.byes() == 1 { "" } else { "s" },
            )
        }
        Format::Groups {
            groups,
            advance,
            double,
            final_stage,
        } => {
            Groups::new(count, groups, advance, double, final_stage)
                .map_err(|p| cannot(p.to_string()))?;
            "groups in snake order by seed".to_string()
        }
        _ => return Ok(Vec::new()),
    };
    let list = super::seed_by_rating(ctx, event, entries, |player| rating_of(ctx, player))?;
    let event = store::by_id(ctx.conn, event.id)?;
    // The games started are listed in this answer itself.
    let games = match event.settings.format {
        Format::Groups { .. } => start_groups(ctx, &event)?,
        _ => {
            let mut games = String::new();
            advance_into(ctx, &event, Some(&mut games))?;
            games
        }
    };
    let text = format!(
        "\"{name}\" has started: {}, {shape}. Seeds by rating:\n{list}\n{games}\nEach player gets a mail listing their new boards, then a board mail for each board where they move first.",
        event.settings.format.describe(),
    );
    Ok(vec![
        ctx.notice_to_sender(&subject(&event, "started"), &text)?,
    ])
}

/// Starts every group's games (each group a round robin by the Berger
/// tables); gives the director's list of the groups and their games.
fn start_groups(ctx: &Ctx<'_>, event: &Event) -> Result<String, ServiceError> {
    let Some(groups) = groups_of(ctx.conn, event)? else {
        return Ok(String::new());
    };
    let seeds = seeds_of(ctx.conn, event)?;
    let player = |seed: u32| player_of(&seeds, seed);
    let mut lines = Vec::new();
    for (index, members) in groups.members().iter().enumerate() {
        let group = index as u32 + 1;
        let mut names = Vec::new();
        for &seed in members {
            names.push(players::by_id(ctx.conn, player(seed)?)?.userid);
        }
        lines.push(format!("Group {group}: {}", names.join(", ")));
        let mut games = Vec::new();
        for (round, pairs) in groups.rounds(group).iter().enumerate() {
            for pair in pairs {
                games.push(NewGame {
                    round: round as u32 + 1,
                    white: player(pair.white)?,
                    black: player(pair.black)?,
                });
            }
        }
        // Each entrant plays in one group: one list mail each.
        let heading = format!(
            "\"{}\" has started: group {group} of {}, a round robin, all its games at once.",
            event.settings.name,
            groups.members().len()
        );
        for started in start_games(ctx, event, &games, &heading)? {
            lines.push(started.line);
        }
    }
    Ok(format!(
        "The groups of \"{}\" and their games started:\n{}\n",
        event.settings.name,
        lines.join("\n")
    ))
}

/// The player of seed `seed`.
pub(super) fn player_of(seeds: &[PlayerId], seed: u32) -> Result<PlayerId, ServiceError> {
    seed.checked_sub(1)
        .and_then(|index| seeds.get(index as usize))
        .copied()
        .ok_or_else(|| StoreError::Corrupt(format!("seed {seed} has no player")).into())
}

fn director_notice(
    ctx: &Ctx<'_>,
    event: &Event,
    what: &str,
    text: &str,
) -> Result<(), ServiceError> {
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let mail = notice_to(ctx, &director, &subject(event, what), text)?;
    ctx.send_later([mail]);
    Ok(())
}

/// Whether every game of the event has a result.
fn all_games_over(ctx: &Ctx<'_>, event: &Event) -> Result<bool, ServiceError> {
    Ok(store::games(ctx.conn, event.id)?
        .iter()
        .all(|g| g.result.is_some()))
}

/// When the last group game has ended: the top of each group go on to the
/// final stage, seeded by group place (winners first), and its games start.
fn groups_over(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    if !all_games_over(ctx, event)? {
        return Ok(());
    }
    let Some(groups) = groups_of(ctx.conn, event)? else {
        return Ok(());
    };
    let tables = group_tables(ctx.conn, event, &groups)?;
    let seeds = seeds_of(ctx.conn, event)?;
    let advancers = match groups.advancers(&tables) {
        Ok(advancers) => advancers,
        Err(problem) => {
            // Nobody left to play a final (withdrawals): the event ends.
            director_notice(
                ctx,
                event,
                "no final stage",
                &format!(
                    "\"{}\" has no final stage: {problem}. The event ends with the groups.",
                    event.settings.name
                ),
            )?;
            return finish_event(ctx, event);
        }
    };
    cup_news::tell_groups(ctx, event, &groups, &tables, &seeds, &advancers)?;
    let mut lines = Vec::new();
    for (index, advancer) in advancers.iter().enumerate() {
        let player = player_of(&seeds, advancer.seed)?;
        store::add_finalist(ctx.conn, event.id, player, index as u32 + 1)?;
        lines.push(format!(
            "  {:>2}. {} (group {}, place {})",
            index + 1,
            players::by_id(ctx.conn, player)?.userid,
            advancer.group,
            advancer.place
        ));
    }
    director_notice(
        ctx,
        event,
        "final stage",
        &format!(
            "The groups of \"{}\" are over; each entrant has their group's final table, their place and whether they go on. On to the final stage, seeded by group place:\n{}\n",
            event.settings.name,
            lines.join("\n")
        ),
    )?;
    let event = store::by_id(ctx.conn, event.id)?;
    match groups.final_stage() {
        FinalStage::Knockout { .. } => advance(ctx, &event),
        FinalStage::RoundRobin { double } => {
            let finalists = store::finalists(ctx.conn, event.id)?;
            let offset = group_rounds(ctx.conn, &event)?;
            let count = finalists.len() as u32;
            let table = if double {
                berger::double(count)
            } else {
                berger::single(count)
            };
            let mut new_games = Vec::new();
            for (round, pairs) in table.iter().enumerate() {
                for pair in pairs {
                    new_games.push(NewGame {
                        round: offset + round as u32 + 1,
                        white: player_of(&finalists, pair.white)?,
                        black: player_of(&finalists, pair.black)?,
                    });
                }
            }
            let heading = format!(
                "The final round robin of \"{}\" has started, all its games at once.",
                event.settings.name
            );
            let games: Vec<String> = start_games(ctx, &event, &new_games, &heading)?
                .into_iter()
                .map(|started| started.line)
                .collect();
            director_notice(
                ctx,
                &event,
                "final stage games",
                &format!(
                    "The final round robin of \"{}\": {} started:\n{}\n",
                    event.settings.name,
                    crate::render::count(games.len(), "game"),
                    games.join("\n")
                ),
            )
        }
    }
}

/// After a game of a knockout ended (or at its start): starts the games
/// the bracket needs now (a match's games, a playoff, the next round) and
/// tells the director, or ends the event when the final is decided.
pub(in crate::service) fn advance(ctx: &Ctx<'_>, event: &Event) -> Result<(), ServiceError> {
    advance_into(ctx, event, None)
}

/// [`advance`]; the director's list of the games started goes to `into`
/// when given (the start's answer), else in a notice of its own.
fn advance_into(
    ctx: &Ctx<'_>,
    event: &Event,
    into: Option<&mut String>,
) -> Result<(), ServiceError> {
    if event.status != Status::Running {
        return Ok(());
    }
    if let Format::Groups { .. } = event.settings.format
        && store::finalists(ctx.conn, event.id)?.is_empty()
    {
        return groups_over(ctx, event);
    }
    let Some(Cup {
        shape,
        seeds,
        bracket,
        offset,
    }) = bracket_of(ctx.conn, event)?
    else {
        // A round-robin final: over when its last game is.
        if all_games_over(ctx, event)? {
            return finish_event(ctx, event);
        }
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
    let stored_round = offset + round;
    // The knockout's first games: its byes are told now.
    let first = !store::games(ctx.conn, event.id)?
        .iter()
        .any(|g| g.round > offset);
    let cup = Cup {
        shape,
        seeds,
        bracket,
        offset,
    };
    let mut lines = if first {
        cup_news::tell_byes(ctx, event, &cup)?
    } else {
        Vec::new()
    };
    if stored_round != event.current_round {
        store::set_round(ctx.conn, event.id, stored_round, ctx.now)?;
    }
    let player = |seed: u32| player_of(&cup.seeds, seed);
    let matches = cup
        .bracket
        .rounds
        .last()
        .map(|r| r.matches.as_slice())
        .unwrap_or_default();
    let mut playoff = false;
    // Each match's games start with a heading of their own (a playoff
    // says so, with its score); each player is in one match.
    for game in matches {
        let Some(lower) = game.lower else {
            continue;
        };
        let pair = |g: &&GameToStart| {
            (g.white, g.black) == (game.upper, lower) || (g.black, g.white) == (game.upper, lower)
        };
        let mut new_games = Vec::new();
        for start in games.iter().filter(pair) {
            new_games.push(NewGame {
                round: offset + start.round,
                white: player(start.white)?,
                black: player(start.black)?,
            });
        }
        if new_games.is_empty() {
            continue;
        }
        let (heading, stage) =
            cup_news::match_heading(ctx, event, &cup, round, game, new_games.len())?;
        playoff |= game.stages.len() > 1;
        for started in start_games_as(ctx, event, &new_games, &heading, stage.as_deref())? {
            lines.push(started.line);
        }
    }
    let what = if playoff {
        format!("Playoff in {}", cup_news::round_words(&cup, round))
    } else {
        cup.shape.round_name(round)
    };
    let text = format!(
        "{what} of \"{}\": {} game{} started:\n{}\n",
        event.settings.name,
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        lines.join("\n")
    );
    if let Some(into) = into {
        into.push_str(&text);
        return Ok(());
    }
    let director = players::by_id(ctx.conn, event.settings.director)?;
    let mail = notice_to(
        ctx,
        &director,
        &subject(
            event,
            &if playoff {
                // not a count: a round number.
                format!("round {stored_round} playoff games")
            } else {
                // not a count: a round number.
                format!("round {stored_round} games")
            },
        ),
        &text,
    )?;
    ctx.send_later([mail]);
    Ok(())
}

/// After a game of a cup ended: if it decided a knockout match, its two
/// players and the director are told.
pub(super) fn game_of_match_ended(
    ctx: &Ctx<'_>,
    event: &Event,
    game: &store::Game,
) -> Result<(), ServiceError> {
    match bracket_of(ctx.conn, event)? {
        Some(cup) => cup_news::match_ended(ctx, event, &cup, game),
        None => Ok(()),
    }
}
