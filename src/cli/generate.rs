//! `ejctl completions SHELL` and `ejctl man DIR`: shell completions and man pages generated from
//! the clap definition, so they cannot drift from `--help`. The committed copies in
//! `completions/` and `man/` are checked against this output by a test.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::{CommandFactory, ValueEnum};
use clap_complete::Shell;

use super::app::{Cli, EXIT_STATUS};
pub use super::app::{CompletionsArgs, ManArgs};
use super::output::Output;
use crate::exit::Exit;

/// The file name `completions/` uses for a shell's script.
pub fn completion_file_name(shell: Shell) -> String {
    match shell {
        Shell::Bash => "ejctl.bash".into(),
        Shell::Zsh => "_ejctl".into(),
        Shell::Fish => "ejctl.fish".into(),
        Shell::Elvish => "ejctl.elv".into(),
        Shell::PowerShell => "_ejctl.ps1".into(),
        other => format!("ejctl.{other}"),
    }
}

/// Every shell `completions/` holds a script for.
pub fn shells() -> &'static [Shell] {
    Shell::value_variants()
}

/// The completion script for `shell`.
pub fn completion_script(shell: Shell) -> Vec<u8> {
    let mut cmd = Cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, "ejctl", &mut buf);
    buf
}

/// Runs `ejctl completions`.
///
/// # Errors
/// I/O errors writing stdout.
pub fn completions(args: CompletionsArgs, out: &mut Output) -> Result<Exit> {
    // Rendered into a buffer first: clap_complete panics on a broken pipe.
    let script = completion_script(args.shell);
    out.text(&String::from_utf8_lossy(&script))?;
    Ok(Exit::Ok)
}

/// Every man page as `(file name, roff text)`: `ejctl.1` and one page per subcommand.
///
/// # Errors
/// Rendering errors.
pub fn man_pages() -> Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut pages = Vec::new();
    collect_pages(&cmd, &mut pages)?;
    pages.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(pages)
}

fn collect_pages(cmd: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> Result<()> {
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        collect_pages(sub, pages)?;
    }
    let man = clap_mangen::Man::new(cmd.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut page)?;
    }
    if cmd.has_subcommands() {
        man.render_subcommands_section(&mut page)?;
    }
    if let Some(examples) = cmd.get_after_help() {
        page.extend_from_slice(roff_section("EXAMPLES", &examples.to_string()).as_bytes());
    }
    page.extend_from_slice(roff_section("EXIT STATUS", EXIT_STATUS).as_bytes());
    man.render_version_section(&mut page)?;
    pages.push((man.get_filename(), page));
    Ok(())
}

/// A roff section with preformatted text (the first line, a heading such as `Examples:`, is
/// dropped).
fn roff_section(title: &str, text: &str) -> String {
    let mut s = format!(".SH \"{title}\"\n.nf\n");
    for line in text.lines().skip(1) {
        let escaped = line.replace('\\', "\\e");
        if escaped.starts_with('.') || escaped.starts_with('\'') {
            s.push_str("\\&");
        }
        let _ = writeln!(s, "{escaped}");
    }
    s.push_str(".fi\n");
    s
}

/// Runs `ejctl man DIR`: writes every page and prints their paths.
///
/// # Errors
/// I/O errors creating the directory or writing a page.
pub fn man(args: ManArgs) -> Result<Exit> {
    write_man_pages(&args.dir)?;
    Ok(Exit::Ok)
}

/// Writes every man page into `dir`.
///
/// # Errors
/// I/O errors creating the directory or writing a page.
pub fn write_man_pages(dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut written = Vec::new();
    for (name, page) in man_pages()? {
        let path = dir.join(name);
        std::fs::write(&path, page).with_context(|| format!("cannot write {}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// The guide's command reference (`docs/src/reference/commands.md`, Markdown): every command's
/// `--help`, parents before their subcommands, rendered 100 columns wide so that it does not
/// depend on the terminal it was made in.
pub fn command_reference() -> String {
    let mut cmd = Cli::command().disable_help_subcommand(true).term_width(100).max_term_width(100);
    cmd.build();
    let mut out = String::from(
        "# Command reference\n\n\
         <!-- generated from the command line (src/cli); EJCTL_REGENERATE=1 cargo test --test integration generated rewrites this page -->\n\n\
         Every command of `ejctl` as its `--help` prints it. The same text is in the man pages \
         (`man ejctl-job-trigger`, or `ejctl man DIR`); the [options](../admin.md) and \
         [exit codes](exit-codes.md) are explained in the guide.\n",
    );
    reference_section(&cmd, "ejctl", &mut out);
    out
}

fn reference_section(cmd: &clap::Command, path: &str, out: &mut String) {
    let mut cmd = cmd.clone().bin_name(path);
    let help = cmd.render_long_help().to_string();
    let _ = write!(out, "\n## {path}\n\n```text\n{}\n```\n", help.trim_end());
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        reference_section(sub, &format!("{path} {}", sub.get_name()), out);
    }
}
