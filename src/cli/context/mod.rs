//! `ejctl context ...`: named registries, like kubectl contexts, so operators do not retype
//! connect strings, namespaces and digests.
//!
//! The contexts file, its location and how it fills every command's registry options are in
//! [`mod@file`]; this module lists, shows and changes contexts. `set`, `use` and `delete` rewrite the
//! whole file (comments are not kept), atomically and with mode 0600, since it may hold a digest.
//! Digests are shown masked (`user:****`).

pub mod file;

use std::path::Path;
use std::time::Duration;

use anyhow::Result;
use clap::{Args, Subcommand};
use comfy_table::Table;
use serde::Serialize;

pub use self::file::{
    ContextEntry, ContextsFile, Layer, Resolution, contexts_path, for_job_files, for_worker, load, mask_digest,
    resolution, resolve, save, unused_current_context,
};
use self::file::{explicit_layer, file_label, unknown_context};
use super::global::{GlobalArgs, InContext, NoArgs, Offline, WithConnect};
use super::output::{Block, Output, Render};
use crate::exit::{CliError, Exit};
use crate::registry::path::validate_namespace;
use crate::registry::zk::parse_connect_string;
use crate::trace::TraceTarget;

/// `ejctl context ...`.
#[derive(Debug, Subcommand)]
pub enum ContextCmd {
    /// List the registry contexts; `*` marks the current one.
    #[command(after_help = "Examples:\n  ejctl context list\n  ejctl context list -o json")]
    List(Offline<NoArgs>),
    /// Show one context (default: the one in use).
    #[command(after_help = "Examples:\n  ejctl context show\n  ejctl context show prod -o json")]
    Show(InContext<ShowArgs>),
    /// Create or update a context from --zk, --namespace, --digest, --connect-timeout, --tls-* and
    /// --trace.
    #[command(
        after_help = "Examples:\n  ejctl context set prod --zk 10.0.0.1:2181,10.0.0.2:2181 --namespace jobs --digest ops:secret\n  ejctl context set local --zk 127.0.0.1:2181 --namespace demo --use\n  ejctl context set prod --trace postgres://ejctl:secret@db/jobs\n  ejctl context set prod --digest ''      # remove the digest\n\nOnly the options given change an existing context; a new one needs --zk and --namespace.\nThe file is written with mode 0600."
    )]
    Set(WithConnect<SetArgs>),
    /// Make a context the current one.
    #[command(after_help = "Example:\n  ejctl context use prod")]
    Use(Offline<NameArgs>),
    /// Delete a context (and clear the current context if it was that one).
    #[command(after_help = "Example:\n  ejctl context delete old-cluster")]
    Delete(Offline<NameArgs>),
}

/// Arguments of `ejctl context show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The context; default: the one `--context` or the current context selects.
    pub name: Option<String>,
}

/// Arguments of `ejctl context set`.
#[derive(Debug, Args)]
pub struct SetArgs {
    /// The context's name.
    pub name: String,
    /// The trace store `ejctl history` and `ejctl why` read in this context: a SQLite file or a
    /// postgres:// URL (`''` removes it).
    #[arg(long, value_name = "URL")]
    pub trace: Option<String>,
    /// Also make it the current context.
    #[arg(long = "use")]
    pub make_current: bool,
}

/// A context name.
#[derive(Debug, Args)]
pub struct NameArgs {
    /// The context's name.
    pub name: String,
}

/// One context as printed.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ContextDoc {
    name: String,
    current: bool,
    zk: String,
    namespace: String,
    /// Masked: `user:****`.
    digest: Option<String>,
    connect_timeout: Option<String>,
    tls_ca: Option<String>,
    tls_cert: Option<String>,
    tls_key: Option<String>,
    /// The trace store, a postgres URL's password masked.
    trace: Option<String>,
}

