//! The sharding context one execution of one sharding item receives
//! (docs/src/design/compatibility.md#sharding-context).
//!
//! This module owns the task id format (`{job}@-@{items}@-@READY@-@{instanceId}`) and the exact
//! JSON text ElasticJob hands to script jobs (last argv element) and HTTP jobs (`shardingContext`
//! header): Gson's default output for `ShardingContext`, written by hand so that field order,
//! null omission and Gson's HTML-safe escaping match byte for byte. The serde derives on
//! [`ShardingContext`] are for in-process use and are never used to produce that text.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

/// ElasticJob's task id for one fire on one instance:
/// `{job}@-@{items joined by ","}@-@READY@-@{instanceId}`.
///
/// `task_id("test_job", &[0, 1, 2], "192.168.1.10@-@4242")` is
/// `test_job@-@0,1,2@-@READY@-@192.168.1.10@-@4242`; with no items it is
/// `test_job@-@@-@READY@-@192.168.1.10@-@4242`.
pub fn task_id(job_name: &str, items: &[u32], instance_id: &str) -> String {
    let mut out = String::with_capacity(job_name.len() + instance_id.len() + 16 + items.len() * 3);
    out.push_str(job_name);
    out.push_str("@-@");
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        // Writing to a String cannot fail.
        let _ = write!(out, "{item}");
    }
    out.push_str("@-@READY@-@");
    out.push_str(instance_id);
    out
}

/// What one execution of one sharding item receives: ElasticJob's
/// `org.apache.shardingsphere.elasticjob.api.ShardingContext`.
///
/// The serde form uses the Java field names (`jobName`, `shardingItem`, ...), omits a missing
/// `shardingParameter` and defaults a missing `jobParameter` to `""`. For the exact text a Java
/// job would receive, use [`ShardingContext::to_gson_json`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShardingContext {
    /// The job name.
    pub job_name: String,
    /// The task id of this fire on this instance, see [`task_id`].
    pub task_id: String,
    /// `shardingTotalCount` of the job configuration.
    pub sharding_total_count: u32,
    /// `jobParameter` of the job configuration; `""` when unset (never null in ElasticJob).
    #[serde(default)]
    pub job_parameter: String,
    /// The item this execution runs.
    pub sharding_item: u32,
    /// This item's entry from `shardingItemParameters`, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sharding_parameter: Option<String>,
}

impl ShardingContext {
    /// The context as `new Gson().toJson(shardingContext)` writes it: fields in declaration
    /// order (`jobName`, `taskId`, `shardingTotalCount`, `jobParameter`, `shardingItem`,
    /// `shardingParameter`), no whitespace, `shardingParameter` omitted when absent, and strings
    /// escaped like Gson's `JsonWriter` with HTML-safe escaping on:
    ///
    /// * `"` → `\"`, `\` → `\\`, and `\t` `\b` `\n` `\r` `\f` by their short forms;
    /// * other chars below U+0020 → `\u00XX` with lowercase hex (`\u001f`);
    /// * `<` `>` `&` `=` `'` → `\u003c` `\u003e` `\u0026` `\u003d` `\u0027`;
    /// * U+2028 and U+2029 → `\u2028` and `\u2029`;
    /// * everything else, DEL (U+007F) and non-ASCII text such as `北京` included, verbatim.
    pub fn to_gson_json(&self) -> String {
        let mut out = String::with_capacity(128 + self.job_name.len() * 2 + self.task_id.len());
        out.push_str("{\"jobName\":");
        push_gson_string(&mut out, &self.job_name);
        out.push_str(",\"taskId\":");
        push_gson_string(&mut out, &self.task_id);
        // Writing to a String cannot fail.
        let _ = write!(out, ",\"shardingTotalCount\":{}", self.sharding_total_count);
        out.push_str(",\"jobParameter\":");
        push_gson_string(&mut out, &self.job_parameter);
        let _ = write!(out, ",\"shardingItem\":{}", self.sharding_item);
        if let Some(parameter) = &self.sharding_parameter {
            out.push_str(",\"shardingParameter\":");
            push_gson_string(&mut out, parameter);
        }
        out.push('}');
        out
    }
}

