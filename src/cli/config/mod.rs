//! `ejctl config ...`: read and change job configurations (`/{job}/config`,
//! docs/src/design/compatibility.md#configuration-updates) without ever corrupting them.
//!
//! * `get JOB`: the YAML exactly as stored (a final newline is added when the node has none).
//! * `set JOB KEY=VALUE...`: keys are the YAML keys (`shardingTotalCount=4`) or the job file's
//!   snake_case names (`sharding_total_count=4`; `name` for `jobName`); `props.NAME=VALUE` sets a
//!   property and `props.NAME=` removes it; an empty value removes an optional key (`timeZone=`,
//!   and `cron=` makes a one-off job); `jobListenerTypes=a,b` is comma-separated. Either
//!   executor-pool key name sets the pool type, and the key name already stored is kept (it tells
//!   which ElasticJob version the cluster runs). Type names are written in ElasticJob's spelling
//!   (`round_robin` becomes `ROUND_ROBIN`).
//! * `edit JOB`: `$VISUAL`, else `$EDITOR`, else `vi`, on a private copy of the stored YAML. A
//!   result that does not parse or validate is refused (exit 2; on a terminal the editor can be
//!   reopened), and the copy is kept so the edit is not lost. A key the stored YAML did not have
//!   and ElasticJob does not know is refused too: the Java reader rejects unknown keys.
//! * `apply FILE...`: makes the registry hold the job files' configurations: missing jobs get
//!   their root node (the job type) and configuration, as a worker would write them; changed
//!   ones are rewritten, keeping what the files cannot express (unknown keys,
//!   `jobExtraConfigurations`) from the stored YAML; identical ones are left alone. All the
//!   writes of one `apply` are one transaction: all or nothing.
//! * `diff FILE...`: what `apply` would change; exit 1 when there is drift, 0 when none. With
//!   `--files A B`, the jobs of two job files compared with each other (their `[instance]` and
//!   `[registry]` tables ignored), no registry read: one set of job files for a fleet.
//!
//! `set`, `edit` and `apply` validate the result with the job-file validation
//! ([`crate::ops::config::check_change`]; for `SCRIPT`, `HTTP` and `DATAFLOW` jobs the executor
//! properties too), ask before a change that does more than it seems
//! ([`crate::ops::config::risks`]: `shardingTotalCount` reshards, a removed cron makes a one-off
//! job, a cron that never fires again, `disabled=true` that running workers ignore; `--yes`
//! without a terminal, exit 4 otherwise, each with what to use instead), and write with the
//! version read, so a concurrent change is refused (exit 4) instead of
//! overwritten. Nothing unchanged is written. The reading, checking and writing are
//! [`crate::ops::config`]'s and [`crate::ops::publish`]'s; [`update`] and [`files`] ask, run the
//! editor and render.
//!
//! `apply` and `diff` take the registry from the command line, then a context named with
//! `--context`, then the files' `[registry]`, then the current context
//! ([`super::context::for_job_files`]); `apply` creates the namespace when it is missing.
//!
//! # Documents (`-o json` / `-o yaml`)
//!
//! * `get`: `{"job", "version", "config": {YAML key: value, ..., unknown keys as parsed}, "yaml"}`
//!   (`config` is `null` and `error` says why when the stored YAML cannot be read). Every key
//!   ElasticJob models is present, `null` when unset; tagged values appear as `{"!tag": value}`.
//! * `set` / `edit`: `{"job", "version", "changed": {KEY: {"old", "new"}}}`, with `props.NAME`
//!   keys for properties and `null` for an unset value; `version` is the node version after the
//!   write (the one read when nothing changed).
//! * `apply`: `{"namespace", "jobs": [{"job", "file", "result": "created"|"updated"|"unchanged",
//!   "version", "changed"}]}`.
//! * `diff`: `{"namespace", "drift", "jobs": [{"job", "file", "action": "create"|"update"|"none",
//!   "version", "changed", "old", "new"}]}` (`old` / `new`: the YAML texts, `old` `null` when the
//!   job has no configuration).

pub(crate) mod editor;
pub mod files;
pub mod update;

use std::path::PathBuf;

use anyhow::Result;
use clap::{Args, Subcommand};
use serde::Serialize;

use super::global::{self, Changes, GlobalArgs, Reads};
use super::output::{Block, Output, Render};
use crate::config::JobConfig;
use crate::exit::Exit;
use crate::ops::check_job_name;
use crate::ops::config::{StoredConfig, config_json};

