//! Job configuration: the one schema of ElasticJob's `JobConfigurationPOJO` keys and the
//! in-memory model. Validation, which parses the cron, the strategy, the item parameters and the
//! error handler, sits above it in [`crate::coord::validate`], so this module imports nothing of
//! the layers above it.
//!
//! * [`schema`]: the table of fields (YAML key, job-file key, kind, check, default) that the
//!   YAML codec, the job-file parser, `config set/get`, `job show` and the guide's key table are
//!   driven by; ejctl's `props` extensions (in `extensions`, re-exported by it).
//! * [`model`]: [`JobConfig`], with ElasticJob's POJO and builder defaults.
//! * [`props`]: [`Props`], a job's properties.
//! * [`keys`]: the guide's key table, generated from the schema.

mod extensions;
pub mod keys;
pub mod model;
pub mod props;
pub mod schema;
pub mod secrets;
mod tables;

pub use self::model::{ExecutorPoolKey, JobConfig};
pub use self::props::Props;
