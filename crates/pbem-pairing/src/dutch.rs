//! The FIDE Dutch system (C.04.3): pairs the next round of a [`Tournament`].
//!
//! Every criterion is a bit field of one edge weight, most important first:
//! absolute criteria (C1-C3) decide whether an edge exists; completion and
//! the bye (C4, C5, C9) come first, then the pairs and scores of the current
//! bracket and the next (C6-C8), colour preferences (C10-C13) and repeated
//! floats (C14-C21). A maximum-weight matching over all players still to be
//! paired then satisfies the criteria in order, one bracket at a time from
//! the top score group down, exactly as the rules' "lexicographic" order of
//! candidates asks. Within a bracket the moved-down players are chosen first
//! (B.1, the highest first), then the exchanges between S1 and S2 (B.3-B.6,
//! fewest and smallest differences of BSN), then each S1 player's opponent
//! in BSN order, each decision fixed before the next, as in the endorsed
//! engine bbpPairings (whose method of encoding priorities this follows).
//! Colours are allocated by E1-E5.

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

/// Pairs bracket after bracket, fixing each decision before the next.
#[allow(clippy::needless_range_loop)] // positions in the bracket are the data
fn bracket_loop<W: Weight>(c: &mut Ctx, mm: &mut Matcher<W>) -> Result<RawPairs, PairingError> {
    let sorted = c.sorted.clone();
    let n = sorted.len();
    let score_v = |c: &Ctx, v: usize| c.score[sorted[v]];
    let mut by_id: Vec<Option<usize>> = vec![None; c.s.players.len()];
    let mut vi: Vec<usize> = Vec::new();
    let mut next = 0usize;
    while next < n && score_v(c, next) >= score_v(c, 0) {
        vi.push(next);
        next += 1;
    }
    let mut matched = vec![false; n];
    let mut sgb_i = 0usize; // moved-down players in the current bracket
    let mut sgbv = 0usize; // first vertex of the current score group
    let mut guard = 0usize;
    while vi.len() > 1 || next < n {
        guard += 1;
        if guard > 2 * n + 2 {
            return Err(PairingError::NoValidPairing);
        }
        let nsgb = vi.len();
        let nsgbv = sgbv + (nsgb - sgb_i);
        let sg_iter = next;
        while next < n && score_v(c, next) >= score_v(c, sg_iter) {
            vi.push(next);
            next += 1;
        }
        let in_bracket = |m: usize| m >= sgbv && m < nsgbv;
        // Base weights: bw[larger][smaller], rows from the first resident.
        let mut bw: Vec<Vec<W>> = vec![Vec::new(); vi.len()];
        for larger in sgb_i..vi.len() {
            let row: Vec<W> = (0..larger)
                .map(|smaller| {
                    c.edge(
                        sorted[vi[smaller]],
                        sorted[vi[larger]],
                        larger < nsgb,
                        larger >= nsgb,
                    )
                })
                .collect();
            for (smaller, w) in row.iter().enumerate() {
                mm.set(vi[larger], vi[smaller], *w);
            }
            bw[larger] = row;
        }
        let (sgbits, _) = (c.sgb, ());
        let ewc = |bw: &Vec<Vec<W>>, smaller: usize, larger: usize, sri: usize, rp: usize| -> W {
            let r = bw[larger][smaller];
            if r.is_zero() {
                return r;
            }
            let addend = W::from_u64(u64::from(sri < rp))
                .shl(sgbits)
                .shl(sgbits)
                .sub(W::from_u64(sri as u64))
                .shl(1);
            r.add(addend)
        };
        let mut st = mm.compute();

        // Moved-down players to pair in this bracket, highest first.
        let mut md_score = 0u32;
        let mut remaining = 0usize;
        let mut remaining_matched = 0usize;
        for pi in 0..sgb_i {
            if pi == 0 || score_v(c, vi[pi]) < md_score {
                md_score = score_v(c, vi[pi]);
                remaining = 0;
                remaining_matched = 0;
                let mut k = pi;
                while k < vi.len() && score_v(c, vi[k]) >= md_score {
                    remaining += 1;
                    if in_bracket(st[vi[k]]) {
                        remaining_matched += 1;
                    }
                    k += 1;
                }
            }
            if remaining_matched == 0 {
                continue;
            }
            let pv = vi[pi];
            if remaining <= remaining_matched {
                matched[pv] = true;
                continue;
            }
            remaining -= 1;
            if !in_bracket(st[pv]) {
                for oi in sgb_i..nsgb {
                    let w = bw[oi][pi];
                    if !w.is_zero() {
                        mm.set(pv, vi[oi], w.or_u64(1));
                    }
                }
                st = mm.compute();
            }
            if in_bracket(st[pv]) {
                matched[pv] = true;
                remaining_matched -= 1;
                for oi in sgb_i..nsgb {
                    let w = bw[oi][pi];
                    if !w.is_zero() {
                        mm.set(
                            pv,
                            vi[oi],
                            w.or_u64((nsgb - sgb_i) as u64).add(W::from_u64(1)),
                        );
                    }
                }
            }
        }
        // Their opponents, the highest moved-down player first.
        for pi in 0..sgb_i {
            let pv = vi[pi];
            if !matched[pv] {
                continue;
            }
            let mut addend = vi.len() as u64;
            for oi in (sgb_i..nsgb).rev() {
                let ov = vi[oi];
                if matched[ov] {
                    continue;
                }
                let w = bw[oi][pi];
                if !w.is_zero() {
                    mm.set(pv, ov, w.add(W::from_u64(addend)));
                    addend += 1;
                }
            }
            st = mm.compute();
            let mv = st[pv];
            if mv == pv {
                return Err(PairingError::NoValidPairing);
            }
            matched[mv] = true;
            mm.remove_pair(pv, mv);
        }

        // The remainder (residents not paired with moved-down players).
        let mut rem: Vec<usize> = Vec::new();
        let mut rp = 0usize;
        for pi in sgb_i..nsgb {
            let pv = vi[pi];
            if st[pv] < sgbv {
                continue;
            }
            rem.push(pi);
            if st[pv] < pv {
                rp += 1;
            }
        }
        let fge = rp;
        for (bi, &oi) in rem.iter().enumerate() {
            let ov = vi[oi];
            for (ai, &pi) in rem.iter().enumerate().take(bi) {
                let _ = ai;
                mm.set(vi[pi], ov, ewc(&bw, pi, oi, ai, rp));
            }
        }
        st = mm.compute();
        let exchanged_s1 = |st: &Vec<usize>, pv: usize| st[pv] <= pv || st[pv] >= nsgbv;
        let mut exchange_count = 0usize;
        if !rem.is_empty() {
            for &pi in &rem {
                if pi >= rem[fge.min(rem.len() - 1)] && fge < rem.len() {
                    break;
                }
                exchange_count += usize::from(exchanged_s1(&st, vi[pi]));
            }
        }
        // Exchange the lowest players of S1 where possible.
        let mut left = exchange_count;
        let mut pri = rp;
        let mut idx = fge;
        while idx != 0 && left > 0 {
            let opp_start = idx;
            pri -= 1;
            idx -= 1;
            let pv = vi[rem[idx]];
            if st[pv] > pv && st[pv] < nsgbv {
                for &o in &rem[opp_start..] {
                    let w = ewc(&bw, rem[idx], o, pri, rp);
                    if !w.is_zero() {
                        mm.set(pv, vi[o], w.sub(W::from_u64(1)));
                    }
                }
                st = mm.compute();
            }
            let exchange = exchanged_s1(&st, pv);
            left -= usize::from(exchange);
            for &o in &rem[idx + 1..] {
                if exchange {
                    bw[o][rem[idx]] = W::zero();
                }
                mm.set(pv, vi[o], ewc(&bw, rem[idx], o, pri, rp));
            }
        }
        // Exchange the highest players of S2 where possible.
        let mut left = exchange_count;
        let mut ri = rp;
        let mut idx = fge;
        while idx < rem.len() && left > 1 {
            let pv = vi[rem[idx]];
            let already = st[pv] > pv && st[pv] < nsgbv;
            if !already {
                for &o in &rem[idx + 1..] {
                    let w = ewc(&bw, rem[idx], o, ri, rp);
                    if !w.is_zero() {
                        mm.set(pv, vi[o], w.add(W::from_u64(1)));
                    }
                }
                st = mm.compute();
            }
            let exchange = st[pv] > pv && st[pv] < nsgbv;
            if exchange {
                left -= 1;
                for &o in &rem[..idx] {
                    bw[rem[idx]][o] = W::zero();
                    mm.set(pv, vi[o], W::zero());
                }
                for oi in nsgb..vi.len() {
                    bw[oi][rem[idx]] = W::zero();
                    mm.set(pv, vi[oi], W::zero());
                }
            }
            if !already {
                for &o in &rem[idx + 1..] {
                    mm.set(pv, vi[o], ewc(&bw, rem[idx], o, ri, rp));
                }
            }
            ri += 1;
            idx += 1;
        }
        // Fix who is in S1 and who in S2.
        for a in 0..rem.len() {
            let pv = vi[rem[a]];
            for b in a + 1..rem.len() {
                let ov = vi[rem[b]];
                if st[pv] <= pv || st[pv] >= nsgbv || (st[ov] > ov && st[ov] < nsgbv) {
                    bw[rem[b]][rem[a]] = W::zero();
                }
                mm.set(pv, ov, bw[rem[b]][rem[a]]);
            }
        }
        // Each S1 player's opponent, in order.
        for &pi in &rem {
            let pv = vi[pi];
            if st[pv] > pv && st[pv] < nsgbv {
                let mut addend = 0u64;
                for &oi in rem.iter().rev() {
                    let ov = vi[oi];
                    if oi <= pi || matched[ov] {
                        continue;
                    }
                    let w = bw[oi][pi];
                    if !w.is_zero() {
                        mm.set(pv, ov, w.add(W::from_u64(addend)));
                    }
                    addend += 1;
                }
                st = mm.compute();
                let mv = st[pv];
                if mv == pv {
                    return Err(PairingError::NoValidPairing);
                }
                matched[pv] = true;
                matched[mv] = true;
                mm.remove_pair(pv, mv);
            }
        }

        // The next bracket: the unpaired and the next score group.
        let mut new_vi = Vec::new();
        sgb_i = 0;
        c.single_df_bye = n % 2 == 1 && sg_iter != n && c.bye_score >= score_v(c, sg_iter);
        for (pi, &pv) in vi.iter().enumerate() {
            if pi < nsgb && matched[pv] {
                by_id[sorted[pv]] = Some(sorted[st[pv]]);
                by_id[sorted[st[pv]]] = Some(sorted[pv]);
            } else {
                new_vi.push(pv);
                if pi < nsgb {
                    sgb_i += 1;
                }
                if c.single_df_bye && score_v(c, st[pv]) < score_v(c, sg_iter) {
                    c.single_df_bye = false;
                }
            }
        }
        vi = new_vi;
        sgbv = nsgbv;
    }
    let mut out = Vec::new();
    for &id in &sorted {
        match by_id[id] {
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
