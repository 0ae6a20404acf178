//! The contexts file and how every command's registry options are resolved from it.
//!
//! # The contexts file
//!
//! A TOML file at `$EJCTL_CONFIG`, else `$XDG_CONFIG_HOME/ejctl/config.toml`, else
//! `~/.config/ejctl/config.toml`:
//!
//! ```toml
//! current_context = "prod"            # optional: used when no --context is given
//!
//! [contexts.prod]
//! zk = "10.0.0.1:2181,10.0.0.2:2181"  # required: the ZooKeeper connect string
//! namespace = "jobs"                  # required
//! digest = "ops:secret"               # optional: digest credentials
//! connect_timeout = "3s"              # optional: like --connect-timeout
//! trace = "postgres://ejctl@db/jobs"  # optional: the trace store of `history` and `why`
//!                                     # (or a SQLite file, relative to this file)
//! tls_ca = "/etc/ejctl/zk-ca.pem"     # optional: TLS to ZooKeeper, like --tls-ca
//! tls_cert = "ops.pem"                # optional: x509 client certificate, like --tls-cert
//! tls_key = "ops.key"                 # optional: its key, like --tls-key
//! readonly = true                     # optional: `ejctl console` refuses every write
//!
//! [contexts.local]
//! zk = "127.0.0.1:2181"
//! namespace = "demo"
//! ```
//!
//! Unknown keys are an error (a typo must not silently drop a setting). `ejctl context set`,
//! `use` and `delete` ([`super`]) rewrite the whole file with [`save`] (comments are not kept),
//! atomically and with mode 0600, since it may hold a digest.
//!
//! # Resolution ([`resolve`], before every command)
//!
//! The context is the one named by `--context NAME` / `EJCTL_CONTEXT` (an unknown name is exit 3,
//! naming the closest and the known ones), else the file's `current_context`, else none. A
//! missing file is no context. Each registry option is then taken field by field from the first
//! of: the command line or its environment variable (`--zk`/`EJCTL_ZK`, `--namespace`,
//! `--digest`, `--connect-timeout`), the context. One exception protects credentials: a
//! context's digest is not sent to a connect string other than the context's own (`--zk`
//! naming another cluster drops it). The TLS files are taken the same way, and as a group: from
//! the first source that names any of them. Relative TLS paths (and a relative SQLite `trace`)
//! in the contexts file are relative to the file's directory.
//!
//! `config apply` / `config diff` put the job files' `[registry]` between the two: command
//! line, then a context named with `--context`, then the files' `[registry]`, then the current
//! context ([`for_job_files`]). `ejctl run` uses the same order without the current context
//! ([`for_worker`]).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context as _, Result};
use serde::{Deserialize, Serialize};

use crate::cli::global::{GlobalArgs, parse_duration};
use crate::exit::CliError;

/// The contexts file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextsFile {
    /// The context used when `--context` is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub current_context: Option<String>,
    /// The contexts by name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub contexts: BTreeMap<String, ContextEntry>,
}

/// One named registry.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ContextEntry {
    /// The ZooKeeper connect string.
    pub zk: String,
    /// The namespace.
    pub namespace: String,
    /// `user:password` digest credentials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digest: Option<String>,
    /// How long to wait for the registry (`500ms`, `3s`, `1m`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connect_timeout: Option<String>,
    /// The trace store `ejctl history` and `ejctl why` read (a SQLite file, relative to the
    /// contexts file, or a postgres URL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
    /// The CA (PEM) of a ZooKeeper reached over TLS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_ca: Option<String>,
    /// The client certificate (PEM) for x509 authentication.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_cert: Option<String>,
    /// The client certificate's key (PEM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tls_key: Option<String>,
    /// `ejctl console` refuses every write in this context (as with `--readonly`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub readonly: bool,
}

/// Registry settings from one source (command line, context, job file); `None` = not given.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Layer {
    /// Connect string.
    pub zk: Option<String>,
    /// Namespace.
    pub namespace: Option<String>,
    /// Digest credentials.
    pub digest: Option<String>,
    /// Connection timeout.
    pub connect_timeout: Option<Duration>,
    /// TLS CA file.
    pub tls_ca: Option<String>,
    /// TLS client certificate file.
    pub tls_cert: Option<String>,
    /// TLS client key file.
    pub tls_key: Option<String>,
}

