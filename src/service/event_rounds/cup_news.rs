//! What a cup tells its players, in words, as it goes (issue 37): the
//! byes at the start of a knockout, each match's start (a playoff as a
//! playoff, with the score that made it), the end of each match (who won,
//! the score, whom the winner meets next), and at the end of a group
//! stage each entrant's group table, place and whether they go on.
//!
//! Every text here is worked out from the bracket `store::cups` computes
//! from the stored games; nothing of it is stored.

use super::super::{Ctx, ServiceError};
use super::{notice_to, notice_with_block_to, subject};
use crate::domain::PlayerId;
use crate::store::cups::Cup;
use crate::store::players::{self, Player};
use crate::store::tournaments::{self as store, Event};
use crate::tournament::groups::{Advancer, Groups};
use crate::tournament::knockout::{Decision, Match, StageScore};
use crate::tournament::{Crosstable, points_text, text};

/// The userid of seed `seed` of `cup`.
fn name_of(ctx: &Ctx<'_>, cup: &Cup, seed: u32) -> Result<String, ServiceError> {
    Ok(player_of(ctx, cup, seed)?.userid)
}

fn player_of(ctx: &Ctx<'_>, cup: &Cup, seed: u32) -> Result<Player, ServiceError> {
    let id = super::cups::player_of(&cup.seeds, seed)?;
    Ok(players::by_id(ctx.conn, id)?)
}

/// A match's two seats as `ann - bob` (upper first), or the one player of
/// a bye.
fn seats(ctx: &Ctx<'_>, cup: &Cup, game: &Match) -> Result<String, ServiceError> {
    let upper = name_of(ctx, cup, game.upper)?;
    Ok(match game.lower {
        Some(lower) => format!("{upper} - {}", name_of(ctx, cup, lower)?),
        None => upper,
    })
}

/// The score of a match so far, every stage (its games and its playoffs)
/// added up.
fn total(game: &Match) -> StageScore {
    game.stages
        .iter()
        .fold(StageScore::default(), |sum, stage| StageScore {
            upper: sum.upper + stage.upper,
            lower: sum.lower + stage.lower,
        })
}

/// `n game` / `n games`.
fn games_word(count: usize) -> String {
    format!("{count} game{}", if count == 1 { "" } else { "s" })
}

/// Whom the winner of match `index` of round `round` (from 1) meets next:
/// the name once known, else `the winner of ann - bob`. `None` after the
/// final.
fn next_opponent(
    ctx: &Ctx<'_>,
    cup: &Cup,
    round: u32,
    index: usize,
    winner: u32,
) -> Result<Option<String>, ServiceError> {
    if round >= cup.bracket.total_rounds {
        return Ok(None);
    }
    // The next round, once paired, says it outright.
    if let Some(next) = cup.bracket.rounds.get(round as usize)
        && let Some(game) = next
            .matches
            .iter()
            .find(|m| m.upper == winner || m.lower == Some(winner))
    {
        let other = if game.upper == winner {
            game.lower
        } else {
            Some(game.upper)
        };
        if let Some(other) = other {
            return Ok(Some(name_of(ctx, cup, other)?));
        }
    }
    let Some(sibling) = cup
        .bracket
        .rounds
        .get(round as usize - 1)
        .and_then(|r| r.matches.get(index ^ 1))
    else {
        return Ok(None);
    };
    Ok(Some(match sibling.outcome {
        Some(outcome) => name_of(ctx, cup, outcome.winner)?,
        None => format!("the winner of {}", seats(ctx, cup, sibling)?),
    }))
}

/// The round's name as a sentence reads it (`the quarter-finals`, `the
/// final`, `round 2`).
pub(super) fn round_words(cup: &Cup, round: u32) -> String {
    let name = cup.shape.round_name(round);
    if name.starts_with("Round") {
        name.to_lowercase()
    } else {
        format!("the {}", name.to_lowercase())
    }
}

/// At the start of a knockout: each player with a bye is told so, and
/// whom they meet in round 2. Returns the director's lines.
pub(super) fn tell_byes(
    ctx: &Ctx<'_>,
    event: &Event,
    cup: &Cup,
) -> Result<Vec<String>, ServiceError> {
    let Some(first) = cup.bracket.rounds.first() else {
        return Ok(Vec::new());
    };
    let name = &event.settings.name;
    let mut lines = Vec::new();
    for (index, game) in first.matches.iter().enumerate() {
        if game.lower.is_some() {
            continue;
        }
        let player = player_of(ctx, cup, game.upper)?;
        let next = round_words(cup, 2);
        let meets = match next_opponent(ctx, cup, 1, index, game.upper)? {
            Some(opponent) => format!(", where you meet {opponent}"),
            None => String::new(),
        };
        let text = format!(
            "{}, you have a bye in {} of \"{name}\": no game for you this round, and you go through to {next}{meets}. Your boards for it come in a mail of their own when that round is paired.",
            player.userid,
            round_words(cup, 1),
        );
        let mail = notice_to(ctx, &player, &subject(event, "your bye"), &text)?;
        ctx.send_later([mail]);
        lines.push(format!("  bye  {} (through to {next})", player.userid));
    }
    Ok(lines)
}

