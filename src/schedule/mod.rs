//! When jobs fire: Quartz cron expressions evaluated in a job's time zone.

pub mod cron;
mod quartz;
mod zone;

/// Why a cron expression or a time zone string was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CronError {
    /// The cron expression is not valid in the Quartz dialect.
    #[error("invalid cron expression '{expr}': {reason}")]
    InvalidExpression {
        /// The expression, as given.
        expr: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The time zone string is neither empty, a `GMT` offset nor an IANA zone name.
    #[error("invalid time zone '{zone}': {reason}")]
    InvalidTimeZone {
        /// The time zone string, as given.
        zone: String,
        /// What is wrong with it.
        reason: String,
    },
}
