//! The FIDE Dutch system (C.04.3): pairs the next round of a [`Tournament`].
//!
//! Every criterion is a bit field of one edge weight, most important first:
//! absolute criteria (C1-C3) decide whether an edge exists; completion and
//! the bye (C4, C5, C9) come first, then the pairs and scores of the current
//! bracket and the next (C6-C8), colour preferences (C10-C13) and repeated
//! floats (C14-C21). A maximum-weight matching over all players still to be
//! paired then satisfies the criteria in order, one bracket at a time from
//! the top score group down, exactly as the rules' "lexicographic" order of
//! candidates asks. Within a bracket (see `bracket_loop`) the moved-down
//! players to pair are chosen first (D.3, the highest first) with their
//! opponents, then the exchanges between S1 and S2 of the remainder (D.2,
//! fewest and smallest differences of BSN), then each S1 player's opponent
//! in BSN order (D.1), each decision fixed before the next, as in the
//! endorsed engine bbpPairings (whose method of encoding priorities this
//! follows). Colours are allocated by E1-E5.

use std::collections::HashMap;

use super::matching::Matcher;
use super::state::{M, P, T};
use super::weight::{Big, Weight};
use super::{Colour, Pairing, PairingError, Tournament};

/// Pairs the next round of `t` (the round after the last one with a game;
/// byes and absences already entered for that round are honoured).
pub fn pair(t: &Tournament) -> Result<Pairing, PairingError> {
    let mut s = super::state::build(t, true).map_err(PairingError::Invalid)?;
    s.update();
    let pairs = compute(&s)?;
    Ok(to_pairing(&s, pairs))
}

/// A raw pairing: (white id, black id), or (id, id) for the bye.
pub(crate) type RawPairs = Vec<(usize, usize)>;

/// Orders the pairs as bbpPairings prints them and names them by start number.
pub(crate) fn to_pairing(s: &T, mut pairs: RawPairs) -> Pairing {
    let key = |&(w, b): &(usize, usize)| {
        let (pw, pb) = (&s.players[w], &s.players[b]);
        let w_higher = pw.score > pb.score || (pw.score == pb.score && pw.rank < pb.rank);
        let (h, l) = if w_higher { (pw, pb) } else { (pb, pw) };
        (
            w == b,
            std::cmp::Reverse(h.score),
            std::cmp::Reverse(l.score),
            h.rank,
        )
    };
    pairs.sort_by_key(key);
    let mut out = Pairing::default();
    for (w, b) in pairs {
        if w == b {
            out.bye = Some(s.players[w].start);
        } else {
            out.pairs.push((s.players[w].start, s.players[b].start));
        }
    }
    out
}

