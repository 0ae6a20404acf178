//! Every ElasticJob 3.x node path, built and parsed in one place
//! (docs/src/design/compatibility.md#node-layout).
//!
//! Paths are relative to the namespace (the registry handle is chrooted to it), so a job's root is
//! `/{job}`. No other module spells a node name: the runtime, the admin commands and `ejctl dump`
//! all go through [`JobPaths`] to build a path and through [`parse`] to recognise one. A unit test
//! scans the other source files for node-name literals.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;

/// The namespace root, i.e. the parent of every job.
pub const NAMESPACE_ROOT: &str = "/";

/// Separator between the IP and the pid in an instance id (`10.0.0.5@-@4242`).
pub const INSTANCE_ID_SEPARATOR: &str = "@-@";

/// The name of the lock node Curator's `LeaderLatch` creates under a latch directory.
pub const LATCH_NODE_NAME: &str = "latch-";

const CONFIG: &str = "config";
const SERVERS: &str = "servers";
const INSTANCES: &str = "instances";
const SHARDING: &str = "sharding";
const LEADER: &str = "leader";
const ELECTION: &str = "election";
const ELECTION_INSTANCE: &str = "instance";
const LATCH: &str = "latch";
const NECESSARY: &str = "necessary";
const PROCESSING: &str = "processing";
const FAILOVER: &str = "failover";
const ITEMS: &str = "items";
const TRIGGER: &str = "trigger";
const TRIGGER_RESULTS: &str = "trigger-results";
const RUNNERS: &str = "runners";
const GUARANTEE: &str = "guarantee";
const STARTED: &str = "started";
const COMPLETED: &str = "completed";
const SYSTEM_TIME: &str = "systemTime";
const CURRENT: &str = "current";
const NEXT_JOB_INSTANCE_IP: &str = "next-job-instance-ip";

/// A leaf under `sharding/{item}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ItemLeaf {
    /// `instance`: the owner's instance id (persistent, written by the leader).
    Instance,
    /// `running`: the item is executing (ephemeral without failover, persistent with it).
    Running,
    /// `failover`: the instance that took the item over (ephemeral).
    Failover,
    /// `failovering`: the instance executing the item as a failover (persistent).
    Failovering,
    /// `misfire`: a fire was missed while the item was busy (persistent).
    Misfire,
    /// `disabled`: an operator disabled the item (persistent).
    Disabled,
    /// `result` (ejctl): the item's last run or refused fire (persistent, JSON; Java instances
    /// ignore it).
    Result,
}

impl ItemLeaf {
    /// Every leaf, in a fixed order.
    pub const ALL: [ItemLeaf; 7] = [
        ItemLeaf::Instance,
        ItemLeaf::Running,
        ItemLeaf::Failover,
        ItemLeaf::Failovering,
        ItemLeaf::Misfire,
        ItemLeaf::Disabled,
        ItemLeaf::Result,
    ];

    /// The node name.
    pub fn name(self) -> &'static str {
        match self {
            ItemLeaf::Instance => "instance",
            ItemLeaf::Running => "running",
            ItemLeaf::Failover => "failover",
            ItemLeaf::Failovering => "failovering",
            ItemLeaf::Misfire => "misfire",
            ItemLeaf::Disabled => "disabled",
            ItemLeaf::Result => "result",
        }
    }
}

impl fmt::Display for ItemLeaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ItemLeaf {
    type Err = ();

    fn from_str(s: &str) -> Result<ItemLeaf, ()> {
        ItemLeaf::ALL.into_iter().find(|leaf| leaf.name() == s).ok_or(())
    }
}

/// A phase of the once-per-fire listeners (ElasticJob's `GuaranteeNode`): `guarantee/started`
/// before a fire's items, `guarantee/completed` after them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GuaranteePhase {
    /// `started`: every instance started the fire.
    Started,
    /// `completed`: every item of the fire ended.
    Completed,
}

impl GuaranteePhase {
    /// The node name.
    pub fn name(self) -> &'static str {
        match self {
            GuaranteePhase::Started => STARTED,
            GuaranteePhase::Completed => COMPLETED,
        }
    }
}

