//! Random-walk positional encoding: for each node, the probabilities that a random walk started
//! there is back after k = 1..K steps (the diagonal of (A D⁻¹)ᵏ on the undirected graph).

use super::PE_STEPS;

/// The encoding of the `n`-node graph with the undirected `edges` (duplicates and loops are
/// ignored). Isolated nodes get zeros. All walks advance together: `cur[i·n + s]` is the
/// probability that the walk started at `s` stands on `i`, so each step is one contiguous
/// `n`-long multiply-add per adjacency entry (`K · 2|E| · n` operations, vectorized), in f64
/// so that summation order (which differs between the two halves of a pair) stays invisible in f32.
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
    let mut cur = vec![0f64; n * n];
    let mut next = vec![0f64; n * n];
    for (s, neighbours) in adj.iter().enumerate() {
        if !neighbours.is_empty() {
            cur[s * n + s] = 1.0;
        }
    }
    for k in 0..PE_STEPS {
        next.iter_mut().for_each(|v| *v = 0.0);
        for (i, neighbours) in adj.iter().enumerate() {
            if neighbours.is_empty() {
                continue;
            }
            let share = 1.0 / neighbours.len() as f64;
            let from = &cur[i * n..(i + 1) * n];
            for &j in neighbours {
                let to = &mut next[j * n..(j + 1) * n];
                for (t, f) in to.iter_mut().zip(from) {
                    *t += share * f;
                }
            }
        }
        std::mem::swap(&mut cur, &mut next);
        for (s, row) in out.iter_mut().enumerate() {
            row[k] = cur[s * n + s] as f32;
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
