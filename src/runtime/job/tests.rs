//! The rooms carrying out the decisions, against the embedded registry (the same behaviour suite
//! as ZooKeeper; the ZooKeeper runs are the integration tests'): registration, the leader's
//! sharding, owing a fire, and a failover round.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use chrono::DateTime;
use tokio::sync::watch;

use super::effective::Effective;
use super::execution::{Execution, LocalRuns};
use super::leader::Leader;
use super::registration::Registration;
use super::*;
use crate::clock::SystemClock;
use crate::registry::embedded::{EmbeddedStore, Fault, FaultPlan};
use crate::registry::{Mode, Op};
use crate::schedule::cron::CronExpr;

/// A worker's settings with `turns` turns and as many contention slots.
fn settings(turns: usize) -> Arc<Settings> {
    Arc::new(Settings {
        kill_grace: Duration::from_secs(1),
        clock: Arc::new(SystemClock),
        tracer: None,
        #[cfg(feature = "injected-bugs")]
        bugs: Default::default(),
        metrics: Arc::new(crate::runtime::metrics::Metrics::off()),
        turns: Arc::new(tokio::sync::Semaphore::new(turns)),
        contentions: tokio::sync::Semaphore::new(turns),
        caches: None,
        jitter: crate::retry::Jitter::seeded(0),
        exact_wakeups: true,
    })
}

fn ctx(store: &EmbeddedStore, me: &str) -> JobCtx {
    let (_, fence) = watch::channel(FenceState::HEALTHY);
    JobCtx {
        registry: Registry::embedded(store),
        me: InstanceId::from_raw(me),
        paths: JobPaths::new("j"),
        settings: settings(crate::runtime::TURNS),
        job_type: JobType::Script,
        in_process: None,
        fence,
        pin: None,
        probe: Default::default(),
        alerts: crate::notify::Alerts::start(),
        listeners: Default::default(),
    }
}

fn config(total: i32) -> Effective {
    let mut cfg = JobConfig::new("j", total);
    cfg.failover = true;
    cfg.props.insert(crate::config::schema::prop::SCRIPT_COMMAND_LINE.into(), "true".into());
    Effective::build(cfg, &JobType::Script, None, None).unwrap()
}

async fn text(ctx: &JobCtx, path: &str) -> Option<String> {
    ctx.registry.get(path).await.unwrap().map(|n| n.text())
}

/// Faults a handle's request number `n` (from 0) with `fault`; serves the others.
fn fault_at(n: usize, fault: Fault) -> FaultPlan {
    let mut seen = 0;
    Box::new(move || {
        seen += 1;
        if seen == n + 1 { fault } else { Fault::None }
    })
}

/// A cache that shows nothing.
fn nothing(_: &str) -> bool {
    false
}

#[tokio::test]
async fn registration_writes_the_server_and_instance_nodes_once_per_session() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.create(a.paths.root(), b"SCRIPT", Mode::Persistent).await.unwrap();
    // The cache shows the job root only (a start): one transaction writes everything.
    let root_only = |p: &str| p == a.paths.root();
    let mut registration = Registration::new();
    registration.register(&a, &root_only, true).await.unwrap();
    assert_eq!(text(&a, &a.paths.server("10.0.0.1")).await.as_deref(), Some("DISABLED"), "disabled = true");
    let instance = a.paths.instance("10.0.0.1@-@1");
    let runner = a.paths.runner("10.0.0.1@-@1");
    let first = a.registry.exists(&instance).await.unwrap().unwrap();
    assert_eq!(first.ephemeral_owner, a.registry.session_id());
    assert_eq!(a.registry.exists(&runner).await.unwrap().unwrap().ephemeral_owner, a.registry.session_id());
    assert!(text(&a, &instance).await.unwrap().contains("jobInstanceId: 10.0.0.1@-@1"));
    // Registering again in the same session changes nothing (no churn for watchers), and an
    // existing server status is kept: with a cache that is behind (the transaction fails, node
    // by node follows) as with one that shows the nodes, or none at all.
    let all = |p: &str| p.starts_with(a.paths.root());
    for cached in [&root_only as &(dyn Fn(&str) -> bool + Sync), &all, &nothing] {
        registration.register(&a, cached, false).await.unwrap();
        assert_eq!(a.registry.exists(&instance).await.unwrap().unwrap(), first);
        assert_eq!(text(&a, &a.paths.server("10.0.0.1")).await.as_deref(), Some("DISABLED"));
    }
}

