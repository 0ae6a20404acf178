//! `ejctl console`: the model driven by key sequences (the writes they would perform, none in
//! read-only mode), frames of every view and state compared with the text files under
//! `tests/data/console/` (`EJCTL_REGENERATE=1` rewrites them), and the real binary in tmux
//! against real ZooKeeper and a real worker.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeZone, Utc};
use ejctl::cli::console::action::{self, Action};
use ejctl::cli::console::data::Data;
use ejctl::cli::console::model::{App, Effect, Link, Mode};
use ejctl::cli::console::render::Theme;
use ejctl::cli::console::{Size, frame_text};
use ejctl::ops::Admin;
use ejctl::registry::Registry;
use ejctl::registry::embedded::EmbeddedStore;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::support::cluster::Cluster;

/// A fixed instant, so frames do not depend on the clock.
fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 25, 10, 0, 0).unwrap()
}

/// The nodes of `n` jobs `job0000`...: every fifth without a live instance (CRASHED), every
/// seventh disabled on its server, each with two items.
fn nodes(n: usize) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut add = |p: String, v: &str| out.push((p, v.as_bytes().to_vec()));
    for i in 0..n {
        let j = format!("/job{i:04}");
        let id = "10.0.0.1@-@42";
        add(j.clone(), "SCRIPT");
        add(
            format!("{j}/config"),
            &format!("jobName: job{i:04}\ncron: 0/10 * * * * ?\nshardingTotalCount: 2\ndescription: job number {i}\n"),
        );
        add(format!("{j}/servers/10.0.0.1"), if i % 7 == 3 { "DISABLED" } else { "ENABLED" });
        if i % 5 != 4 {
            add(format!("{j}/instances/{id}"), "jobInstanceId: 10.0.0.1@-@42\nserverIp: 10.0.0.1\n");
            add(format!("{j}/leader/election/instance"), id);
        }
        for item in 0..2 {
            add(format!("{j}/sharding/{item}/instance"), id);
        }
    }
    out
}

fn data(n: usize) -> Data {
    Data::load(nodes(n), now())
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

/// Keys for a string of characters; `⏎` is Enter, `⎋` Esc, `↓` Down, `⇟` PgDn, `^d` ctrl-d.
fn keys(s: &str) -> Vec<KeyEvent> {
    let mut out = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(match c {
            '⏎' => key(KeyCode::Enter),
            '⎋' => key(KeyCode::Esc),
            '↓' => key(KeyCode::Down),
            '⇟' => key(KeyCode::PageDown),
            '⇥' => key(KeyCode::Tab),
            '^' => KeyEvent::new(KeyCode::Char(chars.next().unwrap()), KeyModifiers::CONTROL),
            c => key(KeyCode::Char(c)),
        });
    }
    out
}

fn app(readonly: bool) -> App {
    let mut app = App::new("demo", Some("prod".into()), readonly, "--readonly");
    app.link = Link::Connected;
    app
}

/// Feeds keys; returns the actions they asked to run.
fn press(app: &mut App, data: &Data, s: &str) -> Vec<Action> {
    let mut actions = Vec::new();
    for k in keys(s) {
        if let Some(Effect::Run(a)) = app.key(k, data) {
            actions.push(a);
        }
    }
    actions
}

