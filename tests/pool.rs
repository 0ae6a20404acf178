//! The executor pool: `SINGLE_THREAD` runs a fire's items one after another in item order, and
//! `max_concurrent_items` caps how many run at once, on a real `ejctl run`.

use crate::support::worker::Worker;
use crate::support::{ZkServer, eventually, write_script};

/// (item, start ms, end ms) of every finished run in `record`.
fn runs(record: &std::path::Path, job: &str) -> Vec<(u32, i64, i64)> {
    let text = std::fs::read_to_string(record).unwrap_or_default();
    let mut starts = std::collections::BTreeMap::new();
    let mut out = Vec::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let [j, item, what, ms] = f[..] else { continue };
        if j != job {
            continue;
        }
        let (item, ms): (u32, i64) = (item.parse().unwrap(), ms.parse().unwrap());
        match what {
            "start" => {
                starts.insert(item, ms);
            }
            _ => out.push((item, starts.remove(&item).unwrap(), ms)),
        }
    }
    out.sort_by_key(|r| r.1);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn single_thread_runs_items_one_after_another_and_max_concurrent_items_caps_them() {
    let server = ZkServer::start();
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("record");
    let script = dir.path().join("item.sh");
    write_script(
        &script,
        &format!(
            "#!/bin/sh\nms() {{ echo $(($(date +%s%N)/1000000)); }}\n\
             echo \"$1 $EJCTL_SHARDING_ITEM start $(ms)\" >> {r}\nsleep 0.4\necho \"$1 $EJCTL_SHARDING_ITEM end $(ms)\" >> {r}\n",
            r = record.display()
        ),
    );
    let cmd = script.display();
    // One fire each (a cron in the far future would never fire; every 20 s fires about once).
    let jobs = format!(
        "[[job]]\nname = \"single\"\ncron = \"0/20 * * * * ?\"\nsharding_total_count = 4\ncommand = \"{cmd} single\"\n\
         job_executor_thread_pool_size_provider_type = \"SINGLE_THREAD\"\n\n\
         [[job]]\nname = \"capped\"\ncron = \"0/20 * * * * ?\"\nsharding_total_count = 6\ncommand = \"{cmd} capped\"\n\
         max_concurrent_items = 2\n"
    );
    let mut worker = Worker::start(&server, dir, &jobs);
    eventually(60, "a fire of each job to finish", async || {
        worker.check_alive();
        runs(&record, "single").len() >= 4 && runs(&record, "capped").len() >= 6
    })
    .await;
    let single = runs(&record, "single");
    let first: Vec<u32> = single[..4].iter().map(|r| r.0).collect();
    assert_eq!(first, [0, 1, 2, 3], "item order: {single:?}");
    for w in single[..4].windows(2) {
        assert!(w[1].1 >= w[0].2, "one after another: {single:?}");
    }
    let capped = &runs(&record, "capped")[..6];
    for r in capped {
        let at_once = capped.iter().filter(|o| o.1 <= r.1 && r.1 < o.2).count();
        assert!(at_once <= 2, "at most 2 at once: {capped:?}");
    }
    let log = worker.log();
    assert!(log.contains("waiting for a slot of the executor pool"), "{log}");
}
