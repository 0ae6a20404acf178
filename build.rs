//! Release builds on Linux (glibc) gather the code `ejctl run` executes into one block.
//!
//! The kernel maps a program's code about 64 KB around each page it faults in. A worker
//! executes a few MB of the 18 MB of code, spread over all of it, so an idle worker used to keep
//! 7.5 MB of code resident. `link/hot-text.ld` lists the functions a worker executes (start-up,
//! the registries, fires) as linker-script patterns; linking them into one output section ahead of
//! the rest of the code keeps about 4 MB resident instead (`cargo bench --bench hot_text` measures
//! it and regenerates the list).
//!
//! The script only orders code: a stale list costs memory, never correctness, and a pattern that
//! matches nothing is ignored. It applies where the default linker of the Rust toolchain is used
//! (GNU ld and LLD both accept a script that `INSERT`s a section); with a linker configured for
//! the target (`RUSTC_LINKER`), such as mold, or with `EJCTL_HOT_TEXT=off`, the build links as
//! before. The list is made from such a build: valgrind names no function in the gathered block.

use std::env;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=link/hot-text.ld");
    println!("cargo:rerun-if-env-changed=EJCTL_HOT_TEXT");
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
}
