//! The guide in `docs/` (an mdBook), kept whole: every page is in its table of contents
//! (`docs/src/SUMMARY.md`) and every entry of the table is a page; every relative link of the
//! guide and of the README reaches a file, and a `#anchor` a heading of that page, with anchors
//! made as mdBook makes them; every citation of a page in the code (a `docs/src/` path ending in
//! `.md`, maybe with an anchor, in `src/`, `tests/`, `benches/`, `examples/` and `.ci/`) names a
//! page and a heading that exist; and no file cites the design notes the guide replaced.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn guide() -> PathBuf {
    root().join("docs/src")
}

/// Every file under `dir`, recursively, sorted; `skip` names directories left out (build output).
fn files(dir: &Path, skip: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if !skip.iter().any(|s| path.file_name().is_some_and(|n| n == *s)) {
                    stack.push(path);
                }
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The guide's pages: every `.md` file under `docs/src`.
fn pages() -> Vec<PathBuf> {
    files(&guide(), &[]).into_iter().filter(|p| p.extension().is_some_and(|e| e == "md")).collect()
}

/// A path relative to the repository root, for messages.
fn shown(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// `a/b/../c` without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The lines of a Markdown text outside fenced code blocks, with their 1-based numbers.
fn prose(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The anchor mdBook gives a heading: its text lowercased, alphanumerics, `-` and `_` kept,
/// whitespace turned into `-`, everything else dropped.
fn anchor(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else if c.is_whitespace() {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

/// A heading's text as mdBook renders it: code spans and emphasis markers dropped, a link
/// reduced to its text.
fn heading_text(markdown: &str) -> String {
    let mut out = String::new();
    let mut rest = markdown;
    while let Some(c) = rest.chars().next() {
        if c == '['
            && let Some(close) = rest.find("](")
            && let Some(end) = rest[close..].find(')')
        {
            out.push_str(&heading_text(&rest[1..close]));
            rest = &rest[close + end + 1..];
            continue;
        }
        if c != '`' && c != '*' {
            out.push(c);
        }
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// The anchors of a page's headings, in order, with duplicates numbered as mdBook numbers them
/// (`-1`, `-2`, ...).
fn anchors(text: &str) -> Vec<String> {
    let mut used = BTreeSet::new();
    let mut out = Vec::new();
    for (_, line) in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let id = anchor(&heading_text(line[hashes..].trim().trim_end_matches('#')));
        let mut unique = id.clone();
        let mut n = 1;
        while !used.insert(unique.clone()) {
            unique = format!("{id}-{n}");
            n += 1;
        }
        out.push(unique);
    }
    out
}

/// The targets of a Markdown text's inline links (`[text](target)`, the text maybe over several
/// lines), with the line numbers of their targets; links inside code (fenced blocks and code
/// spans) are not links.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_span = false;
    // The text since the last `[` of the paragraph's earlier lines that no link closed yet.
    let mut open = String::new();
    for (number, line) in prose(text) {
        if line.trim().is_empty() {
            in_span = false; // a code span or a link text does not outlive its paragraph
            open.clear();
            continue;
        }
        let mut outside = std::mem::take(&mut open);
        for (i, part) in line.split('`').enumerate() {
            if i > 0 {
                in_span = !in_span;
            }
            if !in_span {
                outside.push_str(part);
            }
            outside.push(' ');
        }
        let mut rest = outside.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            if rest[..at].contains('[') {
                let target = after[..end].split_whitespace().next().unwrap_or_default();
                out.push((number, target.to_string()));
            }
            rest = &after[end..];
        }
        if let Some(at) = rest.rfind('[')
            && !rest[at..].contains(']')
        {
            open = rest[at..].to_string();
        }
    }
    out
}

/// What is wrong with `target`, a link or citation made from `from` (the directory it is
/// relative to); `None` when it resolves.
fn broken(from: &Path, target: &str) -> Option<String> {
    if target.starts_with("http://") || target.starts_with("https://") || target.starts_with("mailto:") {
        return None;
    }
    let (file, fragment) = match target.split_once('#') {
        Some((file, fragment)) => (file, Some(fragment)),
        None => (target, None),
    };
    let path = if file.is_empty() { from.to_path_buf() } else { normalize(&from.join(file)) };
    if !path.exists() {
        return Some(format!("`{target}`: no such file {}", shown(&path)));
    }
    let fragment = fragment?;
    if path.extension().is_none_or(|e| e != "md") {
        return Some(format!("`{target}`: an anchor into {}, which is not a page", shown(&path)));
    }
    let known = anchors(&std::fs::read_to_string(&path).unwrap());
    if known.iter().any(|a| a == fragment) {
        None
    } else {
        Some(format!(
            "`{target}`: {} has no heading with the anchor #{fragment} (its anchors: {known:?})",
            shown(&path)
        ))
    }
}

#[test]
fn every_page_is_in_the_table_of_contents() {
    let summary_path = guide().join("SUMMARY.md");
    let summary = std::fs::read_to_string(&summary_path).unwrap();
    let mut problems = Vec::new();
    let mut listed = BTreeSet::new();
    for (line, target) in links(&summary) {
        let path = normalize(&guide().join(&target));
        if !path.is_file() {
            problems.push(format!("docs/src/SUMMARY.md:{line}: `{target}` is listed but there is no such page"));
        }
        listed.insert(path);
    }
    for page in pages() {
        if page != summary_path && !listed.contains(&page) {
            problems.push(format!("{}: not listed in docs/src/SUMMARY.md", shown(&page)));
        }
    }
    assert!(listed.len() > 20, "docs/src/SUMMARY.md lists only {} pages", listed.len());
    assert!(problems.is_empty(), "the guide's table of contents:\n{}", problems.join("\n"));
}

#[test]
fn every_link_of_the_guide_and_the_readme_resolves() {
    let mut sources = pages();
    sources.push(root().join("README.md"));
    let mut problems = Vec::new();
    let mut checked = 0;
    for source in &sources {
        let text = std::fs::read_to_string(source).unwrap();
        let from = if source.ends_with("README.md") { root().to_path_buf() } else { source.parent().unwrap().into() };
        for (line, target) in links(&text) {
            // A bare `#anchor` is an anchor into the page itself.
            let from = if target.starts_with('#') { source.clone() } else { from.clone() };
            checked += 1;
            if let Some(problem) = broken(&from, &target) {
                problems.push(format!("{}:{line}: {problem}", shown(source)));
            }
        }
    }
    assert!(checked > 100, "only {checked} links found: is the link scanner broken?");
    assert!(problems.is_empty(), "broken links:\n{}", problems.join("\n"));
}

/// The citations of guide pages in a text: `docs/src/` paths ending in `.md`, with the anchor
/// that follows them, if any, and their line numbers.
fn citations(text: &str) -> Vec<(usize, String)> {
    const NEEDLE: &str = "docs/src/";
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let anchor_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(at) = rest.find(NEEDLE) {
            let tail = &rest[at + NEEDLE.len()..];
            let candidate: String = tail.chars().take_while(|&c| path_char(c)).collect();
            rest = &tail[candidate.len()..];
            let Some(md) = candidate.find(".md") else { continue };
            let page = &candidate[..md + 3];
            let mut cited = format!("{NEEDLE}{page}");
            if candidate.len() == page.len()
                && let Some(fragment) = rest.strip_prefix('#')
            {
                let fragment: String = fragment.chars().take_while(|&c| anchor_char(c)).collect();
                if !fragment.is_empty() {
                    cited = format!("{cited}#{fragment}");
                }
            }
            out.push((i + 1, cited));
        }
    }
    out
}

#[test]
fn every_citation_of_the_guide_in_the_code_resolves() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for dir in ["src", "tests", "benches", "examples", ".ci"] {
        for file in files(&root().join(dir), &["target"]) {
            let Ok(text) = std::fs::read_to_string(&file) else { continue }; // not text
            for (line, cited) in citations(&text) {
                checked += 1;
                if let Some(problem) = broken(root(), &cited) {
                    problems.push(format!("{}:{line}: {problem}", shown(&file)));
                }
            }
        }
    }
    assert!(checked > 10, "only {checked} citations of the guide found: is the scanner broken?");
    assert!(problems.is_empty(), "citations of the guide that do not resolve:\n{}", problems.join("\n"));
}

#[test]
fn no_file_cites_the_old_design_notes() {
    // Built here so that this file does not contain what it looks for: the design notes' section
    // sign, whoever cites it (`SPEC`, `reference`, `STYLE` or a bare number).
    let needles = [char::from_u32(0xA7).map(String::from).unwrap_or_default()];
    let mut places: Vec<PathBuf> = ["src", "tests", "benches", "examples", "docs"]
        .iter()
        .flat_map(|dir| files(&root().join(dir), &["target", "book"]))
        .collect();
    places.push(root().join("README.md"));
    let mut problems = Vec::new();
    for file in places {
        let Ok(text) = std::fs::read_to_string(&file) else { continue }; // not text
        for (i, line) in text.lines().enumerate() {
            for needle in &needles {
                if line.contains(needle.as_str()) {
                    problems.push(format!(
                        "{}:{}: cites a section (`{needle}`) of notes outside the repository; cite a page of the guide instead",
                        shown(&file),
                        i + 1
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "citations of documents outside the repository:\n{}", problems.join("\n"));
}

#[test]
fn anchors_are_made_as_mdbook_makes_them() {
    assert_eq!(anchor(&heading_text("Compatibility with ElasticJob 3.0.5")), "compatibility-with-elasticjob-305");
    assert_eq!(anchor(&heading_text("Idle jobs: memory and CPU")), "idle-jobs-memory-and-cpu");
    assert_eq!(anchor(&heading_text("`ejctl why`")), "ejctl-why");
    assert_eq!(anchor(&heading_text("[The guide](docs/src/SUMMARY.md)")), "the-guide");
    assert_eq!(anchors("# A\n## B\n```sh\n# not a heading\n```\n## B\n## B\n"), ["a", "b", "b-1", "b-2"]);
    assert_eq!(
        links("[a](x.md) `[b](y.md)` [c](z.md#w \"title\")\n```\n[d](v.md)\n```\nand [e\nf](u.md)\n\n[g\n\nh](t.md)"),
        [(1, "x.md".to_string()), (1, "z.md#w".to_string()), (6, "u.md".to_string())]
    );
    assert_eq!(
        citations("see docs/src/design/guarantee.md. and (docs/src/cron.md#time-zones), docs/src/{page}"),
        [(1, "docs/src/design/guarantee.md".to_string()), (1, "docs/src/cron.md#time-zones".to_string())]
    );
}
