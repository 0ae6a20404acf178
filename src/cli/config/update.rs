//! `ejctl config set` and `ejctl config edit`: one job's configuration changed, checked
//! ([`crate::ops::config`]), confirmed when `shardingTotalCount` changes, and written with the
//! version read.
//!
//! Both print what changed: a line per key for people, `key old new` rows with `-o plain`, and
//! `{"job", "version", "changed": {KEY: {"old", "new"}}}` with `-o json|yaml` (`version`: the
//! node version after the write, the one read when nothing changed).

use std::collections::BTreeMap;
use std::io::IsTerminal;

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::editor::{EditFile, run_editor};
use crate::cli::global::{self, GlobalArgs};
use crate::cli::output::{Block, Output, Render};
use crate::cli::prompt;
use crate::config::JobConfig;
use crate::config::schema::{self, FieldId};
use crate::exit::{CliError, Exit};
use crate::ops::assign;
use crate::ops::check_job_name;
use crate::ops::config::{self, ValueChange, changes};
use crate::ops::text::{plain_value, show_value};

/// The result of `set` / `edit`.
#[derive(Serialize)]
struct UpdateDoc<'a> {
    job: &'a str,
    version: i32,
    changed: &'a BTreeMap<String, ValueChange>,
}

impl Render for UpdateDoc<'_> {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        let rows =
            self.changed.iter().map(|(k, c)| vec![k.clone(), plain_value(&c.old), plain_value(&c.new)]).collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        let job = self.job;
        if self.changed.is_empty() {
            return vec![Block::Text(format!("job '{job}': no change\n"))];
        }
        let mut text = format!("job '{job}': configuration updated (version {})\n", self.version);
        for (k, c) in self.changed {
            text.push_str(&format!("  {k}: {} → {}\n", show_value(&c.old), show_value(&c.new)));
        }
        vec![Block::Text(text)]
    }
}

/// Asks before changing `shardingTotalCount` (the items are resharded).
fn confirm_count(global: &GlobalArgs, job: &str, changed: &BTreeMap<String, ValueChange>) -> Result<()> {
    if let Some(c) = changed.get(schema::yaml_key(FieldId::ShardingTotalCount)) {
        prompt::confirm(
            global,
            &format!(
                "change shardingTotalCount of job '{job}' from {} to {} (its items are resharded)",
                show_value(&c.old),
                show_value(&c.new)
            ),
        )?;
    }
    Ok(())
}

/// A worker started with `overwrite = true` replaces the registry's configuration with its own.
fn warn_overwrite(job: &str, cfg: &JobConfig) {
    if cfg.overwrite {
        tracing::warn!(
            "job '{job}': overwrite is true, so the next worker to start replaces this configuration with its local one"
        );
    }
}

fn warn_all(warnings: &[String]) {
    for w in warnings {
        tracing::warn!("{w}");
    }
}

/// Runs `ejctl config set`.
///
/// # Errors
/// Bad assignments or an invalid result (exit 2), a missing job (exit 3), a declined
/// confirmation or a concurrent change (exit 4), registry errors.
pub async fn set(global: &GlobalArgs, job: &str, raw: &[String], out: &mut Output) -> Result<Exit> {
    check_job_name(job)?;
    let assignments = assign::parse_assignments(raw).map_err(|e| CliError::usage(format!("job '{job}': {e}")))?;
    let admin = global::admin(global).await?;
    let stored = admin.read_config(job).await?;
    let update = config::plan_set(job, &stored, &assignments)?;
    warn_all(&update.warnings);
    let mut version = stored.version();
    if !update.changed.is_empty() {
        confirm_count(global, job, &update.changed)?;
        version = admin.write_config(job, version, &update.new).await?;
        warn_overwrite(job, &update.new);
    }
    out.render(&UpdateDoc { job, version, changed: &update.changed })?;
    Ok(Exit::Ok)
}

/// True when a failed edit may be retried: a terminal to ask on, and not a document format.
fn may_ask(global: &GlobalArgs) -> bool {
    !global.output.is_document() && std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
}

/// Runs `ejctl config edit`.
///
/// # Errors
/// An invalid result (exit 2, the edit is kept), a missing job (exit 3), a declined
/// confirmation or a concurrent change (exit 4), a failing editor, registry errors.
pub async fn edit(global: &GlobalArgs, job: &str, out: &mut Output) -> Result<Exit> {
    check_job_name(job)?;
    let admin = global::admin(global).await?;
    let stored = admin.read_config(job).await?;
    let old = match JobConfig::from_yaml(&stored.text) {
        Ok(cfg) => Some(cfg),
        Err(e) => {
            tracing::warn!("job '{job}': the stored configuration cannot be read ({e}); fix it in the editor");
            None
        }
    };
    let job_type = stored.job_type();
    let version = stored.version();
    let mut file = EditFile::create(job, &stored.text)?;
    let new = loop {
        run_editor(job, &file.path).await?;
        let edited = std::fs::read_to_string(&file.path)
            .with_context(|| format!("job '{job}': cannot read the edited file {}", file.path.display()))?;
        if edited == stored.text {
            out.render(&UpdateDoc { job, version, changed: &BTreeMap::new() })?;
            return Ok(Exit::Ok);
        }
        match config::prepare_edit(job, job_type.as_ref(), old.as_ref(), &edited) {
            Ok((new, warnings)) => {
                warn_all(&warnings);
                break new;
            }
            Err(e) => {
                if may_ask(global)
                    && dialoguer::Confirm::new()
                        .with_prompt(format!("{e}\nEdit again?"))
                        .default(true)
                        .interact()
                        .unwrap_or(false)
                {
                    continue;
                }
                let note = file.keep();
                return Err(CliError::usage(format!("{e}{note}")).into());
            }
        }
    };
    let changed = changes(old.as_ref(), &new);
    let unchanged = match &old {
        Some(old) => old.to_yaml() == new.to_yaml(),
        None => false,
    };
    if unchanged {
        out.render(&UpdateDoc { job, version, changed: &BTreeMap::new() })?;
        return Ok(Exit::Ok);
    }
    confirm_count(global, job, &changed)?;
    let version = match admin.write_config(job, version, &new).await {
        Ok(v) => v,
        Err(mut e) => {
            let note = file.keep();
            // A refusal gets the note in its own message; a registry failure gets it as context.
            return Err(if e.registry_error().is_none() {
                e.message.push_str(&note);
                e.into()
            } else {
                anyhow::Error::new(e)
                    .context(format!("job '{job}': nothing was written; your edit is kept in {}", file.path.display()))
            });
        }
    };
    warn_overwrite(job, &new);
    out.render(&UpdateDoc { job, version, changed: &changed })?;
    Ok(Exit::Ok)
}
