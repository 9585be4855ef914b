//! Reverse Cuthill–McKee: an ordering of a symmetric pattern's vertices that keeps
//! neighbours close, so that a chain's saddle matrix becomes banded with a narrow band.

use std::collections::VecDeque;

/// The reverse Cuthill–McKee order of the graph `adj` (each vertex's neighbours): breadth-first
/// from a vertex of least degree in each component, neighbours by increasing degree, reversed.
pub fn reverse_cuthill_mckee(adj: &[Vec<usize>]) -> Vec<usize> {
    let n = adj.len();
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut by_degree: Vec<usize> = (0..n).collect();
    by_degree.sort_by_key(|&v| adj[v].len());
    for &start in &by_degree {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut queue = VecDeque::from([start]);
        while let Some(v) = queue.pop_front() {
            order.push(v);
            let mut next: Vec<usize> = adj[v].iter().copied().filter(|&w| !seen[w]).collect();
            next.sort_by_key(|&w| adj[w].len());
            next.dedup();
            for w in next {
                if !seen[w] {
                    seen[w] = true;
                    queue.push_back(w);
                }
            }
        }
    }
    order.reverse();
    order
}

/// The lower and upper bandwidths of `entries` with unknown `i` moved to `position[i]`.
pub fn bandwidths(entries: &[(usize, usize, f64)], position: &[usize]) -> (usize, usize) {
    entries.iter().fold((0, 0), |(kl, ku), &(r, c, _)| {
        let (pr, pc) = (position[r], position[c]);
        (kl.max(pr.saturating_sub(pc)), ku.max(pc.saturating_sub(pr)))
    })
}
