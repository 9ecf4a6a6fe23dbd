//! Random-walk positional encoding: for each node, the probabilities that a random walk started
//! there is back after k = 1..K steps (the diagonal of (A D⁻¹)ᵏ on the undirected graph).

use super::PE_STEPS;

/// The encoding of the `n`-node graph with the undirected `edges` (duplicates and loops are
/// ignored). Isolated nodes get zeros. Cost: `n · K · (n + |E|)`, sparse.
pub fn random_walk_pe(n: usize, edges: &[(usize, usize)]) -> Vec<[f32; PE_STEPS]> {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a < n && b < n && a != b {
            adj[a].push(b);
            adj[b].push(a);
        }
    }
    for list in &mut adj {
        list.sort_unstable();
        list.dedup();
    }
    let mut out = vec![[0f32; PE_STEPS]; n];
    let mut x = vec![0f64; n];
    let mut next = vec![0f64; n];
    // Only nodes the walk has reached need visiting; `active` tracks them.
    for (start, row) in out.iter_mut().enumerate() {
        if adj[start].is_empty() {
            continue;
        }
        x.iter_mut().for_each(|v| *v = 0.0);
        x[start] = 1.0;
        let mut active = vec![start];
        let mut seen = vec![false; n];
        for slot in row.iter_mut() {
            let mut reached = Vec::new();
            for &i in &active {
                let share = x[i] / adj[i].len() as f64;
                if share == 0.0 {
                    continue;
                }
                for &j in &adj[i] {
                    if !seen[j] {
                        seen[j] = true;
                        reached.push(j);
                    }
                    next[j] += share;
                }
            }
            for &i in &active {
                x[i] = 0.0;
            }
            for &j in &reached {
                x[j] = next[j];
                next[j] = 0.0;
                seen[j] = false;
            }
            *slot = x[start] as f32;
            active = reached;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_of_two_returns_every_second_step() {
        let pe = random_walk_pe(2, &[(0, 1)]);
        assert_eq!(pe[0][0], 0.0);
        assert_eq!(pe[0][1], 1.0);
        assert_eq!(pe[1][3], 1.0);
    }

    #[test]
    fn star_centre_and_leaves() {
        // Centre 0 with three leaves: after two steps the centre is always back, a leaf with 1/3.
        let pe = random_walk_pe(4, &[(0, 1), (0, 2), (0, 3), (0, 1)]);
        assert!((pe[0][1] - 1.0).abs() < 1e-6);
        assert!((pe[1][1] - 1.0 / 3.0).abs() < 1e-6);
        assert!(pe.iter().all(|r| r.iter().all(|v| (0.0..=1.0).contains(v))));
    }

    #[test]
    fn isolated_nodes_are_zero() {
        let pe = random_walk_pe(3, &[(0, 1)]);
        assert!(pe[2].iter().all(|v| *v == 0.0));
    }
}
