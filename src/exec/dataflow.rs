//! Command-line dataflow jobs (docs/src/design/compatibility.md#sharding-context): a `fetch`
//! command whose stdout is JSON lines and a `process` command that receives those lines on stdin,
//! run as ElasticJob's `DataflowJobExecutor` runs `fetchData` / `processData`.
//!
//! Props: `ejctl.dataflow.fetch` and `ejctl.dataflow.process` (command lines, parsed like
//! `script.command.line`, see [`super::script`]), `streaming.process` (ElasticJob's key, `true` or
//! `false`, default `false`) and `ejctl.timeout.seconds` (applies to each command run).
//!
//! Each command gets the sharding context JSON as its last argument and the `EJCTL_*`
//! environment variables of script jobs, and runs supervised ([`super::process`]).
//!
//! * fetch: stdout is collected (at most [`process::CAPTURE_LIMIT`] bytes, more fails the item);
//!   every non-blank line must be one JSON value, one data item. A line that is not JSON fails
//!   the item with its line number. stderr goes to the log.
//! * process: runs only when fetch printed at least one item, and receives the items on stdin
//!   as compact JSON lines (whitespace outside strings removed; key order and number text kept
//!   as fetch printed them). Its stdout and stderr go to the log.
//! * One-off mode: one fetch, then process if there is data. Streaming mode: fetch → process
//!   again and again until fetch prints nothing, or the run's stop flag is raised (resharding
//!   needed, worker shutting down; checked after each process, as ElasticJob checks
//!   `isEligibleForJobRunning`), or the kill token fires.
//! * A non-zero exit of either command fails the item; the message says which command.

use crate::config::Props;
use crate::config::schema::prop;
use std::time::Duration;

use super::context::ShardingContext;
use super::process::{self, Invocation, OutputLabel, StdoutMode};
use super::script::{argv_with_context, parse_prop_command_line, sharding_env, timeout_from_props};
use super::{ItemOutcome, RunControl};

/// The prop holding the fetch command line.
pub const FETCH_PROP: &str = prop::DATAFLOW_FETCH;
/// The prop holding the process command line.
pub const PROCESS_PROP: &str = prop::DATAFLOW_PROCESS;
/// ElasticJob's prop for streaming mode.
pub const STREAMING_PROP: &str = prop::STREAMING_PROCESS;

/// A dataflow job's configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataflowSpec {
    /// The parsed fetch command line, without the context JSON.
    pub fetch: Vec<String>,
    /// The parsed process command line, without the context JSON.
    pub process: Vec<String>,
    /// `streaming.process`: repeat fetch / process until fetch prints nothing.
    pub streaming: bool,
    /// Stop a command (SIGTERM, then SIGKILL of its process group) after this long.
    pub timeout: Option<Duration>,
}

impl DataflowSpec {
    /// Reads the fetch and process command lines, `streaming.process` and
    /// `ejctl.timeout.seconds`.
    ///
    /// # Errors
    /// A message naming the prop that is missing or invalid.
    pub fn from_props(props: &Props) -> Result<DataflowSpec, String> {
        let command = |prop: &str, what: &str| {
            let line = props.get(prop).map(String::as_str).unwrap_or_default();
            if line.trim().is_empty() {
                return Err(format!("props '{prop}' is missing; a dataflow job needs a {what} command"));
            }
            parse_prop_command_line(prop, line)
        };
        let fetch = command(FETCH_PROP, "fetch")?;
        let process = command(PROCESS_PROP, "process")?;
        let streaming = match props.get(STREAMING_PROP).map(|v| v.trim()).unwrap_or_default() {
            "" => false,
            value if value.eq_ignore_ascii_case("true") => true,
            value if value.eq_ignore_ascii_case("false") => false,
            value => return Err(format!("props '{STREAMING_PROP}' must be true or false, not '{value}'")),
        };
        Ok(DataflowSpec { fetch, process, streaming, timeout: timeout_from_props(props)? })
    }
}

/// Runs one item: fetch, then process the fetched items, once or (streaming) until fetch
/// prints nothing. Succeeds with a note such as `2 batches, 7 items`.
pub async fn run(spec: &DataflowSpec, ctx: &ShardingContext, control: RunControl) -> ItemOutcome {
    // A failure is logged once, with its reason, where the run ends.
    run_batches(spec, ctx, &control).await
}

