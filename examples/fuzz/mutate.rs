//! The seed corpus (queries and schemas from the project's own fixtures: tests/fixtures/pairs.tsv,
//! tests/fixtures/spider_eval, tests/golden/**, tests/fixtures/schema/**) and the mutations applied
//! to it: token insert/delete/duplicate/swap, splices of two texts, and character-level edits.

use proptest::prelude::RngExt;
use proptest::test_runner::TestRng;
use std::path::Path;

/// Seed texts read once at start-up.
#[derive(Debug, Default)]
pub struct Corpus {
    pub queries: Vec<String>,
    pub ddl_schemas: Vec<String>,
    /// Spider tables.json entries, as JSON object text.
    pub spider_entries: Vec<String>,
    /// BIRD-style schemas: JSON arrays of DDL strings.
    pub bird_schemas: Vec<String>,
}

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap_or_default()
}

fn files_under(root: &Path, rel: &str) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.join(rel)];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Queries of a golden text file: the line after `-- case:`/`-- sql:` markers, both sides of `=>`.
fn golden_queries(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(sql) = line.strip_prefix("-- sql: ") {
            out.push(sql.to_string());
        } else if line.starts_with("-- case") {
            let mut block = Vec::new();
            while let Some(l) = lines.peek() {
                if l.starts_with("--") || l.trim().is_empty() {
                    break;
                }
                block.push(lines.next().unwrap_or_default());
            }
            let joined = block.join("\n");
            for part in joined.split("\n=>\n") {
                if part.to_ascii_uppercase().contains("SELECT") && !part.contains("\n  ") {
                    out.push(part.to_string());
                }
            }
        }
    }
    out
}

impl Corpus {
    /// Loads the seed corpus from the crate's fixture folders under `root`.
    pub fn load(root: &Path) -> Corpus {
        let mut c = Corpus::default();
        for line in read(root, "tests/fixtures/pairs.tsv").lines() {
            if line.starts_with('#') {
                continue;
            }
            c.queries.extend(line.split('\t').map(str::to_string));
        }
        for f in [
            "tests/fixtures/spider_eval/gold.txt",
            "tests/fixtures/spider_eval/pred.txt",
        ] {
            for line in read(root, f).lines() {
                c.queries
                    .push(line.split('\t').next().unwrap_or_default().to_string());
            }
        }
        for path in files_under(root, "tests/golden") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            match path.extension().and_then(|e| e.to_str()) {
                Some("txt") => c.queries.extend(golden_queries(&text)),
                Some("jsonl") => {
                    for line in text.lines() {
                        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
                            continue;
                        };
                        for k in ["gold", "pred"] {
                            if let Some(s) = v[k].as_str() {
                                c.queries.push(s.to_string());
                            }
                        }
                    }
                }
                Some("json") => c.add_spider_entries(&text),
                _ => {}
            }
        }
        for path in files_under(root, "tests/fixtures/schema") {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            match path.extension().and_then(|e| e.to_str()) {
                Some("sql") => c.ddl_schemas.push(text),
                Some("json") if text.trim_start().starts_with('[') => {
                    c.bird_schemas.push(text.clone());
                    c.add_spider_entries(&text);
                }
                Some("json") => c.spider_entries.push(text),
                _ => {}
            }
        }
        c.add_spider_entries(&read(root, "tests/fixtures/plan_schema.json"));
        c.queries.retain(|q| !q.trim().is_empty());
        c.queries.sort();
        c.queries.dedup();
        c
    }

    /// Adds the objects of a tables.json-style array (or a lone object) as Spider entries.
    fn add_spider_entries(&mut self, text: &str) {
        match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Array(items)) => {
                for item in items.iter().filter(|i| i.is_object()) {
                    self.spider_entries.push(item.to_string());
                }
            }
            Ok(v @ serde_json::Value::Object(_)) => self.spider_entries.push(v.to_string()),
            _ => {}
        }
    }

    pub fn random_query(&self, rng: &mut TestRng) -> &str {
        &self.queries[rng.random_range(0..self.queries.len())]
    }
}

