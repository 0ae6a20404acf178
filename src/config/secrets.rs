//! The secrets a job's configuration can hold, and how every output that shows a configuration
//! masks them: `dump` (and a worker's dump port and `/dump/{job}`), `job show`, `config get`, and
//! the logs of notification sends. The command line shows them with `--show-secrets`; a worker's
//! endpoints never do, since anyone on the machine can ask them.
//!
//! * Properties that are secrets whole: [`SECRET_PROPS`] (the e-mail handler's password, the
//!   DingTalk signing secret).
//! * URLs that carry tokens: in any value, a URL's password and the values of the query parameters
//!   named in [`SECRET_QUERY`] (`access_token`, `key`, `sign`, ...): the DingTalk and WeChat
//!   webhooks put their tokens there.
//!
//! A masked value keeps its shape: `****` for a whole value, `access_token=****` in a URL, so an
//! operator still sees which property is set and where a webhook points.

use super::props::Props;

/// Properties whose whole value is a secret.
pub const SECRET_PROPS: &[&str] = &["email.password", "dingtalk.secret"];

/// Query parameters whose values are secrets, in any URL of a configuration or a log line.
pub const SECRET_QUERY: &[&str] = &["access_token", "key", "sign", "secret", "token", "password"];

/// What a masked value shows.
pub const MASK: &str = "****";

/// `value` of property `prop` as outputs show it: [`MASK`] for a secret property, the tokens of
/// any URL in it masked otherwise.
pub fn mask_prop(prop: &str, value: &str) -> String {
    if SECRET_PROPS.contains(&prop) && !value.is_empty() { MASK.to_string() } else { mask_urls(value) }
}

/// `text` with the password and the secret query values of every `http://` or `https://` URL
/// in it masked.
pub fn mask_urls(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = find_url(rest) {
        out.push_str(&rest[..at]);
        let url = &rest[at..];
        let end = url.find(|c: char| c.is_whitespace() || "\"'<>".contains(c)).unwrap_or(url.len());
        out.push_str(&mask_url(&url[..end]));
        rest = &url[end..];
    }
    out.push_str(rest);
    out
}

/// Where the next `http://` or `https://` starts.
fn find_url(text: &str) -> Option<usize> {
    let lower = text.to_ascii_lowercase();
    [lower.find("http://"), lower.find("https://")].into_iter().flatten().min()
}

/// One URL with its user's password and its secret query values masked.
fn mask_url(url: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((base, query)) => (base, Some(query)),
        None => (url, None),
    };
    let mut out = mask_userinfo(base);
    if let Some(query) = query {
        out.push('?');
        let params: Vec<String> = query
            .split('&')
            .map(|param| match param.split_once('=') {
                Some((name, value)) if !value.is_empty() && is_secret_param(name) => format!("{name}={MASK}"),
                _ => param.to_string(),
            })
            .collect();
        out.push_str(&params.join("&"));
    }
    out
}

fn is_secret_param(name: &str) -> bool {
    SECRET_QUERY.iter().any(|s| s.eq_ignore_ascii_case(name))
}

/// `scheme://user:password@host/...` with the password masked.
fn mask_userinfo(base: &str) -> String {
    let Some((scheme, rest)) = base.split_once("://") else { return base.to_string() };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:{MASK}@{host}{path}"),
            None => base.to_string(),
        },
        None => base.to_string(),
    }
}

/// `props` as outputs show them ([`mask_prop`] of each).
pub fn mask_props(props: &Props) -> Props {
    let mut out = Props::new();
    for (k, v) in props.iter() {
        out.insert(k.clone(), mask_prop(k, v));
    }
    out
}

/// A configuration's YAML as outputs show it: each `key: value` line of a secret property has
/// its value masked, and every URL its tokens. Line by line, so the text keeps its layout
/// (ElasticJob and ejctl write one property per line); a value that cannot be read as such a line
/// is masked as text.
pub fn mask_yaml(text: &str) -> String {
    let masked: Vec<String> = text
        .split('\n')
        .map(|line| {
            let trimmed = line.trim_start();
            let key_end = trimmed.find(':');
            match key_end {
                Some(end) => {
                    let key = trimmed[..end].trim().trim_matches(|c| c == '\'' || c == '"');
                    if SECRET_PROPS.contains(&key) && !trimmed[end + 1..].trim().is_empty() {
                        let indent = &line[..line.len() - trimmed.len()];
                        return format!("{indent}{}: '{MASK}'", &trimmed[..end]);
                    }
                    mask_urls(line)
                }
                None => mask_urls(line),
            }
        })
        .collect();
    masked.join("\n")
}

/// A configuration document (`config get`, `job show`) with its `props` masked: every string
/// value under a `props` mapping, at any depth.
pub fn mask_document(doc: &mut serde_json::Value) {
    match doc {
        serde_json::Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("props", serde_json::Value::Object(props)) => {
                        for (prop, v) in props.iter_mut() {
                            if let serde_json::Value::String(s) = v {
                                *s = mask_prop(prop, s);
                            }
                        }
                    }
                    (_, other) => mask_document(other),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(mask_document),
        serde_json::Value::String(s) => *s = mask_urls(s),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_properties_are_masked_whole_and_urls_keep_their_shape() {
        assert_eq!(mask_prop("email.password", "hunter2"), MASK);
        assert_eq!(mask_prop("email.password", ""), "");
        assert_eq!(mask_prop("email.username", "ops"), "ops");
        assert_eq!(
            mask_prop("dingtalk.webhook", "https://oapi.dingtalk.com/robot/send?access_token=abc&x=1"),
            "https://oapi.dingtalk.com/robot/send?access_token=****&x=1"
        );
        assert_eq!(
            mask_urls(
                "POST https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k1 failed: 403; again http://u:pw@h:8/p?Sign=s&timestamp=9"
            ),
            "POST https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=**** failed: 403; again http://u:****@h:8/p?Sign=****&timestamp=9"
        );
        assert_eq!(mask_urls("no url here"), "no url here");
    }

    #[test]
    fn a_config_text_keeps_its_layout() {
        let yaml = "jobName: etl\nprops:\n  email.password: hunter2\n  dingtalk.secret: 'SEC1'\n  dingtalk.webhook: https://x/send?access_token=t\n  email.host: smtp\n";
        assert_eq!(
            mask_yaml(yaml),
            "jobName: etl\nprops:\n  email.password: '****'\n  dingtalk.secret: '****'\n  dingtalk.webhook: https://x/send?access_token=****\n  email.host: smtp\n"
        );
    }

    #[test]
    fn a_document_masks_its_props_at_any_depth() {
        let mut doc = serde_json::json!({"job": {"config": {"props": {"email.password": "p", "email.host": "h"}, "jobName": "etl"}}});
        mask_document(&mut doc);
        assert_eq!(doc["job"]["config"]["props"]["email.password"], MASK);
        assert_eq!(doc["job"]["config"]["props"]["email.host"], "h");
    }
}
