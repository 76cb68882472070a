//! The whole-program bounded corpus (`tests/bounded/`, harness in `common/corpus.rs`). Each
//! run is made once per inlining mode: the default (stratified inlining, in-process Z3),
//! eager inlining (`/eagerInline`), and stratified inlining with its session over a pipe to
//! the `z3` binary (`--solver=z3`, which the README's test command installs); the modes must
//! agree.

#[path = "common/corpus.rs"]
mod corpus;

fn main() {
    // A Z3 call given up on at its deadline may stall new in-process contexts: from then on,
    // Z3 runs in a process of its own, the binary's server, as the binary itself does.
    rboogie::smt::use_z3_server(std::path::PathBuf::from(env!("CARGO_BIN_EXE_rboogie")));
    corpus::run_corpus("tests/bounded", &[&[], &["/eagerInline"], &["/stratified", "--solver=z3"]], 30);
}
