//! Release builds on Linux (glibc) gather the code `ejctl run` executes into one block.
//!
//! The kernel maps a program's code about 64 KB around each page it faults in. A worker
//! executes a few MB of the code, spread over all of it, so an idle worker used to keep 7.5 MB of
//! code resident (of 18 MB at the time). `link/hot-text.ld` lists the functions a worker executes
//! (start-up, the registries, fires) as linker-script patterns; linking them into one output
//! section ahead of the rest of the code keeps about 4 MB resident instead, 2.7 MB since release
//! builds optimize for size (`cargo bench --bench hot_text` measures it and regenerates the list).
//!
//! The script only orders code: a stale list costs memory, never correctness, and a pattern that
//! matches nothing is ignored. It applies where the default linker of the Rust toolchain is used
//! (GNU ld and LLD both accept a script that `INSERT`s a section); with a linker configured for
//! the target (`RUSTC_LINKER`), such as mold, or with `EJCTL_HOT_TEXT=off`, the build links as
//! before. The list is made from such a build: valgrind names no function in the gathered block.
//!
//! The same builds link a position-dependent executable (`-no-pie`), as Go does by default. In a
//! position-independent one the loader writes the address of every pointer in the binary's
//! read-only tables (1.4 MB of vtables, string tables and callsites) at start, so each process
//! keeps a private copy of all of them; linked at a fixed address they stay pages of the file,
//! shared and read only where used: 1.7 MB less resident in every `ejctl` process, measured. What
//! it gives up is the random placement of the program's own code (libraries, heap, stacks and
//! mappings stay randomized); `EJCTL_PIE=on` builds a position-independent executable again.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=link/hot-text.ld");
    println!("cargo:rerun-if-env-changed=EJCTL_HOT_TEXT");
    println!("cargo:rerun-if-env-changed=EJCTL_PIE");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let release = var("PROFILE") == "release";
    let linux_gnu = var("CARGO_CFG_TARGET_OS") == "linux" && var("CARGO_CFG_TARGET_ENV") == "gnu";
    let default_linker = env::var_os("RUSTC_LINKER").is_none();
    let wanted = var("EJCTL_HOT_TEXT") != "off";
    if release && linux_gnu && default_linker && wanted {
        let script = Path::new(&var("CARGO_MANIFEST_DIR")).join("link").join("hot-text.ld");
        // `-T` and the path as two arguments: a path with a comma would split in `-Wl,`.
        println!("cargo:rustc-link-arg-bins=-T");
        println!("cargo:rustc-link-arg-bins={}", script.display());
    }
    if release && linux_gnu && var("EJCTL_PIE") != "on" {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
