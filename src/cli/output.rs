//! The one place that writes command results to stdout.
//!
//! Every command result is a view that implements [`Render`]: its JSON/YAML document, what it
//! prints with `-o plain` (the same fields as the document, tab-separated), as a table for people
//! and with `-o wide` (extra columns). [`Output::render`] picks by `-o/--output`, so commands
//! never branch on the format. The human formats are a list of [`Block`]s: text, a table,
//! tab-separated rows without a header, or a short note for people (what a mutation changed),
//! which goes to stderr and is skipped with `-q`. Diagnostics, progress and prompts never come
//! here; they go to stderr. A write to a closed pipe surfaces as `BrokenPipe`, which `main` turns
//! into exit 0.
//!
//! Tables are printed like kubectl's ([`render_table`]): aligned columns without borders (`-o
//! boxes` draws them), a header line unless `--no-headers`, rows sorted with `--sort-by COLUMN`.
//! Names and ids are never broken; on a terminal narrower than the table (or `COLUMNS` when
//! stdout is not one) only the free-text columns (description, result, message, ...) are cut,
//! with `…`.

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
    /// Tables with borders.
    Boxes,
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

    /// What `-o wide` prints: the table with every column (the table itself by default).
    fn wide(&self) -> Vec<Block> {
        self.table()
    }
}

/// The stdout writer.
pub struct Output {
    /// The chosen format.
    pub format: Format,
    /// `-q`: notes are not written.
    pub quiet: bool,
    /// `--no-headers`, `--sort-by`.
    pub tables: TableOptions,
    /// With [`Output::keep_column_widths`]: the widest each column of each table of a view has
    /// been, by the table's place in the view.
    steady: Option<Vec<Vec<usize>>>,
    /// The place in the view of the next table drawn.
    next_table: usize,
}

impl Output {
    /// A writer for `format`.
    pub fn new(format: Format) -> Output {
        Output { format, quiet: false, tables: TableOptions::default(), steady: None, next_table: 0 }
    }

    /// Keeps each table column at least as wide as it has been (`--watch`): a view drawn again
    /// and again does not shift its columns as a cell grows and shrinks (`OK` and
    /// `FAILING 1/3 (item 2)` in the same column).
    pub fn keep_column_widths(&mut self) {
        self.steady.get_or_insert_with(Vec::new);
    }

