//! The registry behaviour suite: every scenario runs against a real ZooKeeper and against the
//! embedded registry (`on_both_registries!`), plus the ZooKeeper-only hard parts: a restart within
//! the session timeout, a real session expiry, and an ensemble losing the member a client uses.

use std::time::Duration;

use ejctl::coord::snapshot::{JobSnapshot, LiveSnapshot};
use ejctl::registry::cache::{CacheEvent, CacheHub, TreeCache};
use ejctl::registry::path::JobPaths;
use ejctl::registry::{LinkState, Mode, Op, Registry, RegistryError, WatchEvent};

use crate::on_both_registries;
use crate::support::proxy::Proxy;
use crate::support::{Fixture, ZkEnsemble, ZkServer, unique_ns, within, zk_options};

on_both_registries!(
    crud_and_typed_errors,
    ephemeral_node_vanishes_when_its_session_ends,
    sequential_names_count_up,
    transaction_is_all_or_nothing,
    latch_is_granted_in_order,
    watch_events_arrive_in_order,
    watch_resyncs_after_an_outage,
    cache_follows_changes_and_resyncs_after_a_new_session,
    a_hub_feeds_each_cache_its_own_events,
    owner_reregisters_ephemerals_after_session_expiry,
    read_subtree_reads_every_node,
    put_ephemeral_never_churns_its_own_node,
);

async fn crud_and_typed_errors(f: Fixture) {
    let r = f.registry().await;
    assert_eq!(r.get("/a").await.unwrap(), None);
    assert_eq!(r.create("/a/b/c", b"x", Mode::Persistent).await.unwrap(), "/a/b/c");
    assert_eq!(r.get("/a/b/c").await.unwrap().unwrap().data, b"x");
    assert_eq!(r.create("/a/b/c", b"y", Mode::Persistent).await, Err(RegistryError::NodeExists("/a/b/c".into())));
    let stat = r.set("/a/b/c", b"y", Some(0)).await.unwrap();
    assert_eq!(stat.version, 1);
    assert_eq!(r.set("/a/b/c", b"z", Some(0)).await, Err(RegistryError::BadVersion("/a/b/c".into())));
    assert_eq!(r.set("/nope", b"z", None).await, Err(RegistryError::NoNode("/nope".into())));
    assert_eq!(r.delete("/a/b", None).await, Err(RegistryError::NotEmpty("/a/b".into())));
    assert!(!r.create_if_absent("/a/b/c", b"").await.unwrap());
    assert!(r.create_if_absent("/a/d", b"").await.unwrap());
    r.put("/a/d", b"v").await.unwrap();
    r.put("/a/e/f", b"w").await.unwrap();
    assert_eq!(r.get("/a/e/f").await.unwrap().unwrap().text(), "w");
    let mut kids = r.children("/a").await.unwrap().unwrap();
    kids.sort();
    assert_eq!(kids, ["b", "d", "e"]);
    assert_eq!(r.children("/zz").await.unwrap(), None);
    assert!(r.delete_recursive("/a").await.unwrap());
    assert!(!r.delete_recursive("/a").await.unwrap());
    assert_eq!(r.exists("/a").await.unwrap(), None);
    assert!(!r.delete_if_exists("/a").await.unwrap());
}

async fn ephemeral_node_vanishes_when_its_session_ends(f: Fixture) {
    let a = f.registry().await;
    let b = f.registry().await;
    a.create("/e/node", b"", Mode::Ephemeral).await.unwrap();
    let stat = b.exists("/e/node").await.unwrap().expect("visible to the other session");
    assert_eq!(stat.ephemeral_owner, a.session_id());
    assert_eq!(
        a.create("/e/node/child", b"", Mode::Persistent).await,
        Err(RegistryError::NoChildrenForEphemerals("/e/node/child".into()))
    );
    let mut watch = b.watch_subtree("/e").await.unwrap();
    drop(a);
    let ev = within(20, "the ephemeral node's deletion", watch.next()).await;
    assert_eq!(ev, Some(WatchEvent::Deleted("/e/node".into())));
    assert_eq!(b.exists("/e/node").await.unwrap(), None);
}

