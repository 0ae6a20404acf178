//! `why`'s finding of registry values the workers refused ([`crate::coord::pin`]): they ran their
//! job files' commands, or notified their job files' error handlers, instead; and the fix that
//! sets the registry back.

use std::collections::BTreeMap;

use super::{Condition, Evidence, Finding, Snapshot};
use crate::config::JobConfig;
use crate::config::secrets::mask_urls;
use crate::coord::pin::{self, PinKind};
use crate::registry::codec::result::REFUSED_VALUE_CAP;
use crate::registry::codec::{ItemResult, RefusedValue};
use crate::registry::path::ItemLeaf;

/// The items' last runs used the job file's command or error handler instead of the registry's —
/// unless the registry has been set back to the job file's value since. One finding per worker and refused
/// values, naming every item it concerns (not one per item).
pub(super) fn command_refused(s: &Snapshot<'_>, config: &JobConfig, items: &[u32], out: &mut Vec<Finding>) {
    // (worker, values it refused) → the items and their results.
    type Group<'r> = (&'r str, Vec<&'r RefusedValue>);
    let mut groups: BTreeMap<Group<'_>, Vec<(u32, &ItemResult)>> = BTreeMap::new();
    for &item in items {
        let Some(result) = s.view.items.get(&item).and_then(|st| st.result.as_ref()) else { continue };
        let refused = pin::standing(config, &result.refused);
        if !refused.is_empty() {
            groups.entry((result.instance.as_str(), refused)).or_default().push((item, result));
        }
    }
    let job = s.name();
    for ((instance, refused), results) in groups {
        let detail = pin::detail(&refused);
        // A value cut at the cap may not be the whole value, and one with a token is not shown:
        // the fix cannot spell them.
        let whole = refused
            .iter()
            .all(|r| r.job_file.as_deref().is_none_or(|v| v.len() < REFUSED_VALUE_CAP - 4 && mask_urls(v) == v));
        let set_back = if whole {
            let assignments: Vec<String> =
                refused.iter().map(|r| pin::set_back(&r.prop, r.job_file.as_deref(), shell_quote)).collect();
            format!("ejctl config set {job} {}", assignments.join(" "))
        } else {
            format!("ejctl config edit {job}   (set the refused properties back to the job file's values)")
        };
        let kinds: Vec<PinKind> = [PinKind::Command, PinKind::ErrorHandler]
            .into_iter()
            .filter(|k| refused.iter().any(|r| PinKind::of(&r.prop) == *k))
            .collect();
        let switches: Vec<String> = kinds.iter().map(|k| format!("{} = true", k.switch())).collect();
        let (used, verb) = match kinds.as_slice() {
            [PinKind::Command] => ("ran its job file's command", "run"),
            [PinKind::ErrorHandler] => ("notified its job file's error handler", "notify"),
            _ => ("used its job file's command and error handler", "use"),
        };
        let allow = format!("to {verb} the registry's, {}", switches.join(" and "));
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
                "the worker {instance} {used} for {which}, not the registry's, which it refuses: {detail}"
            ),
            evidence: results
                .iter()
                .map(|(item, result)| Evidence {
                    node: s.paths.item_leaf(*item, ItemLeaf::Result),
                    at: result.ended(),
                    detail: format!(
                        "{} on {} ({}), refused {detail}",
                        result.outcome.label(),
                        result.instance,
                        result.source
                    ),
                })
                .collect(),
            fix: Some(format!("{set_back}   (or, {allow} in the worker's job file, then restart it)")),
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
