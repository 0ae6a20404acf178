//! The clap definition of the whole command line: [`Cli`] (global options and a command) and
//! [`Command`], one variant per command group. `--help`, the man pages and the shell completions
//! ([`super::generate`]) all come from here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use clap_complete::Shell;

use super::global::{LeadingArgs, LogArgs, NeverAsks, Reads};
use super::{config, console, context, cron, dump, failover, history, instance, job, run, server, sharding, why};

/// Exit codes, shown in `--help` and in the man page.
pub(crate) const EXIT_STATUS: &str = "\
Exit status:
  0    success, including idempotent no-ops
  1    the operation failed
  2    usage error: bad arguments or a bad job file
  3    the job, instance, server, item or context does not exist
  4    refused: confirmation declined, version conflict, unmet precondition
  5    the registry is unavailable: unreachable, bad connect string, wrong credentials
  130  interrupted";

/// ElasticJob-Lite style distributed job scheduling over ZooKeeper.
///
/// `ejctl run` is the worker runtime; the other commands inspect and operate the registry that
/// workers (ejctl or Java ElasticJob 3.x) coordinate through.
#[derive(Debug, Parser)]
#[command(name = "ejctl", version, propagate_version = true, after_long_help = EXIT_STATUS)]
pub struct Cli {
    /// Registry, output and confirmation options written before the command (hidden).
    #[command(flatten)]
    pub leading: LeadingArgs,
    /// Options of every command: verbosity.
    #[command(flatten)]
    pub log: LogArgs,
    /// The command to run.
    #[command(subcommand)]
    pub command: Command,
}

/// Every command.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the jobs of one or more job files (the worker runtime).
    #[command(
        after_help = "Examples:\n  ejctl run examples/hello.toml\n  ejctl run jobs/*.toml --log-format json\n\nSIGINT/SIGTERM: stop new fires, let running items finish, leave the registry (exit 0);\na second signal kills running items (exit 130)."
    )]
    Run(run::RunArgs),
    /// Inspect and operate jobs: list, show, trigger, disable, enable, shutdown, remove.
    #[command(subcommand)]
    Job(job::JobCmd),
    /// Read and change job configurations.
    #[command(subcommand)]
    Config(config::ConfigCmd),
    /// Servers (IPs): list, disable, enable, shutdown, remove.
    #[command(subcommand)]
    Server(server::ServerCmd),
    /// Live instances.
    #[command(subcommand)]
    Instance(instance::InstanceCmd),
    /// Sharding items: show, disable, enable, and preview what a strategy assigns.
    #[command(subcommand)]
    Sharding(sharding::ShardingCmd),
    /// Failover items.
    #[command(subcommand)]
    Failover(failover::FailoverCmd),
    /// Named registries (connect string, namespace, digest), like kubectl contexts.
    #[command(subcommand)]
    Context(context::ContextCmd),
    /// Check cron expressions.
    #[command(subcommand)]
    Cron(cron::CronCmd),
    /// Print the registry tree (or one job's) with node values.
    #[command(
        after_help = "Examples:\n  ejctl dump\n  ejctl dump myJob --mask-ips\n  ejctl dump myJob -o plain | cut -f1,2          # path and value, tab-separated\n  ejctl dump myJob --elasticjob --mask-ips       # ElasticJob's dump lines\n  ejctl dump myJob --addr 10.0.0.5:9888\n  ejctl dump -o json | jq '.nodes[].path'"
    )]
    Dump(Reads<dump::DumpArgs>),
    /// Runs of a job from the trace store: fire, item, instance, start, duration, result.
    #[command(
        after_help = "Examples:\n  ejctl history myJob\n  ejctl history myJob --item 3 --failed --since 2h\n  ejctl history myJob --item 3 --output-tail\n  ejctl history myJob --trace postgres://ejctl@db/jobs -o json"
    )]
    History(Reads<history::HistoryArgs>),
    /// Why a job (or item) did not run, or will not run next; with evidence and the fix.
    #[command(
        after_help = "Examples:\n  ejctl why myJob\n  ejctl why myJob --item 3\n  ejctl why myJob --fire '2026-11-25 02:00:00' --trace postgres://ejctl@db/jobs\n\nExit status 1 when something stops the next run, 0 otherwise."
    )]
    Why(Reads<why::WhyArgs>),
    /// A live full-screen console of the namespace: views, filters, actions with confirmations.
    #[command(
        after_help = "Examples:\n  ejctl console\n  ejctl console --context prod --readonly\n  ejctl console --snapshot 120x40 > jobs.txt\n\nKeys: `:` view (jobs, servers, instances, failover, events, tree), `/` filter, Enter opens,\nEsc goes back, j/k/PgUp/PgDn move, space marks, t trigger, d disable, e enable, s shutdown,\nctrl-d remove, E edit the configuration in $EDITOR, D dump, ? help, q quits. Every write asks for confirmation first and shows the\nequivalent ejctl command; --readonly (or a context with `readonly = true`) refuses every write."
    )]
    Console(console::ConsoleCmd),
    /// Print a shell completion script.
    #[command(after_help = "Example:\n  ejctl completions bash > /etc/bash_completion.d/ejctl")]
    Completions(CompletionsArgs),
    /// Write the man pages into a directory.
    #[command(after_help = "Example:\n  ejctl man /usr/local/share/man/man1")]
    Man(ManArgs),
}