    /// A writer that prints tables as `tables` says.
    pub fn tables(self, tables: TableOptions) -> Output {
        Output { tables, ..self }
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
        self.next_table = 0;
        let blocks = match self.format {
            Format::Json | Format::Yaml => return self.document(&view.document()),
            Format::Plain => view.plain(),
            Format::Table | Format::Boxes => view.table(),
            Format::Wide => view.wide(),
        };
        for block in blocks {
            match block {
                Block::Text(text) => self.text(&visible(&text, true))?,
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

    /// Writes a table: aligned columns (boxes with `-o boxes`), sorted and with or without the
    /// header as the options say, free text cut to the terminal width.
    ///
    /// # Errors
    /// An unknown `--sort-by` column (exit 2); I/O errors.
    pub fn table(&mut self, table: Table) -> Result<()> {
        let text = if self.format == Format::Boxes {
            boxed_table(&table, &self.tables)?
        } else {
            let place = self.next_table;
            self.next_table += 1;
            let floor = self.steady.as_ref().and_then(|s| s.get(place)).cloned().unwrap_or_default();
            let (text, widths) = fitted_table(&table, &self.tables, terminal_width(), &floor)?;
            if let Some(steady) = &mut self.steady {
                steady.resize(steady.len().max(place + 1), Vec::new());
                steady[place] = widths;
            }
            text
        };
        self.text(&text)
    }
}

/// `text` safe for a terminal: control characters (an escape sequence in a node's data, a
/// carriage return that would overwrite a line) are shown as `\x1B`, `\u{9B}`; with
/// `lines`, newlines and tabs are kept. The views' own text has none of them, so only
/// registry data is changed.
pub fn visible(text: &str, lines: bool) -> std::borrow::Cow<'_, str> {
    let keep = |c: char| lines && (c == '\n' || c == '\t');
    if !text.chars().any(|c| c.is_control() && !keep(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if keep(c) || !c.is_control() => out.push(c),
            c if (c as u32) < 0x100 => out.push_str(&format!("\\x{:02X}", c as u32)),
            c => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The width tables are fitted to: the terminal's when stdout is one, else `COLUMNS` if set.
fn terminal_width() -> Option<usize> {
    if let Some(width) = Table::new().width() {
        return Some(usize::from(width));
    }
    std::env::var("COLUMNS").ok().and_then(|c| c.trim().parse().ok()).filter(|w| *w > 0)
}

/// Columns whose cells are free text, the only ones cut to fit the width.
const FREE_TEXT: &[&str] = &["DESCRIPTION", "RESULT", "MESSAGE", "ERROR", "REASON", "DETAIL", "OUTPUT"];

/// The space between columns.
const GAP: &str = "   ";

fn cells(row: &comfy_table::Row) -> Vec<String> {
    row.cell_iter().map(|c| c.content().replace(['\n', '\t'], " ")).collect()
}

/// `table` with its rows sorted by `--sort-by`.
///
/// # Errors
/// A usage error naming the columns when the column is unknown.
fn sorted(table: Table, options: &TableOptions) -> Result<Table> {
    let Some(column) = options.sort_by.as_deref() else { return Ok(table) };
    let header = table.header().map(cells).unwrap_or_default();
    let wanted = column.trim().to_uppercase().replace(['-', '_'], " ");
    let Some(index) = header.iter().position(|h| *h == wanted) else {
        return Err(crate::exit::CliError::usage(format!(
            "--sort-by: no column '{column}' (columns: {})",
            header.iter().map(|h| h.to_lowercase().replace(' ', "-")).collect::<Vec<_>>().join(", ")
        ))
        .into());
    };
    let mut rows: Vec<Vec<String>> = table.row_iter().map(cells).collect();
    rows.sort_by(|a, b| {
        sort_key(a.get(index)).partial_cmp(&sort_key(b.get(index))).unwrap_or(std::cmp::Ordering::Equal)
    });
    let mut out = Table::new();
    out.set_header(header);
    for row in rows {
        out.add_row(row);
    }
    Ok(out)
}

/// How a cell sorts: numbers and relative times (`in 3s`, `2m ago`) by value, `-` last, the rest
/// as text.
fn sort_key(cell: Option<&String>) -> (u8, f64, String) {
    let text = cell.map(String::as_str).unwrap_or_default().trim();
    if let Ok(n) = text.parse::<f64>() {
        return (0, n, String::new());
    }
    let seconds = |amount: &str| -> Option<f64> {
        let (n, unit) = amount.split_at(amount.find(|c: char| !c.is_ascii_digit())?);
        let scale = match unit {
            "s" => 1.0,
            "m" => 60.0,
            "h" => 3600.0,
            "d" => 86_400.0,
            _ => return None,
        };
        Some(n.parse::<f64>().ok()? * scale)
    };
    let relative = match text {
        "now" => Some(0.0),
        t => t.strip_prefix("in ").and_then(seconds).or_else(|| t.strip_suffix(" ago").and_then(seconds).map(|s| -s)),
    };
    match relative {
        Some(s) => (0, s, String::new()),
        None if text == "-" || text.is_empty() => (2, 0.0, String::new()),
        None => (1, 0.0, text.to_lowercase()),
    }
}

/// `-o boxes`: the table drawn with borders, sorted and with or without the header as `options`
/// say, every cell [`visible`].
fn boxed_table(table: &Table, options: &TableOptions) -> Result<String> {
    let safe = |row: &comfy_table::Row| -> Vec<String> {
        cells(row).into_iter().map(|c| visible(&c, false).into_owned()).collect()
    };
    let mut escaped = Table::new();
    if let Some(header) = table.header() {
        escaped.set_header(safe(header));
    }
    for row in table.row_iter() {
        escaped.add_row(safe(row));
    }
    let mut table = sorted(escaped, options)?;
    table.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    table.set_content_arrangement(ContentArrangement::Disabled);
    if options.no_headers {
        table = without_header(&table);
    }
    Ok(format!("{table}\n"))
}

fn without_header(table: &Table) -> Table {
    let mut out = Table::new();
    out.load_style(comfy_table::presets::UTF8_FULL_CONDENSED);
    for row in table.row_iter() {
        out.add_row(cells(row));
    }
    out
}

/// A table as kubectl prints one: left-aligned columns three spaces apart, no borders, the header
/// unless `--no-headers`, sorted by `--sort-by`. When `width` is given and the table is wider,
/// only the free-text columns are cut (with `…`), down to their header's width.
///
/// # Errors
/// An unknown `--sort-by` column (exit 2).
pub fn render_table(table: &Table, options: &TableOptions, width: Option<usize>) -> Result<String> {
    Ok(fitted_table(table, options, width, &[])?.0)
}

/// [`render_table`], each column at least as wide as `floor` says (where it says), and the widths
/// used.
fn fitted_table(
    table: &Table,
    options: &TableOptions,
    width: Option<usize>,
    floor: &[usize],
) -> Result<(String, Vec<usize>)> {
    let table = sorted(table.clone(), options)?;
    let safe = |row: Vec<String>| row.into_iter().map(|c| visible(&c, false).into_owned()).collect::<Vec<_>>();
    let header = table.header().map(cells).map(safe).unwrap_or_default();
    let mut rows: Vec<Vec<String>> = table.row_iter().map(cells).map(safe).collect();
    let columns = rows.iter().map(Vec::len).chain(std::iter::once(header.len())).max().unwrap_or(0);
    let count = |s: &str| s.chars().count();
    let mut widths: Vec<usize> = (0..columns).map(|i| floor.get(i).copied().unwrap_or(0)).collect();
    for row in rows.iter().chain(std::iter::once(&header)) {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(count(cell));
        }
    }
    if let Some(limit) = width {
        let total = |w: &[usize]| w.iter().sum::<usize>() + GAP.len() * w.len().saturating_sub(1);
        let free: Vec<usize> =
            (0..columns).filter(|i| header.get(*i).is_some_and(|h| FREE_TEXT.contains(&h.as_str()))).collect();
        while total(&widths) > limit {
            let floor = |i: usize| header.get(i).map_or(1, |h| count(h)).max(8);
            let Some(&widest) = free.iter().filter(|i| widths[**i] > floor(**i)).max_by_key(|i| widths[**i]) else {
                break;
            };
            widths[widest] -= (total(&widths) - limit).min(widths[widest] - floor(widest));
        }
        for row in &mut rows {
            for &i in &free {
                if let Some(cell) = row.get_mut(i)
                    && count(cell) > widths[i]
                {
                    *cell = cell.chars().take(widths[i].saturating_sub(1)).chain(std::iter::once('…')).collect();
                }
            }
        }
    }
    let mut out = String::new();
    let lines = std::iter::once(&header).filter(|h| !options.no_headers && !h.is_empty()).chain(rows.iter());
    for row in lines {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str(GAP);
            }
            line.push_str(cell);
            line.extend(std::iter::repeat_n(' ', widths[i].saturating_sub(count(cell))));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok((out, widths))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn health_table(health: &str) -> Table {
        let mut table = Table::new();
        table.set_header(["NAME", "HEALTH", "LAST RUN"]);
        table.add_row(["etl", health, "2s ago"]);
        table
    }

    #[test]
    fn control_characters_in_data_are_shown_not_obeyed() {
        assert_eq!(visible("plain\ttext\n", true), "plain\ttext\n");
        assert_eq!(visible("red \x1b[31mX\r\u{9b}2J", true), "red \\x1B[31mX\\x0D\\x9B2J");
        assert_eq!(visible("a\nb", false), "a\\x0Ab");
        let (text, _) = fitted_table(&health_table("\x1b]0;pwned\x07"), &TableOptions::default(), None, &[]).unwrap();
        assert!(text.contains("\\x1B]0;pwned\\x07") && !text.contains('\x1b'), "{text}");
        let boxes = boxed_table(&health_table("\x1b]0;pwned\x07"), &TableOptions::default()).unwrap();
        assert!(boxes.contains("\\x1B]0;pwned\\x07") && !boxes.contains('\x1b') && boxes.contains('│'), "{boxes}");
    }

    #[test]
    fn a_column_keeps_the_widest_width_it_has_had() {
        let options = TableOptions::default();
        let (ok, widths) = fitted_table(&health_table("OK"), &options, None, &[]).unwrap();
        assert_eq!(ok, "NAME   HEALTH   LAST RUN\netl    OK       2s ago\n");
        let (failing, widths) = fitted_table(&health_table("FAILING 1/3 (item 2)"), &options, None, &widths).unwrap();
        let (again, _) = fitted_table(&health_table("OK"), &options, None, &widths).unwrap();
        let at = |text: &str| text.lines().nth(1).unwrap().find("2s ago").unwrap();
        assert_eq!(at(&again), at(&failing), "{failing}{again}");
        assert!(at(&again) > at(&ok));
    }
}