/// `ejctl config ...`.
#[derive(Debug, Subcommand)]
pub enum ConfigCmd {
    /// Print a job's configuration YAML as stored, its secrets masked unless --show-secrets.
    #[command(
        after_help = "Examples:\n  ejctl config get myJob\n  ejctl config get myJob -o json | jq .config.cron\n  ejctl config get myJob --show-secrets > myJob.yaml"
    )]
    Get(Reads<GetArgs>),
    /// Change configuration keys, validated and written with a version check.
    #[command(
        after_help = "Examples:\n  ejctl config set myJob cron='0/10 * * * * ?' failover=true\n  ejctl config set myJob shardingTotalCount=4 --yes\n  ejctl config set myJob sharding_item_parameters=0=A,1=B props.script.command.line='/opt/run.sh'\n  ejctl config set myJob props.obsolete=      # an empty value removes a property or an optional key\n\nKeys: the YAML keys (jobName cannot change) or the job file's names (command, timeout_seconds, ...).\nThese ask for confirmation (--yes without a terminal): changing shardingTotalCount (the items\nare resharded), an empty cron (a one-off job), a cron that never fires again, disabled=true\n(running workers ignore it until they restart: use `ejctl job disable`)."
    )]
    Set(Changes<SetArgs>),
    /// Edit a job's configuration in $VISUAL / $EDITOR, validated and written with a version check.
    #[command(
        after_help = "Examples:\n  ejctl config edit myJob\n  EDITOR='code --wait' ejctl config edit myJob\n\nAn invalid result is refused (exit 2) and the edited copy is kept; on a terminal the editor can be reopened."
    )]
    Edit(Changes<JobArg>),
    /// Write the configurations of job files to the registry (created, updated or unchanged).
    #[command(
        after_help = "Examples:\n  ejctl config apply jobs/*.toml\n  ejctl --context prod config apply billing.toml -o json\n\nRegistry: --zk/--namespace (or --context) win over the files' [registry], which wins over the current context."
    )]
    Apply(Changes<FilesArg>),
    /// Show what `config apply` would change (or how two job files differ); exit 1 on a difference.
    #[command(
        after_help = "Examples:\n  ejctl config diff jobs/*.toml\n  ejctl config diff billing.toml -o json | jq '.jobs[] | select(.action != \"none\")'\n  ejctl config diff --files host-a/jobs.toml host-b/jobs.toml\n\nWith --files, the jobs of the first file are compared with those of the second; [instance]\nand [registry] tables are ignored and no registry is read.\nExit status 0: no drift, 1: drift."
    )]
    Diff(Reads<DiffArgs>),
}

/// A job name.
#[derive(Debug, Args)]
pub struct JobArg {
    /// The job.
    pub job: String,
}

/// Arguments of `config get`.
#[derive(Debug, Args)]
pub struct GetArgs {
    /// The job name.
    pub job: String,
    /// Show the secrets (`email.password`, `dingtalk.secret`, tokens in webhook URLs) instead of
    /// `****`: the output can then be written back with `config set` or `config apply`.
    #[arg(long)]
    pub show_secrets: bool,
}

/// Arguments of `ejctl config set`.
#[derive(Debug, Args)]
pub struct SetArgs {
    /// The job.
    pub job: String,
    /// `KEY=VALUE` assignments; `props.NAME=VALUE` for a property, an empty value to remove.
    #[arg(required = true, value_name = "KEY=VALUE")]
    pub assignments: Vec<String>,
}

/// Job files.
#[derive(Debug, Args)]
pub struct FilesArg {
    /// Job files (TOML, as for `ejctl run`).
    #[arg(required = true, value_name = "JOB_FILE")]
    pub files: Vec<PathBuf>,
}

/// Arguments of `ejctl config diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// Job files (TOML, as for `ejctl run`).
    #[arg(required = true, value_name = "JOB_FILE")]
    pub files: Vec<PathBuf>,
    /// Compare the jobs of two job files with each other instead of with the registry.
    #[arg(long = "files")]
    pub between_files: bool,
}

/// Runs `ejctl config ...`.
///
/// # Errors
/// Usage errors (exit 2: bad assignments, invalid values, bad job files), a missing job (exit 3),
/// a declined confirmation or a concurrent change (exit 4), registry errors (exit 5).
pub async fn exec(global: &GlobalArgs, cmd: ConfigCmd, out: &mut Output) -> Result<Exit> {
    match cmd {
        ConfigCmd::Get(a) => get(global, &a.args.job, a.args.show_secrets, out).await,
        ConfigCmd::Set(a) => update::set(global, &a.args.job, &a.args.assignments, out).await,
        ConfigCmd::Edit(a) => update::edit(global, &a.args.job, out).await,
        ConfigCmd::Apply(a) => files::apply_or_diff(global, &a.args.files, out, true).await,
        ConfigCmd::Diff(a) if a.args.between_files => files::diff_files(&a.args.files, out),
        ConfigCmd::Diff(a) => files::apply_or_diff(global, &a.args.files, out, false).await,
    }
}

// ---------------------------------------------------------------------------------------------
// get

/// `config get`: the stored YAML as is; `-o json`: the document below.
struct Get<'a> {
    job: &'a str,
    stored: StoredConfig,
}

#[derive(Serialize)]
struct GetDoc<'a> {
    job: &'a str,
    version: i32,
    config: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    yaml: &'a str,
}

impl Render for Get<'_> {
    fn document(&self) -> impl Serialize {
        let job = self.job;
        let (config, error) = match JobConfig::from_yaml(&self.stored.text) {
            Ok(cfg) => (Some(config_json(&cfg)), None),
            Err(e) => {
                // Only the document decodes the YAML, so only it can say that it cannot.
                tracing::warn!("job '{job}': {e}");
                (None, Some(e.to_string()))
            }
        };
        GetDoc { job, version: self.stored.version(), config, error, yaml: &self.stored.text }
    }

    fn plain(&self) -> Vec<Block> {
        let mut text = self.stored.text.clone();
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        vec![Block::Text(text)]
    }

    fn table(&self) -> Vec<Block> {
        self.plain()
    }
}

async fn get(global: &GlobalArgs, job: &str, show_secrets: bool, out: &mut Output) -> Result<Exit> {
    check_job_name(job)?;
    let admin = global::admin(global).await?;
    let mut stored = admin.read_config(job).await?;
    if !show_secrets {
        stored.text = crate::config::secrets::mask_yaml(&stored.text);
    }
    out.render(&Get { job, stored })?;
    Ok(Exit::Ok)
}
