//! Where a cup stands (knockouts and groups, issue 28), worked out from
//! the stored games: the bracket is never stored, `tournament::knockout`
//! computes it again from the event's games, results and withdrawals.
//! The service plays the cup from these values; `tournament show`, the
//! final mail and the web site's event page show the same text.

use rusqlite::Connection;

use super::StoreError;
use super::players;
use super::tournaments::{self as store, Event, Status};
use crate::domain::PlayerId;
use crate::tournament::groups::{FinalStage, Groups};
use crate::tournament::knockout::{Bracket, Knockout, KnockoutGame};
use crate::tournament::{Crosstable, Format, GameResult, text};

/// A knockout event's shape, its players by seed (seed `s` is
/// `seeds[s - 1]`) and where its bracket stands, or a knockout final
/// stage's (its rounds counted after the groups'); `None` for other
/// formats, a cup not started yet and a final stage not begun.
pub fn bracket_of(conn: &Connection, event: &Event) -> Result<Option<Cup>, StoreError> {
    if event.status == Status::Open {
        return Ok(None);
    }
    let (match_games, tie, seeds, offset) = match event.settings.format {
        Format::Knockout { match_games, tie } => {
            let mut entries = store::entries(conn, event.id)?;
            entries.retain(|e| e.start_number.is_some());
            entries.sort_by_key(|e| e.start_number);
            let seeds: Vec<PlayerId> = entries.iter().map(|e| e.player).collect();
            (match_games, tie, seeds, 0)
        }
        Format::Groups {
            final_stage: FinalStage::Knockout { match_games, tie },
            ..
        } => {
            let seeds = store::finalists(conn, event.id)?;
            if seeds.is_empty() {
                return Ok(None);
            }
            (match_games, tie, seeds, group_rounds(conn, event)?)
        }
        _ => return Ok(None),
    };
    let corrupt = |problem: String| {
        StoreError::Corrupt(format!("knockout {}: {problem}", event.settings.name))
    };
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
    for game in store::games(conn, event.id)? {
        if game.round <= offset {
            continue;
        }
        record.push(KnockoutGame {
            round: game.round - offset,
            white: seed_of(game.white)?,
            black: seed_of(game.black)?,
            result: match &game.result {
                None => GameResult::Pending,
                Some(score) => GameResult::from_score(score, game.forfeit),
            },
        });
    }
    let mut withdrawn = Vec::new();
    for entry in store::entries(conn, event.id)? {
        if entry.withdrawn && seeds.contains(&entry.player) {
            withdrawn.push(seed_of(entry.player)?);
        }
    }
    let bracket = shape
        .compute_with_withdrawals(&record, &withdrawn)
        .map_err(|problem| corrupt(problem.to_string()))?;
    Ok(Some(Cup {
        shape,
        seeds,
        bracket,
        offset,
    }))
}

/// A knockout (or a knockout final stage) as it stands.
pub struct Cup {
    pub shape: Knockout,
    /// Players by seed: seed `s` is `seeds[s - 1]`.
    pub seeds: Vec<PlayerId>,
    pub bracket: Bracket,
    /// Rounds played before the knockout (the groups'); its round `r` is
    /// stored as round `offset + r`.
    pub offset: u32,
}

/// Rounds of the group stage of an event of groups: the most any group
/// plays (0 for other formats).
pub fn group_rounds(conn: &Connection, event: &Event) -> Result<u32, StoreError> {
    let Some(groups) = groups_of(conn, event)? else {
        return Ok(0);
    };
    Ok((1..=groups.groups())
        .map(|g| groups.rounds(g).len() as u32)
        .max()
        .unwrap_or(0))
}

/// The shape of an event of groups that has started (its seeds are its
/// start numbers).
pub fn groups_of(conn: &Connection, event: &Event) -> Result<Option<Groups>, StoreError> {
    let Format::Groups {
        groups,
        advance,
        double,
        final_stage,
    } = event.settings.format
    else {
        return Ok(None);
    };
    let seeded = store::entries(conn, event.id)?
        .iter()
        .filter(|e| e.start_number.is_some())
        .count() as u32;
    Groups::new(seeded, groups, advance, double, final_stage)
        .map(Some)
        .map_err(|problem| {
            StoreError::Corrupt(format!("groups {}: {problem}", event.settings.name))
        })
}

