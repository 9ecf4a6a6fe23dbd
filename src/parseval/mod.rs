//! ParSEval: plan-aware test database generation and equivalence verdicts (Z3-backed).

pub mod solver;
