//! When jobs fire: Quartz cron expressions evaluated in a job's time zone.

pub mod cron;
mod quartz;
mod zone;