fn bits_for(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// Pairs the round `s.played_rounds` of a prepared state.
pub(crate) fn compute(s: &T) -> Result<RawPairs, PairingError> {
    let sorted = sorted_players(s);
    if sorted.is_empty() {
        return Ok(Vec::new());
    }
    let (_, sgs_total, _, sgb) = score_groups(s, &sorted);
    let pr = s.played_rounds;
    let mut total = sgb + sgs_total + sgb + sgs_total + 2 * sgb + 4 * sgb + 3 * sgb + 1;
    if pr >= 1 {
        total += 2 * sgb + 2 * sgs_total;
    }
    if pr > 1 {
        total += 2 * sgb + 2 * sgs_total;
    }
    // Two bits for the completion field, room for the addends of the
    // bracket steps and for the sums of the matching's duals.
    let need = total + 2 + 8;
    match need {
        0..=64 => run::<Big<1>>(s, sorted),
        65..=128 => run::<Big<2>>(s, sorted),
        129..=192 => run::<Big<3>>(s, sorted),
        193..=256 => run::<Big<4>>(s, sorted),
        257..=384 => run::<Big<6>>(s, sorted),
        385..=448 => run::<Big<7>>(s, sorted),
        449..=512 => run::<Big<8>>(s, sorted),
        513..=576 => run::<Big<9>>(s, sorted),
        577..=768 => run::<Big<12>>(s, sorted),
        769..=1024 => run::<Big<16>>(s, sorted),
        1025..=1536 => run::<Big<24>>(s, sorted),
        1537..=2048 => run::<Big<32>>(s, sorted),
        2049..=4096 => run::<Big<64>>(s, sorted),
        _ => Err(PairingError::TooLarge(format!(
            "the pairing weights need {need} bits"
        ))),
    }
}

/// Players to pair (present, not already given a bye for this round),
/// highest first.
fn sorted_players(s: &T) -> Vec<usize> {
    let mut v: Vec<usize> = s
        .players
        .iter()
        .filter(|p| p.exists && p.valid && p.matches.len() <= s.played_rounds)
        .map(|p| p.id)
        .collect();
    v.sort_by(|&a, &b| {
        let (pa, pb) = (&s.players[a], &s.players[b]);
        s.score_acc(pb, 0)
            .cmp(&s.score_acc(pa, 0))
            .then(pa.rank.cmp(&pb.rank))
    });
    v
}

/// (shifts per score, total shift, largest group, bits of the largest group).
fn score_groups(s: &T, sorted: &[usize]) -> (HashMap<u32, u32>, u32, usize, u32) {
    let mut shifts = HashMap::new();
    let mut total = 0u32;
    let mut largest = 0usize;
    let mut run = 0usize;
    for i in (0..sorted.len()).rev() {
        run += 1;
        let score = s.score_acc(&s.players[sorted[i]], 0);
        if i == 0 || score < s.score_acc(&s.players[sorted[i - 1]], 0) {
            shifts.insert(score, total);
            largest = largest.max(run);
            total += bits_for(run);
            run = 0;
        }
    }
    (shifts, total, largest, bits_for(largest))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Float {
    Down,
    Up,
    None,
}

struct Ctx<'a> {
    s: &'a T,
    sorted: Vec<usize>,
    forbidden: Vec<Vec<bool>>,
    sgb: u32,
    sgs: u32,
    /// The bit of each player's score group in a score field, by id.
    group_shift: Vec<u32>,
    /// The bits of an edge weight below its most significant field.
    edge_bits: u32,
    bye_score: u32,
    single_df_bye: bool,
    unplayed_ranks: HashMap<usize, u64>,
    /// Accelerated scores by id, now and one and two rounds back.
    score: Vec<u32>,
    floats: Vec<[Float; 2]>,
    eligible: Vec<bool>,
}

impl<'a> Ctx<'a> {
    fn p(&self, id: usize) -> &'a P {
        &self.s.players[id]
    }

    fn float(&self, id: usize, back: usize) -> Float {
        self.floats[id][back - 1]
    }

    fn compute_float(s: &T, p: &P, back: usize) -> Float {
        if s.played_rounds < back {
            return Float::None;
        }
        let m: &M = &p.matches[s.played_rounds - back];
        if !m.played {
            return if s.get_points(p, m) > s.points.loss {
                Float::Down
            } else {
                Float::None
            };
        }
        let mine = s.score_acc(p, back);
        let theirs = s.score_acc(&s.players[m.opp], back);
        if mine > theirs {
            Float::Down
        } else if mine < theirs {
            Float::Up
        } else {
            Float::None
        }
    }

    fn compatible(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (self.p(a), self.p(b));
        let s = self.s;
        let top = (s.played_rounds as u64 * u64::from(s.points.win.max(s.points.draw))) >> 1;
        let last = s
            .expected_rounds
            .checked_sub(1)
            .is_some_and(|e| s.played_rounds >= e);
        !self.forbidden[a][b]
            && (!pa.absolute_pref()
                || !pb.absolute_pref()
                || pa.pref != pb.pref
                || (last && (u64::from(self.score[a]) > top || u64::from(self.score[b]) > top)))
    }

    fn bye_candidate(&self, id: usize) -> bool {
        self.eligible[id] && self.score[id] <= self.bye_score
    }

    /// The weight of the edge between `h` (higher) and `l` (lower): its
    /// fields from the most significant down (see [`Fields`]).
    fn edge<W: Weight>(&self, h: usize, l: usize, in_cur: bool, in_next: bool) -> W {
        if !self.compatible(h, l) {
            return W::zero();
        }
        let (sgb, sgs) = (self.sgb, self.sgs);
        let (sh, sl) = (self.score[h], self.score[l]);
        let (gh, gl) = (self.group_shift[h], self.group_shift[l]);
        let mut f = Fields {
            w: W::zero(),
            at: self.edge_bits,
        };
        f.add(1 + u64::from(!self.bye_candidate(h)) + u64::from(!self.bye_candidate(l)));
        f.next(sgb);
        f.add(u64::from(in_cur));
        f.next(sgs);
        if in_cur {
            f.add_bit(gh);
        }
        f.next(sgb);
        f.add(u64::from(in_next));
        f.next(sgs);
        if in_next {
            f.add_bit(gh);
        }
        f.next(2 * sgb);
        if self.single_df_bye {
            if sh == self.bye_score {
                f.add(self.unplayed_ranks[&self.p(h).played_games]);
            }
            if sl == self.bye_score {
                f.add(self.unplayed_ranks[&self.p(l).played_games]);
            }
        }
        // Colour preferences: "player" is the lower, "opponent" the higher.
        let (pl, op) = (self.p(l), self.p(h));
        let m = in_cur;
        f.next(sgb);
        f.add(u64::from(
            m && (!pl.absolute_imbalance() || !op.absolute_imbalance() || pl.pref != op.pref),
        ));
        let c12 = !pl.absolute_pref()
            || !op.absolute_pref()
            || pl.pref != op.pref
            || if pl.imbalance == op.imbalance {
                pl.repeated.is_none() || pl.repeated != op.repeated
            } else {
                let x = if pl.imbalance > op.imbalance { op } else { pl };
                x.repeated != pl.pref.map(Colour::invert)
            };
        f.next(sgb);
        f.add(u64::from(m && c12));
        f.next(sgb);
        f.add(u64::from(m && prefs_compatible(pl.pref, op.pref)));
        let c13 = (!pl.strong && !pl.absolute_pref())
            || (!op.strong && !op.absolute_pref())
            || (pl.absolute_pref() && op.absolute_pref())
            || pl.pref != op.pref;
        f.next(sgb);
        f.add(u64::from(m && c13));
        let pr = self.s.played_rounds;
        for back in [1usize, 2] {
            if pr >= back {
                f.next(sgb);
                if in_cur {
                    f.add(u64::from(self.float(l, back) == Float::Down));
                    f.add(u64::from(sh <= sl && self.float(h, back) == Float::Down));
                }
                f.next(sgb);
                if in_cur {
                    f.add(u64::from(!(sh > sl && self.float(l, back) == Float::Up)));
                }
            }
        }
        for back in [1usize, 2] {
            if pr >= back {
                f.next(sgs);
                if in_cur {
                    if self.float(l, back) == Float::Down {
                        f.add_bit(gl);
                    }
                    if self.float(h, back) == Float::Down {
                        f.add_bit(gh);
                    }
                }
                f.next(sgs);
                if in_cur && !(self.float(l, back) == Float::Up && sh > sl) {
                    f.add_bit(gh);
                }
            }
        }
        f.next(3 * sgb + 1);
        debug_assert_eq!(f.at, 0, "the fields fill the edge's bits");
        f.w
    }
}

