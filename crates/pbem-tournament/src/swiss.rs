//! A Swiss event as the pairing engine reads it: the event's results
//! ([`EventResults`]) written as the in-memory TRF of [`pbem_pairing`], with
//! the TRF codes bbpPairings and JaVaFo read (`1 = 0` for played games, `+
//! -` for forfeits, `U` the pairing-allocated bye, `H` a half-point bye, `Z`
//! a zero-point bye: a round a player was not paired in).

use pbem_pairing::{Colour, Entry, EntryResult, Player, Points, Tournament};

use super::table::{ByeKind, EventResults, GameResult};

/// The TRF of an event of `rounds` rounds called `name`. Start numbers are
/// the entrants' order (index + 1). A game in progress is written with a
/// blank result.
pub fn trf(results: &EventResults, name: &str, rounds: u32) -> Tournament {
    let count = results.entrants.len();
    let mut entries: Vec<Vec<(u32, Entry)>> = vec![Vec::new(); count];
    for game in &results.games {
        if game.white >= count || game.black >= count {
            continue;
        }
        use EntryResult::{Draw, ForfeitLoss, ForfeitWin, Loss, Pending, Win};
        let (w, b) = match game.result {
            GameResult::Pending => (Pending, Pending),
            GameResult::WhiteWins => (Win, Loss),
            GameResult::Draw => (Draw, Draw),
            GameResult::BlackWins => (Loss, Win),
            GameResult::WhiteWinsByForfeit => (ForfeitWin, ForfeitLoss),
            GameResult::BlackWinsByForfeit => (ForfeitLoss, ForfeitWin),
            GameResult::DoubleForfeit | GameResult::Cancelled => (ForfeitLoss, ForfeitLoss),
        };
        entries[game.white].push((
            game.round,
            Entry::game(game.black as u32 + 1, Colour::White, w),
        ));
        entries[game.black].push((
            game.round,
            Entry::game(game.white as u32 + 1, Colour::Black, b),
        ));
    }
    for bye in &results.byes {
        if bye.player >= count {
            continue;
        }
        let result = match bye.kind {
            ByeKind::Full => EntryResult::PairingAllocatedBye,
            ByeKind::Half => EntryResult::HalfPointBye,
            ByeKind::Zero => EntryResult::ZeroPointBye,
        };
        entries[bye.player].push((bye.round, Entry::bye(result)));
    }
    let players = results
        .entrants
        .iter()
        .zip(entries)
        .enumerate()
        .map(|(index, (entrant, mut list))| {
            list.sort_by_key(|(round, _)| *round);
            let last = list.last().map_or(0, |(round, _)| *round) as usize;
            let mut rounds = vec![Entry::BLANK; last];
            for (round, entry) in list {
                if round >= 1 {
                    rounds[round as usize - 1] = entry;
                }
            }
            Player {
                start: index as u32 + 1,
                name: entrant.name.chars().take(33).collect(),
                rating: entrant.rating.unwrap_or(0),
                sex_title: String::new(),
                fed_id_birth: String::new(),
                points_tenths: 0,
                rank: 0,
                rounds,
            }
        })
        .collect();
    Tournament {
        header: vec![format!("012 {name}")],
        players,
        total_rounds: Some(rounds),
        initial_colour: Some(Colour::White),
        use_rank: false,
        forbidden: Vec::new(),
        prohibited: Vec::new(),
        byes: Vec::new(),
        acceleration: Default::default(),
        points: Points::default(),
    }
}