/// Arguments of `ejctl completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: Shell,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
}

/// Arguments of `ejctl man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The directory to write `ejctl.1`, `ejctl-dump.1`, ... into (created if missing).
    pub dir: PathBuf,
    /// `--yes`, which changes nothing here.
    #[command(flatten)]
    pub yes: NeverAsks,
}

/// The command line: [`Cli`]'s definition (`--help`, the man pages and completions come from it).
pub fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command()
}

/// The command line with the options written between a command group and its subcommand
/// (`ejctl job -o json list`, `ejctl server --yes disable 10.0.0.5`) moved after the
/// subcommand, where clap looks for them: each subcommand takes only the options that mean
/// something to it, so a script may put them anywhere after the group. An option the group
/// itself takes (`--help`) stays where it is; one the subcommand does not take is then refused
/// by it, by name.
pub fn hoist_group_options(args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let root = command();
    // The group: the first word that names a subcommand with subcommands of its own.
    let takes_value = |arg: &clap::Arg| arg.get_action().takes_values();
    // Past the root's options (`ejctl --zk HOST job ...`) and their values.
    let mut at = 1;
    while let Some(word) = args.get(at).map(|a| a.to_string_lossy().into_owned()) {
        if !word.starts_with('-') {
            break;
        }
        let name = word.split_once('=').map_or(word.as_str(), |(n, _)| n);
        let spec = root.get_arguments().find(|a| matches_flag(a, name));
        at += if !word.contains('=') && spec.is_some_and(takes_value) { 2 } else { 1 };
    }
    if at >= args.len() {
        return args;
    }
    let Some(group) = root.find_subcommand(&args[at]).filter(|g| g.has_subcommands()) else { return args };
    let mut moved: Vec<std::ffi::OsString> = Vec::new();
    let mut i = at + 1;
    while let Some(word) = args.get(i).map(|a| a.to_string_lossy().into_owned()) {
        if !word.starts_with('-') || word == "--" {
            break;
        }
        let name = word.split_once('=').map_or(word.as_str(), |(n, _)| n);
        let own = group.get_arguments().any(|a| matches_flag(a, name));
        if own {
            return args;
        }
        // Which subcommand comes next decides the option's arity; any subcommand's will do for
        // the options every command shares.
        let spec = group.get_subcommands().flat_map(|c| c.get_arguments()).find(|a| matches_flag(a, name));
        let width = if !word.contains('=') && spec.is_some_and(takes_value) { 2 } else { 1 };
        moved.extend(args.iter().skip(i).take(width).cloned());
        i += width;
    }
    if moved.is_empty() || i >= args.len() {
        return args;
    }
    let mut out: Vec<std::ffi::OsString> = args[..=at].to_vec();
    out.push(args[i].clone());
    out.extend(moved);
    out.extend(args[i + 1..].iter().cloned());
    out
}

/// `name` (`--output`, `-o`, `-oX` counted by its first two characters) names `arg`.
fn matches_flag(arg: &clap::Arg, name: &str) -> bool {
    if let Some(long) = name.strip_prefix("--") {
        arg.get_long() == Some(long) || arg.get_all_aliases().is_some_and(|a| a.contains(&long))
    } else if let Some(short) = name.strip_prefix('-').and_then(|s| s.chars().next()) {
        arg.get_short() == Some(short)
    } else {
        false
    }
}

/// Subcommands a typo must never be steered to: clap's "a similar subcommand exists" leaves
/// these out.
const DESTRUCTIVE: &[&str] = &["shutdown", "remove", "delete", "purge"];

