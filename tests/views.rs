//! Every view of an item tells one story: a table of tree states (a healthy job, a dead owner whose
//! session is still open, an owner frozen mid-run, a job slower than its period, a disabled item
//! whose last run failed, an item failing over, a job whose leader cannot shard it, a removed
//! job), written to a real ZooKeeper and to
//! the embedded registry, read by the list read (`job list`, `failover list`) and the whole read
//! (`job show`, `sharding show`), and shown by every command: each must show the state
//! `coord::state` decides, and nothing else.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;

use ejctl::config::JobConfig;
use ejctl::coord::state::Health;
use ejctl::ops::Admin;
use ejctl::ops::report::{failover_state, job_brief};
use ejctl::registry::codec::{InstanceId, InstanceInfo, ItemResult, RunOutcome, ShardingFailure};
use ejctl::registry::embedded::EmbeddedStore;
use ejctl::registry::path::{ItemLeaf, JobPaths};
use ejctl::registry::{Mode, Op, Registry};

use crate::history::json;
use crate::support::{ejctl_on, zk_registry};

const IP: &str = "10.0.0.1";
const GONE: &str = "10.0.0.9@-@9";
/// Once a day: nothing comes due during the test.
const DAILY: &str = "0 0 3 * * ?";

fn me() -> InstanceId {
    InstanceId::new(IP, 42)
}

fn result(outcome: RunOutcome, source: &str, start: DateTime<Utc>, end: DateTime<Utc>) -> Vec<u8> {
    ItemResult {
        v: 1,
        instance: me().to_string(),
        source: source.into(),
        fire_ms: Some(start.timestamp_millis()),
        start_ms: Some(start.timestamp_millis()),
        end_ms: end.timestamp_millis(),
        outcome,
        exit_code: (outcome != RunOutcome::Ok).then_some(1),
        signal: None,
        message: (outcome != RunOutcome::Ok).then(|| "exit code 1".to_string()),
        stderr_tail: None,
        refused: Vec::new(),
    }
    .encode()
}

/// A job of three items as a live instance (the test's session) leaves it, each item with a
/// successful run that ended a second ago; then `extra`.
async fn tree(r: &Registry, name: &str, cron: &str, extra: impl FnOnce(&JobPaths) -> Vec<Op>) {
    let mut cfg = JobConfig::new(name, 3);
    cfg.cron = Some(cron.into());
    cfg.failover = true;
    let p = JobPaths::new(name);
    let id = me();
    let now = Utc::now();
    let create = |path: String, data: &[u8], mode: Mode| Op::Create { path, data: data.to_vec(), mode };
    let mut ops = vec![
        create(p.root().to_string(), b"SCRIPT", Mode::Persistent),
        create(p.config(), cfg.to_yaml().as_bytes(), Mode::Persistent),
        create(p.servers(), b"", Mode::Persistent),
        create(p.server(IP), b"ENABLED", Mode::Persistent),
        create(p.instances(), b"", Mode::Persistent),
        create(p.instance(id.as_str()), InstanceInfo::new(&id).to_yaml().as_bytes(), Mode::Ephemeral),
        create(p.leader(), b"", Mode::Persistent),
        create(format!("{}/election", p.leader()), b"", Mode::Persistent),
        create(p.leader_instance(), id.as_str().as_bytes(), Mode::Ephemeral),
        create(p.sharding(), b"", Mode::Persistent),
    ];
    let ok = result(RunOutcome::Ok, "cron", now - Duration::seconds(2), now - Duration::seconds(1));
    for item in 0..3 {
        ops.push(create(p.item(item), b"", Mode::Persistent));
        ops.push(create(p.item_leaf(item, ItemLeaf::Instance), id.as_str().as_bytes(), Mode::Persistent));
        ops.push(create(p.item_leaf(item, ItemLeaf::Result), &ok, Mode::Persistent));
    }
    ops.extend(extra(&p));
    r.transaction(&ops).await.unwrap();
}

/// The jobs of the table, and the job health each must have, with its items.
const EXPECTED: &[(&str, Health, &[u32])] = &[
    ("healthy", Health::Ok, &[]),
    ("dead_owner", Health::Overdue, &[0, 1, 2]),
    ("frozen_mid_run", Health::Overdue, &[1, 2]),
    ("slower_than_period", Health::Slow, &[0, 2]),
    ("disabled_failing", Health::Failing, &[2]),
    ("failing_over", Health::Ok, &[]),
    ("cannot_shard", Health::CannotShard, &[]),
];

