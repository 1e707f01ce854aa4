//! The app's layers, checked from its source: the crates split keeps the
//! rules engine and the drawing pure (the compiler refuses anything else,
//! and `engine_and_draw_depend_on_nothing_of_ours` reads their manifests),
//! but the app's own modules share one crate, so what may use what inside
//! it is checked here, from every `crate::...` and `super::...` path in
//! `src/`.
//!
//! The rule: a module uses only modules of the layers below its own
//! (`LAYERS`, top first), never one beside it or above; and inside a
//! module, no two of its files use each other, directly or round a
//! longer loop.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The app's modules, top layer first. A module may use those in the
/// layers after its own, nothing else.
const LAYERS: &[&[&str]] = &[
    &["main"],
    &["commands"],
    &["daemon"],
    &["app"],
    &["frontend", "web"],
    &["config"],
    &["game"],
    &["store", "mail", "report", "interchange", "fault"],
];

fn layer_of(module: &str) -> usize {
    LAYERS
        .iter()
        .position(|layer| layer.contains(&module))
        .unwrap_or_else(|| panic!("module `{module}` is in no layer of LAYERS: add it"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/game/tick.rs` → `["game", "tick"]`; `src/frontend/mod.rs` →
/// `["frontend"]`; `src/lib.rs` → `[]`.
fn module_path(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The source without comments and string literals (a path named in a
/// doc comment or a message is not a use).
fn code_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let mut in_string = false;
        let mut prev = ' ';
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if !in_string && c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            } else if !in_string {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// Every path that starts with `crate::` or `super::` in `code`, as its
/// segments, with `use crate::{a::b, c}` groups spread out.
fn paths_in(code: &str) -> Vec<(String, Vec<String>)> {
    let mut found = Vec::new();
    for root in ["crate::", "super::"] {
        let mut rest = code;
        while let Some(at) = rest.find(root) {
            let before = rest[..at].chars().last();
            rest = &rest[at + root.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let kind = root.trim_end_matches("::").to_string();
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let segs = segments(item.trim());
                    if !segs.is_empty() {
                        found.push((kind.clone(), segs));
                    }
                }
            } else {
                found.push((kind, segments(rest)));
            }
        }
    }
    found
}

fn segments(s: &str) -> Vec<String> {
    let mut segs = Vec::new();
    let mut rest = s;
    loop {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            break;
        }
        segs.push(rest[..end].to_string());
        match rest[end..].strip_prefix("::") {
            Some(next) => rest = next,
            None => break,
        }
    }
    segs
}

/// What each file uses: (file's module path, the module path it names).
fn uses() -> Vec<(PathBuf, Vec<String>, Vec<String>)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut all = Vec::new();
    for file in files {
        let me = module_path(&src, &file);
        let text = fs::read_to_string(&file).unwrap();
        // A file's own tests may reach anything.
        let text = text.split("#[cfg(test)]\nmod tests").next().unwrap();
        for (root, segs) in paths_in(&code_only(text)) {
            let target = if root == "crate" {
                segs
            } else {
                // `super::` from a file is its parent module; from `mod.rs`
                // it is the folder's parent.
                let is_mod_rs = file.ends_with("mod.rs");
                let mut base = me.clone();
                base.pop();
                if is_mod_rs {
                    base.pop();
                }
                base.extend(segs);
                base
            };
            all.push((file.clone(), me.clone(), target));
        }
    }
    all
}

#[test]
fn no_module_of_the_app_uses_one_beside_or_above_it() {
    let mut upward = BTreeSet::new();
    for (file, me, target) in uses() {
        let (Some(mine), Some(theirs)) = (me.first(), target.first()) else {
            continue;
        };
        // `crate::engine` and `crate::draw` are the re-exported crates;
        // the root's own items are the re-exports.
        if mine == theirs || matches!(theirs.as_str(), "engine" | "draw") {
            continue;
        }
        if !LAYERS.iter().flat_map(|l| l.iter()).any(|m| m == theirs) {
            continue; // an item of the crate root, not a module
        }
        if layer_of(theirs) <= layer_of(mine) {
            upward.insert(format!(
                "{}: {mine} uses {}",
                file.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                    .unwrap()
                    .display(),
                target.join("::")
            ));
        }
    }
    assert!(
        upward.is_empty(),
        "uses of a module beside or above (see LAYERS):\n{}",
        upward.into_iter().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn no_two_files_of_a_module_use_each_other() {
    // Edges between the files (sub-modules) of one module.
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (_, me, target) in uses() {
        if me.len() < 2 || target.len() < 2 || me[0] != target[0] {
            continue;
        }
        // Compare at the depth of the file: game::tick → game::process.
        let depth = me.len();
        let theirs: Vec<String> = target.iter().take(depth).cloned().collect();
        if theirs.len() == depth && theirs != me && theirs[..depth - 1] == me[..depth - 1] {
            edges.entry(me).or_default().insert(theirs);
        }
    }
    let mut loops = Vec::new();
    for start in edges.keys() {
        // Depth-first from `start`: a way back to it is a loop.
        let mut stack = vec![(start.clone(), vec![start.join("::")])];
        let mut seen = BTreeSet::new();
        while let Some((at, trail)) = stack.pop() {
            for next in edges.get(&at).into_iter().flatten() {
                if next == start {
                    loops.push(format!("{} -> {}", trail.join(" -> "), start.join("::")));
                } else if seen.insert(next.clone()) {
                    let mut longer = trail.clone();
                    longer.push(next.join("::"));
                    stack.push((next.clone(), longer));
                }
            }
        }
    }
    assert!(
        loops.is_empty(),
        "files that use each other:\n{}",
        loops.join("\n")
    );
}

#[test]
fn engine_and_draw_depend_on_nothing_of_ours() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dependencies = |crate_dir: &str| -> Vec<String> {
        let manifest = fs::read_to_string(root.join(crate_dir).join("Cargo.toml")).unwrap();
        let table: toml::Table = manifest.parse().unwrap();
        table
            .get("dependencies")
            .and_then(|d| d.as_table())
            .map(|d| d.keys().cloned().collect())
            .unwrap_or_default()
    };
    assert_eq!(dependencies("crates/engine"), Vec::<String>::new());
    let mut draw = dependencies("crates/draw");
    draw.sort();
    assert_eq!(draw, ["judge-engine", "png", "resvg"]);
}

/// The front end parses, authorises, calls the game and replies: every
/// operation on a game is a function of `game/`, so no file of
/// `src/frontend` names the store or the database's library.
#[test]
fn the_front_end_calls_the_game_never_the_store() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src/frontend"), &mut files);
    let mut found = Vec::new();
    for file in files {
        let text = fs::read_to_string(&file).unwrap();
        let code = code_only(text.split("#[cfg(test)]\nmod tests").next().unwrap());
        for (number, line) in code.lines().enumerate() {
            let names_one = ["store::", "rusqlite"].iter().any(|name| {
                line.match_indices(name).any(|(at, _)| {
                    !line[..at]
                        .chars()
                        .last()
                        .is_some_and(|c| c.is_alphanumeric() || c == '_')
                })
            });
            if names_one {
                let shown = file.strip_prefix(root).unwrap().display();
                found.push(format!("{shown}:{}: {}", number + 1, line.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} lines of src/frontend name the store (call a function of game/ instead):\n{}",
        found.len(),
        found.join("\n")
    );
}