async fn run_batches(spec: &DataflowSpec, ctx: &ShardingContext, control: &RunControl) -> ItemOutcome {
    let mut batches = 0u64;
    let mut items = 0u64;
    loop {
        if control.kill.is_cancelled() {
            return killed();
        }
        let fetched = process::run_supervised(
            command(spec, &spec.fetch, ctx, control, None, StdoutMode::Capture { limit: process::CAPTURE_LIMIT }),
            &label(ctx, "fetch"),
            control,
        )
        .await;
        if !fetched.success() {
            return fetched.to_outcome(Some("fetch command"));
        }
        let lines = match json_lines(&fetched.stdout) {
            Ok(lines) => lines,
            Err(message) => return ItemOutcome::failed(message),
        };
        if lines.is_empty() {
            break;
        }
        if control.kill.is_cancelled() {
            return killed();
        }
        let count = lines.len();
        let mut input = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            input.extend_from_slice(line.as_bytes());
            input.push(b'\n');
        }
        tracing::debug!(job = %ctx.job_name, item = ctx.sharding_item, items = count, "processing dataflow batch");
        let processed = process::run_supervised(
            command(spec, &spec.process, ctx, control, Some(input), StdoutMode::Log),
            &label(ctx, "process"),
            control,
        )
        .await;
        if !processed.success() {
            return processed.to_outcome(Some("process command"));
        }
        batches += 1;
        items += u64::try_from(count).unwrap_or(u64::MAX);
        if !spec.streaming || *control.stop.borrow() {
            break;
        }
    }
    let note = format!("{batches} {}, {items} {}", plural(batches, "batch", "batches"), plural(items, "item", "items"));
    ItemOutcome { message: Some(note), exit_code: Some(0), ..ItemOutcome::ok() }
}

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

fn killed() -> ItemOutcome {
    ItemOutcome { killed: true, ..ItemOutcome::failed("killed by the worker") }
}

fn label(ctx: &ShardingContext, command: &'static str) -> OutputLabel {
    OutputLabel { job: ctx.job_name.clone(), item: ctx.sharding_item, command }
}

fn command(
    spec: &DataflowSpec,
    argv: &[String],
    ctx: &ShardingContext,
    control: &RunControl,
    stdin: Option<Vec<u8>>,
    stdout: StdoutMode,
) -> Invocation {
    Invocation {
        argv: argv_with_context(argv, ctx),
        env: sharding_env(ctx, control),
        stdin,
        timeout: spec.timeout,
        stdout,
    }
}

/// Splits fetch output into compact JSON lines, skipping blank lines.
///
/// # Errors
/// `fetch command printed a line that is not JSON (line 3): ...` or not UTF-8.
fn json_lines(output: &[u8]) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    for (index, raw) in output.split(|b| *b == b'\n').enumerate() {
        let number = index + 1;
        let text = std::str::from_utf8(raw)
            .map_err(|_| format!("fetch command printed a line that is not UTF-8 (line {number})"))?
            .trim();
        if text.is_empty() {
            continue;
        }
        serde_json::from_str::<serde::de::IgnoredAny>(text)
            .map_err(|e| format!("fetch command printed a line that is not JSON (line {number}): {e}"))?;
        lines.push(compact(text));
    }
    Ok(lines)
}