impl ContextDoc {
    fn new(name: &str, entry: &ContextEntry, current: Option<&str>) -> ContextDoc {
        ContextDoc {
            name: name.to_string(),
            current: current == Some(name),
            zk: entry.zk.clone(),
            namespace: entry.namespace.clone(),
            digest: entry.digest.as_deref().map(mask_digest),
            connect_timeout: entry.connect_timeout.clone(),
            tls_ca: entry.tls_ca.clone(),
            tls_cert: entry.tls_cert.clone(),
            tls_key: entry.tls_key.clone(),
            trace: entry.trace.as_deref().map(shown_trace),
        }
    }
}

/// A context's trace store for display: a postgres URL without its password (`user:***@`).
fn shown_trace(trace: &str) -> String {
    match TraceTarget::parse(trace) {
        Ok(target @ TraceTarget::Postgres(_)) => target.describe(),
        _ => trace.to_string(),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListDoc {
    file: Option<String>,
    current: Option<String>,
    contexts: Vec<ContextDoc>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ShowDoc {
    file: Option<String>,
    #[serde(flatten)]
    context: ContextDoc,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeDoc {
    file: String,
    name: String,
    /// `created`, `updated`, `unchanged`, `deleted`, `used`.
    action: &'static str,
    current: Option<String>,
}

impl Render for ListDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        let rows = self
            .contexts
            .iter()
            .map(|d| {
                vec![
                    d.name.clone(),
                    d.zk.clone(),
                    d.namespace.clone(),
                    if d.current { "*".into() } else { String::new() },
                    d.digest.clone().unwrap_or_default(),
                    d.connect_timeout.clone().unwrap_or_default(),
                    d.tls_ca.clone().unwrap_or_default(),
                    d.tls_cert.clone().unwrap_or_default(),
                    d.tls_key.clone().unwrap_or_default(),
                    d.trace.clone().unwrap_or_default(),
                ]
            })
            .collect();
        vec![Block::Rows(rows)]
    }

    fn table(&self) -> Vec<Block> {
        if self.contexts.is_empty() {
            // A hint for people only: scripts get an empty list.
            tracing::warn!(
                "no contexts in {}; add one with `ejctl context set NAME --zk HOST:PORT --namespace NS`",
                file_label(self.file.as_deref().map(Path::new))
            );
        }
        let mut table = Table::new();
        table.set_header(["CURRENT", "NAME", "ZK", "NAMESPACE", "DIGEST", "CONNECT TIMEOUT", "TRACE"]);
        for d in &self.contexts {
            table.add_row([
                if d.current { "*".to_string() } else { String::new() },
                d.name.clone(),
                d.zk.clone(),
                d.namespace.clone(),
                d.digest.clone().unwrap_or_default(),
                d.connect_timeout.clone().unwrap_or_default(),
                d.trace.clone().unwrap_or_default(),
            ]);
        }
        vec![Block::table(table)]
    }
}

impl Render for ShowDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        let doc = &self.context;
        vec![Block::Rows(vec![vec![
            doc.name.clone(),
            doc.zk.clone(),
            doc.namespace.clone(),
            doc.digest.clone().unwrap_or_default(),
            doc.connect_timeout.clone().unwrap_or_default(),
            doc.current.to_string(),
            doc.tls_ca.clone().unwrap_or_default(),
            doc.tls_cert.clone().unwrap_or_default(),
            doc.tls_key.clone().unwrap_or_default(),
            self.file.clone().unwrap_or_default(),
            doc.trace.clone().unwrap_or_default(),
        ]])]
    }

    fn table(&self) -> Vec<Block> {
        let doc = &self.context;
        let mut text = format!("name:            {}\n", doc.name);
        text.push_str(&format!("current:         {}\n", if doc.current { "yes" } else { "no" }));
        text.push_str(&format!("zk:              {}\n", doc.zk));
        text.push_str(&format!("namespace:       {}\n", doc.namespace));
        text.push_str(&format!("digest:          {}\n", doc.digest.as_deref().unwrap_or("(none)")));
        text.push_str(&format!("connect timeout: {}\n", doc.connect_timeout.as_deref().unwrap_or("(default)")));
        if let Some(ca) = &doc.tls_ca {
            text.push_str(&format!("tls ca:          {ca}\n"));
            text.push_str(&format!("tls cert:        {}\n", doc.tls_cert.as_deref().unwrap_or("(none)")));
            text.push_str(&format!("tls key:         {}\n", doc.tls_key.as_deref().unwrap_or("(none)")));
        }
        text.push_str(&format!("trace:           {}\n", doc.trace.as_deref().unwrap_or("(none)")));
        text.push_str(&format!("file:            {}\n", file_label(self.file.as_deref().map(Path::new))));
        vec![Block::Text(text)]
    }
}

