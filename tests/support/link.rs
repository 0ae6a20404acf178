//! The release build's linker script, `link/hot-text.ld` (see `build.rs`), and the ELF files it
//! shapes: what the `link` tests and the `hot_text` benchmark read.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The output section the script gathers the listed functions into.
pub const HOT_SECTION: &str = ".text.ejctl_hot";

/// The committed script.
pub fn hot_text_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("link/hot-text.ld")
}

/// The patterns a script lists: the first section name of each `*(...)` line, without `.text.`.
pub fn listed_patterns(script: &str) -> BTreeSet<String> {
    script
        .lines()
        .filter_map(|l| l.trim().strip_prefix("*(.text."))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// A section's address and size in an ELF file, from `readelf -SW` (binutils); `None` when the
/// file has no such section or `readelf` cannot run.
pub fn section(binary: &Path, name: &str) -> Option<(u64, u64)> {
    let out = Command::new("readelf").arg("-SW").arg(binary).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // `[Nr] Name Type Address Off Size ...`
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(']').nth(1)?.split_whitespace().collect();
        if fields.first() != Some(&name) {
            return None;
        }
        Some((u64::from_str_radix(fields.get(2)?, 16).ok()?, u64::from_str_radix(fields.get(4)?, 16).ok()?))
    })
}