/// Appends `value` as a JSON string literal the way Gson's `JsonWriter.string` does with
/// `htmlSafe = true`.
fn push_gson_string(out: &mut String, value: &str) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{c}' => out.push_str("\\f"),
            '<' | '>' | '&' | '=' | '\'' | '\u{0}'..='\u{1f}' | '\u{2028}' | '\u{2029}' => {
                // Gson: String.format("\\u%04x", c), lowercase hex.
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            other => out.push(other),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(parameter: Option<&str>) -> ShardingContext {
        ShardingContext {
            job_name: "myJob".to_owned(),
            task_id: task_id("myJob", &[0, 1, 2], "10.0.0.5@-@4242"),
            sharding_total_count: 3,
            job_parameter: String::new(),
            sharding_item: 0,
            sharding_parameter: parameter.map(str::to_owned),
        }
    }

    #[test]
    fn task_id_format() {
        assert_eq!(
            task_id("test_job", &[0, 1, 2], "192.168.1.10@-@4242"),
            "test_job@-@0,1,2@-@READY@-@192.168.1.10@-@4242"
        );
        assert_eq!(task_id("test_job", &[1], "127.0.0.1@-@1"), "test_job@-@1@-@READY@-@127.0.0.1@-@1");
        assert_eq!(task_id("job", &[], "127.0.0.1@-@1"), "job@-@@-@READY@-@127.0.0.1@-@1");
    }

    #[test]
    fn gson_reference_example() {
        assert_eq!(
            context(Some("Beijing")).to_gson_json(),
            r#"{"jobName":"myJob","taskId":"myJob@-@0,1,2@-@READY@-@10.0.0.5@-@4242","shardingTotalCount":3,"jobParameter":"","shardingItem":0,"shardingParameter":"Beijing"}"#
        );
    }

    #[test]
    fn gson_omits_missing_parameter() {
        assert_eq!(
            context(None).to_gson_json(),
            r#"{"jobName":"myJob","taskId":"myJob@-@0,1,2@-@READY@-@10.0.0.5@-@4242","shardingTotalCount":3,"jobParameter":"","shardingItem":0}"#
        );
    }

    #[test]
    fn gson_keeps_empty_parameter() {
        let json = context(Some("")).to_gson_json();
        assert!(json.ends_with(r#","shardingItem":0,"shardingParameter":""}"#), "{json}");
    }

    #[test]
    fn gson_escaping() {
        let mut ctx = context(Some("a=b<c>&'d\"\\\n北京"));
        ctx.job_parameter = "x\ty\r\u{8}\u{c}\u{0}\u{1f}\u{7f}\u{2028}\u{2029}😀".to_owned();
        ctx.sharding_item = 2;
        assert_eq!(
            ctx.to_gson_json(),
            concat!(
                r#"{"jobName":"myJob","taskId":"myJob@-@0,1,2@-@READY@-@10.0.0.5@-@4242","#,
                r#""shardingTotalCount":3,"#,
                r#""jobParameter":"x\ty\r\b\f\u0000\u001f"#,
                "\u{7f}",
                r#"\u2028\u2029"#,
                "😀",
                r#"","shardingItem":2,"#,
                r#""shardingParameter":"a\u003db\u003cc\u003e\u0026\u0027d\"\\\n北京"}"#,
            )
        );
    }

    #[test]
    fn gson_json_is_valid_json_with_same_values() {
        let mut ctx = context(Some("a=b<c>&'d\"\\\n北京\u{1}"));
        ctx.job_parameter = "p\u{2028}".to_owned();
        let back: ShardingContext = serde_json::from_str(&ctx.to_gson_json()).unwrap();
        assert_eq!(back, ctx);
    }

    #[test]
    fn serde_uses_camel_case_and_omits_none() {
        let value = serde_json::to_value(context(None)).unwrap();
        assert_eq!(
            value,
            serde_json::json!({
                "jobName": "myJob",
                "taskId": "myJob@-@0,1,2@-@READY@-@10.0.0.5@-@4242",
                "shardingTotalCount": 3,
                "jobParameter": "",
                "shardingItem": 0
            })
        );
        let back: ShardingContext = serde_json::from_str(
            r#"{"jobName":"j","taskId":"t","shardingTotalCount":1,"shardingItem":0,"shardingParameter":"p"}"#,
        )
        .unwrap();
        assert_eq!(back.job_parameter, "");
        assert_eq!(back.sharding_parameter.as_deref(), Some("p"));
    }
}
