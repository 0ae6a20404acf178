//! Job file tests: every key, every error message, several files.

use super::*;
use crate::config::ExecutorPoolKey;

struct Files {
    dir: tempfile::TempDir,
}

impl Files {
    fn new() -> Files {
        Files { dir: tempfile::tempdir().unwrap() }
    }

    fn add(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// The error message with the temporary directory removed from paths.
    fn err(&self, paths: &[PathBuf]) -> String {
        let e = load(paths).unwrap_err();
        e.to_string().replace(&format!("{}/", self.dir.path().display()), "")
    }
}

fn load_text(text: &str) -> Result<WorkerFiles, JobFileError> {
    let files = Files::new();
    load(&[files.add("jobs.toml", text)])
}

/// The error for one file `jobs.toml` with this text.
fn err(text: &str) -> String {
    let files = Files::new();
    let path = files.add("jobs.toml", text);
    files.err(&[path])
}

const HELLO: &str = "[[job]]\nname = \"hello\"\ncron = \"0/5 * * * * ?\"\ncommand = \"echo hi\"\n";

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/jobfiles").join(name)
}

#[test]
fn full_file_with_every_key() {
    let path = fixture("full.toml");
    let files = load(std::slice::from_ref(&path)).unwrap();
    assert_eq!(
        files.registry,
        Some(RegistrySection {
            servers: "zk1:2181,zk2:2182".into(),
            namespace: "demo/jobs".into(),
            digest: Some("user:secret".into()),
            session_timeout: Duration::from_millis(30_000),
            connection_timeout: Duration::from_millis(5_000),
            fencing_timeout: Some(Duration::from_millis(20_000)),
            allow_open_acl: false,
            tls: None,
        })
    );
    assert_eq!(
        files.instance,
        InstanceSection {
            ip: Some("10.0.0.5".into()),
            dump_port: Some(9888),
            dump_address: Some(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED)),
            http: Some(std::net::SocketAddr::from((std::net::Ipv4Addr::UNSPECIFIED, 9110))),
            shutdown_timeout: Duration::from_secs(60),
            kill_grace: Some(Duration::from_secs(2)),
            prune_servers_after: Some(Duration::from_secs(900)),
        }
    );
    assert_eq!(files.jobs.len(), 3);
    assert!(files.jobs.iter().all(|j| j.file == path));

    let script = &files.jobs[0];
    assert_eq!(script.job_type, JobType::Script);
    let expected = JobConfig {
        job_name: "full".into(),
        cron: Some("0/5 * * * * ?".into()),
        time_zone: Some("GMT+08:00".into()),
        sharding_total_count: 3,
        sharding_item_parameters: Some("0=Beijing,1=Shanghai,2=Guangzhou".into()),
        job_parameter: Some("param".into()),
        monitor_execution: false,
        failover: true,
        misfire: false,
        max_time_diff_seconds: 60,
        reconcile_interval_minutes: 0,
        job_sharding_strategy_type: Some("ROUND_ROBIN".into()),
        job_executor_pool_type: Some("SINGLE_THREAD".into()),
        executor_pool_key: ExecutorPoolKey::ThreadPoolSizeProvider,
        job_error_handler_type: Some("IGNORE".into()),
        job_listener_types: vec!["listenerA".into(), "listenerB".into()],
        description: Some("Job description".into()),
        props: [
            ("custom.key", "value"),
            ("ejctl.timeout.seconds", "300"),
            ("script.command.line", "examples/hello.sh --verbose"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect(),
        disabled: true,
        overwrite: true,
        label: Some("blue".into()),
        static_sharding: true,
        preserved: vec![],
    };
    assert_eq!(script.config, expected);
    assert_eq!(
        script.config.to_yaml(),
        "cron: 0/5 * * * * ?\n\
         description: Job description\n\
         disabled: true\n\
         failover: true\n\
         jobErrorHandlerType: IGNORE\n\
         jobExecutorThreadPoolSizeProviderType: SINGLE_THREAD\n\
         jobListenerTypes:\n\
         - listenerA\n\
         - listenerB\n\
         jobName: full\n\
         jobParameter: param\n\
         jobShardingStrategyType: ROUND_ROBIN\n\
         label: blue\n\
         maxTimeDiffSeconds: 60\n\
         misfire: false\n\
         monitorExecution: false\n\
         overwrite: true\n\
         props:\n  \
           custom.key: value\n  \
           ejctl.timeout.seconds: '300'\n  \
           script.command.line: examples/hello.sh --verbose\n\
         reconcileIntervalMinutes: 0\n\
         shardingItemParameters: 0=Beijing,1=Shanghai,2=Guangzhou\n\
         shardingTotalCount: 3\n\
         staticSharding: true\n\
         timeZone: GMT+08:00\n"
    );

    let http = &files.jobs[1];
    assert_eq!(http.job_type, JobType::Http);
    let mut expected = JobConfig::new("web", 1);
    expected.executor_pool_key = ExecutorPoolKey::ServiceHandler;
    expected.job_executor_pool_type = Some("CPU".into());
    expected.props = [
        ("http.uri", "http://127.0.0.1:8080/run"),
        ("http.method", "POST"),
        ("http.data", "a=1"),
        ("http.content.type", "application/x-www-form-urlencoded"),
        ("http.connect.timeout.milliseconds", "3000"),
        ("http.read.timeout.milliseconds", "5000"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(http.config, expected);

    let dataflow = &files.jobs[2];
    assert_eq!(dataflow.job_type, JobType::Dataflow);
    let mut expected = JobConfig::new("flow", 2);
    expected.cron = Some("0 0/1 * * * ?".into());
    expected.props = [
        ("ejctl.dataflow.fetch", "examples/fetch.sh"),
        ("ejctl.dataflow.process", "examples/process.sh"),
        ("ejctl.timeout.seconds", "60"),
        ("streaming.process", "true"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    assert_eq!(dataflow.config, expected);
    assert_eq!(files.warnings, Vec::<String>::new());
}

#[test]
fn defaults_are_the_java_builder_defaults() {
    let files = load_text("[[job]]\nname = \"hello\"\ncommand = \"echo hi\"\n").unwrap();
    assert_eq!(files.registry, None);
    assert_eq!(files.instance, InstanceSection::default());
    assert_eq!(files.jobs.len(), 1);
    assert_eq!(files.jobs[0].job_type, JobType::Script);
    let mut expected = JobConfig::new("hello", 1);
    expected.props.insert("script.command.line".into(), "echo hi".into());
    assert_eq!(files.jobs[0].config, expected);
    assert!(expected.monitor_execution && expected.misfire && !expected.failover);
    assert_eq!((expected.max_time_diff_seconds, expected.reconcile_interval_minutes), (-1, 10));
    assert_eq!(
        files.jobs[0].config.to_yaml(),
        "disabled: false\nfailover: false\njobName: hello\nmaxTimeDiffSeconds: -1\nmisfire: true\n\
         monitorExecution: true\noverwrite: false\nprops:\n  script.command.line: echo hi\n\
         reconcileIntervalMinutes: 10\nshardingTotalCount: 1\nstaticSharding: false\n"
    );
}

#[test]
fn registry_and_instance_defaults_and_zk_options() {
    let files = load_text(&format!("[registry]\nservers = \"127.0.0.1:2181\"\nnamespace = \"demo\"\n{HELLO}")).unwrap();
    let registry = files.registry.unwrap();
    assert_eq!(
        registry,
        RegistrySection {
            servers: "127.0.0.1:2181".into(),
            namespace: "demo".into(),
            digest: None,
            session_timeout: Duration::from_secs(60),
            connection_timeout: Duration::from_secs(15),
            fencing_timeout: None,
            tls: None,
            allow_open_acl: false,
        }
    );
    let options = registry.zk_options();
    assert_eq!(options.servers, "127.0.0.1:2181");
    assert_eq!(options.namespace, "demo");
    assert_eq!(options.digest, None);
    assert_eq!(options.session_timeout, Duration::from_secs(60));
    assert_eq!(options.connection_timeout, Duration::from_secs(15));
    assert_eq!(options.request_timeout, Duration::from_secs(60));
    assert!(options.create_namespace);
}

#[test]
fn iana_time_zone_is_a_warning() {
    let files = load_text(&format!("{HELLO}time_zone = \"Asia/Shanghai\"\n")).unwrap();
    assert_eq!(files.warnings.len(), 1);
    let warning = files.warnings[0].rsplit_once("jobs.toml: ").unwrap().1;
    assert_eq!(
        warning,
        "job 'hello': time_zone 'Asia/Shanghai' is an IANA name; a Java ElasticJob instance in the same \
         cluster would reject it"
    );
    assert_eq!(files.jobs[0].config.time_zone.as_deref(), Some("Asia/Shanghai"));
}

#[test]
fn one_off_job_and_type_names_are_canonicalised() {
    let files = load_text(
        "[[job]]\nname = \"once\"\ncommand = \"true\"\njob_sharding_strategy_type = \"odevity\"\n\
         job_error_handler_type = \"\"\n",
    )
    .unwrap();
    let cfg = &files.jobs[0].config;
    assert_eq!(cfg.cron, None);
    assert_eq!(cfg.job_sharding_strategy_type.as_deref(), Some("ODEVITY"));
    assert_eq!(cfg.job_error_handler_type, None);
}

#[test]
fn props_can_carry_the_required_options() {
    let files = load_text("[[job]]\nname = \"p\"\nprops = { \"script.command.line\" = \"echo hi\" }\n").unwrap();
    assert_eq!(files.jobs[0].config.props["script.command.line"], "echo hi");
}

#[test]
fn toml_syntax_error_has_line_and_column_on_one_line() {
    assert_eq!(
        err("[[job]]\nname = \"x\"\ncron = 0/5\n"),
        "jobs.toml:3:8: string values must be quoted, expected literal string"
    );
    let e = err("[[job]]\nname = \"x\"\nname = \"y\"\n");
    assert!(e.starts_with("jobs.toml:3:1: "), "{e}");
    assert!(!e.contains('\n'), "{e}");
}

#[test]
fn unknown_keys() {
    assert_eq!(err(&format!("foo = 1\n{HELLO}")), "jobs.toml: unknown key 'foo'");
    assert_eq!(err(&format!("[jobs]\n{HELLO}")), "jobs.toml: unknown key 'jobs' (did you mean 'job'?)");
    assert_eq!(
        err(&format!("[registry]\nservers = \"zk:2181\"\nnamespace = \"n\"\nfoo = 1\n{HELLO}")),
        "jobs.toml: unknown key 'registry.foo'"
    );
    assert_eq!(
        err(&format!("[instance]\nip_address = \"10.0.0.1\"\n{HELLO}")),
        "jobs.toml: unknown key 'instance.ip_address'"
    );
    assert_eq!(err(&format!("{HELLO}foo = 1\n")), "jobs.toml: job 'hello': unknown key 'foo'");
    assert_eq!(
        err(&format!("{HELLO}shardingTotalCount = 2\n")),
        "jobs.toml: job 'hello': unknown key 'shardingTotalCount' (did you mean 'sharding_total_count'?)"
    );
    assert_eq!(
        err(&format!("{HELLO}failvoer = true\n")),
        "jobs.toml: job 'hello': unknown key 'failvoer' (did you mean 'failover'?)"
    );
    assert_eq!(
        err(&format!("{HELLO}job_extra_configurations = []\n")),
        "jobs.toml: job 'hello': job_extra_configurations: cannot be set from a job file (it holds tagged \
         Java objects); set it with a Java application"
    );
}

#[test]
fn missing_name() {
    assert_eq!(
        err(&format!("{HELLO}[[job]]\ncommand = \"x\"\n")),
        "jobs.toml: name: missing in [[job]] number 2 of this file"
    );
    assert_eq!(err("[[job]]\nname = 3\n"), "jobs.toml: name: expected a string, found an integer");
    assert_eq!(
        err("[[job]]\nname = \"a/b\"\ncommand = \"x\"\n"),
        "jobs.toml: job 'a/b': name: job name 'a/b' must not contain '/'"
    );
}

#[test]
fn bad_cron() {
    assert_eq!(
        err("[[job]]\nname = \"hello\"\ncron = \"0 0 12 * * *\"\ncommand = \"x\"\n"),
        "jobs.toml: job 'hello': cron: invalid cron expression '0 0 12 * * *': exactly one of day-of-month \
         and day-of-week must be '?'"
    );
}

#[test]
fn bad_time_zone() {
    let e = err(&format!("{HELLO}time_zone = \"Mars/Olympus\"\n"));
    assert_eq!(
        e,
        "jobs.toml: job 'hello': time_zone: invalid time zone 'Mars/Olympus': not a GMT offset (GMT+8, \
         GMT+08:00, GMT-0530) nor an IANA time zone name (Asia/Shanghai, UTC)"
    );
}

#[test]
fn unknown_strategy() {
    assert_eq!(
        err(&format!("{HELLO}job_sharding_strategy_type = \"FANCY\"\n")),
        "jobs.toml: job 'hello': job_sharding_strategy_type: Cannot find sharding strategy using type 'FANCY'. \
         Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, SINGLE_SHARDING_BALANCE"
    );
}

#[test]
fn other_type_names() {
    assert_eq!(
        err(&format!("{HELLO}job_executor_thread_pool_size_provider_type = \"HUGE\"\n")),
        "jobs.toml: job 'hello': job_executor_thread_pool_size_provider_type: unknown type 'HUGE'; valid \
         types: CPU, SINGLE_THREAD"
    );
    assert_eq!(
        err(&format!("{HELLO}job_error_handler_type = \"SLACK\"\n")),
        "jobs.toml: job 'hello': job_error_handler_type: unknown type 'SLACK'; valid types: LOG, IGNORE, \
         THROW, EMAIL, WECHAT, DINGTALK, WEBHOOK"
    );
    assert_eq!(
        err(&format!("{HELLO}job_error_handler_type = \"WECHAT\"\n")),
        "jobs.toml: job 'hello': job_error_handler_type: props 'wechat.webhook' is required by the error handler"
    );
    assert_eq!(
        err(&format!(
            "{HELLO}job_executor_thread_pool_size_provider_type = \"CPU\"\n\
             job_executor_service_handler_type = \"CPU\"\n"
        )),
        "jobs.toml: job 'hello': job_executor_service_handler_type: set only one of \
         job_executor_thread_pool_size_provider_type (ElasticJob 3.0.5 and later) and \
         job_executor_service_handler_type (3.0.0 to 3.0.4)"
    );
}

#[test]
fn bad_sharding_item_parameters() {
    assert_eq!(
        err(&format!("{HELLO}sharding_item_parameters = \"0=A,,1=B\"\n")),
        "jobs.toml: job 'hello': sharding_item_parameters: Sharding item parameters '0=A,,1=B' format error, \
         should be int=xx,int=xx"
    );
    assert_eq!(
        err(&format!("{HELLO}sharding_item_parameters = \"xxx=xxx\"\n")),
        "jobs.toml: job 'hello': sharding_item_parameters: Sharding item parameters key 'xxx' is not an \
         integer."
    );
}

#[test]
fn bad_counts_and_numbers() {
    assert_eq!(
        err(&format!("{HELLO}sharding_total_count = 0\n")),
        "jobs.toml: job 'hello': sharding_total_count: must be at least 1, got 0"
    );
    assert_eq!(
        err(&format!("{HELLO}sharding_total_count = 1000000\n")),
        "jobs.toml: job 'hello': sharding_total_count: must be at most 10000, got 1000000"
    );
    assert_eq!(
        err(&format!("{HELLO}sharding_total_count = 99999999999\n")),
        "jobs.toml: job 'hello': sharding_total_count: 99999999999 is out of range (a 32-bit integer)"
    );
    assert_eq!(
        err(&format!("{HELLO}sharding_total_count = \"3\"\n")),
        "jobs.toml: job 'hello': sharding_total_count: expected an integer, found a string"
    );
    assert_eq!(
        err(&format!("{HELLO}max_time_diff_seconds = -5\n")),
        "jobs.toml: job 'hello': max_time_diff_seconds: must be -1 (no check) or at least 0, got -5"
    );
    assert_eq!(
        err(&format!("{HELLO}reconcile_interval_minutes = -1\n")),
        "jobs.toml: job 'hello': reconcile_interval_minutes: must be 0 (disabled) or more, got -1"
    );
    assert_eq!(
        err(&format!("{HELLO}timeout_seconds = 0\n")),
        "jobs.toml: job 'hello': timeout_seconds: must be at least 1, got 0"
    );
    assert_eq!(
        err(&format!("{HELLO}failover = \"yes\"\n")),
        "jobs.toml: job 'hello': failover: expected a boolean, found a string"
    );
    assert_eq!(
        err(&format!("{HELLO}props = {{ a = 1 }}\n")),
        "jobs.toml: job 'hello': props: 'a' must be a string, found an integer"
    );
    assert_eq!(
        err(&format!("{HELLO}job_listener_types = [1]\n")),
        "jobs.toml: job 'hello': job_listener_types: expected an array of strings, found an integer"
    );
}

#[test]
fn job_type() {
    assert_eq!(
        err("[[job]]\nname = \"j\"\ntype = \"simple\"\n"),
        "jobs.toml: job 'j': type: unknown job type 'simple'; expected script, http or dataflow"
    );
    assert_eq!(err("[job]\nname = \"j\"\n"), "jobs.toml: job: write [[job]] (an array of tables), not [job]");
}

#[test]
fn missing_required_options() {
    assert_eq!(err("[[job]]\nname = \"hello\"\n"), "jobs.toml: job 'hello': script jobs need 'command'");
    assert_eq!(
        err("[[job]]\nname = \"hello\"\ncommand = \" \"\n"),
        "jobs.toml: job 'hello': command: must not be empty"
    );
    assert_eq!(err("[[job]]\nname = \"w\"\ntype = \"http\"\n"), "jobs.toml: job 'w': http jobs need 'http_uri'");
    assert_eq!(
        err("[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://x/\"\n"),
        "jobs.toml: job 'w': http jobs need 'http_method'"
    );
    assert_eq!(
        err("[[job]]\nname = \"f\"\ntype = \"dataflow\"\nfetch = \"a\"\n"),
        "jobs.toml: job 'f': dataflow jobs need 'process'"
    );
}

#[test]
fn option_on_the_wrong_job_type() {
    assert_eq!(
        err("[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://x/\"\ncommand = \"echo\"\n"),
        "jobs.toml: job 'w': command is only for script jobs"
    );
    assert_eq!(
        err("[[job]]\nname = \"w\"\ntype = \"http\"\nhttp_uri = \"http://x/\"\ntimeout_seconds = 5\n"),
        "jobs.toml: job 'w': timeout_seconds is only for script and dataflow jobs"
    );
    assert_eq!(
        err(&format!("{HELLO}http_method = \"GET\"\n")),
        "jobs.toml: job 'hello': http_method is only for http jobs"
    );
    assert_eq!(err(&format!("{HELLO}fetch = \"x\"\n")), "jobs.toml: job 'hello': fetch is only for dataflow jobs");
}

#[test]
fn option_and_prop_conflict() {
    assert_eq!(
        err(&format!("{HELLO}props = {{ \"script.command.line\" = \"other\" }}\n")),
        "jobs.toml: job 'hello': command: conflicts with props 'script.command.line'; set only one of them"
    );
}

#[test]
fn bad_registry() {
    let registry = |body: &str| err(&format!("[registry]\n{body}\n{HELLO}"));
    assert_eq!(
        registry("servers = \"zk:2181/chroot\"\nnamespace = \"n\""),
        "jobs.toml: registry.servers: invalid connect string 'zk:2181/chroot': it has a path '/chroot'; the \
         namespace is set separately"
    );
    assert_eq!(
        registry("servers = \"zk:99999\"\nnamespace = \"n\""),
        "jobs.toml: registry.servers: invalid connect string 'zk:99999': '99999' is not a port number"
    );
    assert_eq!(registry("namespace = \"n\""), "jobs.toml: registry.servers: required (the ZooKeeper connect string)");
    assert_eq!(registry("servers = \"zk\""), "jobs.toml: registry.namespace: required");
    assert_eq!(
        registry("servers = \"zk\"\nnamespace = \"/n\""),
        "jobs.toml: registry.namespace: namespace '/n' must not start or end with '/' or contain an empty segment"
    );
    assert_eq!(
        registry("servers = \"zk\"\nnamespace = \"n\"\ndigest = \"userpassword\""),
        "jobs.toml: registry.digest: must be 'user:password'"
    );
    assert_eq!(
        registry("servers = \"zk\"\nnamespace = \"n\"\nfencing_timeout_ms = 60000"),
        "jobs.toml: registry.fencing_timeout_ms: must be less than session_timeout_ms (60000), got 60000"
    );
    assert_eq!(
        registry("servers = \"zk\"\nnamespace = \"n\"\nsession_timeout_ms = 0"),
        "jobs.toml: registry.session_timeout_ms: must be at least 1, got 0"
    );
    assert_eq!(err(&format!("registry = \"zk\"\n{HELLO}")), "jobs.toml: registry: expected a table, found a string");
}

#[test]
fn bad_instance() {
    assert_eq!(
        err(&format!("[instance]\nip = \"10.0.0.256\"\n{HELLO}")),
        "jobs.toml: instance.ip: '10.0.0.256' is not an IPv4 address"
    );
    assert_eq!(
        err(&format!("[instance]\ndump_port = 0\n{HELLO}")),
        "jobs.toml: instance.dump_port: must be a port number from 1 to 65535, got 0"
    );
    assert_eq!(
        err(&format!("[instance]\nkill_grace_seconds = -1\n{HELLO}")),
        "jobs.toml: instance.kill_grace_seconds: must be at least 0, got -1"
    );
    assert_eq!(
        err(&format!("[instance]\nhttp = \"localhost:9110\"\n{HELLO}")),
        "jobs.toml: instance.http: 'localhost:9110' is not an address such as 127.0.0.1:9110, 0.0.0.0:9110 or a port"
    );
}

#[test]
fn http_endpoint_address() {
    let http = |v: &str| load_text(&format!("[instance]\nhttp = \"{v}\"\n{HELLO}")).unwrap().instance.http;
    assert_eq!(http("9110"), Some(std::net::SocketAddr::from((std::net::Ipv4Addr::LOCALHOST, 9110))));
    assert_eq!(http("0.0.0.0:80"), Some(std::net::SocketAddr::from((std::net::Ipv4Addr::UNSPECIFIED, 80))));
    assert_eq!(http("[::1]:9110"), Some(std::net::SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, 9110))));
}

#[test]
fn several_files() {
    let files = Files::new();
    let registry = "[registry]\nservers = \"zk:2181\"\nnamespace = \"n\"\n";
    let a = files.add("a.toml", &format!("{registry}[instance]\ndump_port = 9888\n{HELLO}"));
    let b = files.add("b.toml", "[[job]]\nname = \"other\"\ncommand = \"x\"\n");
    let c = files
        .add("c.toml", &format!("{registry}session_timeout_ms = 60000\n[[job]]\nname = \"third\"\ncommand = \"x\"\n"));
    let loaded = load(&[a.clone(), b.clone(), c.clone()]).unwrap();
    let names: Vec<&str> = loaded.jobs.iter().map(|j| j.config.job_name.as_str()).collect();
    assert_eq!(names, ["hello", "other", "third"]);
    assert_eq!(loaded.jobs[1].file, b);
    assert_eq!(loaded.registry.unwrap().namespace, "n");
    assert_eq!(loaded.instance.dump_port, Some(9888));
}

#[test]
fn duplicate_names_across_files() {
    let files = Files::new();
    let a = files.add("a.toml", HELLO);
    let b = files.add("b.toml", HELLO);
    assert_eq!(files.err(&[a, b]), "b.toml: job 'hello': name: also defined in a.toml");
    assert_eq!(err(&format!("{HELLO}{HELLO}")), "jobs.toml: job 'hello': name: defined more than once in this file");
}

#[test]
fn conflicting_tables_across_files() {
    let files = Files::new();
    let a = files.add("a.toml", &format!("[registry]\nservers = \"zk:2181\"\nnamespace = \"a\"\n{HELLO}"));
    let b = files.add("b.toml", "[registry]\nservers = \"zk:2181\"\nnamespace = \"b\"\n");
    assert_eq!(
        files.err(&[a.clone(), b]),
        "b.toml: registry: differs from the [registry] table in a.toml; the files of one run share one \
         [registry] table"
    );
    let c = files.add("c.toml", "[instance]\ndump_port = 1\n");
    let d = files.add("d.toml", &format!("[instance]\ndump_port = 2\n{HELLO}"));
    assert_eq!(
        files.err(&[c, d]),
        "d.toml: instance: differs from the [instance] table in c.toml; the files of one run share one \
         [instance] table"
    );
}

#[test]
fn no_jobs() {
    assert_eq!(err(""), "jobs.toml: no [[job]] table; a job file defines at least one job");
    let files = Files::new();
    let a = files.add("a.toml", "");
    let b = files.add("b.toml", "[instance]\n");
    let e = files.err(&[a, b]);
    assert!(e.starts_with("a.toml: no [[job]] table in any of the files ("), "{e}");
    assert_eq!(load(&[]).unwrap_err().to_string(), "no job file given");
}

#[test]
fn unreadable_file() {
    let files = Files::new();
    let missing = files.dir.path().join("missing.toml");
    let e = files.err(&[missing]);
    assert!(e.starts_with("missing.toml: cannot read: "), "{e}");
    assert!(!e.contains('\n'));
}

#[test]
fn nothing_is_returned_when_a_later_file_is_bad() {
    let files = Files::new();
    let good = files.add("good.toml", HELLO);
    let bad = files.add("bad.toml", "[[job]]\nname = \"x\"\ncommand = \"x\"\ncron = \"nope\"\n");
    let e = files.err(&[good, bad]);
    assert!(e.starts_with("bad.toml: job 'x': cron: invalid cron expression 'nope'"), "{e}");
}

#[test]
fn executor_messages_name_the_job_file_key() {
    let files = Files::new();
    let path = files.add("jobs.toml", "");
    let table: Table = "command = \"x\"\nprops = { \"http.uri\" = \"u\" }".parse().unwrap();
    let f = Fields { table: &table, file: &path, job: Some("j"), prefix: "" };
    let e = |m: &str| executor_error(&f, &table, m).to_string().replace(&format!("{}: ", path.display()), "");
    assert_eq!(
        e("props 'script.command.line' has an unterminated \" quote: a\"b"),
        "job 'j': command: has an unterminated \" quote: a\"b"
    );
    assert_eq!(e("a script job needs props 'script.command.line'"), "job 'j': a script job needs 'command'");
    assert_eq!(e("props 'http.uri' is bad"), "job 'j': props 'http.uri' is bad");
}

#[test]
fn helpers() {
    assert_eq!(toml_key("jobName"), "name");
    assert_eq!(toml_key("jobExecutorThreadPoolSizeProviderType"), "job_executor_thread_pool_size_provider_type");
    assert_eq!(edit_distance("failvoer", "failover"), 2);
    assert_eq!(edit_distance("", "abc"), 3);
}

#[test]
fn an_unwritten_kill_grace_fits_below_the_session_timeout() {
    let ms = Duration::from_millis;
    for session in [1_000, 4_000, 10_000, 20_000, 60_000, 600_000] {
        let fencing = ms(session) / 2;
        let grace = kill_grace(ms(session), fencing);
        assert!(fencing + grace < ms(session), "session {session} ms: grace {grace:?}");
    }
    assert_eq!(kill_grace(ms(60_000), ms(30_000)), DEFAULT_KILL_GRACE);
    assert_eq!(kill_grace(ms(10_000), ms(5_000)), ms(4_000));
    assert_eq!(kill_grace(ms(10_000), ms(9_000)), ms(800));
    assert_eq!(kill_grace(ms(10_000), ms(10_000)), Duration::ZERO);
}

#[test]
fn kill_grace_is_none_unless_written() {
    let files = Files::new();
    let path = files.add("a.toml", HELLO);
    assert_eq!(load(&[path]).unwrap().instance.kill_grace, None);
    let path = files.add("b.toml", &format!("[instance]\nkill_grace_seconds = 30\n{HELLO}"));
    assert_eq!(load(&[path]).unwrap().instance.kill_grace, Some(Duration::from_secs(30)));
}

#[test]
fn a_job_workers_could_not_decode_is_refused() {
    let with = |n: usize| format!("{HELLO}job_parameter = \"{}\"\n", "p".repeat(n));
    load_text(&with(100_000)).expect("under the node limit");
    let e = err(&with(140_000));
    assert!(e.contains("job 'hello': the configuration as ElasticJob YAML is "), "{e}");
    assert!(e.contains("larger than the limit of 131072 bytes"), "{e}");
}
