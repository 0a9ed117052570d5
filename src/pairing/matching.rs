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
//! Edges of weight zero are absent. [`Matcher`] keeps a dense triangle of
//! weights that the Dutch engine edits between calls, and hands the edges of
//! the vertices still in play to [`max_weight_matching`].

use super::weight::Weight;

const NONE: usize = usize::MAX;

/// Dense symmetric edge weights over `n` vertices, edited between matchings.
pub struct Matcher<W: Weight> {
    n: usize,
    w: Vec<W>,
    /// Partners of vertices taken out of play (finalised pairs), else NONE.
    fixed: Vec<usize>,
    /// The last optimum (partner or NONE, dual) when no blossom was left.
    warm: Option<(Vec<usize>, Vec<W>)>,
    /// Vertices whose edges changed since.
    dirty: Vec<bool>,
    /// Matchings solved from scratch and from a warm start.
    pub solves: (usize, usize),
}

impl<W: Weight> Matcher<W> {
    /// `n` vertices, no edges.
    pub fn new(n: usize) -> Self {
        Matcher {
            n,
            w: vec![W::zero(); n * n.saturating_sub(1) / 2],
            fixed: vec![NONE; n],
            warm: None,
            dirty: vec![false; n],
            solves: (0, 0),
        }
    }

    fn idx(i: usize, j: usize) -> usize {
        let (a, b) = if i > j { (i, j) } else { (j, i) };
        a * (a - 1) / 2 + b
    }

    /// Sets the weight of edge {i, j} (i != j); zero removes it.
    pub fn set(&mut self, i: usize, j: usize, w: W) {
        if i != j {
            let slot = &mut self.w[Self::idx(i, j)];
            if *slot != w {
                *slot = w;
                self.dirty[i] = true;
                self.dirty[j] = true;
            }
        }
    }

    /// The weight of edge {i, j}.
    pub fn get(&self, i: usize, j: usize) -> W {
        if i == j { W::zero() } else { self.w[Self::idx(i, j)] }
    }

    /// Takes a finalised pair out of play: its vertices keep each other and
    /// no longer take part in later matchings.
    pub fn remove_pair(&mut self, i: usize, j: usize) {
        self.fixed[i] = j;
        self.fixed[j] = i;
        // The rest of an optimum stays optimal without a pair it matched.
        if self.warm.as_ref().is_some_and(|(m, _)| m[i] != j) || self.dirty[i] || self.dirty[j] {
            if std::env::var_os("PBEM_PAIRING_STATS").is_some() {
                eprintln!("remove invalidates: dirty {} {}", self.dirty[i], self.dirty[j]);
            }
            self.warm = None;
        }
    }

    /// The last optimum with the changed vertices (and their partners)
    /// exposed and their duals raised until every edge is feasible again;
    /// the duals of exposed vertices get one parity.
    fn warm_start(&self, alive: &[usize]) -> Option<Warm<W>> {
        let Some((mate, dual)) = self.warm.as_ref() else {
            if std::env::var_os("PBEM_PAIRING_STATS").is_some() {
                eprintln!("no warm state");
            }
            return None;
        };
        let dirty: Vec<usize> = alive.iter().copied().filter(|&v| self.dirty[v]).collect();
        if dirty.len() * 4 > alive.len() + 4 {
            if std::env::var_os("PBEM_PAIRING_STATS").is_some() {
                eprintln!("dirty {} of {}", dirty.len(), alive.len());
            }
            return None;
        }
        let mut mate = mate.clone();
        let mut dual = dual.clone();
        for &p in &dirty {
            let m = mate[p];
            if m != NONE {
                mate[m] = NONE;
                mate[p] = NONE;
            }
        }
        for &p in &dirty {
            let mut u = W::zero();
            for &q in alive {
                if q == p {
                    continue;
                }
                let w = self.get(p, q);
                if w.is_zero() {
                    continue;
                }
                let w2 = w.add(w);
                if w2 > dual[q] {
                    u = u.max(w2.sub(dual[q]));
                }
            }
            dual[p] = u;
        }
        let mut parity = None;
        for &v in alive {
            if mate[v] == NONE && !dual[v].is_zero() {
                let odd = dual[v].is_odd();
                match parity {
                    None => parity = Some(odd),
                    Some(par) if par != odd => dual[v] = dual[v].add(W::from_u64(1)),
                    _ => {}
                }
            }
        }
        let index: std::collections::HashMap<usize, usize> = alive.iter().enumerate().map(|(a, &v)| (v, a)).collect();
        let m = alive.iter().map(|&v| if mate[v] == NONE { None } else { index.get(&mate[v]).copied() }).collect();
        let d = alive.iter().map(|&v| dual[v]).collect();
        Some((m, d))
    }