/// Writes the table's jobs.
async fn write_states(r: &Registry) {
    let now = Utc::now();
    let set = |path: String, data: &[u8]| Op::Set { path, data: data.to_vec(), version: None };
    let create = |path: String, data: &[u8]| Op::Create { path, data: data.to_vec(), mode: Mode::Persistent };
    tree(r, "healthy", DAILY, |_| vec![]).await;
    // Killed a minute ago, its session still open: its instance node stays, nothing runs.
    let minute_ago = result(RunOutcome::Ok, "cron", now - Duration::seconds(61), now - Duration::seconds(60));
    tree(r, "dead_owner", "0/2 * * * * ?", |p| {
        (0..3).map(|i| set(p.item_leaf(i, ItemLeaf::Result), &minute_ago)).collect()
    })
    .await;
    // Frozen (SIGSTOP) while running item 0: its `running` node stays; the others stopped.
    tree(r, "frozen_mid_run", "0/2 * * * * ?", |p| {
        let mut ops: Vec<Op> = (0..3).map(|i| set(p.item_leaf(i, ItemLeaf::Result), &minute_ago)).collect();
        ops.push(create(p.item_leaf(0, ItemLeaf::Running), b""));
        ops
    })
    .await;
    // Item 0 ran for 25 h on a daily cron; item 2's last run was a misfire run.
    tree(r, "slower_than_period", DAILY, |p| {
        vec![
            set(
                p.item_leaf(0, ItemLeaf::Result),
                &result(RunOutcome::Ok, "cron", now - Duration::hours(25), now - Duration::seconds(1)),
            ),
            set(
                p.item_leaf(2, ItemLeaf::Result),
                &result(RunOutcome::Ok, "misfire", now - Duration::seconds(2), now - Duration::seconds(1)),
            ),
        ]
    })
    .await;
    // Item 1 failed and was disabled since; item 2 failed.
    let failed = result(RunOutcome::Failed, "cron", now - Duration::seconds(2), now - Duration::seconds(1));
    tree(r, "disabled_failing", DAILY, |p| {
        vec![
            set(p.item_leaf(1, ItemLeaf::Result), &failed),
            create(p.item_leaf(1, ItemLeaf::Disabled), b""),
            set(p.item_leaf(2, ItemLeaf::Result), &failed),
        ]
    })
    .await;
    // Item 0's owner is gone and another instance took it over; item 1 waits in the queue.
    tree(r, "failing_over", DAILY, |p| {
        vec![
            set(p.item_leaf(0, ItemLeaf::Instance), GONE.as_bytes()),
            Op::Create {
                path: p.item_leaf(0, ItemLeaf::Failover),
                data: me().as_str().as_bytes().to_vec(),
                mode: Mode::Ephemeral,
            },
            set(p.item_leaf(1, ItemLeaf::Instance), GONE.as_bytes()),
            create(format!("{}/failover", p.leader()), b""),
            create(p.failover_items(), b""),
            create(p.failover_item(1), b""),
        ]
    })
    .await;
    // Its leader recorded that its sharding fails; item 2's last run failed too.
    let record = ShardingFailure::new(now - Duration::seconds(30), 7, "transaction too large", me().as_str()).encode();
    tree(r, "cannot_shard", DAILY, |p| {
        vec![
            create(format!("{}/sharding", p.leader()), b""),
            create(p.sharding_necessary(), &record),
            set(p.item_leaf(2, ItemLeaf::Result), &failed),
        ]
    })
    .await;
    // Removed: `job remove` left the job's root with a stray child, and no configuration.
    r.transaction(&[create("/removed".into(), b""), create("/removed/servers".into(), b"")]).await.unwrap();
}