async fn sequential_names_count_up(f: Fixture) {
    let r = f.registry().await;
    let first = r.create("/s/n-", b"", Mode::PersistentSequential).await.unwrap();
    let second = r.create("/s/n-", b"", Mode::EphemeralSequential).await.unwrap();
    assert_eq!(first, "/s/n-0000000000");
    assert_eq!(second, "/s/n-0000000001");
}

async fn transaction_is_all_or_nothing(f: Fixture) {
    let r = f.registry().await;
    r.create("/t/existing", b"", Mode::Persistent).await.unwrap();
    let bad = [
        Op::Check { path: "/t".into(), version: None },
        Op::Create { path: "/t/a".into(), data: b"1".to_vec(), mode: Mode::Persistent },
        Op::Set { path: "/t/existing".into(), data: b"changed".to_vec(), version: None },
        Op::Create { path: "/t/existing".into(), data: vec![], mode: Mode::Persistent },
    ];
    match r.transaction(&bad).await {
        Err(RegistryError::Transaction { index: 3, source }) => {
            assert_eq!(*source, RegistryError::NodeExists("/t/existing".into()));
        }
        other => panic!("expected the fourth operation to fail, got {other:?}"),
    }
    assert_eq!(r.exists("/t/a").await.unwrap(), None, "nothing was applied");
    assert_eq!(r.get("/t/existing").await.unwrap().unwrap().data, b"");
    let good = [
        Op::Check { path: "/t".into(), version: None },
        Op::Create { path: "/t/a".into(), data: b"1".to_vec(), mode: Mode::Persistent },
        Op::Create { path: "/t/a/b".into(), data: b"2".to_vec(), mode: Mode::Persistent },
        Op::Delete { path: "/t/existing".into(), version: Some(0) },
    ];
    r.transaction(&good).await.unwrap();
    assert_eq!(r.get("/t/a/b").await.unwrap().unwrap().data, b"2");
    assert_eq!(r.exists("/t/existing").await.unwrap(), None);
}

async fn latch_is_granted_in_order(f: Fixture) {
    let dir = "/job/leader/election/latch";
    let a = f.registry().await;
    let b = f.registry().await;
    let c = f.registry().await;
    let held_a = a.latch(dir).await.unwrap();
    let name = held_a.path().rsplit('/').next().unwrap().to_string();
    assert!(name.starts_with("_c_") && name.len() == "_c_".len() + 36 + "-latch-".len() + 10, "{name}");
    assert!(name.contains("-latch-"), "{name}");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let spawn = |r: Registry, who: &'static str| {
        let tx = tx.clone();
        tokio::spawn(async move {
            let guard = r.latch(dir).await.unwrap();
            tx.send((who, guard)).unwrap();
        })
    };
    let count = |n: usize| {
        let a = a.clone();
        async move {
            while a.children(dir).await.unwrap().unwrap_or_default().len() < n {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        }
    };
    let _tb = spawn(b.clone(), "b");
    within(10, "b to queue", count(2)).await;
    let _tc = spawn(c.clone(), "c");
    within(10, "c to queue", count(3)).await;
    assert!(rx.try_recv().is_err(), "nobody else holds the latch while a does");
    drop(held_a);
    let (who, held_b) = within(10, "the next holder", rx.recv()).await.unwrap();
    assert_eq!(who, "b");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(rx.try_recv().is_err(), "c waits while b holds the latch");
    drop(held_b);
    let (who, _held_c) = within(10, "the last holder", rx.recv()).await.unwrap();
    assert_eq!(who, "c");
}

async fn watch_events_arrive_in_order(f: Fixture) {
    let r = f.registry().await;
    let mut w = r.watch_subtree("/w").await.unwrap();
    r.create("/w", b"", Mode::Persistent).await.unwrap();
    r.create("/w/a", b"1", Mode::Persistent).await.unwrap();
    r.set("/w/a", b"2", None).await.unwrap();
    r.create("/w/a/b", b"", Mode::Persistent).await.unwrap();
    r.delete("/w/a/b", None).await.unwrap();
    r.delete("/w/a", None).await.unwrap();
    r.create("/other", b"", Mode::Persistent).await.unwrap();
    r.create("/w2", b"", Mode::Persistent).await.unwrap();
    r.set("/w", b"last", None).await.unwrap();
    let mut got = Vec::new();
    for _ in 0..7 {
        got.push(within(10, "watch events", w.next()).await.unwrap());
    }
    use WatchEvent::*;
    assert_eq!(
        got,
        [
            Created("/w".into()),
            Created("/w/a".into()),
            Changed("/w/a".into()),
            Created("/w/a/b".into()),
            Deleted("/w/a/b".into()),
            Deleted("/w/a".into()),
            Changed("/w".into()),
        ]
    );
}

