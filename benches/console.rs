//! `ejctl console` over a namespace of 5,000 jobs on a real ZooKeeper:
//!
//! * first load: the console's first read (watch registered, whole tree read) and its first
//!   frame of the jobs view, in process;
//! * key press → frame: the model's key handling and a 120×40 frame (rows built for the screen
//!   only), p50 and p99 over a mix of moves, pages, filtering and drilling in;
//! * freshness: a node written by another session → the real binary shows it in a tmux pane
//!   (polled every 5 ms), p50 and max, for changes 300 ms apart;
//! * memory: the real binary's resident set once it shows the 5,000 jobs.
//!
//! `cargo bench --bench console [-- --jobs 5000 --keys 300 --changes 10 --json]`

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/support/mod.rs"]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use chrono::Utc;
use ejctl::cli::console::data::Data;
use ejctl::cli::console::model::{App, Link};
use ejctl::cli::console::render::Theme;
use ejctl::cli::console::{Size, frame_text};
use ejctl::registry::cache::TreeCache;
use ejctl::registry::{Mode, Registry};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn tmux(socket: &str, args: &[&str]) -> String {
    match Command::new("tmux").arg("-L").arg(socket).args(args).output() {
        Ok(out) => String::from_utf8_lossy(&out.stdout).into_owned(),
        Err(_) => String::new(),
    }
}