/// An edge weight written field by field from the most significant down:
/// `at` is the lowest bit of the current field, and each value is added
/// there (a field may take the sum of two values, as in bbpPairings'
/// encoding), so no wide shift is made.
struct Fields<W> {
    w: W,
    at: u32,
}

impl<W: Weight> Fields<W> {
    /// Moves to the next field, `width` bits wide.
    fn next(&mut self, width: u32) {
        self.at -= width;
    }

    fn add(&mut self, v: u64) {
        self.w.add_shifted(v, self.at);
    }

    /// Adds bit `bit` of the current field.
    fn add_bit(&mut self, bit: u32) {
        self.w.add_shifted(1, self.at + bit);
    }
}

fn prefs_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none() || b.is_none()
}

fn run<W: Weight>(s: &T, sorted: Vec<usize>) -> Result<RawPairs, PairingError> {
    let n = sorted.len();
    let (shifts, sgs, _, sgb) = score_groups(s, &sorted);
    // Forbidden pairs: the file's, and every pair that has played.
    let mut forbidden = vec![vec![false; s.players.len()]; s.players.len()];
    for g in s.forbidden_groups() {
        for &a in g {
            for &b in g {
                forbidden[a][b] = true;
            }
        }
    }
    for p in s.players.iter().filter(|p| p.exists && p.valid) {
        for m in &p.matches {
            if m.played {
                forbidden[p.id][m.opp] = true;
            }
        }
    }
    let mut score = vec![0; s.players.len()];
    let mut floats = vec![[Float::None; 2]; s.players.len()];
    let mut eligible = vec![false; s.players.len()];
    for p in s.players.iter().filter(|p| p.exists && p.valid) {
        score[p.id] = s.score_acc(p, 0);
        floats[p.id] = [Ctx::compute_float(s, p, 1), Ctx::compute_float(s, p, 2)];
        eligible[p.id] = s.eligible_for_bye(p);
    }
    let mut group_shift = vec![0; s.players.len()];
    for &id in &sorted {
        group_shift[id] = shifts[&score[id]];
    }
    let pr = s.played_rounds;
    let floats_bits = |back: usize| if pr >= back { 2 * sgb + 2 * sgs } else { 0 };
    let edge_bits =
        2 * sgb + 2 * sgs + 2 * sgb + 4 * sgb + floats_bits(1) + floats_bits(2) + 3 * sgb + 1;
    let mut c = Ctx {
        s,
        sorted,
        forbidden,
        sgb,
        sgs,
        group_shift,
        edge_bits,
        bye_score: 0,
        single_df_bye: false,
        unplayed_ranks: HashMap::new(),
        score,
        floats,
        eligible,
    };
    let sorted = c.sorted.clone();
    let sc = |v: usize| c.score[sorted[v]];
    let top = sc(0);
    let mut mm: Matcher<W> = Matcher::new(n);
    // Completability: can everyone but at most one eligible player be paired?
    for pv in 0..n {
        for ov in 0..pv {
            let (p, o) = (sorted[pv], sorted[ov]);
            let w = if n % 2 == 1 {
                if c.compatible(p, o) {
                    let mut w =
                        W::from_u64(1 + u64::from(!c.eligible[p]) + u64::from(!c.eligible[o]));
                    w = w
                        .shl(sgs)
                        .or_u64(u64::from(c.group_shift[p] + c.group_shift[o]));
                    w.shl(sgb).or_u64(u64::from(c.score[p] >= top))
                } else {
                    W::zero()
                }
            } else {
                c.edge(o, p, false, false)
            };
            mm.set(pv, ov, w);
        }
    }
    let m = mm.compute();
    let mut unmatched = (0..n).filter(|&v| m[v] == v);
    let first_unmatched = unmatched.next();
    if unmatched.next().is_some() || first_unmatched.is_some_and(|v| !c.eligible[sorted[v]]) {
        return Err(PairingError::NoValidPairing);
    }
    if n % 2 == 1 {
        let bye = first_unmatched.ok_or(PairingError::NoValidPairing)?;
        c.bye_score = sc(bye);
        c.single_df_bye = c.bye_score >= top
            && (0..n)
                .take_while(|&v| sc(v) >= top)
                .all(|v| sc(m[v]) >= top);
        let mut counts: Vec<usize> = sorted
            .iter()
            .filter(|&&id| c.score[id] == c.bye_score)
            .map(|&id| s.players[id].played_games)
            .collect();
        counts.sort_unstable_by(|a, b| b.cmp(a));
        for (rank, pg) in counts.into_iter().enumerate() {
            c.unplayed_ranks.insert(pg, rank as u64);
        }
        for pv in 0..n {
            for ov in 0..pv {
                mm.set(pv, ov, c.edge(sorted[ov], sorted[pv], false, false));
            }
        }
    }
    bracket_loop(&mut c, &mut mm)
}

