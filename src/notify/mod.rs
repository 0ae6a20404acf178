//! Error handlers: what a job does when an item fails, as `jobErrorHandlerType` and its `props`
//! say ([`handler`]), and the background sender of notifications ([`send`]).

pub mod handler;
pub mod send;

pub use handler::{ErrorHandler, Failure};
pub use send::Alerts;
