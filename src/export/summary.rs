//! The summaries moved below the exporters, to the study ([`crate::study::summary`]); this path stays for
//! callers outside the library.

pub use crate::study::summary::{PointSummary, TuneLine, summarize, tune_lines};