/// A clap usage error as `ejctl` prints every error: `ejctl: error: ...` on the first line,
/// then clap's tips and usage; never a tip towards a destructive subcommand.
pub fn usage_error_text(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let mut lines = text.lines().map(safe_tip);
    let first = lines.next().flatten().unwrap_or_default();
    let mut out = format!("ejctl: error: {}\n", first.strip_prefix("error: ").unwrap_or(&first));
    let mut blank = false;
    for line in lines.flatten() {
        if line.trim().is_empty() {
            if !blank {
                out.push('\n');
            }
            blank = true;
            continue;
        }
        blank = false;
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A line of clap's error with the destructive subcommands taken out of a "similar subcommand"
/// tip (`None` when none is left).
fn safe_tip(line: &str) -> Option<String> {
    let Some((head, _)) = line.split_once("similar subcommand") else { return Some(line.to_string()) };
    let names: Vec<&str> = line.split('\'').skip(1).step_by(2).filter(|n| !DESTRUCTIVE.contains(n)).collect();
    let indent = &head[..head.len() - head.trim_start().len()];
    match names.as_slice() {
        [] => None,
        [one] => Some(format!("{indent}tip: a similar subcommand exists: '{one}'")),
        many => Some(format!("{indent}tip: some similar subcommands exist: '{}'", many.join("', '"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    /// A list takes an optional JOB (`instance list [JOB]`, `failover list [JOB]`), everything
    /// else that names a job requires it.
    #[test]
    fn the_job_argument_is_optional_on_lists_and_required_elsewhere() {
        fn walk(cmd: &clap::Command, path: &str) {
            for sub in cmd.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                walk(sub, &name);
                if let Some(job) = sub.get_positionals().find(|a| a.get_id() == "job") {
                    let optional = sub.get_name() == "list" || name == "ejctl dump";
                    assert_eq!(job.is_required_set(), !optional, "{name}: JOB");
                }
            }
        }
        walk(&command(), "ejctl");
    }

    /// Every leaf command's long help, by path (`ejctl job list`).
    fn leaf_helps() -> Vec<(String, String)> {
        fn walk(cmd: &mut clap::Command, path: &str, out: &mut Vec<(String, String)>) {
            let names: Vec<String> = cmd.get_subcommands().map(|s| s.get_name().to_string()).collect();
            for name in names {
                let Some(sub) = cmd.find_subcommand_mut(&name) else { continue };
                let path = format!("{path} {name}");
                if sub.has_subcommands() {
                    walk(sub, &path, out);
                } else {
                    out.push((path, sub.render_long_help().to_string()));
                }
            }
        }
        let mut cmd = command();
        cmd.build();
        let mut out = Vec::new();
        walk(&mut cmd, "ejctl", &mut out);
        out
    }

    /// Issue 11, point 10: shared options under their own headings, after the command's own; no
    /// empty defaults; the consequences of shutdown and remove spelled out.
    #[test]
    fn r11_help_that_helps() {
        let helps = leaf_helps();
        for (path, help) in &helps {
            assert!(!help.contains("[default: ]"), "{path}: an empty default is shown");
            let own = help.find("Options:").unwrap_or(0);
            for (heading, flag) in
                [("Registry options:", "--zk <"), ("Output options:", "--output <"), ("Global options:", "--verbose")]
            {
                if let Some(at) = help.find(&format!("      {flag}")).or_else(|| help.find(&format!("  -v, {flag}"))) {
                    let under = help.find(heading).unwrap_or_else(|| panic!("{path}: no '{heading}' heading"));
                    assert!(own < under && under < at, "{path}: {flag} is not under '{heading}'");
                }
            }
        }
        let help = |p: &str| helps.iter().find(|(path, _)| path == p).map(|(_, h)| h.clone()).unwrap();
        assert!(help("ejctl job shutdown").contains("running items are\nkilled"), "{}", help("ejctl job shutdown"));
        let remove = help("ejctl job remove");
        assert!(
            remove.contains("CRASHED") && remove.contains("comes back when a worker whose job file has it restarts"),
            "{remove}"
        );
        let list = help("ejctl job list");
        let own = &list[list.find("Options:").unwrap()..list.find("Registry options:").unwrap()];
        assert!(!own.contains("--zk") && !own.contains("--output"), "job list's own options: {own}");
    }

    #[test]
    fn every_command_has_an_example() {
        fn walk(cmd: &clap::Command, path: &str) {
            for sub in cmd.get_subcommands() {
                let name = format!("{path} {}", sub.get_name());
                if sub.has_subcommands() {
                    walk(sub, &name);
                    continue;
                }
                let help = sub.get_after_help().map(|h| h.to_string()).unwrap_or_default();
                assert!(help.contains("Example"), "`{name}` has no example in its help");
                assert!(sub.get_about().is_some(), "`{name}` has no summary");
            }
        }
        walk(&Cli::command(), "ejctl");
    }
}
