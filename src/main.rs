//! The `subdual` binary: runs the command line and maps failures to exit codes (0, 1, 2 for bad input, 3 for
//! a `merge --check` that found shards missing).

use std::io::Write;
use std::process::ExitCode;

use subdual::cli::{self, BadInput};

fn main() -> ExitCode {
    match cli::main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // A closed standard error must not turn bad input into a panic.
            let _ = writeln!(std::io::stderr(), "error: {error:#}");
            if error.downcast_ref::<BadInput>().is_some() {
                ExitCode::from(2)
            } else if error.downcast_ref::<cli::Incomplete>().is_some() {
                ExitCode::from(3)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