impl fmt::Display for GuaranteePhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Builds the paths of one job's nodes. Its root is shared by its clones (a job's cache view
/// holds one) and is 8 bytes smaller than a `String` in every job's state.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JobPaths {
    root: Arc<str>,
}

impl JobPaths {
    /// Paths for the job named `job`. The name must be a valid job name (see [`validate_job_name`]).
    pub fn new(job: &str) -> JobPaths {
        JobPaths { root: format!("/{job}").into() }
    }

    /// The job name.
    pub fn job(&self) -> &str {
        &self.root[1..]
    }

    /// `/{job}`: the job root; its data is the job type (`SCRIPT`, `HTTP`) or a Java class name.
    pub fn root(&self) -> &str {
        &self.root
    }

    fn join(&self, parts: &[&str]) -> String {
        let mut path = String::with_capacity(self.root.len() + parts.iter().map(|p| p.len() + 1).sum::<usize>());
        path.push_str(&self.root);
        for part in parts {
            path.push('/');
            path.push_str(part);
        }
        path
    }

    /// `/{job}/config`: the YAML job configuration.
    pub fn config(&self) -> String {
        self.join(&[CONFIG])
    }

    /// `/{job}/servers`.
    pub fn servers(&self) -> String {
        self.join(&[SERVERS])
    }

    /// `/{job}/servers/{ip}`: `ENABLED` or `DISABLED`.
    pub fn server(&self, ip: &str) -> String {
        self.join(&[SERVERS, ip])
    }

    /// `/{job}/instances`.
    pub fn instances(&self) -> String {
        self.join(&[INSTANCES])
    }

    /// `/{job}/instances/{ip@-@pid}`: ephemeral, instance YAML.
    pub fn instance(&self, instance_id: &str) -> String {
        self.join(&[INSTANCES, instance_id])
    }

    /// `/{job}/runners` (ejctl).
    pub fn runners(&self) -> String {
        self.join(&[RUNNERS])
    }

    /// `/{job}/runners/{ip@-@pid}` (ejctl): ephemeral, kept by a worker for as long as it may
    /// run items of the job in its session — past an operator's deletion of its instance node,
    /// until its killed runs have ended.
    pub fn runner(&self, instance_id: &str) -> String {
        self.join(&[RUNNERS, instance_id])
    }

    /// `/{job}/sharding`.
    pub fn sharding(&self) -> String {
        self.join(&[SHARDING])
    }

    /// `/{job}/sharding/{item}`.
    pub fn item(&self, item: u32) -> String {
        self.join(&[SHARDING, &item.to_string()])
    }

    /// `/{job}/sharding/{item}/{leaf}`.
    pub fn item_leaf(&self, item: u32, leaf: ItemLeaf) -> String {
        self.join(&[SHARDING, &item.to_string(), leaf.name()])
    }

    /// `/{job}/leader`.
    pub fn leader(&self) -> String {
        self.join(&[LEADER])
    }

    /// `/{job}/leader/election/instance`: ephemeral, the leader's instance id.
    pub fn leader_instance(&self) -> String {
        self.join(&[LEADER, ELECTION, ELECTION_INSTANCE])
    }

    /// `/{job}/leader/election/latch`: the Curator latch directory for elections.
    pub fn election_latch(&self) -> String {
        self.join(&[LEADER, ELECTION, LATCH])
    }

    /// `/{job}/leader/sharding/necessary`: the resharding flag.
    pub fn sharding_necessary(&self) -> String {
        self.join(&[LEADER, SHARDING, NECESSARY])
    }

    /// `/{job}/leader/sharding/processing`: ephemeral, set while the leader shards.
    pub fn sharding_processing(&self) -> String {
        self.join(&[LEADER, SHARDING, PROCESSING])
    }

    /// `/{job}/leader/failover/items`.
    pub fn failover_items(&self) -> String {
        self.join(&[LEADER, FAILOVER, ITEMS])
    }

    /// `/{job}/leader/failover/items/{item}`: an item waiting to be failed over.
    pub fn failover_item(&self, item: u32) -> String {
        self.join(&[LEADER, FAILOVER, ITEMS, &item.to_string()])
    }

    /// `/{job}/leader/failover/latch`: the Curator latch directory for failover claims.
    pub fn failover_latch(&self) -> String {
        self.join(&[LEADER, FAILOVER, LATCH])
    }