#[test]
fn key_sequences_become_the_writes_they_confirm() {
    let d = data(30);
    let jobs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    // Filter, keep it, disable, confirm.
    let mut a = app(false);
    assert_eq!(press(&mut a, &d, "/job0012⏎dy"), vec![Action::Jobs { jobs: jobs(&["job0012"]), enable: false }]);
    // Anything but `y` cancels.
    let mut a = app(false);
    assert_eq!(press(&mut a, &d, "dn"), vec![]);
    assert!(a.flash_now(Instant::now()).unwrap().0.starts_with("cancelled"));
    // Marks: trigger the three marked jobs.
    let mut a = app(false);
    assert_eq!(press(&mut a, &d, "  ↓ ty"), vec![Action::Trigger(jobs(&["job0000", "job0001", "job0003"]))]);
    // Remove needs the count typed: `y` is not enough, `1⏎` is.
    let mut a = app(false);
    assert_eq!(press(&mut a, &d, "j^dy"), vec![]);
    assert_eq!(press(&mut a, &d, "^d1⏎"), vec![Action::Remove(jobs(&["job0001"]))]);
    // More than 10 targets: the count, not `y`.
    let mut a = app(false);
    let marks = " ".repeat(12);
    assert_eq!(press(&mut a, &d, &format!("{marks}sy")), vec![]);
    assert_eq!(press(&mut a, &d, "s12⏎").len(), 1, "the marks stay after a cancel");
    // Drill into a job: items tab disables an item, servers tab disables the job on a server.
    let mut a = app(false);
    assert_eq!(press(&mut a, &d, "⏎↓dy"), vec![Action::Items { job: "job0000".into(), items: vec![1], enable: false }]);
    assert_eq!(
        press(&mut a, &d, "3ey"),
        vec![Action::ServerJob { job: "job0000".into(), ips: vec!["10.0.0.1".into()], enable: true }]
    );
    assert_eq!(press(&mut a, &d, "⎋⎋t"), vec![]);
    assert!(matches!(a.mode, Mode::Confirm { .. }));
    // The servers view: shutdown and remove.
    let mut a = app(false);
    assert_eq!(
        press(&mut a, &d, ":servers⏎sy"),
        vec![Action::ServerShutdown { ips: vec!["10.0.0.1".into()], remove: false }]
    );
    assert_eq!(press(&mut a, &d, "^d1⏎"), vec![Action::ServerShutdown { ips: vec!["10.0.0.1".into()], remove: true }]);
    // Every write's confirmation names the equivalent command.
    assert_eq!(
        Action::Items { job: "a".into(), items: vec![1, 2], enable: false }.commands(),
        vec!["ejctl sharding disable a 1 2".to_string()]
    );
    // `E` edits the selected job's configuration (the loop then asks to confirm the change).
    let mut a = app(false);
    assert_eq!(a.key(key(KeyCode::Down), &d), None);
    assert_eq!(a.key(key(KeyCode::Char('E')), &d), Some(Effect::Edit("job0001".into())));
    let edit = Action::Config {
        job: "job0001".into(),
        version: 3,
        yaml: "jobName: job0001\n".into(),
        changed: vec!["cron: \"0/10 * * * * ?\" → \"0/9 * * * * ?\"".into()],
    };
    a.confirm(edit.clone());
    assert_eq!(press(&mut a, &d, "y"), vec![edit]);
    // `:` completes view and job names with Tab.
    let mut a = app(false);
    press(&mut a, &d, ":se⇥");
    assert_eq!(a.mode, Mode::Command("servers".into()));
    press(&mut a, &d, "⎋:job job001⇥");
    assert_eq!(a.mode, Mode::Command("job job001".into()), "job0010..job0019 share the prefix");
    press(&mut a, &d, "7⇥⏎");
    assert_eq!(a.screen().view.name(), "job job0017 (items)");
    // Unknown views flash; `q` quits.
    let mut a = app(false);
    press(&mut a, &d, ":nope⏎");
    assert!(a.flash_now(Instant::now()).unwrap().1);
    assert_eq!(a.key(key(KeyCode::Char('q')), &d), Some(Effect::Quit));
}

#[test]
fn enter_on_an_item_says_its_health_and_why() {
    // job0004 has no live instance: nothing is due, so its items are not overdue by the wall
    // clock the keys are read at.
    let mut nodes = nodes(5);
    let failed = r#"{"v":1,"instance":"10.0.0.1@-@42","source":"cron","fireMs":1764064790000,"startMs":1764064790000,"endMs":1764064791000,"outcome":"failed","exitCode":2,"message":"exit code 2"}"#;
    nodes.push(("/job0004/sharding/1/result".into(), failed.as_bytes().to_vec()));
    let d = Data::load(nodes, now());
    let mut a = app(false);
    press(&mut a, &d, "↓↓↓↓⏎↓⏎");
    let (text, error) = a.flash_now(Instant::now()).unwrap();
    assert_eq!((text, error), ("item 1: FAILING: exit code 2", true));
    press(&mut a, &d, "k⏎");
    assert_eq!(a.flash_now(Instant::now()).unwrap(), ("item 0: -", false));
}

