//! A [`Tournament`] read the way the pairing rules need it: per player the
//! matches so far (played or not, who took part in each round's pairing),
//! scores, colour preferences (A7) and ranks; the round to pair.

use super::{Acceleration, Colour, Entry, EntryColour, EntryResult, Points, Tournament};

/// Result of a match for the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ms {
    Loss,
    Draw,
    Win,
}

/// One round of one player.
#[derive(Clone, Copy, Debug)]
pub(crate) struct M {
    /// Opponent id, or the player's own id when there was none.
    pub opp: usize,
    pub colour: Option<Colour>,
    pub score: Ms,
    pub played: bool,
    /// Whether the player was in that round's pairing (a game, a forfeit,
    /// or the pairing-allocated bye).
    pub participated: bool,
}

impl M {
    fn absent(id: usize) -> M {
        M {
            opp: id,
            colour: None,
            score: Ms::Loss,
            played: false,
            participated: false,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct P {
    pub id: usize,
    pub start: u32,
    pub exists: bool,
    pub valid: bool,
    pub rank: usize,
    pub matches: Vec<M>,
    pub accel: Vec<u32>,
    pub score: u32,
    pub imbalance: usize,
    pub pref: Option<Colour>,
    pub repeated: Option<Colour>,
    pub strong: bool,
    pub played_games: usize,
}

impl P {
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
    pub fn absolute_pref(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct T {
    pub players: Vec<P>,
    /// Ids in rank order.
    pub by_rank: Vec<usize>,
    pub played_rounds: usize,
    pub expected_rounds: usize,
    pub points: Points,
    pub initial_colour: Colour,
    /// Forbidden groups by id (`XXP`, every round).
    pub forbidden: Vec<Vec<usize>>,
    /// Groups by id forbidden in the 0-based rounds `first..=last` (`260`).
    pub prohibited: Vec<(usize, usize, Vec<usize>)>,
}

impl T {
    /// The groups who may not meet in the round to pair.
    pub fn forbidden_groups(&self) -> impl Iterator<Item = &Vec<usize>> {
        let round = self.played_rounds;
        self.forbidden.iter().chain(
            self.prohibited
                .iter()
                .filter(move |(first, last, _)| (*first..=*last).contains(&round))
                .map(|(_, _, g)| g),
        )
    }

    pub fn get_points(&self, p: &P, m: &M) -> u32 {
        match m.score {
            Ms::Loss => {
                if m.participated {
                    if m.played {
                        self.points.loss
                    } else {
                        self.points.forfeit_loss
                    }
                } else {
                    self.points.zero_bye
                }
            }
            Ms::Win => {
                if m.opp == p.id && m.participated {
                    self.points.pab
                } else {
                    self.points.win
                }
            }
            Ms::Draw => self.points.draw,
        }
    }

    /// Score with acceleration as it was `back` rounds ago.
    pub fn score_acc(&self, p: &P, back: usize) -> u32 {
        let mut score = p.score;
        let mut round = self.played_rounds;
        for _ in 0..back {
            round -= 1;
            score = score.saturating_sub(self.get_points(p, &p.matches[round]));
        }
        score + p.accel.get(round).copied().unwrap_or(0)
    }

    pub fn eligible_for_bye(&self, p: &P) -> bool {
        p.matches.iter().all(|m| {
            m.played
                || !(self.get_points(p, m) >= self.points.win || (m.participated && m.opp == p.id))
        })
    }

    /// The pairing-number order: true when `a` ranks above `b` by
    /// accelerated score, then rank.
    pub fn higher(&self, a: &P, b: &P) -> bool {
        let (sa, sb) = (self.score_acc(a, 0), self.score_acc(b, 0));
        sa > sb || (sa == sb && a.rank < b.rank)
    }

    /// Ranks of the players in this round (those present or with a past
    /// pairing) and their colour data (A7), as before each pairing.
    pub fn update(&mut self) {
        let mut rank = 0;
        for &id in &self.by_rank {
            let p = &mut self.players[id];
            p.valid =
                p.matches.len() <= self.played_rounds || p.matches.iter().any(|m| m.participated);
            if p.valid {
                p.rank = rank;
                rank += 1;
            }
        }
        for p in &mut self.players {
            if !p.valid {
                continue;
            }
            let (mut white, mut black, mut consecutive, mut played) =
                (0usize, 0usize, 0usize, 0usize);
            p.repeated = None;
            for m in &p.matches {
                if m.played {
                    played += 1;
                    let c = m.colour.unwrap_or(Colour::White);
                    if c == Colour::White {
                        white += 1
                    } else {
                        black += 1
                    }
                    if consecutive == 0 || Some(c) != p.repeated {
                        consecutive = 1;
                    } else {
                        consecutive += 1;
                    }
                    p.repeated = Some(c);
                }
            }
            p.played_games = played;
            let lower = if white > black {
                Colour::Black
            } else {
                Colour::White
            };
            p.imbalance = white.abs_diff(black);
            p.pref = if p.imbalance > 1 {
                Some(lower)
            } else if consecutive > 1 {
                p.repeated.map(Colour::invert)
            } else if p.imbalance > 0 {
                Some(lower)
            } else if consecutive > 0 {
                p.repeated.map(Colour::invert)
            } else {
                None
            };
            if consecutive <= 1 {
                p.repeated = None;
            }
            p.strong = !p.absolute_pref() && p.imbalance > 0;
        }
    }
}

/// Reads one TRF entry the way bbpPairings does. `None` is a blank entry.
fn read_entry(
    id: usize,
    e: &Entry,
    ids: &dyn Fn(u32) -> Option<usize>,
) -> Result<Option<M>, String> {
    let mut skip = true;
    let mut played = true;
    let mut opp = id;
    if e.opponent != 0 {
        opp = ids(e.opponent).ok_or_else(|| format!("opponent {} is not a player", e.opponent))?;
        if opp == id {
            return Err(format!("player {} plays itself", e.opponent));
        }
        skip = false;
    }
    if opp == id {
        played = false;
    }
    let colour = match e.colour {
        EntryColour::White => Some(Colour::White),
        EntryColour::Black => Some(Colour::Black),
        EntryColour::NoGame | EntryColour::Blank => None,
    };
    match e.colour {
        EntryColour::White | EntryColour::Black => skip = false,
        EntryColour::NoGame => {
            skip = false;
            played = false;
        }
        EntryColour::Blank => played = false,
    }
    if opp == id && colour.is_some() {
        return Err("a colour without an opponent".into());
    }
    let r = e.result;
    let score = match r {
        EntryResult::UnratedDraw | EntryResult::Draw | EntryResult::HalfPointBye => Ms::Draw,
        EntryResult::ForfeitWin
        | EntryResult::UnratedWin
        | EntryResult::Win
        | EntryResult::FullPointBye
        | EntryResult::PairingAllocatedBye => Ms::Win,
        EntryResult::ForfeitLoss
        | EntryResult::UnratedLoss
        | EntryResult::Loss
        | EntryResult::ZeroPointBye
        | EntryResult::Pending => Ms::Loss,
    };
    // Forfeits, byes and blanks are not games played over the board.
    let not_over_the_board = matches!(
        r,
        EntryResult::ForfeitWin
            | EntryResult::ForfeitLoss
            | EntryResult::HalfPointBye
            | EntryResult::FullPointBye
            | EntryResult::PairingAllocatedBye
            | EntryResult::ZeroPointBye
            | EntryResult::Pending
    );
    let forfeit = matches!(r, EntryResult::ForfeitWin | EntryResult::ForfeitLoss);
    if not_over_the_board {
        played = false;
        if !forfeit && opp != id {
            return Err(format!("result {:?} with an opponent", r.to_trf()));
        }
    } else if colour.is_none() && (r != EntryResult::Draw || opp != id) {
        return Err(format!("result {:?} without a colour", r.to_trf()));
    }
    if r != EntryResult::Pending {
        skip = false;
    }
    let participated =
        opp != id || r == EntryResult::PairingAllocatedBye || r == EntryResult::ForfeitWin;
    if skip {
        return Ok(None);
    }
    Ok(Some(M {
        opp,
        colour,
        score,
        played,
        participated,
    }))
}

/// Builds the state. `unpaired`: the file's last column may hold the byes
/// of the round to pair (pairing); else every column is a past round.
pub(crate) fn build(t: &Tournament, unpaired: bool) -> Result<T, String> {
    if t.players.len() > super::MAX_PLAYERS {
        return Err(format!("more than {} players", super::MAX_PLAYERS));
    }
    let max_start = t.players.iter().map(|p| p.start).max().unwrap_or(0) as usize;
    if max_start > super::MAX_PLAYERS {
        return Err(format!(
            "start number {max_start} above {}",
            super::MAX_PLAYERS
        ));
    }
    let mut players: Vec<P> = (0..max_start)
        .map(|id| P {
            id,
            start: id as u32 + 1,
            ..P::default()
        })
        .collect();
    for p in &t.players {
        if p.start == 0 {
            return Err("start number 0".into());
        }
        let id = p.start as usize - 1;
        if players[id].exists {
            return Err(format!("start number {} is repeated", p.start));
        }
        players[id].exists = true;
    }
    let exists: Vec<bool> = players.iter().map(|p| p.exists).collect();
    let ids = |s: u32| -> Option<usize> {
        let i = (s as usize).checked_sub(1)?;
        if exists.get(i).copied().unwrap_or(false) {
            Some(i)
        } else {
            None
        }
    };
    let mut played_rounds = 0usize;
    for p in &t.players {
        if p.rounds.len() > super::MAX_ROUNDS {
            return Err(format!("more than {} rounds", super::MAX_ROUNDS));
        }
        let id = p.start as usize - 1;
        let mut matches = Vec::new();
        let mut skipped = 0usize;
        for e in &p.rounds {
            match read_entry(id, e, &ids).map_err(|e| format!("player {}: {e}", p.start))? {
                None => skipped += 1,
                Some(m) => {
                    matches.extend(std::iter::repeat_n(M::absent(id), skipped));
                    skipped = 0;
                    played_rounds = played_rounds.max(matches.len());
                    matches.push(m);
                    if m.participated {
                        played_rounds = played_rounds.max(matches.len());
                    }
                }
            }
        }
        players[id].matches = matches;
        players[id].valid = true;
    }
    // The round after the last paired one, when every player has an entry
    // for it, was already paired in pairing mode, or is a past round of byes.
    let present = players.iter().filter(|p| p.exists).count();
    let forward = if unpaired {
        players
            .iter()
            .filter(|p| p.exists)
            .all(|p| p.matches.len() > played_rounds)
    } else {
        players
            .iter()
            .filter(|p| p.exists)
            .any(|p| p.matches.len() > played_rounds)
    };
    if present > 0 && forward {
        played_rounds += 1;
    }
    for p in players.iter_mut().filter(|p| p.exists) {
        if p.matches.len() < played_rounds {
            let id = p.id;
            p.matches.resize(played_rounds, M::absent(id));
        }
    }
    let expected_rounds = match t.total_rounds {
        Some(r) => r as usize,
        None if unpaired => {
            return Err("the total number of rounds (XXR) is needed to pair the next round".into());
        }
        None => played_rounds,
    };
    if expected_rounds > 0 && played_rounds > expected_rounds - usize::from(unpaired) {
        return Err("more rounds than the total number of rounds (XXR)".into());
    }
    // Consistency of opponents: each game is written on both lines.
    for p in players.iter().filter(|p| p.exists) {
        for (r, m) in p.matches.iter().enumerate() {
            if m.opp != p.id {
                let o = players[m.opp].matches.get(r);
                let ok = o.is_some_and(|o| {
                    o.opp == p.id
                        && (!m.played || (o.played && o.colour.is_some() && o.colour != m.colour))
                });
                if !ok {
                    return Err(format!(
                        "round {}: players {} and {} disagree about their game",
                        r + 1,
                        p.start,
                        m.opp + 1
                    ));
                }
            }
        }
    }
    let by_rank: Vec<usize> = if t.use_rank {
        t.players.iter().map(|p| p.start as usize - 1).collect()
    } else {
        if present != players.len() {
            return Err("a start number is missing".into());
        }
        (0..players.len()).collect()
    };
    let mut state = T {
        players,
        by_rank,
        played_rounds,
        expected_rounds,
        points: t.points,
        initial_colour: Colour::White,
        forbidden: t
            .forbidden
            .iter()
            .map(|g| g.iter().filter_map(|&s| ids(s)).collect())
            .collect(),
        prohibited: t
            .prohibited
            .iter()
            .map(|g| {
                let ids = g.players.iter().filter_map(|&s| ids(s)).collect();
                (g.first_round as usize - 1, g.last_round as usize - 1, ids)
            })
            .collect(),
    };
    if unpaired {
        // Byes entered (240) for the round to pair leave the player out,
        // as a bye written in the player's line does.
        for b in t
            .byes
            .iter()
            .filter(|b| b.round as usize == played_rounds + 1)
        {
            for id in b.players.iter().filter_map(|&s| ids(s)) {
                let p = &mut state.players[id];
                if p.matches.len() == played_rounds {
                    let bye =
                        read_entry(id, &Entry::bye(b.kind), &ids)?.ok_or("an empty bye record")?;
                    p.matches.push(bye);
                }
            }
        }
    }
    for (i, id) in state.by_rank.clone().into_iter().enumerate() {
        state.players[id].rank = i;
    }
    match &t.acceleration {
        Acceleration::None => {}
        Acceleration::Baku => baku(&mut state)?,
        Acceleration::Manual(list) => {
            for (start, acc) in list {
                let id = ids(*start)
                    .ok_or_else(|| format!("acceleration for unknown player {start}"))?;
                state.players[id].accel = acc.clone();
            }
        }
        Acceleration::Fictitious(list) => {
            // Later records overwrite earlier ones where they overlap, as in
            // bbpPairings; rounds and players beyond the event are ignored.
            let rounds = state.expected_rounds.max(state.played_rounds + 1);
            for f in list {
                let last_player = (f.last_player as usize).min(state.players.len());
                let last_round = (f.last_round as usize).min(rounds);
                for id in f.first_player as usize - 1..last_player {
                    let accel = &mut state.players[id].accel;
                    if accel.len() < last_round {
                        accel.resize(last_round, 0);
                    }
                    for a in accel
                        .iter_mut()
                        .take(last_round)
                        .skip(f.first_round as usize - 1)
                    {
                        *a = f.points;
                    }
                }
            }
        }
    }
    for p in state.players.iter_mut() {
        p.score = 0;
    }
    for id in 0..state.players.len() {
        if !state.players[id].exists {
            continue;
        }
        let p = &state.players[id];
        let s: u32 = p
            .matches
            .iter()
            .take(state.played_rounds)
            .map(|m| state.get_points(p, m))
            .sum();
        state.players[id].score = s;
    }
    state.initial_colour = match t.initial_colour {
        Some(c) => c,
        None => infer_first_colour(&state).unwrap_or(Colour::White),
    };
    Ok(state)
}

fn baku(t: &mut T) -> Result<(), String> {
    let pts = t.points;
    if pts.loss != 0 || pts.draw * 2 != pts.win {
        return Err("the point system does not fit the Baku acceleration".into());
    }
    if t.by_rank.is_empty() || t.expected_rounds == 0 {
        return Ok(());
    }
    // C.04.7: group GA is the first half of the players rounded up to an
    // even number, 2 * ceil(n / 4) (bbpPairings takes ceil(n / 2), one
    // fewer when that is odd; see docs/design.md, "TRF and Baku acceleration").
    let last_rank = (2 * t.by_rank.len().div_ceil(4)).min(t.by_rank.len()) - 1;
    let last_round = (t.expected_rounds - 1) / 2;
    let last_full = last_round / 2;
    for r in 0..=last_rank {
        let id = t.by_rank[r];
        let mut acc = Vec::new();
        let mut round = 0;
        while round <= last_full && round <= t.played_rounds {
            acc.push(pts.win);
            round += 1;
        }
        while round <= last_round && round <= t.played_rounds {
            acc.push(pts.draw);
            round += 1;
        }
        t.players[id].accel = acc;
    }
    Ok(())
}

/// The colour the first-ranked player had in the first round with colours.
fn infer_first_colour(t: &T) -> Option<Colour> {
    let min_round = t
        .players
        .iter()
        .filter(|p| p.exists)
        .filter_map(|p| p.matches.iter().position(|m| m.colour.is_some()))
        .min()?;
    let mut k = 0;
    for &id in &t.by_rank {
        let p = &t.players[id];
        if p.matches.iter().take(min_round + 1).any(|m| m.participated) {
            if let Some(c) = p.matches[min_round].colour {
                return Some(if k & 1 == 1 { c.invert() } else { c });
            }
            k += 1;
        }
    }
    None
}
