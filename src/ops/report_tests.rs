use super::*;
use crate::registry::{NodeData, Stat, TreeNode};

fn node(path: &str, value: &str) -> TreeNode {
    TreeNode { path: path.into(), node: NodeData { data: value.as_bytes().to_vec(), stat: Stat::default() } }
}

fn detail(config: &str) -> JobDetail {
    let nodes = vec![node("/j", "SCRIPT"), node("/j/config", config)];
    job_detail("ns", &JobData::from_nodes("j", &nodes), Utc::now())
}

#[test]
fn detail_shows_the_stored_configuration() {
    let d = detail("jobName: j\nshardingTotalCount: 2\nzExtra: [1, 2]\n");
    assert_eq!(d.config["shardingTotalCount"], 2);
    assert_eq!(d.config["zExtra"], serde_json::json!([1, 2]));
    assert_eq!(d.config_error, None);
}

#[test]
fn detail_refuses_hostile_configurations_before_parsing() {
    let deep = format!("jobName: j\nx: {}\n", "[".repeat(100_000));
    let anchor = "a".repeat(100_000);
    let bomb =
        format!("jobName: j\nbase: &a {anchor}\n{}", (0..50).map(|i| format!("k{i}: [*a, *a]\n")).collect::<String>());
    let large = format!("jobName: j\njobParameter: '{}'\n", "x".repeat(300 * 1024));
    for text in [deep, bomb, large] {
        let d = detail(&text);
        assert_eq!(d.config, serde_json::Value::Null);
        assert!(d.config_error.is_some_and(|e| e.contains("limit") || e.contains("deeper") || e.contains("more than")));
    }
}
