//! Typed access to a TOML table of a job file, naming the file, job and key in every error.

use std::collections::BTreeMap;
use std::path::Path;

use toml::{Table, Value};

use super::JobFileError;
use crate::config::schema::camel_to_snake;

/// "a string", "an integer", ... for messages.
pub(super) fn describe(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) => "an integer",
        Value::Float(_) => "a float",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date-time",
        Value::Array(_) => "an array",
        Value::Table(_) => "a table",
    }
}

/// Typed access to a table's values, naming the file, job and key in every error.
pub(super) struct Fields<'a> {
    pub(super) table: &'a Table,
    pub(super) file: &'a Path,
    pub(super) job: Option<&'a str>,
    /// Prepended to keys in messages: `registry.`.
    pub(super) prefix: &'static str,
}

impl Fields<'_> {
    pub(super) fn err(&self, key: &str, message: impl Into<String>) -> JobFileError {
        JobFileError::new(self.file, self.job, Some(&format!("{}{key}", self.prefix)), message)
    }

    pub(super) fn err_no_key(&self, message: impl Into<String>) -> JobFileError {
        JobFileError::new(self.file, self.job, None, message)
    }

    pub(super) fn type_err(&self, key: &str, expected: &str, got: &Value) -> JobFileError {
        self.err(key, format!("expected {expected}, found {}", describe(got)))
    }

    /// Rejects keys outside `known` and `also`, suggesting the closest known key.
    pub(super) fn check_keys(&self, known: &[&str], also: &[&str]) -> Result<(), JobFileError> {
        let all = || known.iter().chain(also).copied();
        let Some(unknown) = self.table.keys().find(|k| !all().any(|known| known == k.as_str())) else {
            return Ok(());
        };
        let snake = camel_to_snake(unknown);
        let suggestion = all().find(|k| *k == snake).or_else(|| {
            all()
                .map(|k| (edit_distance(unknown, k), k))
                .filter(|(d, k)| *d <= 2 && *d * 3 <= k.len().max(unknown.len()))
                .min_by_key(|(d, _)| *d)
                .map(|(_, k)| k)
        });
        let mut message = format!("unknown key '{}{unknown}'", self.prefix);
        if let Some(s) = suggestion {
            message.push_str(&format!(" (did you mean '{}{s}'?)", self.prefix));
        }
        Err(self.err_no_key(message))
    }

    pub(super) fn table(&self, key: &str) -> Result<Option<&Table>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Table(t)) => Ok(Some(t)),
            Some(v) => Err(self.type_err(key, "a table", v)),
        }
    }

    pub(super) fn string(&self, key: &str) -> Result<Option<String>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.type_err(key, "a string", v)),
        }
    }

    pub(super) fn boolean(&self, key: &str) -> Result<Option<bool>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Boolean(b)) => Ok(Some(*b)),
            Some(v) => Err(self.type_err(key, "a boolean", v)),
        }
    }

    pub(super) fn integer(&self, key: &str) -> Result<Option<i64>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(*i)),
            Some(v) => Err(self.type_err(key, "an integer", v)),
        }
    }

    /// A Java `int`; the range beyond that is checked by validation.
    pub(super) fn int32(&self, key: &str) -> Result<Option<i32>, JobFileError> {
        self.integer(key)?
            .map(|v| i32::try_from(v).map_err(|_| self.err(key, format!("{v} is out of range (a 32-bit integer)"))))
            .transpose()
    }

    pub(super) fn int_at_least(&self, key: &str, min: i64) -> Result<Option<i64>, JobFileError> {
        match self.integer(key)? {
            Some(v) if v < min => Err(self.err(key, format!("must be at least {min}, got {v}"))),
            other => Ok(other),
        }
    }

    pub(super) fn string_list(&self, key: &str) -> Result<Option<Vec<String>>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(self.type_err(key, "an array of strings", other)),
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Some),
            Some(v) => Err(self.type_err(key, "an array of strings", v)),
        }
    }

    pub(super) fn string_map(&self, key: &str) -> Result<Option<BTreeMap<String, String>>, JobFileError> {
        match self.table.get(key) {
            None => Ok(None),
            Some(Value::Table(t)) => t
                .iter()
                .map(|(k, v)| match v {
                    Value::String(s) => Ok((k.clone(), s.clone())),
                    other => Err(self.err(key, format!("'{k}' must be a string, found {}", describe(other)))),
                })
                .collect::<Result<BTreeMap<_, _>, _>>()
                .map(Some),
            Some(v) => Err(self.type_err(key, "a table of strings", v)),
        }
    }
}

/// Levenshtein distance, for "did you mean" suggestions (also used by `ejctl config set`).
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1).min(row[j] + 1).min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
