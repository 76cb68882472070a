//! The concurrent corpus (`tests/concurrent/`, harness in `common/corpus.rs`): programs that
//! spawn threads, checked by context-bounded sequentialization
//! ([`rboogie::passes::sequentialize`]) at the context bounds each names (`/k:N`), each run
//! also at the bound one below its smallest buggy one. Runs are made with the in-process Z3
//! and over a pipe to the `z3` binary; the two must agree.

#[path = "common/corpus.rs"]
mod corpus;

fn main() {
    // A Z3 call given up on at its deadline may stall new in-process contexts: from then on,
    // Z3 runs in a process of its own, the binary's server, as the binary itself does.
    rboogie::smt::use_z3_server(std::path::PathBuf::from(env!("CARGO_BIN_EXE_rboogie")));
    corpus::run_corpus("tests/concurrent", &[&[], &["--solver=z3"]], 18);
}
