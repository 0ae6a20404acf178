//! Drawing one frame from the state and the data: a header (context, namespace, link, `[RO]`,
//! counts by status, age of the last change), a banner while the registry is lost, the view's
//! table (only the rows on screen are built), the keys of the view, and the prompt or flash line;
//! the confirmation and the help over it. Without colour (`NO_COLOR`) the same frame is drawn
//! with bold, dim and reverse only.

use std::time::Instant;

use chrono::{DateTime, Local, Utc};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Row as TableRow, Table, Wrap};

use super::action::Action;
use super::data::Data;
use super::model::{App, Link, Mode};
use super::rows::{Tab, View};
use crate::coord::status::JobStatus;

/// Colours, or none (`NO_COLOR`).
#[derive(Debug, Clone, Copy)]
pub struct Theme {
    /// Whether to use colour.
    pub color: bool,
}

impl Theme {
    /// Colour unless `NO_COLOR` is set to anything non-empty.
    pub fn from_env() -> Theme {
        Theme { color: std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) }
    }

    fn fg(self, color: Color) -> Style {
        if self.color { Style::new().fg(color) } else { Style::new() }
    }

    fn status(self, status: &str) -> Style {
        match status {
            "OK" | "ENABLED" => self.fg(Color::Green),
            "CRASHED" | "FAILING" | "FAILED" | "OVERDUE" => self.fg(Color::Red).add_modifier(Modifier::BOLD),
            "SLOW" => self.fg(Color::Yellow),
            "DISABLED" => self.fg(Color::Yellow),
            "SHARDING_FLAG" => self.fg(Color::Magenta),
            _ => Style::new(),
        }
    }
}

/// The keys of a view, as the footer and the help list them: `(key, what)`.
pub fn keys(view: &View, readonly: bool) -> Vec<(&'static str, &'static str)> {
    let actions: &[(&str, &str)] = match view {
        View::Jobs | View::Job(_, Tab::Config | Tab::Instances) => &[
            ("t", "trigger"),
            ("d", "disable"),
            ("e", "enable"),
            ("s", "shutdown"),
            ("^d", "remove"),
            ("E", "edit config"),
            ("D", "dump"),
        ],
        View::Job(_, Tab::Items) => &[
            ("t", "trigger"),
            ("d", "disable item"),
            ("e", "enable item"),
            ("s", "shutdown"),
            ("^d", "remove"),
            ("E", "edit config"),
            ("D", "dump"),
        ],
        View::Job(_, Tab::Servers) => &[
            ("t", "trigger"),
            ("d", "disable on server"),
            ("e", "enable on server"),
            ("s", "shutdown"),
            ("^d", "remove"),
            ("E", "edit config"),
            ("D", "dump"),
        ],
        View::Servers => &[("d", "disable"), ("e", "enable"), ("s", "shutdown"), ("^d", "remove")],
        View::Instances | View::Failover => &[("E", "edit config"), ("D", "dump")],
        View::Events | View::Tree => &[],
    };
    let mut keys: Vec<(&str, &str)> = actions.iter().copied().filter(|(k, _)| !readonly || *k == "D").collect();
    keys.extend([("?", "help"), ("q", "quit"), (":", "view"), ("/", "filter"), ("enter", "open"), ("esc", "back")]);
    keys.push(("space", "mark"));
    if matches!(view, View::Job(..)) {
        keys.push(("1-4 tab", "items config servers instances"));
    }
    keys.extend([("<,>", "sort column"), ("I", "invert sort")]);
    keys
}

fn since(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let secs = (now - t).num_seconds().max(0);
    if secs < 120 { format!("{secs}s") } else { format!("{}m", secs / 60) }
}

