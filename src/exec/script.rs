//! Script jobs (docs/src/design/compatibility.md#sharding-context,
//! docs/src/design/behaviour.md#supervised-scripts): the `script.command.line` prop, its parsing
//! into an argv, the environment variables a command receives, and running one item as a supervised
//! process ([`super::process`]).
//!
//! This module also owns what dataflow commands share with scripts: [`parse_command_line`],
//! [`sharding_env`] and the `ejctl.timeout.seconds` prop ([`timeout_from_props`]).
//!
//! # Command line
//!
//! Like commons-exec's `CommandLine.parse`, which ElasticJob uses: words separated by
//! whitespace, `"..."` and `'...'` quote (the quotes are removed, quoted and unquoted parts of
//! one word are joined, `""` is an empty argument), no escapes, no shell: no variables, globs,
//! pipes or redirections. Differences, all deliberate:
//!
//! * commons-exec separates words at the space character only; ejctl at any ASCII whitespace
//!   (tab, line break), so that a TOML multi-line string works as a command line.
//! * commons-exec re-quotes each argument (`StringUtils.quoteArgument`): an argument that
//!   contains a space reaches the process wrapped in `"..."` (with the quote characters), one
//!   with a `"` is wrapped in `'...'`, and surrounding quotes and blanks of an argument are
//!   stripped. ejctl does **not** reproduce this quirk: `/opt/job.sh "a b"` runs argv
//!   `["/opt/job.sh", "a b", json]`, which is what the command line plainly says. A script that
//!   strips the quotes commons-exec added keeps working.
//! * An unterminated quote is a configuration error (commons-exec: "Unbalanced quotes").
//!
//! The sharding context JSON ([`ShardingContext::to_gson_json`]) is always appended as the one
//! last argument, verbatim.
//!
//! # Environment
//!
//! The worker's environment, plus `EJCTL_JOB_NAME`, `EJCTL_SHARDING_ITEM`,
//! `EJCTL_SHARDING_PARAMETER` (empty when the item has none), `EJCTL_SHARDING_TOTAL_COUNT`,
//! `EJCTL_JOB_PARAMETER` and `EJCTL_TASK_ID`. stdin is `/dev/null`; stdout and stderr go to the
//! log (capped, see [`super::process`]).

use crate::config::Props;
use crate::config::schema::prop;
use std::time::Duration;

use super::context::ShardingContext;
use super::process::{self, Invocation, OutputLabel, StdoutMode};
use super::{ItemOutcome, RunControl};

/// The prop holding a script job's command line (ElasticJob's key).
pub const COMMAND_LINE_PROP: &str = prop::SCRIPT_COMMAND_LINE;

/// The ejctl prop holding a run's timeout in seconds (script and dataflow commands).
pub const TIMEOUT_PROP: &str = prop::TIMEOUT_SECONDS;

/// A script job's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptSpec {
    /// The command line as configured.
    pub command_line: String,
    /// The parsed command line: program and arguments, without the context JSON.
    pub argv: Vec<String>,
    /// Stop a run (SIGTERM, then SIGKILL of its process group) after this long.
    pub timeout: Option<Duration>,
}

impl ScriptSpec {
    /// Reads `script.command.line` (required) and `ejctl.timeout.seconds` (optional).
    ///
    /// # Errors
    /// A message naming the prop when the command line is missing, blank or has an unterminated
    /// quote, or when the timeout is not a positive whole number.
    pub fn from_props(props: &Props) -> Result<ScriptSpec, String> {
        let command_line = props.get(COMMAND_LINE_PROP).map(String::as_str).unwrap_or_default();
        if command_line.trim().is_empty() {
            return Err(format!("props '{COMMAND_LINE_PROP}' is missing; a script job needs a command"));
        }
        let argv = parse_prop_command_line(COMMAND_LINE_PROP, command_line)?;
        Ok(ScriptSpec { command_line: command_line.to_owned(), argv, timeout: timeout_from_props(props)? })
    }
}

