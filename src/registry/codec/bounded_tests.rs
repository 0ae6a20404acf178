use std::path::Path;
use std::time::{Duration, Instant};

use super::*;
use crate::config::JobConfig;

fn refused(text: &str) -> String {
    match check(text) {
        Err(reason) => reason,
        Ok(()) => panic!("accepted a text that should be refused: {:.80}", text),
    }
}

#[test]
fn deep_flow_nesting_is_refused_quickly() {
    let text = format!("jobName: j\njobExtraConfigurations: {}{}\n", "[".repeat(50_000), "]".repeat(50_000));
    let start = Instant::now();
    let err = JobConfig::from_yaml(&text).expect_err("refused");
    assert!(start.elapsed() < Duration::from_secs(1));
    assert!(err.reason.contains("nests deeper than 64 levels"), "{err}");
    assert!(refused(&format!("a: {}1{}", "{a: ".repeat(65), "}".repeat(65))).contains("deeper"));
}

#[test]
fn nesting_at_the_limit_is_accepted() {
    check(&format!("a: {}{}", "[".repeat(60), "]".repeat(60))).expect("depth 60 + block");
    check(&format!("a: {}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH))).expect_err("depth 64 under a key");
}

#[test]
fn quoted_closers_cannot_hide_more_than_the_opener_limit() {
    let text = format!("a: {}", "[ \"]\", ".repeat(MAX_FLOW_OPENERS + 1));
    assert!(refused(&text).contains("more than 1024"));
}

#[test]
fn deep_block_nesting_is_refused() {
    let mut text = String::new();
    for depth in 0..40 {
        text.push_str(&format!("{}k{depth}:\n", " ".repeat(depth)));
    }
    assert!(refused(&text).contains("nests deeper"));
    let dashes = format!("a:\n{}x\n", "- ".repeat(70));
    assert!(refused(&dashes).contains("nests deeper"));
    let cr = (0..40).map(|d| format!("{}k{d}:", " ".repeat(d))).collect::<Vec<_>>().join("\r");
    assert!(refused(&cr).contains("nests deeper"));
}

#[test]
fn alias_bombs_are_refused() {
    let big = "x".repeat(50_000);
    let mut text = format!("a: &s {big}\nb: [");
    for _ in 0..8000 {
        text.push_str("*s, ");
    }
    text.push_str("]\n");
    let err = JobConfig::from_yaml(&text).expect_err("refused");
    assert!(err.reason.contains("aliases"), "{err}");
    let many = format!("a: &s x\nb: [{}]\n", vec!["*s"; 101].join(", "));
    assert!(refused(&many).contains("more than 100 aliases"));
    // Billion laughs: ten levels of ten aliases.
    let mut laughs = String::from("l0: &l0 lol\n");
    for level in 1..10 {
        let refs = vec![format!("*l{}", level - 1); 10].join(", ");
        laughs.push_str(&format!("l{level}: &l{level} [{refs}]\n"));
    }
    assert!(refused(&laughs).contains("expand"));
    // A few aliases of a large scalar are within the alias count but not the expansion.
    let wide = format!("a: &s {}\nb: [*s, *s, *s, *s, *s]\n", "y".repeat(100_000));
    assert!(refused(&wide).contains("expand"));
}

#[test]
fn an_anchored_block_list_at_its_keys_indentation_counts_whole() {
    // `a: &s` holds the `- ` entries below it although they are indented as little as `a`.
    let list = "- 1\n".repeat(20_000);
    let bomb = format!("a: &s\n{list}b:\n{}", "- *s\n".repeat(100));
    assert!(refused(&bomb).contains("expand"));
    let inline = format!("a: &s\n{list}b: [{}]\n", vec!["*s"; 100].join(", "));
    assert!(refused(&inline).contains("expand"));
    // The anchored entry of a sequence ends at the next entry: siblings are not counted.
    let entries = format!("a:\n- &s x\n{list}b: [{}]\n", vec!["*s"; 100].join(", "));
    check(&entries).expect("a short anchored entry");
}

#[test]
fn huge_nodes_are_refused() {
    let text = format!("jobName: j\njobParameter: {}\n", "p".repeat(MAX_NODE_BYTES));
    assert!(refused(&text).contains("larger than the limit of 131072 bytes"));
    let err = crate::registry::codec::InstanceInfo::from_yaml(&text, "1.2.3.4@-@1").expect_err("refused");
    assert!(err.to_string().contains("instance 1.2.3.4@-@1"), "{err}");
}

#[test]
fn real_configurations_pass() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut seen = 0;
    for entry in std::fs::read_dir(root.join("tests/data/elasticjob-3.0.5")).expect("fixtures") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "yaml") {
            let text = std::fs::read_to_string(&path).expect("fixture");
            check(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            seen += 1;
        }
    }
    assert!(seen >= 3);
    check(&JobConfig::new("j", 3).to_yaml()).expect("ejctl's own YAML");
    let tagged = "jobName: j\njobExtraConfigurations:\n- !!org.apache.Tracing\n  tracingType: RDB\n  \
                  tracingStorageConfiguration: {a: [1, 2], b: {c: d}}\ncron: 0 */5 * * * ?\n\
                  props:\n  script.command.line: 'echo \"[[\" && echo it''s'\n";
    check(tagged).expect("tagged entries, cron, quoted brackets");
}

