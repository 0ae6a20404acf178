//! The editor `ejctl config edit` runs: `$VISUAL`, else `$EDITOR`, split into words like a shell
//! would (no shell runs), on a private copy of the stored YAML (mode 0600, removed afterwards
//! unless the edit must be kept). Without either variable, or with an editor that needs a
//! terminal when there is none, `config edit` refuses before it reads anything ([`check_editor`]).

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use std::io::IsTerminal;

use crate::exit::{CliError, Exit};

/// The private copy `config edit` hands to the editor; removed on drop unless kept.
pub(crate) struct EditFile {
    /// Where the copy is.
    pub(crate) path: PathBuf,
    keep: bool,
}

impl EditFile {
    /// Writes `text` to a new private file named after `job`.
    pub(crate) fn create(job: &str, text: &str) -> Result<EditFile> {
        use std::io::Write;
        let id = uuid::Uuid::new_v4().simple().to_string();
        let safe: String =
            job.chars().map(|c| if c.is_alphanumeric() || "-_.".contains(c) { c } else { '_' }).collect();
        let path = std::env::temp_dir().join(format!("ejctl-{safe}-{}.yaml", &id[..8]));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut f = options.open(&path).with_context(|| format!("cannot create {}", path.display()))?;
        f.write_all(text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
        Ok(EditFile { path, keep: false })
    }

    /// Keeps the file and returns a note for the error message.
    pub(crate) fn keep(&mut self) -> String {
        self.keep = true;
        format!(" (your edit is kept in {})", self.path.display())
    }

    /// Keeps the file and says where in `err`: in its own message when it is a refusal of ours,
    /// as context when a registry or I/O error is behind it.
    pub(crate) fn kept(&mut self, err: anyhow::Error) -> anyhow::Error {
        let note = self.keep();
        // An operation's error carries no exit code yet: it gets its kind's here.
        let err = match err.downcast::<crate::ops::OpsError>() {
            Ok(e) => anyhow::Error::new(CliError::from(e)),
            Err(e) => e,
        };
        match err.downcast::<CliError>() {
            Ok(mut e) if e.registry_error().is_none() => {
                e.message.push_str(&note);
                e.into()
            }
            Ok(e) => anyhow::Error::new(e)
                .context(format!("nothing was written; your edit is kept in {}", self.path.display())),
            Err(e) => e.context(format!("nothing was written; your edit is kept in {}", self.path.display())),
        }
    }
}

impl Drop for EditFile {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Splits an editor command into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character (outside single quotes).
fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated ' quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err("unterminated \" quote".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated \" quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("it is empty".into());
    }
    Ok(words)
}

/// The editor command: `$VISUAL`, else `$EDITOR`.
fn editor_command() -> Option<String> {
    ["VISUAL", "EDITOR"].iter().filter_map(|v| std::env::var(v).ok()).find(|v| !v.trim().is_empty())
}

/// Editors that draw on the terminal they are started from.
const TERMINAL_EDITORS: &[&str] = &[
    "vi",
    "vim",
    "nvim",
    "vim.basic",
    "vim.tiny",
    "view",
    "nano",
    "pico",
    "emacs",
    "mg",
    "micro",
    "joe",
    "ne",
    "hx",
    "kak",
];

/// Checks, before anything is read, that there is an editor to run: `$VISUAL` or `$EDITOR`
/// set, and a terminal when it is a terminal editor. Returns the command.
///
/// # Errors
/// Exit 4 naming what is missing and what to use instead.
pub(crate) fn check_editor(job: &str) -> Result<String, CliError> {
    let instead = format!("or change keys with `ejctl config set {job} KEY=VALUE`");
    let Some(command) = editor_command() else {
        return Err(CliError::refused(format!(
            "no editor: set VISUAL or EDITOR (EDITOR=vi ejctl config edit {job}), {instead}"
        )));
    };
    let program = split_command(&command).ok().and_then(|w| w.into_iter().next()).unwrap_or_default();
    let name = Path::new(&program).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    if TERMINAL_EDITORS.contains(&name.as_str()) && !terminal {
        return Err(CliError::refused(format!(
            "the editor '{command}' needs a terminal and there is none: run `ejctl config edit {job}` on a terminal, use an editor that opens a window (EDITOR='code --wait'), {instead}"
        )));
    }
    Ok(command)
}

/// Runs the editor `command` on `path` (the runtime keeps serving the registry session
/// meanwhile).
pub(crate) async fn run_editor(job: &str, command: &str, path: &Path) -> Result<()> {
    let words =
        split_command(command).map_err(|e| CliError::usage(format!("cannot use the editor '{command}': {e}")))?;
    let status = tokio::process::Command::new(&words[0])
        .args(&words[1..])
        .arg(path)
        .status()
        .await
        .with_context(|| format!("job '{job}': cannot start the editor '{command}'"))?;
    if !status.success() {
        return Err(CliError::new(
            Exit::Failure,
            format!("job '{job}': the editor '{command}' failed ({status}); nothing was written"),
        )
        .into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editor_commands_are_split_into_words() {
        assert_eq!(split_command("vi").unwrap(), ["vi"]);
        assert_eq!(split_command("  code --wait ").unwrap(), ["code", "--wait"]);
        assert_eq!(
            split_command("'/opt/my editor/bin' -n \"a b\" c\\ d").unwrap(),
            ["/opt/my editor/bin", "-n", "a b", "c d"]
        );
        assert_eq!(split_command("x ''").unwrap(), ["x", ""]);
        assert!(split_command("  ").is_err());
        assert!(split_command("'open").is_err());
    }
}
