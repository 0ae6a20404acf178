//! The console's state and what keys do to it: a pure model. [`App::key`] takes a key and the
//! data on screen and returns what the loop must do ([`Effect`]): nothing, quit, or run an
//! [`Action`] (only ever after a confirmation answered with `y`, or with the count typed). It
//! never writes, draws or reads the registry, so tests drive it with key sequences.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::action::{Action, Refusal};
use super::data::Data;
use super::rows::{self, Row, RowId, Tab, View};
use crate::coord::state::Health;

/// How long a flash message stays.
const FLASH_FOR: Duration = Duration::from_secs(5);

/// What the loop must do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave the console.
    Quit,
    /// Carry out a confirmed write.
    Run(Action),
    /// Edit a job's configuration in `$VISUAL` / `$EDITOR` (then confirm the change).
    Edit(String),
}

/// The registry link as the header shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Connecting (or reconnecting after a failed attempt, which `error` says).
    Connecting {
        /// Why the last attempt failed.
        error: Option<String>,
    },
    /// Connected; the first read may still be under way.
    Connected,
    /// The connection is lost since then; the session may still be alive.
    Disconnected {
        /// Since when.
        since: DateTime<Utc>,
    },
    /// The session expired; a new one is being set up.
    Expired {
        /// Since when.
        since: DateTime<Utc>,
    },
}

/// One screen of the navigation stack: a view with its cursor, filter, sort and marks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screen {
    /// The view.
    pub view: View,
    /// The selected row (index in the filtered rows).
    pub selected: usize,
    /// The first row on screen.
    pub offset: usize,
    /// The filter.
    pub filter: String,
    /// The sort column and direction (descending when true); `None`: natural order.
    pub sort: Option<(usize, bool)>,
    /// The marked rows.
    pub marks: BTreeSet<RowId>,
}

impl Screen {
    fn new(view: View) -> Screen {
        Screen { view, selected: 0, offset: 0, filter: String::new(), sort: None, marks: BTreeSet::new() }
    }
}

/// What the bottom line is doing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Keys act on the view.
    Normal,
    /// `:` typing a view name.
    Command(String),
    /// `/` typing a filter.
    Filter,
    /// A write waits for its confirmation; `typed` holds what was typed when a count is needed.
    Confirm {
        /// The write.
        action: Action,
        /// The digits typed so far.
        typed: String,
    },
    /// The help of the view.
    Help,
}

/// The console's state.
pub struct App {
    /// The navigation stack; the last screen is on screen.
    pub stack: Vec<Screen>,
    /// The bottom line's mode.
    pub mode: Mode,
    /// Read-only: action keys only flash why not.
    pub readonly: bool,
    /// Why the console is read-only (`--readonly`, `context 'prod'`).
    pub readonly_reason: String,
    /// The registry link.
    pub link: Link,
    /// The context's name, if one.
    pub context: Option<String>,
    /// The namespace.
    pub namespace: String,
    /// A message and whether it is an error, until when it shows.
    pub flash: Option<(String, bool, Instant)>,
    /// Rows the table shows at once (set from the terminal size).
    pub page: usize,
    /// Nodes read so far by the first read (shown while loading).
    pub loading: usize,
}

impl App {
    /// A console on the jobs view.
    pub fn new(namespace: &str, context: Option<String>, readonly: bool, readonly_reason: &str) -> App {
        App {
            stack: vec![Screen::new(View::Jobs)],
            mode: Mode::Normal,
            readonly,
            readonly_reason: readonly_reason.to_string(),
            link: Link::Connecting { error: None },
            context,
            namespace: namespace.to_string(),
            flash: None,
            page: 20,
            loading: 0,
        }
    }

    /// The screen on top.
    pub fn screen(&self) -> &Screen {
        let n = self.stack.len() - 1;
        &self.stack[n]
    }

    fn screen_mut(&mut self) -> &mut Screen {
        let n = self.stack.len() - 1;
        &mut self.stack[n]
    }

