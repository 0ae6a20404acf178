//! Parsing of `shardingItemParameters` (`0=Beijing,1=Shanghai`), exactly as ElasticJob's
//! `ShardingItemParameters` does it (docs/src/design/compatibility.md#item-parameters).
//!
//! This module owns the string → `{item: parameter}` mapping and its two error messages. It
//! reproduces the Java library calls the original relies on: `String.split` (trailing empty
//! strings dropped, interior and leading ones kept), `String.trim` (strips every char
//! `<= U+0020`, not Unicode whitespace) and `Integer.parseInt` (optional `+`/`-`, digits, `i32`
//! range). It does not filter keys against `shardingTotalCount`: keys that are negative or
//! beyond the total are kept here and simply never looked up.

use std::collections::BTreeMap;

/// Why a `shardingItemParameters` string was rejected. The messages are ElasticJob's
/// `JobConfigurationException` texts.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ItemParamsError {
    /// A comma-separated part is not exactly one `key=value` pair (empty part, missing or empty
    /// value, more than one `=`).
    #[error("Sharding item parameters '{input}' format error, should be int=xx,int=xx")]
    Format {
        /// The whole parameter string, as given.
        input: String,
    },
    /// The key of a pair is not a Java `int`.
    #[error("Sharding item parameters key '{key}' is not an integer.")]
    KeyNotInteger {
        /// The key as ElasticJob reports it: after trimming the part, before trimming the key
        /// itself (so `" x =a"` reports `'x '`).
        key: String,
    },
}

/// Parses `shardingItemParameters` into item → parameter. Later duplicates win; the empty
/// string gives an empty map.
///
/// ```
/// # use ejctl::coord::params::parse_item_parameters;
/// let map = parse_item_parameters("0=Beijing, 1 = Shanghai ,").unwrap();
/// assert_eq!(map[&0], "Beijing");
/// assert_eq!(map[&1], "Shanghai");
/// ```
///
/// Key parsing accepts ASCII digits only. Java's `Integer.parseInt` also accepts other Unicode
/// decimal digits (`٣`); ejctl rejects them with the key error.
///
/// # Errors
///
/// [`ItemParamsError::Format`] when a part is not one `key=value` pair (`"0=A,,1=B"`, `"0="`,
/// `"0=a=b"`, `"xxx-xxx"`), [`ItemParamsError::KeyNotInteger`] when a key is not an `i32`
/// (`"=a"`, `"xxx=xxx"`).
pub fn parse_item_parameters(s: &str) -> Result<BTreeMap<i32, String>, ItemParamsError> {
    let mut result = BTreeMap::new();
    if s.is_empty() {
        return Ok(result);
    }
    for part in java_split(s, ',') {
        let pair = java_split(java_trim(part), '=');
        let [key, value] = pair.as_slice() else {
            return Err(ItemParamsError::Format { input: s.to_owned() });
        };
        let item =
            java_trim(key).parse::<i32>().map_err(|_| ItemParamsError::KeyNotInteger { key: (*key).to_owned() })?;
        result.insert(item, java_trim(value).to_owned());
    }
    Ok(result)
}

/// Java's `String.split` with a one-character literal separator and limit 0: no separator gives
/// the whole string (even when empty); otherwise trailing empty strings are removed.
fn java_split(s: &str, sep: char) -> Vec<&str> {
    if !s.contains(sep) {
        return vec![s];
    }
    let mut parts: Vec<&str> = s.split(sep).collect();
    while parts.last().is_some_and(|p| p.is_empty()) {
        parts.pop();
    }
    parts
}