    /// A maximum-weight matching: `mate[v]` is v's partner, or v itself.
    /// Finalised pairs are reported as they were fixed.
    pub fn compute(&mut self) -> Vec<usize> {
        let alive: Vec<usize> = (0..self.n).filter(|&v| self.fixed[v] == NONE).collect();
        let mut edges = Vec::new();
        for (a, &i) in alive.iter().enumerate() {
            for (b, &j) in alive.iter().enumerate().take(a) {
                let w = self.get(i, j);
                if !w.is_zero() {
                    edges.push((a, b, w));
                }
            }
        }
        let warm = self.warm_start(&alive);
        if warm.is_some() {
            self.solves.1 += 1;
        } else {
            self.solves.0 += 1;
        }
        let (m, duals) = solve(alive.len(), &edges, warm);
        self.dirty.fill(false);
        self.warm = duals.map(|d| {
            let mut mate = vec![NONE; self.n];
            let mut dual = vec![W::zero(); self.n];
            for (a, &i) in alive.iter().enumerate() {
                mate[i] = m[a].map_or(NONE, |b| alive[b]);
                dual[i] = d[a];
            }
            (mate, dual)
        });
        let mut mate: Vec<usize> = (0..self.n).collect();
        for v in 0..self.n {
            if self.fixed[v] != NONE {
                mate[v] = self.fixed[v];
            }
        }
        for (a, &i) in alive.iter().enumerate() {
            if let Some(b) = m[a] {
                mate[i] = alive[b];
            }
        }
        mate
    }
}

struct State<'a, W: Weight> {
    nv: usize,
    edges: &'a [(usize, usize, W)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<W>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

/// Maximum-weight matching of `nv` vertices over `edges` (i, j, weight),
/// weights positive. Returns each vertex's partner.
pub fn max_weight_matching<W: Weight>(nv: usize, edges: &[(usize, usize, W)]) -> Vec<Option<usize>> {
    solve(nv, edges, None).0
}

/// A warm start: an optimal matching and its vertex duals (no blossoms)
/// for weights that have since changed only at the vertices now exposed.
type Warm<W> = (Vec<Option<usize>>, Vec<W>);

