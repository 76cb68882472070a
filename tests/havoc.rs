//! HAVOC's examples (`examples/havoc/`, issue 18): C list and array programs in BoogiePL on
//! the library `/lib:havoc`, whose heap writes the `reach` pass instruments
//! ([`rboogie::passes`]). Each file's first line gives its options (`// rboogie-options:
//! ...`). `NAME.bpl` must verify with no error; `NAME-bug*.bpl`, a variant with an injected
//! bug, must report at least one, and the line its header names (`// ERROR AT: L`) among
//! them. Each is run with the in-process Z3 and over a pipe to the `z3` binary. A file whose
//! annotations have no quantifier (no `forall` or `exists` outside comments) must get a
//! solver input without one: the ground instantiation leaves none (checked on `/proverLog`).

use std::path::{Path, PathBuf};

fn run(args: Vec<String>) -> String {
    match rboogie::cli::parse_args(args) {
        Ok(options) => {
            let mut out = Vec::new();
            rboogie::cli::run(&options, &mut out, &mut std::io::sink());
            String::from_utf8_lossy(&out).into_owned()
        }
        Err(e) => e.to_string(),
    }
}

fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let options = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// rboogie-options:"))
        .ok_or_else(|| format!("{}: no `// rboogie-options:` first line", path.display()))?;
    let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
    let error_at: Option<u32> = text
        .lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix("// ERROR AT:")?.trim().parse().ok());
    let mut failures = Vec::new();
    for mode in [&[][..], &["--solver=z3"][..]] {
        let mut args: Vec<String> = vec!["-useBaseNameForFileName".into(), "/timeLimit:60".into()];
        args.extend(options.split_whitespace().map(str::to_string));
        args.extend(mode.iter().map(|m| m.to_string()));
        args.push(path.to_string_lossy().into_owned());
        let out = run(args.clone());
        let trailer = out.lines().find(|l| l.starts_with("Boogie program verifier finished with")).unwrap_or_default();
        let ok = if name.contains("-bug") {
            let errors = !trailer.contains(" 0 errors") && !trailer.is_empty() && !trailer.contains("time out");
            let at = error_at.is_none_or(|line| out.contains(&format!("{name}.bpl({line},")));
            errors && at
        } else {
            trailer.ends_with(" 0 errors") && !trailer.contains("0 verified")
        };
        if !ok {
            failures.push(format!("{}:\n{out}", args.join(" ")));
        }
    }
    let code: String = text.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
    if !code.contains("forall") && !code.contains("exists") {
        let log = std::env::temp_dir().join(format!("rboogie-havoc-{}-{name}.smt2", std::process::id()));
        let mut args: Vec<String> = vec!["/timeLimit:60".into(), format!("/proverLog:{}", log.display())];
        args.extend(options.split_whitespace().map(str::to_string));
        args.push(path.to_string_lossy().into_owned());
        run(args);
        let sent = std::fs::read_to_string(&log).unwrap_or_default();
        let _ = std::fs::remove_file(&log);
        if sent.is_empty() {
            failures.push(format!("{name}: no solver input written to {}", log.display()));
        } else if sent.contains("(forall") || sent.contains("(exists") {
            failures.push(format!("{name}: quantifier-free annotations, but the solver input has a quantifier"));
        }
    }
    if failures.is_empty() { Ok(()) } else { Err(failures.join("\n")) }
}

fn main() {
    // A Z3 call given up on at its deadline may stall new in-process contexts: from then on,
    // Z3 runs in a process of its own, the binary's server, as the binary itself does.
    rboogie::smt::use_z3_server(std::path::PathBuf::from(env!("CARGO_BIN_EXE_rboogie")));
    let args = libtest_mimic::Arguments::from_args();
    let mut paths: Vec<PathBuf> = std::fs::read_dir("examples/havoc")
        .expect("the examples directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bpl"))
        .collect();
    paths.sort();
    let trials = paths
        .into_iter()
        .map(|path| {
            let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
            libtest_mimic::Trial::test(name, move || check(&path).map_err(Into::into))
        })
        .collect();
    libtest_mimic::run(&args, trials).exit();
}