/// Draws one frame.
pub fn draw(frame: &mut Frame, app: &mut App, data: &Data, theme: Theme, now: DateTime<Utc>) {
    let area = frame.area();
    let banner = !matches!(app.link, Link::Connected) && !(matches!(app.link, Link::Connecting { error: None }));
    let [header, banner_area, body, footer, bottom] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(u16::from(banner)),
        Constraint::Min(3),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(area);
    draw_header(frame, header, app, data, theme, now);
    if banner {
        draw_banner(frame, banner_area, app, data, theme, now);
    }
    app.page = usize::from(body.height.saturating_sub(3));
    draw_body(frame, body, app, data, theme, now);
    let hints: Vec<String> =
        keys(&app.screen().view, app.readonly).iter().map(|(k, what)| format!("{k} {what}")).collect();
    frame.render_widget(Paragraph::new(hints.join("  ")).style(theme.fg(Color::Cyan)), footer);
    let line = match &app.mode {
        Mode::Command(text) => Line::from(format!(":{text}█")),
        Mode::Filter => Line::from(format!("/{}█", app.screen().filter)),
        _ => match app.flash_now(Instant::now()) {
            Some((text, true)) => Line::styled(text.to_string(), theme.fg(Color::Red).add_modifier(Modifier::BOLD)),
            Some((text, false)) => Line::from(text.to_string()),
            None => Line::from(""),
        },
    };
    frame.render_widget(Paragraph::new(line), bottom);
    match &app.mode {
        Mode::Confirm { action, typed } => {
            let mut lines: Vec<Line> = vec![Line::styled(action.summary(), Style::new().add_modifier(Modifier::BOLD))];
            let targets = action.targets();
            let shown = targets.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
            let more = if targets.len() > 5 { format!(" and {} more", targets.len() - 5) } else { String::new() };
            let label = if matches!(action, Action::Config { .. }) { "changes" } else { "targets" };
            lines.push(Line::from(format!("{label}: {shown}{more}")));
            let commands = action.commands();
            lines.push(Line::from("same as:"));
            for c in commands.iter().take(3) {
                lines.push(Line::styled(format!("  {c}"), theme.fg(Color::Cyan)));
            }
            if commands.len() > 3 {
                lines.push(Line::from(format!("  … and {} more commands", commands.len() - 3)));
            }
            lines.push(Line::from(""));
            if action.needs_count() {
                lines.push(Line::from(format!("type {} and Enter to confirm: {typed}█", targets.len())));
            } else {
                lines.push(Line::from("y: confirm · any other key: cancel"));
            }
            popup(frame, area, " confirm ", lines, theme);
        }
        Mode::Help => {
            let lines = keys(&app.screen().view, app.readonly)
                .into_iter()
                .map(|(k, what)| Line::from(format!("{k:>10}  {what}")))
                .chain([
                    Line::from(""),
                    Line::from("views  :jobs :job NAME :servers :instances :failover :events :tree (Tab completes)"),
                    Line::from("moves  j/k ↑/↓ PgUp/PgDn g/G   marks  space, ctrl-\\ clears"),
                    Line::from("any key closes this help"),
                ])
                .collect();
            popup(frame, area, &format!(" help: {} ", app.screen().view.name()), lines, theme);
        }
        _ => {}
    }
}

