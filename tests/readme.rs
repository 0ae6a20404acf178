//! The command examples of the README and of the guide (`docs/src`), run so that they cannot rot:
//! every `ejctl ...` line of their shell blocks must parse (checked with `--help` appended, which
//! stops before anything runs), and the admin commands block (the one that starts with
//! `export EJCTL_ZK=`, in the README) runs for real, in order, against a ZooKeeper server with the
//! README's example job (`examples/hello.toml`) on a worker. The guide's command reference
//! (`docs/src/reference/commands.md`) is generated from the command line and left out.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use ejctl::registry::Registry;
use ejctl::registry::path::JobPaths;

use crate::support::{eventually, zk_options};

/// The lines of a Markdown text's `sh` and `console` blocks, by block.
fn blocks(readme: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<String>> = None;
    for line in readme.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(lang)) if lang == "sh" || lang == "console" => current = Some(Vec::new()),
            (Some(_), Some(_)) => out.extend(current.take()),
            (Some(lines), None) => lines.push(line.to_string()),
            _ => {}
        }
    }
    out
}

/// The `ejctl` commands of a block's lines: `$ ` prompts and `VAR=value` prefixes dropped,
/// comments cut, `a / b / c` alternatives expanded (`[JOB]` placeholders dropped).
fn commands(lines: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for line in lines {
        let mut line = line.trim().trim_start_matches("$ ").to_string();
        while line.split_whitespace().next().is_some_and(|w| w.contains('=') && !w.starts_with('-')) {
            line = line.split_once(' ').map(|(_, rest)| rest.trim_start().to_string()).unwrap_or_default();
        }
        if !line.starts_with("ejctl ") {
            continue;
        }
        if let Some(i) = line.find("  #").or_else(|| line.find(" # ")) {
            line.truncate(i);
        }
        for (n, part) in line.split(" / ").enumerate() {
            let part = part.replace("[JOB]", "");
            let part = part.trim();
            out.push(if n == 0 { part.to_string() } else { format!("ejctl {part}") });
        }
    }
    out
}

/// A shell running `ejctl` from this build.
fn sh(script: &str) -> std::process::Command {
    let bin = Path::new(env!("CARGO_BIN_EXE_ejctl")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = std::process::Command::new("sh");
    cmd.arg("-c").arg(script).env("PATH", path);
    for var in
        ["RUST_LOG", "EJCTL_ZK", "EJCTL_NAMESPACE", "EJCTL_CONTEXT", "EJCTL_OUTPUT", "EJCTL_TRACE", "EJCTL_DIGEST"]
    {
        cmd.env_remove(var);
    }
    cmd
}

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The guide's pages (`docs/src/**/*.md`), sorted, as (path relative to the repository, text);
/// the generated command reference is left out.
fn guide() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut stack = vec![root.join("docs/src")];
    let mut pages: Vec<PathBuf> = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") && !path.ends_with("reference/commands.md") {
                pages.push(path);
            }
        }
    }
    pages.sort();
    pages
        .into_iter()
        .map(|p| (p.strip_prefix(root).unwrap().display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

/// The README and every guide page, as (name, text).
fn documents() -> Vec<(String, String)> {
    let mut all = vec![("README.md".to_string(), readme())];
    all.extend(guide());
    all
}

#[test]
fn every_readme_command_parses() {
    let all: Vec<(String, String)> = documents()
        .into_iter()
        .flat_map(|(name, text)| {
            blocks(&text).iter().flat_map(|b| commands(b)).map(|c| (name.clone(), c)).collect::<Vec<_>>()
        })
        .collect();
    let in_readme = all.iter().filter(|(name, _)| name == "README.md").count();
    // The README's tour has the admin block; the guide has every command group's examples.
    assert!(in_readme > 25, "{in_readme} commands in the README: {all:?}");
    assert!(all.len() - in_readme > 50, "{} commands in the guide: {all:?}", all.len() - in_readme);
    let home = tempfile::tempdir().unwrap();
    for (name, command) in &all {
        // Up to a pipe or a redirection: what ejctl itself receives.
        let own = command.split(" | ").next().unwrap().split(" > ").next().unwrap();
        let out = sh(&format!("{own} --help"))
            .env("EJCTL_CONFIG", home.path().join("contexts.toml"))
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && stdout.contains("Usage: ejctl"),
            "{name}: `{command}` does not parse: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Exit codes other than 0 that a command of the admin block may end with here, and why.
fn allowed(command: &str) -> &'static [i32] {
    if command.starts_with("ejctl config diff") || command.starts_with("ejctl why") {
        &[0, 1] // drift is exit 1; so is something that stops the next run
    } else if command.starts_with("ejctl server show") || command.starts_with("ejctl instance show") {
        &[3] // after `job remove hello` no job knows the server; the README's pid is an example
    } else {
        &[0]
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_readme_admin_commands_run() {
    let (server, ns, _r) = crate::support::zk_registry("readme").await;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The README's example job on a worker whose host file names its IP, the registry from the
    // environment.
    std::fs::write(d.join("host.toml"), "[instance]\nip = \"10.0.0.5\"\nshutdown_timeout_seconds = 5\n").unwrap();
    std::fs::create_dir(d.join("jobs")).unwrap();
    std::fs::copy(root.join("examples/hello.toml"), d.join("jobs/hello.toml")).unwrap();
    let mut worker = std::process::Command::new(env!("CARGO_BIN_EXE_ejctl"))
        .args(["run", "examples/hello.toml"])
        .arg(d.join("host.toml"))
        .env("EJCTL_ZK", server.connect_string())
        .env("EJCTL_NAMESPACE", &ns)
        .env("EJCTL_CONFIG", d.join("contexts.toml"))
        .env_remove("RUST_LOG")
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(d.join("worker.log")).unwrap())
        .spawn()
        .unwrap();
    let registry = Registry::connect(zk_options(&server.connect_string(), &ns)).await.unwrap();
    let instance = JobPaths::new("hello").instance(&format!("10.0.0.5@-@{}", worker.id()));
    eventually(30, "the README's worker to register", async || {
        assert!(worker.try_wait().unwrap().is_none(), "{}", std::fs::read_to_string(d.join("worker.log")).unwrap());
        registry.exists(&instance).await.unwrap().is_some()
    })
    .await;

    // The README's admin block (the guide repeats it; the README's copy is the one that runs).
    let block = documents()
        .into_iter()
        .flat_map(|(_, text)| blocks(&text))
        .find(|b| b.iter().any(|l| l.starts_with("export EJCTL_ZK=")))
        .expect("a shell block that starts with `export EJCTL_ZK=` in the README or the guide");
    let mut ran = 0;
    for command in commands(&block) {
        if command.contains("--watch") || command.starts_with("ejctl history") {
            continue; // runs until interrupted; needs a trace store (parsing is checked above)
        }
        let out = tokio::task::block_in_place(|| {
            sh(&command)
                .env("EJCTL_ZK", server.connect_string())
                .env("EJCTL_NAMESPACE", &ns)
                .env("EJCTL_CONFIG", d.join("contexts.toml"))
                .env("EDITOR", "true")
                .current_dir(d)
                .stdin(Stdio::null())
                .output()
                .unwrap()
        });
        let code = out.status.code().unwrap_or(-1);
        assert!(
            allowed(&command).contains(&code),
            "README: `{command}` exited {code}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        ran += 1;
    }
    assert!(ran >= 20, "{ran} commands ran");
    let _ = worker.kill();
    let _ = worker.wait();
}