/// The bracket as text (rounds as columns, match scores, its key), for
/// `tournament show` and the final mail; `None` when the event is no
/// knockout or has not started.
pub fn bracket_text(conn: &Connection, event: &Event) -> Result<Option<String>, StoreError> {
    let Some(cup) = bracket_of(conn, event)? else {
        return Ok(None);
    };
    let mut names = Vec::with_capacity(cup.seeds.len());
    for player in cup.seeds {
        names.push(players::by_id(conn, player)?.userid);
    }
    Ok(Some(format!(
        "{}\n{}",
        text::bracket(&cup.bracket, &names),
        text::bracket_legend()
    )))
}

/// The event's players by start number (seed `s` is `seeds[s - 1]`).
pub fn seeds_of(conn: &Connection, event: &Event) -> Result<Vec<PlayerId>, StoreError> {
    let mut entries = store::entries(conn, event.id)?;
    entries.retain(|e| e.start_number.is_some());
    entries.sort_by_key(|e| e.start_number);
    Ok(entries.iter().map(|e| e.player).collect())
}

/// Each group's crosstable (its members in seed order, the group stage's
/// games only), group 1 first.
pub fn group_tables(
    conn: &Connection,
    event: &Event,
    groups: &Groups,
) -> Result<Vec<Crosstable>, StoreError> {
    let rounds = group_rounds(conn, event)?;
    let mut stage = store::results(conn, event)?;
    stage.games.retain(|g| g.round <= rounds);
    let mut tables = Vec::new();
    for group in 1..=groups.groups() {
        let results = groups.group_results(group, &stage).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "groups {}: group {group} does not match its entrants",
                event.settings.name
            ))
        })?;
        tables.push(Crosstable::compute(&results));
    }
    Ok(tables)
}

/// The groups' crosstables and the final stage's table or bracket, for
/// `tournament show`, `crosstable` and the final mail; `None` for other
/// formats.
pub fn groups_text(conn: &Connection, event: &Event) -> Result<Option<String>, StoreError> {
    let Some(groups) = groups_of(conn, event)? else {
        return Ok(None);
    };
    if event.status == Status::Open {
        return Ok(None);
    }
    let mut out = String::new();
    for (index, table) in group_tables(conn, event, &groups)?.iter().enumerate() {
        out.push_str(&format!(
            "Group {}:\n{}\n",
            index + 1,
            text::crosstable(table)
        ));
    }
    if let Some(bracket) = bracket_text(conn, event)? {
        out.push_str(&format!("Final stage:\n{bracket}\n"));
    } else if let Some(table) = final_stage_table(conn, event)? {
        out.push_str(&format!("Final stage:\n{}\n", text::crosstable(&table)));
    }
    Ok(Some(out))
}

/// The crosstable of a groups event's round-robin final stage (its
/// finalists in their final seed order, the final games only), once
/// there are finalists; `None` before, or for a knockout final stage.
pub fn final_stage_table(
    conn: &Connection,
    event: &Event,
) -> Result<Option<Crosstable>, StoreError> {
    if bracket_of(conn, event)?.is_some() {
        return Ok(None);
    }
    let finalists = store::finalists(conn, event.id)?;
    if finalists.is_empty() {
        return Ok(None);
    }
    let offset = group_rounds(conn, event)?;
    let mut stage = store::results(conn, event)?;
    let all = seeds_of(conn, event)?;
    // The finalists only, in their final seed order, with the final games.
    let index_of = |player: PlayerId| all.iter().position(|&p| p == player);
    let old: Vec<usize> = finalists.iter().filter_map(|&p| index_of(p)).collect();
    stage.entrants = old.iter().map(|&i| stage.entrants[i].clone()).collect();
    stage.games = stage
        .games
        .iter()
        .filter(|g| g.round > offset)
        .filter_map(|g| {
            Some(crate::tournament::GameRecord {
                white: old.iter().position(|&i| i == g.white)?,
                black: old.iter().position(|&i| i == g.black)?,
                ..*g
            })
        })
        .collect();
    stage.format = Format::RoundRobin { double: false };
    Ok(Some(Crosstable::compute(&stage)))
}