/// Pairs bracket after bracket (C.04.3 A.3), from the top score group down,
/// fixing each decision before the next: which moved-down players are paired
/// (D.3), their opponents, the exchanges between S1 and S2 of the remainder
/// (D.2), then each S1 player's opponent (D.1). Each decision is a change of
/// edge weights followed by a new maximum-weight matching, so the criteria
/// C.1-C.21 encoded in the weights keep their priority over the order of
/// candidates.
fn bracket_loop<W: Weight>(c: &mut Ctx, mm: &mut Matcher<W>) -> Result<RawPairs, PairingError> {
    let sorted = c.sorted.clone();
    let n = sorted.len();
    let score_of_vertex = |c: &Ctx, v: usize| c.score[sorted[v]];
    let mut partner_by_id: Vec<Option<usize>> = vec![None; c.s.players.len()];
    let mut search = Search {
        mm,
        matching: Vec::new(),
        matched: vec![false; n],
    };
    // The first bracket is the top score group.
    let mut carried: Vec<usize> = Vec::new();
    let mut next_vertex = 0usize;
    while next_vertex < n && score_of_vertex(c, next_vertex) >= score_of_vertex(c, 0) {
        carried.push(next_vertex);
        next_vertex += 1;
    }
    let mut mdp_count = 0usize;
    let mut first_resident = 0usize;
    let mut guard = 0usize;
    while carried.len() > 1 || next_vertex < n {
        guard += 1;
        if guard > 2 * n + 2 {
            return Err(PairingError::NoValidPairing);
        }
        let size = carried.len();
        let next_group = first_resident + (size - mdp_count);
        // The next score group joins the matching as the destination of
        // this bracket's downfloaters (C.7, C.8).
        let next_group_first = next_vertex;
        while next_vertex < n
            && score_of_vertex(c, next_vertex) >= score_of_vertex(c, next_group_first)
        {
            carried.push(next_vertex);
            next_vertex += 1;
        }
        let mut bracket = Bracket::new(
            c,
            &sorted,
            carried,
            mdp_count,
            size,
            first_resident,
            next_group,
            search.mm,
        );
        search.solve();
        bracket.choose_paired_mdps(&mut search, |v| score_of_vertex(c, v));
        bracket.pair_mdps(&mut search)?;
        let remainder = bracket.remainder(&search.matching);
        remainder.prefer_fewest_exchanges(&bracket, &mut search, c.sgb);
        let exchanges = remainder.exchange_count(&bracket, &search.matching);
        remainder.exchange_lowest_of_s1(&mut bracket, &mut search, c.sgb, exchanges);
        remainder.exchange_highest_of_s2(&mut bracket, &mut search, c.sgb, exchanges);
        remainder.fix_s1_and_s2(&mut bracket, &mut search);
        remainder.pair_s1_in_order(&bracket, &mut search)?;

        // The next bracket: the players left unpaired (its moved-down
        // players) and the next score group (its residents).
        carried = Vec::new();
        mdp_count = 0;
        // C.9 (fewest unplayed games for the bye assignee) is weighed in
        // the next bracket only when the bye assignee's score is at least
        // the next score group's and no player left unpaired here is
        // matched below that group.
        c.single_df_bye = n % 2 == 1
            && next_group_first != n
            && c.bye_score >= score_of_vertex(c, next_group_first);
        let matching = &search.matching;
        for (pos, &v) in bracket.vertices.iter().enumerate() {
            if pos < size && search.matched[v] {
                partner_by_id[sorted[v]] = Some(sorted[matching[v]]);
                partner_by_id[sorted[matching[v]]] = Some(sorted[v]);
            } else {
                carried.push(v);
                if pos < size {
                    mdp_count += 1;
                }
                if c.single_df_bye
                    && score_of_vertex(c, matching[v]) < score_of_vertex(c, next_group_first)
                {
                    c.single_df_bye = false;
                }
            }
        }
        first_resident = next_group;
    }
    let mut out = Vec::new();
    for &id in &sorted {
        match partner_by_id[id] {
            Some(m) => {
                if id < m {
                    let white = choose_colour(c.s, id, m) == Some(Colour::White);
                    out.push(if white { (id, m) } else { (m, id) });
                }
            }
            None => out.push((id, id)),
        }
    }
    Ok(out)
}

