//! Operating a registry namespace from Rust with the admin layer `ejctl::ops`: what `ejctl job
//! list` and `ejctl job disable` do, without the command line.
//!
//! Lists the jobs of the namespace with their status, instances and cron; with `--disable JOB`
//! also disables that job on every server (its items move to no one until it is enabled again).
//!
//! `EJCTL_ZK=127.0.0.1:2181 EJCTL_NAMESPACE=demo cargo run --example admin [-- --disable JOB]`
//!
//! Every operation fails with an `ejctl::ops::OpsError`: a one-line message and its kind, which
//! `ejctl::exit::classify` maps onto the exit code `ejctl` documents (3 for a job that does not
//! exist, 5 for an unreachable registry).

// An example reports on stdout, and its errors on stderr.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use anyhow::Context as _;
use ejctl::ops::{Admin, report};
use ejctl::registry::codec::ServerStatus;
use ejctl::registry::{Registry, ZkOptions};

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            // The exit code `ejctl` would end with: the error's own, or the registry error's.
            eprintln!("admin: {err:#}");
            ExitCode::from(ejctl::exit::classify(&err).code())
        }
    }
}

async fn run() -> anyhow::Result<()> {
    let servers = std::env::var("EJCTL_ZK").context("set EJCTL_ZK to the ZooKeeper connect string")?;
    let namespace = std::env::var("EJCTL_NAMESPACE").context("set EJCTL_NAMESPACE to the namespace")?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let disable = match args.as_slice() {
        [] => None,
        [flag, job] if flag == "--disable" => Some(job.clone()),
        _ => anyhow::bail!("usage: admin [--disable JOB]"),
    };

    // An admin must not create the namespace it inspects.
    let mut options = ZkOptions::new(&servers, &namespace);
    options.create_namespace = false;
    let registry = Registry::connect(options).await.context("cannot connect to the registry")?;
    let admin = Admin::new(registry, &namespace);

    // Two rounds of pipelined reads for every job of the namespace, however many there are.
    let jobs = admin.read_all().await?;
    println!("{:<32} {:<14} {:>9}  CRON", "JOB", "STATUS", "INSTANCES");
    for job in report::job_briefs(&jobs, chrono::Utc::now()) {
        println!(
            "{:<32} {:<14} {:>9}  {}",
            job.name,
            job.status.to_string(),
            job.instance_count,
            job.cron.as_deref().unwrap_or("(one-off)")
        );
    }

    if let Some(job) = disable {
        // Read, plan (only the servers not yet disabled), apply in one transaction.
        let changed = admin.set_job_status(&job, None, &ServerStatus::Disabled).await?;
        println!("job '{job}' disabled on {} server(s) that were enabled", changed.len());
    }
    Ok(())
}
