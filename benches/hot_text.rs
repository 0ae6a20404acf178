//! The code `ejctl run` executes, gathered into one block (`build.rs`): regenerates its list,
//! `link/hot-text.ld`, and measures what the block saves.
//!
//! * Runs `ejctl run` under valgrind's callgrind, on the embedded registry and on ZooKeeper (a
//!   server the test support starts), each with a cron script job firing every second, a one-off
//!   job and an `[instance]` table, for `--secs` seconds, then stops it with SIGINT.
//! * Lists the functions of `ejctl` they executed, as linker-script patterns. Symbol hashes, crate
//!   disambiguators and LLVM's clone suffixes become wildcards: they change with the build's
//!   metadata (a `cargo bench` build and a `cargo build --release` differ in features), the
//!   names do not.
//! * With `--write`, rewrites `link/hot-text.ld`; a release build then links it.
//! * Profiling needs a build without the block (`EJCTL_HOT_TEXT=off`): valgrind names no
//!   function inside it. On a build with the block, only the measurements below run. Valgrind
//!   does not implement `pidfd_open`, so a run's end is awaited by the fallback there (`SIGCHLD`)
//!   and the pidfd wait is not listed: its first use faults in a page or two outside the block.
//! * Measures the binary this run built: the size of the hot block, and an idle worker with one
//!   one-off job: its RSS, how much of it is the binary's code, and the anonymous memory.
//!
//! `cargo bench --bench hot_text [-- --json]` measures;
//! `EJCTL_HOT_TEXT=off cargo bench --bench hot_text -- --write [--secs 20]` regenerates the list
//! (then rebuild without the variable). Profiling needs valgrind
//! (`apt-get install -y --no-install-recommends valgrind`).

// A benchmark reports on stdout and its progress on stderr.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::json;
use support::ZkServer;
use support::link::{HOT_SECTION, hot_text_script, listed_patterns, section};

const EJCTL: &str = env!("CARGO_BIN_EXE_ejctl");

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|a| a == "--write");
    let as_json = args.iter().any(|a| a == "--json");
    let secs: u64 = support::bench_arg("--secs", 20);
    let hot = section(Path::new(EJCTL), HOT_SECTION).map(|(_, size)| size);
    let text = section(Path::new(EJCTL), ".text").map(|(_, size)| size);
    let dir = tempfile::tempdir()?;
    let profile = if hot.is_some() {
        if write {
            bail!(
                "this build gathers the hot code already, and valgrind names no function in it: run with EJCTL_HOT_TEXT=off"
            );
        }
        None
    } else {
        Some(profile(dir.path(), secs, write)?)
    };
    let idle = idle_worker(dir.path())?;
    let mb = |kib: u64| kib as f64 / 1024.0;
    if as_json {
        let figures = json!({
            "profile": profile.as_ref().map(|p| json!({
                "executed_functions": p.functions,
                "patterns": p.patterns,
                "executed_but_not_listed": p.unlisted,
                "written": write,
            })),
            "hot_block_bytes": hot,
            "other_text_bytes": text,
            "idle_one_job": {"rss_kib": idle.rss, "code_kib": idle.code, "anon_kib": idle.anon},
        });
        println!("{}", serde_json::to_string_pretty(&figures)?);
    } else {
        println!("The code `ejctl run` executes, gathered into one block (link/hot-text.ld)");
        match &profile {
            Some(p) => {
                println!("  executed functions of ejctl      {:>8}  ({} patterns)", p.functions, p.patterns);
                println!("  executed, not in the list        {:>8}  (before --write, if given)", p.unlisted);
            }
            None => println!("  (no profile: this build has the block; EJCTL_HOT_TEXT=off profiles)"),
        }
        let size = |b: Option<u64>| b.map_or("-".to_string(), |b| format!("{:.1} MB", b as f64 / 1048576.0));
        println!("  hot block in this build          {:>8}  (rest of the code {})", size(hot), size(text));
        println!(
            "  idle worker, one job: RSS {:.1} MB, of which the binary's code {:.1} MB, anonymous {:.1} MB",
            mb(idle.rss),
            mb(idle.code),
            mb(idle.anon)
        );
    }
    Ok(())
}

/// What the profile found.
struct Profile {
    functions: usize,
    patterns: usize,
    unlisted: usize,
}

