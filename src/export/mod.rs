//! Results → bytes. Every file of a study folder is made by an [`Exporter`], a pure function of the study's
//! results (and of the files made before it, which the manifest lists), so the formats are snapshot-tested
//! without touching the disk; the exporters are listed once, in [`EXPORTERS`], and [`write::write_study`]
//! is the only code that writes a study's files. Each file goes to its [`Destination`] as it is made,
//! counted and digested on the way, so a study of 100,000 points never holds its CSV files in memory. A
//! file that cannot be made is an [`ExportError`], and the study folder it was going to is not written:
//! never a file written short or with shifted columns.

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
use std::io::Write;

use crate::digest::Digesting;
use crate::export::chart::Drawn;
use crate::export::manifest::{Manifest, RunInfo, WrittenFile};
use crate::scenario::Scenario;
use crate::stats::exact::ExactDistribution;
use crate::study::exemplars::Exemplar;
use crate::study::flips::FlipRow;
use crate::study::tuning::TunePoint;
use crate::study::{Rows, TuneLine};

/// Why a study's file could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// A CSV row that does not fit its header.
    #[error("cannot write a CSV file: {0}")]
    Csv(::csv::Error),
    /// A JSON file that does not serialize.
    #[error("cannot write a JSON file: {0}")]
    Json(#[from] serde_json::Error),
    /// A file its destination did not take.
    #[error(transparent)]
    Io(#[from] std::io::Error),
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
    /// One summary per point and the differences from the baseline, made as each file reads them, and
    /// the tallies they are made from.
    pub rows: &'a Rows<'a>,
    /// How often each variant and the baseline part each way (empty without variants, or for `exact`).
    pub flips: &'a [FlipRow<'a>],
    /// The exemplary trials of every fight point (empty without fights, or for `exact`).
    pub exemplars: &'a [Exemplar],
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

impl From<::csv::Error> for ExportError {
    /// A CSV writer's own fault stays the file's; a failure of what it writes into (a full disk) is the
    /// destination's, reported with the folder it was going to.
    fn from(e: ::csv::Error) -> Self {
        if !e.is_io_error() {
            return ExportError::Csv(e);
        }
        match e.into_kind() {
            ::csv::ErrorKind::Io(io) => ExportError::Io(io),
            // `is_io_error` says it is the kind above; any other is still the writer's.
            other => ExportError::Io(std::io::Error::other(format!("{other:?}"))),
        }
    }
}

/// What makes the bytes of one file, into the writer it is given.
pub type Make<'m> = dyn FnMut(&mut dyn Write) -> Result<(), ExportError> + 'm;

/// Where a study's files go, each as it is made: a temporary study folder ([`write::write_study`]), or
/// memory (a `Vec<File>`, where a test wants the bytes).
pub trait Destination {
    /// Makes the file `name`, whose bytes `make` writes (called once).
    fn make(&mut self, name: &str, make: &mut Make<'_>) -> Result<(), ExportError>;
}

impl Destination for Vec<File> {
    fn make(&mut self, name: &str, make: &mut Make<'_>) -> Result<(), ExportError> {
        let mut bytes = Vec::new();
        make(&mut bytes)?;
        self.push((name.to_string(), bytes));
        Ok(())
    }
}

/// The files made so far, in the order of the list walked, each with its size and digest, and their
/// manifest; and where they go.
pub struct Written<'d> {
    listed: Vec<WrittenFile>,
    manifest: OnceCell<Manifest>,
    destination: &'d mut dyn Destination,
}

impl<'d> Written<'d> {
    /// Nothing made yet; files go to `destination`.
    pub fn new(destination: &'d mut dyn Destination) -> Self {
        Written {
            listed: Vec::new(),
            manifest: OnceCell::new(),
            destination,
        }
    }

    /// Makes the file `name` (its bytes written by `make`) and lists it.
    pub fn file(
        &mut self,
        name: &str,
        mut make: impl FnMut(&mut dyn Write) -> Result<(), ExportError>,
    ) -> Result<(), ExportError> {
        let mut listed = None;
        self.destination.make(name, &mut |w: &mut dyn Write| {
            let mut counted = Digesting::new(w);
            make(&mut counted)?;
            counted.flush()?;
            listed = Some(counted.finish());
            Ok(())
        })?;
        let (bytes, sha256) = listed.unwrap_or_default();
        self.listed.push(WrittenFile {
            name: name.to_string(),
            bytes,
            sha256,
        });
        Ok(())
    }

    /// Makes the file `name` of `bytes` already made.
    pub fn bytes(&mut self, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
        self.file(name, |w| Ok(w.write_all(bytes)?))
    }

    /// The files made so far, by name with their size and digest, in the order made.
    pub fn listed(&self) -> &[WrittenFile] {
        &self.listed
    }

    /// The manifest of the files made so far, made when first asked. It lists no file of
    /// [`manifest::RUN_FILES`], and only those follow the first exporter that asks (the report), so the
    /// manifest the report shows is the one manifest.json holds.
    pub fn manifest(&self, study: &StudyResults<'_>) -> &Manifest {
        self.manifest
            .get_or_init(|| Manifest::of(study, &self.listed))
    }
}

/// One kind of file of a study folder.
pub trait Exporter: Sync {
    /// Makes its files for `study` into `written` (none when the study has nothing for it, such as
    /// differences with one variant); `written` lists the files the exporters before it made.
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError>;
}

/// The charts' SVG and PNG files, as drawn.
pub struct Charts;

impl Exporter for Charts {
    fn export(
        &self,
        study: &StudyResults<'_>,
        written: &mut Written<'_>,
    ) -> Result<(), ExportError> {
        for (name, bytes) in study
            .charts
            .unwrap_or_default()
            .iter()
            .flat_map(Drawn::files)
        {
            written.bytes(&name, &bytes)?;
        }
        Ok(())
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

/// Makes the files of `study` into `destination`, by `exporters` in order.
pub fn make(
    study: &StudyResults<'_>,
    exporters: &[&dyn Exporter],
    destination: &mut dyn Destination,
) -> Result<(), ExportError> {
    let mut written = Written::new(destination);
    for exporter in exporters {
        exporter.export(study, &mut written)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_file_is_listed_with_the_size_and_digest_of_the_bytes_it_was_made_of() {
        let mut files: Vec<File> = Vec::new();
        let mut written = Written::new(&mut files);
        written.bytes("a.csv", b"abc").unwrap();
        // Made in many small writes, as a CSV writer makes it.
        written
            .file("b.csv", |w| {
                for row in 0..1000 {
                    writeln!(w, "row,{row}")?;
                }
                Ok(())
            })
            .unwrap();
        let listed = written.listed().to_vec();
        assert_eq!(files.len(), 2);
        for ((name, bytes), listed) in files.iter().zip(&listed) {
            assert_eq!(*name, listed.name);
            assert_eq!(bytes.len() as u64, listed.bytes);
            assert_eq!(crate::digest::sha256_hex(bytes), listed.sha256);
        }
        assert_eq!(
            files[1].1.len(),
            (0..1000).map(|r| format!("row,{r}\n").len()).sum::<usize>()
        );
        // A file that fails is not listed, and the error is the file's.
        let mut written = Written::new(&mut files);
        let failed = written.file("c.csv", |_| Err(std::io::Error::other("full").into()));
        assert!(matches!(failed, Err(ExportError::Io(_))));
        assert!(written.listed().is_empty());
    }
}