/// The matcher with its latest matching (by vertex) and the vertices whose
/// pairing in the current bracket is decided.
struct Search<'m, W: Weight> {
    mm: &'m mut Matcher<W>,
    matching: Vec<usize>,
    matched: Vec<bool>,
}

impl<W: Weight> Search<'_, W> {
    /// A maximum-weight matching under the weights as they are now.
    fn solve(&mut self) {
        self.matching = self.mm.compute();
    }
}

/// One pairing bracket (C.04.3 A.3) and the score group after it. Players
/// are named by their position (`pos`) here: `vertices[pos]` is the
/// player's vertex in the matching (its index in the sorted players).
/// Positions `0..mdps` are the moved-down players (MDPs), highest first,
/// `mdps..size` the resident players, `size..` the next score group; the
/// residents' vertices run from `first_resident` to `next_group`.
struct Bracket<W> {
    vertices: Vec<usize>,
    mdps: usize,
    size: usize,
    first_resident: usize,
    next_group: usize,
    /// The weight of every edge with a player of the bracket by the
    /// criteria C.1-C.21, `base[larger][smaller]` by position; a decision
    /// is fixed by zeroing the weights it rules out.
    base: Vec<Vec<W>>,
}

impl<W: Weight> Bracket<W> {
    /// The bracket with its base weights, which are also given to the matcher.
    #[allow(clippy::too_many_arguments)] // the bracket's bounds, named
    fn new(
        c: &Ctx,
        sorted: &[usize],
        vertices: Vec<usize>,
        mdps: usize,
        size: usize,
        first_resident: usize,
        next_group: usize,
        mm: &mut Matcher<W>,
    ) -> Self {
        let mut base: Vec<Vec<W>> = vec![Vec::new(); vertices.len()];
        for larger in mdps..vertices.len() {
            let row: Vec<W> = (0..larger)
                .map(|smaller| {
                    c.edge(
                        sorted[vertices[smaller]],
                        sorted[vertices[larger]],
                        larger < size,
                        larger >= size,
                    )
                })
                .collect();
            for (smaller, w) in row.iter().enumerate() {
                mm.set(vertices[larger], vertices[smaller], *w);
            }
            base[larger] = row;
        }
        Bracket {
            vertices,
            mdps,
            size,
            first_resident,
            next_group,
            base,
        }
    }