fn draw_header(frame: &mut Frame, area: Rect, app: &App, data: &Data, theme: Theme, now: DateTime<Utc>) {
    let link = match &app.link {
        Link::Connecting { .. } => ("connecting", theme.fg(Color::Yellow)),
        Link::Connected => ("connected", theme.fg(Color::Green)),
        Link::Disconnected { .. } => ("DISCONNECTED", theme.fg(Color::Red).add_modifier(Modifier::BOLD)),
        Link::Expired { .. } => ("SESSION EXPIRED", theme.fg(Color::Red).add_modifier(Modifier::BOLD)),
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let mut first = vec![
        Span::styled("ejctl console", bold),
        Span::raw(format!("  context {}", app.context.as_deref().unwrap_or("-"))),
        Span::raw(format!("  namespace {}  ", app.namespace)),
        Span::styled(link.0, link.1),
    ];
    if app.readonly {
        first.push(Span::styled("  [RO]", theme.fg(Color::Yellow).add_modifier(Modifier::BOLD)));
    }
    let mut second = Vec::new();
    if data.loaded {
        let counts = data.counts();
        second.push(Span::raw(format!("jobs {}:", data.listed().count())));
        for status in [JobStatus::Ok, JobStatus::Crashed, JobStatus::Disabled, JobStatus::ShardingFlag] {
            let n = counts.get(&status).copied().unwrap_or(0);
            let style = if n > 0 { theme.status(status.as_str()) } else { Style::new() };
            second.push(Span::raw(" "));
            second.push(Span::styled(format!("{} {n}", status.as_str()), style));
        }
        second.push(Span::raw(format!("  inst {}", data.instance_count())));
        if let Some(t) = data.last_change {
            second.push(Span::raw(format!("  changed {} ago", since(t, now))));
        }
    } else if matches!(app.link, Link::Connecting { .. }) {
        second.push(Span::raw("waiting for the registry"));
    } else {
        second.push(Span::raw(format!("loading the namespace… {} nodes read", app.loading)));
    }
    frame.render_widget(Paragraph::new(vec![Line::from(first), Line::from(second)]), area);
}

fn draw_banner(frame: &mut Frame, area: Rect, app: &App, data: &Data, theme: Theme, now: DateTime<Utc>) {
    let as_of = data
        .last_change
        .map(|t| format!(", data as of {}", t.with_timezone(&Local).format("%H:%M:%S")))
        .unwrap_or_default();
    let text = match &app.link {
        Link::Disconnected { since: t } => {
            format!(" DISCONNECTED {}{as_of}: reconnecting; writes are refused ", since(*t, now))
        }
        Link::Expired { since: t } => {
            format!(" SESSION EXPIRED {}{as_of}: reloading; writes are refused ", since(*t, now))
        }
        Link::Connecting { error: Some(e) } => format!(" cannot reach the registry: {e}; retrying "),
        _ => String::new(),
    };
    let style = if theme.color {
        Style::new().fg(Color::White).bg(Color::Red).add_modifier(Modifier::BOLD)
    } else {
        Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
    };
    frame.render_widget(Paragraph::new(text).style(style), area);
}

fn draw_body(frame: &mut Frame, area: Rect, app: &mut App, data: &Data, theme: Theme, now: DateTime<Utc>) {
    let rows = app.rows(data, now);
    app.scroll(rows.len());
    let screen = app.screen();
    let crumbs: Vec<String> = app.stack.iter().map(|s| s.view.name()).collect();
    let mut title = format!(" {} [{}]", crumbs.join(" › "), rows.len());
    if !screen.filter.is_empty() {
        title.push_str(&format!(" /{}", screen.filter));
    }
    if let Some((col, desc)) = screen.sort {
        let name = screen.view.columns().get(col).copied().unwrap_or("");
        title.push_str(&format!(" sort:{name}{}", if desc { "↓" } else { "↑" }));
    }
    if !screen.marks.is_empty() {
        title.push_str(&format!(" marked:{}", screen.marks.len()));
    }
    title.push(' ');
    let block = Block::new().borders(Borders::TOP | Borders::BOTTOM).title(title);
    let dim = if matches!(app.link, Link::Connected) { Style::new() } else { Style::new().add_modifier(Modifier::DIM) };
    if !data.loaded {
        let text = match &app.link {
            Link::Connecting { error: Some(e) } => format!("cannot reach the registry: {e}\nretrying…"),
            Link::Connecting { error: None } => "connecting to the registry…".to_string(),
            _ => format!("loading the namespace… {} nodes read", app.loading),
        };
        frame.render_widget(Paragraph::new(text).block(block).wrap(Wrap { trim: false }), area);
        return;
    }
    if rows.is_empty() {
        let text = match (&screen.view, screen.filter.is_empty()) {
            (_, false) => format!("no rows match /{} (esc clears the filter)", screen.filter),
            (View::Jobs, true) => format!("no jobs in namespace '{}'", app.namespace),
            (View::Job(job, _), true) if data.job(job).is_none() => format!("job '{job}' is gone"),
            (view, true) => format!("nothing in {}", view.name()),
        };
        frame.render_widget(Paragraph::new(text).block(block).style(dim), area);
        return;
    }
    let visible = &rows[screen.offset.min(rows.len())..(screen.offset + app.page).min(rows.len())];
    let cells: Vec<Vec<String>> = visible.iter().map(|r| r.cells(&screen.view, data, now)).collect();
    let columns = screen.view.columns();
    let mut widths: Vec<usize> = columns.iter().map(|c| c.chars().count()).collect();
    for row in &cells {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count()).min(60);
        }
    }
    // Columns that do not fit are left out, the last first.
    let room = usize::from(area.width).saturating_sub(1);
    while widths.len() > 1 && widths.iter().map(|w| w + 2).sum::<usize>() > room {
        widths.pop();
    }
    let n = widths.len();
    let mut constraints = vec![Constraint::Length(1)];
    constraints.extend(widths.iter().enumerate().map(|(i, w)| {
        let w = u16::try_from(*w).unwrap_or(60);
        if i + 1 == n { Constraint::Min(w) } else { Constraint::Length(w) }
    }));
    let status_col = columns.iter().position(|c| *c == "STATUS");
    let table_rows = visible.iter().zip(cells).enumerate().map(|(i, (row, cells))| {
        let marked = screen.marks.contains(&row.id);
        let selected = screen.offset + i == screen.selected;
        let cursor = match (selected, marked) {
            (true, _) => ">",
            (false, true) => "*",
            (false, false) => " ",
        };
        let mut styled: Vec<Span> = vec![Span::raw(cursor)];
        styled.extend(cells.into_iter().take(n).enumerate().map(|(c, text)| {
            let style = if Some(c) == status_col || columns.get(c) == Some(&"HEALTH") {
                theme.status(text.split_whitespace().next().unwrap_or_default())
            } else {
                Style::new()
            };
            Span::styled(text, style)
        }));
        let mut style = dim;
        if marked {
            style = style.add_modifier(Modifier::BOLD);
        }
        if selected {
            style = style.add_modifier(Modifier::REVERSED);
        }
        TableRow::new(styled).style(style)
    });
    let header = TableRow::new(std::iter::once(" ").chain(columns.iter().take(n).copied()))
        .style(Style::new().add_modifier(Modifier::BOLD));
    let table = Table::new(table_rows, constraints).header(header).block(block).column_spacing(2);
    frame.render_widget(table, area);
}

fn popup(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line>, theme: Theme) {
    let width = area.width.saturating_sub(4).min(76);
    let height = u16::try_from(lines.len() + 2).unwrap_or(u16::MAX).min(area.height.saturating_sub(2));
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height.saturating_sub(height)) / 2,
        width,
        height,
    };
    frame.render_widget(Clear, rect);
    let block = Block::bordered().title(title.to_string()).border_style(theme.fg(Color::Yellow));
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: false }), rect);
}

/// A buffer as plain text: one line per row, trailing spaces trimmed.
pub fn buffer_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        let mut line = String::new();
        for x in area.left()..area.right() {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}
