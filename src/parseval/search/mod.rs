//! The search for test databases (paper Algorithm 1): the coverage branches of a query's
//! symbolic execution solved with Z3, greedily, one model per database, growing the instance
//! size while branches stay uncovered.
//!
//! `generate` drives it, sized by what `plan_facts` reads from the plan; `cover` covers branches
//! at one instance size; `text_domains` are the constants a speculative text is drawn from;
//! `solver` bounds each Z3 context (memory, a wall-clock safety cap); `work_budget` counts Z3's
//! resource units over every check, the deterministic budget of a call.

mod cover;
pub mod generate;
pub mod plan_facts;
pub mod solver;
pub mod text_domains;
pub mod work_budget;