    /// Whether vertex `v` is a resident player of this bracket.
    fn is_resident(&self, v: usize) -> bool {
        v >= self.first_resident && v < self.next_group
    }

    /// Whether vertex `v` is paired in `matching` with a lower resident,
    /// that is, it stands in S1 (B.2).
    fn pairs_down(&self, matching: &[usize], v: usize) -> bool {
        matching[v] > v && matching[v] < self.next_group
    }

    /// D.3 and B.1 (M1): which moved-down players are paired in this
    /// bracket. Per score of MDPs, from the highest MDP down: if as many
    /// MDPs of that score can be paired as remain, all are; else each in
    /// turn is tried (a bonus on its edges to residents) and, if pairable,
    /// kept paired (a larger bonus, so the later tries cannot undo it).
    fn choose_paired_mdps(
        &mut self,
        search: &mut Search<W>,
        score_of_vertex: impl Fn(usize) -> u32,
    ) {
        let mut mdp_score = 0u32;
        // MDPs of `mdp_score` not considered yet, and how many of them
        // the latest matching pairs with a resident.
        let mut remaining = 0usize;
        let mut remaining_paired = 0usize;
        for pos in 0..self.mdps {
            if pos == 0 || score_of_vertex(self.vertices[pos]) < mdp_score {
                mdp_score = score_of_vertex(self.vertices[pos]);
                remaining = 0;
                remaining_paired = 0;
                let mut k = pos;
                while k < self.vertices.len() && score_of_vertex(self.vertices[k]) >= mdp_score {
                    remaining += 1;
                    if self.is_resident(search.matching[self.vertices[k]]) {
                        remaining_paired += 1;
                    }
                    k += 1;
                }
            }
            if remaining_paired == 0 {
                continue;
            }
            let v = self.vertices[pos];
            if remaining <= remaining_paired {
                search.matched[v] = true;
                continue;
            }
            remaining -= 1;
            if !self.is_resident(search.matching[v]) {
                // Try to pair this MDP.
                for resident in self.mdps..self.size {
                    let w = self.base[resident][pos];
                    if !w.is_zero() {
                        search.mm.set(v, self.vertices[resident], w.or_u64(1));
                    }
                }
                search.solve();
            }
            if self.is_resident(search.matching[v]) {
                // Fixed: this MDP is paired here.
                search.matched[v] = true;
                remaining_paired -= 1;
                for resident in self.mdps..self.size {
                    let w = self.base[resident][pos];
                    if !w.is_zero() {
                        search.mm.set(
                            v,
                            self.vertices[resident],
                            w.or_u64((self.size - self.mdps) as u64).add(W::from_u64(1)),
                        );
                    }
                }
            }
        }
    }

    /// D.3: the opponents of the paired MDPs, the highest MDP first, each
    /// preferring the highest resident the criteria allow (the lowest
    /// resident gets the smallest bonus), and the pair fixed.
    fn pair_mdps(&mut self, search: &mut Search<W>) -> Result<(), PairingError> {
        for pos in 0..self.mdps {
            let v = self.vertices[pos];
            if !search.matched[v] {
                continue;
            }
            let mut bonus = self.vertices.len() as u64;
            for resident in (self.mdps..self.size).rev() {
                let rv = self.vertices[resident];
                if search.matched[rv] {
                    continue;
                }
                let w = self.base[resident][pos];
                if !w.is_zero() {
                    search.mm.set(v, rv, w.add(W::from_u64(bonus)));
                    bonus += 1;
                }
            }
            search.solve();
            let partner = search.matching[v];
            if partner == v {
                return Err(PairingError::NoValidPairing);
            }
            search.matched[partner] = true;
            search.mm.remove_pair(v, partner);
        }
        Ok(())
    }

    /// The remainder (A.3, B.2): the residents the matching does not pair
    /// with an MDP, S1 first (those paired with a lower player).
    fn remainder(&self, matching: &[usize]) -> Remainder {
        let mut players: Vec<usize> = Vec::new();
        let mut pairs = 0usize;
        for pos in self.mdps..self.size {
            let v = self.vertices[pos];
            if matching[v] < self.first_resident {
                continue;
            }
            players.push(pos);
            if matching[v] < v {
                pairs += 1;
            }
        }
        Remainder { players, pairs }
    }
}

