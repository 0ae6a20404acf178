//! `ejctl config set` and `ejctl config edit`: one job's configuration changed, checked
//! ([`crate::ops::config`]), confirmed when it does more than it seems ([`confirm_risky`]), and
//! written with the version read.
//!
//! Both print what changed: a line per key for people, `key old new` rows with `-o plain`, and
//! `{"job", "version", "changed": {KEY: {"old", "new"}}}` with `-o json|yaml` (`version`: the
//! node version after the write, the one read when nothing changed).

use std::collections::BTreeMap;
use std::io::IsTerminal;

use anyhow::{Context as _, Result};
use serde::Serialize;

use super::editor::{EditFile, check_editor, run_editor};
use crate::cli::global::{self, GlobalArgs};
use crate::cli::output::{Block, Output, Render};
use crate::cli::prompt;
use crate::config::JobConfig;
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

/// Asks before a change that does more than its author may expect ([`config::risks`]: a
/// resharding, a job switched to one-off or to a cron that never fires, `disabled` that running
/// workers ignore).
///
/// # Errors
/// Exit 4 when declined, or without a terminal and `--yes`.
pub fn confirm_risky(
    global: &GlobalArgs,
    job: &str,
    old: Option<&JobConfig>,
    new: &JobConfig,
    changed: &BTreeMap<String, ValueChange>,
) -> Result<()> {
    if changed.is_empty() {
        return Ok(());
    }
    let risks = config::risks(job, old, new, chrono::Utc::now());
    if !risks.is_empty() {
        prompt::confirm(global, &risks.join("; "))?;
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
    let update = config::plan_set(job, &stored, &assignments, &admin.job_file_values(job).await?)?;
    warn_all(&update.warnings);
    let mut version = stored.version();
    if !update.changed.is_empty() {
        confirm_risky(global, job, Some(&update.old), &update.new, &update.changed)?;
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
/// No editor or no terminal for it (exit 4, before anything is read); an invalid result (exit
/// 2), a declined confirmation or a concurrent change (exit 4), a failing editor or registry
/// errors: after the edit, every refusal keeps the edited file and says where. A missing job is
/// exit 3.
pub async fn edit(global: &GlobalArgs, job: &str, out: &mut Output) -> Result<Exit> {
    check_job_name(job)?;
    let editor = check_editor(job)?;
    let admin = global::admin(global).await?;
    let stored = admin.read_config(job).await?;
    let old = match JobConfig::from_yaml(&stored.text) {
        Ok(cfg) => Some(cfg),
        Err(e) => {
            tracing::warn!("job '{job}': the stored configuration cannot be read ({e}); fix it in the editor");
            None
        }
    };
    let mut file = EditFile::create(job, &stored.text)?;
    match edit_and_write(global, &admin, job, &editor, &stored, old.as_ref(), &file, out).await {
        Ok(exit) => Ok(exit),
        Err(e) => Err(file.kept(e)),
    }
}

/// `config edit` once the copy exists: edit, check, confirm, write.
#[allow(clippy::too_many_arguments)] // one call site; the pieces are what the edit needs
async fn edit_and_write(
    global: &GlobalArgs,
    admin: &crate::ops::Admin,
    job: &str,
    editor: &str,
    stored: &config::StoredConfig,
    old: Option<&JobConfig>,
    file: &EditFile,
    out: &mut Output,
) -> Result<Exit> {
    let version = stored.version();
    let job_file = admin.job_file_values(job).await?;
    let new = loop {
        run_editor(job, editor, &file.path).await?;
        let edited = std::fs::read_to_string(&file.path)
            .with_context(|| format!("job '{job}': cannot read the edited file {}", file.path.display()))?;
        if edited == stored.text {
            out.render(&UpdateDoc { job, version, changed: &BTreeMap::new() })?;
            return Ok(Exit::Ok);
        }
        match config::prepare_edit(job, stored.job_type().as_ref(), old, &edited, &job_file) {
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
                return Err(e.into());
            }
        }
    };
    let changed = changes(old, &new);
    if old.is_some_and(|old| old.to_yaml() == new.to_yaml()) {
        out.render(&UpdateDoc { job, version, changed: &BTreeMap::new() })?;
        return Ok(Exit::Ok);
    }
    confirm_risky(global, job, old, &new, &changed)?;
    let version = admin.write_config(job, version, &new).await?;
    warn_overwrite(job, &new);
    out.render(&UpdateDoc { job, version, changed: &changed })?;
    Ok(Exit::Ok)
}