impl Render for ChangeDoc {
    fn document(&self) -> impl Serialize {
        self
    }

    fn plain(&self) -> Vec<Block> {
        vec![Block::Rows(vec![vec![self.name.clone(), self.action.to_string()]])]
    }

    fn table(&self) -> Vec<Block> {
        let name = &self.name;
        let mut line = match self.action {
            "used" => format!("now using context '{name}'"),
            "unchanged" => format!("context '{name}' unchanged"),
            other => format!("context '{name}' {other}"),
        };
        line.push_str(&format!(" ({})\n", self.file));
        vec![Block::Text(line)]
    }
}

/// Runs `ejctl context ...`.
///
/// # Errors
/// A usage error (exit 2) for bad values or an unusable contexts file; exit 3 for an unknown
/// context; I/O errors writing the file.
pub async fn exec(global: &GlobalArgs, cmd: ContextCmd, out: &mut Output) -> Result<Exit> {
    let resolution = resolution().unwrap_or_else(|| Resolution {
        file: contexts_path(),
        explicit: explicit_layer(global),
        ..Resolution::default()
    });
    let file = resolution.file.clone();
    let file_text = file.as_deref().map(|p| p.display().to_string());
    let contents = match &file {
        Some(path) => load(path)?.unwrap_or_default(),
        None => ContextsFile::default(),
    };
    let current = contents.current_context.as_deref();
    match cmd {
        ContextCmd::List(_) => {
            let contexts: Vec<ContextDoc> =
                contents.contexts.iter().map(|(name, entry)| ContextDoc::new(name, entry, current)).collect();
            out.render(&ListDoc { file: file_text, current: current.map(str::to_string), contexts })?;
        }
        ContextCmd::Show(InContext { args, .. }) => {
            let name = match args.name.or_else(|| resolution.context.as_ref().map(|(n, _)| n.clone())) {
                Some(name) => name,
                None => {
                    return Err(CliError::not_found(format!(
                        "no context is in use (no --context and no current context in {}); name one: ejctl context show NAME",
                        file_label(file.as_deref())
                    ))
                    .into());
                }
            };
            let entry = contents.contexts.get(&name).ok_or_else(|| not_found(&name, &contents, file.as_deref()))?;
            out.render(&ShowDoc { file: file_text, context: ContextDoc::new(&name, entry, current) })?;
        }
        ContextCmd::Set(WithConnect { args, .. }) => {
            let path = writable(file.as_deref())?;
            let mut contents = contents;
            let action =
                set_context(&mut contents, &args.name, &resolution.explicit, args.trace.as_deref(), args.make_current)?;
            if action != "unchanged" {
                save(path, &contents)?;
            }
            report_change(out, path, &args.name, action, &contents)?;
        }
        ContextCmd::Use(Offline { args, .. }) => {
            let path = writable(file.as_deref())?;
            let mut contents = contents;
            if !contents.contexts.contains_key(&args.name) {
                return Err(not_found(&args.name, &contents, Some(path)).into());
            }
            let action = if contents.current_context.as_deref() == Some(args.name.as_str()) {
                "unchanged"
            } else {
                contents.current_context = Some(args.name.clone());
                save(path, &contents)?;
                "used"
            };
            report_change(out, path, &args.name, action, &contents)?;
        }
        ContextCmd::Delete(Offline { args, .. }) => {
            let path = writable(file.as_deref())?;
            let mut contents = contents;
            if contents.contexts.remove(&args.name).is_none() {
                return Err(not_found(&args.name, &contents, Some(path)).into());
            }
            if contents.current_context.as_deref() == Some(args.name.as_str()) {
                contents.current_context = None;
            }
            save(path, &contents)?;
            report_change(out, path, &args.name, "deleted", &contents)?;
        }
    }
    Ok(Exit::Ok)
}

