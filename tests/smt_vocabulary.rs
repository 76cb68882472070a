//! Property test of rboogie's SMT-LIB vocabulary: for every operator a builtin string may name
//! (`rboogie::smt::builtins::OPERATORS`, each in the indexed or leading-argument form of its
//! sample) and for every name the naming function reserves (`rboogie::smt::names`), a Boogie
//! program uses it, and each solver must read the query rboogie writes without an error:
//! in-process Z3, the `z3` binary and `cvc5` (the operators z3 alone has are not sent to
//! cvc5). A rejected query is an internal error in rboogie's output ("rboogie internal
//! error"), an encoding rboogie lacks a "not supported" line: both fail the test.

use rboogie::smt::builtins::OPERATORS;
use rboogie::smt::names::{RESERVED, RESERVED_PREFIXES};

fn run(text: &str, solver: &str) -> String {
    let dir = std::env::temp_dir().join(format!("rboogie-vocabulary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.bpl", solver.replace(['/', ' '], "_")));
    std::fs::write(&path, text).unwrap();
    let args = vec!["/timeLimit:20".to_string(), "--solver".into(), solver.into(), path.display().to_string()];
    let options = rboogie::cli::parse_args(args).expect("command line");
    let mut out = Vec::new();
    rboogie::cli::run(&options, &mut out, &mut std::io::sink());
    String::from_utf8_lossy(&out).into_owned()
}

/// What is wrong with rboogie's output on a program that should go through, if anything.
fn problem(output: &str) -> Option<&str> {
    output.lines().find(|l| {
        l.contains("internal error")
            || l.contains("not supported")
            || l.contains("solver failed")
            || l.contains("Error")
    })
}

fn solvers() -> Vec<&'static str> {
    let mut solvers = vec!["in-process"];
    for s in ["z3", "cvc5"] {
        if std::process::Command::new(s).arg("--version").output().is_ok() {
            solvers.push(s);
        } else {
            eprintln!("note: {s} is not installed; skipped");
        }
    }
    solvers
}

/// A program that declares the operator's sample as a function and applies it.
fn operator_program(op: &rboogie::smt::builtins::Operator) -> String {
    let (text, args, result) = op.sample;
    let types: Vec<&str> = if args.is_empty() { Vec::new() } else { args.split(',').map(str::trim).collect() };
    let formals: Vec<String> = types.iter().enumerate().map(|(i, t)| format!("a{i}: {t}")).collect();
    let actuals: Vec<String> = (0..types.len()).map(|i| format!("a{i}")).collect();
    let seq = if args.contains("Seq") || result.contains("Seq") { "type {:builtin \"Seq\"} Seq _;\n" } else { "" };
    format!(
        "{seq}function {{:builtin \"{text}\"}} f({}) : {result};\n\
         procedure p({}) {{ assert f({}) == f({}); }}\n",
        types.join(", "),
        formals.join(", "),
        actuals.join(", "),
        actuals.join(", "),
    )
}

#[test]
fn every_builtin_operator_reaches_each_solver_as_smt_lib() {
    let mut failures = Vec::new();
    for solver in solvers() {
        for op in OPERATORS {
            if solver == "cvc5" && op.z3_only {
                continue;
            }
            let program = operator_program(op);
            let output = run(&program, solver);
            if let Some(line) = problem(&output) {
                failures.push(format!("{solver}, {:?}: {line}\n{program}", op.sample.0));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

/// Every reserved name (and a name in each reserved name space) as a Boogie type, function,
/// bound variable and constant (`\` lets a Boogie keyword be an identifier).
#[test]
fn every_reserved_name_reaches_each_solver_as_a_fresh_symbol() {
    let prefixed: Vec<String> = RESERVED_PREFIXES.iter().map(|p| format!("{p}x")).collect();
    let names: Vec<&str> = RESERVED
        .iter()
        .copied()
        .chain(prefixed.iter().map(String::as_str))
        .filter(|n| !n.starts_with('@') && !BOOGIE_TYPE_NAMES.contains(n))
        .collect();
    let mut functions = String::new();
    let mut constants = String::new();
    for (i, n) in names.iter().enumerate() {
        functions += &format!(
            "type \\{n};\nfunction \\{n}(x: \\{n}): int;\naxiom (forall \\{n}: \\{n} :: \\{n}(\\{n}) > {i});\n"
        );
        constants += &format!("const \\{n}: int;\naxiom \\{n} == {i};\n");
    }
    functions += "procedure p() { assert true; }\n";
    constants += "procedure p() { assert true; }\n";
    let mut failures = Vec::new();
    for solver in solvers() {
        for program in [&functions, &constants] {
            let output = run(program, solver);
            if let Some(line) = problem(&output) {
                failures.push(format!("{solver}: {line}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Names that stay Boogie's own types even when written `\name`.
const BOOGIE_TYPE_NAMES: &[&str] = &["rmode", "string", "regex", "int", "real", "bool"];