/// Runs `ejctl run` under callgrind on both registries; compares what it executed with the list
/// and, with `write`, rewrites the list.
fn profile(dir: &Path, secs: u64, write: bool) -> Result<Profile> {
    if Command::new("valgrind").arg("--version").output().is_err() {
        bail!("valgrind is missing: apt-get install -y --no-install-recommends valgrind");
    }
    let server = ZkServer::start();
    let mut names = BTreeSet::new();
    for (label, registry) in [("embedded", None), ("zookeeper", Some(&server))] {
        eprintln!("callgrind: ejctl run on the {label} registry for {secs} s");
        names.extend(executed(dir, label, registry, Duration::from_secs(secs))?);
    }
    let patterns: BTreeSet<String> = names.iter().filter_map(|n| pattern(n)).collect();
    let file = hot_text_script();
    let listed = std::fs::read_to_string(&file).map(|text| listed_patterns(&text)).unwrap_or_default();
    let unlisted = patterns.difference(&listed).count();
    if write {
        std::fs::write(&file, script(&patterns))?;
        eprintln!("wrote {} patterns to {}", patterns.len(), file.display());
    }
    Ok(Profile { functions: names.len(), patterns: patterns.len(), unlisted })
}

/// The job file: a cron script job, a one-off job, the instance table, and the registry table
/// when on ZooKeeper.
fn job_file(dir: &Path, label: &str, registry: Option<&ZkServer>) -> Result<PathBuf> {
    let mut text = String::from("[instance]\nshutdown_timeout_seconds = 10\n\n");
    if let Some(server) = registry {
        text.push_str(&format!(
            "[registry]\nservers = \"{}\"\nnamespace = \"{}\"\n\n",
            server.connect_string(),
            support::unique_ns("hot-text")
        ));
    }
    text.push_str(
        "[[job]]\nname = \"every-second\"\ncron = \"* * * * * ?\"\nsharding_total_count = 2\n\
         command = \"/bin/true\"\n\n[[job]]\nname = \"once\"\nsharding_total_count = 1\ncommand = \"/bin/true\"\n",
    );
    let file = dir.join(format!("{label}.toml"));
    std::fs::write(&file, text)?;
    Ok(file)
}

/// The names of the functions in `ejctl` that `ejctl run` executed, from callgrind's output.
fn executed(dir: &Path, label: &str, registry: Option<&ZkServer>, run_for: Duration) -> Result<BTreeSet<String>> {
    let file = job_file(dir, label, registry)?;
    let out = dir.join(format!("callgrind.{label}"));
    let mut child = Command::new("valgrind")
        .arg("--tool=callgrind")
        .arg("--demangle=no")
        .arg(format!("--callgrind-out-file={}", out.display()))
        .arg(EJCTL)
        .arg("run")
        .arg(&file)
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting valgrind")?;
    std::thread::sleep(run_for);
    support::signal(child.id(), "INT");
    // The exit code does not matter: callgrind writes its file as the program exits.
    support::wait_exit(&mut child, Duration::from_secs(120));
    let text = std::fs::read_to_string(&out).with_context(|| format!("reading {}", out.display()))?;
    Ok(functions_of(&text, EJCTL))
}

/// The functions callgrind's output attributes to the object `binary`: `fn=` lines under an
/// `ob=` of it, and `cfn=` lines under a `cob=` of it (or, without one, the current `ob=`).
/// Names and objects are compressed: `(id) name` the first time, `(id)` after.
fn functions_of(text: &str, binary: &str) -> BTreeSet<String> {
    let mut objects: BTreeMap<String, String> = BTreeMap::new();
    let mut functions: BTreeMap<String, String> = BTreeMap::new();
    let (mut ob, mut cob): (Option<String>, Option<String>) = (None, None);
    let mut names = BTreeSet::new();
    for line in text.lines() {
        let Some((key, rest)) = line.split_once('=') else { continue };
        let Some(rest) = rest.strip_prefix('(') else { continue };
        let Some((id, name)) = rest.split_once(')') else { continue };
        let name = name.strip_prefix(' ');
        match key {
            "ob" | "cob" => {
                if let Some(name) = name {
                    objects.insert(id.to_string(), name.to_string());
                }
                let object = objects.get(id).cloned();
                if key == "ob" {
                    (ob, cob) = (object, None);
                } else {
                    cob = object;
                }
            }
            "fn" | "cfn" => {
                if let Some(name) = name {
                    functions.insert(id.to_string(), name.to_string());
                }
                let object = if key == "fn" { ob.as_deref() } else { cob.as_deref().or(ob.as_deref()) };
                if object == Some(binary)
                    && let Some(function) = functions.get(id)
                {
                    names.insert(function.clone());
                }
                if key == "cfn" {
                    cob = None;
                }
            }
            _ => {}
        }
    }
    names
}