/// Runs one item: the command line plus the context JSON as the last argument. Exit code 0
/// succeeds; anything else fails the item (`exit code 3`, `killed by signal 9 (exit 137)`,
/// `timed out after 5s`, `killed by the worker`, or why the command could not start).
pub async fn run(spec: &ScriptSpec, ctx: &ShardingContext, control: RunControl) -> ItemOutcome {
    let invocation = Invocation {
        argv: argv_with_context(&spec.argv, ctx),
        env: sharding_env(ctx, &control),
        stdin: None,
        timeout: spec.timeout,
        stdout: StdoutMode::Log,
    };
    let label = OutputLabel { job: ctx.job_name.clone(), item: ctx.sharding_item, command: "script" };
    let result = process::run_supervised(invocation, &label, &control).await;
    // A failure is logged once, with its reason and stderr, where the run ends.
    result.to_outcome(None)
}

/// `argv` followed by the context's Gson JSON.
pub fn argv_with_context(argv: &[String], ctx: &ShardingContext) -> Vec<String> {
    let mut out = Vec::with_capacity(argv.len() + 1);
    out.extend_from_slice(argv);
    out.push(ctx.to_gson_json());
    out
}

/// The environment variables a script or dataflow command receives besides the inherited ones:
/// the sharding context, and `EJCTL_FIRE_TIME` (the fire's instant, milliseconds since the epoch)
/// when the run covers a known fire.
pub fn sharding_env(ctx: &ShardingContext, control: &RunControl) -> Vec<(String, String)> {
    let mut env = vec![
        ("EJCTL_JOB_NAME".to_owned(), ctx.job_name.clone()),
        ("EJCTL_SHARDING_ITEM".to_owned(), ctx.sharding_item.to_string()),
        ("EJCTL_SHARDING_PARAMETER".to_owned(), ctx.sharding_parameter.clone().unwrap_or_default()),
        ("EJCTL_SHARDING_TOTAL_COUNT".to_owned(), ctx.sharding_total_count.to_string()),
        ("EJCTL_JOB_PARAMETER".to_owned(), ctx.job_parameter.clone()),
        ("EJCTL_TASK_ID".to_owned(), ctx.task_id.clone()),
    ];
    if let Some(fire) = control.fire_time {
        env.push(("EJCTL_FIRE_TIME".to_owned(), fire.timestamp_millis().to_string()));
    }
    env
}

/// Reads `ejctl.timeout.seconds`: absent or blank is no timeout.
///
/// # Errors
/// A message naming the prop when the value is not a positive whole number of seconds.
pub fn timeout_from_props(props: &Props) -> Result<Option<Duration>, String> {
    let Some(value) = props.get(TIMEOUT_PROP).map(|v| v.trim()).filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    match value.parse::<u64>() {
        Ok(seconds) if seconds > 0 => Ok(Some(Duration::from_secs(seconds))),
        _ => Err(format!("props '{TIMEOUT_PROP}' must be a positive whole number of seconds, not '{value}'")),
    }
}

/// Parses a command line held in prop `prop`; errors name the prop.
///
/// # Errors
/// When the line has an unterminated quote or no program.
pub fn parse_prop_command_line(prop: &str, line: &str) -> Result<Vec<String>, String> {
    let argv = parse_command_line(line).map_err(|e| format!("props '{prop}' {e}: {line}"))?;
    match argv.first() {
        Some(program) if !program.is_empty() => Ok(argv),
        _ => Err(format!("props '{prop}' names no program: {line}")),
    }
}