    /// `/{job}/trigger`.
    pub fn triggers(&self) -> String {
        self.join(&[TRIGGER])
    }

    /// `/{job}/trigger/{instance id}`: a manual trigger for one instance.
    pub fn trigger(&self, instance_id: &str) -> String {
        self.join(&[TRIGGER, instance_id])
    }

    /// `/{job}/trigger-results/{token}`: ejctl's per-item results of one `job trigger --wait`.
    /// The admin writes `token` as the trigger nodes' data; ejctl workers record each triggered
    /// item's outcome below it; Java instances neither write nor read it.
    pub fn trigger_results(&self, token: &str) -> String {
        self.join(&[TRIGGER_RESULTS, token])
    }

    /// `/{job}/trigger-results`.
    pub fn trigger_results_root(&self) -> String {
        self.join(&[TRIGGER_RESULTS])
    }

    /// `/{job}/trigger-results/{token}/{item}`: one item's outcome (JSON, see
    /// `codec::TriggerResult`).
    pub fn trigger_result(&self, token: &str, item: u32) -> String {
        self.join(&[TRIGGER_RESULTS, token, &item.to_string()])
    }

    /// `/{job}/guarantee`.
    pub fn guarantee(&self) -> String {
        self.join(&[GUARANTEE])
    }

    /// `/{job}/guarantee/{started|completed}`: the phase's root; ejctl keeps the phase's state
    /// for the current fire as its data (see `coord::once`).
    pub fn guarantee_root(&self, phase: GuaranteePhase) -> String {
        self.join(&[GUARANTEE, phase.name()])
    }

    /// `/{job}/guarantee/{started|completed}/{item}`: the item took part in the phase; ejctl
    /// writes the fire's identity as its data.
    pub fn guarantee_item(&self, phase: GuaranteePhase, item: u32) -> String {
        self.join(&[GUARANTEE, phase.name(), &item.to_string()])
    }

    /// `/{job}/systemTime/current`: written to read the registry's clock from its mtime.
    pub fn system_time(&self) -> String {
        self.join(&[SYSTEM_TIME, CURRENT])
    }

    /// `/{job}/next-job-instance-ip`: ephemeral, used by `SINGLE_SHARDING_BALANCE`.
    pub fn next_job_instance_ip(&self) -> String {
        self.join(&[NEXT_JOB_INSTANCE_IP])
    }
}

/// What a namespace-relative path is, as far as ElasticJob's layout goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// `/{job}`.
    JobRoot,
    /// `/{job}/config`.
    Config,
    /// `/{job}/servers`.
    Servers,
    /// `/{job}/servers/{ip}` (only an IPv4 address is a server, as in ElasticJob).
    Server(String),
    /// `/{job}/instances`.
    Instances,
    /// `/{job}/instances/{id}`.
    Instance(String),
    /// `/{job}/runners/{id}` (ejctl).
    Runner(String),
    /// `/{job}/sharding`.
    Sharding,
    /// `/{job}/sharding/{item}`.
    Item(u32),
    /// `/{job}/sharding/{item}/{leaf}`.
    ItemLeaf(u32, ItemLeaf),
    /// `/{job}/leader/election/instance`.
    LeaderInstance,
    /// `/{job}/leader/sharding/necessary`.
    ShardingNecessary,
    /// `/{job}/leader/sharding/processing`.
    ShardingProcessing,
    /// `/{job}/leader/failover/items`.
    FailoverItems,
    /// `/{job}/leader/failover/items/{item}`.
    FailoverItem(u32),
    /// `/{job}/trigger/{id}`.
    Trigger(String),
    /// `/{job}/trigger-results/{token}/{item}`.
    TriggerResult(String, u32),
    /// `/{job}/guarantee/{started|completed}`.
    GuaranteeRoot(GuaranteePhase),
    /// `/{job}/guarantee/{started|completed}/{item}`.
    GuaranteeItem(GuaranteePhase, u32),
    /// Any other node under the job (latches, the `guarantee` parent, system time, parents).
    Other,
}