/// Java's `String.trim`: strips every char `<= ' '` (ASCII controls and space) from both ends.
fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(i32, &str)]) -> BTreeMap<i32, String> {
        pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
    }

    fn format_err(s: &str) -> ItemParamsError {
        ItemParamsError::Format { input: s.to_owned() }
    }

    fn key_err(k: &str) -> ItemParamsError {
        ItemParamsError::KeyNotInteger { key: k.to_owned() }
    }

    // ShardingItemParametersTest

    #[test]
    fn format_error_without_equals() {
        let err = parse_item_parameters("xxx-xxx").unwrap_err();
        assert_eq!(err, format_err("xxx-xxx"));
        assert_eq!(err.to_string(), "Sharding item parameters 'xxx-xxx' format error, should be int=xx,int=xx");
    }

    #[test]
    fn key_not_integer() {
        let err = parse_item_parameters("xxx=xxx").unwrap_err();
        assert_eq!(err, key_err("xxx"));
        assert_eq!(err.to_string(), "Sharding item parameters key 'xxx' is not an integer.");
    }

    #[test]
    fn empty_string_is_empty_map() {
        assert_eq!(parse_item_parameters(""), Ok(BTreeMap::new()));
    }

    #[test]
    fn three_items() {
        assert_eq!(parse_item_parameters("0=A,1=B,2=C"), Ok(map(&[(0, "A"), (1, "B"), (2, "C")])));
    }

    // docs/src/design/compatibility.md#item-parameters: consequences

    #[test]
    fn trailing_comma_is_dropped() {
        assert_eq!(parse_item_parameters("0=A,1=B,"), Ok(map(&[(0, "A"), (1, "B")])));
        assert_eq!(parse_item_parameters("0=A,1=B,,,"), Ok(map(&[(0, "A"), (1, "B")])));
    }

    #[test]
    fn interior_empty_part_is_an_error() {
        assert_eq!(parse_item_parameters("0=A,,1=B"), Err(format_err("0=A,,1=B")));
    }

    #[test]
    fn leading_empty_part_is_an_error() {
        assert_eq!(parse_item_parameters(",0=A"), Err(format_err(",0=A")));
    }

    #[test]
    fn only_commas_is_empty_map() {
        // Java: ",,".split(",") is an empty array.
        assert_eq!(parse_item_parameters(",,"), Ok(BTreeMap::new()));
    }

    #[test]
    fn blank_part_is_an_error() {
        assert_eq!(parse_item_parameters("0=A, ,1=B"), Err(format_err("0=A, ,1=B")));
        assert_eq!(parse_item_parameters("  "), Err(format_err("  ")));
    }

    #[test]
    fn empty_value_is_an_error() {
        assert_eq!(parse_item_parameters("0="), Err(format_err("0=")));
        assert_eq!(parse_item_parameters("0=A,1=="), Err(format_err("0=A,1==")));
    }

    #[test]
    fn two_equals_is_an_error() {
        assert_eq!(parse_item_parameters("0=a=b"), Err(format_err("0=a=b")));
    }

    #[test]
    fn empty_key_is_a_key_error() {
        assert_eq!(parse_item_parameters("=a"), Err(key_err("")));
    }

    #[test]
    fn signed_keys_are_accepted() {
        assert_eq!(parse_item_parameters("-1=x"), Ok(map(&[(-1, "x")])));
        assert_eq!(parse_item_parameters("+1=x"), Ok(map(&[(1, "x")])));
    }

    #[test]
    fn bad_signs_and_range() {
        assert_eq!(parse_item_parameters("+=x"), Err(key_err("+")));
        assert_eq!(parse_item_parameters("-=x"), Err(key_err("-")));
        assert_eq!(parse_item_parameters("+-1=x"), Err(key_err("+-1")));
        assert_eq!(parse_item_parameters("1 2=x"), Err(key_err("1 2")));
        assert_eq!(parse_item_parameters("0x1=x"), Err(key_err("0x1")));
        assert_eq!(parse_item_parameters("2147483647=x,-2147483648=y"), Ok(map(&[(i32::MIN, "y"), (i32::MAX, "x")])));
        assert_eq!(parse_item_parameters("2147483648=x"), Err(key_err("2147483648")));
        // Non-ASCII digits are rejected (Java would accept them; see the doc comment).
        assert_eq!(parse_item_parameters("٣=x"), Err(key_err("٣")));
    }

    #[test]
    fn later_duplicates_win() {
        assert_eq!(parse_item_parameters("0=A,1=B,0=C"), Ok(map(&[(0, "C"), (1, "B")])));
    }

    #[test]
    fn whitespace_is_trimmed() {
        assert_eq!(
            parse_item_parameters(" 0 = Beijing , 1=\tShanghai\n,2 =Guang zhou "),
            Ok(map(&[(0, "Beijing"), (1, "Shanghai"), (2, "Guang zhou")]))
        );
    }

    #[test]
    fn key_error_reports_key_before_its_own_trim() {
        // The part is trimmed first, then split; the reported key keeps the space before '='.
        assert_eq!(parse_item_parameters("  x =a"), Err(key_err("x ")));
    }

    #[test]
    fn trim_is_java_trim_not_unicode() {
        // U+3000 (ideographic space) is not <= ' ', so Java keeps it.
        assert_eq!(parse_item_parameters("0=\u{3000}A"), Ok(map(&[(0, "\u{3000}A")])));
        // Control characters are <= ' ', so Java strips them.
        assert_eq!(parse_item_parameters("\u{1}0=A\u{7}"), Ok(map(&[(0, "A")])));
    }

    #[test]
    fn values_keep_non_ascii() {
        assert_eq!(parse_item_parameters("0=北京,1=上海"), Ok(map(&[(0, "北京"), (1, "上海")])));
    }
}