#[tokio::test]
async fn registration_in_one_transaction_keeps_the_parents_other_instances_made() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    let b = ctx(&store, "10.0.0.2@-@2");
    a.registry.create(a.paths.root(), b"SCRIPT", Mode::Persistent).await.unwrap();
    Registration::new().register(&b, &|p| p == b.paths.root(), false).await.unwrap();
    // `a`'s cache does not show `b`'s registration yet: its transaction fails on the parents
    // `b` made, and node by node follows.
    Registration::new().register(&a, &|p| p == a.paths.root(), false).await.unwrap();
    for c in [&a, &b] {
        let id = c.me.as_str();
        assert_eq!(text(c, &c.paths.server(c.me.ip())).await.as_deref(), Some("ENABLED"));
        assert_eq!(
            c.registry.exists(&c.paths.runner(id)).await.unwrap().unwrap().ephemeral_owner,
            c.registry.session_id()
        );
        assert_eq!(
            c.registry.exists(&c.paths.instance(id)).await.unwrap().unwrap().ephemeral_owner,
            c.registry.session_id()
        );
    }
}

#[tokio::test]
async fn an_operator_deleting_the_instance_node_stops_the_job_here() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    let mut registration = Registration::new();
    registration.register(&a, &nothing, false).await.unwrap();
    registration.own_instance_deleted(&a).await;
    assert!(!registration.stopped_by_admin(), "the node is still ours");
    a.registry.delete(&a.paths.instance("10.0.0.1@-@1"), None).await.unwrap();
    registration.own_instance_deleted(&a).await;
    assert!(registration.stopped_by_admin());
}

#[tokio::test]
async fn the_leader_writes_an_assignment_for_a_flagged_job() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    let b = ctx(&store, "10.0.0.2@-@2");
    for (c, ip) in [(&a, "10.0.0.1"), (&b, "10.0.0.2")] {
        c.registry.put(&c.paths.server(ip), b"ENABLED").await.unwrap();
        c.registry.put_ephemeral(&c.paths.instance(c.me.as_str()), b"").await.unwrap();
    }
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let cfg = config(4);
    let mut leader = Leader::new(&a.settings);
    // First the stale assignment is flagged, then written.
    leader.duties(&a, &cfg, &cache, &a.snapshot(&cache)).await;
    cache.wait_until(|v| v.exists(&a.paths.sharding_necessary())).await;
    leader.duties(&a, &cfg, &cache, &a.snapshot(&cache)).await;
    cache.wait_until(|v| !v.exists(&a.paths.sharding_necessary())).await;
    let view = a.snapshot(&cache);
    assert!(!view.sharding_pending(4));
    let owners: Vec<String> = (0..4).map(|i| view.items[&i].owner.clone().unwrap()).collect();
    // AVG_ALLOCATION over [b, a] (reverse order): b gets 0 and 1, a gets 2 and 3.
    assert_eq!(owners, ["10.0.0.2@-@2", "10.0.0.2@-@2", "10.0.0.1@-@1", "10.0.0.1@-@1"]);
}