impl Layer {
    /// The registry a job file's `[registry]` table names.
    pub fn from_section(r: &crate::jobfile::RegistrySection) -> Layer {
        let path = |p: &std::path::Path| p.display().to_string();
        Layer {
            zk: Some(r.servers.clone()),
            namespace: Some(r.namespace.clone()),
            digest: r.digest.clone(),
            connect_timeout: None,
            tls_ca: r.tls.as_ref().map(|t| path(&t.ca)),
            tls_cert: r.tls.as_ref().and_then(|t| t.cert.as_deref()).map(path),
            tls_key: r.tls.as_ref().and_then(|t| t.key.as_deref()).map(path),
        }
    }

    /// Fills what `self` lacks from `next`. A digest is only taken along with its own connect
    /// string: when the connect string is already chosen and differs, `next`'s digest is not
    /// used.
    fn fill_from(&mut self, next: &Layer) {
        let same_cluster = self.zk.is_none() || self.zk == next.zk;
        if self.zk.is_none() {
            self.zk.clone_from(&next.zk);
        }
        if self.namespace.is_none() {
            self.namespace.clone_from(&next.namespace);
        }
        if self.digest.is_none() && same_cluster {
            self.digest.clone_from(&next.digest);
        }
        if self.tls_ca.is_none() && self.tls_cert.is_none() && self.tls_key.is_none() && same_cluster {
            self.tls_ca.clone_from(&next.tls_ca);
            self.tls_cert.clone_from(&next.tls_cert);
            self.tls_key.clone_from(&next.tls_key);
        }
        if self.connect_timeout.is_none() {
            self.connect_timeout = next.connect_timeout;
        }
    }
}

/// How the registry options of this invocation were resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Resolution {
    /// The contexts file location (whether or not it exists).
    pub file: Option<PathBuf>,
    /// What the command line and the environment gave.
    pub explicit: Layer,
    /// The selected context, if any.
    pub context: Option<(String, Layer)>,
    /// True when the context was named with `--context` / `EJCTL_CONTEXT`.
    pub context_explicit: bool,
}

impl Resolution {
    /// The global options with every registry field taken from the layers in precedence order:
    /// the command line, an explicitly named context, `extra` (a job file's registry), the
    /// current context.
    pub fn apply(&self, global: GlobalArgs, extra: Option<&Layer>) -> GlobalArgs {
        self.apply_layers(global, extra, true)
    }

    /// The registry settings from the layers in precedence order: the command line and the
    /// environment, an explicitly named context, `extra` (the job files' registry), and the
    /// current context when `use_current`.
    pub fn merged(&self, extra: Option<&Layer>, use_current: bool) -> Layer {
        let mut merged = self.explicit.clone();
        let context = self.context.as_ref().map(|(_, layer)| layer);
        if self.context_explicit
            && let Some(c) = context
        {
            merged.fill_from(c);
        }
        if let Some(extra) = extra {
            merged.fill_from(extra);
        }
        if !self.context_explicit
            && use_current
            && let Some(c) = context
        {
            merged.fill_from(c);
        }
        merged
    }

    /// [`Resolution::apply`], using the current context only when `use_current`.
    pub fn apply_layers(&self, mut global: GlobalArgs, extra: Option<&Layer>, use_current: bool) -> GlobalArgs {
        let merged = self.merged(extra, use_current);
        global.zk = merged.zk;
        global.namespace = merged.namespace;
        global.digest = merged.digest.filter(|d| !d.is_empty());
        let path = |p: Option<String>| p.filter(|p| !p.is_empty()).map(PathBuf::from);
        global.tls_ca = path(merged.tls_ca);
        global.tls_cert = path(merged.tls_cert);
        global.tls_key = path(merged.tls_key);
        if let Some(t) = merged.connect_timeout {
            global.connect_timeout = t;
        }
        global
    }

