//! What the console's keys ask the registry to do ([`Action`]), each with the `ejctl` command that
//! does the same, and the executor that carries them out through [`crate::ops`] — exactly as the
//! commands do: read the job, plan the changes, apply them in transactions. The executor refuses
//! every write in read-only mode and while the registry is unreachable, whatever asked for it.

use crate::config::JobConfig;
use crate::exit::CliError;
use crate::ops::Admin;
use crate::ops::change::{self, Change};
use crate::registry::codec::ServerStatus;

/// A write the console can perform.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `job trigger`, for each job.
    Trigger(Vec<String>),
    /// `job disable|enable`, for each job, on every server.
    Jobs {
        /// The jobs.
        jobs: Vec<String>,
        /// Enable rather than disable.
        enable: bool,
    },
    /// `job disable|enable JOB --server IP`, for each server of one job.
    ServerJob {
        /// The job.
        job: String,
        /// The servers.
        ips: Vec<String>,
        /// Enable rather than disable.
        enable: bool,
    },
    /// `sharding disable|enable JOB ITEM...`.
    Items {
        /// The job.
        job: String,
        /// The items.
        items: Vec<u32>,
        /// Enable rather than disable.
        enable: bool,
    },
    /// `job shutdown`, for each job.
    Shutdown(Vec<String>),
    /// `job remove` (configuration kept), for each job.
    Remove(Vec<String>),
    /// `server disable|enable IP`, for each server.
    Servers {
        /// The servers.
        ips: Vec<String>,
        /// Enable rather than disable.
        enable: bool,
    },
    /// `config edit JOB`: write an edited configuration if the node is still at `version`.
    Config {
        /// The job.
        job: String,
        /// The version of the configuration node that was edited.
        version: i32,
        /// The edited configuration, validated.
        yaml: String,
        /// The keys that change, with their old and new values (`cron: 0/5 … → 0/7 …`).
        changed: Vec<String>,
    },
    /// `server shutdown IP` (or `server remove IP`), for each server.
    ServerShutdown {
        /// The servers.
        ips: Vec<String>,
        /// Also delete the `servers/{ip}` nodes (`server remove`).
        remove: bool,
    },
}

fn verb(enable: bool) -> &'static str {
    if enable { "enable" } else { "disable" }
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 { format!("1 {one}") } else { format!("{n} {one}s") }
}

impl Action {
    /// The targets, as named in the confirmation and in results (`job 'a'`, `server 10.0.0.5`).
    pub fn targets(&self) -> Vec<String> {
        let jobs = |v: &[String]| v.iter().map(|j| format!("job '{j}'")).collect();
        match self {
            Action::Trigger(v) | Action::Shutdown(v) | Action::Remove(v) | Action::Jobs { jobs: v, .. } => jobs(v),
            Action::ServerJob { job, ips, .. } => ips.iter().map(|ip| format!("job '{job}' on {ip}")).collect(),
            Action::Config { changed, .. } => changed.clone(),
            Action::Items { job, items, .. } => items.iter().map(|i| format!("item {i} of '{job}'")).collect(),
            Action::Servers { ips, .. } | Action::ServerShutdown { ips, .. } => {
                ips.iter().map(|ip| format!("server {ip}")).collect()
            }
        }
    }

    /// What it does, in a few words: `disable 3 jobs`.
    pub fn summary(&self) -> String {
        let n = self.targets().len();
        match self {
            Action::Trigger(_) => format!("trigger {}", plural(n, "job")),
            Action::Jobs { enable, .. } => format!("{} {}", verb(*enable), plural(n, "job")),
            Action::ServerJob { job, enable, .. } => {
                format!("{} job '{job}' on {}", verb(*enable), plural(n, "server"))
            }
            Action::Items { job, enable, .. } => format!("{} {} of job '{job}'", verb(*enable), plural(n, "item")),
            Action::Shutdown(_) => format!("shut down {}", plural(n, "job")),
            Action::Config { job, .. } => format!("change {} of job '{job}'", plural(n, "configuration key")),
            Action::Remove(_) => {
                format!("remove {} (shut down, server nodes deleted, configuration kept)", plural(n, "job"))
            }
            Action::Servers { enable, .. } => format!("{} every job on {}", verb(*enable), plural(n, "server")),
            Action::ServerShutdown { remove: false, .. } => format!("shut down {}", plural(n, "server")),
            Action::ServerShutdown { remove: true, .. } => format!("remove {}", plural(n, "server")),
        }
    }

