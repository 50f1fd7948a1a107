//! Results → bytes. Every exporter is a pure function of the scenario and its tallies, so the formats are
//! snapshot-tested without touching the disk; [`write::write_study`] is the only code that writes files.

pub mod chart;
pub mod csv;
pub mod manifest;
#[cfg(test)]
pub(crate) mod markup;
pub mod report;
pub mod size;
pub mod summary;
pub mod words;
pub mod write;