    /// Where the connect string comes from, for logs and messages (`--zk`, `EJCTL_ZK`,
    /// `context 'prod' (--context)`, `the current context 'prod' in FILE`, `the job files'
    /// [registry]`), with the layers [`Resolution::merged`] uses; `None` when none gives one.
    pub fn zk_source(&self, global: &GlobalArgs, extra: Option<&Layer>, use_current: bool) -> Option<String> {
        if self.explicit.zk.is_some() {
            return Some(global.origins.get("zk").cloned().unwrap_or_else(|| "--zk".into()));
        }
        let context = self.context.as_ref().filter(|(_, c)| c.zk.is_some());
        if self.context_explicit
            && let Some((name, _)) = context
        {
            let how = global.origins.get("context").cloned().unwrap_or_else(|| "--context".into());
            return Some(format!("context '{name}' ({how})"));
        }
        if extra.is_some_and(|e| e.zk.is_some()) {
            return Some("the job files' [registry] table".into());
        }
        match context {
            Some((name, _)) if use_current => {
                Some(format!("the current context '{name}' in {}", file_label(self.file.as_deref())))
            }
            _ => None,
        }
    }
}

/// The registry of `ejctl run`: the command line and the environment, then a context named with
/// `--context` / `EJCTL_CONTEXT`, then the job files' `[registry]` (`files`). The current
/// context is not used: a worker joins the registry its files name unless told otherwise.
/// Returns the settings and where the connect string came from (`None`: no registry, so the
/// embedded one).
pub fn for_worker(global: &GlobalArgs, files: Option<&Layer>) -> (Layer, Option<String>) {
    let resolution =
        resolution().unwrap_or_else(|| Resolution { explicit: explicit_layer(global), ..Resolution::default() });
    (resolution.merged(files, false), resolution.zk_source(global, files, false))
}

/// The current context's name when `ejctl run` does not use it (no `--context`), for the
/// start-up message.
pub fn unused_current_context() -> Option<String> {
    let resolution = resolution()?;
    if resolution.context_explicit {
        return None;
    }
    resolution.context.map(|(name, _)| name)
}

/// The resolution of the running command (set by [`resolve`]).
static RESOLUTION: Mutex<Option<Resolution>> = Mutex::new(None);

/// The resolution [`resolve`] made for this process, if it ran.
pub fn resolution() -> Option<Resolution> {
    crate::sync::lock(&RESOLUTION).clone()
}

/// Process environment that resolution depends on (injected in tests).
#[derive(Debug, Clone, Default)]
struct Env {
    ejctl_config: Option<OsString>,
    xdg_config_home: Option<OsString>,
    home: Option<OsString>,
}

impl Env {
    fn from_process() -> Env {
        Env {
            ejctl_config: std::env::var_os("EJCTL_CONFIG"),
            xdg_config_home: std::env::var_os("XDG_CONFIG_HOME"),
            home: std::env::var_os("HOME"),
        }
    }

    fn contexts_path(&self) -> Option<PathBuf> {
        let non_empty = |v: &Option<OsString>| v.clone().filter(|v| !v.is_empty()).map(PathBuf::from);
        if let Some(path) = non_empty(&self.ejctl_config) {
            return Some(path);
        }
        if let Some(xdg) = non_empty(&self.xdg_config_home).filter(|p| p.is_absolute()) {
            return Some(xdg.join("ejctl").join("config.toml"));
        }
        non_empty(&self.home).map(|home| home.join(".config").join("ejctl").join("config.toml"))
    }
}

/// Where the contexts file is: `$EJCTL_CONFIG`, else `$XDG_CONFIG_HOME/ejctl/config.toml`, else
/// `~/.config/ejctl/config.toml`; `None` when none of these variables is set.
pub fn contexts_path() -> Option<PathBuf> {
    Env::from_process().contexts_path()
}

/// Fills the registry options of `global` from the selected context (`--context`, or the
/// current one), keeping options given explicitly.
///
/// # Errors
/// An unknown context, an unreadable contexts file.
pub fn resolve(global: GlobalArgs) -> Result<GlobalArgs> {
    let resolution = resolution_for(&global, &Env::from_process())?;
    let source = resolution.zk_source(&global, None, true);
    let mut resolved = resolution.apply(global, None);
    resolved.source = source;
    *crate::sync::lock(&RESOLUTION) = Some(resolution);
    Ok(resolved)
}

