//! What the tests that run rboogie through its library share.

/// rboogie's stdout and exit code for `args`, after `-useBaseNameForFileName` (run through the
/// library, as `main` does).
pub fn rboogie<S: AsRef<str>>(args: &[S]) -> (String, i32) {
    let mut argv = vec!["-useBaseNameForFileName".to_string()];
    argv.extend(args.iter().map(|a| a.as_ref().to_string()));
    let options = rboogie::cli::parse_args(argv).expect("a valid command line");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = rboogie::cli::run(&options, &mut out, &mut err);
    (String::from_utf8(out).unwrap(), code)
}

/// Whether `binary` is on the `PATH` (the project's test command installs z3 and cvc5; a test
/// of a missing one is skipped).
pub fn on_path(binary: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(binary).is_file()))
}
