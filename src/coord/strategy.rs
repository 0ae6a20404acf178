//! ElasticJob's four sharding strategies, as pure functions
//! (docs/src/design/compatibility.md#sharding-strategies).
//!
//! This module owns the mapping "live instances + total item count → items per instance" and the
//! Java arithmetic it depends on: `String.hashCode`, `Math.abs` (including `Math.abs(MIN_VALUE)`
//! staying negative), truncating `%`, the `(int) System.currentTimeMillis()` cast, and the order
//! ElasticJob hands the instances to a strategy in. It does no I/O: the caller reads the
//! instances from the registry and writes the result back.
//!
//! Fidelity notes, all covered by tests below:
//!
//! * The result keeps the input (or rotated/reversed) order, like Java's `LinkedHashMap`, and
//!   every instance appears even when it gets no item.
//! * Duplicate instance ids are merged the way `LinkedHashMap.put` merges them (the first
//!   position is kept, the later value wins). Registry children are unique, so this never
//!   happens in production.
//! * Where ElasticJob would throw (`ROUND_ROBIN`/`SINGLE_SHARDING_BALANCE` with a negative
//!   offset from `Math.abs(Integer.MIN_VALUE)`, or `% 0` on an empty instance list) ejctl does
//!   something sane instead; see [`assign`].

use std::fmt;
use std::str::FromStr;

/// Java's `String.hashCode()`: `h = 31 * h + c` over the UTF-16 code units, with 32-bit
/// wrap-around.
///
/// `java_string_hash("test_job") == -1146456432`.
pub fn java_string_hash(s: &str) -> i32 {
    s.encode_utf16().fold(0i32, |h, unit| h.wrapping_mul(31).wrapping_add(i32::from(unit)))
}

/// Sorts instance ids the way ElasticJob's `getChildrenKeys` does before sharding: reverse
/// lexicographic by Java `String.compareTo`, that is, descending by UTF-16 code units (for ASCII
/// ids this is plain descending byte order).
///
/// Production input to [`assign`] is in this order (docs/src/design/compatibility.md#sharding: the
/// available instances are the `instances` children, sorted this way); ElasticJob's own unit tests,
/// and the vectors in this module's tests, pass an ascending list instead.
pub fn sort_instances_like_elasticjob(ids: &mut [String]) {
    ids.sort_by(|a, b| b.encode_utf16().cmp(a.encode_utf16()));
}

/// One of ElasticJob's built-in sharding strategies (`jobShardingStrategyType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Strategy {
    /// `AVG_ALLOCATION` (the default): consecutive blocks of `total / n` items, the remainder
    /// handed out one each to the first instances.
    #[default]
    AverageAllocation,
    /// `ODEVITY`: reverse the instance list when the job name's hash is even, then average.
    Odevity,
    /// `ROUND_ROBIN`: rotate the instance list by `|hash(job name)| % n`, then average.
    RoundRobin,
    /// `SINGLE_SHARDING_BALANCE`: rotate by `|hash(job name) + (int) now_millis| % n`, then
    /// average. Meant for jobs with one item, so that the item moves between instances.
    SingleShardingBalance,
}

impl Strategy {
    /// All strategies, in the order their names are listed in error messages.
    pub const ALL: [Strategy; 4] =
        [Strategy::AverageAllocation, Strategy::Odevity, Strategy::RoundRobin, Strategy::SingleShardingBalance];

