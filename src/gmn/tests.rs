//! Graph shape, positional-encoding and bound tests of the GMN graph builder.

use super::*;

fn pair(gold: &str, pred: &str, model: Model) -> PairGraph {
    pair_graph(gold, pred, None, model).expect("both queries plan")
}

fn labels_of(g: &Graph) -> Vec<i64> {
    g.types.clone()
}

#[test]
fn funceval_graph_of_a_filter_query() {
    let p = pair(
        "SELECT name FROM singer WHERE age > 20",
        "SELECT name FROM singer WHERE age > 20",
        Model::FuncEval,
    );
    let g = &p.gold;
    // Project, name, Filter, >, age, 20, TableScan, singer (the exact plan may fold nodes, but
    // these kinds are all present).
    assert!(g.len() >= 6, "{:?}", g);
    for label in ["Project", "Filter", "TableScan", ">"] {
        assert!(labels_of(g).contains(&vocab::id(label)), "{label}");
    }
    let content: Vec<String> = g
        .chars
        .iter()
        .filter(|c| !c.is_empty())
        .map(|c| c.iter().map(|&b| b as char).collect())
        .collect();
    assert!(content.contains(&"singer".to_string()), "{content:?}");
    assert!(content.contains(&"20".to_string()), "{content:?}");
    // Content nodes carry the content type and characters; computing nodes none.
    for (t, c) in g.types.iter().zip(&g.chars) {
        assert_eq!(*t == vocab::CONTENT, !c.is_empty());
    }
    // Tree edges form a tree: every node but the root has exactly one incoming tree edge.
    let mut parents = vec![0; g.len()];
    for &(s, d, r) in &g.edges {
        assert!((s as usize) < g.len() && (d as usize) < g.len() && (r as usize) < 3);
        if r == REL_TREE {
            parents[d as usize] += 1;
        }
    }
    assert_eq!(parents[0], 0);
    assert!(parents[1..].iter().all(|&c| c == 1), "{parents:?}");
    // Logic flow links the operators: TableScan -> Filter -> Project (2 edges at least).
    assert!(g.edges.iter().filter(|e| e.2 == REL_LOGIC).count() >= 2);
    assert_eq!(
        (&p.gold.types, &p.gold.chars),
        (&p.pred.types, &p.pred.chars)
    );
    assert_eq!(p.gold.edges, p.pred.edges);
    for (a, b) in p.gold.pe.iter().zip(&p.pred.pe) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-6);
        }
    }
}

#[test]
fn data_flow_joins_uses_of_a_column() {
    let p = pair(
        "SELECT age FROM singer WHERE age > 20 ORDER BY age",
        "SELECT 1",
        Model::FuncEval,
    );
    assert!(
        p.gold.edges.iter().any(|e| e.2 == REL_DATA),
        "{:?}",
        p.gold.edges
    );
}

#[test]
fn pe_is_a_probability_and_shared_by_identical_queries() {
    let p = pair(
        "SELECT count(*) FROM singer GROUP BY country",
        "SELECT count(*) FROM singer GROUP BY country",
        Model::FuncEval,
    );
    for g in [&p.gold, &p.pred] {
        assert_eq!(g.pe.len(), g.len());
        for row in &g.pe {
            assert!(row.iter().all(|v| (0.0..=1.0).contains(v)), "{row:?}");
            // A walk on a connected graph with more than one node returns after two steps with
            // positive probability.
            assert!(row[1] > 0.0);
        }
    }
    // Symmetric pair: the gold and pred encodings coincide.
    for (a, b) in p.gold.pe.iter().zip(&p.pred.pe) {
        for (x, y) in a.iter().zip(b) {
            assert!((x - y).abs() < 1e-6);
        }
    }
}