fn writable(file: Option<&Path>) -> Result<&Path, CliError> {
    file.ok_or_else(|| {
        CliError::usage("no place for the contexts file: set EJCTL_CONFIG (a file path), XDG_CONFIG_HOME or HOME")
    })
}

fn not_found(name: &str, contents: &ContextsFile, file: Option<&Path>) -> CliError {
    unknown_context(name, contents, file)
}

/// Checks a context name: not empty, no whitespace or control characters.
fn validate_name(name: &str) -> Result<(), CliError> {
    if name.is_empty() {
        return Err(CliError::usage("a context name must not be empty"));
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(CliError::usage(format!(
            "context name '{}' must not contain spaces or control characters",
            name.escape_default()
        )));
    }
    Ok(())
}

/// Formats a duration the way `--connect-timeout` reads it back.
fn format_duration(d: Duration) -> String {
    if d.subsec_nanos() == 0 { format!("{}s", d.as_secs()) } else { format!("{}ms", d.as_millis()) }
}

/// Creates or updates `name` from the explicit options; returns `created`, `updated` or
/// `unchanged`. An empty `--digest ''` removes the digest.
fn set_context(
    contents: &mut ContextsFile,
    name: &str,
    explicit: &Layer,
    trace: Option<&str>,
    make_current: bool,
) -> Result<&'static str, CliError> {
    validate_name(name)?;
    let existing = contents.contexts.get(name).cloned();
    let mut entry = existing.clone().unwrap_or_default();
    if let Some(zk) = &explicit.zk {
        parse_connect_string(zk).map_err(|e| CliError::usage(format!("context '{name}': --zk: {e}")))?;
        entry.zk = zk.trim().to_string();
    }
    if let Some(ns) = &explicit.namespace {
        let ns = ns.trim().trim_matches('/');
        validate_namespace(ns).map_err(|e| CliError::usage(format!("context '{name}': --namespace: {e}")))?;
        entry.namespace = ns.to_string();
    }
    match explicit.digest.as_deref() {
        Some("") => entry.digest = None,
        Some(d) => {
            if d.split_once(':').is_none_or(|(user, _)| user.is_empty()) {
                return Err(CliError::usage(format!("context '{name}': --digest must be 'user:password'")));
            }
            entry.digest = Some(d.to_string());
        }
        None => {}
    }
    if let Some(t) = explicit.connect_timeout {
        entry.connect_timeout = Some(format_duration(t));
    }
    for (given, field) in [
        (&explicit.tls_ca, &mut entry.tls_ca),
        (&explicit.tls_cert, &mut entry.tls_cert),
        (&explicit.tls_key, &mut entry.tls_key),
    ] {
        match given.as_deref() {
            Some("") => *field = None,
            // Stored absolute: the file is used from any directory.
            Some(p) => {
                *field = Some(std::path::absolute(p).map_or_else(|_| p.to_string(), |a| a.display().to_string()))
            }
            None => {}
        }
    }
    match trace.map(str::trim) {
        Some("") => entry.trace = None,
        Some(t) => {
            let target =
                TraceTarget::parse(t).map_err(|e| CliError::usage(format!("context '{name}': --trace: {e}")))?;
            // A SQLite file is stored absolute, like the TLS files: the contexts file resolves a
            // relative one against its own directory, not the directory `context set` ran in.
            entry.trace = Some(match target {
                TraceTarget::Sqlite(path) if path.is_relative() => {
                    std::path::absolute(&path).map_or_else(|_| t.to_string(), |a| a.display().to_string())
                }
                _ => t.to_string(),
            });
        }
        None => {}
    }
    if entry.tls_ca.is_none() && (entry.tls_cert.is_some() || entry.tls_key.is_some()) {
        return Err(CliError::usage(format!("context '{name}': --tls-cert and --tls-key need --tls-ca")));
    }
    if entry.zk.is_empty() || entry.namespace.is_empty() {
        let missing: Vec<&str> = [("--zk", entry.zk.is_empty()), ("--namespace", entry.namespace.is_empty())]
            .into_iter()
            .filter(|(_, m)| *m)
            .map(|(f, _)| f)
            .collect();
        return Err(CliError::usage(format!("new context '{name}' needs {}", missing.join(" and "))));
    }
    let mut changed = existing.as_ref() != Some(&entry);
    contents.contexts.insert(name.to_string(), entry);
    if make_current && contents.current_context.as_deref() != Some(name) {
        contents.current_context = Some(name.to_string());
        changed = true;
    }
    Ok(match (existing, changed) {
        (None, _) => "created",
        (Some(_), true) => "updated",
        (Some(_), false) => "unchanged",
    })
}

