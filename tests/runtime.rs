//! The worker runtime end to end: `ejctl run` processes on a real ZooKeeper, and the same
//! scenarios with in-process workers on the embedded registry. Observed through the runs the
//! script job records (see `support::cluster`).

use std::collections::{BTreeMap, BTreeSet};

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

    c.trigger(&all).await;
    c.wait_until(20, "the triggered items to run", async |c| c.runs().len() >= 3).await;
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let runs = c.runs();
    let items: BTreeSet<u32> = runs.iter().map(|r| r.item).collect();
    assert_eq!(runs.len(), 3, "once per item: {runs:#?}");
    assert_eq!(items, BTreeSet::from([0, 1, 2]));
    let used: BTreeSet<String> = runs.iter().map(|r| r.instance.clone()).collect();
    assert_eq!(used, set(&all), "each instance ran its item");
    assert!(
        c.registry.children(&c.paths().triggers()).await.unwrap().unwrap_or_default().is_empty(),
        "trigger nodes are consumed"
    );
}

mod reactions {
    //! Reactions to the registry (docs/src/design/compatibility.md#sessions-and-reactions) and the
    //! process life of `ejctl run`.

    use std::collections::BTreeSet;
    use std::time::Duration;

    use ejctl::config::JobConfig;
    use ejctl::registry::path::ItemLeaf;

    use crate::support::cluster::{Cluster, ClusterOptions, next_second_fire, signal};