/// Splits a namespace-relative path into the job name and what the node is.
/// Returns `None` for the namespace root and for paths that do not start with `/`.
pub fn parse(path: &str) -> Option<(&str, Node)> {
    let rest = path.strip_prefix('/')?;
    let mut parts = rest.split('/');
    let job = parts.next().filter(|j| !j.is_empty())?;
    // At most four parts below the job root name a known node; read on every look at a job, so
    // without an allocation.
    let mut buf = [""; 4];
    let mut len = 0;
    for part in parts {
        let Some(slot) = buf.get_mut(len) else { return Some((job, Node::Other)) };
        *slot = part;
        len += 1;
    }
    let node = match &buf[..len] {
        [] => Node::JobRoot,
        [CONFIG] => Node::Config,
        [SERVERS] => Node::Servers,
        [SERVERS, ip] if is_ipv4(ip) => Node::Server((*ip).to_string()),
        [INSTANCES] => Node::Instances,
        [INSTANCES, id] if !id.is_empty() => Node::Instance((*id).to_string()),
        [RUNNERS, id] if !id.is_empty() => Node::Runner((*id).to_string()),
        [SHARDING] => Node::Sharding,
        [SHARDING, item] => parse_item(item).map_or(Node::Other, Node::Item),
        [SHARDING, item, leaf] => match (parse_item(item), leaf.parse::<ItemLeaf>()) {
            (Some(item), Ok(leaf)) => Node::ItemLeaf(item, leaf),
            _ => Node::Other,
        },
        [LEADER, ELECTION, ELECTION_INSTANCE] => Node::LeaderInstance,
        [LEADER, SHARDING, NECESSARY] => Node::ShardingNecessary,
        [LEADER, SHARDING, PROCESSING] => Node::ShardingProcessing,
        [LEADER, FAILOVER, ITEMS] => Node::FailoverItems,
        [LEADER, FAILOVER, ITEMS, item] => parse_item(item).map_or(Node::Other, Node::FailoverItem),
        [TRIGGER, id] if !id.is_empty() => Node::Trigger((*id).to_string()),
        [GUARANTEE, STARTED] => Node::GuaranteeRoot(GuaranteePhase::Started),
        [GUARANTEE, COMPLETED] => Node::GuaranteeRoot(GuaranteePhase::Completed),
        [GUARANTEE, phase @ (STARTED | COMPLETED), item] => {
            let phase = if *phase == STARTED { GuaranteePhase::Started } else { GuaranteePhase::Completed };
            parse_item(item).map_or(Node::Other, |i| Node::GuaranteeItem(phase, i))
        }
        [TRIGGER_RESULTS, token, item] => {
            parse_item(item).map_or(Node::Other, |i| Node::TriggerResult((*token).to_string(), i))
        }
        _ => Node::Other,
    };
    Some((job, node))
}

/// True for the nodes of a job that no coordination decision reads, only the operations that
/// write them: the registry clock probe (`systemTime`), failover latch nodes, trigger results,
/// items' last results and guarantee nodes. A change of one asks a worker to re-evaluate
/// nothing. (Election latch nodes are not among them: a contention that failed is noticed
/// through them.)
pub fn bookkeeping(path: &str) -> bool {
    let mut parts = path.trim_start_matches('/').split('/').skip(1);
    match (parts.next(), parts.next(), parts.next()) {
        (Some(SYSTEM_TIME | TRIGGER_RESULTS | GUARANTEE), _, _) => true,
        (Some(LEADER), Some(FAILOVER), Some(LATCH)) => true,
        (Some(SHARDING), Some(_), Some(leaf)) => leaf == ItemLeaf::Result.name(),
        _ => false,
    }
}

/// Parses a sharding item node name: a non-negative decimal integer.
pub fn parse_item(name: &str) -> Option<u32> {
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    name.parse().ok()
}

/// True for a dotted-quad IPv4 address with every octet in 0..=255 (ElasticJob's `IP_REGEX`).
pub fn is_ipv4(s: &str) -> bool {
    let octets: Vec<&str> = s.split('.').collect();
    octets.len() == 4
        && octets.iter().all(|o| {
            !o.is_empty()
                && o.len() <= 3
                && o.bytes().all(|b| b.is_ascii_digit())
                && (o.len() == 1 || !o.starts_with('0'))
                && o.parse::<u16>().is_ok_and(|v| v <= 255)
        })
}