/// Solves from scratch or from a warm start; returns the matching and, when
/// no blossom is left, the vertex duals (for the next warm start).
fn solve<W: Weight>(nv: usize, edges: &[(usize, usize, W)], warm: Option<Warm<W>>) -> (Vec<Option<usize>>, Option<Vec<W>>) {
    if edges.is_empty() {
        return (vec![None; nv], Some(vec![W::zero(); nv]));
    }
    let maxweight = edges.iter().map(|e| e.2).max().unwrap_or_else(W::zero);
    let mut endpoint = Vec::with_capacity(2 * edges.len());
    let mut neighbend = vec![Vec::new(); nv];
    for (k, &(i, j, _)) in edges.iter().enumerate() {
        endpoint.push(i);
        endpoint.push(j);
        neighbend[i].push(2 * k + 1);
        neighbend[j].push(2 * k);
    }
    let mut mate = vec![NONE; nv];
    let mut dualvar = vec![maxweight; nv];
    if let Some((m, d)) = warm {
        dualvar = d;
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            if m[i] == Some(j) {
                mate[i] = 2 * k + 1;
                mate[j] = 2 * k;
            }
        }
    }
    dualvar.extend(std::iter::repeat_n(W::zero(), nv));
    let mut s = State {
        nv,
        edges,
        endpoint,
        neighbend,
        mate,
        label: vec![0; 2 * nv],
        labelend: vec![NONE; 2 * nv],
        inblossom: (0..nv).collect(),
        blossomparent: vec![NONE; 2 * nv],
        blossomchilds: vec![Vec::new(); 2 * nv],
        blossombase: (0..nv).chain(std::iter::repeat_n(NONE, nv)).collect(),
        blossomendps: vec![Vec::new(); 2 * nv],
        bestedge: vec![NONE; 2 * nv],
        blossombestedges: vec![None; 2 * nv],
        unusedblossoms: (nv..2 * nv).collect(),
        dualvar,
        allowedge: vec![false; edges.len()],
        queue: Vec::new(),
    };
    s.run();
    let blossoms_left = (nv..2 * nv).any(|b| s.blossombase[b] != NONE);
    let mate = s.mate.iter().map(|&p| if p == NONE { None } else { Some(s.endpoint[p]) }).collect();
    if blossoms_left && std::env::var_os("PBEM_PAIRING_STATS").is_some() {
        eprintln!("blossoms left");
    }
    let duals = if blossoms_left { None } else { Some(s.dualvar[..nv].to_vec()) };
    (mate, duals)
}

