//! Results → bytes. Every file of a study folder is made by an [`Exporter`], a pure function of the study's
//! results (and of the files made before it, which the manifest lists), so the formats are snapshot-tested
//! without touching the disk; the exporters are listed once, in [`EXPORTERS`], and [`write::write_study`]
//! is the only code that writes a study's files. A file that cannot be made is an [`ExportError`], never
//! a file written short or with shifted columns.

pub mod chart;
pub mod csv;
pub mod manifest;
#[cfg(test)]
pub(crate) mod markup;
pub mod report;
pub mod size;
pub mod words;
pub mod write;

use std::cell::OnceCell;

use crate::export::chart::Drawn;
use crate::export::manifest::{Manifest, RunInfo};
use crate::scenario::Scenario;
use crate::stats::Tally;
use crate::stats::exact::ExactDistribution;
use crate::study::exemplars::Exemplar;
use crate::study::flips::FlipRow;
use crate::study::tuning::TunePoint;
use crate::study::{DifferenceRow, PointSummary, TuneLine};

/// Why a study's file could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A CSV row that does not fit its header, or a writer that failed.
    #[error("cannot write a CSV file: {0}")]
    Csv(#[from] ::csv::Error),
    /// A JSON file that does not serialize.
    #[error("cannot write a JSON file: {0}")]
    Json(#[from] serde_json::Error),
}

/// A file of a study folder: its name and its bytes.
pub type File = (String, Vec<u8>);

/// Everything a study's files are made from: the results of one run (or of a merge of shards, which are
/// the same), its charts as drawn, and the facts of the command.
#[derive(Debug, Clone, Copy)]
pub struct StudyResults<'a> {
    /// The scenario run.
    pub scenario: &'a Scenario,
    /// Trials every point ran.
    pub trials: u64,
    /// One tally per point (`None` for an ineligible point).
    pub tallies: &'a [Option<Tally>],
    /// One summary per point.
    pub summaries: &'a [PointSummary<'a>],
    /// The differences from the baseline.
    pub differences: &'a [DifferenceRow<'a>],
    /// How often each variant and the baseline part each way (empty without variants, or for `exact`).
    pub flips: &'a [FlipRow<'a>],
    /// The exemplary trials of every fight point (empty without fights, or for `exact`).
    pub exemplars: &'a [Exemplar<'a>],
    /// Every tune's solved points.
    pub tuned: &'a [Vec<TunePoint>],
    /// The tunes' answers, as tune.csv and the report give them.
    pub tunes: &'a [TuneLine<'a>],
    /// The charts; `None` when they were not drawn.
    pub charts: Option<&'a [Drawn]>,
    /// How the command went (run.json).
    pub run: &'a RunInfo,
    /// Whether exact values were computed and get their own columns.
    pub exact: bool,
    /// Every point's exact distributions (`subdual exact`; empty for a run, `None` for a point without).
    pub exact_distributions: &'a [Option<Vec<ExactDistribution>>],
}

/// The files made so far, in the order of the list walked, and their manifest.
#[derive(Debug, Default)]
pub struct Written {
    files: Vec<File>,
    manifest: OnceCell<Manifest>,
}

impl Written {
    /// The files made so far.
    pub fn files(&self) -> &[File] {
        &self.files
    }

    /// The manifest of the files made so far, made when first asked. It lists no file of
    /// [`manifest::RUN_FILES`], and only those follow the first exporter that asks (the report), so the
    /// manifest the report shows is the one manifest.json holds.
    pub fn manifest(&self, study: &StudyResults<'_>) -> &Manifest {
        self.manifest
            .get_or_init(|| Manifest::of(study, &self.files))
    }
}

/// One kind of file of a study folder.
pub trait Exporter: Sync {
    /// Its files for `study` (none when the study has nothing for it, such as differences with one
    /// variant); `written` holds the files the exporters before it made.
    fn export(&self, study: &StudyResults<'_>, written: &Written)
    -> Result<Vec<File>, ExportError>;
}

/// The charts' SVG and PNG files, as drawn.
pub struct Charts;

impl Exporter for Charts {
    fn export(&self, study: &StudyResults<'_>, _: &Written) -> Result<Vec<File>, ExportError> {
        Ok(study
            .charts
            .unwrap_or_default()
            .iter()
            .flat_map(Drawn::files)
            .collect())
    }
}

/// Every file a run (or a merge) writes, in order: the tables, the charts, then the files that describe
/// them (the report shows the manifest, which lists the files before it).
pub const EXPORTERS: [&dyn Exporter; 10] = [
    &csv::SummaryCsv("summary.csv"),
    &csv::DistributionsCsv,
    &csv::DifferencesCsv("differences.csv"),
    &csv::FlipsCsv,
    &csv::ExemplarsCsv,
    &csv::TuneCsv("tune.csv"),
    &Charts,
    &report::ReportHtml,
    &manifest::ManifestJson,
    &manifest::RunJson,
];

/// Every file `subdual exact` adds to a study folder: the exact values, without tallies or charts.
pub const EXACT_EXPORTERS: [&dyn Exporter; 4] = [
    &csv::SummaryCsv(EXACT_FILES[0]),
    &csv::ExactDistributionsCsv,
    &csv::DifferencesCsv(EXACT_FILES[2]),
    &csv::TuneCsv(EXACT_FILES[3]),
];

/// The files [`EXACT_EXPORTERS`] write, in their order: the names the `exact` command may add to a study
/// folder, and so names a run may replace ([`write::foreign`]).
pub const EXACT_FILES: [&str; 4] = [
    "exact.csv",
    "exact-distributions.csv",
    "exact-differences.csv",
    "exact-tune.csv",
];

/// The files of `study`, made by `exporters` in order.
pub fn files(
    study: &StudyResults<'_>,
    exporters: &[&dyn Exporter],
) -> Result<Vec<File>, ExportError> {
    let mut written = Written::default();
    for exporter in exporters {
        let files = exporter.export(study, &written)?;
        written.files.extend(files);
    }
    Ok(written.files)
}