/// A symbol as a section-name pattern that survives a rebuild with other metadata, or `None`
/// for what no section is named after (an address, a name with a space).
fn pattern(name: &str) -> Option<String> {
    // Callgrind's recursion depth (`name'2`), then LLVM's clones and local copies
    // (`name.1234`, `name.llvm.5678`).
    let mut name =
        name.rsplit_once('\'').filter(|(_, depth)| depth.parse::<u32>().is_ok()).map_or(name, |(head, _)| head);
    if name.starts_with("0x") || name.is_empty() || name.contains(|c: char| c.is_whitespace() || "()\",;*'".contains(c))
    {
        return None;
    }
    while let Some((head, tail)) = name.rsplit_once('.') {
        if tail.chars().all(|c| c.is_ascii_digit()) || tail == "llvm" {
            name = head;
        } else {
            break;
        }
    }
    // Legacy mangling ends with `17h` and a 16-digit hash, then `E`.
    if name.starts_with("_ZN")
        && let Some(head) = name.strip_suffix('E')
        && head.len() > 19
        && head.is_char_boundary(head.len() - 19)
        && head[head.len() - 19..].starts_with("17h")
        && head[head.len() - 16..].chars().all(|c| c.is_ascii_hexdigit())
    {
        return Some(format!("{}*", &head[..head.len() - 19]));
    }
    // v0 mangling names each crate with a disambiguator, `Cs<base-62>_`.
    if name.starts_with("_R") {
        let mut out = String::new();
        let mut rest = name;
        while let Some(at) = rest.find("Cs") {
            out.push_str(&rest[..at + 2]);
            rest = &rest[at + 2..];
            let len = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
            if rest[len..].starts_with('_') {
                out.push('*');
                rest = &rest[len..];
            }
        }
        out.push_str(rest);
        return Some(out);
    }
    Some(name.to_string())
}

/// The linker script: one output section of every pattern, in any of the section names LLVM
/// gives a function (`.text.`, and `.text.unlikely.` and the like for what it deems cold, hot or
/// start-up code), inserted before the rest of the code.
fn script(patterns: &BTreeSet<String>) -> String {
    let mut out = String::from(
        "/* The functions `ejctl run` executes, gathered into one block ahead of the rest of the code\n   \
         (see build.rs). Generated by `cargo bench --bench hot_text -- --write`. */\n\
         SECTIONS {\n",
    );
    out.push_str(&format!("  {HOT_SECTION} : {{\n"));
    for p in patterns {
        out.push_str(&format!("    *(.text.{p} .text.unlikely.{p} .text.hot.{p} .text.startup.{p})\n"));
    }
    out.push_str("  }\n} INSERT BEFORE .text;\n");
    out
}

/// What an idle worker holds.
struct Idle {
    rss: u64,
    code: u64,
    anon: u64,
}

/// An idle `ejctl run` with one one-off job on the embedded registry (the density benchmark's
/// one-job case), measured after 5 s.
fn idle_worker(dir: &Path) -> Result<Idle> {
    let file = dir.join("idle.toml");
    std::fs::write(&file, "[[job]]\nname = \"d0\"\nsharding_total_count = 3\ncommand = \"/bin/true\"\n")?;
    let mut child = Command::new(EJCTL)
        .arg("run")
        .arg(&file)
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()?;
    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(5));
    let pid = child.id();
    let (rss, anon) = (support::status_kib(pid, "VmRSS"), support::status_kib(pid, "RssAnon"));
    let smaps = std::fs::read_to_string(format!("/proc/{pid}/smaps"))?;
    support::signal(pid, "INT");
    support::wait_exit(&mut child, Duration::from_secs(30));
    eprintln!("idle worker measured {:.1} s after its start", started.elapsed().as_secs_f64());
    Ok(Idle { rss: rss.unwrap_or(0), code: code_kib(&smaps, EJCTL), anon: anon.unwrap_or(0) })
}

/// The resident KB of `binary`'s executable mappings in `/proc/PID/smaps`.
fn code_kib(smaps: &str, binary: &str) -> u64 {
    let binary = std::fs::canonicalize(binary).map(|p| p.display().to_string()).unwrap_or_else(|_| binary.to_string());
    let mut in_code = false;
    let mut total = 0;
    for line in smaps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.first().is_some_and(|f| f.contains('-') && f.chars().all(|c| c.is_ascii_hexdigit() || c == '-')) {
            in_code = fields.get(1).is_some_and(|perms| perms.contains('x')) && fields.last() == Some(&binary.as_str());
        } else if in_code && fields.first() == Some(&"Rss:") {
            total += fields.get(1).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
        }
    }
    total
}