/// Owes `fire` to item 0, this instance's, as a fire missed during an outage is
/// ([`crate::coord::firing::Firing::missed`]), carried out against the registry.
async fn owe_item_0(a: &JobCtx, execution: &mut Execution, fire: DateTime<chrono::Utc>) {
    assert_eq!(a.me.as_str(), crate::coord::fixtures::ME);
    let facts = crate::coord::firing::Facts { paths: a.paths.clone(), ..crate::coord::fixtures::fire_facts(1) };
    let view = Arc::new(crate::coord::fixtures::view_with(&[(0, a.me.as_str())], &[]));
    let firing = crate::coord::firing::Firing::missed(fire, facts, &view);
    execution.drive(a, &config(1), firing, view).await;
}

#[tokio::test]
async fn a_fire_is_owed_once_and_only_when_no_later_run_covers_it() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let mut execution = Execution::new(cache.reader());
    let fire = DateTime::from_timestamp(1_700_000_000, 0).unwrap();
    let item = a.paths.item(0);
    let misfire = a.paths.item_leaf(0, ItemLeaf::Misfire);
    // A run that started after the fire covers it.
    a.registry.put(&item, &codec::encode_millis(fire + chrono::Duration::seconds(1))).await.unwrap();
    owe_item_0(&a, &mut execution, fire).await;
    assert!(a.registry.get(&misfire).await.unwrap().is_none());
    // An older start: owed, with the fire's instant.
    a.registry.put(&item, &codec::encode_millis(fire - chrono::Duration::seconds(1))).await.unwrap();
    owe_item_0(&a, &mut execution, fire).await;
    assert_eq!(text(&a, &misfire).await, Some("1700000000000".into()));
    // Owed again by a later fire: still one node, still the first fire it owes.
    owe_item_0(&a, &mut execution, fire + chrono::Duration::seconds(5)).await;
    assert_eq!(text(&a, &misfire).await, Some("1700000000000".into()));
    // No run stamped the item yet: owed.
    a.registry.delete(&misfire, None).await.unwrap();
    a.registry.put(&item, b"").await.unwrap();
    owe_item_0(&a, &mut execution, fire).await;
    assert_eq!(text(&a, &misfire).await, Some("1700000000000".into()));
}

/// A round's queue for 3 items with these suspects, none disabled.
fn queue(suspects: &[u32]) -> failover::Queue<'_> {
    static NONE: std::sync::LazyLock<std::collections::BTreeSet<u32>> = std::sync::LazyLock::new(Default::default);
    failover::Queue { total: 3, suspects, disabled: &NONE }
}

async fn orphan(c: &JobCtx, item: u32, runner: &str) {
    c.registry.create(&c.paths.item_leaf(item, ItemLeaf::Running), runner.as_bytes(), Mode::Persistent).await.unwrap();
}

#[tokio::test]
async fn a_failover_round_queues_confirmed_orphans_and_claims_one() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.put_ephemeral(&a.paths.instance(a.me.as_str()), b"").await.unwrap();
    for item in 0..3 {
        a.registry.put(&a.paths.item_leaf(item, ItemLeaf::Instance), b"10.0.0.9@-@9").await.unwrap();
    }
    orphan(&a, 0, "10.0.0.9@-@9").await; // its runner is gone
    orphan(&a, 1, "10.0.0.9@-@9").await;
    orphan(&a, 2, "10.0.0.1@-@1").await; // our own, running here: not an orphan
    let local: LocalRuns = Arc::default();
    local.lock().unwrap().insert(2);
    let claimed = failover::round(
        &a.registry,
        &a.paths,
        &a.me,
        &local,
        &SystemClock,
        queue(&[0, 1, 2]),
        failover::RoundBugs::NONE,
    )
    .await
    .unwrap();
    // ElasticJob's order: reverse lexicographic, so item 1 first.
    assert_eq!(claimed, Some(1));
    assert_eq!(text(&a, &a.paths.item_leaf(1, ItemLeaf::Failovering)).await.as_deref(), Some("10.0.0.1@-@1"));
    assert_eq!(text(&a, &a.paths.item_leaf(1, ItemLeaf::Running)).await.as_deref(), Some("10.0.0.1@-@1"));
    let queued: BTreeSet<String> =
        a.registry.children(&a.paths.failover_items()).await.unwrap().unwrap().into_iter().collect();
    assert_eq!(queued, BTreeSet::from(["0".to_string()]), "item 0 waits for the next round; item 2 is ours");
    assert!(local.lock().unwrap().contains(&1), "the claimed item is marked as running here");
    // The next round claims the rest; then there is nothing left.
    assert_eq!(
        failover::round(&a.registry, &a.paths, &a.me, &local, &SystemClock, queue(&[]), failover::RoundBugs::NONE)
            .await
            .unwrap(),
        Some(0)
    );
    assert_eq!(
        failover::round(&a.registry, &a.paths, &a.me, &local, &SystemClock, queue(&[]), failover::RoundBugs::NONE)
            .await
            .unwrap(),
        None
    );
    assert_eq!(text(&a, &a.paths.item_leaf(2, ItemLeaf::Running)).await.as_deref(), Some("10.0.0.1@-@1"));
}

