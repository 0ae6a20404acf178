//! `ejctl cron next EXPR`: the next fire instants of a Quartz cron expression, so users can check
//! an expression before putting it in a job file. Nothing is read from a registry.

use anyhow::Result;
use chrono::{DateTime, Utc};
use clap::{Args, Subcommand};
use serde::Serialize;

use super::global::Offline;
use super::output::{Block, Output, Render};
use crate::exit::{CliError, Exit};
use crate::schedule::cron::{self, JobTimeZone};

/// `ejctl cron ...`.
#[derive(Debug, Subcommand)]
pub enum CronCmd {
    /// Print the next fire instants of a Quartz cron expression.
    #[command(
        after_help = "Examples:\n  ejctl cron next '0/5 * * * * ?'\n  ejctl cron next '0 0 2 ? * MON-FRI' --time-zone Asia/Shanghai -n 3\n  ejctl cron next '0 0 12 L * ?' --after 2024-02-01T00:00:00Z -o json"
    )]
    Next(Offline<NextArgs>),
}

/// Arguments of `ejctl cron next`.
#[derive(Debug, Args)]
pub struct NextArgs {
    /// The expression: 6 or 7 fields with seconds, Quartz dialect (quote it).
    pub expression: String,
    /// Time zone: `GMT+8`, `GMT-05:30`, an IANA name such as `Asia/Shanghai`; default: local.
    #[arg(long, value_name = "TZ")]
    pub time_zone: Option<String>,
    /// Start after this instant (RFC 3339); default: now.
    #[arg(long, value_name = "RFC3339")]
    pub after: Option<String>,
    /// How many instants to print (1 to 1000).
    #[arg(short = 'n', long = "count", value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub count: u16,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct NextDoc {
    expression: String,
    time_zone: String,
    after: String,
    next: Vec<String>,
}

/// Runs `ejctl cron ...`.
///
/// # Errors
/// A usage error (exit 2) for an invalid expression, time zone or instant.
pub fn exec(cmd: CronCmd, out: &mut Output) -> Result<Exit> {
    let CronCmd::Next(Offline { args, .. }) = cmd;
    let expr = cron::parse(&args.expression).map_err(|e| CliError::usage(e.to_string()))?;
    let tz = cron::parse_time_zone(args.time_zone.as_deref().unwrap_or_default())
        .map_err(|e| CliError::usage(e.to_string()))?;
    let after = match &args.after {
        Some(s) => DateTime::parse_from_rfc3339(s)
            .map_err(|e| CliError::usage(format!("--after '{s}' is not an RFC 3339 instant: {e}")))?
            .with_timezone(&Utc),
        None => Utc::now(),
    };
    let next: Vec<DateTime<Utc>> = expr.iter_after(after, &tz).take(usize::from(args.count)).collect();
    let shown: Vec<String> = next.iter().map(|t| local(t, &tz)).collect();
    out.render(&NextDoc {
        expression: expr.as_str().to_string(),
        time_zone: tz.to_string(),
        after: after.to_rfc3339(),
        next: shown,
    })?;
    Ok(Exit::Ok)
}

impl Render for NextDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    /// One instant per line.
    fn plain(&self) -> Vec<Block> {
        vec![Block::Text(self.next.iter().map(|line| format!("{line}\n")).collect())]
    }

    fn table(&self) -> Vec<Block> {
        let mut blocks = self.plain();
        if self.next.is_empty() {
            blocks.push(Block::Text("(the expression never fires again)\n".into()));
        }
        blocks
    }
}

/// An instant in the job's time zone, RFC 3339 with its offset.
fn local(t: &DateTime<Utc>, tz: &JobTimeZone) -> String {
    match tz {
        JobTimeZone::Local => t.with_timezone(&chrono::Local).to_rfc3339(),
        JobTimeZone::Fixed(offset) => t.with_timezone(offset).to_rfc3339(),
        JobTimeZone::Iana(zone) => t.with_timezone(zone).to_rfc3339(),
    }
}
