//! Maximum-weight matching in a general graph (Edmonds' blossom algorithm,
//! primal-dual, O(n^3)), over the wide integer weights of [`super::weight`].
//!
//! No crate offers a weighted general (non-bipartite) matching over integers
//! wider than 128 bits, so this is written here, following the published
//! description of the algorithm by Galil ("Efficient algorithms for finding
//! maximum matching in graphs", 1986) in the formulation with vertex and
//! blossom duals, labels S/T, and four kinds of dual adjustment. All values
//! stay non-negative; with integer weights every dual stays an integer.
//!
//! Edges of weight zero are absent. [`Matcher`] keeps a dense table of
//! weights that the Dutch engine edits between calls, and hands the edges of
//! the vertices still in play to [`max_weight_matching`]. The search
//! itself (stages, labels, dual adjustments) is in `matching_search.rs`.

use super::weight::Weight;

const NONE: usize = usize::MAX;

fn tri(i: usize, j: usize) -> usize {
    let (a, b) = if i > j { (i, j) } else { (j, i) };
    a * (a - 1) / 2 + b
}

/// Dense symmetric edge weights over `n` vertices, edited between matchings,
/// with the solver's state kept from one matching to the next: the changed
/// edges are covered by vertices (greedily; the engine mostly re-weighs the
/// edges of one vertex, so the cover is small), the blossoms around those
/// vertices and their partners dissolved, their duals set to the least that
/// makes every edge feasible again, those whose matched edge is then no
/// longer tight exposed with their partners, and the search resumes from
/// there (about O(n^2) per covering vertex instead of O(n^3) from scratch).
pub struct Matcher<W: Weight> {
    st: State<W>,
    /// Partners of vertices taken out of play (finalised pairs), else NONE.
    fixed: Vec<usize>,
    /// Edges whose weight changed since the last matching.
    changed: Vec<(usize, usize)>,
    /// Vertices with an edge in `changed`.
    touched: Vec<bool>,
    /// Whether the state is an optimum of the weights before the changes.
    valid: bool,
}

impl<W: Weight> Matcher<W> {
    /// `n` vertices, no edges.
    pub fn new(n: usize) -> Self {
        Matcher {
            st: State::new(n),
            fixed: vec![NONE; n],
            changed: Vec::new(),
            touched: vec![false; n],
            valid: false,
        }
    }

    /// Sets the weight of edge {i, j} (i != j); zero removes it. Twice a
    /// weight must fit in `W` (the slacks are sums of duals and twice the
    /// weights).
    pub fn set(&mut self, i: usize, j: usize, w: W) {
        if i != j {
            let n = self.st.nv;
            let twice = w.add(w);
            if self.st.twice[i * n + j] != twice {
                self.st.twice[i * n + j] = twice;
                self.st.twice[j * n + i] = twice;
                self.st.twice_low[i * n + j] = twice.low();
                self.st.twice_low[j * n + i] = twice.low();
                self.changed.push((i, j));
                self.touched[i] = true;
                self.touched[j] = true;
            }
        }
    }

    /// The weight of edge {i, j}.
    pub fn get(&self, i: usize, j: usize) -> W {
        if i == j {
            W::zero()
        } else {
            self.st.twice(i, j).half()
        }
    }

    /// Takes a pair of the last matching out of play: its vertices keep each
    /// other and no longer take part in later matchings.
    pub fn remove_pair(&mut self, i: usize, j: usize) {
        self.fixed[i] = j;
        self.fixed[j] = i;
        let st = &self.st;
        // The rest of an optimum stays optimal without a pair it matched
        // (once the blossoms around the pair are dissolved).
        let partner = |v: usize| {
            if st.mate[v] == NONE {
                NONE
            } else {
                st.ep(st.mate[v])
            }
        };
        if partner(i) != j || self.touched[i] || self.touched[j] {
            self.valid = false;
        }
        if self.valid {
            self.st.dissolve_around(i);
            self.st.dissolve_around(j);
        }
        self.st.alive[i] = false;
        self.st.alive[j] = false;
    }

