//! Enforces ARCHITECTURE.md's dependency map: every `crate::` path in `src/**/*.rs` (code, not
//! comments or strings) must be an edge the map allows, the map must name every top-level module,
//! and it must have no cycle. A module split into rooms (folders) has a room map of its own,
//! checked the same way on the paths between its rooms.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MARKER: &str = "<!-- dependency-map";
const ROOM_MARKER: &str = "<!-- room-map: ";
/// This file spells paths it looks for; it is not part of the layering.
const SELF_FILE: &str = "architecture_test.rs";

type Map = BTreeMap<String, BTreeSet<String>>;
/// A map's lines in their order: each name and the names it may use.
type MapLines = Vec<(String, BTreeSet<String>)>;

/// The `name -> a, b` lines of the code block that follows `after`'s start, in order.
fn map_lines(after: &str) -> MapLines {
    let block = after
        .split("```")
        .nth(1)
        .expect("no code block after the marker");
    let mut lines = Vec::new();
    for line in block.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let (module, deps) = line
            .split_once("->")
            .unwrap_or_else(|| panic!("map line without '->': {line}"));
        let deps = deps
            .split(',')
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(String::from)
            .collect();
        lines.push((module.trim().to_string(), deps));
    }
    lines
}

/// The map in ARCHITECTURE.md: the `module -> a, b` lines of the code block after the marker.
fn allowed_map(doc: &str) -> Map {
    let after = &doc[doc
        .find(MARKER)
        .expect("ARCHITECTURE.md has no dependency-map marker")..];
    map_lines(after).into_iter().collect()
}

/// The room maps in ARCHITECTURE.md: for each `<!-- room-map: module -->` marker, the module and
/// the `room -> a, b` lines of the code block after it.
fn room_maps(doc: &str) -> Vec<(String, MapLines)> {
    doc.match_indices(ROOM_MARKER)
        .map(|(at, _)| {
            let after = &doc[at + ROOM_MARKER.len()..];
            (ident_at(after).to_string(), map_lines(after))
        })
        .collect()
}

/// Asserts that every name a line of `lines` depends on is listed above it (so no cycle).
fn assert_layered(lines: &[(String, BTreeSet<String>)], what: &str) {
    for (i, (name, deps)) in lines.iter().enumerate() {
        for d in deps {
            let pos = lines.iter().position(|(n, _)| n == d);
            assert!(
                pos.is_some_and(|p| p < i),
                "{what}: {name} -> {d}: {d} must be listed above {name} (no cycles)"
            );
        }
    }
}

/// `text` with comments, string and char literals blanked out (lengths kept irrelevant).
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0;
                while i < b.len() {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
            }
            b'r' if matches!(b.get(i + 1), Some(b'"' | b'#'))
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    out.push('r');
                    i += 1;
                    continue;
                }
                let close: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let start = i + 2 + hashes;
                i = text[start..]
                    .find(&close)
                    .map_or(b.len(), |p| start + p + close.len());
                out.push_str("\"\"");
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push_str("\"\"");
            }
            b'\'' => {
                // A char literal ('x', '\n', '\''), or a lifetime ('a), which is kept.
                if b.get(i + 1) == Some(&b'\\') {
                    i += 2;
                    while i < b.len() && b[i] != b'\'' {
                        i += 1;
                    }
                    i += 1;
                } else {
                    let c = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                    if b.get(i + 1 + c) == Some(&b'\'') {
                        i += 2 + c;
                    } else {
                        out.push('\'');
                        i += 1;
                    }
                }
            }
            _ => {
                let c = text[i..].chars().next().unwrap_or(' ');
                out.push(c);
                i += c.len_utf8();
            }
        }
    }
    out
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first segments after every `crate::` in `code` (each item of a `crate::{a, b::c}` group).
fn crate_targets(code: &str) -> Vec<String> {
    targets_after(code, "crate::")
}

/// The first segments after every `prefix` (a path from the crate root, such as
/// `crate::parseval::`) in `code`, each item of a `prefix{a, b::c}` group included.
fn targets_after(code: &str, prefix: &str) -> Vec<String> {
    let mut targets = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue; // `foo_crate::`, not a path from the crate root
        }
        let rest = code[at + prefix.len()..].trim_start();
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        item_start = false;
                        targets.push(ident_at(&group[i..]).to_string());
                    }
                    _ => {}
                }
            }
        } else {
            targets.push(ident_at(rest).to_string());
        }
    }
    targets.retain(|t| !t.is_empty() && t != "self");
    targets
}