#[tokio::test]
async fn a_queued_orphan_whose_item_ran_since_is_not_claimed() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.put_ephemeral(&a.paths.instance(a.me.as_str()), b"").await.unwrap();
    a.registry.put(&a.paths.item(2), b"1700000000000").await.unwrap();
    orphan(&a, 2, "10.0.0.9@-@9").await;
    // Queued while the item is disabled: the round confirms it and leaves it in the queue.
    let disabled = std::collections::BTreeSet::from([2]);
    let local = LocalRuns::default();
    let round =
        |queue| failover::round(&a.registry, &a.paths, &a.me, &local, &SystemClock, queue, failover::RoundBugs::NONE);
    assert_eq!(round(failover::Queue { total: 3, suspects: &[2], disabled: &disabled }).await.unwrap(), None);
    let stamp = a.registry.get(&a.paths.item(2)).await.unwrap().unwrap().stat.version;
    assert_eq!(text(&a, &a.paths.failover_item(2)).await, Some(stamp.to_string()), "the entry records the stamp");
    // The item is enabled and its new owner runs it and finishes before any claim.
    a.registry.put(&a.paths.item(2), b"1700000001000").await.unwrap();
    assert_eq!(round(queue(&[])).await.unwrap(), None, "the later run covers the orphaned fire");
    assert!(a.registry.get(&a.paths.failover_item(2)).await.unwrap().is_none(), "the entry is spent");
    assert!(a.registry.get(&a.paths.item_leaf(2, ItemLeaf::Running)).await.unwrap().is_none());
    // Without a later run, the same entry is claimed.
    a.registry
        .create(&a.paths.failover_item(2), stamp.checked_add(1).unwrap().to_string().as_bytes(), Mode::Persistent)
        .await
        .unwrap();
    assert_eq!(round(queue(&[])).await.unwrap(), Some(2));
}

#[tokio::test]
async fn a_queued_item_beyond_the_count_is_dropped_not_claimed() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.create(&a.paths.failover_item(7), b"", Mode::Persistent).await.unwrap();
    let local: LocalRuns = Arc::default();
    assert_eq!(
        failover::round(&a.registry, &a.paths, &a.me, &local, &SystemClock, queue(&[]), failover::RoundBugs::NONE)
            .await
            .unwrap(),
        None
    );
    assert!(a.registry.get(&a.paths.failover_item(7)).await.unwrap().is_none());
}

#[tokio::test]
async fn a_persistent_instance_node_is_no_live_instance() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    let mut registration = Registration::new();
    registration.register(&a, &nothing, false).await.unwrap();
    let ghost = "10.0.0.9@-@1";
    a.registry.create(&a.paths.server("10.0.0.9"), b"", Mode::Persistent).await.unwrap();
    a.registry.create(&a.paths.instance(ghost), b"", Mode::Persistent).await.unwrap();
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let view = a.snapshot(&cache);
    assert_eq!(view.instances.keys().collect::<Vec<_>>(), ["10.0.0.1@-@1"]);
    assert!(view.persistent_instances.contains(ghost));
    assert_eq!(view.available_instances(), ["10.0.0.1@-@1"]);
}