async fn watch_resyncs_after_an_outage(mut f: Fixture) {
    let r = f.registry().await;
    r.create("/r", b"", Mode::Persistent).await.unwrap();
    let epoch = r.session().borrow().epoch;
    let mut w = r.watch_subtree("/r").await.unwrap();
    f.outage().await;
    assert_eq!(within(30, "a resync", w.next()).await, Some(WatchEvent::Resync));
    assert_eq!(r.session().borrow().epoch, epoch, "the session survived the outage");
    // The watch still delivers events after the outage: the crate alone would have lost it.
    r.create("/r/after", b"", Mode::Persistent).await.unwrap();
    assert_eq!(within(10, "an event after the outage", w.next()).await, Some(WatchEvent::Created("/r/after".into())));
}

fn lazy_running(p: &str) -> bool {
    p.ends_with("/running")
}

/// The job view a cache keeps current equals the one built from all its nodes.
fn assert_live_view(cache: &TreeCache) {
    let nodes = cache.read();
    let live = nodes.projection::<LiveSnapshot>().and_then(LiveSnapshot::current).expect("the cache keeps a job view");
    assert_eq!(*live, JobSnapshot::from_cache(&JobPaths::new("job"), &nodes));
}

async fn cache_follows_changes_and_resyncs_after_a_new_session(f: Fixture) {
    let r = f.registry().await;
    let other = f.registry().await;
    r.create("/job/config", b"v1", Mode::Persistent).await.unwrap();
    other.create("/job/sharding/1/instance", b"10.0.0.1@-@1", Mode::Persistent).await.unwrap();
    let live = Box::new(LiveSnapshot::with_threshold(JobPaths::new("job"), 0));
    let mut cache = TreeCache::start_projected(r.clone(), "/job", lazy_running, live, 0).await.unwrap();
    assert_eq!(cache.read().data("/job/config"), Some(&b"v1"[..]));
    assert_live_view(&cache);
    other.set("/job/config", b"v2", None).await.unwrap();
    assert_eq!(within(10, "a change", cache.recv()).await, Some(CacheEvent::Changed("/job/config".into())));
    assert_eq!(cache.read().data("/job/config"), Some(&b"v2"[..]));
    other.create("/job/sharding/0/running", b"owner", Mode::Persistent).await.unwrap();
    within(10, "the running node", cache.wait_until(|v| v.exists("/job/sharding/0/running"))).await;
    assert_eq!(cache.read().node("/job/sharding/0/running").unwrap().data, None, "lazy nodes are not read");
    assert_eq!(cache.read().children("/job/sharding"), ["0", "1"]);
    assert_live_view(&cache);

    // The cache's session expires; changes made meanwhile reach it through the resync.
    r.expire_session().await.unwrap();
    other.set("/job/config", b"v3", None).await.unwrap();
    other.create("/job/servers/10.0.0.1", b"ENABLED", Mode::Persistent).await.unwrap();
    other.delete("/job/sharding/1/instance", None).await.unwrap();
    let mut saw_resync = false;
    within(30, "the cache to resync", async {
        while let Some(ev) = cache.recv().await {
            if ev == CacheEvent::Resynced {
                saw_resync = true;
            }
            let v = cache.read();
            if saw_resync && v.data("/job/config") == Some(&b"v3"[..]) && v.exists("/job/servers/10.0.0.1") {
                break;
            }
        }
    })
    .await;
    assert!(saw_resync);
    assert_eq!(cache.read().node("/job/sharding/0/running").unwrap().data, None, "a re-read keeps no lazy data");
    assert!(r.session().borrow().epoch >= 2, "a new session was built");
    within(10, "the deletion made meanwhile", cache.wait_until(|v| !v.exists("/job/sharding/1/instance"))).await;
    assert_live_view(&cache);
    other.delete("/job/servers/10.0.0.1", None).await.unwrap();
    within(10, "events on the new session", cache.wait_until(|v| !v.exists("/job/servers/10.0.0.1"))).await;
    assert_live_view(&cache);
    assert!(cache.read().projection::<LiveSnapshot>().and_then(LiveSnapshot::current).unwrap().servers.is_empty());
}

