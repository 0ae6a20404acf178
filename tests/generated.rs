//! `completions/` and `man/` must match what the clap definition generates, and so must the
//! guide's command reference; the guide's key table must match what the configuration schema
//! generates. Run with `EJCTL_REGENERATE=1` to rewrite them after changing the command line or
//! the schema.

use std::path::Path;

use ejctl::cli::generate::{command_reference, completion_file_name, completion_script, man_pages, shells};

fn check(path: &Path, expected: &[u8], stale: &mut Vec<String>) {
    if std::env::var_os("EJCTL_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, expected).unwrap();
        return;
    }
    if std::fs::read(path).ok().as_deref() != Some(expected) {
        stale.push(path.display().to_string());
    }
}

#[test]
fn completions_and_man_pages_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stale = Vec::new();
    for &shell in shells() {
        check(&root.join("completions").join(completion_file_name(shell)), &completion_script(shell), &mut stale);
    }
    let pages = man_pages().unwrap();
    for (name, page) in &pages {
        check(&root.join("man").join(name), page, &mut stale);
    }
    // No page for a command that no longer exists.
    for entry in std::fs::read_dir(root.join("man")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !pages.iter().any(|(n, _)| *n == name) {
            stale.push(format!("man/{name} (no such command)"));
        }
    }
    assert!(
        stale.is_empty(),
        "generated files are stale: {stale:?}\nregenerate them with `EJCTL_REGENERATE=1 cargo test --test integration generated`"
    );
}

#[test]
fn the_guides_command_reference_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/reference/commands.md");
    let mut stale = Vec::new();
    check(&path, command_reference().as_bytes(), &mut stale);
    assert!(
        stale.is_empty(),
        "docs/src/reference/commands.md is stale: `EJCTL_REGENERATE=1 cargo test --test integration generated` rewrites it"
    );
}

#[test]
fn the_guides_key_table_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/reference/job-file.md");
    let page = std::fs::read_to_string(&path).unwrap();
    let start = page.find("<!-- keys:").expect("the job file reference has a <!-- keys: ... --> marker");
    let start = start + page[start..].find('\n').unwrap() + 1;
    let end = page.find("<!-- /keys -->").expect("the job file reference has a <!-- /keys --> marker");
    let expected = ejctl::config::keys::key_table();
    if std::env::var_os("EJCTL_REGENERATE").is_some() {
        std::fs::write(&path, format!("{}{expected}{}", &page[..start], &page[end..])).unwrap();
        return;
    }
    assert_eq!(
        &page[start..end],
        expected,
        "docs/src/reference/job-file.md's key table is stale: `EJCTL_REGENERATE=1 cargo test --test integration generated` rewrites it"
    );
}
