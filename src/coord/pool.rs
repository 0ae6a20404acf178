//! How many items of one job run at once on one instance: ElasticJob's executor pool size
//! (`jobExecutorThreadPoolSizeProviderType`: `CPU` = twice the cores, `SINGLE_THREAD` = 1),
//! capped by ejctl's `max_concurrent_items`.

/// The bound for a pool type (any case) and `max_concurrent_items`, on a machine with `cores`
/// cores. No type and no cap: no bound, so the items of a fire run at once as ejctl's workers
/// always did (they are processes or requests, not pool threads).
pub fn limit(pool_type: Option<&str>, max_items: Option<u32>, cores: usize) -> Option<u32> {
    let by_type = match pool_type.map(str::to_ascii_uppercase).as_deref() {
        Some("SINGLE_THREAD") => Some(1),
        Some("CPU") => Some(u32::try_from(cores.max(1)).unwrap_or(u32::MAX).saturating_mul(2)),
        _ => None,
    };
    match (by_type, max_items) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits() {
        let cases: [(Option<&str>, Option<u32>, Option<u32>); 7] = [
            (None, None, None),
            (Some("cpu"), None, Some(8)),
            (Some("SINGLE_THREAD"), None, Some(1)),
            (None, Some(3), Some(3)),
            (Some("CPU"), Some(3), Some(3)),
            (Some("SINGLE_THREAD"), Some(3), Some(1)),
            (Some("custom"), None, None),
        ];
        for (pool_type, cap, want) in cases {
            assert_eq!(limit(pool_type, cap, 4), want, "{pool_type:?} {cap:?}");
        }
    }
}
