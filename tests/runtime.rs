//! The worker runtime end to end: `ejctl run` processes on a real ZooKeeper, and the same
//! scenarios with in-process workers on the embedded registry. Observed through the runs the
//! script job records (see `support::cluster`).

use std::collections::{BTreeMap, BTreeSet};

use ejctl::registry::Mode;
use ejctl::registry::codec::ServerStatus;

use crate::support::cluster::{Cluster, Run, next_second_fire};

const EVERY_SECOND: &str =
    "name = \"rec\"\ncron = \"* * * * * ?\"\nsharding_total_count = 6\ncommand = \"{script} {record}\"";
const ONE_OFF: &str = "name = \"once\"\nsharding_total_count = 3\ncommand = \"{script} {record}\"";

/// Generates a ZooKeeper (processes) and an embedded (in-process) test for a scenario.
macro_rules! on_both_clusters {
    ($($scenario:ident => ($job_name:expr, $job:expr)),* $(,)?) => {
        $(
            mod $scenario {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn zookeeper_processes() {
                    super::$scenario(crate::support::cluster::Cluster::zookeeper($job_name, $job).await).await;
                }
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn embedded_in_process() {
                    super::$scenario(crate::support::cluster::Cluster::embedded($job_name, $job).await).await;
                }
            }
        )*
    };
}

on_both_clusters!(
    every_item_runs_once_per_fire_and_membership_changes_reshard => ("rec", super::EVERY_SECOND),
    a_disabled_server_leaves_its_items_to_the_others => ("rec", super::EVERY_SECOND),
    a_trigger_runs_a_one_off_job_once => ("once", super::ONE_OFF),
);

/// Checks that fire `fire` ran every item in 0..total exactly once, on instances within `on`.
fn assert_fire(c: &Cluster, fire: i64, total: u32, on: &BTreeSet<String>) -> BTreeSet<String> {
    let by_fire = c.runs_by_fire();
    let runs = by_fire.get(&fire).cloned().unwrap_or_default();
    let items: Vec<u32> = {
        let mut v: Vec<u32> = runs.iter().map(|r| r.item).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(
        items,
        (0..total).collect::<Vec<_>>(),
        "fire {fire}: every item exactly once; runs {runs:#?}\n{}",
        c.logs()
    );
    let used: BTreeSet<String> = runs.iter().map(|r| r.instance.clone()).collect();
    assert!(used.is_subset(on), "fire {fire} ran on {used:?}, expected within {on:?}");
    used
}

/// No item ever ran twice for one fire, and two runs of one item never overlapped.
fn assert_no_duplicates_or_overlaps(runs: &[Run]) {
    let mut seen = BTreeSet::new();
    for r in runs {
        assert!(seen.insert((r.fire, r.item)), "item {} ran twice for fire {}: {runs:#?}", r.item, r.fire);
    }
    let mut by_item: BTreeMap<u32, Vec<&Run>> = BTreeMap::new();
    for r in runs {
        by_item.entry(r.item).or_default().push(r);
    }
    for (item, mut list) in by_item {
        list.sort_by_key(|r| r.start);
        for w in list.windows(2) {
            assert!(w[0].end <= w[1].start, "item {item} overlapped: {:?} and {:?}", w[0], w[1]);
        }
    }
}

fn set(ids: &[String]) -> BTreeSet<String> {
    ids.iter().cloned().collect()
}

async fn every_item_runs_once_per_fire_and_membership_changes_reshard(mut c: Cluster) {
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    let d = c.start("127.0.0.3").await;
    let three = [c.id(a), c.id(b), c.id(d)];
    c.wait_settled(&three, 6).await;

    // Ten fires: every item exactly once each, spread over the three instances.
    let first = next_second_fire(300);
    let last = first + 9_000;
    c.wait_fire(last, 6).await;
    for fire in (first..=last).step_by(1000) {
        let used = assert_fire(&c, fire, 6, &set(&three));
        assert_eq!(used.len(), 3, "fire {fire} used every instance");
    }

    // A fourth instance joins: the next fire already uses it.
    let e = c.start("127.0.0.4").await;
    let four = [c.id(a), c.id(b), c.id(d), c.id(e)];
    let fire = next_second_fire(500);
    c.wait_fire(fire, 6).await;
    let used = assert_fire(&c, fire, 6, &set(&four));
    assert_eq!(used.len(), 4, "the joined instance got items at the next fire");

    // One leaves gracefully: the next fire runs every item on the other three.
    c.stop(b).await;
    let remaining = [c.id(a), c.id(d), c.id(e)];
    let fire = next_second_fire(500);
    c.wait_fire(fire, 6).await;
    let used = assert_fire(&c, fire, 6, &set(&remaining));
    assert_eq!(used.len(), 3);
    assert!(c.registry.exists(&c.paths().instance(&c.id(b))).await.unwrap().is_none(), "the stopped instance left");
    assert_no_duplicates_or_overlaps(&c.runs());
}

async fn a_disabled_server_leaves_its_items_to_the_others(mut c: Cluster) {
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    let d = c.start("127.0.0.3").await;
    let all = [c.id(a), c.id(b), c.id(d)];
    c.wait_settled(&all, 6).await;

    // What `ejctl job disable rec --server 127.0.0.2` writes.
    c.registry.put(&c.paths().server("127.0.0.2"), ServerStatus::Disabled.encode()).await.unwrap();
    let fire = next_second_fire(500);
    c.wait_fire(fire, 6).await;
    let used = assert_fire(&c, fire, 6, &set(&[c.id(a), c.id(d)]));
    assert_eq!(used.len(), 2);

    // Enabled again: it gets items back.
    c.registry.put(&c.paths().server("127.0.0.2"), ServerStatus::Enabled.encode()).await.unwrap();
    let fire = next_second_fire(500);
    c.wait_fire(fire, 6).await;
    let used = assert_fire(&c, fire, 6, &set(&all));
    assert_eq!(used.len(), 3);
    assert_no_duplicates_or_overlaps(&c.runs());
}

async fn a_trigger_runs_a_one_off_job_once(mut c: Cluster) {
    let a = c.start("127.0.0.1").await;
    let b = c.start("127.0.0.2").await;
    let d = c.start("127.0.0.3").await;
    let all = [c.id(a), c.id(b), c.id(d)];
    c.wait_settled(&all, 3).await;
    assert!(c.runs().is_empty(), "a one-off job does not run on its own");

    // What `ejctl job trigger once` writes: a trigger node per instance.
    let paths = c.paths();
    c.registry.delete_recursive(&paths.triggers()).await.unwrap();
    for id in &all {
        c.registry.create(&paths.trigger(id), b"", Mode::Persistent).await.unwrap();
    }
    c.wait_until(20, "the triggered items to run", async |c| c.runs().len() >= 3).await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let runs = c.runs();
    let items: BTreeSet<u32> = runs.iter().map(|r| r.item).collect();
    assert_eq!(runs.len(), 3, "once per item: {runs:#?}");
    assert_eq!(items, BTreeSet::from([0, 1, 2]));
    let used: BTreeSet<String> = runs.iter().map(|r| r.instance.clone()).collect();
    assert_eq!(used, set(&all), "each instance ran its item");
    assert!(
        c.registry.children(&paths.triggers()).await.unwrap().unwrap_or_default().is_empty(),
        "trigger nodes are consumed"
    );
}
