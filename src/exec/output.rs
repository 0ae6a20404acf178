//! A run's output: a reader per pipe that either logs lines (stdout and stderr of scripts, a
//! size cap per stream per run) or captures bytes up to a limit (a dataflow fetch's stdout).
//! Logged lines also feed the run's [`Tails`]: the last lines of its output (for the trace
//! store) and of its stderr (for the item's recorded result and failure message).

use std::borrow::Cow;
use std::collections::VecDeque;
use std::io;
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::oneshot;

/// How many bytes of each output stream are logged per process.
pub const LOG_CAP: usize = 64 * 1024;

/// How many bytes of a run's last output lines (stdout and stderr, in arrival order) are kept.
pub const OUTPUT_TAIL_CAP: usize = 4096;

/// How many of a run's last stderr lines are kept, and at most how many bytes.
pub const STDERR_TAIL_LINES: usize = 5;
const STDERR_TAIL_BYTES: usize = 1024;

/// The last lines a run logged: of its output, and of its stderr alone.
#[derive(Debug, Default)]
pub struct Tails {
    output: VecDeque<String>,
    output_bytes: usize,
    stderr: VecDeque<String>,
}

/// The tails shared by a process's stdout and stderr readers.
pub(super) type SharedTails = Arc<Mutex<Tails>>;

impl Tails {
    fn push(&mut self, stream: &str, line: &str) {
        self.output_bytes += line.len() + 1;
        self.output.push_back(line.to_string());
        while self.output_bytes > OUTPUT_TAIL_CAP {
            let Some(old) = self.output.pop_front() else { break };
            self.output_bytes -= old.len() + 1;
        }
        if stream == "stderr" && !line.trim().is_empty() {
            self.stderr.push_back(line.chars().take(STDERR_TAIL_BYTES).collect());
            while self.stderr.len() > STDERR_TAIL_LINES
                || self.stderr.iter().map(|l| l.len() + 1).sum::<usize>() > STDERR_TAIL_BYTES
            {
                self.stderr.pop_front();
            }
        }
    }

    /// The last output lines, newline-terminated.
    pub fn output(&self) -> String {
        self.output.iter().map(|l| format!("{l}\n")).collect()
    }

    /// The last stderr lines, newline-terminated.
    pub fn stderr(&self) -> String {
        self.stderr.iter().map(|l| format!("{l}\n")).collect()
    }

    /// Takes the tails out of a shared cell.
    pub(super) fn take(shared: &SharedTails) -> (String, String) {
        let tails = crate::sync::lock(shared);
        (tails.output(), tails.stderr())
    }
}

/// Names a process in its log lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputLabel {
    /// The job name (log field `job`).
    pub job: String,
    /// The sharding item (log field `item`).
    pub item: u32,
    /// Which command of the job this is: `script`, `fetch`, `process` (log field `command`).
    pub command: &'static str,
}

/// A size for messages: `16 MiB`, `64 KiB`, `100 bytes`.
pub(super) fn format_bytes(bytes: usize) -> String {
    if bytes >= 1024 * 1024 && bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// Where a reader puts what it reads.
pub(super) enum Sink {
    Log(LineLogger),
    Capture { data: Vec<u8>, limit: usize, overflow: Option<oneshot::Sender<()>>, overflowed: bool },
}

/// What a reader collected.
#[derive(Default)]
pub(super) struct Captured {
    /// The captured bytes (nothing for a logged stream).
    pub(super) data: Vec<u8>,
    /// True when the capture limit was exceeded.
    pub(super) overflowed: bool,
}

/// Reads a pipe to end of file into a sink.
pub(super) async fn pump<R: AsyncRead + Unpin>(mut pipe: R, mut sink: Sink) -> Captured {
    let mut buf = vec![0u8; 8192];
    loop {
        let n = match pipe.read(&mut buf).await {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read process output");
                break;
            }
        };
        let chunk = buf.get(..n).unwrap_or_default();
        match &mut sink {
            Sink::Log(logger) => logger.feed(chunk),
            Sink::Capture { data, limit, overflow, overflowed } => {
                if *overflowed {
                    continue;
                }
                if data.len() + chunk.len() > *limit {
                    *overflowed = true;
                    if let Some(tx) = overflow.take() {
                        let _ = tx.send(());
                    }
                    continue;
                }
                data.extend_from_slice(chunk);
            }
        }
    }
    match sink {
        Sink::Log(mut logger) => {
            logger.finish();
            Captured::default()
        }
        Sink::Capture { data, overflowed, .. } => Captured { data, overflowed },
    }
}

/// Logs one output stream line by line.
pub(super) struct LineLogger {
    label: OutputLabel,
    stream: &'static str,
    lines: LineSplitter,
    tails: SharedTails,
}

impl LineLogger {
    pub(super) fn new(label: OutputLabel, stream: &'static str, tails: SharedTails) -> LineLogger {
        LineLogger { label, stream, lines: LineSplitter::new(LOG_CAP), tails }
    }