/// The next events of `cache` already queued or arriving within a moment, up to its view showing
/// `done`.
async fn events_until(
    cache: &mut TreeCache,
    what: &str,
    done: impl Fn(&ejctl::registry::cache::CacheRead<'_>) -> bool,
) -> Vec<CacheEvent> {
    let mut seen = Vec::new();
    within(30, what, async {
        while !done(&cache.read()) {
            seen.extend(cache.recv().await);
        }
    })
    .await;
    while let Some(ev) = cache.try_recv() {
        seen.push(ev);
    }
    seen
}

/// `seen`, and then `cache`'s events up to the end of a resync when `seen` shows none (a resync
/// shows its nodes before it reports them).
async fn until_resynced(cache: &mut TreeCache, what: &str, mut seen: Vec<CacheEvent>) -> Vec<CacheEvent> {
    if !seen.contains(&CacheEvent::Resynced) {
        within(30, what, async {
            while let Some(ev) = cache.recv().await {
                seen.push(ev.clone());
                if ev == CacheEvent::Resynced {
                    break;
                }
            }
        })
        .await;
    }
    seen
}

/// One watch on the namespace feeds several caches: each sees its own subtree's events and no
/// other's, a cache joining while its subtree changes misses nothing, a duplicate root gets a
/// watch of its own, a new session resyncs every cache, and the caches outlive the hub's handle.
async fn a_hub_feeds_each_cache_its_own_events(f: Fixture) {
    let r = f.registry().await;
    let other = f.registry().await;
    for p in ["/a/x", "/b/y", "/c/z"] {
        other.create(p, b"0", Mode::Persistent).await.unwrap();
    }
    let hub = CacheHub::start(r.clone(), "/").await.unwrap();
    let mut a = hub.cache("/a", |_| false, None, 0, &|_| {}).await.unwrap();
    let mut b = hub.cache("/b", |_| false, None, 0, &|_| {}).await.unwrap();
    let mut a2 = hub.cache("/a", |_| false, None, 0, &|_| {}).await.unwrap();
    assert_eq!(a.read().data("/a/x"), Some(&b"0"[..]));
    assert_eq!(b.read().data("/b/y"), Some(&b"0"[..]));

    // One transaction: its events arrive together and are read in one request.
    let set = |p: &str, v: &[u8]| Op::Set { path: p.into(), data: v.to_vec(), version: None };
    other.transaction(&[set("/a/x", b"1"), set("/b/y", b"1"), set("/c/z", b"1")]).await.unwrap();
    let seen = events_until(&mut a, "a's change", |v| v.data("/a/x") == Some(&b"1"[..])).await;
    assert_eq!(seen, [CacheEvent::Changed("/a/x".into())]);
    let seen = events_until(&mut b, "b's change", |v| v.data("/b/y") == Some(&b"1"[..])).await;
    assert_eq!(seen, [CacheEvent::Changed("/b/y".into())]);
    let seen = events_until(&mut a2, "the second cache of a", |v| v.data("/a/x") == Some(&b"1"[..])).await;
    assert_eq!(seen, [CacheEvent::Changed("/a/x".into())]);

    // A cache joining while its subtree is being written ends with every node, each reported
    // at most once as created.
    let writer = {
        let other = other.clone();
        tokio::spawn(async move {
            for i in 0..100 {
                other.create(&format!("/d/n{i:03}"), b"", Mode::Persistent).await.unwrap();
            }
        })
    };
    let mut d = hub.cache("/d", |_| false, None, 0, &|_| {}).await.unwrap();
    writer.await.unwrap();
    let seen = events_until(&mut d, "every node of d", |v| v.exists("/d/n099")).await;
    assert_eq!(d.read().children("/d").len(), 100);
    let mut created: Vec<&CacheEvent> = seen.iter().filter(|e| matches!(e, CacheEvent::Created(_))).collect();
    let count = created.len();
    created.sort_by_key(|e| format!("{e:?}"));
    created.dedup();
    assert_eq!(created.len(), count, "a node reported created twice: {seen:?}");

    // A new session: every cache on the hub re-reads, and learns what changed meanwhile.
    r.expire_session().await.unwrap();
    other.set("/a/x", b"2", None).await.unwrap();
    other.delete("/b/y", None).await.unwrap();
    let seen = events_until(&mut a, "a's change", |v| v.data("/a/x") == Some(&b"2"[..])).await;
    let seen = until_resynced(&mut a, "a's resync", seen).await;
    assert!(seen.contains(&CacheEvent::Changed("/a/x".into())), "{seen:?}");
    let seen = events_until(&mut b, "b's deletion", |v| !v.exists("/b/y")).await;
    let seen = until_resynced(&mut b, "b's resync", seen).await;
    assert!(seen.contains(&CacheEvent::Deleted("/b/y".into())), "{seen:?}");

    // The caches outlive the hub's handle; a dropped cache leaves the others fed.
    drop(hub);
    drop(a2);
    other.create("/b/y", b"3", Mode::Persistent).await.unwrap();
    let seen = events_until(&mut b, "b's node again", |v| v.exists("/b/y")).await;
    assert_eq!(seen, [CacheEvent::Created("/b/y".into())]);
    other.set("/a/x", b"4", None).await.unwrap();
    events_until(&mut a, "a's change after the hub's handle went", |v| v.data("/a/x") == Some(&b"4"[..])).await;
}

async fn owner_reregisters_ephemerals_after_session_expiry(f: Fixture) {
    let owner = f.registry().await;
    let observer = f.registry().await;
    owner.put_ephemeral("/job/instances/10.0.0.9@-@1", b"me").await.unwrap();
    let old_session = owner.session_id();
    // The owner's loop: re-create its ephemeral node whenever a new session starts.
    let task = {
        let owner = owner.clone();
        let mut status = owner.session();
        let mut epoch = status.borrow().epoch;
        tokio::spawn(async move {
            while status.changed().await.is_ok() {
                let s = *status.borrow();
                if s.epoch != epoch && s.state == LinkState::Connected {
                    epoch = s.epoch;
                    owner.put_ephemeral("/job/instances/10.0.0.9@-@1", b"me").await.unwrap();
                }
            }
        })
    };
    owner.expire_session().await.unwrap();
    within(30, "the instance node to come back under a new session", async {
        loop {
            if let Some(stat) = observer.exists("/job/instances/10.0.0.9@-@1").await.unwrap()
                && stat.ephemeral_owner != old_session
                && stat.ephemeral_owner != 0
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    })
    .await;
    assert_eq!(
        observer.exists("/job/instances/10.0.0.9@-@1").await.unwrap().unwrap().ephemeral_owner,
        owner.session_id()
    );
    task.abort();
}

async fn read_subtree_reads_every_node(f: Fixture) {
    let r = f.registry().await;
    let mut ops = vec![Op::Create { path: "/big".into(), data: b"root".to_vec(), mode: Mode::Persistent }];
    for i in 0..40 {
        ops.push(Op::Create { path: format!("/big/{i}"), data: format!("v{i}").into_bytes(), mode: Mode::Persistent });
        for j in 0..5 {
            ops.push(Op::Create { path: format!("/big/{i}/{j}"), data: vec![], mode: Mode::Persistent });
        }
    }
    r.transaction(&ops).await.unwrap();
    let nodes = r.read_subtree("/big", &|_| {}).await.unwrap().unwrap();
    assert_eq!(nodes.len(), 1 + 40 + 200);
    assert_eq!(nodes[0].path, "/big");
    let n7 = nodes.iter().find(|n| n.path == "/big/7").unwrap();
    assert_eq!(n7.node.data, b"v7");
    assert_eq!(n7.node.stat.num_children, 5);
    assert_eq!(r.read_subtree("/missing", &|_| {}).await.unwrap(), None);
}

async fn put_ephemeral_never_churns_its_own_node(f: Fixture) {
    let a = f.registry().await;
    let b = f.registry().await;
    a.put_ephemeral("/p/e", b"1").await.unwrap();
    let first = a.exists("/p/e").await.unwrap().unwrap();
    a.put_ephemeral("/p/e", b"1").await.unwrap();
    a.put_ephemeral("/p/e", b"2").await.unwrap();
    let again = a.get("/p/e").await.unwrap().unwrap();
    assert_eq!(again.stat.czxid, first.czxid, "the node was not re-created");
    assert_eq!(again.data, b"2");
    // Another session's node at the path is replaced.
    b.put_ephemeral("/p/e", b"b").await.unwrap();
    let taken = b.get("/p/e").await.unwrap().unwrap();
    assert_eq!(taken.stat.ephemeral_owner, b.session_id());
}

/// A watched cache keeps delivering events after ZooKeeper restarts within the session timeout,
/// and the session (with its ephemeral nodes) survives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cache_keeps_delivering_after_zookeeper_restart() {
    let mut server = ZkServer::start();
    let ns = unique_ns("restart");
    let r = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    r.put_ephemeral("/job/instances/1.1.1.1@-@1", b"").await.unwrap();
    r.create("/job/config", b"a", Mode::Persistent).await.unwrap();
    let mut cache = TreeCache::start(r.clone(), "/job", |_| false).await.unwrap();
    let session = r.session_id();
    for round in 0..2 {
        tokio::task::block_in_place(|| server.restart());
        within(30, "the reconnect", r.session().wait_for(|s| s.state == LinkState::Connected)).await.unwrap();
        let value = format!("after-restart-{round}");
        r.set("/job/config", value.as_bytes(), None).await.unwrap();
        within(
            10,
            "the change after the restart",
            cache.wait_until(|v| v.text("/job/config").as_deref() == Some(&value)),
        )
        .await;
    }
    assert_eq!(r.session_id(), session, "same session");
    assert!(r.exists("/job/instances/1.1.1.1@-@1").await.unwrap().is_some(), "the ephemeral survived");
    let mut resyncs = 0;
    while let Some(ev) = cache.try_recv() {
        resyncs += usize::from(ev == CacheEvent::Resynced);
    }
    assert!(resyncs >= 1, "the cache re-read after reconnecting");
}

/// A real expiry: the server is gone longer than the session timeout, the client declares the
/// session expired, builds a new one when the server is back, and the owner re-registers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn real_session_expiry_builds_a_new_session() {
    let mut server = ZkServer::start();
    let ns = unique_ns("expiry");
    let mut opts = zk_options(&server.connect_string(), &ns);
    opts.session_timeout = Duration::from_secs(2);
    let r = Registry::connect(opts).await.unwrap();
    r.put_ephemeral("/job/instances/2.2.2.2@-@2", b"").await.unwrap();
    let old = r.session_id();
    let mut status = r.session();
    tokio::task::block_in_place(|| server.member().kill());
    within(30, "the local expiry", status.wait_for(|s| s.state == LinkState::Expired)).await.unwrap();
    tokio::task::block_in_place(|| server.start_again());
    within(60, "a new session", status.wait_for(|s| s.epoch == 2 && s.state == LinkState::Connected)).await.unwrap();
    assert_ne!(r.session_id(), old);
    r.put_ephemeral("/job/instances/2.2.2.2@-@2", b"").await.unwrap();
    let stat = r.exists("/job/instances/2.2.2.2@-@2").await.unwrap().unwrap();
    assert_eq!(stat.ephemeral_owner, r.session_id());
}