/// A job waiting for a turn to react to registry changes (none free: as if the worker's other
/// jobs held them all) still fires on its cron, and records its runs' ends: the item is free
/// again at the next fire.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_waiting_for_a_turn_still_fires_and_ends_its_runs() {
    use crate::exec::context::ShardingContext;
    use crate::exec::inproc::{SimpleJob, simple};

    /// Counts the job's runs.
    struct Count(watch::Sender<u64>);
    impl SimpleJob for Count {
        async fn execute(&self, _: ShardingContext) -> anyhow::Result<()> {
            self.0.send_modify(|n| *n += 1);
            Ok(())
        }
    }
    let store = EmbeddedStore::new();
    let c = ctx(&store, "10.0.0.1@-@1");
    let (count, mut runs) = watch::channel(0);
    let mut config = JobConfig::new("j", 1);
    config.cron = Some("* * * * * ?".into());
    let setup = JobSetup {
        job_type: JobType::InProcess("Count".into()),
        in_process: Some(simple(Count(count))),
        config,
        listeners: Vec::new(),
        once_listeners: Vec::new(),
    };
    let (signals, _stop_tx, _fence_tx) = signals(&c);
    let task = JobTask::start(c.registry.clone(), c.me.clone(), settings(0), setup, &signals).await.unwrap();
    // Sharded to this instance already, the flag its registration raised cleared: without a
    // turn the job never reacts to anything, so never shards.
    for p in [c.paths.sharding(), c.paths.item(0)] {
        c.registry.create_if_absent(&p, b"").await.unwrap();
    }
    c.registry.create(&c.paths.item_leaf(0, ItemLeaf::Instance), b"10.0.0.1@-@1", Mode::Persistent).await.unwrap();
    c.registry.delete_if_exists(&c.paths.sharding_necessary()).await.unwrap();
    let running = tokio::spawn(task.run());
    let two_runs = tokio::time::timeout(Duration::from_secs(20), runs.wait_for(|&n| n >= 2)).await;
    assert!(matches!(two_runs, Ok(Ok(_))), "no fires while waiting for a turn");
    running.abort();
}

/// A change to the configuration made between the job's publish and its cache's first read is
/// adopted: the cache's read shows it, so no event will.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_configuration_changed_during_start_up_is_adopted() {
    let store = EmbeddedStore::new();
    let c = ctx(&store, "10.0.0.1@-@1");
    let config = daily_script(1);
    let setup = script_setup(config.clone());
    let published = publish_config(&c.registry, &setup).await.unwrap();
    assert_eq!(published.version, Some(0));
    let mut changed = config;
    changed.cron = Some("0 0 4 * * ?".into());
    c.registry.set(&c.paths.config(), changed.to_yaml().as_bytes(), Some(0)).await.unwrap();
    let (signals, _stop_tx, _fence_tx) = signals(&c);
    let task =
        JobTask::published(c.registry.clone(), c.me.clone(), settings(1), setup, &signals, published).await.unwrap();
    assert_eq!(task.config.checked.cron.as_ref().map(CronExpr::as_str), Some("0 0 4 * * ?"));

    // A later publish reports the version the registry holds.
    let again = publish_config(&c.registry, &script_setup(changed)).await.unwrap();
    assert_eq!(again.version, Some(1));
}

/// The worker's signals for the jobs of `c`, with the senders that keep them open.
fn signals(c: &JobCtx) -> (Signals, watch::Sender<StopMode>, watch::Sender<FenceState>) {
    let (stop_tx, stop) = watch::channel(StopMode::Run);
    let (fence_tx, fence) = watch::channel(FenceState::HEALTHY);
    (Signals::start(stop, fence, c.registry.session()), stop_tx, fence_tx)
}