/// Splits a command line into words (see the module docs): whitespace separates, `"..."` and
/// `'...'` quote, no escapes.
///
/// # Errors
/// `has an unterminated " quote` (or `'`).
pub fn parse_command_line(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut current = String::new();
    // True when the current word had a quoted part, so that `""` makes an empty word.
    let mut quoted = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => current.push(c),
            None => match c {
                '"' | '\'' => {
                    quote = Some(c);
                    quoted = true;
                }
                c if c.is_ascii_whitespace() => {
                    if quoted || !current.is_empty() {
                        words.push(std::mem::take(&mut current));
                        quoted = false;
                    }
                }
                c => current.push(c),
            },
        }
    }
    if let Some(q) = quote {
        return Err(format!("has an unterminated {q} quote"));
    }
    if quoted || !current.is_empty() {
        words.push(current);
    }
    // Kept by the job for as long as it runs: without the room a push leaves (four words for a
    // command of one), 72 bytes less of every job.
    words.shrink_to_fit();
    Ok(words)
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};
    use std::time::Instant;

    use super::*;
    use crate::exec::context::task_id;

    fn words(line: &str) -> Vec<String> {
        parse_command_line(line).unwrap()
    }

    #[test]
    fn parsing() {
        assert_eq!(words("/opt/job.sh --flag"), ["/opt/job.sh", "--flag"]);
        assert_eq!(words("  a   b\tc\nd  "), ["a", "b", "c", "d"]);
        assert_eq!(words(r#"run "a b" 'c d' e"#), ["run", "a b", "c d", "e"]);
        assert_eq!(words(r#"x "it's" 'say "hi"'"#), ["x", "it's", r#"say "hi""#]);
        assert_eq!(words(r#"x a"b c"d"#), ["x", "ab cd"]);
        assert_eq!(words(r#"x "" '' y"#), ["x", "", "", "y"]);
        assert_eq!(words(r#"x """#), ["x", ""]);
        assert_eq!(words(r"x a\ b $HOME *.txt | wc"), ["x", r"a\", "b", "$HOME", "*.txt", "|", "wc"]);
        assert_eq!(words(""), Vec::<String>::new());
        assert_eq!(words("   "), Vec::<String>::new());
        assert_eq!(parse_command_line(r#"x "a b"#), Err(r#"has an unterminated " quote"#.to_owned()));
        assert_eq!(parse_command_line("x 'a"), Err("has an unterminated ' quote".to_owned()));
    }

    fn props(pairs: &[(&str, &str)]) -> Props {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn spec_from_props() {
        let spec = ScriptSpec::from_props(&props(&[("script.command.line", "/opt/job.sh 'a b'")])).unwrap();
        assert_eq!(spec.argv, ["/opt/job.sh", "a b"]);
        assert_eq!(spec.command_line, "/opt/job.sh 'a b'");
        assert_eq!(spec.timeout, None);

        let spec =
            ScriptSpec::from_props(&props(&[("script.command.line", "x"), ("ejctl.timeout.seconds", " 30 ")])).unwrap();
        assert_eq!(spec.timeout, Some(Duration::from_secs(30)));
        let spec =
            ScriptSpec::from_props(&props(&[("script.command.line", "x"), ("ejctl.timeout.seconds", "")])).unwrap();
        assert_eq!(spec.timeout, None);

        let missing = "props 'script.command.line' is missing; a script job needs a command";
        assert_eq!(ScriptSpec::from_props(&props(&[])), Err(missing.to_owned()));
        assert_eq!(ScriptSpec::from_props(&props(&[("script.command.line", " \t")])), Err(missing.to_owned()));
        assert_eq!(
            ScriptSpec::from_props(&props(&[("script.command.line", "x 'a")])),
            Err("props 'script.command.line' has an unterminated ' quote: x 'a".to_owned())
        );
        assert_eq!(
            ScriptSpec::from_props(&props(&[("script.command.line", "'' x")])),
            Err("props 'script.command.line' names no program: '' x".to_owned())
        );
        for bad in ["0", "-1", "1.5", "abc"] {
            assert_eq!(
                ScriptSpec::from_props(&props(&[("script.command.line", "x"), ("ejctl.timeout.seconds", bad)])),
                Err(format!("props 'ejctl.timeout.seconds' must be a positive whole number of seconds, not '{bad}'"))
            );
        }
    }

    fn context(parameter: Option<&str>) -> ShardingContext {
        ShardingContext {
            job_name: "myJob".to_owned(),
            task_id: task_id("myJob", &[0, 1, 2], "10.0.0.5@-@4242"),
            sharding_total_count: 3,
            job_parameter: "jp=1".to_owned(),
            sharding_item: 1,
            sharding_parameter: parameter.map(str::to_owned),
        }
    }

    fn script(dir: &Path, body: &str) -> PathBuf {
        let path = dir.join("job.sh");
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn spec(command_line: &str, timeout: Option<&str>) -> ScriptSpec {
        let mut p = props(&[("script.command.line", command_line)]);
        if let Some(t) = timeout {
            p.insert("ejctl.timeout.seconds".to_owned(), t.to_owned());
        }
        ScriptSpec::from_props(&p).unwrap()
    }

    #[tokio::test]
    async fn argv_and_env() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let path = script(
            dir.path(),
            &format!(
                r#"for a in "$@"; do printf '%s\n' "arg:$a"; done > {out}
env | grep '^EJCTL_' | sort >> {out}
[ -t 0 ] || read line || echo "stdin:eof" >> {out}"#,
                out = out.display()
            ),
        );
        let ctx = context(Some("Beijing"));
        let outcome =
            run(&spec(&format!("{} --flag 'two words'", path.display()), None), &ctx, RunControl::detached()).await;
        assert_eq!(outcome, ItemOutcome { exit_code: Some(0), ..ItemOutcome::ok() });
        let text = std::fs::read_to_string(&out).unwrap();
        let expected = format!(
            "arg:--flag\narg:two words\narg:{json}\n\
             EJCTL_JOB_NAME=myJob\nEJCTL_JOB_PARAMETER=jp=1\nEJCTL_SHARDING_ITEM=1\n\
             EJCTL_SHARDING_PARAMETER=Beijing\nEJCTL_SHARDING_TOTAL_COUNT=3\n\
             EJCTL_TASK_ID=myJob@-@0,1,2@-@READY@-@10.0.0.5@-@4242\nstdin:eof\n",
            json = ctx.to_gson_json()
        );
        assert_eq!(text, expected);
    }

    #[tokio::test]
    async fn json_is_exactly_the_last_argument() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let path = script(
            dir.path(),
            &format!(
                r#"eval "last=\${{$#}}"; printf '%s' "$last" > {out}; printf '%s' "$#" > {out}.count; printf '%s' "$EJCTL_SHARDING_PARAMETER" > {out}.param"#,
                out = out.display()
            ),
        );
        let mut ctx = context(None);
        ctx.job_parameter = "a=b <c> & 'd' \"e\" 北京".to_owned();
        let outcome = run(&spec(&path.display().to_string(), None), &ctx, RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), ctx.to_gson_json());
        assert_eq!(std::fs::read_to_string(dir.path().join("out.count")).unwrap(), "1");
        assert_eq!(std::fs::read_to_string(dir.path().join("out.param")).unwrap(), "");
    }

    #[tokio::test]
    async fn failures() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "echo working; echo 'db is down' >&2; exit 7");
        let outcome = run(&spec(&path.display().to_string(), None), &context(None), RunControl::detached()).await;
        // stdout and stderr are separate pipes: their lines interleave in either order.
        assert!(outcome.output_tail.contains("working\n") && outcome.output_tail.contains("db is down\n"));
        assert_eq!(
            ItemOutcome { output_tail: String::new(), ..outcome.clone() },
            ItemOutcome {
                exit_code: Some(7),
                stderr_tail: "db is down\n".to_owned(),
                ..ItemOutcome::failed("exit code 7")
            }
        );
        assert_eq!(outcome.reason().as_deref(), Some("exit code 7: db is down"));

        let path = script(dir.path(), "kill -TERM $$");
        let outcome = run(&spec(&path.display().to_string(), None), &context(None), RunControl::detached()).await;
        assert_eq!(outcome.exit_code, Some(143));
        assert_eq!(outcome.message.as_deref(), Some("killed by signal 15 (exit 143)"));
        assert_eq!(outcome.signal, Some(15));

        let missing = dir.path().join("nope.sh");
        let outcome = run(&spec(&missing.display().to_string(), None), &context(None), RunControl::detached()).await;
        assert_eq!(
            outcome.message,
            Some(format!("cannot start '{}': No such file or directory (os error 2)", missing.display()))
        );
        assert!(!outcome.success && !outcome.killed);
    }

    #[tokio::test]
    async fn timeout() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "sleep 1000 & wait");
        let started = Instant::now();
        let outcome = run(&spec(&path.display().to_string(), Some("1")), &context(None), RunControl::detached()).await;
        assert!(started.elapsed() < Duration::from_secs(4));
        assert_eq!(outcome.message.as_deref(), Some("timed out after 1s"));
        assert!(outcome.killed && !outcome.success);
    }

    #[tokio::test]
    async fn kill_token() {
        let dir = tempfile::tempdir().unwrap();
        let path = script(dir.path(), "sleep 1000");
        let control = RunControl::detached();
        let kill = control.kill.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            kill.cancel();
        });
        let started = Instant::now();
        let outcome = run(&spec(&path.display().to_string(), None), &context(None), control).await;
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(outcome.killed && !outcome.success);
        assert_eq!(outcome.message.as_deref(), Some("killed by the worker"));
    }
}