/// Removes the whitespace outside strings from valid JSON text.
fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !matches!(c, ' ' | '\t' | '\n' | '\r') {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};
    use std::time::Instant;

    use tokio::sync::watch;

    use super::*;
    use crate::exec::context::task_id;

    fn props(pairs: &[(&str, &str)]) -> Props {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    fn context() -> ShardingContext {
        ShardingContext {
            job_name: "flow".to_owned(),
            task_id: task_id("flow", &[0], "10.0.0.5@-@4242"),
            sharding_total_count: 1,
            job_parameter: String::new(),
            sharding_item: 0,
            sharding_parameter: None,
        }
    }

    fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
        let path = dir.join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// A fetch that prints the lines of `batches` one after the other, one batch per call
    /// (batches separated by `|`), then nothing; and a process that appends its stdin and
    /// "--" to `out`.
    fn setup(dir: &Path, batches: &str, streaming: bool) -> (DataflowSpec, PathBuf) {
        let counter = dir.join("counter");
        let out = dir.join("out");
        std::fs::write(&counter, "0").unwrap();
        let fetch = script(
            dir,
            "fetch.sh",
            &format!(
                r#"n=$(cat {counter}); echo $((n+1)) > {counter}
echo '{batches}' | awk -v n="$n" 'BEGIN{{RS="|"}} NR==n+1 {{printf "%s", $0}}'"#,
                counter = counter.display()
            ),
        );
        let process = script(
            dir,
            "process.sh",
            &format!(r#"cat >> {out}; echo "-- $EJCTL_JOB_NAME" >> {out}"#, out = out.display()),
        );
        let spec = DataflowSpec::from_props(&props(&[
            ("ejctl.dataflow.fetch", &fetch.display().to_string()),
            ("ejctl.dataflow.process", &process.display().to_string()),
            ("streaming.process", if streaming { "true" } else { "false" }),
        ]))
        .unwrap();
        (spec, out)
    }

    #[test]
    fn spec_from_props() {
        let spec = DataflowSpec::from_props(&props(&[
            ("ejctl.dataflow.fetch", "fetch.sh --n 'a b'"),
            ("ejctl.dataflow.process", "process.sh"),
            ("streaming.process", "TRUE"),
            ("ejctl.timeout.seconds", "9"),
        ]))
        .unwrap();
        assert_eq!(spec.fetch, ["fetch.sh", "--n", "a b"]);
        assert_eq!(spec.process, ["process.sh"]);
        assert!(spec.streaming);
        assert_eq!(spec.timeout, Some(Duration::from_secs(9)));

        let spec = DataflowSpec::from_props(&props(&[("ejctl.dataflow.fetch", "f"), ("ejctl.dataflow.process", "p")]))
            .unwrap();
        assert!(!spec.streaming);

        let err = |pairs: &[(&str, &str)]| DataflowSpec::from_props(&props(pairs)).unwrap_err();
        assert_eq!(
            err(&[("ejctl.dataflow.process", "p")]),
            "props 'ejctl.dataflow.fetch' is missing; a dataflow job needs a fetch command"
        );
        assert_eq!(
            err(&[("ejctl.dataflow.fetch", "f"), ("ejctl.dataflow.process", " ")]),
            "props 'ejctl.dataflow.process' is missing; a dataflow job needs a process command"
        );
        assert_eq!(
            err(&[("ejctl.dataflow.fetch", "f \"x"), ("ejctl.dataflow.process", "p")]),
            "props 'ejctl.dataflow.fetch' has an unterminated \" quote: f \"x"
        );
        assert_eq!(
            err(&[("ejctl.dataflow.fetch", "f"), ("ejctl.dataflow.process", "p"), ("streaming.process", "yes")]),
            "props 'streaming.process' must be true or false, not 'yes'"
        );
        assert_eq!(
            err(&[("ejctl.dataflow.fetch", "f"), ("ejctl.dataflow.process", "p"), ("ejctl.timeout.seconds", "x")]),
            "props 'ejctl.timeout.seconds' must be a positive whole number of seconds, not 'x'"
        );
    }

    #[test]
    fn lines_and_compaction() {
        let lines = json_lines(b"{\"b\": 1, \"a\": [1, 2.50]}\n\n  \"s p\\\" a c e\"  \r\n42\nnull").unwrap();
        assert_eq!(lines, [r#"{"b":1,"a":[1,2.50]}"#, r#""s p\" a c e""#, "42", "null"]);
        assert_eq!(json_lines(b"").unwrap(), Vec::<String>::new());
        assert_eq!(json_lines(b"\n \n").unwrap(), Vec::<String>::new());
        let err = json_lines(b"1\n\n{oops}\n").unwrap_err();
        assert!(err.starts_with("fetch command printed a line that is not JSON (line 3): "), "{err}");
        assert_eq!(
            json_lines(b"1 2").unwrap_err(),
            "fetch command printed a line that is not JSON (line 1): trailing characters at line 1 column 3"
        );
        assert_eq!(json_lines(b"\xff").unwrap_err(), "fetch command printed a line that is not UTF-8 (line 1)");
    }

    #[tokio::test]
    async fn one_off_runs_one_batch() {
        let dir = tempfile::tempdir().unwrap();
        let (spec, out) = setup(dir.path(), "{\"id\": 1}\n{\"id\": 2}\n|3\n", false);
        let outcome = run(&spec, &context(), RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("1 batch, 2 items"));
        assert_eq!(std::fs::read_to_string(out).unwrap(), "{\"id\":1}\n{\"id\":2}\n-- flow\n");
    }

    #[tokio::test]
    async fn streaming_runs_until_fetch_is_empty() {
        let dir = tempfile::tempdir().unwrap();
        let (spec, out) = setup(dir.path(), "1\n2\n|3\n|\"four\"\n", true);
        let outcome = run(&spec, &context(), RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("3 batches, 4 items"));
        assert_eq!(std::fs::read_to_string(out).unwrap(), "1\n2\n-- flow\n3\n-- flow\n\"four\"\n-- flow\n");
        // Three batches and the empty fetch that ended the loop.
        assert_eq!(std::fs::read_to_string(dir.path().join("counter")).unwrap().trim(), "4");
    }

    #[tokio::test]
    async fn nothing_fetched_is_success() {
        let dir = tempfile::tempdir().unwrap();
        let (spec, out) = setup(dir.path(), "", true);
        let outcome = run(&spec, &context(), RunControl::detached()).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("0 batches, 0 items"));
        assert!(!out.exists());
    }

    #[tokio::test]
    async fn bad_json_fails_without_processing() {
        let dir = tempfile::tempdir().unwrap();
        let (spec, out) = setup(dir.path(), "1\nnot json\n", false);
        let outcome = run(&spec, &context(), RunControl::detached()).await;
        assert!(!outcome.success);
        let message = outcome.message.unwrap();
        assert!(message.starts_with("fetch command printed a line that is not JSON (line 2): "), "{message}");
        assert!(!out.exists());
    }

    #[tokio::test]
    async fn stop_flag_ends_streaming_after_the_batch() {
        let dir = tempfile::tempdir().unwrap();
        let (spec, out) = setup(dir.path(), "1|2|3|4", true);
        let (stop_tx, stop) = watch::channel(true);
        let control = RunControl { stop, ..RunControl::detached() };
        let outcome = run(&spec, &context(), control).await;
        assert!(outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("1 batch, 1 item"));
        assert_eq!(std::fs::read_to_string(out).unwrap(), "1\n-- flow\n");
        drop(stop_tx);
    }

    #[tokio::test]
    async fn failing_commands() {
        let dir = tempfile::tempdir().unwrap();
        let fail = script(dir.path(), "fail.sh", "exit 4");
        let ok = script(dir.path(), "ok.sh", "echo 1");
        let spec = |fetch: &Path, process: &Path| {
            DataflowSpec::from_props(&props(&[
                ("ejctl.dataflow.fetch", &fetch.display().to_string()),
                ("ejctl.dataflow.process", &process.display().to_string()),
            ]))
            .unwrap()
        };
        let outcome = run(&spec(&fail, &ok), &context(), RunControl::detached()).await;
        assert_eq!(outcome.message.as_deref(), Some("fetch command: exit code 4"));
        assert_eq!(outcome.exit_code, Some(4));
        let outcome = run(&spec(&ok, &fail), &context(), RunControl::detached()).await;
        assert_eq!(outcome.message.as_deref(), Some("process command: exit code 4"));
        let missing = dir.path().join("missing");
        let outcome = run(&spec(&ok, &missing), &context(), RunControl::detached()).await;
        assert_eq!(
            outcome.message,
            Some(format!(
                "process command: cannot start '{}': No such file or directory (os error 2)",
                missing.display()
            ))
        );
    }

    #[tokio::test]
    async fn kill_token_stops_streaming() {
        let dir = tempfile::tempdir().unwrap();
        let fetch = script(dir.path(), "fetch.sh", "echo 1");
        let process = script(dir.path(), "process.sh", "cat > /dev/null; sleep 1000");
        let spec = DataflowSpec::from_props(&props(&[
            ("ejctl.dataflow.fetch", &fetch.display().to_string()),
            ("ejctl.dataflow.process", &process.display().to_string()),
            ("streaming.process", "true"),
        ]))
        .unwrap();
        let control = RunControl::detached();
        let kill = control.kill.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            kill.cancel();
        });
        let started = Instant::now();
        let outcome = run(&spec, &context(), control).await;
        assert!(started.elapsed() < Duration::from_secs(3));
        assert!(outcome.killed && !outcome.success, "{outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("process command: killed by the worker"));
    }
}
