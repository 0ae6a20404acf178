//! The one place that writes command results to stdout.
//!
//! Every command result is a view that implements [`Render`]: its JSON/YAML document, what it
//! prints with `-o plain` and what it prints as a table for people. [`Output::render`] picks by
//! `-o/--output`, so commands never branch on the format. The human formats are a list of
//! [`Block`]s: text, a table, tab-separated rows without a header, or a short note for people
//! (what a mutation changed), which goes to stderr and is skipped with `-q`. Diagnostics,
//! progress and prompts never come here; they go to stderr. A write to a closed pipe surfaces as
//! `BrokenPipe`, which `main` turns into exit 0.

use std::io::{IsTerminal, Write};

use anyhow::Result;
use comfy_table::{ContentArrangement, Table};
use serde::Serialize;

/// How results are printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Default)]
pub enum Format {
    /// Tables and trees for people; the layout may change between releases.
    #[default]
    Table,
    /// Tables with every column.
    Wide,
    /// One JSON object per invocation; field names are stable (see the README).
    Json,
    /// The same document as JSON, in YAML.
    Yaml,
    /// Tab-separated rows without a header, one record per line.
    Plain,
}

impl Format {
    /// True for the machine-readable document formats, which never prompt or show progress.
    pub fn is_document(self) -> bool {
        matches!(self, Format::Json | Format::Yaml)
    }
}

/// How tables are printed: `--no-headers`, `--sort-by COLUMN`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// Leave out the header line.
    pub no_headers: bool,
    /// Sort rows by this column (a header, case-insensitive).
    pub sort_by: Option<String>,
}

/// One piece of what a view prints in the human formats.
pub enum Block {
    /// Text, written as is.
    Text(String),
    /// A table, fitted to the terminal width when stdout is a terminal.
    Table(Box<Table>),
    /// Tab-separated rows without a header.
    Rows(Vec<Vec<String>>),
    /// A one-line confirmation for people (what a command changed): stderr, not stdout, since it
    /// is not data; nothing with `-q`.
    Note(String),
}

impl Block {
    /// A table block.
    pub fn table(table: Table) -> Block {
        Block::Table(Box::new(table))
    }
}

/// A command result that can be printed in every format.
pub trait Render {
    /// The `-o json` / `-o yaml` document (an object, so fields can be added).
    fn document(&self) -> impl Serialize;

    /// What `-o plain` prints: records without a header, one per line.
    fn plain(&self) -> Vec<Block>;

    /// What `-o table` (the default) prints, for people.
    fn table(&self) -> Vec<Block>;
}

/// The stdout writer.
pub struct Output {
    /// The chosen format.
    pub format: Format,
    /// `-q`: notes are not written.
    pub quiet: bool,
}

impl Output {
    /// A writer for `format`.
    pub fn new(format: Format) -> Output {
        Output { format, quiet: false }
    }

    /// A writer that skips notes when `quiet`.
    pub fn quiet(self, quiet: bool) -> Output {
        Output { quiet, ..self }
    }

    /// Prints a view in the chosen format.
    ///
    /// # Errors
    /// Serialisation or I/O errors, including a broken pipe.
    pub fn render(&mut self, view: &impl Render) -> Result<()> {
        let blocks = match self.format {
            Format::Json | Format::Yaml => return self.document(&view.document()),
            Format::Plain => view.plain(),
            Format::Table | Format::Wide => view.table(),
        };
        for block in blocks {
            match block {
                Block::Text(text) => self.text(&text)?,
                Block::Table(table) => self.table(*table)?,
                Block::Rows(rows) => self.rows(&rows)?,
                Block::Note(note) if !self.quiet => self.note(&note)?,
                Block::Note(_) => {}
            }
        }
        Ok(())
    }

    /// True when stdout is a terminal.
    pub fn is_terminal(&self) -> bool {
        std::io::stdout().is_terminal()
    }

    /// Writes text as is.
    ///
    /// # Errors
    /// I/O errors, including a broken pipe.
    pub fn text(&mut self, text: &str) -> Result<()> {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())?;
        out.flush()?;
        Ok(())
    }

    /// Writes a document as pretty JSON or YAML, whichever the format asks for (JSON otherwise).
    ///
    /// # Errors
    /// Serialisation or I/O errors.
    pub fn document(&mut self, value: &impl Serialize) -> Result<()> {
        let text = match self.format {
            Format::Yaml => serde_yaml_ng::to_string(value)?,
            _ => {
                let mut s = serde_json::to_string_pretty(value)?;
                s.push('\n');
                s
            }
        };
        self.text(&text)
    }

    /// Writes tab-separated rows (tabs and newlines inside fields become spaces).
    ///
    /// # Errors
    /// I/O errors.
    pub fn rows(&mut self, rows: &[Vec<String>]) -> Result<()> {
        let mut text = String::new();
        for row in rows {
            let fields: Vec<String> = row.iter().map(|f| f.replace(['\t', '\n', '\r'], " ")).collect();
            text.push_str(&fields.join("\t"));
            text.push('\n');
        }
        self.text(&text)
    }

    /// Writes a one-line confirmation for people (what a command changed) to stderr, not stdout:
    /// it is not data. [`Output::render`] skips it with `-q`; the document formats never have
    /// one.
    ///
    /// # Errors
    /// I/O errors.
    pub fn note(&mut self, text: &str) -> Result<()> {
        let mut err = std::io::stderr().lock();
        writeln!(err, "{text}")?;
        err.flush()?;
        Ok(())
    }

    /// Writes a table, fitted to the terminal width when stdout is a terminal.
    ///
    /// # Errors
    /// I/O errors.
    pub fn table(&mut self, mut table: Table) -> Result<()> {
        table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
        table.set_content_arrangement(ContentArrangement::Dynamic);
        self.text(&format!("{table}\n"))
    }
}