#[test]
fn no_key_sequence_writes_in_read_only_mode() {
    let d = data(30);
    let alphabet: Vec<KeyEvent> = keys("tdesEDyjk ⏎⎋↓⇟⇥1234:/servers0123456789^dqIG<>?")
        .into_iter()
        .filter(|k| k.code != KeyCode::Char('q') || !k.modifiers.is_empty())
        .collect();
    let mut rng = crate::support::Rng::new(7);
    let mut a = app(true);
    for _ in 0..20_000 {
        let k = alphabet[rng.below(alphabet.len() as u64) as usize];
        match a.key(k, &d) {
            Some(Effect::Run(action)) => panic!("read-only console would run {action:?}"),
            Some(Effect::Edit(job)) => panic!("read-only console would edit {job}"),
            Some(Effect::Quit) | None => {}
        }
    }
    // The same keys in read-write mode do write (the sequence is not trivially inert).
    let mut a = app(false);
    assert!(!press(&mut a, &d, "dy").is_empty());
    let mut a = app(true);
    assert!(press(&mut a, &d, "dy").is_empty());
    assert!(a.flash_now(Instant::now()).unwrap().0.contains("read-only"));
}

#[tokio::test]
async fn the_executor_refuses_writes_when_read_only_or_disconnected() {
    let store = EmbeddedStore::new();
    let registry = Registry::embedded(&store);
    crate::support::seed_jobs(&registry, 2, ejctl::registry::Mode::Persistent).await;
    let admin = Admin::new(registry.clone(), "demo");
    let disable = Action::Jobs { jobs: vec!["job0000".into()], enable: false };
    let server = "/job0000/servers/10.0.0.1";
    for refusal in [action::Refusal::ReadOnly, action::Refusal::Disconnected] {
        let err = action::execute(&admin, &disable, Some(refusal)).await.unwrap_err();
        assert_eq!(err, refusal.reason());
        assert_eq!(registry.get(server).await.unwrap().unwrap().text(), "ENABLED");
    }
    let done = action::execute(&admin, &disable, None).await.unwrap();
    assert_eq!(done, "disable 1 job: 1 change");
    assert_eq!(registry.get(server).await.unwrap().unwrap().text(), "DISABLED");
    let err = action::execute(&admin, &Action::Trigger(vec!["nope".into()]), None).await.unwrap_err();
    assert!(err.starts_with("job 'nope' not found in namespace 'demo'"), "{err}");
}

/// Compares a frame with `tests/data/console/{name}.txt`.
fn check_frame(name: &str, app: &mut App, data: &Data, size: Size) {
    let text = frame_text(app, data, size, Theme { color: false }, now());
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/console").join(format!("{name}.txt"));
    if std::env::var_os("EJCTL_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        expected == text,
        "frame {name} differs from {}; `EJCTL_REGENERATE=1 cargo test --test integration console` rewrites it:\n{text}",
        path.display()
    );
}