/// The global options for `config apply` / `config diff`: the command line, then a context
/// named with `--context`, then the job files' registry (`files`), then the current context.
pub fn for_job_files(global: &GlobalArgs, files: Option<&Layer>) -> GlobalArgs {
    // Not resolved (library use): what `global` holds is explicit.
    let resolution =
        resolution().unwrap_or_else(|| Resolution { explicit: explicit_layer(global), ..Resolution::default() });
    let mut resolved = resolution.apply(global.clone(), files);
    resolved.source = resolution.zk_source(global, files, true);
    resolved
}

/// What the command line gave. An empty `--digest ''` is kept: it means "no digest" and
/// overrides a context's.
pub(super) fn explicit_layer(global: &GlobalArgs) -> Layer {
    let given = |v: &Option<String>| v.clone().filter(|s| !s.trim().is_empty());
    Layer {
        zk: given(&global.zk),
        namespace: given(&global.namespace),
        digest: global.digest.clone(),
        connect_timeout: global.connect_timeout_given.then_some(global.connect_timeout),
        tls_ca: global.tls_ca.as_ref().map(|p| p.display().to_string()),
        tls_cert: global.tls_cert.as_ref().map(|p| p.display().to_string()),
        tls_key: global.tls_key.as_ref().map(|p| p.display().to_string()),
    }
}

fn resolution_for(global: &GlobalArgs, env: &Env) -> Result<Resolution> {
    let file = env.contexts_path();
    let explicit = explicit_layer(global);
    let named = global.context.clone().filter(|c| !c.is_empty());
    let mut resolution = Resolution { file: file.clone(), explicit, context: None, context_explicit: named.is_some() };
    let contents = match &file {
        Some(path) => load(path)?,
        None => None,
    };
    let selected = match (&named, &contents) {
        (Some(name), Some(contents)) => match contents.contexts.get(name) {
            Some(entry) => Some((name.clone(), entry)),
            None => return Err(unknown_context(name, contents, file.as_deref()).into()),
        },
        (Some(name), None) => {
            return Err(unknown_context(name, &ContextsFile::default(), file.as_deref()).into());
        }
        (None, Some(contents)) => match &contents.current_context {
            Some(current) => match contents.contexts.get(current) {
                Some(entry) => Some((current.clone(), entry)),
                None => {
                    tracing::warn!(
                        "the current context '{current}' in {} does not exist; using none",
                        file.as_deref().map(Path::display).map(|d| d.to_string()).unwrap_or_default()
                    );
                    None
                }
            },
            None => None,
        },
        (None, None) => None,
    };
    if let Some((name, entry)) = selected {
        let layer = entry_layer(name.as_str(), entry, file.as_deref())?;
        resolution.context = Some((name, layer));
    }
    Ok(resolution)
}

fn entry_layer(name: &str, entry: &ContextEntry, file: Option<&Path>) -> Result<Layer, CliError> {
    let connect_timeout = match entry.connect_timeout.as_deref() {
        None => None,
        Some(t) => Some(parse_duration(t).map_err(|e| {
            CliError::usage(format!("contexts file {}: context '{name}': connect_timeout: {e}", file_label(file)))
        })?),
    };
    let given = |s: &str| Some(s.to_string()).filter(|s| !s.trim().is_empty());
    let tls_path = |p: &Option<String>| {
        let p = p.as_deref().and_then(given)?;
        match file.and_then(Path::parent) {
            Some(dir) if Path::new(&p).is_relative() => Some(dir.join(p).display().to_string()),
            _ => Some(p),
        }
    };
    Ok(Layer {
        zk: given(&entry.zk),
        namespace: given(&entry.namespace),
        digest: entry.digest.as_deref().and_then(given),
        connect_timeout,
        tls_ca: tls_path(&entry.tls_ca),
        tls_cert: tls_path(&entry.tls_cert),
        tls_key: tls_path(&entry.tls_key),
    })
}

/// The contexts file for messages, or why there is none.
pub(super) fn file_label(file: Option<&Path>) -> String {
    file.map_or_else(
        || "(no contexts file location: set EJCTL_CONFIG or HOME)".to_string(),
        |p| p.display().to_string(),
    )
}

