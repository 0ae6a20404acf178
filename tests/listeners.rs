//! Job-file listeners on a real `ejctl run`: `before` runs once per fire before its items start,
//! `after` once after they all ended (with the failed items), and a failing listener is logged
//! while the items still run. `before_once` / `after_once` run once per fire across several
//! `ejctl run` processes, also when one of them is SIGKILLed mid-fire.

use crate::support::worker::Worker;
use crate::support::{ZkServer, eventually, write_script};

/// The record's lines of `job`: (what, detail, ms).
fn lines(record: &std::path::Path, job: &str) -> Vec<(String, String, i64)> {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let mut out: Vec<(String, String, i64)> = text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            let [j, what, detail, ms] = f[..] else { return None };
            (j == job).then(|| (what.to_string(), detail.to_string(), ms.parse().unwrap()))
        })
        .collect();
    out.sort_by_key(|l| l.2);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn before_and_after_commands_run_once_per_fire_around_its_items() {
    let server = ZkServer::start();
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record");
    let r = record.display();
    let ms = "$(($(date +%s%N)/1000000))";
    let item = dir.path().join("item.sh");
    write_script(
        &item,
        &format!(
            "#!/bin/sh\necho \"$1 start $EJCTL_SHARDING_ITEM {ms}\" >> {r}\nsleep 0.3\n\
             echo \"$1 end $EJCTL_SHARDING_ITEM {ms}\" >> {r}\n[ \"$EJCTL_SHARDING_ITEM\" != 1 ]\n"
        ),
    );
    let hook = dir.path().join("hook.sh");
    write_script(
        &hook,
        &format!(
            "#!/bin/sh\nsleep 0.3\necho \"$1 $EJCTL_LISTENER $EJCTL_SHARDING_ITEMS/$EJCTL_FAILED_ITEMS {ms}\" >> {r}\n\
             [ \"$1\" != broken ]\n"
        ),
    );
    let (item, hook) = (item.display(), hook.display());
    let jobs = format!(
        "[[job]]\nname = \"hooked\"\ncron = \"0/20 * * * * ?\"\nsharding_total_count = 3\ncommand = \"{item} hooked\"\n\
         before = \"{hook} hooked\"\nafter = \"{hook} hooked\"\n\n\
         [[job]]\nname = \"broken\"\ncron = \"0/20 * * * * ?\"\nsharding_total_count = 1\ncommand = \"{item} broken\"\n\
         before = \"{hook} broken\"\n"
    );
    let mut worker = Worker::start(&server, dir, &jobs);
    eventually(60, "a fire of each job with its listeners", async || {
        worker.check_alive();
        lines(&record, "hooked").iter().any(|l| l.0 == "after") && lines(&record, "broken").iter().any(|l| l.0 == "end")
    })
    .await;
    let hooked = lines(&record, "hooked");
    let kinds: Vec<&str> = hooked.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(kinds.first(), Some(&"before"), "{hooked:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "before").count(), 1, "{hooked:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "start").count(), 3, "{hooked:?}");
    let after = hooked.iter().position(|l| l.0 == "after").unwrap();
    assert_eq!(hooked[..after].iter().filter(|l| l.0 == "end").count(), 3, "after comes last: {hooked:?}");
    assert_eq!(hooked[0].1, "0,1,2/", "{hooked:?}");
    assert_eq!(hooked[after].1, "0,1,2/1", "the failed item: {hooked:?}");
    // A failing `before` is logged; the item still runs.
    let broken = lines(&record, "broken");
    assert_eq!(broken[0].0, "before", "{broken:?}");
    eventually(20, "the listener failure to be logged", async || worker.log().contains("job listener failed")).await;
    // ... and handed to the job's error handler (`LOG`), as ElasticJob does.
    eventually(20, "the listener failure to reach the error handler", async || {
        worker.log().lines().any(|l| {
            l.contains("Job 'broken' exception occur in job processing") && l.contains("the before command failed")
        })
    })
    .await;
}

mod once {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    use crate::support::cluster::{Cluster, ClusterOptions, Run};
    use crate::support::receiver::{Answer, HttpReceiver};
    use crate::support::write_script;