    /// The canonical ElasticJob type name, e.g. `AVG_ALLOCATION`. This is what should be written
    /// to the registry.
    pub fn as_str(self) -> &'static str {
        match self {
            Strategy::AverageAllocation => "AVG_ALLOCATION",
            Strategy::Odevity => "ODEVITY",
            Strategy::RoundRobin => "ROUND_ROBIN",
            Strategy::SingleShardingBalance => "SINGLE_SHARDING_BALANCE",
        }
    }

    /// Reads `jobShardingStrategyType` from a job configuration: absent (`null`) or empty means
    /// the default, [`Strategy::AverageAllocation`], as in ElasticJob's
    /// `JobShardingStrategyFactory` (`Strings.isNullOrEmpty`).
    ///
    /// # Errors
    ///
    /// [`UnknownStrategy`] when the name is not one of the four built-in types.
    pub fn from_config(s: Option<&str>) -> Result<Strategy, UnknownStrategy> {
        match s {
            None => Ok(Strategy::default()),
            Some(name) => name.parse(),
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Strategy {
    type Err = UnknownStrategy;

    /// Parses a type name, ignoring ASCII case; the empty string is the default strategy.
    ///
    /// ElasticJob looks the type up by its exact name; ejctl also accepts other cases
    /// (`round_robin`), so callers that write a configuration should write [`Strategy::as_str`]
    /// for Java instances to understand it. Surrounding whitespace is not ignored (Java does not
    /// ignore it either).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() {
            return Ok(Strategy::default());
        }
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownStrategy { name: s.to_owned() })
    }
}

/// A `jobShardingStrategyType` that names no built-in strategy.
///
/// The message starts with ElasticJob's wording and lists the valid names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "Cannot find sharding strategy using type '{name}'. \
     Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, SINGLE_SHARDING_BALANCE"
)]
pub struct UnknownStrategy {
    /// The name as it was given.
    pub name: String,
}

/// Shards `total` items over `instances` with `strategy`, exactly as ElasticJob 3.0.5 does.
///
/// The result is in insertion order (the order the strategy produced, like Java's
/// `LinkedHashMap`), and every input instance appears, possibly with an empty list. Empty input
/// gives an empty vec. `instances` should be in ElasticJob's order
/// ([`sort_instances_like_elasticjob`]) for the result to match a Java leader's.
///
/// `now_millis` (milliseconds since the Unix epoch) is used only by
/// [`Strategy::SingleShardingBalance`], which truncates it to 32 bits like Java's
/// `(int) System.currentTimeMillis()` and adds it to the job name's hash with wrap-around.
///
/// Where ElasticJob throws, this function does not:
///
/// * `ROUND_ROBIN` and `SINGLE_SHARDING_BALANCE` compute `Math.abs(h) % n`, which is negative
///   when `h == i32::MIN` (`Math.abs(Integer.MIN_VALUE)` is negative) and `n` is not a power of
///   two; Java then throws `IndexOutOfBoundsException` (for example the job name
///   `polygenelubricants` with 3 instances). ejctl uses the offset `(offset mod n + n) mod n`
///   instead, i.e. `-2` with 3 instances becomes `1`.
/// * With no instances those two strategies would throw `ArithmeticException` (`% 0`); ejctl
///   returns an empty vec like `AVG_ALLOCATION` does.
pub fn assign(
    strategy: Strategy,
    job_name: &str,
    instances: &[String],
    total: u32,
    now_millis: i64,
) -> Vec<(String, Vec<u32>)> {
    if instances.is_empty() {
        return Vec::new();
    }
    match strategy {
        Strategy::AverageAllocation => average_allocation(instances, total),
        Strategy::Odevity => {
            let mut ordered = instances.to_vec();
            // Java: `long h = hashCode(); if (0 == h % 2) reverse` -- even of either sign.
            if java_string_hash(job_name) % 2 == 0 {
                ordered.reverse();
            }
            average_allocation(&ordered, total)
        }
        Strategy::RoundRobin => {
            let offset = java_abs(java_string_hash(job_name));
            average_allocation(&rotate(instances, offset), total)
        }
        Strategy::SingleShardingBalance => {
            // `(int) System.currentTimeMillis()` keeps the low 32 bits, as `as i32` does.
            let millis = now_millis as i32;
            let offset = java_abs(java_string_hash(job_name).wrapping_add(millis));
            average_allocation(&rotate(instances, offset), total)
        }
    }
}