/// Checks that a job name can be a node name: non-empty, no `/`, not `.` or `..`, no control
/// characters, and not `zookeeper` (reserved by ZooKeeper at the root).
///
/// # Errors
/// A message saying what is wrong with the name.
pub fn validate_job_name(name: &str) -> Result<(), String> {
    if name.is_empty() {
        return Err("job name must not be empty".into());
    }
    if name.contains('/') {
        return Err(format!("job name '{name}' must not contain '/'"));
    }
    if name == "." || name == ".." || name == "zookeeper" {
        return Err(format!("job name '{name}' is reserved"));
    }
    if name.chars().any(char::is_control) {
        return Err(format!("job name '{}' must not contain control characters", name.escape_default()));
    }
    Ok(())
}

/// Checks a namespace (a ZooKeeper path below the root, without the leading `/`; it may contain
/// `/` as in `task/dsp`).
///
/// # Errors
/// A message saying what is wrong with the namespace.
pub fn validate_namespace(namespace: &str) -> Result<(), String> {
    if namespace.is_empty() {
        return Err("namespace must not be empty".into());
    }
    if namespace.starts_with('/') || namespace.ends_with('/') || namespace.contains("//") {
        return Err(format!("namespace '{namespace}' must not start or end with '/' or contain an empty segment"));
    }
    if namespace.split('/').any(|s| s == "." || s == "..") {
        return Err(format!("namespace '{namespace}' must not contain '.' or '..' segments"));
    }
    if namespace.chars().any(char::is_control) {
        return Err(format!("namespace '{}' must not contain control characters", namespace.escape_default()));
    }
    Ok(())
}

/// Joins a parent path and a child name.
pub fn child(parent: &str, name: &str) -> String {
    if parent == "/" { format!("/{name}") } else { format!("{parent}/{name}") }
}

/// What a path below `root` starts with: the root's path, empty for `/` (so that what follows it
/// is the whole path).
pub fn base(root: &str) -> &str {
    if root == "/" { "" } else { root }
}

/// `p` below `root`: what follows the root's path (`""` for the root itself, the whole path when
/// the root is `/`), or `None` for a path outside it (`/jobs/x` is outside `/job`).
pub fn below<'p>(root: &str, p: &'p str) -> Option<&'p str> {
    let rest = p.strip_prefix(base(root))?;
    (rest.is_empty() || rest.starts_with('/')).then_some(rest)
}

/// A directory's prefix: its path and a trailing `/` (`/` for the root).
pub fn dir_prefix(parent: &str) -> String {
    if parent == "/" { "/".to_string() } else { format!("{parent}/") }
}

/// The names of the direct children among `paths`, every one of which starts with `prefix`
/// ([`dir_prefix`]), in their order.
pub fn direct_children<'a>(prefix: &str, paths: impl Iterator<Item = &'a str>) -> Vec<String> {
    paths
        .filter_map(|p| {
            let rest = &p[prefix.len()..];
            (!rest.is_empty() && !rest.contains('/')).then(|| rest.to_string())
        })
        .collect()
}

/// The last segment of a path.
pub fn name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// The parent of a path (`/` for top-level nodes).
pub fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

/// Sorts child names the way ElasticJob's `getChildrenKeys` does: reverse natural order of Java
/// `String.compareTo` (UTF-16 code units), e.g. `["2", "10", "1", "0"]`.
pub fn sort_reverse_java(names: &mut [String]) {
    names.sort_by(|a, b| java_compare(b, a));
}