/// Job `j` of `total` items, a script that fires daily at 3:00.
fn daily_script(total: i32) -> JobConfig {
    let mut config = JobConfig::new("j", total);
    config.cron = Some("0 0 3 * * ?".into());
    config.props.insert("script.command.line".into(), "/bin/true".into());
    config
}

/// A script job's start-up setup without listeners.
fn script_setup(config: JobConfig) -> JobSetup {
    JobSetup { job_type: JobType::Script, in_process: None, config, listeners: Vec::new(), once_listeners: Vec::new() }
}

#[tokio::test]
async fn a_fires_first_item_is_taken_on_its_own_and_an_item_running_elsewhere_is_left_out() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    // Enough items for the first to be written on its own; the last runs elsewhere (the cache is
    // behind: it shows the item idle).
    let total = u32::try_from(crate::coord::txn::FIRST_ALONE_ABOVE).unwrap() + 2;
    for item in 0..total {
        a.registry.put(&a.paths.item_leaf(item, ItemLeaf::Instance), a.me.as_str().as_bytes()).await.unwrap();
    }
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let view = a.snapshot(&cache);
    orphan(&a, total - 1, "10.0.0.9@-@9").await;
    let mut execution = Execution::new(cache.reader());
    let cfg = config(i32::try_from(total).unwrap());
    let now = a.now();
    execution.start_items(&a, &cfg, view, (0..total).collect(), Source::Cron(now)).await;
    for item in 0..total {
        let runner = text(&a, &a.paths.item_leaf(item, ItemLeaf::Running)).await;
        let here = item + 1 < total;
        let expected = if here { "10.0.0.1@-@1" } else { "10.0.0.9@-@9" };
        assert_eq!(runner.as_deref(), Some(expected), "item {item}");
        assert_eq!(execution.holds(item), here, "item {item}");
    }
}