/// `unknown context 'x'`, with the closest known name and the known ones (exit 3).
pub(super) fn unknown_context(name: &str, contents: &ContextsFile, file: Option<&Path>) -> CliError {
    let known: Vec<&str> = contents.contexts.keys().map(String::as_str).collect();
    let hint = crate::ops::text::did_you_mean(name, known.iter().copied());
    let known = if known.is_empty() { "none".to_string() } else { known.join(", ") };
    CliError::not_found(format!(
        "unknown context '{name}'{hint} (known contexts: {known}; contexts file: {})",
        file_label(file)
    ))
}

/// Reads the contexts file; `None` when it does not exist.
///
/// # Errors
/// A usage error naming the file when it cannot be read or parsed.
pub fn load(path: &Path) -> Result<Option<ContextsFile>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CliError::usage(format!("contexts file {}: cannot read: {e}", path.display()))),
    };
    warn_if_readable_by_others(path);
    let contents: ContextsFile = toml::from_str(&text).map_err(|e| {
        let message = e.message().trim().lines().map(str::trim).collect::<Vec<_>>().join("; ");
        let position = e.span().map(|span| {
            let before = text.get(..span.start).unwrap_or(&text);
            format!(":{}", before.matches('\n').count() + 1)
        });
        CliError::usage(format!("contexts file {}{}: {message}", path.display(), position.unwrap_or_default()))
    })?;
    Ok(Some(contents))
}

#[cfg(unix)]
fn warn_if_readable_by_others(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Ok(meta) = std::fs::metadata(path)
        && meta.permissions().mode() & 0o077 != 0
    {
        tracing::warn!(
            "the contexts file {} is accessible by other users (it may hold digests): chmod 600 it",
            path.display()
        );
    }
}

#[cfg(not(unix))]
fn warn_if_readable_by_others(_path: &Path) {}

/// Writes the contexts file atomically (a temporary file renamed over it) with mode 0600,
/// creating its directory (mode 0700) when missing.
///
/// # Errors
/// I/O errors, naming the file.
pub fn save(path: &Path, contents: &ContextsFile) -> Result<()> {
    let target = if path.exists() {
        std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
    } else {
        path.to_path_buf()
    };
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.exists() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut text = String::from("# ejctl contexts: `ejctl context set|use|delete` rewrite this file.\n");
    text.push_str(&toml::to_string(contents).context("cannot encode the contexts file")?);
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "config.toml".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut f = options.open(&tmp)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        anyhow::Error::new(e).context(format!("cannot write the contexts file {}", target.display()))
    })
}