#[test]
fn seeds_join_equal_subtrees_only() {
    let gold = query_graph(
        "SELECT name FROM singer WHERE age > 20",
        None,
        Model::FuncEval,
    )
    .unwrap();
    let pred = query_graph(
        "SELECT name FROM singer WHERE age < 20",
        None,
        Model::FuncEval,
    )
    .unwrap();
    let seeds = seed_pairs(&gold, &pred);
    // The scans match; the roots (whose conditions differ) do not.
    assert!(!seeds.is_empty());
    assert!(!seeds.contains(&(0, 0)));
    let same = seed_pairs(&gold, &gold);
    assert_eq!(same, vec![(0, 0)]);
}

#[test]
fn graphs_are_deterministic() {
    let a = pair(
        "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.singer_id WHERE T2.year = 2014",
        "SELECT name FROM singer WHERE id IN (SELECT singer_id FROM concert WHERE year = 2014)",
        Model::FuncEval,
    );
    let b = pair(
        "SELECT T1.name FROM singer AS T1 JOIN concert AS T2 ON T1.id = T2.singer_id WHERE T2.year = 2014",
        "SELECT name FROM singer WHERE id IN (SELECT singer_id FROM concert WHERE year = 2014)",
        Model::FuncEval,
    );
    assert_eq!(a.to_json(), b.to_json());
    let h1 = pair(
        "SELECT a FROM t WHERE b = 'x'",
        "SELECT a FROM t",
        Model::Hybrid,
    );
    let h2 = pair(
        "SELECT a FROM t WHERE b = 'x'",
        "SELECT a FROM t",
        Model::Hybrid,
    );
    assert_eq!(h1.to_json(), h2.to_json());
}

#[test]
fn hybrid_graph_links_ast_and_plan() {
    let p = pair(
        "SELECT a FROM t WHERE b = 'x'",
        "SELECT a FROM t",
        Model::Hybrid,
    );
    let g = &p.gold;
    let rels: std::collections::HashSet<u8> = g.edges.iter().map(|e| e.2).collect();
    for r in 0..4u8 {
        if r != hybrid::REL_DATA {
            assert!(rels.contains(&r), "relation {r} missing: {rels:?}");
        }
    }
    assert!(g.types.contains(&vocab::id("ast:Select")));
    assert!(g.types.contains(&vocab::id("TableScan")));
    assert!(g.edges.iter().all(|e| (e.2 as usize) < hybrid::RELATIONS));
}

#[test]
fn json_layout() {
    let p = pair("SELECT a FROM t", "SELECT b FROM t", Model::FuncEval);
    let v: serde_json::Value = serde_json::from_str(&p.to_json()).unwrap();
    assert_eq!(v["model"], "funceval");
    assert_eq!(v["relations"], 3);
    assert_eq!(v["pe_steps"], 16);
    let g = &v["graphs"][0];
    let n = g["types"].as_array().unwrap().len();
    assert_eq!(g["chars"].as_array().unwrap().len(), n);
    assert_eq!(g["pe"].as_array().unwrap().len(), n);
    assert_eq!(g["pe"][0].as_array().unwrap().len(), 16);
    assert_eq!(g["edges"][0].as_array().unwrap().len(), 3);
}

#[test]
fn unplannable_and_oversized_queries_have_no_graph() {
    assert!(pair_graph("SELEC nonsense", "SELECT 1", None, Model::FuncEval).is_none());
    let conds: Vec<String> = (0..300).map(|i| format!("c{i} = {i}")).collect();
    let big = format!("SELECT a FROM t WHERE {}", conds.join(" OR "));
    assert!(query_graph(&big, None, Model::FuncEval).is_none());
    assert!(pair_graph(&big, "SELECT a FROM t", None, Model::Hybrid).is_none());
    let long = format!("SELECT a FROM t WHERE b = '{}'", "é".repeat(100));
    let g = query_graph(&long, None, Model::FuncEval).unwrap();
    assert!(g
        .chars
        .iter()
        .all(|c| c.len() <= MAX_CHARS && c.iter().all(|&b| b < 128)));
    assert!(g.chars.iter().any(|c| c.contains(&127)));
}