    /// The rows of the screen on top.
    pub fn rows(&self, data: &Data, now: DateTime<Utc>) -> Vec<Row> {
        let s = self.screen();
        rows::rows(&s.view, data, &s.filter, s.sort, now)
    }

    /// Shows a message on the bottom line for a few seconds.
    pub fn flash(&mut self, text: impl Into<String>, error: bool) {
        self.flash = Some((text.into(), error, Instant::now() + FLASH_FOR));
    }

    /// The message to show now, if any.
    pub fn flash_now(&self, now: Instant) -> Option<(&str, bool)> {
        self.flash.as_ref().filter(|(_, _, until)| *until > now).map(|(t, e, _)| (t.as_str(), *e))
    }

    /// Why writes are refused now, if they are.
    pub fn refusal(&self) -> Option<Refusal> {
        if self.readonly {
            Some(Refusal::ReadOnly)
        } else if self.link == Link::Connected {
            None
        } else {
            Some(Refusal::Disconnected)
        }
    }

    /// Pushes a view.
    pub fn open(&mut self, view: View) {
        if self.screen().view != view {
            self.stack.push(Screen::new(view));
        }
    }

    /// Handles a key.
    pub fn key(&mut self, key: KeyEvent, data: &Data) -> Option<Effect> {
        let now = Utc::now();
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return Some(Effect::Quit);
        }
        match std::mem::replace(&mut self.mode, Mode::Normal) {
            Mode::Normal => self.normal(key, ctrl, data, now),
            Mode::Help => None,
            Mode::Command(mut text) => {
                match key.code {
                    KeyCode::Enter => match View::parse(&text) {
                        Some(view) => self.open(view),
                        None if text.trim() == "q" || text.trim() == "quit" => return Some(Effect::Quit),
                        None => self.flash(
                            format!(
                                "unknown view '{}' (:jobs :servers :instances :failover :events :tree :job NAME)",
                                text.trim()
                            ),
                            true,
                        ),
                    },
                    KeyCode::Esc => {}
                    KeyCode::Tab => self.mode = Mode::Command(complete(&text, data)),
                    KeyCode::Backspace => {
                        text.pop();
                        self.mode = Mode::Command(text);
                    }
                    KeyCode::Char(c) => {
                        text.push(c);
                        self.mode = Mode::Command(text);
                    }
                    _ => self.mode = Mode::Command(text),
                }
                None
            }
            Mode::Filter => {
                let screen = self.screen_mut();
                match key.code {
                    KeyCode::Enter => {}
                    KeyCode::Esc => screen.filter.clear(),
                    KeyCode::Backspace => {
                        screen.filter.pop();
                        self.mode = Mode::Filter;
                    }
                    KeyCode::Char(c) => {
                        screen.filter.push(c);
                        self.mode = Mode::Filter;
                    }
                    _ => self.mode = Mode::Filter,
                }
                let screen = self.screen_mut();
                screen.selected = 0;
                screen.offset = 0;
                None
            }
            Mode::Confirm { action, mut typed } => {
                if action.needs_count() {
                    match key.code {
                        KeyCode::Char(c) if c.is_ascii_digit() => {
                            typed.push(c);
                            self.mode = Mode::Confirm { action, typed };
                            return None;
                        }
                        KeyCode::Backspace => {
                            typed.pop();
                            self.mode = Mode::Confirm { action, typed };
                            return None;
                        }
                        KeyCode::Enter if typed == action.targets().len().to_string() => return self.confirmed(action),
                        _ => {}
                    }
                } else if key.code == KeyCode::Char('y') {
                    return self.confirmed(action);
                }
                self.flash(format!("cancelled: {}", action.summary()), false);
                None
            }
        }
    }

    fn confirmed(&mut self, action: Action) -> Option<Effect> {
        if let Some(refusal) = self.refusal() {
            self.flash(refusal.reason(), true);
            return None;
        }
        self.screen_mut().marks.clear();
        self.flash(format!("{}…", action.summary()), false);
        Some(Effect::Run(action))
    }

    fn normal(&mut self, key: KeyEvent, ctrl: bool, data: &Data, now: DateTime<Utc>) -> Option<Effect> {
        let rows = self.rows(data, now);
        let page = self.page.max(1);
        let last = rows.len().saturating_sub(1);
        let selected = self.screen().selected.min(last);
        let go = |app: &mut App, to: usize| app.screen_mut().selected = to.min(last);
        match key.code {
            KeyCode::Char('q') => return Some(Effect::Quit),
            KeyCode::Char('?') => self.mode = Mode::Help,
            KeyCode::Char(':') => self.mode = Mode::Command(String::new()),
            KeyCode::Char('/') => self.mode = Mode::Filter,
            KeyCode::Char('j') | KeyCode::Down => go(self, selected + 1),
            KeyCode::Char('k') | KeyCode::Up => go(self, selected.saturating_sub(1)),
            KeyCode::PageDown => go(self, selected + page),
            KeyCode::Char('f') if ctrl => go(self, selected + page),
            KeyCode::PageUp => go(self, selected.saturating_sub(page)),
            KeyCode::Char('b') if ctrl => go(self, selected.saturating_sub(page)),
            KeyCode::Char('g') | KeyCode::Home => go(self, 0),
            KeyCode::Char('G') | KeyCode::End => go(self, last),
            KeyCode::Esc => {
                if !self.screen().filter.is_empty() {
                    self.screen_mut().filter.clear();
                } else if !self.screen().marks.is_empty() {
                    self.screen_mut().marks.clear();
                } else if self.stack.len() > 1 {
                    self.stack.pop();
                }
            }
            KeyCode::Enter => self.drill(rows.get(selected).map(|r| &r.id), data, now),
            KeyCode::Char(' ') => {
                if let Some(row) = rows.get(selected) {
                    let marks = &mut self.screen_mut().marks;
                    if !marks.remove(&row.id) {
                        marks.insert(row.id.clone());
                    }
                    go(self, selected + 1);
                }
            }
            KeyCode::Char('\\') if ctrl => self.screen_mut().marks.clear(),
            KeyCode::Char('4') if ctrl => self.screen_mut().marks.clear(),
            KeyCode::Char(c @ '1'..='4') => {
                if let View::Job(job, _) = &self.screen().view {
                    let job = job.clone();
                    let tab = Tab::ALL[usize::from(c as u8 - b'1')];
                    let s = self.screen_mut();
                    (s.view, s.selected, s.offset) = (View::Job(job, tab), 0, 0);
                    s.marks.clear();
                }
            }
            KeyCode::Tab => {
                if let View::Job(job, tab) = &self.screen().view {
                    let next = Tab::ALL[(Tab::ALL.iter().position(|t| t == tab).unwrap_or(0) + 1) % Tab::ALL.len()];
                    let job = job.clone();
                    let s = self.screen_mut();
                    (s.view, s.selected, s.offset) = (View::Job(job, next), 0, 0);
                    s.marks.clear();
                }
            }
            KeyCode::Char('<') => self.sort_by(-1),
            KeyCode::Char('>') => self.sort_by(1),
            KeyCode::Char('I') => {
                let s = self.screen_mut();
                s.sort = Some(s.sort.map_or((0, true), |(c, d)| (c, !d)));
            }
            KeyCode::Char('D') => match self.current_job(&rows, selected) {
                Some(job) => {
                    self.open(View::Tree);
                    self.screen_mut().filter = format!("/{job}/");
                }
                None => self.flash("D dumps a job: select one", true),
            },
            KeyCode::Char('d') if ctrl => return self.act('d', true, &rows, selected),
            KeyCode::Char('E') => return self.edit(&rows, selected),
            KeyCode::Char(c @ ('t' | 'd' | 'e' | 's')) => return self.act(c, false, &rows, selected),
            _ => {}
        }
        None
    }

    fn sort_by(&mut self, step: isize) {
        let columns = self.screen().view.columns().len();
        let s = self.screen_mut();
        let current = s.sort.map_or(0, |(c, _)| c as isize);
        let next = (current + step).rem_euclid(columns as isize) as usize;
        s.sort = Some((next, s.sort.is_some_and(|(_, d)| d)));
        s.selected = 0;
    }

    fn drill(&mut self, id: Option<&RowId>, data: &Data, now: DateTime<Utc>) {
        let Some(id) = id else { return };
        match (&self.screen().view, id) {
            (View::Job(job, Tab::Items), RowId::Item(item)) => {
                // An item's health and why: the same words as `sharding show` and `why`.
                let state = data.job(job).and_then(|j| j.data.item_states(now).into_iter().find(|s| s.item == *item));
                if let Some(state) = state {
                    let why = state.reason(now).map(|r| format!(": {r}")).unwrap_or_default();
                    self.flash(
                        format!("item {item}: {}{why}", state.health),
                        matches!(state.health, Health::Failing | Health::Overdue),
                    );
                }
            }
            (View::Job(..), _) | (View::Tree, _) => {}
            (View::Servers, RowId::Server(ip)) => {
                let ip = ip.clone();
                self.open(View::Instances);
                self.screen_mut().filter = ip;
            }
            (_, id) => {
                if let Some(job) = id.job() {
                    self.open(View::Job(job.to_string(), Tab::Items));
                }
            }
        }
    }

    /// The job the view is about (the job view's), or the selected row's.
    fn current_job(&self, rows: &[Row], selected: usize) -> Option<String> {
        match &self.screen().view {
            View::Job(job, _) => Some(job.clone()),
            _ => rows.get(selected).and_then(|r| r.id.job()).map(str::to_string),
        }
    }

    /// `E`: edit the configuration of the job on screen or selected.
    fn edit(&mut self, rows: &[Row], selected: usize) -> Option<Effect> {
        if self.write_refused("E") {
            return None;
        }
        let job = match &self.screen().view {
            View::Jobs | View::Job(..) | View::Instances | View::Failover => self.current_job(rows, selected),
            _ => None,
        };
        match job {
            Some(job) => Some(Effect::Edit(job)),
            None => {
                self.flash("E edits a job's configuration: select a job", true);
                None
            }
        }
    }

    /// Whether the write key `name` is refused (read-only console, or the registry lost); flashes
    /// why when it is.
    fn write_refused(&mut self, name: &str) -> bool {
        if self.readonly {
            self.flash(format!("{name}: read-only console ({}): writes are refused", self.readonly_reason), true);
            return true;
        }
        if let Some(refusal) = self.refusal() {
            self.flash(format!("{name}: {}", refusal.reason()), true);
            return true;
        }
        false
    }

    /// Asks for the confirmation of a write prepared outside the model (an edited configuration).
    pub fn confirm(&mut self, action: Action) {
        self.mode = Mode::Confirm { action, typed: String::new() };
    }

    /// The marked rows, or else the selected one.
    fn targets(&self, rows: &[Row], selected: usize) -> Vec<RowId> {
        let marks = &self.screen().marks;
        if marks.is_empty() {
            rows.get(selected).map(|r| r.id.clone()).into_iter().collect()
        } else {
            rows.iter().filter(|r| marks.contains(&r.id)).map(|r| r.id.clone()).collect()
        }
    }

    /// An action key: builds the action and asks for confirmation.
    fn act(&mut self, key: char, ctrl: bool, rows: &[Row], selected: usize) -> Option<Effect> {
        let name = if ctrl { "ctrl-d".to_string() } else { key.to_string() };
        if self.write_refused(&name) {
            return None;
        }
        let targets = self.targets(rows, selected);
        let jobs: Vec<String> = match &self.screen().view {
            View::Job(job, _) => vec![job.clone()],
            _ => {
                let mut jobs: Vec<String> = targets.iter().filter_map(RowId::job).map(str::to_string).collect();
                jobs.sort();
                jobs.dedup();
                jobs
            }
        };
        let enable = key == 'e';
        let action = match (&self.screen().view, key, ctrl) {
            (View::Job(job, Tab::Items), 'd' | 'e', false) => {
                let items: Vec<u32> =
                    targets.iter().filter_map(|t| if let RowId::Item(i) = t { Some(*i) } else { None }).collect();
                Some(Action::Items { job: job.clone(), items, enable }).filter(|_| !targets.is_empty())
            }
            (View::Job(job, Tab::Servers), 'd' | 'e', false) => {
                let ips = servers(&targets);
                Some(Action::ServerJob { job: job.clone(), ips, enable }).filter(|_| !targets.is_empty())
            }
            (View::Servers, 'd' | 'e', false) => Some(Action::Servers { ips: servers(&targets), enable }),
            (View::Servers, 's', false) => Some(Action::ServerShutdown { ips: servers(&targets), remove: false }),
            (View::Servers, 'd', true) => Some(Action::ServerShutdown { ips: servers(&targets), remove: true }),
            (View::Servers, _, _) => None,
            (View::Jobs | View::Job(..), 't', false) => Some(Action::Trigger(jobs)),
            (View::Jobs | View::Job(..), 'd' | 'e', false) => Some(Action::Jobs { jobs, enable }),
            (View::Jobs | View::Job(..), 's', false) => Some(Action::Shutdown(jobs)),
            (View::Jobs | View::Job(..), 'd', true) => Some(Action::Remove(jobs)),
            _ => None,
        };
        match action.filter(|a| !a.targets().is_empty()) {
            Some(action) => self.mode = Mode::Confirm { action, typed: String::new() },
            None => self.flash(format!("{name}: nothing to act on here"), true),
        }
        None
    }

    /// Records the outcome of an action: flashed, and logged in the events view.
    pub fn finished(&mut self, data: &mut Data, result: Result<String, String>) {
        let (kind, text, error) = match result {
            Ok(text) => ("action", text, false),
            Err(text) => ("error", text, true),
        };
        data.push(super::data::Event { at: Utc::now(), kind, job: None, text: text.clone() });
        self.flash(text, error);
    }

    /// Keeps the selection on a row and inside the page.
    pub fn scroll(&mut self, rows: usize) {
        let page = self.page.max(1);
        let s = self.screen_mut();
        s.selected = s.selected.min(rows.saturating_sub(1));
        if s.selected < s.offset {
            s.offset = s.selected;
        } else if s.selected >= s.offset + page {
            s.offset = s.selected + 1 - page;
        }
        s.offset = s.offset.min(rows.saturating_sub(page));
    }
}

/// `:` completion: the longest common prefix of the view names (or, after `job `, the job names)
/// that start with what was typed.
fn complete(text: &str, data: &Data) -> String {
    let candidates: Vec<String> = match text.strip_prefix("job ") {
        Some(prefix) => {
            data.listed().map(|j| &j.data.name).filter(|n| n.starts_with(prefix)).map(|n| format!("job {n}")).collect()
        }
        None => ["jobs", "job ", "servers", "instances", "failover", "events", "tree"]
            .iter()
            .filter(|v| v.starts_with(text))
            .map(|v| (*v).to_string())
            .collect(),
    };
    let Some(first) = candidates.first() else { return text.to_string() };
    let mut common = first.clone();
    for c in &candidates[1..] {
        let n = common.chars().zip(c.chars()).take_while(|(a, b)| a == b).count();
        common = common.chars().take(n).collect();
    }
    if common.len() > text.len() { common } else { text.to_string() }
}

fn servers(targets: &[RowId]) -> Vec<String> {
    targets.iter().filter_map(|t| if let RowId::Server(ip) = t { Some(ip.clone()) } else { None }).collect()
}