    /// Prepares a warm start; false when there is no optimum to resume from.
    fn warm_start(&mut self) -> bool {
        if !self.valid {
            return false;
        }
        let st = &mut self.st;
        let nv = st.nv;
        // Even a large cover resumes faster than a start from nothing: the
        // rest of the matching and its duals stay.
        let dirty = cover(&self.changed, &st.alive);
        for &p in &dirty {
            st.dissolve_around(p);
            if st.mate[p] != NONE {
                let m = st.ep(st.mate[p]);
                st.dissolve_around(m);
            }
        }
        for &p in &dirty {
            let mut u = W::zero();
            for q in 0..nv {
                if q == p || !st.alive[q] {
                    continue;
                }
                let w2 = st.twice(p, q);
                if w2.is_zero() {
                    continue;
                }
                if w2 > st.dualvar[q] {
                    u = u.max(w2.sub(st.dualvar[q]));
                }
            }
            st.dualvar[p] = u;
            // A pair whose edge is still tight with the least dual that
            // covers p's edges stays (its ends are no roots: fewer stages);
            // else both ends are exposed and searched again. A later
            // covering vertex raised past its partner's edge undoes it.
            if st.mate[p] != NONE {
                let m = st.ep(st.mate[p]);
                let w2 = st.twice(p, m);
                if w2.is_zero() || u.add(st.dualvar[m]) != w2 {
                    st.mate[m] = NONE;
                    st.mate[p] = NONE;
                }
            }
        }
        // Exposed vertices with a positive dual are the roots of the
        // search; they share one parity so that the slack between two
        // S-vertices stays even (a tight edge joins duals of one parity)
        // and every dual stays whole. A root that is the base of a blossom
        // has the parity of the blossom's other vertices (its inner edges
        // are tight), so it leaves its blossoms before its dual is raised:
        // raising it alone would loosen them, and an augmentation through
        // the blossom would then match an edge that is not tight.
        let mut parity = None;
        for v in 0..nv {
            if st.alive[v] && st.mate[v] == NONE && !st.dualvar[v].is_zero() {
                let odd = st.dualvar[v].is_odd();
                match parity {
                    None => parity = Some(odd),
                    Some(par) if par != odd => {
                        st.dissolve_around(v);
                        if st.dualvar[v].is_odd() != par {
                            st.dualvar[v] = st.dualvar[v].add(W::from_u64(1));
                        }
                    }
                    _ => {}
                }
            }
        }
        true
    }

    /// A maximum-weight matching: `mate[v]` is v's partner, or v itself.
    /// Finalised pairs are reported as they were fixed.
    pub fn compute(&mut self) -> Vec<usize> {
        if self.warm_start() {
            self.st.run();
            // The resumed search keeps the invariants of a cold one (feasible
            // duals, tight matched and blossom edges, roots of one parity),
            // so its end is an optimum; the proof costs O(n^2) wide sums per
            // matching, five times the search itself, so only debug builds
            // make it.
            debug_assert!(self.st.optimal(), "a resumed matching is optimal");
        } else {
            self.st.reset();
            self.st.run();
        }
        for (i, j) in self.changed.drain(..) {
            self.touched[i] = false;
            self.touched[j] = false;
        }
        self.valid = true;
        let st = &self.st;
        (0..st.nv)
            .map(|v| {
                if self.fixed[v] != NONE {
                    self.fixed[v]
                } else if st.mate[v] == NONE {
                    v
                } else {
                    st.ep(st.mate[v])
                }
            })
            .collect()
    }
}

/// A small vertex cover of the changed edges between vertices in play,
/// greedily: the endpoint with more changed edges first (the engine changes
/// stars of edges around one vertex).
fn cover(changed: &[(usize, usize)], alive: &[bool]) -> Vec<usize> {
    let live = |&&(i, j): &&(usize, usize)| alive[i] && alive[j];
    let mut degree = vec![0usize; alive.len()];
    for &(i, j) in changed.iter().filter(live) {
        degree[i] += 1;
        degree[j] += 1;
    }
    let mut chosen = vec![false; alive.len()];
    let mut out = Vec::new();
    for &(i, j) in changed.iter().filter(live) {
        if !chosen[i] && !chosen[j] {
            let v = if degree[j] > degree[i] { j } else { i };
            chosen[v] = true;
            out.push(v);
        }
    }
    out
}

