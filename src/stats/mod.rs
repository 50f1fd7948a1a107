//! Tallies that add exactly, the metrics of each action, and intervals computed once per point.

pub mod exact;
pub mod interval;
pub mod metrics;
pub mod paired;
pub mod tally;

pub use tally::Tally;