/// The heading of the start mail of match `game` of round `round`, and
/// the stage its boards are listed under: a playoff says it is one, with
/// the score that made it.
pub(super) fn match_heading(
    ctx: &Ctx<'_>,
    event: &Event,
    cup: &Cup,
    round: u32,
    game: &Match,
    starting: usize,
) -> Result<(String, Option<String>), ServiceError> {
    let name = &event.settings.name;
    let round_name = cup.shape.round_name(round);
    if game.stages.len() > 1 {
        let score = total(game);
        let stage = format!("{} playoff", round_name.to_lowercase());
        return Ok((
            format!(
                "Playoff in {} of \"{name}\": {} is tied {}-{} after {}, so a playoff of {} decides the match.",
                round_words(cup, round),
                seats(ctx, cup, game)?,
                points_text(score.upper),
                points_text(score.lower),
                games_word(game.games.len()),
                games_word(starting),
            ),
            Some(stage),
        ));
    }
    Ok((
        format!(
            "{round_name} of \"{name}\" is paired: {}, a match of {}.",
            seats(ctx, cup, game)?,
            games_word(starting),
        ),
        Some(round_name.to_lowercase()),
    ))
}

/// After a game of a knockout ended: if it decided its match, both
/// players and the director get one mail saying who won, the score, and
/// whom the winner meets next.
pub(super) fn match_ended(
    ctx: &Ctx<'_>,
    event: &Event,
    cup: &Cup,
    game: &store::Game,
) -> Result<(), ServiceError> {
    let Some(round) = game.round.checked_sub(cup.offset).filter(|&r| r > 0) else {
        return Ok(());
    };
    let seed = |player: PlayerId| cup.seeds.iter().position(|&p| p == player);
    let (Some(a), Some(b)) = (seed(game.white), seed(game.black)) else {
        return Ok(());
    };
    let (a, b) = (a as u32 + 1, b as u32 + 1);
    let Some((index, decided)) = cup.bracket.rounds.get(round as usize - 1).and_then(|r| {
        r.matches.iter().enumerate().find(|(_, m)| {
            m.lower
                .is_some_and(|lower| (m.upper, lower) == (a, b) || (lower, m.upper) == (a, b))
        })
    }) else {
        return Ok(());
    };
    // Told once: when the match's last game has ended.
    let (Some(outcome), Some(loser)) = (decided.outcome, decided.loser()) else {
        return Ok(());
    };
    if decided
        .games
        .contains(&crate::tournament::GameResult::Pending)
    {
        return Ok(());
    }
    let winner = player_of(ctx, cup, outcome.winner)?;
    let loser = player_of(ctx, cup, loser)?;
    let score = total(decided);
    let (won, lost) = if outcome.winner == decided.upper {
        (score.upper, score.lower)
    } else {
        (score.lower, score.upper)
    };
    let score = format!("{}-{}", points_text(won), points_text(lost));
    let played = games_word(decided.games.len());
    let how = match outcome.decision {
        Decision::Score | Decision::Bye => format!("{score} in {played}"),
        Decision::Playoff => format!("{score} in {played}, after a playoff"),
        Decision::Seed => {
            format!("on a tied score of {score} in {played}, as the higher seed")
        }
        Decision::Walkover => format!("by walkover ({} withdrew; {score})", loser.userid),
    };
    let round_name = round_words(cup, round);
    let next = match next_opponent(ctx, cup, round, index, outcome.winner)? {
        Some(opponent) => format!(
            " {} meets {opponent} in {}.",
            winner.userid,
            round_words(cup, round + 1)
        ),
        // not a count: "wins" is a verb.
        None => format!(" {} wins the cup.", winner.userid),
    };
    let text = format!(
        "{} beats {} in {round_name} of \"{}\", {how}.{next}",
        winner.userid, loser.userid, event.settings.name
    );
    let what = format!("{} beats {}", winner.userid, loser.userid);
    let mut readers = vec![winner, loser];
    if !readers.iter().any(|p| p.id == event.settings.director) {
        readers.push(players::by_id(ctx.conn, event.settings.director)?);
    }
    for reader in &readers {
        let mail = notice_to(ctx, reader, &subject(event, &what), &text)?;
        ctx.send_later([mail]);
    }
    Ok(())
}

/// When the group stage is over: every entrant gets their group's final
/// table, their place in it and whether they go on to the final stage.
pub(super) fn tell_groups(
    ctx: &Ctx<'_>,
    event: &Event,
    groups: &Groups,
    tables: &[Crosstable],
    seeds: &[PlayerId],
    advancers: &[Advancer],
) -> Result<(), ServiceError> {
    let name = &event.settings.name;
    for (index, (table, members)) in tables.iter().zip(groups.members()).enumerate() {
        let group = index as u32 + 1;
        let size = members.len();
        let block = format!("Group {group}:\n{}", text::crosstable(table));
        for (place, row) in table.rows.iter().enumerate() {
            let Some(&seed) = (row.start as usize)
                .checked_sub(1)
                .and_then(|i| members.get(i))
            else {
                continue;
            };
            let player = players::by_id(ctx.conn, super::cups::player_of(seeds, seed)?)?;
            let going = advancers.iter().position(|a| a.seed == seed);
            let fate = match going {
                Some(final_seed) => format!(
                    "You go on to the final stage, as its seed {}; its games come in a mail of their own.",
                    final_seed + 1
                ),
                None => "You do not go on to the final stage. Thank you for playing; the final mail brings the result.".to_string(),
            };
            let text = format!(
                "The groups of \"{name}\" are over. {}, you finished in place {} of {size} in group {group}, with {} point{}. {fate}",
                player.userid,
                place + 1,
                points_text(row.halves),
                if row.halves == 1 || row.halves == 2 {
                    ""
                } else {
                    "s"
                },
            );
            let mail = notice_with_block_to(
                ctx,
                &player,
                &subject(event, &format!("group {group} final table")),
                &text,
                &block,
            )?;
            ctx.send_later([mail]);
        }
    }
    Ok(())
}