/// The remainder of a bracket, paired as a homogeneous bracket: its
/// players by position in the bracket, highest first; the first `pairs` of
/// them are the original S1 (B.2), the rest the original S2.
struct Remainder {
    players: Vec<usize>,
    pairs: usize,
}

impl Remainder {
    /// The weight of the edge between remainder players `smaller` and
    /// `larger` (positions in the bracket), `smaller` being the
    /// `smaller_index`-th of the remainder, with the preferences of D.2
    /// below the criteria: fewest exchanges (a bonus for an S1 player paired
    /// down), then the smallest differences of the exchanged players' BSNs
    /// (the lower the S1 player, the smaller its bonus), and one free bit
    /// for the exchange steps' own bonus.
    fn weight<W: Weight>(
        &self,
        base: &[Vec<W>],
        smaller: usize,
        larger: usize,
        smaller_index: usize,
        size_bits: u32,
    ) -> W {
        let w = base[larger][smaller];
        if w.is_zero() {
            return w;
        }
        let bonus = W::from_u64(u64::from(smaller_index < self.pairs))
            .shl(size_bits)
            .shl(size_bits)
            .sub(W::from_u64(smaller_index as u64))
            .shl(1);
        w.add(bonus)
    }

    /// D.2: gives the matcher the remainder's weights with the exchange
    /// preferences and solves.
    fn prefer_fewest_exchanges<W: Weight>(
        &self,
        bracket: &Bracket<W>,
        search: &mut Search<W>,
        size_bits: u32,
    ) {
        for (larger_index, &larger) in self.players.iter().enumerate() {
            let lv = bracket.vertices[larger];
            for (smaller_index, &smaller) in self.players.iter().enumerate().take(larger_index) {
                search.mm.set(
                    bracket.vertices[smaller],
                    lv,
                    self.weight(&bracket.base, smaller, larger, smaller_index, size_bits),
                );
            }
        }
        search.solve();
    }

    /// How many S1 players the best matching exchanges (does not pair
    /// down): the number of exchanges D.2 makes.
    fn exchange_count<W: Weight>(&self, bracket: &Bracket<W>, matching: &[usize]) -> usize {
        self.players[..self.pairs]
            .iter()
            .filter(|&&pos| !bracket.pairs_down(matching, bracket.vertices[pos]))
            .count()
    }

    /// D.2: the S1 players to move to S2, the lowest first where possible.
    /// Each S1 player still pairing down is tried with a penalty on its
    /// edges downward; if the matching then exchanges it, that is fixed
    /// (its edges downward removed), else its weights are restored.
    fn exchange_lowest_of_s1<W: Weight>(
        &self,
        bracket: &mut Bracket<W>,
        search: &mut Search<W>,
        size_bits: u32,
        exchanges: usize,
    ) {
        let mut left = exchanges;
        let mut index = self.pairs;
        while index != 0 && left > 0 {
            let s2_start = index;
            index -= 1;
            let pos = self.players[index];
            let v = bracket.vertices[pos];
            if bracket.pairs_down(&search.matching, v) {
                for &o in &self.players[s2_start..] {
                    let w = self.weight(&bracket.base, pos, o, index, size_bits);
                    if !w.is_zero() {
                        search.mm.set(v, bracket.vertices[o], w.sub(W::from_u64(1)));
                    }
                }
                search.solve();
            }
            let exchanged = !bracket.pairs_down(&search.matching, v);
            left -= usize::from(exchanged);
            for &o in &self.players[index + 1..] {
                if exchanged {
                    bracket.base[o][pos] = W::zero();
                }
                let w = self.weight(&bracket.base, pos, o, index, size_bits);
                search.mm.set(v, bracket.vertices[o], w);
            }
        }
    }

