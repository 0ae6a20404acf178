//! The shape of the source tree: no import cycles between modules, layers that point one way,
//! and a coordination core without I/O. How long a file is, is a matter for review: files are
//! split by concern, not to stay under a count.
//!
//! A module is one file of `src/`. Module A imports module B when A has a `use` (or a path) that
//! names B through `crate::`, `super::` or `self::`. A module may use its ancestors (a child sees
//! its parent's types: that is how Rust modules nest), so those edges are not counted; any other
//! chain of imports that leads back to where it started is a cycle and fails the test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `src/registry/codec/mod.rs` → `registry::codec`; `src/lib.rs` → ``.
fn module_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib" || p == "main") {
        parts.pop();
    }
    parts.join("::")
}

/// Test-only files (`#[path]` test modules) are part of their parent's tests, not modules.
fn is_test_file(file: &Path) -> bool {
    let name = file.file_name().unwrap().to_string_lossy();
    name.ends_with("_tests.rs") || name == "tests.rs"
}

/// The non-test part of a file.
fn code(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or("")
}

/// The code without comment lines (doc links name modules without importing them).
fn without_comments(code: &str) -> String {
    code.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Every `crate::a::b`, `super::x` and `self::y` path in the code, made absolute.
fn referenced_paths(module: &str, code: &str) -> Vec<Vec<String>> {
    let here: Vec<String> = if module.is_empty() { vec![] } else { module.split("::").map(str::to_string).collect() };
    // `super` in `a/b.rs` and in `a/b/mod.rs` (both module `a::b`) is `a`.
    let mut out = Vec::new();
    for (prefix, base) in
        [("crate::", Vec::new()), ("super::", here[..here.len().saturating_sub(1)].to_vec()), ("self::", here.clone())]
    {
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            let before = rest[..i].chars().last();
            rest = &rest[i + prefix.len()..];
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut path = base.clone();
            let mut tail = rest;
            loop {
                if tail.starts_with('{') {
                    // A group: each member may be a module.
                    let close = tail.find('}').unwrap_or(tail.len());
                    for member in tail[1..close].split(',') {
                        let name: String =
                            member.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                        if !name.is_empty() && name != "self" {
                            let mut p = path.clone();
                            p.push(name);
                            out.push(p);
                        }
                    }
                    break;
                }
                let end = tail.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(tail.len());
                if end == 0 {
                    break;
                }
                path.push(tail[..end].to_string());
                tail = &tail[end..];
                match tail.strip_prefix("::") {
                    Some(t) => tail = t,
                    None => break,
                }
            }
            out.push(path);
        }
    }
    out
}

/// Every module of `src/` (test files left out) and the modules each imports, its ancestors left
/// out.
fn import_graph() -> (BTreeSet<String>, BTreeMap<String, BTreeSet<String>>) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|f| !is_test_file(f));
    let modules: BTreeMap<String, PathBuf> = files.iter().map(|f| (module_of(&src, f), f.clone())).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        for path in referenced_paths(module, &without_comments(code(&text))) {
            // The longest prefix that is a module.
            let target = (1..=path.len()).rev().map(|n| path[..n].join("::")).find(|m| modules.contains_key(m));
            let Some(target) = target else { continue };
            let ancestor = module == &target || module.starts_with(&format!("{target}::")) || target.is_empty();
            if !ancestor {
                edges.entry(module.clone()).or_default().insert(target);
            }
        }
    }
    (modules.into_keys().collect(), edges)
}

