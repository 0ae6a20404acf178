//! Bounded decoding of the YAML the registry holds (job configurations, instance YAML, preserved
//! entries): a linear-time pre-scan refuses, before the YAML parser sees it, any text whose
//! parse could take long or expand into a large value.
//!
//! Anyone who can write a node of the namespace controls that text. Without the pre-scan, flow
//! nesting costs the parser time quadratic in the depth (100,000 `[` took ~90 s of CPU before
//! the parser's recursion limit refused it) and an alias-amplified node (a 100 KB string
//! referenced 8,000 times) expands to gigabytes. A refused text is a node that does not decode,
//! with a reason naming the limit; callers handle it as any other undecodable node.
//!
//! The scan over-estimates on purpose: a real configuration (a few dozen keys, nesting of 4 or
//! less, no anchors) is far inside every limit, while a quoted string of 64 unmatched `[` or
//! dozens of `*word` tokens would be refused although the parser would read it cheaply.

use std::collections::HashMap;

use serde::de::DeserializeOwned;

use super::CodecError;

/// The largest node text decoded: 128 KiB.
///
/// ZooKeeper's default `jute.maxbuffer` (1 MiB) is the most a node can hold; ElasticJob's
/// configurations are under 4 KiB and instance YAML under 1 KiB, so an eighth of what ZooKeeper
/// allows leaves room for large `jobParameter`/`props` values. The parse time grows with the
/// nodes the text holds, at most one per 2 bytes (`- - - ...`, `[1,1,1,...]`): 256 KiB of them
/// took 52 ms of CPU to decode for `job show`, twice that for a configuration whose unmodelled
/// entries are decoded again (`benches/yaml.rs`).
pub const MAX_NODE_BYTES: usize = 128 * 1024;

/// The deepest nesting decoded: 64 levels (block nesting estimated from indentation and `- `
/// markers, plus flow nesting of `[`/`{`). Real configurations nest 4 levels or less.
pub const MAX_DEPTH: usize = 64;

/// The most `[`/`{` characters in a node text, wherever they are (scalars and comments
/// included): 1,024. The parser's cost is quadratic in the real flow depth, which can never
/// exceed this count, so it bounds the worst case even where quoted brackets hide nesting from
/// the depth estimate.
pub const MAX_FLOW_OPENERS: usize = 1024;

/// The most alias references (`*name`) in a node text: 100. ElasticJob never writes anchors or
/// aliases.
pub const MAX_ALIASES: usize = 100;

/// The most a text may expand to once its aliases are replaced by what they reference: 512 KiB
/// (1 MiB of `[1,1,...]` expanded took 45 ms of CPU to decode and convert for `job show`).
/// An anchored node is taken to run from its anchor to the next line indented no deeper than
/// the anchor's line, sequence entries at a key's indentation excepted (to the alias, while it
/// has not ended), aliases inside it expanded: an over-estimate.
pub const MAX_EXPANDED_BYTES: usize = 512 * 1024;

/// Checks `text` against the limits above in one linear pass; the reason names the limit
/// exceeded.
///
/// # Errors
/// When the text is larger, nests deeper, holds more flow openers or more aliases, or could
/// expand to more than the limits allow.
pub fn check(text: &str) -> Result<(), String> {
    if text.len() > MAX_NODE_BYTES {
        return Err(format!("is {} bytes, larger than the limit of {MAX_NODE_BYTES} bytes", text.len()));
    }
    let mut scan = Scan::default();
    for line in text.split(['\n', '\r']) {
        scan.line(line)?;
    }
    Ok(())
}

/// Decodes registry YAML after [`check`]; `what` names the node in the error.
///
/// # Errors
/// When the text exceeds a limit of [`check`] or does not decode as `T`.
pub fn from_str<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, CodecError> {
    check(text).map_err(|reason| CodecError::new(what, reason))?;
    serde_yaml_ng::from_str(text).map_err(|e| CodecError::new(what, format!("not valid YAML: {e}")))
}

/// Decodes registry YAML into a generic value after [`check`] (for views that show a node's
/// YAML as it is); `what` names the node in the error.
///
/// # Errors
/// As [`from_str`].
pub fn value(text: &str, what: &str) -> Result<serde_yaml_ng::Value, CodecError> {
    from_str(text, what)
}

/// Where an anchored node began (`expanded` then) and, once it ended, its expanded size.
struct Anchor {
    start: usize,
    size: Option<usize>,
}

/// An anchor whose node may not have ended yet.
struct OpenAnchor {
    /// The indentation of the anchor's line.
    indent: usize,
    /// The anchor's line is a sequence entry (`- ...`).
    entry: bool,
    name: String,
}