/// A run that fencing killed, while another contender holds the failover latch (a round stuck
/// on it): once the registry answers again the worker hands the run back itself, without the
/// latch. Its instance id is live, so nobody else takes the `running` node for an orphan, and
/// the leader waits for it before resharding: left, it would hold up every item.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_killed_by_fencing_is_handed_back_while_the_failover_latch_is_held() {
    let store = EmbeddedStore::new();
    let c = ctx(&store, "10.0.0.1@-@1");
    let stuck = Registry::embedded(&store);
    let _latch = stuck.latch(&c.paths.failover_latch()).await.unwrap();
    let mut config = JobConfig::new("j", 1);
    config.cron = Some("* * * * * ?".into());
    config.failover = true;
    // The command gets the sharding context as its last argument: `sh -c` takes it as `$0`.
    config.props.insert("script.command.line".into(), "sh -c 'sleep 30'".into());
    let (signals, _stop_tx, fence_tx) = signals(&c);
    let task =
        JobTask::start(c.registry.clone(), c.me.clone(), settings(1), script_setup(config), &signals).await.unwrap();
    let running = tokio::spawn(task.run());
    let node = c.paths.item_leaf(0, ItemLeaf::Running);
    let entry = c.paths.failover_item(0);
    let mut started = false;
    for _ in 0..600 {
        if text(&c, &node).await.as_deref() == Some(c.me.as_str()) {
            started = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(started, "item 0 never ran");
    fence_tx.send_replace(FenceState { healthy: false, fenced: true });
    // The script is killed; its running node stays while the registry does not answer.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(text(&c, &node).await.as_deref(), Some(c.me.as_str()));
    fence_tx.send_replace(FenceState::HEALTHY);
    let mut queued = false;
    for _ in 0..100 {
        if c.registry.get(&entry).await.unwrap().is_some() {
            queued = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    running.abort();
    assert!(queued, "the run killed by fencing was not queued for failover");
}

#[tokio::test]
async fn a_claimed_item_the_configuration_cannot_run_goes_back_to_the_queue() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.put_ephemeral(&a.paths.instance(a.me.as_str()), b"").await.unwrap();
    orphan(&a, 1, "10.0.0.9@-@9").await;
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let mut execution = Execution::new(cache.reader());
    let claimed = failover::round(
        &a.registry,
        &a.paths,
        &a.me,
        execution.local(),
        &SystemClock,
        queue(&[1]),
        failover::RoundBugs::NONE,
    )
    .await
    .unwrap();
    assert_eq!(claimed, Some(1));
    // The configuration changed while the round ran: no command to run.
    let mut cfg = JobConfig::new("j", 3);
    cfg.failover = true;
    let unrunnable = Effective::build(cfg, &JobType::Script, None, None).unwrap();
    assert!(unrunnable.executor.is_err());
    assert!(!execution.start_failover(&a, &unrunnable, &cache, 1).await, "refused");
    assert!(!execution.holds(1), "no mark of a run here is left");
    let mut failover = failover::Failover::new();
    failover.refused(&a, 1).await;
    assert_eq!(a.registry.children(&a.paths.failover_items()).await.unwrap(), Some(vec!["1".to_string()]));
    assert_eq!(text(&a, &a.paths.item_leaf(1, ItemLeaf::Running)).await, None);
    assert_eq!(text(&a, &a.paths.item_leaf(1, ItemLeaf::Failovering)).await, None);
}

#[tokio::test]
async fn a_failed_contention_starts_its_pause_when_it_ends_not_at_the_next_change() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.create(a.paths.root(), b"SCRIPT", Mode::Persistent).await.unwrap();
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let mut election = super::election::Election::new();
    assert!(futures::poll!(std::future::poll_fn(|cx| election.poll_end(cx))).is_pending(), "no contention");
    // Every request of this handle fails from now on: the contention fails, and changes nothing.
    let client = a.registry.embedded_client().unwrap();
    store.set_faults(client, Some(Box::new(|| Fault::Fail)));
    election.look(&a, &cache, true, false).await;
    let failed = tokio::time::timeout(Duration::from_secs(10), std::future::poll_fn(|cx| election.poll_end(cx)))
        .await
        .expect("the job's loop is woken by the contention's end");
    assert!(failed);
    assert_eq!(election.retry_at(), None, "the pause starts with the report");
    election.ended(failed, &a.settings);
    assert!(election.retry_at().is_some(), "a pause, then a look that contends again");
    assert!(futures::poll!(std::future::poll_fn(|cx| election.poll_end(cx))).is_pending(), "reported once");
}

#[tokio::test]
async fn a_fire_whose_running_node_the_registry_failed_is_owed_and_runs_when_looked_at_again() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.put(&a.paths.item_leaf(0, ItemLeaf::Instance), a.me.as_str().as_bytes()).await.unwrap();
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let mut execution = Execution::new(cache.reader());
    let cfg = config(1);
    let fire_at = a.now();
    // The handle's next request fails before it reaches the server: the `running` transaction.
    store.set_faults(a.registry.embedded_client().unwrap(), Some(fault_at(0, Fault::Fail)));
    let view = a.snapshot(&cache);
    execution.start_items(&a, &cfg, view, vec![0], Source::Cron(fire_at)).await;
    let (running, misfire) = (a.paths.item_leaf(0, ItemLeaf::Running), a.paths.item_leaf(0, ItemLeaf::Misfire));
    assert_eq!(text(&a, &running).await, None, "nothing started");
    assert!(!execution.holds(0));
    let owed = text(&a, &misfire).await;
    assert_eq!(owed, Some(fire_at.timestamp_millis().to_string()), "the fire is owed in the registry");
    assert!(execution.retry_at().is_some(), "and looked at again after a pause");
    // Looked at again (the job's retry runs its waiting fires): the queued fire runs the item.
    assert_eq!(a.me.as_str(), crate::coord::fixtures::ME);
    let view = Arc::new(crate::coord::fixtures::view_with(&[(0, a.me.as_str())], &[]));
    execution.start_free_queued(&a, &cfg, &view).await;
    assert_eq!(text(&a, &running).await.as_deref(), Some("10.0.0.1@-@1"));
    assert!(execution.holds(0));
}