/// Splits SQL into tokens: words, numbers, quoted strings/identifiers, punctuation, whitespace.
pub fn tokens(sql: &str) -> Vec<&str> {
    let bytes = sql.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        if c.is_ascii_whitespace() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
        } else if c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80 {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] >= 0x80)
            {
                i += 1;
            }
        } else if matches!(c, b'\'' | b'"' | b'`') {
            i += 1;
            while i < bytes.len() && bytes[i] != c {
                i += 1;
            }
            i = (i + 1).min(bytes.len());
        } else {
            i += 1;
            if i < bytes.len()
                && matches!(
                    &bytes[start..=i],
                    b"<=" | b">=" | b"<>" | b"!=" | b"||" | b"=="
                )
            {
                i += 1;
            }
        }
        // every boundary above falls on an ASCII byte or the end, so it is a char boundary
        out.push(&sql[start..i]);
    }
    out
}

const INSERTABLE: &[&str] = &[
    "SELECT",
    "FROM",
    "WHERE",
    "(",
    ")",
    ",",
    "JOIN",
    "ON",
    "AND",
    "OR",
    "NOT",
    "NULL",
    "GROUP BY",
    "ORDER BY",
    "HAVING",
    "LIMIT",
    "UNION",
    "EXCEPT",
    "INTERSECT",
    "*",
    "=",
    "IN",
    "EXISTS",
    "'",
    "\"",
    "`",
    "[",
    "]",
    ";",
    "--",
    "/*",
    "*/",
    "CASE",
    "WHEN",
    "END",
    "AS",
    "DISTINCT",
    "1",
    "-1",
    "1e999",
    "count(",
    "T1.",
    ".",
    "||",
    "BETWEEN",
    "LIKE",
    "\\",
    "\u{0}",
    "é",
    "😀",
    "\u{feff}",
    "OVER (",
    "WITH",
    "VALUES",
    "CAST(",
    "?",
    "$1",
    "@x",
    "::",
    "{",
    "}",
];

/// One random mutation of `text`; `other` is a second text for splices.
pub fn mutate(rng: &mut TestRng, text: &str, other: &str) -> String {
    let toks = tokens(text);
    let pick = |rng: &mut TestRng, n: usize| if n == 0 { 0 } else { rng.random_range(0..n) };
    match rng.random_range(0..10) {
        0 | 1 if !toks.is_empty() => {
            let i = pick(rng, toks.len());
            join_without(&toks, i, "")
        }
        2 => {
            let i = pick(rng, toks.len() + 1);
            let ins = INSERTABLE[pick(rng, INSERTABLE.len())];
            insert_at(&toks, i, &format!(" {ins} "))
        }
        3 if !toks.is_empty() => {
            let i = pick(rng, toks.len());
            insert_at(&toks, i, toks[i])
        }
        4 if toks.len() > 1 => {
            let (i, j) = (pick(rng, toks.len()), pick(rng, toks.len()));
            let mut v: Vec<&str> = toks.clone();
            v.swap(i, j);
            v.concat()
        }
        5 => {
            let a = char_prefix(text, pick(rng, text.chars().count() + 1));
            let other_chars = other.chars().count();
            let b = char_suffix(other, pick(rng, other_chars + 1));
            format!("{a}{b}")
        }
        6 if !text.is_empty() => {
            let cut = pick(rng, text.chars().count());
            let mut out: String = text.chars().take(cut).collect();
            out.extend(text.chars().skip(cut + 1));
            out
        }
        7 => {
            let at = pick(rng, text.chars().count() + 1);
            let c = random_char(rng);
            let mut out: String = text.chars().take(at).collect();
            out.push(c);
            out.extend(text.chars().skip(at));
            out
        }
        8 if !toks.is_empty() => {
            let i = pick(rng, toks.len());
            let replacement = other_token(rng, other);
            let mut v: Vec<&str> = toks.clone();
            v[i] = &replacement;
            v.concat()
        }
        _ => {
            let cut = pick(rng, text.chars().count() + 1);
            char_prefix(text, cut).to_string()
        }
    }
}

