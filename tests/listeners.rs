//! Job-file listeners on a real `ejctl run`: `before` runs once per fire before its items start,
//! `after` once after they all ended (with the failed items), and a failing listener is logged
//! while the items still run.

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
}

mod library {
    use std::sync::{Arc, Mutex};

    use ejctl::config::JobConfig;
    use ejctl::exec::context::ShardingContext;
    use ejctl::exec::inproc::{SimpleJob, simple};
    use ejctl::listener::{FireContext, JobListener};
    use ejctl::registry::embedded::EmbeddedStore;
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
}