fn wait_screen(socket: &str, secs: u64, check: impl Fn(&str) -> bool) -> anyhow::Result<Duration> {
    let started = Instant::now();
    loop {
        let screen = tmux(socket, &["capture-pane", "-p", "-t", "0"]);
        if check(&screen) {
            return Ok(started.elapsed());
        }
        anyhow::ensure!(started.elapsed() < Duration::from_secs(secs), "timed out; the screen:\n{screen}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A memory figure of the console's process in MB: `RssAnon` (its own cost, without the shared
/// code pages) or `VmRSS`.
fn memory_mb(pid: &str, field: &str) -> f64 {
    let kib = pid.parse().ok().and_then(|pid| support::status_kib(pid, field)).unwrap_or(0);
    kib as f64 / 1024.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let json = std::env::args().any(|a| a == "--json");
    let jobs = support::bench_arg("--jobs", 5000);
    let presses = support::bench_arg("--keys", 300);
    let changes = support::bench_arg("--changes", 10);
    let server = support::zk::ZkServer::start();
    let ns = "bench-console";
    let registry = Registry::connect(support::zk_options(&server.connect_string(), ns)).await?;
    support::seed_jobs(&registry, jobs, Mode::Persistent).await;

    // First load, in process: what the console does before its first frame.
    let started = Instant::now();
    let cache = TreeCache::start(registry.clone(), "/", |_| false).await?;
    let read = started.elapsed();
    let nodes = cache.read().contents();
    let node_count = nodes.len();
    let data = Data::load(nodes, Utc::now());
    let mut app = App::new(ns, None, false, "--readonly");
    app.link = Link::Connected;
    let size = Size { cols: 120, rows: 40 };
    let frame = frame_text(&mut app, &data, size, Theme { color: true }, Utc::now());
    let first_load = started.elapsed();
    anyhow::ensure!(frame.contains(&format!("jobs [{jobs}]")), "the first frame lacks the jobs:\n{frame}");
    drop(cache);

    // Key press → frame.
    let script: Vec<KeyCode> = [
        KeyCode::Char('j'),
        KeyCode::PageDown,
        KeyCode::Char('j'),
        KeyCode::PageDown,
        KeyCode::Char('k'),
        KeyCode::Char('/'),
        KeyCode::Char('4'),
        KeyCode::Char('2'),
        KeyCode::Enter,
        KeyCode::Enter,
        KeyCode::Esc,
        KeyCode::Esc,
        KeyCode::Char('G'),
        KeyCode::Char('g'),
    ]
    .into_iter()
    .cycle()
    .take(presses)
    .collect();
    let mut times = Vec::with_capacity(presses);
    for code in script {
        let t = Instant::now();
        let _ = app.key(KeyEvent::new(code, KeyModifiers::NONE), &data);
        let _ = frame_text(&mut app, &data, size, Theme { color: true }, Utc::now());
        times.push(t.elapsed());
    }
    times.sort();
    let (key_p50, key_p99) = (percentile(&times, 0.5), percentile(&times, 0.99));

    // The real binary in tmux: memory once loaded, then node change → on screen.
    let socket = format!("ejctl-console-bench-{}", std::process::id());
    let command = format!(
        "exec env EJCTL_CONFIG=/nonexistent NO_COLOR=1 {} console --zk {} --namespace {ns}",
        env!("CARGO_BIN_EXE_ejctl"),
        server.connect_string()
    );
    tmux(&socket, &["new-session", "-d", "-x", "120", "-y", "40", &command]);
    let shown = wait_screen(&socket, 120, |s| s.contains(&format!("jobs [{jobs}]")));
    let pid = tmux(&socket, &["list-panes", "-F", "#{pane_pid}"]).trim().to_string();
    let outcome = async {
        let binary_load = shown?;
        std::thread::sleep(Duration::from_millis(500));
        let rss = (memory_mb(&pid, "VmRSS"), memory_mb(&pid, "RssAnon"));
        // Show job0000 alone, then flip its server between DISABLED and ENABLED.
        tmux(&socket, &["send-keys", "-t", "0", "/", "job0000", "Enter"]);
        wait_screen(&socket, 10, |s| s.contains("jobs [1] /job0000"))?;
        let mut fresh = Vec::new();
        for n in 0..changes {
            let to = if n % 2 == 0 { "DISABLED" } else { "OK" };
            let value: &[u8] = if n % 2 == 0 { b"DISABLED" } else { b"ENABLED" };
            // A change on its own, not within the frame interval of the previous one (a burst is
            // drawn once, at most 100 ms after its first change).
            tokio::time::sleep(Duration::from_millis(300)).await;
            let t = Instant::now();
            registry.set("/job0000/servers/10.0.0.1", value, None).await?;
            wait_screen(&socket, 10, |s| {
                s.lines().any(|l| l.contains("job0000") && l.split_whitespace().any(|w| w == to))
            })?;
            fresh.push(t.elapsed());
        }
        fresh.sort();
        anyhow::Ok((binary_load, rss, fresh))
    }
    .await;
    tmux(&socket, &["kill-server"]);
    let (binary_load, rss, fresh) = outcome?;
    let (fresh_p50, fresh_max) = (percentile(&fresh, 0.5), fresh[fresh.len() - 1]);

    if json {
        println!(
            "{}",
            serde_json::json!({
                "bench": "console", "jobs": jobs, "nodes": node_count,
                "first_read_ms": ms(read), "first_frame_ms": ms(first_load),
                "binary_first_screen_ms": ms(binary_load),
                "key_to_frame_ms": {"p50": ms(key_p50), "p99": ms(key_p99), "keys": presses},
                "change_to_screen_ms": {"p50": ms(fresh_p50), "max": ms(fresh_max), "changes": changes},
                "rss_mb": rss.0,
                "anon_mb": rss.1,
            })
        );
    } else {
        println!("ejctl console over {jobs} jobs ({node_count} nodes) on ZooKeeper (loopback)");
        println!("  first read {:.0} ms, first frame after {:.0} ms (in process)", ms(read), ms(first_load));
        println!(
            "  binary in tmux: jobs on screen {:.0} ms after start (process start-up and connect included)",
            ms(binary_load)
        );
        println!(
            "  key press → 120x40 frame   p50 {:.2} ms   p99 {:.2} ms   ({presses} keys)",
            ms(key_p50),
            ms(key_p99)
        );
        println!(
            "  node change → on screen    p50 {:.0} ms    max {:.0} ms   ({changes} changes, screen polled every 5 ms)",
            ms(fresh_p50),
            ms(fresh_max)
        );
        println!("  memory of the console with every job loaded: {:.1} MB anonymous, {:.1} MB resident", rss.1, rss.0);
    }
    Ok(())
}
