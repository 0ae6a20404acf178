//! Text logs keep one event per line: a value from the registry, a job file or a command's
//! output that holds a line break cannot forge a second log line, and control characters are
//! shown escaped (`\n`, `\r`, `\x07`) — the escape character too unless the log is coloured (a
//! terminal), whose colours are escape sequences. JSON logs escape them by construction.

use std::io::{self, Write};

/// The `MakeWriter` of text logs: stderr, each event escaped as the module docs say.
#[derive(Debug, Clone, Copy)]
pub struct EscapedStderr {
    /// Colours are on: the escape character passes.
    pub ansi: bool,
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for EscapedStderr {
    type Writer = Escaped<io::Stderr>;

    fn make_writer(&'a self) -> Self::Writer {
        Escaped { inner: io::stderr(), ansi: self.ansi }
    }
}

/// A writer that escapes what [`escape`] escapes in each write (one formatted event).
pub struct Escaped<W> {
    inner: W,
    ansi: bool,
}

impl<W: Write> Write for Escaped<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write_all(&escape(buf, self.ansi))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// `event` with its line breaks (but a final one) and control characters escaped; the escape
/// character kept when `ansi`.
pub fn escape(event: &[u8], ansi: bool) -> std::borrow::Cow<'_, [u8]> {
    let last = event.len().saturating_sub(1);
    let plain = |(i, &b): (usize, &u8)| match b {
        b'\t' => true,
        b'\n' => i == last,
        0x1b => ansi,
        b => b >= 0x20 && b != 0x7f,
    };
    if event.iter().enumerate().all(plain) {
        return std::borrow::Cow::Borrowed(event);
    }
    let mut out = Vec::with_capacity(event.len() + 16);
    for (i, &b) in event.iter().enumerate() {
        match b {
            _ if plain((i, &b)) => out.push(b),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            b => out.extend_from_slice(format!("\\x{b:02X}").as_bytes()),
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_event_one_line() {
        let forged = b"WARN job=j error=\"boom\nINFO forged line\r\x1b[2J\x07\"\n";
        assert_eq!(
            escape(forged, false).as_ref(),
            b"WARN job=j error=\"boom\\nINFO forged line\\r\\x1B[2J\\x07\"\n".as_slice()
        );
        // Colours stay colours; other controls are still escaped.
        assert_eq!(escape(b"\x1b[33mWARN\x1b[0m a\nb\n", true).as_ref(), b"\x1b[33mWARN\x1b[0m a\\nb\n".as_slice());
        // A clean event is passed as it is, tabs and UTF-8 included.
        assert!(matches!(escape("INFO 作业\tok\n".as_bytes(), false), std::borrow::Cow::Borrowed(_)));
    }
}