/// The list read and the whole read give every item the same state, and the views built from
/// them the health the table expects.
async fn reads_agree(r: &Registry, namespace: &str) {
    write_states(r).await;
    let admin = Admin::new(r.clone(), namespace);
    let now = Utc::now();
    let listed = admin.read_all().await.unwrap();
    let configured: Vec<&str> = listed.iter().filter(|j| j.has_config).map(|j| j.name.as_str()).collect();
    let mut expected: Vec<&str> = EXPECTED.iter().map(|(name, ..)| *name).collect();
    expected.sort_unstable();
    assert_eq!(configured, expected, "{namespace}: the removed job is no job");
    for job in listed.iter().filter(|j| j.has_config) {
        let whole = admin.read_job(&job.name).await.unwrap();
        assert_eq!(job.item_states(now), whole.item_states(now), "{namespace}/{}", job.name);
        let fo = |j| serde_json::to_value(failover_state(j, now)).unwrap();
        assert_eq!(fo(job), fo(&whole), "{namespace}/{}", job.name);
        let (_, health, items) = EXPECTED.iter().find(|(name, ..)| *name == job.name).unwrap();
        let brief = job_brief(job, now);
        let of_health = match health {
            Health::Failing => &brief.failing_items,
            Health::Overdue => &brief.overdue_items,
            Health::Slow => &brief.slow_items,
            _ => &Vec::new(),
        };
        assert_eq!((brief.health, of_health.as_slice()), (*health, *items), "{namespace}/{}", job.name);
        let whole_brief = job_brief(&whole, now);
        assert_eq!(brief.cannot_shard, whole_brief.cannot_shard, "{namespace}/{}", job.name);
    }
    assert_eq!(ejctl::exit::for_ops_error(&admin.read_job("removed").await.unwrap_err()).code(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_and_whole_reads_give_every_item_the_same_state() {
    let (_server, ns, zk) = zk_registry("views").await;
    reads_agree(&zk, &ns).await;
    let store = EmbeddedStore::new();
    reads_agree(&Registry::embedded(&store), "embedded").await;
}

/// Each item's health in a document's `items` (or `sharding`) array.
fn item_healths(items: &Value) -> Vec<String> {
    items.as_array().unwrap().iter().map(|i| i["health"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_command_shows_the_same_state() {
    let (server, ns, r) = zk_registry("views-cli").await;
    write_states(&r).await;
    let run = |args: &[&str]| json(ejctl_on(&server, &ns).args(args));
    let (code, list) = run(&["job", "list"]);
    assert_eq!(code, 0, "{list}");
    let (_, all_failover) = run(&["failover", "list"]);
    for (job, health, items) in EXPECTED {
        let brief = list["jobs"].as_array().unwrap().iter().find(|j| j["name"] == *job).unwrap();
        let want = serde_json::to_value(health).unwrap();
        assert_eq!(brief["health"], want, "job list: {brief}");
        let (_, show) = run(&["job", "show", job]);
        let (_, sharding) = run(&["sharding", "show", job]);
        let from_show = item_healths(&show["job"]["sharding"]);
        assert_eq!(from_show, item_healths(&sharding["items"]), "{job}: job show and sharding show");
        // The job's health is its items': the worst, over the items in it.
        let worst: Vec<u32> = (0..3u32).filter(|i| from_show[*i as usize] == want.as_str().unwrap()).collect();
        if !items.is_empty() {
            assert_eq!(worst, *items, "{job}: {sharding}");
        }
        // One job's failover state is the same alone and among all.
        let (_, one) = run(&["failover", "list", job]);
        let among = all_failover["jobs"].as_array().unwrap().iter().find(|j| j["job"] == *job).unwrap();
        assert_eq!(&one, among, "{job}: failover list alone and among all");
    }
    let (_, failing_over) = run(&["failover", "list", "failing_over"]);
    assert_eq!(failing_over["pending"][0]["item"], 1, "{failing_over}");
    assert_eq!(failing_over["assigned"][0]["failover"], me().as_str(), "{failing_over}");
    // For people: the worst health with its items, and why under the item table.
    let out = ejctl_on(&server, &ns).args(["job", "list"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("OVERDUE 3/3 (items 0-2)") && text.contains("SLOW 2/3 (items 0,2)"), "{text}");
    assert!(text.contains("FAILING 1/3 (item 2)"), "a disabled item does not count: {text}");
    assert!(text.contains("CANNOT_SHARD: sharding failed 7 times since "), "{text}");
    let brief = list["jobs"].as_array().unwrap().iter().find(|j| j["name"] == "cannot_shard").unwrap();
    assert_eq!((&brief["cannotShard"]["attempts"], &brief["failingItems"]), (&7.into(), &vec![2].into()), "{brief}");
    let (_, show) = run(&["job", "show", "cannot_shard"]);
    assert_eq!(show["job"]["cannotShard"], brief["cannotShard"], "{show}");
    let (_, sharding) = run(&["sharding", "show", "cannot_shard"]);
    assert_eq!(sharding["cannotShard"], brief["cannotShard"], "{sharding}");
    let out = ejctl_on(&server, &ns).args(["sharding", "show", "cannot_shard"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("job health: CANNOT_SHARD: sharding failed 7 times"), "{text}");
    let out = ejctl_on(&server, &ns).args(["sharding", "show", "dead_owner"]).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("item 0: OVERDUE: no run started in the 1m") && text.contains("registered but silent"),
        "{text}"
    );
    assert_eq!(run(&["job", "show", "removed"]).0, 3);
}
