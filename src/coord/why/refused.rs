//! `why`'s finding of registry commands the workers refused ([`crate::coord::pin`]): they ran
//! their job files' commands instead, and the fix that sets the registry back.

use std::collections::BTreeMap;

use super::{Condition, Evidence, Finding, Snapshot};
use crate::config::JobConfig;
use crate::registry::codec::result::{REFUSED_VALUE_CAP, cap_head};
use crate::registry::codec::{ItemResult, RefusedValue};
use crate::registry::path::ItemLeaf;

/// The items' last runs ran the job file's command instead of the registry's — unless the
/// registry has been set back to the job file's value since. One finding per worker and refused
/// values, naming every item it concerns (not one per item).
pub(super) fn command_refused(s: &Snapshot<'_>, config: &JobConfig, items: &[u32], out: &mut Vec<Finding>) {
    let current = |prop: &str| config.props.get(prop).filter(|v| !v.is_empty()).map(|v| cap_head(v, REFUSED_VALUE_CAP));
    // (worker, values it refused) → the items and their results.
    type Group<'r> = (&'r str, Vec<&'r RefusedValue>);
    let mut groups: BTreeMap<Group<'_>, Vec<(u32, &ItemResult)>> = BTreeMap::new();
    for &item in items {
        let Some(result) = s.view.items.get(&item).and_then(|st| st.result.as_ref()) else { continue };
        let refused: Vec<&RefusedValue> = result.refused.iter().filter(|r| current(&r.prop) != r.job_file).collect();
        if !refused.is_empty() {
            groups.entry((result.instance.as_str(), refused)).or_default().push((item, result));
        }
    }
    let show = |v: &Option<String>| v.as_deref().map_or_else(|| "(unset)".to_string(), |v| format!("'{v}'"));
    let job = s.name();
    for ((instance, refused), results) in groups {
        let detail = refused
            .iter()
            .map(|r| format!("{}: the registry has {}, the job file {}", r.prop, show(&r.registry), show(&r.job_file)))
            .collect::<Vec<_>>()
            .join("; ");
        // A value cut at the cap may not be the whole command: the fix cannot spell it.
        let whole = refused.iter().all(|r| r.job_file.as_deref().is_none_or(|v| v.len() < REFUSED_VALUE_CAP - 4));
        let set_back = if whole {
            let assignments: Vec<String> = refused
                .iter()
                .map(|r| format!("props.{}={}", r.prop, r.job_file.as_deref().map(shell_quote).unwrap_or_default()))
                .collect();
            format!("ejctl config set {job} {}", assignments.join(" "))
        } else {
            format!("ejctl config edit {job}   (set the refused properties back to the job file's values)")
        };
        let numbers: Vec<String> = results.iter().map(|(item, _)| item.to_string()).collect();
        let which = match numbers.as_slice() {
            [one] => format!("item {one}"),
            many => format!("items {}", many.join(",")),
        };
        out.push(Finding {
            code: Condition::CommandRefused,
            blocking: false,
            item: match results.as_slice() {
                [(item, _)] => Some(*item),
                _ => None,
            },
            message: format!(
                "the worker {instance} ran its job file's command for {which}, not the registry's, which it refuses: {detail}"
            ),
            evidence: results
                .iter()
                .map(|(item, result)| Evidence {
                    node: s.paths.item_leaf(*item, ItemLeaf::Result),
                    at: result.ended(),
                    detail: format!("{} on {} ({}), refused {detail}", result.outcome.label(), result.instance, result.source),
                })
                .collect(),
            fix: Some(format!(
                "{set_back}   (or, to run the registry's, allow_registry_commands = true in the worker's job file, then restart it)"
            )),
        });
    }
}

/// `v` as one shell word.
fn shell_quote(v: &str) -> String {
    if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || "/._-:@,+%".contains(c)) {
        v.to_string()
    } else {
        format!("'{}'", v.replace('\'', "'\\''"))
    }
}