#[test]
fn frames_of_every_view_and_state() {
    let (wide, small) = (Size { cols: 120, rows: 40 }, Size { cols: 80, rows: 24 });
    let d = data(30);
    let mut a = app(false);
    a.link = Link::Connecting { error: None };
    a.loading = 1234;
    check_frame("loading", &mut a, &Data::default(), small);
    let mut a = app(false);
    a.link = Link::Connecting {
        error: Some("cannot connect to the registry: zookeeper at 127.0.0.1:1 is unreachable".into()),
    };
    check_frame("unreachable", &mut a, &Data::default(), small);
    check_frame("empty", &mut app(false), &Data::load(Vec::new(), now()), small);
    check_frame("jobs", &mut app(false), &d, wide);
    check_frame("jobs-80x24", &mut app(false), &d, small);
    let many = data(5000);
    let mut a = app(false);
    press(&mut a, &many, "⇟⇟⇟⇟⇟⇟⇟⇟⇟⇟jj");
    check_frame("jobs-5000-scrolled", &mut a, &many, wide);
    let mut a = app(false);
    press(&mut a, &d, "/crashed⏎");
    check_frame("filtered", &mut a, &d, wide);
    let mut a = app(false);
    press(&mut a, &d, " j ");
    check_frame("marks", &mut a, &d, wide);
    let mut a = app(false);
    press(&mut a, &d, "  d");
    check_frame("confirm", &mut a, &d, wide);
    let mut a = app(false);
    press(&mut a, &d, "^d");
    check_frame("confirm-remove", &mut a, &d, small);
    let mut a = app(false);
    a.confirm(Action::Config {
        job: "job0000".into(),
        version: 1,
        yaml: String::new(),
        changed: vec!["cron: \"0/10 * * * * ?\" → \"0/30 * * * * ?\"".into()],
    });
    check_frame("confirm-config", &mut a, &d, small);
    let mut a = app(true);
    press(&mut a, &d, "d");
    check_frame("readonly", &mut a, &d, wide);
    let mut a = app(false);
    a.link = Link::Disconnected { since: now() - chrono::Duration::seconds(12) };
    press(&mut a, &d, "d");
    check_frame("disconnected", &mut a, &d, wide);
    let mut a = app(false);
    press(&mut a, &d, "?");
    check_frame("help", &mut a, &d, wide);
    let mut a = app(false);
    press(&mut a, &d, "jjjj⏎");
    check_frame("job-items", &mut a, &d, wide);
    press(&mut a, &d, "2");
    check_frame("job-config", &mut a, &d, small);
    press(&mut a, &d, "3");
    check_frame("job-servers", &mut a, &d, small);
    press(&mut a, &d, "4");
    check_frame("job-instances", &mut a, &d, small);
    let mut a = app(false);
    press(&mut a, &d, ":servers⏎");
    check_frame("servers", &mut a, &d, small);
    let mut a = app(false);
    press(&mut a, &d, ":instances⏎");
    check_frame("instances", &mut a, &d, small);
    let mut a = app(false);
    press(&mut a, &d, "jD");
    check_frame("tree", &mut a, &d, wide);
    let mut a = app(false);
    press(&mut a, &d, ">>>I");
    check_frame("sorted", &mut a, &d, small);
    let marks: BTreeSet<_> = a.screen().marks.clone();
    assert!(marks.is_empty());
}

/// A tmux server of its own, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    /// Runs `command` in a detached 120x40 session.
    fn start(command: &str) -> Tmux {
        let socket = format!("ejctl-console-{}-{}", std::process::id(), crate::support::unique_ns("t"));
        let tmux = Tmux { socket };
        let ok = tmux.cmd(&["new-session", "-d", "-x", "120", "-y", "40", command]).status.success();
        assert!(ok, "tmux new-session failed (is tmux installed?)");
        tmux
    }

    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("run tmux")
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend(keys);
        assert!(self.cmd(&args).status.success());
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "0"]).stdout).into_owned()
    }

    /// Waits until the screen shows what `check` looks for.
    async fn wait(&self, secs: u64, what: &str, check: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let screen = self.screen();
            if check(&screen) {
                return screen;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}; the screen:\n{screen}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd(&["kill-server"]);
    }
}