/// Applies 1..=`max` mutations in a row.
pub fn mutate_many(rng: &mut TestRng, text: &str, other: &str, max: usize) -> String {
    let n = 1 + rng.random_range(0..max.max(1));
    let mut out = text.to_string();
    for _ in 0..n {
        out = mutate(rng, &out, other);
    }
    out
}

fn join_without(toks: &[&str], skip: usize, sep: &str) -> String {
    let kept: Vec<&str> = toks
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != skip)
        .map(|(_, t)| *t)
        .collect();
    kept.join(sep)
}

fn insert_at(toks: &[&str], at: usize, piece: &str) -> String {
    let mut out = toks[..at.min(toks.len())].concat();
    out.push_str(piece);
    out.push_str(&toks[at.min(toks.len())..].concat());
    out
}

fn char_prefix(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

fn char_suffix(s: &str, n: usize) -> &str {
    match s.char_indices().nth(n) {
        Some((i, _)) => &s[i..],
        None => "",
    }
}

fn other_token(rng: &mut TestRng, other: &str) -> String {
    let toks = tokens(other);
    if toks.is_empty() {
        return INSERTABLE[rng.random_range(0..INSERTABLE.len())].to_string();
    }
    toks[rng.random_range(0..toks.len())].to_string()
}

fn random_char(rng: &mut TestRng) -> char {
    match rng.random_range(0..4) {
        0 => char::from(rng.random_range(0u8..128)),
        1 => ['(', ')', '\'', '"', '`', '[', ']', ';', ',', '.', '*'][rng.random_range(0..11)],
        2 => char::from_u32(rng.random_range(0x80u32..0x3000)).unwrap_or('é'),
        _ => [
            '\u{0}',
            '\u{feff}',
            '\u{202e}',
            '😀',
            '\u{10ffff}',
            '\u{fffd}',
        ][rng.random_range(0..6)],
    }
}

/// Semantic edits that usually change a query's meaning a little (for equivalence pairs).
pub fn semantic_edit(rng: &mut TestRng, sql: &str) -> String {
    const SWAPS: &[(&str, &str)] = &[
        (">", ">="),
        ("<", "<="),
        ("=", "<>"),
        ("AND", "OR"),
        ("DISTINCT", ""),
        ("ASC", "DESC"),
        ("UNION", "UNION ALL"),
        ("JOIN", "LEFT JOIN"),
        ("min", "max"),
        ("count(*)", "count(DISTINCT 1)"),
        ("INTERSECT", "EXCEPT"),
        ("IN", "NOT IN"),
        ("sum", "avg"),
    ];
    let toks = tokens(sql);
    let candidates: Vec<(usize, &str)> = toks
        .iter()
        .enumerate()
        .filter_map(|(i, t)| {
            SWAPS.iter().find_map(|(a, b)| {
                if t.eq_ignore_ascii_case(a) {
                    Some((i, *b))
                } else if t.eq_ignore_ascii_case(b) && !b.is_empty() {
                    Some((i, *a))
                } else {
                    None
                }
            })
        })
        .collect();
    let numbers: Vec<usize> = (0..toks.len())
        .filter(|&i| toks[i].bytes().all(|b| b.is_ascii_digit()))
        .collect();
    let mut v: Vec<String> = toks.iter().map(|t| t.to_string()).collect();
    if !numbers.is_empty() && (candidates.is_empty() || rng.random_bool(0.3)) {
        let i = numbers[rng.random_range(0..numbers.len())];
        let n: i64 = v[i].parse().unwrap_or(0);
        v[i] = n.saturating_add(rng.random_range(-2i64..=2)).to_string();
    } else if !candidates.is_empty() {
        let (i, replacement) = candidates[rng.random_range(0..candidates.len())];
        v[i] = replacement.to_string();
    }
    v.concat()
}