    /// The hooks' record: `(listener, fire id, ms, "items/failed")`.
    fn hooks(record: &Path) -> Vec<(String, String, i64, String)> {
        std::fs::read_to_string(record)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let f: Vec<&str> = l.split(' ').collect();
                let [what, fire, ms, items] = f[..] else { return None };
                Some((what.to_string(), fire.to_string(), ms.parse().ok()?, items.to_string()))
            })
            .collect()
    }

    /// How many times `listener` ran for `fire`.
    fn count(hooks: &[(String, String, i64, String)], listener: &str, fire: i64) -> usize {
        let id = format!("cron-{fire}");
        hooks.iter().filter(|h| h.0 == listener && h.1 == id).count()
    }

    /// The fires after `after` whose three items all ran and whose `after_once` ran.
    fn complete_fires(c: &Cluster, record: &Path, after: i64) -> BTreeMap<i64, Vec<Run>> {
        let hooks = hooks(record);
        c.runs_by_fire()
            .into_iter()
            .filter(|(fire, runs)| {
                *fire > after
                    && runs.iter().map(|r| r.item).collect::<BTreeSet<u32>>().len() == 3
                    && count(&hooks, "after_once", *fire) > 0
            })
            .collect()
    }

    /// The error handler's reports (`WEBHOOK` requests) of `phase` of fire `fire`.
    fn reports(receiver: &HttpReceiver, phase: &str, fire: i64) -> usize {
        let needle = format!("the {phase} phase of fire cron-{fire}");
        receiver.requests().iter().filter(|r| r.body.contains(&needle)).count()
    }

    /// A series' value summed over the survivors' `/metrics`.
    async fn metric(c: &Cluster, series: &str) -> f64 {
        let mut sum = 0.0;
        for i in 0..2 {
            let client = reqwest::Client::builder().timeout(std::time::Duration::from_secs(10)).build().unwrap();
            let text = client.get(format!("{}/metrics", c.http(i))).send().await.unwrap().text().await.unwrap();
            sum += text
                .lines()
                .find_map(|l| l.strip_prefix(series).and_then(|rest| rest.strip_prefix(' ')))
                .and_then(|v| v.trim().parse::<f64>().ok())
                .unwrap_or(0.0);
        }
        sum
    }

    /// Each complete fire ran `before_once` once, before any of its items, and `after_once` once,
    /// after all of them.
    fn check_once_per_fire(fires: &BTreeMap<i64, Vec<Run>>, hooks: &[(String, String, i64, String)]) {
        for (fire, runs) in fires {
            let id = format!("cron-{fire}");
            let before: Vec<_> = hooks.iter().filter(|h| h.0 == "before_once" && h.1 == id).collect();
            let after: Vec<_> = hooks.iter().filter(|h| h.0 == "after_once" && h.1 == id).collect();
            assert_eq!((before.len(), after.len()), (1, 1), "fire {fire}: {hooks:#?}");
            let first_start = runs.iter().map(|r| r.start).min().unwrap();
            let last_end = runs.iter().map(|r| r.end).max().unwrap();
            assert!(before[0].2 <= first_start, "before_once before the items of fire {fire}: {before:?} {runs:#?}");
            assert!(after[0].2 >= last_end, "after_once after the items of fire {fire}: {after:?} {runs:#?}");
            assert_eq!(before[0].3, "0,1,2/", "the whole fire: {before:?}");
            assert_eq!(after[0].3, "0,1,2/", "no item failed: {after:?}");
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn before_once_and_after_once_run_once_per_fire_across_workers_and_a_killed_one_is_reported() {
        let receiver = HttpReceiver::start(Answer::Json(200, "{}".into())).await;
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("once.txt");
        let hook = dir.path().join("hook.sh");
        write_script(
            &hook,
            &format!(
                "#!/bin/sh\necho \"$EJCTL_LISTENER $EJCTL_FIRE_ID $(date +%s%3N) $EJCTL_SHARDING_ITEMS/$EJCTL_FAILED_ITEMS\" >> {}\n",
                record.display()
            ),
        );
        let job = format!(
            "name = \"once\"\ncron = \"0/10 * * * * ?\"\nsharding_total_count = 3\ncommand = \"{{script}} {{record}}\"\n\
             before_once = \"{h}\"\nafter_once = \"{h}\"\nstarted_timeout_ms = 4000\ncompleted_timeout_ms = 4000\n\
             job_error_handler_type = \"WEBHOOK\"\nprops = {{ \"webhook.url\" = \"{url}/once\" }}",
            h = hook.display(),
            url = receiver.url
        );
        let mut c =
            Cluster::zookeeper_with("once", &job, ClusterOptions { http: true, ..ClusterOptions::default() }).await;
        let mut ids = Vec::new();
        for ip in ["127.0.0.1", "127.0.0.2", "127.0.0.3"] {
            let i = c.start(ip).await;
            ids.push(c.id(i));
        }
        c.wait_settled(&ids, 3).await;
        let start = chrono::Utc::now().timestamp_millis();

        // Several fires, each item on another worker: the listeners run once per fire.
        c.wait_until(90, "three fires with their once-per-fire listeners", async |c| {
            complete_fires(c, &record, start).len() >= 3
        })
        .await;
        let before_kill = complete_fires(&c, &record, start);
        check_once_per_fire(&before_kill, &hooks(&record));

        // A worker SIGKILLed while its item of a fire runs.
        let victim = c.id(2);
        let last = *before_kill.keys().last().unwrap();
        c.set_sleep(Some(3.0));
        c.wait_until(30, "the victim's item of a later fire to start", async |c| {
            c.starts().iter().any(|s| s.2 == victim && s.0 > last)
        })
        .await;
        let killed_fire = c.starts().iter().filter(|s| s.2 == victim && s.0 > last).map(|s| s.0).max().unwrap();
        c.kill(2);
        c.set_sleep(None);
        // Its fire cannot complete: its timeout is reported, once, instead of a hang.
        c.wait_until(30, "the killed fire's completed timeout to be reported", async |_| {
            reports(&receiver, "completed", killed_fire) > 0
        })
        .await;
        // The two survivors take the items over and carry on, once per fire.
        c.wait_until(90, "two complete fires on the survivors", async |c| {
            complete_fires(c, &record, killed_fire).len() >= 2
        })
        .await;
        let after_kill = complete_fires(&c, &record, killed_fire);
        let hooks = hooks(&record);
        check_once_per_fire(&after_kill, &hooks);
        assert!(after_kill.values().flatten().all(|r| r.instance != victim), "{after_kill:#?}");

        // Never twice, for any fire; the killed fire's after_once never ran (it never completed).
        let fires: BTreeSet<i64> = c.starts().iter().map(|s| s.0).collect();
        for fire in &fires {
            for listener in ["before_once", "after_once"] {
                assert!(count(&hooks, listener, *fire) <= 1, "{listener} of fire {fire}: {hooks:#?}");
            }
            for phase in ["started", "completed"] {
                let reported = reports(&receiver, phase, *fire);
                assert!(reported <= 1, "{phase} of fire {fire} reported {reported} times: {:#?}", receiver.requests());
            }
        }
        assert_eq!(count(&hooks, "before_once", killed_fire), 1, "{hooks:#?}");
        assert_eq!(count(&hooks, "after_once", killed_fire), 0, "{hooks:#?}");
        let killed = format!("the completed phase of fire cron-{killed_fire}");
        let report = receiver.requests().into_iter().find(|r| r.body.contains(&killed)).unwrap();
        assert!(report.body.contains("Job timeout. timeout mills is 4000."), "{}", report.body);
        assert!(report.body.contains(r#""item":null"#), "a failure of the fire, not of an item: {}", report.body);
        // The survivors count the reports they made and the notifications they sent.
        let sent = receiver.requests().iter().filter(|r| !r.body.contains(&victim)).count() as f64;
        c.wait_until(30, "the notifications to be counted", async |c| {
            metric(c, "ejctl_notifications_total{job=\"once\",outcome=\"sent\"}").await == sent
        })
        .await;
        assert!(metric(&c, "ejctl_listener_failures_total{job=\"once\",phase=\"after_once\"}").await >= 1.0);
    }
}

mod library {
    use std::sync::{Arc, Mutex};

    use ejctl::config::JobConfig;
    use ejctl::exec::context::ShardingContext;
    use ejctl::exec::inproc::{SimpleJob, simple};
    use ejctl::listener::{DistributeOnceListener, FireContext, JobListener};
    use ejctl::registry::embedded::EmbeddedStore;
    use ejctl::registry::path::JobPaths;
    use ejctl::registry::{Mode, Registry};
    use ejctl::runtime::{JobDefinition, RegistryTarget, Worker, WorkerConfig};
    use futures::future::BoxFuture;

    use crate::support::eventually;

    type Events = Arc<Mutex<Vec<String>>>;

    struct Item(Events);

    impl SimpleJob for Item {
        async fn execute(&self, ctx: ShardingContext) -> anyhow::Result<()> {
            self.0.lock().unwrap().push(format!("item {}", ctx.sharding_item));
            anyhow::ensure!(ctx.sharding_item != 2, "item 2 fails");
            Ok(())
        }
    }

    struct Listener(Events, i32);

    impl JobListener for Listener {
        fn before<'a>(&'a self, fire: &'a FireContext) -> BoxFuture<'a, Result<(), String>> {
            let items: Vec<u32> = fire.items.keys().copied().collect();
            self.0.lock().unwrap().push(format!("before {} {items:?}", self.1));
            Box::pin(async { Ok(()) })
        }

        fn after<'a>(&'a self, _fire: &'a FireContext, failed: &'a [u32]) -> BoxFuture<'a, Result<(), String>> {
            self.0.lock().unwrap().push(format!("after {} {failed:?}", self.1));
            Box::pin(async { Ok(()) })
        }

        fn order(&self) -> i32 {
            self.1
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn library_listeners_run_in_order_around_the_items() {
        let events: Events = Arc::default();
        let mut config = JobConfig::new("listened", 3);
        config.cron = Some("0/30 * * * * ?".into());
        let job = JobDefinition::in_process(config, "Listened", simple(Item(events.clone())))
            .with_listener(Arc::new(Listener(events.clone(), 2)))
            .with_listener(Arc::new(Listener(events.clone(), 1)));
        let mut worker = WorkerConfig::new(RegistryTarget::Embedded(EmbeddedStore::new()), vec![job]);
        worker.ip = Some("127.0.0.1".into());
        let worker = Worker::start(worker).await.unwrap();
        eventually(60, "a fire with its listeners", async || {
            events.lock().unwrap().iter().filter(|e| e.starts_with("after")).count() == 2
        })
        .await;
        worker.shutdown().await;
        let events = events.lock().unwrap().clone();
        assert_eq!(events[..2], ["before 1 [0, 1, 2]", "before 2 [0, 1, 2]"], "{events:?}");
        let mut items = events[2..5].to_vec();
        items.sort();
        assert_eq!(items, ["item 0", "item 1", "item 2"], "{events:?}");
        assert_eq!(events[5..7], ["after 1 [2]", "after 2 [2]"], "{events:?}");
    }

    struct Once(Events);

    impl DistributeOnceListener for Once {
        fn before_once<'a>(&'a self, fire: &'a FireContext) -> BoxFuture<'a, Result<(), String>> {
            let items: Vec<u32> = fire.items.keys().copied().collect();
            self.0.lock().unwrap().push(format!("before_once {} {items:?}", fire.fire.clone().unwrap_or_default()));
            Box::pin(async { Ok(()) })
        }

        fn after_once<'a>(&'a self, fire: &'a FireContext, failed: &'a [u32]) -> BoxFuture<'a, Result<(), String>> {
            self.0.lock().unwrap().push(format!("after_once {} {failed:?}", fire.fire.clone().unwrap_or_default()));
            Box::pin(async { Ok(()) })
        }
    }

    /// Triggers `job` on `ids` as ElasticJob's admin does: the `trigger` parent deleted, then one
    /// node per instance, each in a write of its own.
    async fn trigger(registry: &Registry, job: &str, ids: &[String]) {
        let paths = JobPaths::new(job);
        registry.delete_recursive(&paths.triggers()).await.unwrap();
        for id in ids {
            registry.create(&paths.trigger(id), b"", Mode::Persistent).await.unwrap();
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_library_once_listener_runs_once_per_trigger_across_two_workers() {
        let events: Events = Arc::default();
        let store = EmbeddedStore::new();
        let mut workers = Vec::new();
        for pid in [1, 2] {
            let job = JobDefinition::in_process(JobConfig::new("onced", 3), "Onced", simple(Item(events.clone())))
                .with_once_listener(Arc::new(Once(events.clone())));
            let mut worker = WorkerConfig::new(RegistryTarget::Embedded(store.clone()), vec![job]);
            worker.ip = Some("127.0.0.1".into());
            worker.pid = Some(pid);
            workers.push(Worker::start(worker).await.unwrap());
        }
        let ids: Vec<String> = workers.iter().map(|w| w.instance_id().to_string()).collect();
        let admin = Registry::embedded(&store);
        for n in 1..=3 {
            trigger(&admin, "onced", &ids).await;
            eventually(60, "the trigger's after_once", async || {
                events.lock().unwrap().iter().filter(|e| e.starts_with("after_once")).count() == n
            })
            .await;
        }
        for worker in workers {
            worker.shutdown().await;
        }
        let events = events.lock().unwrap().clone();
        let fires: Vec<String> = events
            .iter()
            .filter_map(|e| e.strip_prefix("after_once "))
            .map(|e| e.split(' ').next().unwrap().to_string())
            .collect();
        assert_eq!(fires.iter().collect::<std::collections::BTreeSet<_>>().len(), 3, "{events:?}");
        for fire in &fires {
            assert!(fire.starts_with("trigger-"), "{events:?}");
            let once = |what: &str| events.iter().filter(|e| e.starts_with(&format!("{what} {fire} "))).count();
            assert_eq!((once("before_once"), once("after_once")), (1, 1), "{fire}: {events:?}");
            assert!(events.contains(&format!("before_once {fire} [0, 1, 2]")), "{events:?}");
            assert!(
                events.contains(&format!("after_once {fire} [2]")),
                "the failed item, from either worker: {events:?}"
            );
        }
        // before_once came before the trigger's items, after_once after them.
        let first = events.iter().position(|e| e.starts_with("before_once")).unwrap();
        let items = events.iter().filter(|e| e.starts_with("item")).count();
        assert_eq!(items, 9, "three triggers of three items: {events:?}");
        assert!(events[first + 1..first + 4].iter().all(|e| e.starts_with("item")), "{events:?}");
        assert!(events[first + 4].starts_with("after_once"), "{events:?}");
    }
}
