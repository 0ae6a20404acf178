//! ZooKeeper at scale in a small configuration (the `scale` benchmark's code on a 3-member
//! ensemble, in seconds), so that the benchmark does not rot. Structure only, never timing.

use std::time::Duration;

use crate::support::ZkEnsemble;
use crate::support::scale::{Shape, measure};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_and_jobs_on_an_ensemble_settle_and_reshard() {
    let ensemble = ZkEnsemble::start();
    let shape = Shape { instances: 5, jobs: 20, items: 4, rounds: 1 };
    let step = measure(&ensemble, shape, Duration::from_secs(120)).await.expect("the scale run settles");
    eprintln!("{}", step.rows());
    // Every member holds the tree (a follower may be a few commits behind the leader).
    assert!(step.member_znodes.iter().all(|&n| n >= step.znodes / 2), "{step:?}");
    // One persistent recursive watch per worker on the namespace (its jobs are all of it); a
    // latch contender may still hold a one-shot watch on its predecessor (seen with 30
    // instances), never more than one per job and worker.
    assert!((5..=5 + 20 * 5).contains(&step.watches), "{step:?}");
    // Every session is on some member.
    assert_eq!(step.connections.iter().sum::<i64>(), 5, "{step:?}");
    // 19 znodes a job plus 3 per instance (server, instance and runner nodes; see the footprint
    // test): 34 with 5 instances; plus, right after the start, the latch nodes of election
    // contenders still queued (at most one per instance).
    assert!(step.znodes_per_job() <= 34.0 + 5.0, "{step:?}");
    // Per job and instance its instance and runner node (and perhaps a queued latch node), per
    // job the leader's node.
    assert!(step.ephemerals <= 20 * (3 * 5 + 1), "{step:?}");
    // The joiner took an item of every job, and gave it back when it left.
    assert_eq!(step.join_ms.len(), 20, "{step:?}");
    assert_eq!(step.leave_ms.len(), 20, "{step:?}");
}