/// Java's `Math.abs(int)`: `Math.abs(Integer.MIN_VALUE) == Integer.MIN_VALUE`.
fn java_abs(x: i32) -> i32 {
    x.wrapping_abs()
}

/// The rotation of `RotateServerByName` / `SingleShardingBalance`: `offset % n` with Java's
/// truncating remainder, then `rotated[i] = inst[(i + offset) % n]`. A negative remainder (only
/// possible from `Math.abs(Integer.MIN_VALUE)`) is normalised into `0..n` instead of throwing.
fn rotate(instances: &[String], abs_hash: i32) -> Vec<String> {
    let n = instances.len();
    // `n` is at least 1 here. An instance count beyond i64 cannot exist; saturating keeps the
    // arithmetic total without an unwrap.
    let n_i64 = i64::try_from(n).unwrap_or(i64::MAX);
    // i64 `%` truncates toward zero like Java's `%`; `rem_euclid` then maps -2 (mod 3) to 1.
    let java_offset = i64::from(abs_hash) % n_i64;
    let offset = usize::try_from(java_offset.rem_euclid(n_i64)).unwrap_or(0);
    if offset == 0 {
        return instances.to_vec();
    }
    (0..n).map(|i| instances[(i + offset) % n].clone()).collect()
}

/// `AverageAllocationJobShardingStrategy`: blocks of `total / n`, then the remainder items
/// `per * n + c` to the first `total % n` instances. Duplicate ids behave like
/// `LinkedHashMap.put`.
fn average_allocation(instances: &[String], total: u32) -> Vec<(String, Vec<u32>)> {
    let n = instances.len() as u64;
    let per = u64::from(total) / n;
    let rem = u64::from(total) % n;
    let mut result: Vec<(String, Vec<u32>)> = Vec::with_capacity(instances.len());
    for (c, id) in instances.iter().enumerate() {
        let c = c as u64;
        // Every item is below `total`, so the casts to u32 cannot truncate.
        let items: Vec<u32> = (c * per..(c + 1) * per).map(|i| i as u32).collect();
        put(&mut result, id, items);
    }
    for (c, id) in instances.iter().enumerate() {
        let c = c as u64;
        if c < rem {
            let item = (per * n + c) as u32;
            if let Some((_, items)) = result.iter_mut().find(|(key, _)| key == id) {
                items.push(item);
            }
        }
    }
    result
}