    /// The `ejctl` commands that do the same.
    pub fn commands(&self) -> Vec<String> {
        let each = |v: &[String], f: &dyn Fn(&str) -> String| v.iter().map(|x| f(x)).collect();
        match self {
            Action::Trigger(v) => each(v, &|j| format!("ejctl job trigger {j}")),
            Action::Jobs { jobs, enable } => each(jobs, &|j| format!("ejctl job {} {j}", verb(*enable))),
            Action::ServerJob { job, ips, enable } => {
                each(ips, &|ip| format!("ejctl job {} {job} --server {ip}", verb(*enable)))
            }
            Action::Items { job, items, enable } => {
                let items: Vec<String> = items.iter().map(u32::to_string).collect();
                vec![format!("ejctl sharding {} {job} {}", verb(*enable), items.join(" "))]
            }
            Action::Shutdown(v) => each(v, &|j| format!("ejctl job shutdown {j} --yes")),
            Action::Config { job, .. } => vec![format!("ejctl config edit {job}")],
            Action::Remove(v) => each(v, &|j| format!("ejctl job remove {j} --yes")),
            Action::Servers { ips, enable } => each(ips, &|ip| format!("ejctl server {} {ip}", verb(*enable))),
            Action::ServerShutdown { ips, remove } => {
                let cmd = if *remove { "remove" } else { "shutdown" };
                each(ips, &|ip| format!("ejctl server {cmd} {ip} --yes"))
            }
        }
    }

    /// True when the confirmation asks for the number of targets to be typed: removals, and any
    /// action on more than 10 targets.
    pub fn needs_count(&self) -> bool {
        matches!(self, Action::Remove(_) | Action::ServerShutdown { remove: true, .. }) || self.targets().len() > 10
    }
}

/// Why the executor refuses writes now, if it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The console is read-only.
    ReadOnly,
    /// The registry is unreachable.
    Disconnected,
}

impl Refusal {
    /// The reason, for the flash line.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::ReadOnly => "read-only console: writes are refused",
            Refusal::Disconnected => "the registry is unreachable: writes are refused until it is back",
        }
    }
}

/// Carries out an action, unless `refusal` says why not. Returns the one-line result, or the
/// CLI's one-line error text.
///
/// # Errors
/// The refusal, or the first operation that failed (earlier targets stay done).
pub async fn execute(admin: &Admin, action: &Action, refusal: Option<Refusal>) -> Result<String, String> {
    if let Some(r) = refusal {
        return Err(r.reason().to_string());
    }
    let done = run(admin, action).await.map_err(|e| format!("{:#}", anyhow::Error::new(e)))?;
    Ok(format!("{}: {}", action.summary(), plural(done, "change")))
}

/// Applies the action; returns the number of registry changes.
async fn run(admin: &Admin, action: &Action) -> Result<usize, CliError> {
    let status = |enable: bool| if enable { ServerStatus::Enabled } else { ServerStatus::Disabled };
    let mut done = 0;
    match action {
        Action::Trigger(jobs) => {
            for name in jobs {
                let job = admin.read_job(name).await?;
                done += admin.trigger(&job).await?.len();
            }
        }
        Action::Jobs { jobs, enable } => {
            for name in jobs {
                done += admin.set_job_status(name, None, &status(*enable)).await?.len();
            }
        }
        Action::ServerJob { job, ips, enable } => {
            for ip in ips {
                done += admin.set_job_status(job, Some(ip), &status(*enable)).await?.len();
            }
        }
        Action::Items { job, items, enable } => {
            let data = admin.read_job(job).await?;
            let items: Vec<String> = items.iter().map(u32::to_string).collect();
            let (_, changes) = change::item_switch(admin, &data, &items, !enable)?;
            done += admin.apply(&changes).await?.len();
        }
        Action::Shutdown(jobs) | Action::Remove(jobs) => {
            let remove = matches!(action, Action::Remove(_));
            for name in jobs {
                let job = admin.read_job(name).await?;
                let changes: Vec<Change> = if remove {
                    change::job_remove(admin, &job, None, false)?
                } else {
                    change::job_shutdown(admin, &job, None)?
                };
                done += admin.apply(&changes).await?.len();
            }
        }
        Action::Config { job, version, yaml, .. } => {
            let config = JobConfig::from_yaml(yaml).map_err(|e| CliError::usage(format!("job '{job}': {e}")))?;
            admin.write_config(job, *version, &config).await?;
            done += 1;
        }
        Action::Servers { ips, enable } => {
            let jobs = admin.read_all().await?;
            for ip in ips {
                change::server_known(admin, &jobs, ip, false)?;
                done += admin.apply(&change::server_status(&jobs, ip, &status(*enable))).await?.len();
            }
        }
        Action::ServerShutdown { ips, remove } => {
            let jobs = admin.read_all().await?;
            for ip in ips {
                change::server_known(admin, &jobs, ip, true)?;
                done += admin.apply(&change::server_shutdown(&jobs, ip, *remove)).await?.len();
            }
        }
    }
    Ok(done)
}