/// The least-slack edge from a new blossom to each other S-blossom (NONE
/// where there is none), with its slack.
struct BestTo<W> {
    edge: Vec<usize>,
    slack: Vec<W>,
}

impl<W> Default for BestTo<W> {
    fn default() -> Self {
        BestTo {
            edge: Vec::new(),
            slack: Vec::new(),
        }
    }
}

struct State<W: Weight> {
    nv: usize,
    /// Twice the weights, row by row (both halves, so that the edges of
    /// one vertex are read in order: the search is bound by these reads).
    /// Twice, because every use of a weight (slacks, duals) doubles it.
    twice: Vec<W>,
    /// The lowest limb of twice each weight, laid out as `twice`: the scan of
    /// a stage that has augmented wants tight edges only, and most edges
    /// show they are not from this limb alone, read at an eighth (or less)
    /// of the bytes of the wide weights.
    twice_low: Vec<u64>,
    /// Endpoints of each edge: (larger, smaller); endpoint 2k is the
    /// larger vertex, 2k + 1 the smaller.
    ends: Vec<(u32, u32)>,
    alive: Vec<bool>,
    /// The vertices in play lie in this range, set as a search starts: the
    /// Dutch engine takes pairs out of play from the top of its order
    /// down, so the row scans step over the finalised pairs before the
    /// first one in play without testing them.
    in_play: std::ops::Range<usize>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    /// The slack of each `bestedge`, kept through the stage's dual
    /// adjustments so that the scan compares with it instead of summing
    /// wide duals again for every edge.
    bestslack: Vec<W>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    queue: Vec<usize>,
    /// The root of the alternating tree of each labelled top-level blossom.
    treeof: Vec<usize>,
    /// Whether the tree of each root has augmented in this stage.
    ended: Vec<bool>,
    /// Scratch of `add_blossom`, all NONE between calls: allocated once, as
    /// a new blossom's 2n slacks (128 KB for 1,000 players) would otherwise
    /// be mapped and zeroed afresh for every blossom.
    best_to: BestTo<W>,
    /// Scratch of `add_blossom`: the vertices of the other S-blossoms.
    in_s: Vec<usize>,
}

/// Maximum-weight matching of `nv` vertices over `edges` (i, j, weight),
/// weights positive. Returns each vertex's partner.
pub fn max_weight_matching<W: Weight>(
    nv: usize,
    edges: &[(usize, usize, W)],
) -> Vec<Option<usize>> {
    let mut m: Matcher<W> = Matcher::new(nv);
    for &(i, j, w) in edges {
        m.set(i, j, w);
    }
    m.compute()
        .into_iter()
        .enumerate()
        .map(|(v, p)| if p == v { None } else { Some(p) })
        .collect()
}

impl<W: Weight> State<W> {
    fn new(nv: usize) -> Self {
        let ne = nv * nv.saturating_sub(1) / 2;
        let mut ends = Vec::with_capacity(ne);
        for i in 0..nv {
            for j in 0..i {
                ends.push((i as u32, j as u32));
            }
        }
        State {
            nv,
            twice: vec![W::zero(); nv * nv],
            twice_low: vec![0; nv * nv],
            ends,
            alive: vec![true; nv],
            in_play: 0..nv,
            mate: vec![NONE; nv],
            label: vec![0; 2 * nv],
            labelend: vec![NONE; 2 * nv],
            inblossom: (0..nv).collect(),
            blossomparent: vec![NONE; 2 * nv],
            blossomchilds: vec![Vec::new(); 2 * nv],
            blossombase: (0..nv).chain(std::iter::repeat_n(NONE, nv)).collect(),
            blossomendps: vec![Vec::new(); 2 * nv],
            bestedge: vec![NONE; 2 * nv],
            bestslack: vec![W::zero(); 2 * nv],
            blossombestedges: vec![None; 2 * nv],
            unusedblossoms: (nv..2 * nv).collect(),
            dualvar: vec![W::zero(); 2 * nv],
            queue: Vec::new(),
            treeof: vec![NONE; 2 * nv],
            ended: vec![false; nv],
            best_to: BestTo {
                edge: vec![NONE; 2 * nv],
                slack: vec![W::zero(); 2 * nv],
            },
            in_s: Vec::with_capacity(nv),
        }
    }

