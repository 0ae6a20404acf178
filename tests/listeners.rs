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