/// The module path of a file under src/ (`plan/rules/mod.rs` → [plan, rules]; lib.rs → []).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// Byte ranges of inline `mod name { ... }` blocks in `code`, which add a level for `super::`.
fn inline_modules(code: &str) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let rest = &code[at + 4..];
        let name = ident_at(rest.trim_start());
        let after = rest.trim_start()[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = code.len() - after.len();
        let mut depth = 0;
        for (i, c) in code[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        ranges.push((open, open + i));
                        break;
                    }
                }
                _ => {}
            }
        }
    }
    ranges
}

/// Top-level modules reached by `super::` chains that climb to the crate root.
fn super_targets(code: &str, path: &[String]) -> Vec<String> {
    super_targets_at(code, path, 0)
}

/// The first segments after `super::` chains that climb to the module `path[..level]` (the
/// crate root for 0).
fn super_targets_at(code: &str, path: &[String], level: usize) -> Vec<String> {
    let inline = inline_modules(code);
    let mut targets = Vec::new();
    for (at, _) in code.match_indices("super::") {
        if at >= 7 && &code[at - 7..at] == "super::" {
            continue; // counted from the first `super::` of the chain
        }
        let mut rest = &code[at..];
        let mut ups = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            ups += 1;
            rest = r;
        }
        let depth = path.len() + inline.iter().filter(|(a, b)| *a < at && at < *b).count();
        if ups + level == depth {
            targets.push(ident_at(rest).to_string());
        }
    }
    targets.retain(|t| !t.is_empty());
    targets
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable").flatten() {
        let p = entry.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Names a module file re-exports, by the module they come from (`pub use error::{Error, Result};`
/// → Error, Result → error; `pub use verdict::decide::decide_cached;` → decide_cached → verdict).
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    for line in code_only(lib).lines() {
        let Some(rest) = line.trim().strip_prefix("pub use ") else {
            continue;
        };
        let module = ident_at(rest).to_string();
        let items = rest[module.len()..].trim_start_matches("::");
        let items = items
            .trim_end_matches(';')
            .trim_matches(|c| c == '{' || c == '}');
        for item in items.split(',') {
            let name = item.rsplit("::").next().unwrap_or("");
            let name = name.trim_matches(|c: char| c == '{' || c == '}' || c.is_whitespace());
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            names.insert(name.to_string(), module.clone());
        }
    }
    names
}

/// The crate's actual dependency map: top-level module → modules it names (file lists as evidence).
fn actual_map(src: &Path) -> BTreeMap<(String, String), BTreeSet<String>> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("src/lib.rs");
    let reexports = reexports(&lib);
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src/").to_path_buf();
        if rel.file_name().is_some_and(|n| n == SELF_FILE) {
            continue;
        }
        let path = module_path(&rel);
        let Some(top) = path.first().cloned() else {
            continue; // lib.rs declares the modules; it depends on all of them by definition
        };
        let code = code_only(&std::fs::read_to_string(&file).expect("source is readable"));
        let targets = crate_targets(&code)
            .into_iter()
            .chain(super_targets(&code, &path));
        for target in targets {
            let target = reexports.get(&target).cloned().unwrap_or(target);
            if target != top {
                edges
                    .entry((top.clone(), target))
                    .or_insert_with(BTreeSet::new)
                    .insert(rel.display().to_string());
            }
        }
    }
    edges
}

/// Edges between the rooms (folders) of `module`: (room, room it names) → files. A file outside
/// the rooms (the module's `mod.rs`, its shared files) is not part of the room layering.
fn actual_room_map(
    src: &Path,
    module: &str,
    rooms: &BTreeSet<String>,
) -> BTreeMap<(String, String), BTreeSet<String>> {
    let dir = src.join(module);
    let root = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    let reexports = reexports(&root);
    let prefix = format!("crate::{module}::");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    let mut edges = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src/").to_path_buf();
        let path = module_path(&rel);
        let Some(room) = path.get(1).filter(|r| rooms.contains(*r)).cloned() else {
            continue;
        };
        let code = code_only(&std::fs::read_to_string(&file).expect("source is readable"));
        let targets = targets_after(&code, &prefix)
            .into_iter()
            .chain(super_targets_at(&code, &path, 1));
        for target in targets {
            let target = reexports.get(&target).cloned().unwrap_or(target);
            if target != room && rooms.contains(&target) {
                edges
                    .entry((room.clone(), target))
                    .or_insert_with(BTreeSet::new)
                    .insert(rel.display().to_string());
            }
        }
    }
    edges
}