/// `LinkedHashMap.put`: replace the value of an existing key in place, else append.
fn put(map: &mut Vec<(String, Vec<u32>)>, key: &str, value: Vec<u32>) {
    match map.iter_mut().find(|(k, _)| k == key) {
        Some((_, existing)) => *existing = value,
        None => map.push((key.to_owned(), value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    fn hosts(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("host{i}@-@0")).collect()
    }

    fn expect(pairs: &[(&str, &[u32])]) -> Vec<(String, Vec<u32>)> {
        pairs.iter().map(|(id, items)| ((*id).to_owned(), items.to_vec())).collect()
    }

    fn run(strategy: Strategy, job: &str, instances: &[String], total: u32) -> Vec<(String, Vec<u32>)> {
        assign(strategy, job, instances, total, 0)
    }

    // ----- java_string_hash -----

    #[test]
    fn hash_vectors() {
        assert_eq!(java_string_hash("test_job"), -1_146_456_432);
        assert_eq!(java_string_hash("myJob"), 104_343_153);
        assert_eq!(java_string_hash("javaSimpleJob"), -694_093_655);
        assert_eq!(java_string_hash("JobName"), 226_556_872);
        assert_eq!(java_string_hash("a"), 97);
        assert_eq!(java_string_hash("0"), 48);
        assert_eq!(java_string_hash("1"), 49);
        assert_eq!(java_string_hash("2"), 50);
        assert_eq!(java_string_hash("3"), 51);
        assert_eq!(java_string_hash(""), 0);
        assert_eq!(java_string_hash("polygenelubricants"), i32::MIN);
    }

    #[test]
    fn hash_uses_utf16_code_units() {
        // "北" is U+5317; "😀" is the surrogate pair D83D DE00.
        assert_eq!(java_string_hash("北"), 0x5317);
        assert_eq!(java_string_hash("😀"), 0xD83D * 31 + 0xDE00);
    }

    // ----- AVG_ALLOCATION (AverageAllocationJobShardingStrategyTest) -----

    #[test]
    fn avg_zero_servers() {
        assert!(run(Strategy::AverageAllocation, "test_job", &[], 3).is_empty());
    }

    #[test]
    fn avg_one_server() {
        let got = run(Strategy::AverageAllocation, "test_job", &ids(&["host0@-@0"]), 3);
        assert_eq!(got, expect(&[("host0@-@0", &[0, 1, 2])]));
    }

    #[test]
    fn avg_servers_more_than_sharding_count() {
        let got = run(Strategy::AverageAllocation, "test_job", &hosts(3), 2);
        assert_eq!(got, expect(&[("host0@-@0", &[0]), ("host1@-@0", &[1]), ("host2@-@0", &[])]));
    }

    #[test]
    fn avg_aliquot() {
        let got = run(Strategy::AverageAllocation, "test_job", &hosts(3), 9);
        assert_eq!(got, expect(&[("host0@-@0", &[0, 1, 2]), ("host1@-@0", &[3, 4, 5]), ("host2@-@0", &[6, 7, 8])]));
    }

    #[test]
    fn avg_aliquant_8_over_3() {
        let got = run(Strategy::AverageAllocation, "test_job", &hosts(3), 8);
        assert_eq!(got, expect(&[("host0@-@0", &[0, 1, 6]), ("host1@-@0", &[2, 3, 7]), ("host2@-@0", &[4, 5])]));
    }

    #[test]
    fn avg_aliquant_10_over_3() {
        let got = run(Strategy::AverageAllocation, "test_job", &hosts(3), 10);
        assert_eq!(got, expect(&[("host0@-@0", &[0, 1, 2, 9]), ("host1@-@0", &[3, 4, 5]), ("host2@-@0", &[6, 7, 8])]));
    }

    #[test]
    fn avg_four_instances_ten_items() {
        let got = run(Strategy::AverageAllocation, "test_job", &ids(&["a", "b", "c", "d"]), 10);
        assert_eq!(got, expect(&[("a", &[0, 1, 8]), ("b", &[2, 3, 9]), ("c", &[4, 5]), ("d", &[6, 7])]));
    }

    #[test]
    fn avg_zero_items_keeps_every_instance() {
        let got = run(Strategy::AverageAllocation, "test_job", &hosts(2), 0);
        assert_eq!(got, expect(&[("host0@-@0", &[]), ("host1@-@0", &[])]));
    }

    #[test]
    fn avg_duplicate_ids_behave_like_linked_hash_map() {
        // put(a,[0]), put(b,[1]), put(a,[2]) -> a keeps its first position with [2]; the
        // remainder item 3 goes to inst[0] == a.
        let got = run(Strategy::AverageAllocation, "j", &ids(&["a", "b", "a"]), 4);
        assert_eq!(got, expect(&[("a", &[2, 3]), ("b", &[1])]));
    }

    // ----- ODEVITY (OdevitySortByNameJobShardingStrategyTest) -----

    #[test]
    fn odevity_odd_hash_keeps_order() {
        let got = run(Strategy::Odevity, "1", &hosts(3), 2);
        assert_eq!(got, expect(&[("host0@-@0", &[0]), ("host1@-@0", &[1]), ("host2@-@0", &[])]));
    }

    #[test]
    fn odevity_even_hash_reverses() {
        let got = run(Strategy::Odevity, "0", &hosts(3), 2);
        assert_eq!(got, expect(&[("host2@-@0", &[0]), ("host1@-@0", &[1]), ("host0@-@0", &[])]));
    }

    #[test]
    fn odevity_negative_even_hash_reverses() {
        // "test_job" hashes to -1146456432, even.
        let got = run(Strategy::Odevity, "test_job", &hosts(3), 5);
        assert_eq!(got, expect(&[("host2@-@0", &[0, 3]), ("host1@-@0", &[1, 4]), ("host0@-@0", &[2])]));
    }

    #[test]
    fn odevity_negative_odd_hash_keeps_order() {
        // "javaSimpleJob" hashes to -694093655, odd (Java -694093655 % 2 == -1).
        let got = run(Strategy::Odevity, "javaSimpleJob", &hosts(2), 2);
        assert_eq!(got, expect(&[("host0@-@0", &[0]), ("host1@-@0", &[1])]));
    }

    // ----- ROUND_ROBIN (RotateServerByNameJobShardingStrategyTest) -----

    #[test]
    fn round_robin_offset_1() {
        let got = run(Strategy::RoundRobin, "1", &hosts(3), 2);
        assert_eq!(got, expect(&[("host1@-@0", &[0]), ("host2@-@0", &[1]), ("host0@-@0", &[])]));
    }

    #[test]
    fn round_robin_offset_2() {
        let got = run(Strategy::RoundRobin, "2", &hosts(3), 2);
        assert_eq!(got, expect(&[("host2@-@0", &[0]), ("host0@-@0", &[1]), ("host1@-@0", &[])]));
    }

    #[test]
    fn round_robin_offset_0() {
        let got = run(Strategy::RoundRobin, "3", &hosts(3), 2);
        assert_eq!(got, expect(&[("host0@-@0", &[0]), ("host1@-@0", &[1]), ("host2@-@0", &[])]));
    }

    #[test]
    fn round_robin_test_job_five_items() {
        // |-1146456432| % 3 == 0: no rotation.
        let got = run(Strategy::RoundRobin, "test_job", &hosts(3), 5);
        assert_eq!(got, expect(&[("host0@-@0", &[0, 3]), ("host1@-@0", &[1, 4]), ("host2@-@0", &[2])]));
    }

    #[test]
    fn round_robin_min_value_hash_does_not_panic() {
        // Java: Math.abs(MIN_VALUE) % 3 == -2 and get(-2) throws IndexOutOfBoundsException.
        // ejctl normalises -2 to 1 (mod 3).
        assert_eq!(java_abs(i32::MIN), i32::MIN);
        assert_eq!(i32::MIN % 3, -2);
        let got = run(Strategy::RoundRobin, "polygenelubricants", &hosts(3), 3);
        assert_eq!(got, expect(&[("host1@-@0", &[0]), ("host2@-@0", &[1]), ("host0@-@0", &[2])]));
    }

    #[test]
    fn round_robin_min_value_hash_power_of_two_matches_java() {
        // MIN_VALUE % 4 == 0 in Java too: no rotation, no exception.
        let got = run(Strategy::RoundRobin, "polygenelubricants", &hosts(4), 4);
        assert_eq!(got, expect(&[("host0@-@0", &[0]), ("host1@-@0", &[1]), ("host2@-@0", &[2]), ("host3@-@0", &[3])]));
    }

    #[test]
    fn round_robin_and_balance_empty_instances() {
        assert!(run(Strategy::RoundRobin, "1", &[], 3).is_empty());
        assert!(assign(Strategy::SingleShardingBalance, "1", &[], 1, 123).is_empty());
        assert!(run(Strategy::Odevity, "0", &[], 3).is_empty());
    }

    // ----- SINGLE_SHARDING_BALANCE (SingleShardingBalanceJobShardingStrategyTest) -----

    #[test]
    fn single_sharding_balance_assigns_exactly_one_item() {
        for now in [0i64, 1, 2, 1_700_000_000_123, -5, i64::MAX, i64::MIN] {
            let got = assign(Strategy::SingleShardingBalance, "JobName", &hosts(3), 1, now);
            assert_eq!(got.len(), 3);
            assert_eq!(got.iter().map(|(_, items)| items.len()).sum::<usize>(), 1);
        }
    }

    #[test]
    fn single_sharding_balance_offset_uses_java_int_arithmetic() {
        // hash("JobName") = 226556872; 226556872 % 3 == 1, so now=0 rotates by 1.
        let got = assign(Strategy::SingleShardingBalance, "JobName", &hosts(3), 1, 0);
        assert_eq!(got, expect(&[("host1@-@0", &[0]), ("host2@-@0", &[]), ("host0@-@0", &[])]));
        // now = 2 -> 226556874 % 3 == 0: no rotation.
        let got = assign(Strategy::SingleShardingBalance, "JobName", &hosts(3), 1, 2);
        assert_eq!(got[0], ("host0@-@0".to_owned(), vec![0]));
        // (int) (2^32 + 2) == 2: only the low 32 bits count.
        let got = assign(Strategy::SingleShardingBalance, "JobName", &hosts(3), 1, (1i64 << 32) + 2);
        assert_eq!(got[0], ("host0@-@0".to_owned(), vec![0]));
        // h + (int) now wraps: i32::MAX + 1 == MIN_VALUE; Java would throw, ejctl uses 1.
        let h = i64::from(java_string_hash("JobName"));
        let now = i64::from(i32::MAX) - h + 1;
        let got = assign(Strategy::SingleShardingBalance, "JobName", &hosts(3), 1, now);
        assert_eq!(got[0], ("host1@-@0".to_owned(), vec![0]));
    }

    // ----- instance order -----

    #[test]
    fn sort_is_reverse_lexicographic() {
        let mut v = ids(&["host0@-@0", "host2@-@0", "host10@-@0", "host1@-@0"]);
        sort_instances_like_elasticjob(&mut v);
        assert_eq!(v, ids(&["host2@-@0", "host1@-@0", "host10@-@0", "host0@-@0"]));
    }

    #[test]
    fn sort_uses_utf16_order() {
        // U+FF21 sorts above U+1F600 in UTF-16 (FF21 > D83D) but below it in UTF-8.
        let mut v = ids(&["😀", "Ａ"]);
        sort_instances_like_elasticjob(&mut v);
        assert_eq!(v, ids(&["Ａ", "😀"]));
    }

    // ----- names -----

    #[test]
    fn parse_names() {
        assert_eq!("AVG_ALLOCATION".parse(), Ok(Strategy::AverageAllocation));
        assert_eq!("odevity".parse(), Ok(Strategy::Odevity));
        assert_eq!("Round_Robin".parse(), Ok(Strategy::RoundRobin));
        assert_eq!("SINGLE_SHARDING_BALANCE".parse(), Ok(Strategy::SingleShardingBalance));
        assert_eq!("".parse(), Ok(Strategy::AverageAllocation));
        for s in Strategy::ALL {
            assert_eq!(s.as_str().parse(), Ok(s));
            assert_eq!(s.to_string(), s.as_str());
        }
    }

    #[test]
    fn from_config_defaults() {
        assert_eq!(Strategy::from_config(None), Ok(Strategy::AverageAllocation));
        assert_eq!(Strategy::from_config(Some("")), Ok(Strategy::AverageAllocation));
        assert_eq!(Strategy::from_config(Some("odevity")), Ok(Strategy::Odevity));
    }

    #[test]
    fn unknown_name_lists_valid_ones() {
        let err = "RANDOM".parse::<Strategy>().unwrap_err();
        assert_eq!(err.name, "RANDOM");
        assert_eq!(
            err.to_string(),
            "Cannot find sharding strategy using type 'RANDOM'. \
             Valid types: AVG_ALLOCATION, ODEVITY, ROUND_ROBIN, SINGLE_SHARDING_BALANCE"
        );
        assert!(Strategy::from_config(Some(" ODEVITY")).is_err());
    }
}
