//! The `pbem` binary: everything lives in the library's `cli` module.

fn main() -> std::process::ExitCode {
    pbem::cli::main()
}