/// The folders directly under `dir`.
fn folders(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("a module folder")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect()
}

/// Top-level modules: files and folders directly under src/ (less lib.rs and this test).
fn top_level_modules(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("src/")
        .flatten()
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string()
        })
        .filter(|n| n != "lib" && n != SELF_FILE.trim_end_matches(".rs"))
        .collect()
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_crate_path_is_an_edge_the_map_allows() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let allowed = allowed_map(&doc);
    let violations: Vec<String> = actual_map(&root().join("src"))
        .into_iter()
        .filter(|((from, to), _)| !allowed.get(from).is_some_and(|deps| deps.contains(to)))
        .map(|((from, to), files)| format!("{from} -> {to} (in {files:?})"))
        .collect();
    assert!(
        violations.is_empty(),
        "edges ARCHITECTURE.md's dependency map does not allow (move the code, or change the map \
         with a reason):\n  {}",
        violations.join("\n  ")
    );
}

#[test]
fn the_map_names_every_module_and_has_no_cycle() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let allowed = allowed_map(&doc);
    let modules = top_level_modules(&root().join("src"));
    let mapped: BTreeSet<String> = allowed.keys().cloned().collect();
    assert_eq!(modules, mapped, "src/ modules vs. the map's modules");
    for (m, deps) in &allowed {
        for d in deps {
            assert!(allowed.contains_key(d), "{m} -> {d}: {d} is not in the map");
        }
    }
    // Layered: each module's dependencies are listed above it, so the map has no cycle.
    let after = &doc[doc.find(MARKER).unwrap_or(0)..];
    assert_layered(&map_lines(after), "the dependency map");
}

#[test]
fn rooms_use_only_the_rooms_their_map_allows() {
    let doc = std::fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let maps = room_maps(&doc);
    assert!(!maps.is_empty(), "ARCHITECTURE.md has no room map");
    let src = root().join("src");
    for (module, lines) in &maps {
        let allowed: Map = lines.iter().cloned().collect();
        let rooms = folders(&src.join(module));
        let mapped: BTreeSet<String> = allowed.keys().cloned().collect();
        assert_eq!(rooms, mapped, "src/{module}/ folders vs. its room map");
        assert_layered(lines, &format!("the room map of {module}"));
        let violations: Vec<String> = actual_room_map(&src, module, &rooms)
            .into_iter()
            .filter(|((from, to), _)| !allowed.get(from).is_some_and(|deps| deps.contains(to)))
            .map(|((from, to), files)| format!("{module}: {from} -> {to} (in {files:?})"))
            .collect();
        assert!(
            violations.is_empty(),
            "edges the room map of {module} does not allow (move the code, or change the map \
             with a reason):\n  {}",
            violations.join("\n  ")
        );
    }
}

#[test]
fn the_scanner_reads_paths_not_comments_or_strings() {
    let code = code_only(
        "use crate::{a, b::{c, d}, self};\n// crate::comment\nlet s = \"crate::string\";\n\
         let r = r#\"crate::raw\"#; let c = '\"'; fn f<'x>() { crate::e::f(); }",
    );
    assert_eq!(crate_targets(&code), ["a", "b", "e"]);
    let path = ["plan".to_string(), "rules".to_string()];
    assert_eq!(super_targets("super::super::exec::x", &path), ["exec"]);
    assert!(super_targets("super::columns", &path).is_empty());
    let nested = "mod tests { use super::super::columns; use super::super::super::exec; }";
    assert_eq!(super_targets(nested, &path), ["exec"]);
    // rooms: paths from the module (`crate::parseval::`) and `super::` chains that climb to it
    let path = ["parseval", "verdict", "decide"].map(String::from);
    let code = "use super::super::search::x; use super::evidence; use crate::parseval::{options, \
                symbolic::values};";
    assert_eq!(super_targets_at(code, &path, 1), ["search"]);
    assert_eq!(
        targets_after(code, "crate::parseval::"),
        ["options", "symbolic"]
    );
    let names = reexports("pub use verdict::decide::{decide_cached, Decision as D};");
    assert_eq!(
        names.get("decide_cached").map(String::as_str),
        Some("verdict")
    );
    assert_eq!(names.get("D").map(String::as_str), Some("verdict"));
}