impl OpenAnchor {
    /// Whether a line of `indent` (a sequence entry if `entry`) ends the anchored node: a line
    /// indented less does, and one indented as much unless it is an entry of the sequence the
    /// anchored key holds (`key: &a` then `- item` lines at the key's indentation).
    fn ended_by(&self, indent: usize, entry: bool) -> bool {
        indent < self.indent || (indent == self.indent && (self.entry || !entry))
    }
}

/// The line's content (after its indentation) opens a sequence entry.
fn is_entry(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

#[derive(Default)]
struct Scan {
    /// Indentations of the open block levels, innermost last.
    indents: Vec<usize>,
    flow: usize,
    openers: usize,
    aliases: usize,
    /// Bytes seen so far, with every alias counted at its estimated expansion.
    expanded: usize,
    /// Anchor names with the expanded size of their node (an upper bound) once it ended.
    anchors: HashMap<String, Anchor>,
    /// Anchors whose node may still be open, innermost last.
    open: Vec<OpenAnchor>,
}

impl Scan {
    fn line(&mut self, line: &str) -> Result<(), String> {
        self.block(line)?;
        let bytes = line.as_bytes();
        let mut prev = b' ';
        for (i, &c) in bytes.iter().enumerate() {
            self.expanded += 1;
            let token_start = matches!(prev, b' ' | b'\t' | b'[' | b'{' | b',');
            match c {
                b'[' | b'{' => {
                    self.openers += 1;
                    self.flow += 1;
                    if self.openers > MAX_FLOW_OPENERS {
                        return Err(format!("holds more than {MAX_FLOW_OPENERS} '[' or '{{'"));
                    }
                    if self.flow + 2 * self.indents.len() > MAX_DEPTH {
                        return Err(format!("nests deeper than {MAX_DEPTH} levels"));
                    }
                }
                b']' | b'}' => self.flow = self.flow.saturating_sub(1),
                b'&' if token_start => {
                    let name = name_at(&line[i + 1..]);
                    if !name.is_empty() {
                        self.anchors.insert(name.to_string(), Anchor { start: self.expanded, size: None });
                        let indent = self.indents.last().copied().unwrap_or(0);
                        let entry = is_entry(line.trim_start_matches(' '));
                        self.open.push(OpenAnchor { indent, entry, name: name.to_string() });
                    }
                }
                b'*' if token_start => {
                    let name = name_at(&line[i + 1..]);
                    if !name.is_empty() {
                        self.alias(name)?;
                    }
                }
                _ => {}
            }
            prev = c;
        }
        self.expanded += 1;
        Ok(())
    }

    /// Block nesting: each open indentation level may hold a mapping and, at the same
    /// indentation, a sequence (hence two levels per indentation), plus the `- ` / `? ` markers
    /// that open the line.
    fn block(&mut self, line: &str) -> Result<(), String> {
        let content = line.trim_start_matches(' ');
        if content.is_empty() || content.starts_with('#') {
            return Ok(());
        }
        let indent = line.len() - content.len();
        // A block node anchored on a line ends before the next line indented as little as it
        // (the entries of a sequence the anchored key holds excepted).
        let entry = is_entry(content);
        while self.flow == 0 && self.open.last().is_some_and(|open| open.ended_by(indent, entry)) {
            if let Some(open) = self.open.pop()
                && let Some(anchor) = self.anchors.get_mut(&open.name)
                && anchor.size.is_none()
            {
                anchor.size = Some(self.expanded.saturating_sub(anchor.start));
            }
        }
        while self.indents.last().is_some_and(|&top| top >= indent) {
            self.indents.pop();
        }
        self.indents.push(indent);
        let mut markers = 0;
        let mut rest = content;
        while let Some(r) = rest.strip_prefix("- ").or_else(|| rest.strip_prefix("? ")) {
            markers += 1;
            rest = r.trim_start_matches(' ');
        }
        if 2 * self.indents.len() + markers + self.flow > MAX_DEPTH {
            return Err(format!("nests deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    fn alias(&mut self, name: &str) -> Result<(), String> {
        self.aliases += 1;
        if self.aliases > MAX_ALIASES {
            return Err(format!("holds more than {MAX_ALIASES} aliases"));
        }
        if let Some(anchor) = self.anchors.get(name) {
            let size = anchor.size.unwrap_or_else(|| self.expanded.saturating_sub(anchor.start));
            self.expanded = self.expanded.saturating_add(size);
        }
        if self.expanded > MAX_EXPANDED_BYTES {
            return Err(format!("could expand to more than {MAX_EXPANDED_BYTES} bytes through aliases"));
        }
        Ok(())
    }
}

/// The anchor or alias name at the start of `s` (up to a space or flow indicator).
fn name_at(s: &str) -> &str {
    let end = s.find([' ', '\t', ',', '[', ']', '{', '}']).unwrap_or(s.len());
    &s[..end]
}

#[cfg(test)]
#[path = "bounded_tests.rs"]
mod tests;