    async fn update_config(c: &Cluster, change: impl FnOnce(&mut JobConfig)) {
        let node = c.registry.get(&c.paths().config()).await.unwrap().unwrap();
        let mut config = JobConfig::from_yaml(&node.text()).unwrap();
        change(&mut config);
        c.registry.set(&c.paths().config(), config.to_yaml().as_bytes(), Some(node.stat.version)).await.unwrap();
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn configuration_changes_take_effect_without_a_restart() {
        let job = "name = \"cfg\"\ncron = \"* * * * * ?\"\nsharding_total_count = 2\ncommand = \"{script} {record}\"";
        let mut c = Cluster::embedded("cfg", job).await;
        let a = c.start("127.0.0.1").await;
        let b = c.start("127.0.0.2").await;
        let ids = [c.id(a), c.id(b)];
        c.wait_settled(&ids, 2).await;

        // shardingTotalCount 2 → 4: resharded, every fire runs four items.
        update_config(&c, |cfg| cfg.sharding_total_count = 4).await;
        c.wait_settled(&ids, 4).await;
        let fire = next_second_fire(500);
        c.wait_fire(fire, 4).await;
        let items: BTreeSet<u32> = c.runs().iter().filter(|r| r.fire == fire).map(|r| r.item).collect();
        assert_eq!(items, (0..4).collect());

        // A new cron: every third second once the fire already due when it arrived has passed.
        update_config(&c, |cfg| cfg.cron = Some("0/3 * * * * ?".into())).await;
        let from = chrono::Utc::now().timestamp_millis() + 1000;
        c.wait_until(20, "two fires on the new schedule", async |c| {
            c.runs_by_fire().keys().filter(|f| **f > from).count() >= 2
        })
        .await;
        for fire in c.runs_by_fire().keys().filter(|f| **f > from) {
            assert_eq!((fire / 1000) % 3, 0, "fire {fire} is not on the 0/3 schedule");
        }

        // monitorExecution switched off: running nodes are cleared and no longer written.
        c.set_sleep(Some(30.0));
        update_config(&c, |cfg| cfg.cron = Some("* * * * * ?".into())).await;
        let running = c.paths().item_leaf(0, ItemLeaf::Running);
        c.wait_until(10, "a long run with its running node", async |c| {
            c.registry.exists(&running).await.unwrap().is_some()
        })
        .await;
        update_config(&c, |cfg| cfg.monitor_execution = false).await;
        c.wait_until(10, "the running nodes to be cleared", async |c| {
            c.registry.exists(&running).await.unwrap().is_none()
        })
        .await;
        c.set_sleep(None);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn an_operator_shutdown_stops_the_job_in_that_process() {
        let job = "name = \"rec\"\ncron = \"* * * * * ?\"\nsharding_total_count = 4\ncommand = \"{script} {record}\"";
        let mut c = Cluster::zookeeper("rec", job).await;
        let a = c.start("127.0.0.1").await;
        let b = c.start("127.0.0.2").await;
        let (ida, idb) = (c.id(a), c.id(b));
        c.wait_settled(&[ida.clone(), idb.clone()], 4).await;
        // What `ejctl job shutdown rec --server 127.0.0.1` does: delete the instance node.
        c.registry.delete(&c.paths().instance(&ida), None).await.unwrap();
        c.wait_settled(std::slice::from_ref(&idb), 4).await;
        let fire = next_second_fire(500);
        c.wait_fire(fire, 4).await;
        c.wait_fire(fire + 1000, 4).await;
        assert!(c.runs().iter().filter(|r| r.fire >= fire).all(|r| r.instance == idb), "a no longer runs the job");
        assert!(c.registry.exists(&c.paths().instance(&ida)).await.unwrap().is_none(), "a did not re-register");
    }

    const TRIGGERED: &str = "name = \"lone\"\nsharding_total_count = 1\ncommand = \"{script} {record}\"";

    /// One `ejctl run` process running the one-off job [`TRIGGERED`] on a real ZooKeeper.
    async fn lone(dump_port: Option<u16>) -> (Cluster, usize) {
        let options = ClusterOptions { kill_grace_seconds: 1, dump_port, ..ClusterOptions::default() };
        let mut c = Cluster::zookeeper_with("lone", TRIGGERED, options).await;
        let w = c.start("127.0.0.1").await;
        (c, w)
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_stop_signal_lets_running_items_finish_and_a_second_one_kills_them() {
        // Graceful: the running item finishes, then the worker leaves and exits 0.
        let (mut c, w) = lone(None).await;
        c.set_sleep(Some(2.0));
        c.trigger(&[c.id(w)]).await;
        c.wait_until(20, "the item to start", async |c| c.starts().len() == 1).await;
        signal(c.pid(w), "TERM");
        assert_eq!(c.wait_exit(w, Duration::from_secs(30)), Some(0));
        assert_eq!(c.runs().len(), 1, "the running item finished before the worker exited");
        assert!(c.registry.exists(&c.paths().instance(&c.id(w))).await.unwrap().is_none());

        // Forced: a second signal kills the item and exits 130 at once.
        let (mut c, w) = lone(None).await;
        c.set_sleep(Some(60.0));
        c.trigger(&[c.id(w)]).await;
        c.wait_until(20, "the item to start", async |c| c.starts().len() == 1).await;
        signal(c.pid(w), "TERM");
        c.wait_until(10, "the first signal to be handled", async |c| c.log(w).contains("stopping: no new fires")).await;
        signal(c.pid(w), "INT");
        assert_eq!(c.wait_exit(w, Duration::from_secs(10)), Some(130));
        assert!(c.runs().is_empty(), "the item was killed");
        assert!(c.registry.exists(&c.paths().instance(&c.id(w))).await.unwrap().is_none());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_dump_port_answers_with_the_jobs_tree() {
        let port = crate::support::zk::free_port();
        let (c, w) = lone(Some(port)).await;
        let out = assert_cmd::Command::cargo_bin("ejctl")
            .unwrap()
            .args(["dump", "lone", "--addr", &format!("127.0.0.1:{port}"), "-o", "plain"])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("/lone/servers/ip1 | ENABLED\n"), "{text}");
        assert!(text.contains(&format!("/lone/instances/ip1@-@{} | jobInstanceId: ip1@-@", c.pid(w))), "{text}");
        assert!(
            text.contains("/lone/config | cron")
                || text.contains("/lone/config | description")
                || text.contains("/lone/config | disabled"),
            "{text}"
        );
        assert!(!text.contains("127.0.0.1"), "addresses are masked: {text}");
        // An unknown job or a bad request gets no answer.
        let out = assert_cmd::Command::cargo_bin("ejctl")
            .unwrap()
            .args(["dump", "nope", "--addr", &format!("127.0.0.1:{port}")])
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        assert!(out.is_empty());
    }
}

/// A worker reacts to registry changes a bounded number of jobs at a time (its turns). With more
/// jobs than turns, every job still settles, and a change that concerns all of them at once (a
/// worker leaving) still reshards every one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn more_jobs_than_a_worker_reacts_to_at_once_all_settle_and_all_reshard() {
    use ejctl::config::JobConfig;
    use ejctl::registry::Registry;
    use ejctl::registry::codec::JobType;
    use ejctl::registry::embedded::EmbeddedStore;
    use ejctl::registry::path::{ItemLeaf, JobPaths};
    use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};

    use crate::support::eventually;

    const JOBS: usize = 200;
    const ITEMS: u32 = 2;
    let names: Vec<String> = (0..JOBS).map(|j| format!("many{j:03}")).collect();
    let store = EmbeddedStore::new();
    let start = async |ip: &str| {
        let jobs = names
            .iter()
            .map(|name| {
                let mut config = JobConfig::new(name, ITEMS as i32);
                config.cron = Some("0 0 3 * * ?".into());
                config.props.insert("script.command.line".into(), "/bin/true".into());
                JobDefinition::new(JobType::Script, config)
            })
            .collect();
        let mut config = WorkerConfig::new(RegistryTarget::Embedded(store.clone()), jobs);
        config.ip = Some(ip.into());
        Worker::start(config).await.unwrap()
    };
    let a = start("10.0.0.1").await;
    let b = start("10.0.0.2").await;
    let r = Registry::embedded(&store);
    // Every item of every job owned by one of `owners`, and no resharding pending.
    let settled = async |owners: &[&str]| {
        for name in &names {
            let paths = JobPaths::new(name);
            if r.exists(&paths.sharding_necessary()).await.unwrap().is_some() {
                return false;
            }
            for item in 0..ITEMS {
                let owner = r.get(&paths.item_leaf(item, ItemLeaf::Instance)).await.unwrap();
                if !owner.is_some_and(|node| owners.contains(&node.text().as_str())) {
                    return false;
                }
            }
        }
        true
    };
    let (id_a, id_b) = (a.instance_id().to_string(), b.instance_id().to_string());
    eventually(60, "every job sharded over both workers", async || settled(&[&id_a, &id_b]).await).await;
    b.shutdown().await;
    eventually(60, "every job resharded onto the worker left", async || settled(&[&id_a]).await).await;
    a.shutdown().await;
}