/// The ensemble keeps serving a client whose member is killed: same session, watches intact.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ensemble_survives_losing_the_connected_member() {
    let mut ensemble = ZkEnsemble::start();
    let ns = unique_ns("ensemble");
    let r = Registry::connect(zk_options(&ensemble.connect_string(), &ns)).await.unwrap();
    r.put_ephemeral("/job/instances/3.3.3.3@-@3", b"").await.unwrap();
    let mut cache = TreeCache::start(r.clone(), "/job", |_| false).await.unwrap();
    let session = r.session_id();
    let member =
        tokio::task::block_in_place(|| ensemble.member_with_session(session)).expect("a member holds the session");
    tokio::task::block_in_place(|| ensemble.members[member].kill());
    // A request in flight when the member died fails with a connection loss (its outcome
    // unknown); `put` is idempotent, so retry it until the client has moved to another member.
    let mut attempts = 0;
    while let Err(e) = r.put("/job/config", b"written after the kill").await {
        attempts += 1;
        assert!(attempts < 40 && matches!(e, RegistryError::ConnectionLoss), "put after the kill: {e}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    within(20, "the cache to see the write", cache.wait_until(|v| v.exists("/job/config"))).await;
    assert_eq!(r.session_id(), session);
    assert!(r.exists("/job/instances/3.3.3.3@-@3").await.unwrap().is_some());
    // A later change still arrives as an event (the watch was re-registered on the new member).
    let other = Registry::connect(zk_options(&ensemble.connect_string(), &ns)).await.unwrap();
    other.set("/job/config", b"changed", None).await.unwrap();
    within(20, "an event from the new member", cache.wait_until(|v| v.data("/job/config") == Some(&b"changed"[..])))
        .await;
    tokio::task::block_in_place(|| ensemble.start_member(member));
    let _ = cache.try_recv();
}

/// The embedded registry's fault injection, which the simulator builds on, behaves as ZooKeeper
/// does: a partitioned handle's requests wait and its session survives until the server expires
/// it; a healed handle learns of the expiry and gets a new session; a lost reply leaves the
/// request applied; a crashed process's session lingers until the server expires it.
mod embedded_faults {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use ejctl::registry::cache::CacheHub;
    use ejctl::registry::embedded::{EmbeddedStore, Fault};
    use ejctl::registry::{LinkState, Mode, Op, Registry, RegistryError};

    use crate::support::within;

    fn client(r: &Registry) -> u64 {
        r.embedded_client().expect("an embedded handle")
    }

    #[tokio::test]
    async fn a_partitioned_handle_waits_and_keeps_its_session() {
        let store = EmbeddedStore::new();
        let (a, b) = (Registry::embedded(&store), Registry::embedded(&store));
        a.put_ephemeral("/j/instances/a", b"").await.unwrap();
        let session = a.session_id();
        store.partition(client(&a));
        assert_eq!(a.session().borrow().state, LinkState::Disconnected);
        let pending = tokio::spawn({
            let a = a.clone();
            async move { a.put("/j/written-while-cut-off", b"x").await }
        });
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert!(!pending.is_finished(), "a partitioned handle's request waits");
        assert!(b.exists("/j/written-while-cut-off").await.unwrap().is_none());
        assert!(b.exists("/j/instances/a").await.unwrap().is_some(), "the session outlives the partition");
        store.heal(client(&a));
        pending.await.unwrap().unwrap();
        assert!(b.exists("/j/written-while-cut-off").await.unwrap().is_some());
        assert_eq!(a.session_id(), session);
        assert_eq!(a.session().borrow().state, LinkState::Connected);
    }

    #[tokio::test]
    async fn an_expiry_during_a_partition_is_learnt_on_heal() {
        let store = EmbeddedStore::new();
        let (a, b) = (Registry::embedded(&store), Registry::embedded(&store));
        a.put_ephemeral("/j/instances/a", b"").await.unwrap();
        let (session, epoch) = (a.session_id(), a.session().borrow().epoch);
        store.partition(client(&a));
        store.expire(client(&a));
        assert!(b.exists("/j/instances/a").await.unwrap().is_none(), "the server dropped its ephemerals");
        assert_eq!(a.session().borrow().state, LinkState::Disconnected, "the handle has not heard yet");
        store.heal(client(&a));
        assert_ne!(a.session_id(), session);
        assert_eq!(a.session().borrow().epoch, epoch + 1);
        a.put_ephemeral("/j/instances/a", b"").await.unwrap();
        assert_eq!(b.exists("/j/instances/a").await.unwrap().unwrap().ephemeral_owner, a.session_id());
    }

    #[tokio::test]
    async fn a_lost_reply_leaves_the_request_applied_and_a_failure_does_not() {
        let store = EmbeddedStore::new();
        let (a, b) = (Registry::embedded(&store), Registry::embedded(&store));
        let faults = [Fault::LoseReply, Fault::Fail];
        let next = Arc::new(AtomicUsize::new(0));
        let plan_next = Arc::clone(&next);
        store.set_faults(
            client(&a),
            Some(Box::new(move || {
                faults.get(plan_next.fetch_add(1, Ordering::SeqCst)).copied().unwrap_or(Fault::None)
            })),
        );
        let lost = a.create("/lost-reply", b"", Mode::Persistent).await;
        assert!(matches!(lost, Err(RegistryError::ConnectionLoss)), "{lost:?}");
        assert!(b.exists("/lost-reply").await.unwrap().is_some(), "applied although the reply was lost");
        let failed = a.create("/failed", b"", Mode::Persistent).await;
        assert!(matches!(failed, Err(RegistryError::ConnectionLoss)), "{failed:?}");
        assert!(b.exists("/failed").await.unwrap().is_none(), "a failed request is not applied");
        store.set_faults(client(&a), None);
        a.create("/after", b"", Mode::Persistent).await.unwrap();
    }

    /// When a batch's read fails for many caches of a hub, they re-read their subtrees a bounded
    /// number at a time (64 in the process), not all at once.
    #[tokio::test]
    async fn caches_recovering_from_a_failed_read_re_read_a_few_at_a_time() {
        const CACHES: usize = 100;
        let store = EmbeddedStore::new();
        let (r, other) = (Registry::embedded(&store), Registry::embedded(&store));
        for i in 0..CACHES {
            other.create(&format!("/j{i}/x"), b"0", Mode::Persistent).await.unwrap();
        }
        let hub = CacheHub::start(r.clone(), "/").await.unwrap();
        let mut caches = Vec::new();
        for i in 0..CACHES {
            caches.push(hub.cache(&format!("/j{i}"), |_| false, None, 0, &|_| {}).await.unwrap());
        }
        // The batch's read fails; every re-read after it hangs, holding its turn.
        let requests = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&requests);
        store.set_faults(
            client(&r),
            Some(Box::new(move || {
                if counted.fetch_add(1, Ordering::SeqCst) == 0 {
                    Fault::Fail
                } else {
                    Fault::Delay(Duration::from_secs(3600))
                }
            })),
        );
        let set = |i: usize| Op::Set { path: format!("/j{i}/x"), data: b"1".to_vec(), version: None };
        other.transaction(&(0..CACHES).map(set).collect::<Vec<_>>()).await.unwrap();
        within(20, "the first re-reads", async {
            while requests.load(Ordering::SeqCst) < 2 {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
        .await;
        // Time for every waiting cache to start its re-read, were they not bounded.
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = requests.load(Ordering::SeqCst) - 1;
        assert!(started <= 64, "{started} of {CACHES} caches re-read at once");
        drop(caches);
    }

    #[tokio::test]
    async fn a_crashed_handles_session_lingers_until_the_server_expires_it() {
        let store = EmbeddedStore::new();
        let (a, b) = (Registry::embedded(&store), Registry::embedded(&store));
        a.put_ephemeral("/j/instances/a", b"").await.unwrap();
        let session = a.session_id();
        store.linger(client(&a));
        drop(a);
        assert!(store.session_open(session));
        assert!(b.exists("/j/instances/a").await.unwrap().is_some());
        store.expire_session_id(session);
        assert!(!store.session_open(session));
        assert!(b.exists("/j/instances/a").await.unwrap().is_none());
    }
}

/// A latch attempt given up while its node is being created (a round that stopped waiting, a
/// task that stopped) leaves no node: one left in a live session would stand ahead of every
/// later contender for as long as the session lives. A proxy holds the creation's reply back
/// while the attempt is dropped. ZooKeeper only: the embedded registry creates the node at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_latch_given_up_while_its_node_is_created_leaves_none() {
    let server = ZkServer::start();
    let proxy = Proxy::start(([127, 0, 0, 1], server.port()).into());
    let ns = unique_ns("latch");
    let r = Registry::connect(zk_options(&proxy.addr(), &ns)).await.unwrap();
    let dir = "/job/leader/failover/latch";
    for node in ["/job", "/job/leader", "/job/leader/failover", dir] {
        r.create(node, b"", Mode::Persistent).await.unwrap();
    }
    proxy.delay(Duration::from_millis(500), Duration::ZERO);
    let given_up = tokio::time::timeout(Duration::from_millis(100), r.latch(dir)).await;
    assert!(given_up.is_err(), "the attempt was granted before its reply could arrive");
    proxy.delay(Duration::ZERO, Duration::ZERO);
    let held = within(10, "the latch after an attempt given up", r.latch(dir)).await.unwrap();
    drop(held);
    let empty = async {
        while !r.children(dir).await.unwrap().unwrap_or_default().is_empty() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    within(10, "every latch node gone", empty).await;
}