#[test]
fn documented_yaml_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src");
    let mut stack = vec![root];
    let mut blocks = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("docs") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(&path).expect("doc");
                for block in text.split("```").skip(1).step_by(2).filter(|b| b.contains("jobName:")) {
                    let body = block.split_once('\n').map_or("", |(_, body)| body);
                    check(body).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    blocks += 1;
                }
            }
        }
    }
    assert!(blocks > 0, "no configuration found in the docs");
}

#[test]
fn unmodelled_keys_are_bounded_in_number_and_size() {
    use crate::registry::codec::yaml::{MAX_UNMODELLED_BYTES, MAX_UNMODELLED_KEYS};
    let keys = |n: usize| format!("jobName: j\n{}", (0..n).map(|k| format!("zKey{k}: {k}\n")).collect::<String>());
    let cfg = JobConfig::from_yaml(&keys(MAX_UNMODELLED_KEYS)).expect("at the limit");
    assert_eq!(cfg.preserved.len(), MAX_UNMODELLED_KEYS);
    assert!(cfg.to_yaml().contains("zKey255: 255\n"));
    let err = JobConfig::from_yaml(&keys(MAX_UNMODELLED_KEYS + 1)).expect_err("one key too many");
    assert!(err.reason.contains("257 keys ejctl does not model, more than the limit of 256"), "{err}");

    let value = |n: usize| format!("jobName: j\nzBig: '{}'\n", "v".repeat(n));
    JobConfig::from_yaml(&value(MAX_UNMODELLED_BYTES - 100)).expect("under the size limit");
    let err = JobConfig::from_yaml(&value(MAX_UNMODELLED_BYTES)).expect_err("over the size limit");
    assert!(err.reason.contains("more than 32768 bytes of keys ejctl does not model"), "{err}");
    // Flow style: the entries are re-serialised, and what that writes counts.
    let flow = format!("{{jobName: j, zBig: '{}'}}", "v".repeat(MAX_UNMODELLED_BYTES));
    let err = JobConfig::from_yaml(&flow).expect_err("re-serialised over the size limit");
    assert!(err.reason.contains("bytes of keys ejctl does not model"), "{err}");
    // An alias-expanded entry is re-serialised (its block names an anchor it does not hold).
    let expanded = format!("jobName: j\nzA: &a '{}'\nzB: [{}]\n", "w".repeat(1000), vec!["*a"; 40].join(", "));
    let err = JobConfig::from_yaml(&expanded).expect_err("expanded over the size limit");
    assert!(err.reason.contains("bytes of keys ejctl does not model"), "{err}");
    let small = "jobName: j\nzA: &a x\nzB: [*a, *a]\n";
    let cfg = JobConfig::from_yaml(small).expect("a small alias");
    assert_eq!(
        cfg.preserved,
        vec![("zA".to_string(), "zA: &a x\n".to_string()), ("zB".to_string(), "zB:\n- x\n- x\n".to_string())]
    );
}
