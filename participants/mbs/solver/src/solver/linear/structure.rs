//! The saddle system's structure at body level: which unknowns are each body's, which
//! constraint rows couple which bodies, which bodies a force element or the added mass
//! couples. The block solvers group the unknowns by it, and `auto` reads a chain off it.

use std::collections::BTreeSet;
use std::ops::Range;

/// Bodies, constraint row groups and couplings of one saddle system (indices only, so the
/// solvers need nothing of the MBS).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Structure {
    /// Each free body's coordinates (its unknowns among the first `n`), with its name for messages.
    pub bodies: Vec<(String, Range<usize>)>,
    /// Each joint's rows (among the `m` constraint rows) and the bodies (indices into
    /// [`Structure::bodies`]) its Jacobian touches.
    pub rows: Vec<(Range<usize>, Vec<usize>)>,
    /// Pairs of bodies that a force element or the added mass couples.
    pub links: Vec<(usize, usize)>,
}

impl Structure {
    /// Each body's neighbours: the bodies it shares a joint, a force element or added mass with.
    pub fn neighbours(&self) -> Vec<BTreeSet<usize>> {
        let mut nb = vec![BTreeSet::new(); self.bodies.len()];
        let mut link = |a: usize, b: usize| {
            if a != b && a < nb.len() && b < nb.len() {
                nb[a].insert(b);
                nb[b].insert(a);
            }
        };
        for (_, touched) in &self.rows {
            for (k, &a) in touched.iter().enumerate() {
                for &b in &touched[k + 1..] {
                    link(a, b);
                }
            }
        }
        for &(a, b) in &self.links {
            link(a, b);
        }
        nb
    }

    /// The bodies in chain order (each coupled to at most its two neighbours in the order, no
    /// loop; separate chains follow one another), or why the bodies do not form a chain.
    pub fn chain(&self) -> Result<Vec<usize>, String> {
        let nb = self.neighbours();
        if let Some((i, s)) = nb.iter().enumerate().find(|(_, s)| s.len() > 2) {
            let names: Vec<&str> = s.iter().map(|&j| self.bodies[j].0.as_str()).collect();
            return Err(format!("{} is coupled to {} bodies ({})", self.bodies[i].0, s.len(), names.join(", ")));
        }
        let mut order = Vec::with_capacity(nb.len());
        let mut seen = vec![false; nb.len()];
        // Walk each path from one of its ends; whatever is left unseen is a loop.
        for start in 0..nb.len() {
            if seen[start] || nb[start].len() == 2 {
                continue;
            }
            let (mut prev, mut at) = (usize::MAX, start);
            loop {
                seen[at] = true;
                order.push(at);
                match nb[at].iter().find(|&&j| j != prev && !seen[j]) {
                    Some(&next) => (prev, at) = (at, next),
                    None => break,
                }
            }
        }
        if let Some(i) = seen.iter().position(|s| !s) {
            return Err(format!("{} is on a closed loop of bodies", self.bodies[i].0));
        }
        Ok(order)
    }

    /// The unknowns grouped by body in `order`: each body's coordinates, then the rows (offset
    /// by `n`) of the joints whose latest body in `order` it is. Rows that touch no body go
    /// with the first block (they are zero rows: the matrix is singular either way).
    pub fn blocks(&self, order: &[usize], n: usize) -> Vec<Vec<usize>> {
        let mut position = vec![usize::MAX; self.bodies.len()];
        for (p, &b) in order.iter().enumerate() {
            position[b] = p;
        }
        let mut blocks: Vec<Vec<usize>> = order.iter().map(|&b| self.bodies[b].1.clone().collect()).collect();
        if blocks.is_empty() {
            blocks.push(Vec::new());
        }
        for (rows, touched) in &self.rows {
            let p = touched.iter().filter_map(|&b| position.get(b).copied()).filter(|&p| p != usize::MAX).max();
            blocks[p.unwrap_or(0)].extend(rows.clone().map(|r| n + r));
        }
        blocks.retain(|b| !b.is_empty());
        blocks
    }
}
