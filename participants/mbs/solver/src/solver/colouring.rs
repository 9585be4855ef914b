//! Greedy largest-first colouring of the columns of a sparsity pattern (docs/design/jacobians.md §3): columns
//! that share no row get one colour, so a finite-difference Jacobian costs one evaluation
//! per colour instead of one per column.

/// Colours `ncols` columns given each row's columns; returns the columns of each colour.
pub fn colour_columns(ncols: usize, rows: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let mut adj = vec![std::collections::BTreeSet::new(); ncols];
    for r in rows {
        for &a in r {
            for &b in r {
                if a != b {
                    adj[a].insert(b);
                }
            }
        }
    }
    let used: Vec<bool> = {
        let mut u = vec![false; ncols];
        rows.iter().flatten().for_each(|&c| u[c] = true);
        u
    };
    let mut order: Vec<usize> = (0..ncols).filter(|&c| used[c]).collect();
    order.sort_by_key(|&c| (std::cmp::Reverse(adj[c].len()), c));
    let mut colour = vec![usize::MAX; ncols];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for c in order {
        let taken: std::collections::BTreeSet<usize> = adj[c].iter().map(|&n| colour[n]).collect();
        let k = (0..).find(|k| !taken.contains(k)).unwrap_or(0);
        colour[c] = k;
        if k == groups.len() {
            groups.push(Vec::new());
        }
        groups[k].push(c);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disjoint_blocks_share_colours() {
        // Two independent 3-column blocks and one column coupling to both.
        let rows = vec![vec![0, 1, 2], vec![3, 4, 5], vec![2, 6], vec![5, 6]];
        let groups = colour_columns(7, &rows);
        assert_eq!(groups.len(), 3);
        for g in &groups {
            for r in &rows {
                assert!(g.iter().filter(|c| r.contains(c)).count() <= 1, "{g:?} conflicts in {r:?}");
            }
        }
        assert_eq!(groups.iter().map(Vec::len).sum::<usize>(), 7);
    }
}