    fn feed(&mut self, data: &[u8]) {
        let LineLogger { label, stream, lines, tails } = self;
        lines.feed(data, &mut |line| log_line(label, stream, tails, line));
    }

    fn finish(&mut self) {
        let LineLogger { label, stream, lines, tails } = self;
        lines.finish(&mut |line| log_line(label, stream, tails, line));
    }
}

fn log_line(label: &OutputLabel, stream: &str, tails: &SharedTails, line: Line<'_>) {
    match line {
        Line::Text(text) => {
            tracing::info!(job = %label.job, item = label.item, command = %label.command, stream = %stream, "{text}");
            crate::sync::lock(tails).push(stream, &text);
        }
        Line::Truncated => {
            tracing::warn!(
                job = %label.job, item = label.item, command = %label.command, stream = %stream,
                "output truncated: more than {} on {stream}, the rest is not logged",
                format_bytes(LOG_CAP)
            );
        }
    }
}

/// What [`LineSplitter`] hands out.
#[derive(Debug, PartialEq, Eq)]
enum Line<'a> {
    /// A line without its line break (and without a trailing `\r`), invalid UTF-8 replaced.
    Text(Cow<'a, str>),
    /// The cap was reached; nothing more follows.
    Truncated,
}

/// Splits a byte stream into lines, handing out at most `cap` bytes (line breaks counted) and
/// then one [`Line::Truncated`].
struct LineSplitter {
    cap: usize,
    used: usize,
    partial: Vec<u8>,
    truncated: bool,
}

impl LineSplitter {
    fn new(cap: usize) -> LineSplitter {
        LineSplitter { cap, used: 0, partial: Vec::new(), truncated: false }
    }

    fn feed(&mut self, data: &[u8], emit: &mut dyn FnMut(Line<'_>)) {
        for piece in data.split_inclusive(|b| *b == b'\n') {
            if self.truncated {
                return;
            }
            let (content, complete) = match piece.strip_suffix(b"\n") {
                Some(content) => (content, true),
                None => (piece, false),
            };
            let needed = self.used + self.partial.len() + content.len() + usize::from(complete);
            if needed > self.cap {
                self.truncated = true;
                self.partial = Vec::new();
                emit(Line::Truncated);
                return;
            }
            self.partial.extend_from_slice(content);
            if complete {
                self.used += self.partial.len() + 1;
                let line = std::mem::take(&mut self.partial);
                emit(Line::Text(text_of(&line)));
            }
        }
    }

    fn finish(&mut self, emit: &mut dyn FnMut(Line<'_>)) {
        if !self.truncated && !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.used += line.len();
            emit(Line::Text(text_of(&line)));
        }
    }
}

fn text_of(line: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(line.strip_suffix(b"\r").unwrap_or(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitter_lines_and_cap() {
        let mut got = Vec::new();
        let mut splitter = LineSplitter::new(12);
        let mut emit = |line: Line<'_>| {
            got.push(match line {
                Line::Text(text) => text.into_owned(),
                Line::Truncated => "<truncated>".to_owned(),
            })
        };
        splitter.feed(b"ab", &mut emit);
        splitter.feed(b"c\r\nde\n", &mut emit);
        splitter.feed(b"\xff\n", &mut emit);
        // "abc\n" + "de\n" + "\xff\n" = 9 bytes; "fgh\n" would make 13.
        splitter.feed(b"fgh\nmore\n", &mut emit);
        splitter.feed(b"ignored\n", &mut emit);
        splitter.finish(&mut emit);
        assert_eq!(got, vec!["abc", "de", "\u{fffd}", "<truncated>"]);

        let mut got = Vec::new();
        let mut splitter = LineSplitter::new(8);
        let mut emit = |line: Line<'_>| {
            got.push(match line {
                Line::Text(text) => text.into_owned(),
                Line::Truncated => "<truncated>".to_owned(),
            })
        };
        splitter.feed(b"1234\n", &mut emit);
        splitter.feed(b"abc", &mut emit);
        splitter.finish(&mut emit);
        assert_eq!(got, vec!["1234", "abc"]);
    }

    #[test]
    fn tails_keep_the_last_lines() {
        let mut t = Tails::default();
        for i in 0..1000 {
            t.push("stdout", &format!("out {i}"));
        }
        for i in 0..10 {
            t.push("stderr", &format!("err {i}"));
        }
        t.push("stderr", "  ");
        assert!(t.output().len() <= OUTPUT_TAIL_CAP && t.output().ends_with("err 9\n  \n"));
        assert_eq!(t.stderr(), "err 5\nerr 6\nerr 7\nerr 8\nerr 9\n");
    }

    #[test]
    fn splitter_truncates_a_long_partial_line() {
        let mut got = Vec::new();
        let mut splitter = LineSplitter::new(4);
        let mut emit = |line: Line<'_>| got.push(matches!(line, Line::Truncated));
        splitter.feed(b"abc", &mut emit);
        splitter.feed(b"def", &mut emit);
        splitter.finish(&mut emit);
        assert_eq!(got, vec![true]);
    }
}
