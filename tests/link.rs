//! The release build's linker script, `link/hot-text.ld` (see `build.rs`): GNU ld and the LLD
//! that Rust links with both accept it without a warning, and put a function it names into the
//! gathered block. A C program stands in for `ejctl`, with a function named like a listed one.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::link::{HOT_SECTION, hot_text_script, listed_patterns, section};

/// A symbol the script gathers: a listed legacy-mangled pattern whose name is a C identifier,
/// completed with a hash.
fn listed_symbol() -> String {
    let text = std::fs::read_to_string(hot_text_script()).unwrap();
    listed_patterns(&text)
        .into_iter()
        .filter_map(|p| p.strip_suffix('*').map(str::to_string))
        .find(|p| p.starts_with("_ZN") && p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .map(|p| format!("{p}17h0123456789abcdefE"))
        .expect("no legacy-mangled pattern that is a C identifier in link/hot-text.ld")
}

/// Links the stand-in with the script (and `extra` flags) and returns where the symbol landed:
/// the gathered block's address range and the symbol's address.
fn link(dir: &Path, name: &str, extra: &[&str]) -> (u64, u64, u64) {
    let symbol = listed_symbol();
    let source = dir.join("main.c");
    std::fs::write(
        &source,
        format!("int {symbol}(int x) {{ return x + 1; }}\nint main(int argc, char **argv) {{ (void)argv; return {symbol}(argc) - argc - 1; }}\n"),
    )
    .unwrap();
    let binary = dir.join(name);
    let out = Command::new("cc")
        .args(["-O0", "-ffunction-sections", "-o"])
        .arg(&binary)
        .arg(&source)
        .args(extra)
        .arg("-T")
        .arg(hot_text_script())
        .output()
        .expect("cc (the C toolchain Rust links with) runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{name}: linking with the script failed: {stderr}");
    assert!(stderr.trim().is_empty(), "{name}: the linker warned about the script: {stderr}");
    assert!(Command::new(&binary).status().unwrap().success(), "{name}: the linked program does not run");
    let (start, size) = section(&binary, HOT_SECTION)
        .unwrap_or_else(|| panic!("{name}: no {HOT_SECTION} section in the linked program"));
    let symbols = String::from_utf8(Command::new("nm").arg(&binary).output().unwrap().stdout).unwrap();
    let at = symbols
        .lines()
        .find_map(|l| {
            l.ends_with(&symbol).then(|| u64::from_str_radix(l.split_whitespace().next()?, 16).ok()).flatten()
        })
        .unwrap_or_else(|| panic!("{name}: {symbol} not in the symbol table"));
    (start, start + size, at)
}

#[test]
fn gnu_ld_gathers_a_listed_function() {
    let dir = tempfile::tempdir().unwrap();
    let (start, end, at) = link(dir.path(), "gnu-ld", &[]);
    assert!((start..end).contains(&at), "GNU ld placed the listed function at {at:#x}, outside {start:#x}..{end:#x}");
}

#[test]
fn rust_lld_gathers_a_listed_function() {
    // `<sysroot>/lib/rustlib/<host>/lib`; the wrapper that runs `rust-lld` as `ld.lld` is in
    // `../bin/gcc-ld`.
    let libdir = Command::new("rustc").args(["--print", "target-libdir"]).output().expect("rustc runs");
    let libdir = PathBuf::from(String::from_utf8(libdir.stdout).unwrap().trim());
    let gcc_ld = libdir.parent().unwrap().join("bin/gcc-ld");
    assert!(gcc_ld.join("ld.lld").exists(), "Rust's LLD wrapper is missing at {}", gcc_ld.display());
    let dir = tempfile::tempdir().unwrap();
    let b = format!("-B{}", gcc_ld.display());
    let (start, end, at) = link(dir.path(), "rust-lld", &[&b, "-fuse-ld=lld"]);
    assert!((start..end).contains(&at), "LLD placed the listed function at {at:#x}, outside {start:#x}..{end:#x}");
}