/// A digest with the password hidden: `ops:****`.
pub fn mask_digest(digest: &str) -> String {
    match digest.split_once(':') {
        Some((user, _)) => format!("{user}:****"),
        None => "****".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exit::Exit;

    fn global(args: &[&str]) -> GlobalArgs {
        let mut argv = vec!["ejctl"];
        argv.extend_from_slice(args);
        argv.extend_from_slice(&["job", "list"]);
        let matches = crate::cli::app::command().try_get_matches_from(argv).unwrap();
        let mut g = GlobalArgs::from_matches(&matches).unwrap();
        // Environment variables of the developer's shell must not leak into the tests.
        let given = |flag: &str| args.contains(&flag);
        if !given("--zk") {
            g.zk = None;
        }
        if !given("--namespace") {
            g.namespace = None;
        }
        if !given("--digest") {
            g.digest = None;
        }
        if !given("--context") {
            g.context = None;
        }
        if !given("--connect-timeout") {
            g.connect_timeout = Duration::from_secs(5);
            g.connect_timeout_given = false;
        }
        g
    }

    const FILE: &str = r#"
current_context = "prod"

[contexts.prod]
zk = "prod1:2181,prod2:2181"
namespace = "jobs"
digest = "ops:secret"
connect_timeout = "3s"

[contexts.local]
zk = "127.0.0.1:2181"
namespace = "demo"
"#;

    fn env_with(text: Option<&str>) -> (tempfile::TempDir, Env) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        if let Some(text) = text {
            std::fs::write(&path, text).unwrap();
        }
        let env = Env { ejctl_config: Some(path.into_os_string()), ..Env::default() };
        (dir, env)
    }

    fn resolved(args: &[&str], env: &Env) -> Result<GlobalArgs> {
        let g = global(args);
        Ok(resolution_for(&g, env)?.apply(g, None))
    }

    #[test]
    fn the_current_context_fills_missing_options() {
        let (_dir, env) = env_with(Some(FILE));
        let g = resolved(&[], &env).unwrap();
        assert_eq!(g.zk.as_deref(), Some("prod1:2181,prod2:2181"));
        assert_eq!(g.namespace.as_deref(), Some("jobs"));
        assert_eq!(g.digest.as_deref(), Some("ops:secret"));
        assert_eq!(g.connect_timeout, Duration::from_secs(3));
    }

    #[test]
    fn a_named_context_wins_over_the_current_one() {
        let (_dir, env) = env_with(Some(FILE));
        let g = resolved(&["--context", "local"], &env).unwrap();
        assert_eq!(g.zk.as_deref(), Some("127.0.0.1:2181"));
        assert_eq!(g.namespace.as_deref(), Some("demo"));
        assert_eq!(g.digest, None);
        assert_eq!(g.connect_timeout, Duration::from_secs(5), "the default");
    }

    #[test]
    fn explicit_options_win_field_by_field() {
        let (_dir, env) = env_with(Some(FILE));
        let g = resolved(&["--namespace", "other"], &env).unwrap();
        assert_eq!(g.zk.as_deref(), Some("prod1:2181,prod2:2181"));
        assert_eq!(g.namespace.as_deref(), Some("other"));
        assert_eq!(g.digest.as_deref(), Some("ops:secret"));

        let g = resolved(&["--connect-timeout", "1s", "--digest", "me:pw"], &env).unwrap();
        assert_eq!(g.connect_timeout, Duration::from_secs(1));
        assert_eq!(g.digest.as_deref(), Some("me:pw"));
    }

    #[test]
    fn a_context_digest_is_not_sent_to_another_cluster() {
        let (_dir, env) = env_with(Some(FILE));
        let g = resolved(&["--zk", "elsewhere:2181"], &env).unwrap();
        assert_eq!(g.zk.as_deref(), Some("elsewhere:2181"));
        assert_eq!(g.namespace.as_deref(), Some("jobs"));
        assert_eq!(g.digest, None);
        // The same connect string keeps it.
        let g = resolved(&["--zk", "prod1:2181,prod2:2181"], &env).unwrap();
        assert_eq!(g.digest.as_deref(), Some("ops:secret"));
    }

    #[test]
    fn an_empty_digest_drops_the_contexts() {
        let (_dir, env) = env_with(Some(FILE));
        let g = resolved(&["--digest", ""], &env).unwrap();
        assert_eq!(g.zk.as_deref(), Some("prod1:2181,prod2:2181"));
        assert_eq!(g.digest, None);
    }

    #[test]
    fn no_file_means_no_context() {
        let (_dir, env) = env_with(None);
        let g = resolved(&["--zk", "h:1"], &env).unwrap();
        assert_eq!(g.zk.as_deref(), Some("h:1"));
        assert_eq!(g.namespace, None);
        let g = resolved(&[], &Env::default()).unwrap();
        assert_eq!(g.zk, None);
    }

    #[test]
    fn unknown_contexts_are_not_found_listing_the_known_ones() {
        let (_dir, env) = env_with(Some(FILE));
        let err = resolved(&["--context", "prdo"], &env).unwrap_err();
        assert_eq!(crate::exit::classify(&err), Exit::NotFound);
        assert!(
            err.to_string().starts_with("unknown context 'prdo' (did you mean 'prod'?) (known contexts: "),
            "{err}"
        );
        let err = resolved(&["--context", "stage"], &env).unwrap_err();
        assert_eq!(crate::exit::classify(&err), Exit::NotFound);
        assert!(
            err.to_string().starts_with("unknown context 'stage' (known contexts: local, prod; contexts file: "),
            "{err}"
        );
        let (_dir, env) = env_with(None);
        let err = resolved(&["--context", "stage"], &env).unwrap_err();
        assert!(err.to_string().starts_with("unknown context 'stage' (known contexts: none;"), "{err}");
    }

    #[test]
    fn a_dangling_current_context_is_ignored() {
        let (_dir, env) = env_with(Some("current_context = \"gone\"\n"));
        let g = resolved(&[], &env).unwrap();
        assert_eq!(g.zk, None);
    }

    #[test]
    fn bad_files_are_usage_errors_naming_the_file() {
        let (_dir, env) = env_with(Some("[contexts.a]\nzk = \"h:1\"\nnamspace = \"x\"\n"));
        let err = resolved(&[], &env).unwrap_err();
        assert_eq!(crate::exit::classify(&err), Exit::Usage);
        let msg = err.to_string();
        assert!(msg.starts_with("contexts file ") && msg.contains("config.toml:3: unknown field `namspace`"), "{msg}");
        assert_eq!(msg.lines().count(), 1);
        let (_dir, env) = env_with(Some(
            "current_context = \"a\"\n[contexts.a]\nzk = \"h:1\"\nnamespace = \"x\"\nconnect_timeout = \"soon\"\n",
        ));
        let err = resolved(&[], &env).unwrap_err();
        assert!(err.to_string().contains("context 'a': connect_timeout: 'soon' is not a duration"), "{err}");
    }

    #[test]
    fn job_files_sit_between_a_named_and_the_current_context() {
        let (_dir, env) = env_with(Some(FILE));
        let file = Layer {
            zk: Some("file:2181".into()),
            namespace: Some("filens".into()),
            digest: Some("f:pw".into()),
            ..Layer::default()
        };
        // Current context (implicit): the file wins.
        let g = global(&[]);
        let r = resolution_for(&g, &env).unwrap();
        let g2 = r.apply(g.clone(), Some(&file));
        assert_eq!(
            (g2.zk.as_deref(), g2.namespace.as_deref(), g2.digest.as_deref()),
            (Some("file:2181"), Some("filens"), Some("f:pw"))
        );
        // A context named explicitly wins over the file.
        let g = global(&["--context", "local"]);
        let r = resolution_for(&g, &env).unwrap();
        let g2 = r.apply(g.clone(), Some(&file));
        assert_eq!(
            (g2.zk.as_deref(), g2.namespace.as_deref(), g2.digest.as_deref()),
            (Some("127.0.0.1:2181"), Some("demo"), None)
        );
        // Explicit flags win over everything, field by field.
        let g = global(&["--namespace", "flagns"]);
        let r = resolution_for(&g, &env).unwrap();
        let g2 = r.apply(g.clone(), Some(&file));
        assert_eq!((g2.zk.as_deref(), g2.namespace.as_deref()), (Some("file:2181"), Some("flagns")));
    }

    #[test]
    fn contexts_path_precedence() {
        let env = Env {
            ejctl_config: Some("/x/ejctl.toml".into()),
            xdg_config_home: Some("/xdg".into()),
            home: Some("/home/u".into()),
        };
        assert_eq!(env.contexts_path(), Some(PathBuf::from("/x/ejctl.toml")));
        let env = Env { ejctl_config: None, ..env };
        assert_eq!(env.contexts_path(), Some(PathBuf::from("/xdg/ejctl/config.toml")));
        let env = Env { xdg_config_home: Some("relative".into()), ..env };
        assert_eq!(env.contexts_path(), Some(PathBuf::from("/home/u/.config/ejctl/config.toml")));
        assert_eq!(Env::default().contexts_path(), None);
    }

    #[test]
    fn save_writes_0600_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub").join("config.toml");
        let mut file = ContextsFile { current_context: Some("a b".into()), ..ContextsFile::default() };
        file.contexts.insert(
            "a b".into(),
            ContextEntry {
                zk: "h:1".into(),
                namespace: "n".into(),
                digest: Some("u:p".into()),
                trace: Some("/var/lib/t.db".into()),
                ..ContextEntry::default()
            },
        );
        save(&path, &file).unwrap();
        assert_eq!(load(&path).unwrap(), Some(file));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
            assert_eq!(std::fs::metadata(path.parent().unwrap()).unwrap().permissions().mode() & 0o777, 0o700);
        }
    }
}
