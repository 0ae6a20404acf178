//! The chaos test (CI mode): every kind of fault once on a real ensemble with four `ejctl run`
//! workers, then the delivery guarantee (docs/src/design/guarantee.md) is checked on what ran. The
//! long mode is `cargo bench --bench chaos -- --minutes 30`.

use crate::support::chaos::{self, ChaosConfig};

#[test]
fn chaos_every_fire_runs_without_overlap() {
    let outcome = chaos::run(ChaosConfig::ci());
    let summary = chaos::check(&outcome);
    println!("{}", summary.line());
    if !summary.violations.is_empty() {
        let kept = outcome.dir.keep();
        panic!(
            "{}\n{:#?}\nfaults: {:#?}\nrecords and worker logs kept in {}",
            summary.line(),
            summary.violations,
            outcome.faults,
            kept.display()
        );
    }
}