fn report_change(
    out: &mut Output,
    path: &Path,
    name: &str,
    action: &'static str,
    contents: &ContextsFile,
) -> Result<()> {
    out.render(&ChangeDoc {
        file: path.display().to_string(),
        name: name.to_string(),
        action,
        current: contents.current_context.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_creates_updates_and_validates() {
        let mut file = ContextsFile::default();
        let layer = |zk: Option<&str>, ns: Option<&str>, digest: Option<&str>| Layer {
            zk: zk.map(str::to_string),
            namespace: ns.map(str::to_string),
            digest: digest.map(str::to_string),
            ..Layer::default()
        };
        assert_eq!(
            set_context(&mut file, "a", &layer(Some("h:1"), Some("/ns/"), None), None, false).unwrap(),
            "created"
        );
        assert_eq!(file.contexts["a"].namespace, "ns");
        assert_eq!(file.current_context, None);
        assert_eq!(set_context(&mut file, "a", &layer(None, None, Some("u:p")), None, true).unwrap(), "updated");
        assert_eq!(file.contexts["a"].zk, "h:1");
        assert_eq!(file.contexts["a"].digest.as_deref(), Some("u:p"));
        assert_eq!(file.current_context.as_deref(), Some("a"));
        assert_eq!(set_context(&mut file, "a", &layer(Some("h:1"), None, None), None, false).unwrap(), "unchanged");
        let err = set_context(&mut file, "b", &layer(Some("h:1"), None, None), None, false).unwrap_err();
        assert_eq!(err.to_string(), "new context 'b' needs --namespace");
        assert_eq!(err.exit, Exit::Usage);
        let err = set_context(&mut file, "b", &layer(Some("h:x"), Some("n"), None), None, false).unwrap_err();
        assert!(err.to_string().starts_with("context 'b': --zk: invalid connect string 'h:x'"), "{err}");
        let err =
            set_context(&mut file, "b", &layer(Some("h:1"), Some("n"), Some("nocolon")), None, false).unwrap_err();
        assert_eq!(err.to_string(), "context 'b': --digest must be 'user:password'");
        assert!(set_context(&mut file, "has space", &layer(Some("h:1"), Some("n"), None), None, false).is_err());
        assert!(!file.contexts.contains_key("b"));
    }

    #[test]
    fn digests_are_masked_and_durations_formatted() {
        assert_eq!(mask_digest("ops:secret"), "ops:****");
        assert_eq!(mask_digest("weird"), "****");
        assert_eq!(format_duration(Duration::from_secs(3)), "3s");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1500ms");
    }
}