    /// A cold start over the vertices in play.
    fn reset(&mut self) {
        let nv = self.nv;
        let mut maxtwice = W::zero();
        for i in 0..nv {
            if !self.alive[i] {
                continue;
            }
            for j in 0..i {
                if self.alive[j] {
                    maxtwice = maxtwice.max(self.twice(i, j));
                }
            }
        }
        for v in 0..nv {
            if self.alive[v] {
                self.mate[v] = NONE;
            }
            self.inblossom[v] = v;
            self.dualvar[v] = maxtwice.half();
        }
        for b in 0..2 * nv {
            self.blossomparent[b] = NONE;
            self.blossomchilds[b].clear();
            self.blossomendps[b].clear();
            self.blossombase[b] = if b < nv { b } else { NONE };
            self.bestedge[b] = NONE;
            self.blossombestedges[b] = None;
            self.label[b] = 0;
            self.labelend[b] = NONE;
            if b >= nv {
                self.dualvar[b] = W::zero();
            }
        }
        self.unusedblossoms = (nv..2 * nv).collect();
    }

    /// The vertex at endpoint `p`.
    fn ep(&self, p: usize) -> usize {
        let (i, j) = self.ends[p / 2];
        if p & 1 == 0 { i as usize } else { j as usize }
    }

    /// Dissolves every blossom around `v`, outermost first: its vertices'
    /// duals take over the blossom's dual (every edge stays feasible, the
    /// ones inside stay tight) and its base loses an outside partner, whose
    /// pair is then searched again from the two new roots.
    fn dissolve_around(&mut self, v: usize) {
        loop {
            let mut b = v;
            while self.blossomparent[b] != NONE {
                b = self.blossomparent[b];
            }
            if b < self.nv {
                return;
            }
            let z = self.dualvar[b];
            let leaves = self.leaves_of(b);
            for &l in &leaves {
                self.dualvar[l] = self.dualvar[l].add(z);
            }
            let base = self.blossombase[b];
            if self.mate[base] != NONE {
                let x = self.ep(self.mate[base]);
                if !leaves.contains(&x) {
                    self.mate[x] = NONE;
                    self.mate[base] = NONE;
                }
            }
            let childs = std::mem::take(&mut self.blossomchilds[b]);
            for &c in &childs {
                self.blossomparent[c] = NONE;
                if c < self.nv {
                    self.inblossom[c] = c;
                } else {
                    for l in self.leaves_of(c) {
                        self.inblossom[l] = c;
                    }
                }
            }
            self.blossomendps[b].clear();
            self.blossombase[b] = NONE;
            self.blossombestedges[b] = None;
            self.bestedge[b] = NONE;
            self.label[b] = 0;
            self.labelend[b] = NONE;
            self.dualvar[b] = W::zero();
            self.unusedblossoms.push(b);
        }
    }

    /// Twice the weight of edge {i, j}.
    fn twice(&self, i: usize, j: usize) -> W {
        self.twice[i * self.nv + j]
    }

    fn edge(&self, k: usize) -> (usize, usize) {
        let (i, j) = self.ends[k];
        (i as usize, j as usize)
    }

    fn slack(&self, k: usize) -> W {
        let (i, j) = self.edge(k);
        self.slack_between(i, j, self.twice(i, j))
    }

    /// The slack of the edge {i, j} of twice the weight `twice` (already
    /// read: a scan has it from the row it reads): its ends' duals less it.
    #[inline]
    fn slack_between(&self, i: usize, j: usize, twice: W) -> W {
        self.dualvar[i].add(self.dualvar[j]).sub(twice)
    }

    /// Whether the lowest limbs alone show that edge {i, j} is not tight,
    /// before the wide weight is read (see `twice_low`).
    #[inline]
    fn loose_by_low(&self, i: usize, j: usize) -> bool {
        self.dualvar[i].low().wrapping_add(self.dualvar[j].low()) != self.twice_low[i * self.nv + j]
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.nv {
            out.push(b);
        } else {
            for &t in &self.blossomchilds[b] {
                self.leaves(t, out);
            }
        }
    }

