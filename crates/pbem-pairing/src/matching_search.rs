//! The search of [`State`]: stages of growing alternating trees from the
//! exposed vertices over tight edges, forming and expanding blossoms,
//! augmenting, and adjusting the duals when no tight edge is left to grow
//! over (Galil's four kinds of dual adjustment). Split from `matching.rs`
//! only for length: it is the same algorithm and the same state.

use super::{NONE, State, tri};
use crate::weight::Weight;

impl<W: Weight> State<W> {
    /// Runs stages until no exposed vertex with a positive dual is left:
    /// the state is then a maximum-weight matching of its weights.
    pub(super) fn run(&mut self) {
        let nv = self.nv;
        let first = self.alive.iter().position(|&a| a).unwrap_or(nv);
        let end = self.alive.iter().rposition(|&a| a).map_or(first, |v| v + 1);
        self.in_play = first..end;
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
            self.queue.clear();
            self.ended.fill(false);
            let mut roots = 0;
            for v in 0..nv {
                if self.alive[v]
                    && self.mate[v] == NONE
                    && !self.dualvar[v].is_zero()
                    && self.label[self.inblossom[v]] == 0
                {
                    self.assign_label(v, 1, NONE);
                    roots += 1;
                }
            }
            if roots == 0 {
                break;
            }
            // Augmentations along vertex-disjoint paths: once a tree has
            // augmented, the stage goes on growing the others (over tight
            // edges only; the ended trees' vertices are left alone) and ends
            // when nothing is left to scan, before any dual adjustment.
            let mut augmented = false;
            loop {
                while let Some(v) = self.queue.pop() {
                    if self.ended[self.treeof[self.inblossom[v]]] {
                        continue;
                    }
                    for w in self.in_play.clone() {
                        if w == v || !self.alive[w] {
                            continue;
                        }
                        if augmented && self.loose_by_low(v, w) {
                            // Only tight edges matter for the rest of an
                            // augmented stage (no dual adjustment follows),
                            // and the lowest limb of the slack shows most
                            // edges are not.
                            continue;
                        }
                        let bw = self.inblossom[w];
                        if bw == self.inblossom[v] {
                            continue;
                        }
                        if self.label[bw] == 2 && self.label[w] != 0 && self.loose_by_low(v, w) {
                            // A loose edge to a labelled T-vertex is kept
                            // for no dual adjustment.
                            continue;
                        }
                        let twice = self.twice(v, w);
                        if twice.is_zero() {
                            continue;
                        }
                        let k = tri(v, w);
                        // `slack(k)`, from v's row of weights already read
                        // (it would read w's row: a cache miss). An edge is
                        // usable when tight: the slack of an edge between
                        // two blossoms counts only its vertices' duals.
                        let kslack = self.slack_between(v, w, twice);
                        debug_assert_eq!(kslack, self.slack(k));
                        if kslack.is_zero() {
                            // The remote endpoint: 2k is the larger vertex.
                            let p = if v > w { 2 * k + 1 } else { 2 * k };
                            let tree = self.treeof[self.inblossom[v]];
                            if self.label[bw] != 0 && self.ended[self.treeof[bw]] {
                                continue;
                            }
                            if self.label[bw] == 0 && self.mate[self.blossombase[bw]] == NONE {
                                // An exposed vertex whose dual is zero:
                                // augment to it.
                                self.label[bw] = 1;
                                self.labelend[bw] = NONE;
                                self.treeof[bw] = tree;
                                self.augment_matching(k);
                                self.ended[tree] = true;
                                augmented = true;
                                break;
                            } else if self.label[bw] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[bw] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.ended[self.treeof[bw]] = true;
                                    self.augment_matching(k);
                                    self.ended[tree] = true;
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[bw] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.bestslack[b] {
                                self.bestedge[b] = k;
                                self.bestslack[b] = kslack;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.bestslack[w])
                        {
                            self.bestedge[w] = k;
                            self.bestslack[w] = kslack;
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
                            || (self.dualvar[v] == delta
                                && self.mate[v] == NONE
                                && self.mate[deltavertex] != NONE);
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
                        let d = self.bestslack[v];
                        debug_assert_eq!(d, self.slack(self.bestedge[v]));
                        if d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * nv {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        debug_assert_eq!(self.bestslack[b], self.slack(self.bestedge[b]));
                        let d = self.bestslack[b].half();
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
                // Each kept slack moves as the duals of its edge's ends did.
                for x in 0..2 * nv {
                    let k = self.bestedge[x];
                    if k == NONE {
                        continue;
                    }
                    let (i, j) = self.edge(k);
                    for end in [i, j] {
                        match self.label[self.inblossom[end]] {
                            1 => self.bestslack[x] = self.bestslack[x].sub(delta),
                            2 => self.bestslack[x] = self.bestslack[x].add(delta),
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => {
                        // An S-vertex's dual reached zero: it becomes the
                        // exposed end of its tree (nothing moves for a root).
                        if self.mate[deltavertex] != NONE
                            || self.labelend[self.inblossom[deltavertex]] != NONE
                        {
                            self.flip_path(deltavertex, NONE);
                        }
                        augmented = true;
                        break;
                    }
                    2 => {
                        let (mut i, j) = self.edge(deltaedge);
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        let (i, _) = self.edge(deltaedge);
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