impl<W: Weight> State<'_, W> {
    fn slack(&self, k: usize) -> W {
        let (i, j, w) = self.edges[k];
        self.dualvar[i].add(self.dualvar[j]).sub(w.add(w))
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

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
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
            w = self.endpoint[mb];
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
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
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

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
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
            v = self.endpoint[self.labelend[bv]];
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
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = W::zero();
        for leaf in self.leaves_of_path(&path) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.nv];
        for &bv in &path {
            let nblist: Vec<usize> = match self.blossombestedges[bv].take() {
                Some(list) => list,
                None => {
                    let mut l = Vec::new();
                    for leaf in self.leaves_of(bv) {
                        for &p in &self.neighbend[leaf] {
                            l.push(p / 2);
                        }
                    }
                    l
                }
            };
            for k in nblist {
                let (mut i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let _ = i;
                let bj = self.inblossom[j];
                if bj != b
                    && self.label[bj] == 1
                    && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                {
                    bestedgeto[bj] = k;
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
        self.blossomchilds[b] = path;
        self.blossomendps[b] = endps;
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
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let len = childs.len() as isize;
            let mut j = childs.iter().position(|&c| c == entrychild).expect("entry child") as isize;
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
                let q = self.endpoint[p ^ 1];
                self.label[q] = 0;
                let e = endps[at(j - endptrick as isize)] ^ endptrick ^ 1;
                let r = self.endpoint[e];
                self.label[r] = 0;
                self.assign_label(q, 2, p);
                self.allowedge[endps[at(j - endptrick as isize)] / 2] = true;
                j += jstep;
                p = endps[at(j - endptrick as isize)] ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = childs[at(j)];
            let q = self.endpoint[p ^ 1];
            self.label[q] = 2;
            self.label[bv] = 2;
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
                    let e = self.endpoint[mb];
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
        let i = self.blossomchilds[b].iter().position(|&c| c == t).expect("child") as isize;
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
                let e = self.endpoint[p];
                self.augment_blossom(t, e);
            }
            j += jstep;
            let t = self.blossomchilds[b][at(j)];
            if t >= self.nv {
                let e = self.endpoint[p ^ 1];
                self.augment_blossom(t, e);
            }
            let (a, c) = (self.endpoint[p], self.endpoint[p ^ 1]);
            self.mate[a] = p ^ 1;
            self.mate[c] = p;
        }
        let i = i as usize;
        self.blossomchilds[b].rotate_left(i);
        self.blossomendps[b].rotate_left(i);
        self.blossombase[b] = self.blossombase[self.blossomchilds[b][0]];
    }

    /// Flips the even alternating path from S-vertex `x` to its tree's root:
    /// the root gets matched along it and `x` is left exposed.
    fn flip_to(&mut self, x: usize) {
        let (mut s, mut p) = (x, NONE);
        loop {
            let bs = self.inblossom[s];
            if bs >= self.nv {
                self.augment_blossom(bs, s);
            }
            self.mate[s] = p;
            if self.labelend[bs] == NONE {
                break;
            }
            let t = self.endpoint[self.labelend[bs]];
            let bt = self.inblossom[t];
            s = self.endpoint[self.labelend[bt]];
            let j = self.endpoint[self.labelend[bt] ^ 1];
            if bt >= self.nv {
                self.augment_blossom(bt, j);
            }
            self.mate[j] = self.labelend[bt];
            p = self.labelend[bt] ^ 1;
        }
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (s0, p0) in [(v, 2 * k + 1), (w, 2 * k)] {
            let (mut s, mut p) = (s0, p0);
            loop {
                let bs = self.inblossom[s];
                if bs >= self.nv {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.nv {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(&mut self) {
        let nv = self.nv;
        // Each stage matches or settles at least one root: an exposed vertex
        // whose dual is still positive. (From a cold start every vertex is a
        // root with the same dual; from a warm start only the vertices whose
        // edges changed, and their former mates.)
        for _ in 0..=2 * nv {
            self.label.fill(0);
            self.bestedge.fill(NONE);
            for b in nv..2 * nv {
                self.blossombestedges[b] = None;
            }
            self.allowedge.fill(false);
            self.queue.clear();
            let mut roots = 0;
            for v in 0..nv {
                if self.mate[v] == NONE && !self.dualvar[v].is_zero() && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                    roots += 1;
                }
            }
            if roots == 0 {
                break;
            }
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if augmented {
                        break;
                    }
                    for pi in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][pi];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = W::zero();
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack.is_zero() {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            let bw = self.inblossom[w];
                            if self.label[bw] == 0 && self.mate[self.blossombase[bw]] == NONE {
                                // An exposed vertex whose dual is zero:
                                // augment to it.
                                self.label[bw] = 1;
                                self.labelend[bw] = NONE;
                                self.augment_matching(k);
                                augmented = true;
                                break;
                            } else if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Dual adjustment.
                let mut deltatype = 1;
                let mut delta = W::zero();
                let mut deltavertex = NONE;
                for v in 0..nv {
                    if self.label[self.inblossom[v]] == 1 {
                        let better = deltavertex == NONE
                            || self.dualvar[v] < delta
                            || (self.dualvar[v] == delta && self.mate[v] == NONE && self.mate[deltavertex] != NONE);
                        if better {
                            delta = self.dualvar[v];
                            deltavertex = v;
                        }
                    }
                }
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                for v in 0..nv {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * nv {
                    if self.blossomparent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                        let d = self.slack(self.bestedge[b]).half();
                        if d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in nv..2 * nv {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && self.dualvar[b] < delta
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                for v in 0..nv {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] = self.dualvar[v].sub(delta),
                        2 => self.dualvar[v] = self.dualvar[v].add(delta),
                        _ => {}
                    }
                }
                for b in nv..2 * nv {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] = self.dualvar[b].add(delta),
                            2 => self.dualvar[b] = self.dualvar[b].sub(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => {
                        // An S-vertex's dual reached zero: it becomes the
                        // exposed end of its tree (nothing moves for a root).
                        if self.mate[deltavertex] != NONE || self.labelend[self.inblossom[deltavertex]] != NONE {
                            self.flip_to(deltavertex);
                        }
                        augmented = true;
                        break;
                    }
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in nv..2 * nv {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b].is_zero()
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pairing::weight::Big;

    fn w(v: u64) -> Big<1> {
        Big::from_u64(v)
    }

    fn check(nv: usize, edges: &[(usize, usize, u64)], expect: &[Option<usize>]) {
        let e: Vec<_> = edges.iter().map(|&(i, j, x)| (i, j, w(x))).collect();
        assert_eq!(max_weight_matching(nv, &e), expect);
    }

    #[test]
    fn small_graphs() {
        check(2, &[(0, 1, 1)], &[Some(1), Some(0)]);
        check(3, &[(0, 1, 10), (1, 2, 11)], &[None, Some(2), Some(1)]);
        check(4, &[(0, 1, 5), (1, 2, 11), (2, 3, 5)], &[None, Some(2), Some(1), None]);
        // A blossom.
        check(4, &[(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)], &[Some(1), Some(0), Some(3), Some(2)]);
        // Blossoms of the classic tests (van Rantwijk's suite, renumbered from 0).
        check(
            6,
            &[(0, 1, 9), (0, 2, 9), (1, 2, 10), (1, 3, 8), (2, 4, 8), (3, 4, 10), (4, 5, 6)],
            &[Some(2), Some(3), Some(0), Some(1), Some(5), Some(4)],
        );
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut seed = 12345u64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..400 {
            let n = (rnd() % 9 + 1) as usize;
            let mut edges = Vec::new();
            for i in 0..n {
                for j in 0..i {
                    if rnd() % 3 != 0 {
                        edges.push((i, j, rnd() % 20 + 1));
                    }
                }
            }
            let e: Vec<_> = edges.iter().map(|&(i, j, x)| (i, j, w(x))).collect();
            let m = max_weight_matching(n, &e);
            let got: u64 = edges
                .iter()
                .filter(|&&(i, j, _)| m[i] == Some(j))
                .map(|e| e.2)
                .sum();
            for (v, &p) in m.iter().enumerate() {
                if let Some(p) = p {
                    assert_eq!(m[p], Some(v));
                }
            }
            assert_eq!(got, brute(n, &edges, 0, &mut vec![false; n]), "{edges:?}");
        }
    }

    fn brute(n: usize, edges: &[(usize, usize, u64)], from: usize, used: &mut Vec<bool>) -> u64 {
        let mut best = 0;
        for k in from..edges.len() {
            let (i, j, x) = edges[k];
            if !used[i] && !used[j] {
                used[i] = true;
                used[j] = true;
                best = best.max(x + brute(n, edges, k + 1, used));
                used[i] = false;
                used[j] = false;
            }
        }
        best
    }

    #[test]
    fn warm_starts_reach_the_optimum() {
        let mut seed = 99u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..60 {
            let n = (rnd() % 14 + 2) as usize;
            let mut m: Matcher<Big<1>> = Matcher::new(n);
            for i in 0..n {
                for j in 0..i {
                    if rnd() % 4 != 0 {
                        m.set(i, j, w(rnd() % 50 + 1));
                    }
                }
            }
            for _ in 0..20 {
                let mate = m.compute();
                let alive: Vec<usize> = (0..n).filter(|&v| m.fixed[v] == NONE).collect();
                let weight = |mate: &[usize]| -> u64 {
                    alive.iter().filter(|&&v| mate[v] > v).map(|&v| m.get(v, mate[v]).0[0]).sum()
                };
                let edges: Vec<(usize, usize, u64)> = alive
                    .iter()
                    .enumerate()
                    .flat_map(|(a, &i)| alive.iter().enumerate().take(a).map(move |(b, &j)| (a, b, i, j)))
                    .filter_map(|(a, b, i, j)| {
                        let x = m.get(i, j).0[0];
                        (x > 0).then_some((a, b, x))
                    })
                    .collect();
                assert_eq!(weight(&mate), brute(alive.len(), &edges, 0, &mut vec![false; alive.len()]));
                // Change one vertex's edges, or finalise a matched pair.
                let v = alive[(rnd() % alive.len() as u64) as usize];
                if rnd() % 3 == 0 && mate[v] != v && alive.len() > 2 {
                    m.remove_pair(v, mate[v]);
                } else {
                    for &q in &alive {
                        if q != v && rnd() % 2 == 0 {
                            m.set(v, q, w(rnd() % 60));
                        }
                    }
                }
                if (0..n).filter(|&v| m.fixed[v] == NONE).count() < 2 {
                    break;
                }
            }
        }
    }
}