/// The first cycle through each strongly connected part of `edges`, as `a → b → a`.
fn cycles(nodes: &BTreeSet<String>, edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    // Depth-first search for a cycle, reporting it.
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for next in edges.get(m).into_iter().flatten() {
            match state.get(next.as_str()).copied().unwrap_or(0) {
                0 => visit(next, edges, state, stack, cycles),
                1 => {
                    let start = stack.iter().position(|s| s == next).unwrap_or(0);
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    cycles.push(cycle.join(" → "));
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
    }
    let mut state = BTreeMap::new();
    let mut found = Vec::new();
    for m in nodes {
        if state.get(m.as_str()).copied().unwrap_or(0) == 0 {
            visit(m, edges, &mut state, &mut Vec::new(), &mut found);
        }
    }
    found
}

#[test]
fn no_import_cycles_between_modules() {
    let (modules, edges) = import_graph();
    let found = cycles(&modules, &edges);
    assert!(found.is_empty(), "import cycles between modules:\n{}", found.join("\n"));
}

/// The top-level modules in layers, lowest first, as the crate doc's map (src/lib.rs) lists
/// them: a module imports from its own layer or those below, never from a layer above.
const LAYERS: &[&[&str]] = &[
    &["sync", "task", "queue", "files", "clock", "schedule", "retry"],
    &["config"],
    &["registry"],
    &["exec", "listener", "notify", "trace"],
    &["coord"],
    &["jobfile"],
    &["ops"],
    &["exit"],
    &["runtime"],
    &["cli"],
];

/// A module's top-level module: `registry::codec` → `registry`.
fn top(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

#[test]
fn top_level_modules_import_downwards_only_and_have_no_cycles() {
    let (modules, edges) = import_graph();
    let layer = |m: &str| LAYERS.iter().position(|l| l.contains(&top(m)));
    let tops: BTreeSet<String> = modules.iter().map(|m| top(m).to_string()).filter(|m| !m.is_empty()).collect();
    let unplaced: Vec<&String> = tops.iter().filter(|m| layer(m).is_none()).collect();
    assert!(unplaced.is_empty(), "top-level modules missing from LAYERS: {unplaced:?}");
    let mut upward = Vec::new();
    let mut top_edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, targets) in &edges {
        for to in targets.iter().filter(|to| top(to) != top(from) && !top(from).is_empty()) {
            top_edges.entry(top(from).to_string()).or_default().insert(top(to).to_string());
            if layer(to) > layer(from) {
                upward.push(format!("{from} → {to}"));
            }
        }
    }
    let found = cycles(&tops, &top_edges);
    assert!(found.is_empty(), "import cycles between top-level modules:\n{}", found.join("\n"));
    assert!(upward.is_empty(), "imports from a layer above (see LAYERS):\n{}", upward.join("\n"));
}

/// What `coord` may not name outside its tests: it decides from the inputs it is given (the time
/// and random bits included) and does nothing itself, so that every decision is a table test.
const COORD_FORBIDDEN: &[&str] = &[
    "tokio",
    "::now(",
    "std::fs",
    "std::net",
    "std::process",
    "std::env",
    "std::thread",
    "RandomState",
    "Jitter",
    "&Registry",
    "Registry::",
    "TreeCache",
    ".await",
];

#[test]
fn coord_reads_no_clock_draws_no_random_number_and_does_no_io() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src.join("coord"), &mut files);
    let mut found = Vec::new();
    for file in files.iter().filter(|f| !is_test_file(f)) {
        let text = std::fs::read_to_string(file).unwrap();
        let code = without_comments(code(&text));
        for word in COORD_FORBIDDEN.iter().filter(|w| code.contains(**w)) {
            found.push(format!("{}: {word}", file.strip_prefix(&src).unwrap().display()));
        }
    }
    assert!(found.is_empty(), "coord must stay free of I/O, clocks and randomness:\n{}", found.join("\n"));
}

#[test]
fn the_crate_doc_maps_every_top_level_module() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let map: String = lib.lines().filter(|l| l.starts_with("//!")).collect::<Vec<_>>().join("\n");
    let missing: Vec<&str> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod ")))
        .map(|m| m.trim_end_matches(';'))
        .filter(|m| ["* [`{}`]", "* `{}`", ". [`{}`]"].iter().all(|f| !map.contains(&f.replace("{}", m))))
        .collect();
    assert!(missing.is_empty(), "modules without a line in the crate doc's layout map (src/lib.rs): {missing:?}");
}
