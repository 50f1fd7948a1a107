//! The integration tests, as one test binary: each module drives the real `subdual` binary (or the
//! library) over one concern. One binary rather than one per file, because each test binary is linked on
//! its own, and with the release profile's LTO the links took most of `cargo test --release`'s build.
//!
//! Run one module with a filter on its path, e.g. `cargo test --release --test it snapshots::`.

mod after_the_blow;
mod bad_input;
mod charts;
mod cli;
mod common;
mod determinism;
mod differences;
mod exact;
mod exact_bounds;
mod explain;
mod fight_styles;
mod flips;
mod fuzz_parts;
mod fuzz_scenarios;
mod hardening;
mod readings;
mod reference;
mod report_browser;
mod schema;
mod shards;
mod sides;
mod snapshots;
mod survival;
mod tunes;
mod unread_fields;
