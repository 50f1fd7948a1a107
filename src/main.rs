//! The `subdual` binary: runs the command line and maps failures to exit codes (0, 1, 2 for bad input, 3 for
//! a `merge --check` that found shards missing). A reader that closes standard output early
//! (`subdual schema | head -1`) ends the program quietly with success: it got what it wanted.

use std::io::Write;
use std::process::ExitCode;

use subdual::cli;

fn main() -> ExitCode {
    match cli::main() {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if cli::is_broken_pipe(&error) => ExitCode::SUCCESS,
        Err(error) => {
            // A closed standard error must not turn bad input into a panic.
            let _ = writeln!(std::io::stderr(), "{}", cli::error_text(&error));
            ExitCode::from(cli::exit_code(&error))
        }
    }
}