#[tokio::test]
async fn a_trigger_whose_deletion_lost_its_reply_fires_when_the_deletion_is_tried_again() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    let trigger = a.paths.trigger(a.me.as_str());
    let ops = [
        Op::Create { path: a.paths.triggers(), data: Vec::new(), mode: Mode::Persistent },
        Op::Create { path: trigger.clone(), data: codec::encode_trigger(Some("tok")), mode: Mode::Persistent },
    ];
    a.registry.create(a.paths.root(), b"SCRIPT", Mode::Persistent).await.unwrap();
    a.registry.transaction(&ops).await.unwrap();
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let mut room = super::trigger::TriggerRoom::default();
    // The round's read is served; the deletion is applied, but its reply is lost.
    store.set_faults(a.registry.embedded_client().unwrap(), Some(fault_at(1, Fault::LoseReply)));
    assert_eq!(room.seen(&a, &cache).await, None, "nothing fires while the deletion is in doubt");
    assert_eq!(text(&a, &trigger).await, None, "the deletion was applied");
    let retry_at = room.retry_at().expect("the deletion is tried again after a pause");
    tokio::time::sleep_until(retry_at).await;
    let Some(Source::Trigger(_, token, round)) = room.retry(&a).await else { panic!("the trigger fires") };
    assert_eq!(token.as_deref(), Some("tok"));
    assert!(round.is_some(), "with the identity read before the deletion");
    assert_eq!(room.retry_at(), None);
    assert_eq!(room.retry(&a).await, None, "once");
}

#[tokio::test]
async fn a_fire_whose_running_transaction_lost_its_reply_runs_under_the_node_it_wrote() {
    let store = EmbeddedStore::new();
    let a = ctx(&store, "10.0.0.1@-@1");
    a.registry.put(&a.paths.item_leaf(0, ItemLeaf::Instance), a.me.as_str().as_bytes()).await.unwrap();
    let cache = TreeCache::start(a.registry.clone(), a.paths.root(), lazy_path).await.unwrap();
    let mut execution = Execution::new(cache.reader());
    // Without failover the node is ephemeral: left alone, it would hold the item for the session.
    let mut cfg = JobConfig::new("j", 1);
    cfg.props.insert(crate::config::schema::prop::SCRIPT_COMMAND_LINE.into(), "true".into());
    let cfg = Effective::build(cfg, &JobType::Script, None, None).unwrap();
    let fire_at = a.now();
    // The handle's next request, the `running` transaction, is applied but its reply is lost.
    store.set_faults(a.registry.embedded_client().unwrap(), Some(fault_at(0, Fault::LoseReply)));
    let view = a.snapshot(&cache);
    execution.start_items(&a, &cfg, view, vec![0], Source::Cron(fire_at)).await;
    let running = a.paths.item_leaf(0, ItemLeaf::Running);
    assert_eq!(text(&a, &running).await.as_deref(), Some("10.0.0.1@-@1"), "the write was applied");
    assert!(!execution.holds(0), "but nothing started");
    assert!(execution.retry_at().is_some(), "the fire is looked at again after a pause");
    // Looked at again, with the cache showing the item running: the run starts under the node.
    let view = Arc::new(crate::coord::fixtures::view_with(
        &[(0, a.me.as_str())],
        &[(0, crate::coord::snapshot::ItemSnapshot { running: true, ..Default::default() })],
    ));
    execution.start_free_queued(&a, &cfg, &view).await;
    assert!(execution.holds(0), "the run started");
    assert_eq!(text(&a, &running).await.as_deref(), Some("10.0.0.1@-@1"));
    assert_eq!(text(&a, &a.paths.item_leaf(0, ItemLeaf::Misfire)).await, None, "nothing owed: the run covers it");
}