/// The line of the jobs view that shows `job`.
fn job_line<'a>(screen: &'a str, job: &str) -> Option<&'a str> {
    screen.lines().find(|l| l.split_whitespace().nth(1) == Some(job) || l.split_whitespace().next() == Some(job))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_follows_a_real_cluster_and_acts_on_it() {
    let job = "name = \"hello\"\ncron = \"0/5 * * * * ?\"\nsharding_total_count = 2\ncommand = \"{script} {record}\"";
    let mut c = Cluster::zookeeper("hello", job).await;
    let worker = c.start("127.0.0.1").await;
    let options = c.zk().unwrap();
    let (zk, ns) = (options.servers.clone(), options.namespace.clone());
    let cli = || {
        let mut cmd = crate::support::ejctl();
        cmd.args(["--zk", &zk, "--namespace", &ns]);
        cmd
    };
    // --snapshot: one frame of the jobs view, the job OK (once the worker has taken the items).
    let snapshot = || {
        let out = cli().args(["console", "--snapshot", "120x40"]).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut frame = snapshot();
    while !job_line(&frame, "hello").is_some_and(|l| l.contains(" OK ")) {
        assert!(Instant::now() < deadline, "the job is not OK:\n{frame}");
        tokio::time::sleep(Duration::from_millis(200)).await;
        frame = snapshot();
    }
    assert_eq!(frame.lines().count(), 40, "{frame}");
    assert!(frame.starts_with(&format!("ejctl console  context -  namespace {ns}  connected")), "{frame}");

    // Without a terminal only --snapshot works.
    let out = cli().arg("console").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs a terminal"), "{out:?}");

    // A context that says `readonly = true` makes the console read-only.
    let dir = tempfile::tempdir().unwrap();
    let contexts = dir.path().join("contexts.toml");
    std::fs::write(&contexts, format!("[contexts.ro]\nzk = \"{zk}\"\nnamespace = \"{ns}\"\nreadonly = true\n"))
        .unwrap();
    let out = crate::support::ejctl()
        .env("EJCTL_CONFIG", &contexts)
        .args(["console", "--context", "ro", "--snapshot", "100x20"])
        .output()
        .unwrap();
    let frame = String::from_utf8(out.stdout).unwrap();
    assert!(frame.starts_with(&format!("ejctl console  context ro  namespace {ns}  connected  [RO]\n")), "{frame}");
    assert!(!frame.contains("t trigger"), "no action keys in read-only mode: {frame}");

    // The full-screen console in a real terminal.
    let command = format!(
        "EJCTL_CONFIG=/nonexistent NO_COLOR=1 EDITOR='sed -i s|0/7|0/9|' VISUAL= {} console --zk {zk} --namespace {ns}",
        env!("CARGO_BIN_EXE_ejctl")
    );
    let tmux = Tmux::start(&command);
    tmux.wait(20, "the job OK", |s| job_line(s, "hello").is_some_and(|l| l.contains(" OK "))).await;
    // `/` + name + Enter, `d`, `y`: the job is disabled.
    tmux.keys(&["/", "hello", "Enter"]);
    tmux.wait(10, "the filter", |s| s.contains("/hello")).await;
    tmux.keys(&["d"]);
    tmux.wait(10, "the confirmation", |s| s.contains("ejctl job disable hello")).await;
    tmux.keys(&["y"]);
    tmux.wait(10, "the job DISABLED", |s| job_line(s, "hello").is_some_and(|l| l.contains("DISABLED"))).await;
    let show = cli().args(["job", "show", "hello", "-o", "json"]).output().unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&show.stdout).unwrap();
    assert_eq!(doc["job"]["status"], "DISABLED", "{doc}");
    // A change made elsewhere shows.
    cli().args(["job", "enable", "hello"]).assert().success();
    cli().args(["config", "set", "hello", "cron=0/7 * * * * ?"]).assert().success();
    tmux.wait(10, "the new cron", |s| s.contains("0/7 * * * * ?")).await;
    // `E`: the configuration in $EDITOR, the change confirmed, written.
    tmux.keys(&["E"]);
    tmux.wait(10, "the edit's confirmation", |s| s.contains("ejctl config edit hello")).await;
    tmux.keys(&["y"]);
    tmux.wait(10, "the edited cron", |s| s.contains("0/9 * * * * ?")).await;
    // kill -9 the worker: CRASHED once its session expires (10 s).
    c.kill(worker);
    let screen =
        tmux.wait(25, "the job CRASHED", |s| job_line(s, "hello").is_some_and(|l| l.contains("CRASHED"))).await;
    assert!(screen.contains("CRASHED 1"), "{screen}");
    // ZooKeeper stopped: the banner; started again: resynced.
    c.server().member().kill();
    tmux.wait(30, "the banner", |s| s.contains("DISCONNECTED")).await;
    tokio::task::block_in_place(|| c.server().start_again());
    tmux.wait(40, "the resync", |s| s.contains("resynced:") || s.contains(" connected")).await;
    tmux.keys(&[":", "events", "Enter"]);
    tmux.wait(10, "the resync event", |s| s.contains("resynced:")).await;
    tmux.keys(&["q"]);
}

#[test]
fn a_snapshot_of_an_unreachable_registry_is_exit_5() {
    crate::support::assert_unreachable(crate::support::ejctl(), &["console", "--snapshot", "120x40"]);
}
