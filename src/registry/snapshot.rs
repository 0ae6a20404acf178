//! ElasticJob's dump text (docs/src/design/compatibility.md#dump): the `path | value` line format
//! and IP masking.
//!
//! Shared by `ejctl dump -o plain` and the worker's dump port, so both print what a Java
//! worker's `SnapshotService` prints.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::Regex;

/// ElasticJob's `SensitiveInfoUtils.IP_REGEX`.
static IPV4: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"((25[0-5]|2[0-4]\d|((1\d{2})|([1-9]?\d)))\.){3}(25[0-5]|2[0-4]\d|((1\d{2})|([1-9]?\d)))").ok()
});

/// Replaces IPv4 addresses with `ip1`, `ip2`, ... in order of first appearance; the same address
/// always gets the same name. A disabled masker returns its input.
pub struct IpMasker {
    enabled: bool,
    names: BTreeMap<String, String>,
}

impl IpMasker {
    /// A masker; `enabled = false` leaves text alone.
    pub fn new(enabled: bool) -> IpMasker {
        IpMasker { enabled, names: BTreeMap::new() }
    }

    /// Masks one piece of text.
    pub fn mask(&mut self, text: &str) -> String {
        let Some(re) = IPV4.as_ref().filter(|_| self.enabled) else {
            return text.to_string();
        };
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for m in re.find_iter(text) {
            out.push_str(&text[last..m.start()]);
            let next = self.names.len() + 1;
            let name = self.names.entry(m.as_str().to_string()).or_insert_with(|| format!("ip{next}"));
            out.push_str(name);
            last = m.end();
        }
        out.push_str(&text[last..]);
        out
    }
}

/// One line of ElasticJob's dump: `path | value`, or `path | value | cachePath | cacheValue` when
/// the worker's cache disagrees with the registry.
pub fn dump_line(path: &str, value: &str, cache: Option<(&str, &str)>) -> String {
    match cache {
        Some((cache_path, cache_value)) => format!("{path} | {value} | {cache_path} | {cache_value}"),
        None => format!("{path} | {value}"),
    }
}

/// The job a dump port request line names: `dump@{job}` (a trailing CR/LF allowed); `None` for
/// anything else, which the dump port answers by closing the connection.
pub fn parse_dump_request(line: &str) -> Option<&str> {
    let line = line.trim_end_matches(['\r', '\n']);
    let job = line.strip_prefix("dump@")?;
    (!job.contains('@')).then_some(job)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As ElasticJob's `SensitiveInfoUtilsTest` has it.
    #[test]
    fn masking_vectors() {
        let input = [
            "/simpleElasticDemoJob/servers/127.0.0.1",
            "/simpleElasticDemoJob/servers/192.168.0.1/hostName | 192.168.0.1",
            "/simpleElasticDemoJob/servers/192.168.0.11",
            "/simpleElasticDemoJob/servers/192.168.0.111",
        ];
        let expected = [
            "/simpleElasticDemoJob/servers/ip1",
            "/simpleElasticDemoJob/servers/ip2/hostName | ip2",
            "/simpleElasticDemoJob/servers/ip3",
            "/simpleElasticDemoJob/servers/ip4",
        ];
        let mut masker = IpMasker::new(true);
        let got: Vec<String> = input.iter().map(|l| masker.mask(l)).collect();
        assert_eq!(got, expected);
        assert_eq!(masker.mask("no address here"), "no address here");
        assert_eq!(IpMasker::new(false).mask(input[0]), input[0]);
    }

    #[test]
    fn masking_keeps_longer_addresses_apart() {
        let mut masker = IpMasker::new(true);
        assert_eq!(masker.mask("10.0.0.1 10.0.0.12 10.0.0.1@-@7"), "ip1 ip2 ip1@-@7");
    }
}