    /// D.2: the S2 players to move to S1, the highest first where possible
    /// (the last exchange is already decided by the S1 side). Each is tried
    /// with a bonus on its edges downward; if the matching then pairs it
    /// down, that is fixed (its edges upward and to the next score group
    /// removed); its tried weights are restored either way.
    fn exchange_highest_of_s2<W: Weight>(
        &self,
        bracket: &mut Bracket<W>,
        search: &mut Search<W>,
        size_bits: u32,
        exchanges: usize,
    ) {
        let mut left = exchanges;
        let mut index = self.pairs;
        while index < self.players.len() && left > 1 {
            let pos = self.players[index];
            let v = bracket.vertices[pos];
            let already = bracket.pairs_down(&search.matching, v);
            if !already {
                for &o in &self.players[index + 1..] {
                    let w = self.weight(&bracket.base, pos, o, index, size_bits);
                    if !w.is_zero() {
                        search.mm.set(v, bracket.vertices[o], w.add(W::from_u64(1)));
                    }
                }
                search.solve();
            }
            if bracket.pairs_down(&search.matching, v) {
                left -= 1;
                for &o in &self.players[..index] {
                    bracket.base[pos][o] = W::zero();
                    search.mm.set(v, bracket.vertices[o], W::zero());
                }
                for next in bracket.size..bracket.vertices.len() {
                    bracket.base[next][pos] = W::zero();
                    search.mm.set(v, bracket.vertices[next], W::zero());
                }
            }
            if !already {
                for &o in &self.players[index + 1..] {
                    let w = self.weight(&bracket.base, pos, o, index, size_bits);
                    search.mm.set(v, bracket.vertices[o], w);
                }
            }
            index += 1;
        }
    }

    /// Fixes S1 and S2 as the exchanges left them: an edge survives only
    /// from an S1 player down to an S2 player; the exchange bonuses go.
    fn fix_s1_and_s2<W: Weight>(&self, bracket: &mut Bracket<W>, search: &mut Search<W>) {
        for (a, &pos) in self.players.iter().enumerate() {
            let v = bracket.vertices[pos];
            for &other in &self.players[a + 1..] {
                let ov = bracket.vertices[other];
                if !bracket.pairs_down(&search.matching, v)
                    || bracket.pairs_down(&search.matching, ov)
                {
                    bracket.base[other][pos] = W::zero();
                }
                search.mm.set(v, ov, bracket.base[other][pos]);
            }
        }
    }

    /// D.1: each S1 player's opponent in order, the highest S1 player
    /// first, each preferring the highest S2 player the criteria allow
    /// (the lowest gets no bonus), and the pair fixed.
    fn pair_s1_in_order<W: Weight>(
        &self,
        bracket: &Bracket<W>,
        search: &mut Search<W>,
    ) -> Result<(), PairingError> {
        for &pos in &self.players {
            let v = bracket.vertices[pos];
            if !bracket.pairs_down(&search.matching, v) {
                continue;
            }
            let mut bonus = 0u64;
            for &o in self.players.iter().rev() {
                let ov = bracket.vertices[o];
                if o <= pos || search.matched[ov] {
                    continue;
                }
                let w = bracket.base[o][pos];
                if !w.is_zero() {
                    search.mm.set(v, ov, w.add(W::from_u64(bonus)));
                }
                bonus += 1;
            }
            search.solve();
            let partner = search.matching[v];
            if partner == v {
                return Err(PairingError::NoValidPairing);
            }
            search.matched[v] = true;
            search.matched[partner] = true;
            search.mm.remove_pair(v, partner);
        }
        Ok(())
    }
}

/// E1-E5: the colour `a` gets against `b`.
fn choose_colour(s: &T, a: usize, b: usize) -> Option<Colour> {
    let (p, o) = (&s.players[a], &s.players[b]);
    if let Some(c) = neutral_colour(p, o) {
        return Some(c);
    }
    let p_lower = !s.higher(p, o);
    match p.pref {
        None => {
            let c = if p_lower {
                if o.rank & 1 == 1 {
                    s.initial_colour
                } else {
                    s.initial_colour.invert()
                }
            } else if p.rank & 1 == 1 {
                s.initial_colour.invert()
            } else {
                s.initial_colour
            };
            Some(c)
        }
        Some(pref) => {
            if p_lower {
                o.pref.map(Colour::invert)
            } else {
                Some(pref)
            }
        }
    }
}

fn neutral_colour(p: &P, o: &P) -> Option<Colour> {
    if prefs_compatible(p.pref, o.pref) {
        return p.pref.or(o.pref.map(Colour::invert));
    }
    if p.absolute_pref() && (p.imbalance > o.imbalance || !o.absolute_pref()) {
        return p.pref;
    }
    if o.absolute_pref() && (o.imbalance > p.imbalance || !p.absolute_pref()) {
        return o.pref.map(Colour::invert);
    }
    if p.strong && !o.strong {
        return p.pref;
    }
    if o.strong && !p.strong {
        return o.pref.map(Colour::invert);
    }
    // E4: alternate from the most recent round in which they differed.
    let mut a = p.matches.iter().rev().filter(|m| m.played);
    let mut b = o.matches.iter().rev().filter(|m| m.played);
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) => {
                if x.colour != y.colour {
                    return y.colour;
                }
            }
            _ => return None,
        }
    }
}