    /// Whether the matching is provably of maximum weight: the duals are
    /// feasible and complementary slackness holds (every edge's slack, with
    /// the duals of the blossoms around both ends, is at least zero and
    /// zero on matched edges; exposed vertices have dual zero; a blossom
    /// with a positive dual is matched inside but for its base).
    fn optimal(&self) -> bool {
        let nv = self.nv;
        // Each vertex's blossoms, innermost first.
        let around: Vec<Vec<usize>> = (0..nv)
            .map(|v| {
                let mut chain = Vec::new();
                let mut b = self.blossomparent[v];
                while b != NONE {
                    chain.push(b);
                    b = self.blossomparent[b];
                }
                chain
            })
            .collect();
        let partner = |v: usize| (self.mate[v] != NONE).then(|| self.ep(self.mate[v]));
        for i in 0..nv {
            if !self.alive[i] {
                continue;
            }
            if self.mate[i] == NONE && !self.dualvar[i].is_zero() {
                return false;
            }
            for j in 0..i {
                if !self.alive[j] {
                    continue;
                }
                let twice = self.twice(i, j);
                if twice.is_zero() {
                    continue;
                }
                let mut duals = self.dualvar[i].add(self.dualvar[j]);
                for (b, _) in around[i]
                    .iter()
                    .rev()
                    .zip(around[j].iter().rev())
                    .take_while(|(a, b)| a == b)
                {
                    duals = duals.add(self.dualvar[*b]).add(self.dualvar[*b]);
                }
                if duals < twice || (partner(i) == Some(j) && duals != twice) {
                    return false;
                }
            }
        }
        for b in nv..2 * nv {
            if self.blossombase[b] == NONE || self.dualvar[b].is_zero() {
                continue;
            }
            let mut leaves = self.leaves_of(b);
            leaves.sort_unstable();
            let matched_inside = leaves
                .iter()
                .filter(|&&v| partner(v).is_some_and(|p| leaves.binary_search(&p).is_ok()))
                .count();
            if matched_inside + 1 != leaves.len() {
                return false;
            }
        }
        true
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        // The tree of the S-vertex at `p`, or a new tree rooted at `w`.
        let tree = if p == NONE {
            w
        } else {
            self.treeof[self.inblossom[self.ep(p)]]
        };
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            self.treeof[b] = tree;
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == 1 {
                let l = self.leaves_of(b);
                self.queue.extend(l);
                return;
            }
            let base = self.blossombase[b];
            let mb = self.mate[base];
            w = self.ep(mb);
            t = 1;
            p = mb ^ 1;
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        let (mut v, mut w) = (v, w);
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.ep(self.labelend[b]);
                b = self.inblossom[v];
                v = self.ep(self.labelend[b]);
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    // Kept out of `run`: inlined there (it is called a few hundred times a
    // round), it made the row scans slower (bench-1000: 1.05 -> 1.18 s user).
    #[inline(never)]
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w) = self.edge(k);
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.ep(self.labelend[bv]);
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.ep(self.labelend[bw]);
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.treeof[b] = self.treeof[bb];
        self.dualvar[b] = W::zero();
        for leaf in self.leaves_of_path(&path) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        // The least-slack edge from the new blossom to each other S-blossom:
        // from a sub-blossom's own list, or from its vertices' edges. The
        // slack of each kept edge is kept beside it: computing it again
        // would read the edge's ends and weight, cache misses both.
        let mut best_to = std::mem::take(&mut self.best_to);
        // The vertices of the other S-blossoms, in order, gathered once for
        // the rows of the sub-blossoms without a list: most vertices are in
        // none, and each row then reads the weights of these alone.
        let mut in_s = std::mem::take(&mut self.in_s);
        in_s.clear();
        if path.iter().any(|&bv| self.blossombestedges[bv].is_none()) {
            for q in self.in_play.clone() {
                let bq = self.inblossom[q];
                if self.alive[q] && bq != b && self.label[bq] == 1 {
                    in_s.push(q);
                }
            }
        }
        for &bv in &path {
            match self.blossombestedges[bv].take() {
                Some(list) => {
                    for k in list {
                        let (i, j) = self.edge(k);
                        let far = if self.inblossom[j] == b { i } else { j };
                        self.consider_best(b, far, k, self.slack(k), &mut best_to);
                    }
                }
                None => {
                    for leaf in self.leaves_of(bv) {
                        for &q in &in_s {
                            let twice = self.twice(leaf, q);
                            if !twice.is_zero() {
                                let slack = self.slack_between(leaf, q, twice);
                                self.consider_best(b, q, tri(leaf, q), slack, &mut best_to);
                            }
                        }
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let mut list = Vec::new();
        let mut best = NONE;
        for (bj, k) in best_to.edge.iter_mut().enumerate() {
            let k = std::mem::replace(k, NONE);
            if k == NONE {
                continue;
            }
            list.push(k);
            if best == NONE || best_to.slack[bj] < self.bestslack[b] {
                best = k;
                self.bestslack[b] = best_to.slack[bj];
            }
        }
        self.best_to = best_to;
        self.in_s = in_s;
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
    }

    /// Keeps edge `k` (from blossom `b` to vertex `far`, of slack `slack`)
    /// in `best_to` if `far` lies in another S-blossom and `k` has the least
    /// slack to it.
    fn consider_best(&self, b: usize, far: usize, k: usize, slack: W, best_to: &mut BestTo<W>) {
        let bj = self.inblossom[far];
        if bj != b && self.label[bj] == 1 && (best_to.edge[bj] == NONE || slack < best_to.slack[bj])
        {
            best_to.edge[bj] = k;
            best_to.slack[bj] = slack;
        }
    }

    fn leaves_of_path(&self, path: &[usize]) -> Vec<usize> {
        let mut v = Vec::new();
        for &b in path {
            self.leaves(b, &mut v);
        }
        v
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.nv {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s].is_zero() {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.ep(self.labelend[b] ^ 1)];
            let len = childs.len() as isize;
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                let q = self.ep(p ^ 1);
                self.label[q] = 0;
                let e = endps[at(j - endptrick as isize)] ^ endptrick ^ 1;
                let r = self.ep(e);
                self.label[r] = 0;
                self.assign_label(q, 2, p);
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                j += jstep;
            }
            let bv = childs[at(j)];
            let q = self.ep(p ^ 1);
            self.label[q] = 2;
            self.label[bv] = 2;
            self.treeof[bv] = self.treeof[b];
            self.labelend[q] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while childs[at(j)] != entrychild {
                let bv = childs[at(j)];
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for leaf in self.leaves_of(bv) {
                    if self.label[leaf] != 0 {
                        found = leaf;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    let e = self.ep(mb);
                    self.label[e] = 0;
                    let le = self.labelend[v];
                    self.assign_label(v, 2, le);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.nv {
            self.augment_blossom(t, v);
        }
        let len = self.blossomchilds[b].len() as isize;
        let i = self.blossomchilds[b]
            .iter()
            .position(|&c| c == t)
            .expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let at = |j: isize| -> usize { j.rem_euclid(len) as usize };
        while j != 0 {
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            let p = self.blossomendps[b][at(j - endptrick as isize)] ^ endptrick;
            if t >= self.nv {
                let e = self.ep(p);
                self.augment_blossom(t, e);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.nv {
                let e = self.ep(p ^ 1);
                self.augment_blossom(t, e);
            }
            let (a, c) = (self.ep(p), self.ep(p ^ 1));
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    /// Flips the alternating path from S-vertex `s` to its tree's root,
    /// giving `s` the mate endpoint `p` (NONE leaves `s` exposed): the root
    /// gets matched along the path.
    fn flip_path(&mut self, s: usize, p: usize) {
        let (mut s, mut p) = (s, p);
        loop {
            let bs = self.inblossom[s];
            if bs >= self.nv {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.ep(self.labelend[bs]);
            let bt = self.inblossom[t];
            s = self.ep(self.labelend[bt]);
            let j = self.ep(self.labelend[bt] ^ 1);
            if bt >= self.nv {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    /// Augments along tight edge `k` between two S-vertices of different
    /// trees: each end takes the other, and each tree flips to its root.
    fn augment_matching(&mut self, k: usize) {
        let (v, w) = self.edge(k);
        self.flip_path(v, 2 * k + 1);
        self.flip_path(w, 2 * k);
    }
}

#[path = "matching_search.rs"]
mod search;

#[cfg(test)]
#[path = "matching_tests.rs"]
mod tests;