/// Java `String.compareTo`: lexicographic over UTF-16 code units.
pub fn java_compare(a: &str, b: &str) -> std::cmp::Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_below_a_root_is_what_follows_it() {
        assert_eq!(below("/job", "/job"), Some(""));
        assert_eq!(below("/job", "/job/config"), Some("/config"));
        assert_eq!(below("/job", "/jobs/x"), None);
        assert_eq!(below("/job", "/other"), None);
        assert_eq!(below("/", "/"), Some("/"));
        assert_eq!(below("/", "/job/config"), Some("/job/config"));
    }

    #[test]
    fn job_paths_match_elasticjob_node_names() {
        let p = JobPaths::new("test_job");
        assert_eq!(p.root(), "/test_job");
        assert_eq!(p.config(), "/test_job/config");
        assert_eq!(p.server("127.0.0.1"), "/test_job/servers/127.0.0.1");
        assert_eq!(p.instance("127.0.0.1@-@0"), "/test_job/instances/127.0.0.1@-@0");
        assert_eq!(p.item(0), "/test_job/sharding/0");
        assert_eq!(p.item_leaf(0, ItemLeaf::Instance), "/test_job/sharding/0/instance");
        assert_eq!(p.item_leaf(0, ItemLeaf::Running), "/test_job/sharding/0/running");
        assert_eq!(p.item_leaf(0, ItemLeaf::Failover), "/test_job/sharding/0/failover");
        assert_eq!(p.item_leaf(0, ItemLeaf::Failovering), "/test_job/sharding/0/failovering");
        assert_eq!(p.item_leaf(0, ItemLeaf::Misfire), "/test_job/sharding/0/misfire");
        assert_eq!(p.item_leaf(0, ItemLeaf::Disabled), "/test_job/sharding/0/disabled");
        assert_eq!(p.item_leaf(0, ItemLeaf::Result), "/test_job/sharding/0/result");
        assert_eq!(p.leader_instance(), "/test_job/leader/election/instance");
        assert_eq!(p.election_latch(), "/test_job/leader/election/latch");
        assert_eq!(p.sharding_necessary(), "/test_job/leader/sharding/necessary");
        assert_eq!(p.sharding_processing(), "/test_job/leader/sharding/processing");
        assert_eq!(p.failover_item(0), "/test_job/leader/failover/items/0");
        assert_eq!(p.failover_latch(), "/test_job/leader/failover/latch");
        assert_eq!(p.trigger("127.0.0.1@-@0"), "/test_job/trigger/127.0.0.1@-@0");
        assert_eq!(p.system_time(), "/test_job/systemTime/current");
        assert_eq!(p.next_job_instance_ip(), "/test_job/next-job-instance-ip");
        assert_eq!(p.guarantee(), "/test_job/guarantee");
        assert_eq!(p.guarantee_root(GuaranteePhase::Started), "/test_job/guarantee/started");
        assert_eq!(p.guarantee_item(GuaranteePhase::Completed, 2), "/test_job/guarantee/completed/2");
    }

    #[test]
    fn parse_inverts_job_paths() {
        let p = JobPaths::new("j");
        let cases = [
            (p.root().to_string(), Node::JobRoot),
            (p.config(), Node::Config),
            (p.servers(), Node::Servers),
            (p.server("10.0.0.1"), Node::Server("10.0.0.1".into())),
            (p.instances(), Node::Instances),
            (p.instance("10.0.0.1@-@7"), Node::Instance("10.0.0.1@-@7".into())),
            (p.runner("10.0.0.1@-@7"), Node::Runner("10.0.0.1@-@7".into())),
            (p.runners(), Node::Other),
            (p.sharding(), Node::Sharding),
            (p.item(12), Node::Item(12)),
            (p.item_leaf(3, ItemLeaf::Failovering), Node::ItemLeaf(3, ItemLeaf::Failovering)),
            (p.leader_instance(), Node::LeaderInstance),
            (p.sharding_necessary(), Node::ShardingNecessary),
            (p.sharding_processing(), Node::ShardingProcessing),
            (p.failover_item(4), Node::FailoverItem(4)),
            (p.failover_items(), Node::FailoverItems),
            (p.trigger("x@-@1"), Node::Trigger("x@-@1".into())),
            (p.trigger_result("tok", 3), Node::TriggerResult("tok".into(), 3)),
            (p.election_latch(), Node::Other),
            (p.guarantee(), Node::Other),
            (p.guarantee_root(GuaranteePhase::Completed), Node::GuaranteeRoot(GuaranteePhase::Completed)),
            (p.guarantee_item(GuaranteePhase::Started, 7), Node::GuaranteeItem(GuaranteePhase::Started, 7)),
        ];
        for (path, node) in cases {
            assert_eq!(parse(&path), Some(("j", node)), "{path}");
        }
        assert_eq!(parse("/"), None);
        assert_eq!(parse("relative"), None);
    }

    #[test]
    fn bookkeeping_nodes() {
        let p = JobPaths::new("j");
        for (path, expect) in [
            (p.system_time(), true),
            (format!("{}/_c_x-latch-0000000001", p.failover_latch()), true),
            (p.trigger_result("tok", 1), true),
            (p.item_leaf(1, ItemLeaf::Result), true),
            (p.guarantee(), true),
            (format!("{}/_c_x-latch-0000000001", p.election_latch()), false),
            (p.leader_instance(), false),
            (p.item_leaf(1, ItemLeaf::Running), false),
            (p.item(1), false),
            (p.config(), false),
            (p.trigger("x@-@1"), false),
        ] {
            assert_eq!(bookkeeping(&path), expect, "{path}");
        }
    }

    #[test]
    fn server_paths_must_be_ipv4() {
        // ServerNodeTest: `/test_job/servers/255.255.255.256` is not a server path.
        assert_eq!(parse("/test_job/servers/255.255.255.256"), Some(("test_job", Node::Other)));
        assert_eq!(
            parse("/test_job/servers/255.255.255.255"),
            Some(("test_job", Node::Server("255.255.255.255".into())))
        );
        assert!(!is_ipv4("1.2.3"));
        assert!(!is_ipv4("01.2.3.4"));
        assert!(!is_ipv4("a.b.c.d"));
        assert!(is_ipv4("0.0.0.0"));
    }

    #[test]
    fn items_are_decimal() {
        assert_eq!(parse_item("0"), Some(0));
        assert_eq!(parse_item("10"), Some(10));
        assert_eq!(parse_item("-1"), None);
        assert_eq!(parse_item("+1"), None);
        assert_eq!(parse_item(""), None);
    }

    #[test]
    fn reverse_java_order() {
        let mut names: Vec<String> = ["0", "1", "10", "2"].iter().map(|s| s.to_string()).collect();
        sort_reverse_java(&mut names);
        assert_eq!(names, ["2", "10", "1", "0"]);
    }

    #[test]
    fn names_and_parents() {
        assert_eq!(child("/", "a"), "/a");
        assert_eq!(child("/a", "b"), "/a/b");
        assert_eq!(name("/a/b"), "b");
        assert_eq!(parent("/a/b"), "/a");
        assert_eq!(parent("/a"), "/");
    }

    #[test]
    fn job_name_and_namespace_validation() {
        assert!(validate_job_name("ok_job-1").is_ok());
        assert!(validate_job_name("").is_err());
        assert!(validate_job_name("a/b").is_err());
        assert!(validate_job_name("zookeeper").is_err());
        assert!(validate_namespace("task/dsp").is_ok());
        assert!(validate_namespace("/x").is_err());
        assert!(validate_namespace("a//b").is_err());
        assert!(validate_namespace("").is_err());
    }

    /// Node names are spelled in this file only.
    #[test]
    fn no_other_module_spells_node_names() {
        let src = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let needles = [
            "\"/sharding",
            "/sharding/",
            "\"/instances",
            "/instances/",
            "\"/servers",
            "/servers/",
            "leader/",
            "\"/config\"",
            "\"/trigger",
            "/failovering",
            "systemTime",
            "\"running\"",
        ];
        let mut offenders = Vec::new();
        let mut stack = vec![std::path::PathBuf::from(src)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                // Unit-test modules in files of their own are named `tests.rs` or `*_tests.rs`.
                let test_module = path.file_name().is_some_and(|n| {
                    let n = n.to_string_lossy();
                    n.ends_with("_tests.rs") || n == "tests.rs"
                });
                if path.ends_with("registry/path.rs") || test_module || path.extension().is_none_or(|e| e != "rs") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                // Tests may spell paths to check what the code built, and comments may name nodes.
                let code = text.split("#[cfg(test)]").next().unwrap_or("");
                for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    for needle in needles {
                        if line.contains(needle) {
                            offenders.push(format!("{}: {line}", path.display()));
                        }
                    }
                }
            }
        }
        assert!(offenders.is_empty(), "node names outside registry/path.rs: {offenders:#?}");
    }
}
