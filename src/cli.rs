//! The command line: Boogie's option spellings and GNU long flags, parsed into [`Options`].
//!
//! rboogie must be a drop-in for `boogie`, so it takes every option the way Boogie 3.5 does
//! (`/noVerify`, `-timeLimit:30`, `/print out.bpl`: `/` or `-`, then the name as Boogie spells
//! it, case-sensitive, then the value after a colon or as the next argument), and also as a GNU
//! long flag (`--no-verify`, `--time-limit 30`) so that `--help` can list them all.
//!
//! Clap parses only the GNU spelling. [`parse_args`] first walks argv the way Boogie's
//! `CommandLineOptionEngine.Parse` does and rewrites each Boogie spelling into its long flag
//! through one table, [`BOOGIE_OPTIONS`]; Boogie's option errors (unknown switch, bad value,
//! missing value) are found in that walk and reported with Boogie's own words. The walk also
//! checks each Boogie-spelled value the way Boogie does, so clap's value parsers only ever
//! see GNU-spelled values it has not checked.
//!
//! Boogie quirks kept on purpose (all from `CommandLineOptionEngine.Parse`):
//! - on Unix an argument that starts with `/` but is not a Boogie option is a file name, so
//!   `/tmp/a.bpl` works and `/bogus` later fails the `.bpl` extension check;
//! - a value-taking option written without a colon takes the next argument as its value;
//! - an error in the number of arguments (`"/noVerify" cannot take a colon argument`,
//!   `"/print" expects 1 argument`) stops the walk; other errors do not.
//!
//! Boogie 3.5 has no `/define`: it defines `FILE_0`, `FILE_1`, ... for the `#if`s of the
//! first, second, ... input file (see `crate::driver`).
//!
//! Boogie 3.5 rejects some Boogie 2 options that SMACK, Corral and GPUVerify still pass
//! (`/nologo /noinfer /doModSetAnalysis /useArrayTheory`). rboogie accepts these four with
//! the meaning they have in Boogie 3.5 (issue 5): `/doModSetAnalysis` is `/inferModifies`;
//! `/nologo` (no banner), `/noinfer` (no abstract interpretation) and `/useArrayTheory`
//! (maps of a monomorphic program are SMT arrays) ask for what rboogie does anyway. Other
//! Boogie 2 options (`/z3opt`, `/doNotUseLabels`, ...) stay unknown switches: they have no
//! meaning today that rboogie could honour.
//!
//! Boogie 3.5's own options that rboogie does not implement are never taken for files:
//! those that change no verdict and nothing printed without `/trace` (VC-splitting
//! heuristics, prover management, debugging aids: [`IGNORED_OPTIONS`]) are accepted, their
//! values checked as Boogie checks them; the others ([`UNSUPPORTED_OPTIONS`]) are refused by
//! name. `--help` lists both. Corral's own options are treated the same way
//! ([`CORRAL_IGNORED`], [`CORRAL_UNSUPPORTED`]), besides those bounded mode implements and
//! two it maps: `/bopt:X` is the Boogie option `-X`, `/killAfter:N` is `/processTimeLimit:N`.

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser, value_parser};
use std::fmt;

pub use crate::driver::run;
use crate::report::Format;
use crate::shard::Shard;

// ---------------------------------------------------------------------------------------------
// The parsed configuration

/// `/env:N`: where the command line is echoed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShowEnv {
    /// `/env:0`
    Never,
    /// `/env:1` (default): as a comment at the top of `/print` output and prover logs.
    DuringPrint,
    /// `/env:2`: also on stdout before anything else.
    Always,
}

/// `/typeEncoding:X` and `/inline:X` configure passes (see [`Options::pipeline_config`]).
pub use crate::passes::{Inlining, TypeEncoding};

/// `/proverWarnings:N`
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProverWarnings {
    None,
    Stdout,
    Stderr,
}

/// Everything the command line says, with Boogie's defaults for what it does not say.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The command line as given (without the program name); `/env` echoes it.
    pub args: Vec<String>,
    /// The input files in command-line order (`.txt` lists not yet expanded).
    pub files: Vec<String>,
    pub help: bool,
    pub version: bool,
    /// rboogie's own `--format`; `None` until [`Options::adapt_to_terminal`] picks one
    /// (the driver then uses Boogie's format).
    pub format: Option<Format>,
    /// Colour in the rich format.
    pub color: bool,
    pub show_env: ShowEnv,
    pub use_base_name: bool,

    pub no_resolve: bool,
    pub no_typecheck: bool,
    /// False under `/noVerify`.
    pub verify: bool,
    /// `/print:FILE` (`-` is stdout), with `@PREFIX@`, `@TIME@` and `@FILE@` expanded.
    pub print_file: Option<String>,
    pub pretty: bool,

    // Accepted; later stages will use them.
    /// Seconds per implementation; 0 is no limit.
    pub time_limit: u32,
    /// Seconds for the whole run; 0 is no limit.
    pub process_time_limit: u32,
    /// MB that VC generation, and each solver, may use; 0 is half the machine's memory.
    pub max_memory_mb: u32,
    /// Solver resource limit; 0 is none.
    pub resource_limit: u32,
    pub vcs_cores: u32,
    pub type_encoding: TypeEncoding,
    /// `/freeVarLambdaLifting`: a lambda's free variables become the lifted function's
    /// parameters, instead of its maximal holes.
    pub free_var_lambda_lifting: bool,
    /// The concatenation of all `/logPrefix` values, `/` and `\` replaced by `-`.
    pub log_prefix: String,
    pub prover_warnings: ProverWarnings,
    pub error_trace: u32,
    /// `/removeEmptyBlocks:0` keeps the empty blocks of the passive program.
    pub remove_empty_blocks: bool,
    /// `/coalesceBlocks:0` keeps each block that is its predecessor's one successor and has no
    /// other predecessor apart (Boogie's `BlockCoalescer`, on by default): traces show them.
    pub coalesce_blocks: bool,
    /// `/prune:1`: each implementation is sent only the axioms its declarations reach
    /// (Boogie's `Pruner`, see `crate::vcgen::prune`).
    pub prune: bool,
    pub error_limit: u32,
    pub prover_options: Vec<String>,
    /// `--solver z3|cvc5|in-process|COMMAND` (rboogie's own; see `crate::smt::configure`).
    pub solver: Option<String>,
    /// `/proverLog:FILE`, macros expanded as for `print_file`.
    pub prover_log: Option<String>,
    pub trace: bool,
    /// `/tracePOs`: Boogie's `Verifying P ...` and `[N proof obligations]  outcome` lines.
    pub trace_proof_obligations: bool,
    /// `--trace-passes`: the time of resolution and type checking and of each pass.
    pub trace_passes: bool,
    pub infer_modifies: bool,
    /// `/loopUnroll:N`; `None` is no unrolling.
    pub loop_unroll: Option<u32>,
    /// `/inlineDepth:N`: every call to a procedure with an implementation is inlined N levels
    /// deep, whatever its attributes; `None` leaves it to `{:inline N}`.
    pub inline_depth: Option<u32>,
    pub sound_loop_unrolling: bool,
    /// `/alwaysAssumeFreeLoopInvariants`: a loop's free invariants are assumed where its
    /// checked ones are asserted, on the edges into the loop and at the end of its body.
    pub always_assume_free_loop_invariants: bool,
    /// `/forceBplErrors`: Boogie's own error messages even for checks with `{:msg "..."}`.
    pub force_bpl_errors: bool,
    pub inline: Inlining,
    /// `/proc:P` patterns (`*` matches any run of characters).
    pub procs: Vec<String>,
    /// `/noProc:P` patterns.
    pub no_procs: Vec<String>,
    pub print_inlined: bool,
    pub print_instrumented: bool,
    /// `/infer:X` with `/instrumentInfer:h|e` and `/checkInfer` (`None`: no abstract
    /// interpretation).
    pub infer: Option<crate::passes::infer::InferConfig>,
    /// `/printDesugared`: `/print` prints the program a second time, after type checking.
    pub print_desugared: bool,
    /// `/quiet`: no closing line.
    pub quiet: bool,
    /// `/silent`: `/quiet`, and no verification errors, no outcome messages, no messages
    /// Boogie writes through its printer's error and advisory lines (its `Verbosity.Silent`).
    pub silent: bool,
    /// `/printVerifiedProceduresCount:0`: the closing line leaves out the verified count
    /// (`... finished with 1 error`).
    pub print_verified_count: bool,
    /// `/proverLogAppend`: `/proverLog` files are appended to, not truncated.
    pub prover_log_append: bool,
    /// `/verifySeparately`: each input file is a program of its own, checked and closed with
    /// its own line, one after another.
    pub verify_separately: bool,
    /// `/trackVerificationCoverage`: which `{:id}`s each proof used (printed under `/trace`).
    pub track_verification_coverage: bool,
    /// `/warnVacuousProofs`: every goal gets an id, and one no proof used is reported as proved
    /// vacuously (implies `/trackVerificationCoverage`).
    pub warn_vacuous_proofs: bool,
    /// `/enhancedErrorMessages:N` (accepted, no effect yet).
    pub enhanced_error_messages: u32,
    /// `/vcsSplitOnEveryAssert`: one VC per assertion (Boogie's implementation division).
    pub split_on_every_assert: bool,
    /// `/printSplit:FILE` (`-` for stdout): each split's passive program.
    pub print_split: Option<String>,
    /// `/printModel:1`: each error's counterexample model after its trace.
    pub print_model: u32,
    /// `/printModelToFile:FILE`: the models `/printModel:1` prints go to FILE instead of after
    /// each trace (made empty at the start of the run, as Boogie does; macros expanded as for
    /// `print_file`).
    pub print_model_file: Option<String>,
    /// `/mv:FILE` (`-` for stdout, `@PROC@` per implementation): each error's model, with the
    /// states `{:captureState}` marks.
    pub model_view: Option<String>,
    /// `/printSplitDeclarations`: the program's declarations with each printed split.
    pub print_split_declarations: bool,
    /// `/smoke`: Boogie's smoke test (unreachable code is reported).
    pub smoke: bool,
    /// `/smokeTimeout:N`: seconds for each of its checks (Boogie's default 10; 0: no limit).
    pub smoke_timeout: u32,
    /// `/fieldAbstraction`: STORM's field abstraction with refinement of the tracked fields
    /// ([`crate::refinement`]).
    pub field_abstraction: bool,
    /// `/trackedFields:f,g`: the tracked fields to start from (default: those the property
    /// mentions).
    pub tracked_fields: Option<Vec<String>>,
    /// `/contractInfer`: Houdini infers which candidates of the existential constants hold
    /// ([`crate::houdini`]), then the program is reported under that assignment.
    pub contract_infer: bool,
    /// `/printAssignment`: Houdini's assignment is printed before the verdicts.
    pub print_assignment: bool,
    /// `/useUnsatCoreForContractInfer`: Houdini re-checks an implementation only when its last
    /// proof needed the refuted candidate (see [`crate::houdini`]).
    pub use_unsat_core_for_contract_infer: bool,
    /// `--print-after PASS`: the names of [`crate::passes::PASS_NAMES`] after which the program is
    /// printed to stdout, or `all`.
    pub print_after: Vec<String>,
    /// `--check-passes`: each changed program printed, parsed back and checked again.
    pub check_passes: bool,
    /// `/lib:NAME`: the libraries added to the program (`crate::library`), each once, in the
    /// order first named.
    pub libraries: Vec<String>,
    /// `--shard I/N` (rboogie's own): verify only the I-th of N shares of the implementations
    /// ([`crate::shard`]).
    pub shard: Shard,
    /// `rboogie merge FILE...`: `files` are shards' JSON output to merge, not programs.
    pub merge: bool,
    /// Free the program and the passes' copies when the run ends. Not an option: true unless
    /// the binary, whose exit frees them at no cost, says otherwise.
    pub free_at_exit: bool,
    /// `/reachAxioms:quantified`: HAVOC's reachability theory as the library's quantified
    /// axioms, not instantiated on the VC's ground terms (the default).
    pub reach_quantified: bool,
    /// Corral's whole-program bounded mode ([`crate::bounded`]), on with `/main` or `/bounded`.
    pub bounded: Bounded,
}

/// Corral's options (`/main:P`, `/recursionBound:N`, ...). The mode is on when `main` is
/// given or `on` (`/bounded`, the entry point then marked `{:entrypoint}`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bounded {
    pub on: bool,
    /// `/main:P`
    pub main: Option<String>,
    /// `/recursionBound:N` (Corral's default 1, with a warning, when absent or below 1).
    pub recursion_bound: Option<u32>,
    /// `/eagerInline` (Corral's `/staticInlining`): inline everything up front.
    pub eager: bool,
    /// `/stratified`, given: stratified inlining ([`crate::vcgen::stratified`]) is bounded
    /// mode's default anyway, unless `/eagerInline` is given.
    pub stratified: bool,
    /// `/maxStaticLoopBound:N`
    pub max_static_loop_bound: Option<u32>,
    /// `/stackDepthBound:N` (N > 0; Corral's `StackDepthBound`): a call nested deeper than N
    /// calls below the entry point is cut (`assume false`), as a call past the recursion
    /// bound is.
    pub stack_depth_bound: Option<u32>,
    /// `/k:N` and `/cooperative`: context bounds for concurrent programs.
    pub k: Option<u32>,
    pub cooperative: bool,
    /// `/thread:P` (repeatable) and `/init:P`: STORM's harness `Init; T_1 || ... || T_n`
    /// ([`crate::harness`]).
    pub threads: Vec<String>,
    pub init: Option<String>,
    /// `/incrementalK:0`: check `/k:N` alone, not K = 1, 2, ..., N in turn in one session
    /// (which finds the smallest K that shows a bug).
    pub fixed_k: bool,
    /// `/trackAllVars`, `/track:V`: Corral's variable abstraction (rboogie tracks every
    /// variable: these only widen what Corral would track).
    pub track_all_vars: bool,
    pub track: Vec<String>,
    /// `/printDataValues:N`
    pub print_data_values: u8,
    /// `/noTrace`: the verdict and the failing assertion, no trace.
    pub no_trace: bool,
    /// `/useArrayTheory`: maps are extensional arrays in this mode too. Without it they are
    /// z3 arrays without extensionality (`smt.array.extensional=false`), as Corral runs z3:
    /// two maps equal at every index need not be equal. A weaker theory has more models, so
    /// "no bugs" stays a proof, while a bug that needs two such maps equal may be reported.
    /// It spares z3 the extensionality witnesses of the many map equalities of inlined and
    /// unrolled code (a SMACK program of Corral's regressions: 9.2 s in z3 with them, 0.6 s
    /// without).
    pub extensional_arrays: bool,
    /// Corral options accepted without effect here: `/noTraceOnDisk`, `/tryCTrace` (rboogie
    /// writes no trace files), `/cex:N` (one counterexample is reported), `/stackDepthBound:0`
    /// (no bound, Corral's default), `/noArrayTheory`, `/concat`, `/assertVar`.
    pub accepted: bool,
}

impl Bounded {
    /// Whether Corral's mode is on: `/main:P`, `/bounded`, or any option only Corral has
    /// (Boogie 3.5 has none of them), as a drop-in `corral` is called.
    pub fn active(&self) -> bool {
        self.on
            || self.main.is_some()
            || self.recursion_bound.is_some()
            || self.k.is_some()
            || self.cooperative
            || !self.threads.is_empty()
            || self.init.is_some()
            || self.track_all_vars
            || !self.track.is_empty()
            || self.max_static_loop_bound.is_some()
            || self.stack_depth_bound.is_some()
            || self.no_trace
            || self.accepted
    }

    /// The context bound in effect (`/k:N`, Corral's default 2).
    pub fn rounds(&self) -> u32 {
        self.k.unwrap_or(2)
    }

    /// The bound in effect: Corral's default of 1 when none (or one below 1) is given.
    pub fn bound(&self) -> u32 {
        self.recursion_bound.filter(|&n| n >= 1).unwrap_or(1)
    }
}

impl Default for Options {
    /// Boogie's defaults (`CommandLineOptions.cs`).
    fn default() -> Options {
        Options {
            args: Vec::new(),
            files: Vec::new(),
            help: false,
            version: false,
            format: None,
            color: false,
            show_env: ShowEnv::DuringPrint,
            use_base_name: false,
            no_resolve: false,
            no_typecheck: false,
            verify: true,
            print_file: None,
            pretty: true,
            time_limit: 0,
            process_time_limit: 0,
            max_memory_mb: 0,
            resource_limit: 0,
            vcs_cores: 1,
            type_encoding: TypeEncoding::Monomorphic,
            free_var_lambda_lifting: false,
            log_prefix: String::new(),
            prover_warnings: ProverWarnings::None,
            error_trace: 1,
            remove_empty_blocks: true,
            coalesce_blocks: true,
            prune: false,
            error_limit: 5,
            prover_options: Vec::new(),
            solver: None,
            prover_log: None,
            trace: false,
            trace_proof_obligations: false,
            trace_passes: false,
            infer_modifies: false,
            loop_unroll: None,
            inline_depth: None,
            sound_loop_unrolling: false,
            always_assume_free_loop_invariants: false,
            force_bpl_errors: false,
            inline: Inlining::Assume,
            procs: Vec::new(),
            no_procs: Vec::new(),
            print_inlined: false,
            print_instrumented: false,
            infer: None,
            print_desugared: false,
            quiet: false,
            silent: false,
            print_verified_count: true,
            prover_log_append: false,
            verify_separately: false,
            track_verification_coverage: false,
            warn_vacuous_proofs: false,
            enhanced_error_messages: 0,
            split_on_every_assert: false,
            print_split: None,
            print_model: 0,
            print_model_file: None,
            model_view: None,
            print_split_declarations: false,
            smoke: false,
            smoke_timeout: 10,
            field_abstraction: false,
            tracked_fields: None,
            contract_infer: false,
            print_assignment: false,
            use_unsat_core_for_contract_infer: false,
            print_after: Vec::new(),
            check_passes: false,
            libraries: Vec::new(),
            shard: Shard::WHOLE,
            merge: false,
            free_at_exit: true,
            reach_quantified: false,
            bounded: Bounded::default(),
        }
    }
}

impl Options {
    /// What the passes are configured with: the one place the command line reaches them.
    pub fn pipeline_config(&self) -> crate::passes::PipelineConfig {
        if self.bounded.active() {
            // Every call inlined and every loop unrolled to the bound ([`crate::bounded`]);
            // the driver names the entry point once it is known.
            let bound = self.bounded.bound();
            return crate::passes::PipelineConfig {
                inline: crate::passes::Inlining::Assume,
                inline_depth: Some(bound),
                loop_unroll: Some(self.loop_unroll.unwrap_or(bound)),
                max_static_loop_bound: self.bounded.max_static_loop_bound,
                stack_depth_bound: self.bounded.stack_depth_bound,
                infer_modifies: true,
                // Houdini runs on the program with every call inlined to the bound already.
                houdini_inline: None,
                ..self.modular_pipeline_config()
            };
        }
        self.modular_pipeline_config()
    }

    fn modular_pipeline_config(&self) -> crate::passes::PipelineConfig {
        crate::passes::PipelineConfig {
            infer_modifies: self.infer_modifies,
            free_var_lambda_lifting: self.free_var_lambda_lifting,
            type_encoding: self.type_encoding,
            inline: self.inline,
            // Under `/contractInfer` the depth is Houdini's own inlining, after the passes.
            inline_depth: if self.contract_infer { None } else { self.inline_depth },
            print_inlined: self.print_inlined,
            loop_unroll: self.loop_unroll,
            sound_loop_unrolling: self.sound_loop_unrolling,
            entry: None,
            max_static_loop_bound: None,
            stack_depth_bound: None,
            inline_sites: None,
            threads: None,
            reach_ground: !self.reach_quantified,
            field_abstraction: None,
            pin: None,
            infer: self.infer,
            houdini_inline: if self.contract_infer { self.houdini_config().inline_depth } else { None },
            houdini_assignment: None,
            coalesce_blocks: self.coalesce_blocks,
        }
    }

    /// Houdini's configuration (`/contractInfer` and the options that go with it).
    pub fn houdini_config(&self) -> crate::houdini::HoudiniConfig {
        crate::houdini::HoudiniConfig {
            inline_depth: self.inline_depth.filter(|&d| d > 0),
            use_unsat_core: self.use_unsat_core_for_contract_infer,
            trace: self.trace,
            ..crate::houdini::HoudiniConfig::default()
        }
    }

    /// What the driver shows of the passes (`/trace`, `--print-after`, `/pretty`).
    pub fn pass_observation(&self) -> crate::passes::Observe {
        crate::passes::Observe {
            trace: self.trace_passes,
            print_after: self.print_after.clone(),
            pretty: self.pretty,
            check_passes: self.check_passes,
        }
    }

    /// Picks the output format left open on the command line (rich on a terminal, Boogie's
    /// otherwise) and turns colour on for a terminal. Only `main` knows what stdout is.
    pub fn adapt_to_terminal(&mut self, stdout_is_terminal: bool) {
        if self.format.is_none() {
            self.format = Some(if stdout_is_terminal { Format::Rich } else { Format::Boogie });
        }
        self.color = stdout_is_terminal;
    }
}

// ---------------------------------------------------------------------------------------------
// Errors

/// A command line rboogie cannot run.
#[derive(Clone, Debug, PartialEq)]
pub enum CliError {
    /// Errors in Boogie-spelled options, in Boogie's words (without Boogie's `Boogie: Error: `
    /// prefix, which [`CliError`]'s `Display` adds).
    Boogie(Vec<String>),
    /// An error clap found in GNU-spelled options, rendered by clap.
    Clap(String),
    /// A command line of rboogie's own (`rboogie merge`) that does not fit.
    Usage(String),
}

impl CliError {
    /// Boogie's `Main` returns 1 when option parsing fails.
    pub fn exit_code(&self) -> i32 {
        1
    }
}

impl fmt::Display for CliError {
    /// What goes to stderr: Boogie prints each error as it meets it, then one hint.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Boogie(errors) => {
                for e in errors {
                    writeln!(f, "Boogie: Error: {e}")?;
                }
                writeln!(f, "Use /help for available options")
            }
            CliError::Clap(text) => f.write_str(text),
            CliError::Usage(text) => writeln!(f, "rboogie: error: {text}"),
        }
    }
}

impl std::error::Error for CliError {}

// ---------------------------------------------------------------------------------------------
// The translation table

/// How Boogie reads an option's value (`CommandLineParseState`).
#[derive(Clone, Copy, Debug)]
enum Value {
    /// No value: `/noVerify` (`CheckBooleanFlag` / `ConfirmArgumentCount(0)`).
    Flag,
    /// Any text: `/print:FILE`.
    Text,
    /// `Convert.ToInt32`, then `min <= n < below` (`GetIntArgument` with its filter or limit).
    Int { min: i64, below: i64 },
    /// `Convert.ToUInt32` (`GetUnsignedNumericArgument`).
    UInt,
    /// `Convert.ToDouble`, at least 0 (`GetDoubleArgument`).
    Double,
    /// One of these words, exactly.
    OneOf(&'static [&'static str]),
    /// `/flags:FILE` (Corral's): more options, read from a file ([`flags_file`]).
    Flags,
    /// `/infer:X`: letters for abstract interpretation, checked as Boogie checks them (its
    /// own messages, see [`infer_errors`]).
    Infer,
}

/// One Boogie option: its name after the `/` or `-`, and the long flag it stands for.
#[derive(Clone, Copy, Debug)]
struct BoogieOption {
    name: &'static str,
    long: &'static str,
    value: Value,
}

const fn opt(name: &'static str, long: &'static str, value: Value) -> BoogieOption {
    BoogieOption { name, long, value }
}

/// `Convert.ToInt32` accepts this much.
const INT_END: i64 = i32::MAX as i64 + 1;

/// Every Boogie option rboogie knows, as Boogie spells it, with the long flag of [`Cli`] it
/// becomes. Value ranges are Boogie's (`CommandLineOptions.ParseOption`).
const BOOGIE_OPTIONS: &[BoogieOption] = &[
    opt("help", "help", Value::Flag),
    opt("?", "help", Value::Flag),
    opt("version", "version", Value::Flag),
    opt("env", "env", Value::Int { min: 0, below: 3 }),
    opt("useBaseNameForFileName", "use-base-name-for-file-name", Value::Flag),
    opt("noResolve", "no-resolve", Value::Flag),
    opt("noTypecheck", "no-typecheck", Value::Flag),
    opt("noVerify", "no-verify", Value::Flag),
    opt("print", "print", Value::Text),
    opt("pretty", "pretty", Value::Int { min: 0, below: 2 }),
    opt("timeLimit", "time-limit", Value::UInt),
    opt("processTimeLimit", "process-time-limit", Value::UInt),
    opt("maxMemoryMB", "max-memory-mb", Value::UInt),
    opt("rlimit", "rlimit", Value::UInt),
    opt("vcsCores", "vcs-cores", Value::Int { min: 1, below: INT_END }),
    opt("typeEncoding", "type-encoding", Value::OneOf(TYPE_ENCODINGS)),
    opt("freeVarLambdaLifting", "free-var-lambda-lifting", Value::Flag),
    opt("useArrayAxioms", "use-array-axioms", Value::Flag),
    opt("logPrefix", "log-prefix", Value::Text),
    opt("proverWarnings", "prover-warnings", Value::Int { min: 0, below: 3 }),
    opt("errorTrace", "error-trace", Value::Int { min: 0, below: 3 }),
    opt("removeEmptyBlocks", "remove-empty-blocks", Value::Int { min: 0, below: 2 }),
    opt("coalesceBlocks", "coalesce-blocks", Value::Int { min: 0, below: 2 }),
    opt("prune", "prune", Value::Int { min: 0, below: 2 }),
    opt("errorLimit", "error-limit", Value::Int { min: 0, below: INT_END }),
    opt("proverOpt", "prover-opt", Value::Text),
    opt("p", "prover-opt", Value::Text),
    opt("proverLog", "prover-log", Value::Text),
    opt("trace", "trace", Value::Flag),
    opt("tracePOs", "trace-pos", Value::Flag),
    opt("inferModifies", "infer-modifies", Value::Flag),
    opt("loopUnroll", "loop-unroll", Value::Int { min: 0, below: INT_END }),
    opt("inlineDepth", "inline-depth", Value::Int { min: 0, below: INT_END }),
    opt("soundLoopUnrolling", "sound-loop-unrolling", Value::Flag),
    opt("alwaysAssumeFreeLoopInvariants", "always-assume-free-loop-invariants", Value::Flag),
    opt("forceBplErrors", "force-bpl-errors", Value::Flag),
    opt("inline", "inline", Value::OneOf(INLININGS)),
    opt("reachAxioms", "reach-axioms", Value::OneOf(REACH_AXIOMS)),
    opt("proc", "proc", Value::Text),
    opt("noProc", "no-proc", Value::Text),
    opt("printInlined", "print-inlined", Value::Flag),
    opt("printInstrumented", "print-instrumented", Value::Flag),
    opt("printDesugared", "print-desugared", Value::Flag),
    opt("quiet", "quiet", Value::Flag),
    opt("silent", "silent", Value::Flag),
    opt("printVerifiedProceduresCount", "print-verified-procedures-count", Value::Int { min: 0, below: 2 }),
    opt("proverLogAppend", "prover-log-append", Value::Flag),
    opt("verifySeparately", "verify-separately", Value::Flag),
    opt("trackVerificationCoverage", "track-verification-coverage", Value::Flag),
    opt("warnVacuousProofs", "warn-vacuous-proofs", Value::Flag),
    opt("enhancedErrorMessages", "enhanced-error-messages", Value::Int { min: 0, below: 2 }),
    opt("normalizeNames", "normalize-names", Value::Int { min: 0, below: 2 }),
    opt("normalizeDeclarationOrder", "normalize-declaration-order", Value::Int { min: 0, below: 2 }),
    opt("lib", "lib", Value::Text),
    opt("vcsSplitOnEveryAssert", "vcs-split-on-every-assert", Value::Flag),
    opt("printSplit", "print-split", Value::Text),
    opt("printModel", "print-model", Value::Int { min: 0, below: 2 }),
    opt("printModelToFile", "print-model-to-file", Value::Text),
    opt("mv", "model-view", Value::Text),
    opt("printSplitDeclarations", "print-split-declarations", Value::Flag),
    opt("smoke", "smoke", Value::Flag),
    opt("smokeTimeout", "smoke-timeout", Value::UInt),
    opt("fieldAbstraction", "field-abstraction", Value::Flag),
    opt("trackedFields", "tracked-fields", Value::Text),
    opt("contractInfer", "contract-infer", Value::Flag),
    opt("printAssignment", "print-assignment", Value::Flag),
    opt("useUnsatCoreForContractInfer", "use-unsat-core-for-contract-infer", Value::Flag),
    opt("infer", "infer", Value::Infer),
    opt("instrumentInfer", "instrument-infer", Value::OneOf(&["h", "e"])),
    opt("checkInfer", "check-infer", Value::Flag),
    // Corral's (whole-program bounded mode).
    opt("main", "main", Value::Text),
    opt("bounded", "bounded", Value::Flag),
    opt("recursionBound", "recursion-bound", Value::Int { min: i32::MIN as i64, below: INT_END }),
    opt("eagerInline", "eager-inline", Value::Flag),
    opt("staticInlining", "eager-inline", Value::Flag),
    opt("stratified", "stratified", Value::Flag),
    opt("maxStaticLoopBound", "max-static-loop-bound", Value::Int { min: 0, below: INT_END }),
    opt("k", "k", Value::Int { min: 1, below: INT_END }),
    opt("cooperative", "cooperative", Value::Flag),
    opt("incrementalK", "incremental-k", Value::Int { min: 0, below: 2 }),
    opt("thread", "thread", Value::Text),
    opt("init", "init", Value::Text),
    opt("trackAllVars", "track-all-vars", Value::Flag),
    opt("track", "track", Value::Text),
    opt("printDataValues", "print-data-values", Value::Int { min: 0, below: 3 }),
    opt("noTrace", "no-trace", Value::Flag),
    opt("noTraceOnDisk", "no-trace-on-disk", Value::Flag),
    opt("tryCTrace", "try-c-trace", Value::Flag),
    opt("cex", "cex", Value::Int { min: 1, below: INT_END }),
    opt("stackDepthBound", "stack-depth-bound", Value::Int { min: 0, below: INT_END }),
    opt("noArrayTheory", "no-array-theory", Value::Flag),
    opt("concat", "concat", Value::Text),
    opt("assertVar", "assert-var", Value::Text),
    opt("assertVarIsInt", "assert-var-is-int", Value::Flag),
    opt("flags", "flags", Value::Flags),
    // Boogie 2 options that tools still pass (see the module header).
    opt("doModSetAnalysis", "infer-modifies", Value::Flag),
    opt("nologo", "nologo", Value::Flag),
    opt("noinfer", "noinfer", Value::Flag),
    opt("useArrayTheory", "use-array-theory", Value::Flag),
];

/// Boogie 3.5 options that rboogie takes (their values checked as Boogie checks them) and
/// then ignores, because what they ask for changes neither a verdict nor what is printed on
/// stdout without `/trace`: how Boogie splits VCs when they time out (rboogie splits only as
/// `/vcsSplitOnEveryAssert` and `{:split_here}` say), how it shapes a VC or manages its
/// prover (subsumption, live variables, restarts, the random seed), and debugging aids
/// (traces, dumps, a debugger, waiting for a key). Listed by `--help`.
const IGNORED_OPTIONS: &[(&str, Value)] = &[
    ("vcsMaxCost", Value::Double),
    ("vcsPathJoinMult", Value::Double),
    ("vcsPathCostMult", Value::Double),
    ("vcsAssumeMult", Value::Double),
    ("vcsPathSplitMult", Value::Double),
    ("vcsMaxSplits", Value::Int { min: i32::MIN as i64, below: INT_END }),
    ("vcsMaxKeepGoingSplits", Value::Int { min: i32::MIN as i64, below: INT_END }),
    ("vcsKeepGoingTimeout", Value::UInt),
    ("vcsFinalAssertTimeout", Value::UInt),
    ("vcsDumpSplits", Value::Flag),
    ("relaxFocus", Value::Flag),
    ("timeLimitPerAssertionInPercent", Value::Int { min: 1, below: u32::MAX as i64 + 1 }),
    ("subsumption", Value::Int { min: 0, below: 3 }),
    ("liveVariableAnalysis", Value::Int { min: 0, below: 3 }),
    ("boolControlVC", Value::Flag),
    ("noPruneInfeasibleEdges", Value::Flag),
    ("restartProver", Value::Flag),
    ("randomSeed", Value::Int { min: i32::MIN as i64, below: INT_END }),
    ("useProverEvaluate", Value::Flag),
    ("emitDebugInformation", Value::Int { min: i32::MIN as i64, below: INT_END }),
    ("traceTimes", Value::Flag),
    ("traceverify", Value::Flag),
    ("traceCaching", Value::Int { min: 0, below: 4 }),
    ("runDiagnosticsOnTimeout", Value::Flag),
    ("traceDiagnosticsOnTimeout", Value::Flag),
    ("warnNotEliminatedVars", Value::Flag),
    ("wait", Value::Flag),
    ("break", Value::Flag),
    ("launch", Value::Flag),
];

/// Corral's own options (its `Configs.parseFlag`) that ask only for how Corral searches
/// (DAG inlining, stratified inlining alone, map unification, call-tree reuse, its static
/// analyses and their pruning, refinement heuristics and hints), how it manages itself
/// (exceptions, its memory limit, which spills programs to disk) or for progress it prints
/// beside its verdict (`/v:N`, `/printProgress`, `/stats`, `/printMemUsage`): accepted and
/// ignored, as rboogie's bounded mode answers the same. Each with whether it takes a value
/// (after a colon, as Corral reads them; `None`: optional). `/include:` is ignored by Corral
/// itself.
const CORRAL_IGNORED: &[(&str, Option<bool>)] = &[
    ("di", Some(false)),
    ("si", Some(false)),
    ("unifyMaps", Some(false)),
    ("noCallTreeReuse", Some(false)),
    ("fastRequiresInference", Some(false)),
    ("cadeTiming", Some(false)),
    ("useLocalVarAbs", Some(false)),
    ("noRaiseException", Some(false)),
    ("catchAll", Some(false)),
    ("noInitPruning", Some(false)),
    ("disableStaticAnalysis", Some(false)),
    ("nonUniformUnfolding", Some(false)),
    ("fwdBck", Some(false)),
    ("fwdBckInRef", Some(false)),
    ("oldCorralFlags", Some(false)),
    ("printProgress", Some(false)),
    ("stats", Some(false)),
    ("printMemUsage", Some(false)),
    // SMACK passes it bare (older Corrals took it so); this one reads `/newStratifiedInlining:X`.
    ("newStratifiedInlining", None),
    ("oldStratifiedInlining", Some(false)),
    ("trackSecondary", Some(true)),
    ("dislike", Some(true)),
    ("refinementAlgo", Some(true)),
    ("memLimit", Some(true)),
    ("v", Some(true)),
    ("include", Some(true)),
];

/// Corral's own options that would change what is checked or printed in ways rboogie does
/// not implement (Houdini runs and summaries, SDV's modes, ignored assert methods, special
/// variables, saved states, other trace and program outputs, deep asserts, recursion
/// unfolding): refused by name. `None`: the value is optional.
const CORRAL_UNSUPPORTED: &[(&str, Option<bool>)] = &[
    ("ignoreAssertMethod", Some(true)),
    ("special", Some(true)),
    ("set", Some(true)),
    ("sdv", Some(false)),
    ("sdvInstrumentAssert", Some(false)),
    ("runHoudini", None),
    ("useHoudiniLite", Some(false)),
    ("computeSummary", Some(false)),
    ("houdiniTimeLimit", Some(true)),
    ("printHoudiniQuery", Some(true)),
    ("ann", Some(true)),
    ("dumpCorralState", Some(true)),
    ("prevCorralState", Some(true)),
    ("explainQuantifiers", Some(true)),
    ("unfoldRecursion", None),
    ("dainst", None),
    ("irreducibleLoopUnroll", Some(true)),
    ("traceProgram", Some(true)),
    ("printFinalProg", Some(true)),
    ("printVerify", Some(false)),
    ("printAllTraces", Some(false)),
    ("printBoogieFlags", Some(false)),
    ("printBoogieExt", Some(false)),
    ("checkStaticAnalysis", Some(false)),
    ("deepAsserts", Some(false)),
    ("deepAssertsNoLoop", Some(false)),
];

/// Boogie 3.5 options that rboogie does not implement and that would change what is checked
/// or printed (printing forms, other file outputs, k-induction, staged and concurrent
/// Houdini, Civl's trust options, ...): refused with a message that says so, rather than taken
/// for a file name as an unknown `/...` is. Each with whether it takes a value.
const UNSUPPORTED_OPTIONS: &[(&str, bool)] = &[
    ("attrHelp", false),
    ("civlDesugaredFile", true),
    ("concurrentHoudini", false),
    ("crossDependencies", false),
    ("dbgRefuted", false),
    ("debugConcurrentHoudini", false),
    ("debugStagedHoudini", false),
    ("deterministicExtractLoops", false),
    ("enableUnSatCoreExtraction", true),
    ("explainHoudini", false),
    ("extractLoops", false),
    ("kInductionDepth", true),
    ("keepQuantifier", false),
    ("overlookTypeErrors", false),
    ("printCFG", true),
    ("printLambdaLifting", false),
    ("printLean", true),
    ("printMeasureDesugaring", false),
    ("printPassive", true),
    ("printPruned", true),
    ("printUnstructured", false),
    ("printWithUniqueIds", false),
    ("proverDll", true),
    ("proverHelp", false),
    ("proverPreamble", true),
    ("randomSeedIterations", true),
    ("randomizeVcIterations", true),
    ("reflectAdd", false),
    ("reverseHoudiniWorklist", false),
    ("stagedHoudini", true),
    ("stagedHoudiniMergeIgnoredAnnotations", false),
    ("stagedHoudiniReachabilityAnalysis", false),
    ("stagedHoudiniThreads", true),
    ("trustInvariants", false),
    ("trustLayersDownto", true),
    ("trustLayersUpto", true),
    ("trustMoverTypes", false),
    ("trustNoninterference", false),
    ("trustRefinement", false),
    ("variableDependenceIgnore", true),
    ("verifySnapshots", true),
    ("xml", true),
];

const TYPE_ENCODINGS: &[&str] = &["m", "monomorphic", "p", "predicates", "a", "arguments"];
const INLININGS: &[&str] = &["none", "assert", "assume", "spec"];
const REACH_AXIOMS: &[&str] = &["ground", "quantified"];
const FORMATS: &[&str] = &["boogie", "rich", "json"];

/// GNU long flags that take a value, so that `--time-limit 30` consumes the `30`.
fn long_takes_value(long: &str) -> bool {
    Cli::command().get_arguments().any(|a| a.get_long() == Some(long) && a.get_action().takes_values())
}

/// A double as .NET's `ToString()` writes it (`3`, `3.5`).
fn dotnet_double(d: f64) -> String {
    if d.fract() == 0.0 && d.abs() < 1e15 { format!("{}", d as i64) } else { d.to_string() }
}

/// `Convert.ToDouble` with Boogie's filter `0 <= d`.
fn double(text: &str) -> Option<f64> {
    text.trim().parse::<f64>().ok().filter(|d| *d >= 0.0 && d.is_finite())
}

/// Checks a Boogie-spelled value as Boogie does and returns it in the form clap expects.
fn check_value(value: Value, text: &str) -> Option<String> {
    // `Convert.ToInt32`/`ToUInt32` allow surrounding white space and a sign.
    let number = || text.trim().parse::<i64>().ok();
    match value {
        Value::Flag => None,
        Value::Text => Some(text.to_string()),
        Value::Int { min, below } => number().filter(|n| (min..below).contains(n)).map(|n| n.to_string()),
        Value::UInt => number().filter(|n| (0..=u32::MAX as i64).contains(n)).map(|n| n.to_string()),
        Value::Double => double(text).map(|d| d.to_string()),
        Value::OneOf(words) => words.contains(&text).then(|| text.to_string()),
        Value::Infer | Value::Flags => Some(text.to_string()),
    }
}

/// Boogie's errors for `/infer:X` (`CommandLineOptions.ParseOption`): every letter must be `t`
/// (trivial domain), `j` (intervals), `s` (statistics) or a digit (steps before widening), and
/// exactly one of the two domains must be chosen.
fn infer_errors(switch: &str, text: &str) -> Vec<String> {
    let mut errors: Vec<String> = text
        .chars()
        .filter(|c| !matches!(c, 't' | 'j' | 's' | '0'..='9'))
        .map(|c| format!("Invalid argument '{c}' to option {switch}"))
        .collect();
    if text.contains('t') == text.contains('j') {
        errors.push(format!("Option {switch} requires the selection of exactly one abstract domain"));
    }
    errors
}

/// Corral's `/flags:FILE`: a line starting with `#` is a comment, one starting with `/` holds
/// options separated by spaces, `TrackVars=a,b` stands for `/track:a /track:b`. A file named
/// in it is not read again (Corral refuses nested `/flags`).
fn flags_file(path: &str) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read the flags file {path}: {e}"))?;
    let mut args = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(vars) = line.strip_prefix("TrackVars=") {
            args.extend(vars.split(',').map(str::trim).filter(|v| !v.is_empty()).map(|v| format!("/track:{v}")));
        } else if line.starts_with('/') {
            for arg in line.split_whitespace() {
                if arg.starts_with("/flags:") || arg == "/flags" {
                    return Err(format!("the flags file {path} names another flags file ({arg})"));
                }
                args.push(arg.to_string());
            }
        } else {
            return Err(format!("the flags file {path} has a line that is not an option: {line}"));
        }
    }
    Ok(args)
}

/// Rewrites argv (without the program name) into clap's GNU form: every option as
/// `--long[=value]`, then `--`, then the files in order. Returns Boogie's errors, if any.
fn translate(args: &[String]) -> Result<Vec<String>, Vec<String>> {
    let mut flags = Vec::new();
    let mut verbosity = None;
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut pending: std::collections::VecDeque<String> = args.iter().cloned().collect();

    while let Some(arg) = pending.pop_front() {
        if arg == "--" {
            // GNU end of options (not Boogie's): everything after it is a file.
            files.extend(pending.drain(..));
            break;
        }
        if let Some(gnu) = arg.strip_prefix("--") {
            // A GNU long flag: clap checks it; we only gather a separate value.
            if !gnu.contains('=')
                && long_takes_value(gnu)
                && let Some(value) = pending.pop_front()
            {
                flags.push(format!("{arg}={value}"));
                continue;
            }
            flags.push(arg);
            continue;
        }

        let s = arg.trim();
        if !(s.starts_with('-') || s.starts_with('/')) {
            files.push(arg);
            continue;
        }
        // `/name:value`: Boogie splits at the first colon.
        let (switch, colon_value) = match s.find(':') {
            Some(i) => (&s[..i], Some(s[i + 1..].to_string())),
            None => (s, None),
        };
        let name = &switch[1..];
        if name == "vcsLoad" {
            // Boogie's `/vcsLoad:L`: `/vcsCores` as L times the machine's processors.
            let Some(text) = colon_value.or_else(|| pending.pop_front()) else {
                errors.push(format!("\"{switch}\" expects 1 argument"));
                break;
            };
            match double(&text) {
                Some(load) if load >= 3.0 => errors.push(format!(
                    "surprisingly high load specified; got {}, expected nothing above 3.0",
                    dotnet_double(load)
                )),
                Some(load) => {
                    let processors = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
                    let cores = ((processors * load).round() as i64).max(1);
                    flags.push(format!("--vcs-cores={cores}"));
                }
                None => errors.push(format!("Invalid argument \"{text}\" to option {switch}")),
            }
            continue;
        }
        // Corral's `/bopt:X`: X is an option for the Boogie underneath (Corral passes `-X`).
        if name == "bopt" {
            match colon_value {
                // `-` + `-x` is no switch Boogie knows (nor a GNU flag here).
                Some(option) if option.starts_with('-') => errors.push(format!("unknown switch: -{option}")),
                Some(option) if !option.is_empty() => pending.push_front(format!("-{option}")),
                _ => errors.push(format!("\"{switch}\" expects 1 argument")),
            }
            continue;
        }
        // Corral's `/killAfter:N`: the whole run ends after N seconds.
        if name == "killAfter" {
            match colon_value {
                None => errors.push(format!("\"{switch}\" expects 1 argument")),
                Some(v) => match check_value(Value::Int { min: 0, below: INT_END }, &v) {
                    Some(n) => flags.push(format!("--process-time-limit={n}")),
                    None => errors.push(format!("Invalid argument \"{v}\" to option {switch}")),
                },
            }
            continue;
        }
        let corral = |table: &[(&str, Option<bool>)]| table.iter().find(|(n, _)| *n == name).map(|&(_, v)| v);
        let refused = corral(CORRAL_UNSUPPORTED);
        if let Some(takes_value) = refused.or_else(|| corral(CORRAL_IGNORED)) {
            match (takes_value, &colon_value) {
                (Some(true), None) => errors.push(format!("\"{switch}\" expects 1 argument")),
                (Some(false), Some(_)) => errors.push(format!("\"{switch}\" cannot take a colon argument")),
                _ if refused.is_some() => {
                    errors.push(format!("{switch} is a Corral option that rboogie does not support"))
                }
                _ => {}
            }
            continue;
        }
        if let Some(&(_, takes_value)) = UNSUPPORTED_OPTIONS.iter().find(|(n, _)| *n == name) {
            errors.push(format!("{switch} is a Boogie option that rboogie does not support"));
            if takes_value && colon_value.is_none() {
                pending.pop_front();
            }
            continue;
        }
        // An option taken without effect is checked as any other and becomes no long flag.
        let ignored = || IGNORED_OPTIONS.iter().find(|(n, _)| *n == name).map(|&(name, value)| opt(name, "", value));
        let Some(option) = BOOGIE_OPTIONS.iter().copied().find(|o| o.name == name).or_else(ignored) else {
            if switch.starts_with('/') {
                // Unix Boogie: an unknown `/...` is a path.
                files.push(arg.clone());
            } else {
                errors.push(format!("unknown switch: {switch}"));
            }
            // Boogie put the colon's value back in argv's slot, so it is read again, as the
            // next argument.
            if let Some(value) = colon_value {
                pending.push_front(value);
            }
            continue;
        };
        match option.value {
            Value::Flag => {
                if colon_value.is_some() {
                    errors.push(format!("\"{switch}\" cannot take a colon argument"));
                    break;
                }
                if matches!(option.name, "trace" | "quiet" | "silent") {
                    // One setting in Boogie (its `Verbosity`): the last of the three wins.
                    verbosity = Some(option.long);
                } else if !option.long.is_empty() {
                    flags.push(format!("--{}", option.long));
                }
            }
            value => {
                let Some(text) = colon_value.or_else(|| pending.pop_front()) else {
                    errors.push(format!("\"{switch}\" expects 1 argument"));
                    break;
                };
                if let Value::Infer = value {
                    errors.extend(infer_errors(switch, &text));
                }
                if let Value::Flags = value {
                    match flags_file(&text) {
                        Ok(more) => {
                            for arg in more.into_iter().rev() {
                                pending.push_front(arg);
                            }
                        }
                        Err(e) => errors.push(e),
                    }
                    continue;
                }
                match check_value(value, &text) {
                    Some(_) if option.long.is_empty() => {}
                    Some(v) => flags.push(format!("--{}={v}", option.long)),
                    None => errors.push(format!("Invalid argument \"{text}\" to option {switch}")),
                }
            }
        }
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some(long) = verbosity {
        flags.push(format!("--{long}"));
    }
    flags.push("--".to_string());
    flags.extend(files);
    Ok(flags)
}

// ---------------------------------------------------------------------------------------------
// Clap

const AFTER_HELP: &str = "\
Every option can also be written as Boogie spells it (shown in brackets): /name or -name,
with a value as /name:value, -name:value or /name value (e.g. /noVerify, -timeLimit:30).
On Unix an argument starting with / that is not a Boogie option is a file name, as in Boogie.
Several files form one program; a .txt file lists more file names. The file `stdin.bpl` is
read from standard input.

rboogie merge SHARD.json... prints Boogie's output for the whole program from the output of
`rboogie --format json --shard I/N` for I = 1..N.

Boogie options taken (their values checked as Boogie checks them) without effect, as they
change no verdict and nothing printed without /trace: /vcsMaxCost /vcsPathJoinMult
/vcsPathCostMult /vcsAssumeMult /vcsPathSplitMult /vcsMaxSplits /vcsMaxKeepGoingSplits
/vcsKeepGoingTimeout /vcsFinalAssertTimeout /vcsDumpSplits /relaxFocus
/timeLimitPerAssertionInPercent /subsumption /liveVariableAnalysis /boolControlVC
/noPruneInfeasibleEdges /restartProver /randomSeed /useProverEvaluate /emitDebugInformation
/traceTimes /traceverify /traceCaching /runDiagnosticsOnTimeout
/traceDiagnosticsOnTimeout /warnNotEliminatedVars /wait /break /launch.
/vcsLoad:L is /vcsCores as L times the machine's processors, as in Boogie.

Boogie options rboogie does not support (refused with a message):
/attrHelp /civlDesugaredFile /concurrentHoudini /crossDependencies /dbgRefuted
/debugConcurrentHoudini /debugStagedHoudini /deterministicExtractLoops
/enableUnSatCoreExtraction /explainHoudini /extractLoops /kInductionDepth /keepQuantifier
/overlookTypeErrors /printCFG /printLambdaLifting /printLean /printMeasureDesugaring
/printPassive /printPruned /printUnstructured /printWithUniqueIds /proverDll /proverHelp
/proverPreamble /randomSeedIterations /randomizeVcIterations /reflectAdd
/reverseHoudiniWorklist /stagedHoudini /stagedHoudiniMergeIgnoredAnnotations
/stagedHoudiniReachabilityAnalysis /stagedHoudiniThreads /trustInvariants /trustLayersDownto
/trustLayersUpto /trustMoverTypes /trustNoninterference /trustRefinement
/variableDependenceIgnore /verifySnapshots /xml.

Corral options taken without effect, as they ask only how Corral searches or manages itself,
or for progress lines beside its verdict: /di /si /unifyMaps /noCallTreeReuse
/fastRequiresInference /cadeTiming /useLocalVarAbs /noRaiseException /catchAll
/noInitPruning /disableStaticAnalysis /nonUniformUnfolding /fwdBck /fwdBckInRef
/oldCorralFlags /printProgress /stats /printMemUsage /newStratifiedInlining[:X]
/oldStratifiedInlining /trackSecondary:X /dislike:X /refinementAlgo:X /memLimit:X /v:X
/include:X.
/bopt:X gives X to the Boogie options (as Corral passes -X to Boogie); /killAfter:N is
/processTimeLimit:N.

Corral options rboogie does not support (refused with a message): /ignoreAssertMethod:X
/special:X /set:X /sdv /sdvInstrumentAssert /runHoudini[:X] /useHoudiniLite /computeSummary
/houdiniTimeLimit:X /printHoudiniQuery:X /ann:X /dumpCorralState:X /prevCorralState:X
/explainQuantifiers:X /unfoldRecursion[:X] /dainst[:X] /irreducibleLoopUnroll:X
/traceProgram:X /printFinalProg:X /printVerify /printAllTraces /printBoogieFlags
/printBoogieExt /checkStaticAnalysis /deepAsserts /deepAssertsNoLoop.";

const COMPAT: &str = "Verification and Boogie's other options";
const BOUNDED: &str = "Whole-program bounded checking (Corral's options)";
const BOOGIE2: &str = "Boogie 2 options that tools still pass (what rboogie does anyway)";

fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse()
}

/// The values of `--print-after`: every pass, and `all`.
fn print_after_values() -> clap::builder::PossibleValuesParser {
    let names = crate::passes::PASS_NAMES.iter().copied().chain(["all"]);
    clap::builder::PossibleValuesParser::new(names)
}

/// The GNU spelling of every option; [`BOOGIE_OPTIONS`] maps Boogie's spellings onto it.
#[derive(Parser, Debug)]
#[command(
    name = "rboogie",
    about = "A Boogie-compatible verifier: reads Boogie 3.5 programs and takes Boogie's options.",
    disable_help_flag = true,
    disable_version_flag = true,
    args_override_self = true,
    after_help = AFTER_HELP
)]
struct Cli {
    /// Input files
    #[arg(value_name = "FILE.bpl")]
    files: Vec<String>,

    /// Whole-program bounded checking from entry procedure P (Corral's mode)
    #[arg(long, value_name = "P", help_heading = BOUNDED)]
    main: Option<String>,
    /// Whole-program bounded checking from the procedure marked {:entrypoint}
    #[arg(long, help_heading = BOUNDED)]
    bounded: bool,
    /// Inline recursion, and unroll loops, to depth N (default 1)
    #[arg(long, value_name = "N", allow_negative_numbers = true, help_heading = BOUNDED)]
    recursion_bound: Option<i64>,
    /// Inline every call up front (Corral's /staticInlining) instead of on demand
    #[arg(long, help_heading = BOUNDED)]
    eager_inline: bool,
    /// Inline on demand, in one solver session: start with every call open and inline the call
    /// sites counterexamples reach (the default)
    #[arg(long, help_heading = BOUNDED)]
    stratified: bool,
    /// Unroll a loop that never runs more than N iterations (its guard decided by constants)
    /// that far, past the recursion bound
    #[arg(long, value_name = "N", help_heading = BOUNDED)]
    max_static_loop_bound: Option<u32>,
    /// Rounds (execution contexts) per thread in concurrent programs (default 2)
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..), help_heading = BOUNDED)]
    k: Option<u32>,
    /// Switch threads only at yield
    #[arg(long, help_heading = BOUNDED)]
    cooperative: bool,
    /// 1: check K = 1, 2, ..., N in turn in one solver session and report the smallest K that
    /// shows the bug (the default); 0: check /k:N alone
    #[arg(long, value_name = "0|1", value_parser = value_parser!(u8).range(0..=1), help_heading = BOUNDED)]
    incremental_k: Option<u8>,
    /// A thread of STORM's harness Init; T1 || ... || Tn, running procedure P (repeatable: one
    /// thread each); procedures marked {:thread} are threads too
    #[arg(long, value_name = "P", action = ArgAction::Append, help_heading = BOUNDED)]
    thread: Vec<String>,
    /// The harness's initialization, run before the threads (or the procedure marked {:init})
    #[arg(long, value_name = "P", help_heading = BOUNDED)]
    init: Option<String>,
    /// Track every variable (rboogie always does)
    #[arg(long, help_heading = BOUNDED)]
    track_all_vars: bool,
    /// Track variable V (repeatable; rboogie tracks every variable)
    #[arg(long, value_name = "V", action = ArgAction::Append, help_heading = BOUNDED)]
    track: Vec<String>,
    /// Values of the trace's variables: 0 none, 1 in the trace
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=2), help_heading = BOUNDED)]
    print_data_values: Option<u8>,
    /// Corral's: print the verdict and the failing assertion, without the trace
    #[arg(long, help_heading = BOUNDED)]
    no_trace: bool,
    /// Corral's (rboogie writes no trace files)
    #[arg(long, help_heading = BOUNDED)]
    no_trace_on_disk: bool,
    /// Corral's: maps as uninterpreted functions with axioms; rboogie keeps z3's arrays without
    /// extensionality, Corral's default, which is no stronger
    #[arg(long, help_heading = BOUNDED)]
    no_array_theory: bool,
    /// Corral's (accepted)
    #[arg(long, help_heading = BOUNDED)]
    try_c_trace: bool,
    /// Corral's number of counterexamples (accepted; one is reported)
    #[arg(long, value_name = "N", help_heading = BOUNDED)]
    cex: Option<u32>,
    /// Corral's bound on the call stack's depth: a call with N calls above it is cut (0: none)
    #[arg(long, value_name = "N", help_heading = BOUNDED)]
    stack_depth_bound: Option<u32>,
    /// Corral's error flag for its forward-backward search (accepted: rboogie's checks are
    /// the program's assertions)
    #[arg(long, value_name = "V", help_heading = BOUNDED)]
    assert_var: Option<String>,
    /// Corral's: the `/assertVar` flag is an int (accepted)
    #[arg(long, help_heading = BOUNDED)]
    assert_var_is_int: bool,
    /// Corral's: FILE is read before the input files (repeatable), as if given first
    #[arg(long, value_name = "FILE", action = ArgAction::Append, help_heading = BOUNDED)]
    concat: Vec<String>,

    /// Print this message
    #[arg(long, help_heading = "General")]
    help: bool,
    /// Print the version
    #[arg(long, help_heading = "General")]
    version: bool,
    /// How to print diagnostics [default: boogie when stdout is not a terminal, rich on a
    /// terminal]
    #[arg(long, value_name = "FORMAT", value_parser = FORMATS.to_vec(), help_heading = "General")]
    format: Option<String>,
    /// Echo the command line: 0 never, 1 atop /print output (default), 2 also on stdout
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=2), help_heading = "General")]
    env: Option<u8>,
    /// Solver: z3 or cvc5 (the binary over a pipe), in-process (linked Z3, the default), or a
    /// command line
    #[arg(long, value_name = "SOLVER", help_heading = "General")]
    solver: Option<String>,
    /// Name input files by their base name in messages
    #[arg(long, help_heading = "General")]
    use_base_name_for_file_name: bool,
    /// Verify only the I-th of N shares of the implementations (1 <= I <= N), balanced by size;
    /// `rboogie merge` rebuilds the whole output from the N runs' --format json output
    #[arg(long, value_name = "I/N", value_parser = parse_shard, help_heading = "General")]
    shard: Option<Shard>,

    /// HAVOC's reachability theory (/lib:havoc): instantiated on the VC's ground terms
    /// (default), or sent as quantified axioms
    #[arg(long, value_name = "ground|quantified", value_parser = REACH_AXIOMS.to_vec(), help_heading = "Pipeline")]
    reach_axioms: Option<String>,
    /// STORM's field abstraction: global maps the property does not need are abstracted away,
    /// the tracked set refined on spurious counterexamples (with /main and /k, or modular)
    #[arg(long, help_heading = "Pipeline")]
    field_abstraction: bool,
    /// The fields to track from the start, comma-separated (implies --field-abstraction)
    #[arg(long, value_name = "F,G", help_heading = "Pipeline")]
    tracked_fields: Option<String>,
    /// Houdini: infer which candidates guarded by {:existential true} constants hold, then verify
    #[arg(long, help_heading = "Pipeline")]
    contract_infer: bool,
    /// With --contract-infer, print the assignment Houdini computed
    #[arg(long, help_heading = "Pipeline")]
    print_assignment: bool,
    /// With --contract-infer, re-check only the implementations whose last proof (unsat core) used a refuted candidate
    #[arg(long, help_heading = "Pipeline")]
    use_unsat_core_for_contract_infer: bool,
    /// Parse only
    #[arg(long, help_heading = "Pipeline")]
    no_resolve: bool,
    /// Parse and resolve only
    #[arg(long, help_heading = "Pipeline")]
    no_typecheck: bool,
    /// Skip VC generation and the solver
    #[arg(long, help_heading = "Pipeline")]
    no_verify: bool,
    /// Print the program after parsing it (- for stdout)
    #[arg(long, value_name = "FILE", help_heading = "Pipeline")]
    print: Option<String>,
    /// With --print: 0 one line per statement, 1 pretty (default)
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = "Pipeline")]
    pretty: Option<u8>,
    /// Print the program to stdout after PASS and go on (repeatable; all: every pass)
    #[arg(long, value_name = "PASS", value_parser = print_after_values(), action = ArgAction::Append, help_heading = "Pipeline")]
    print_after: Vec<String>,
    /// After each pass that changes the program, print it, parse it back and check it again; compare the types a pass recorded (lambda lifting) with that check
    #[arg(long, help_heading = "Pipeline")]
    check_passes: bool,

    /// Seconds per implementation (0: no limit)
    #[arg(long, value_name = "N", help_heading = COMPAT)]
    time_limit: Option<u32>,
    /// Seconds for the whole run (0: no limit): the run ends then, as Boogie's is cancelled
    #[arg(long, value_name = "N", help_heading = COMPAT)]
    process_time_limit: Option<u32>,
    /// MB that VC generation, and each solver, may use (0: half the machine's memory); an
    /// implementation that would pass it is reported out of memory
    #[arg(long, value_name = "N", help_heading = COMPAT)]
    max_memory_mb: Option<u32>,
    /// Solver resource limit per implementation
    #[arg(long, value_name = "N", help_heading = COMPAT)]
    rlimit: Option<u32>,
    /// Verify N VCs at once
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(1..INT_END), help_heading = COMPAT)]
    vcs_cores: Option<u32>,
    /// Type encoding of polymorphic programs: m[onomorphic], p[redicates], a[rguments]
    #[arg(long, value_name = "X", value_parser = TYPE_ENCODINGS.to_vec(), hide_possible_values = true, help_heading = COMPAT)]
    type_encoding: Option<String>,
    /// Lift a lambda's free variables, not its maximal holes (lambdas that differ only in
    /// closed subterms then stay different functions)
    #[arg(long, help_heading = COMPAT)]
    free_var_lambda_lifting: bool,
    /// Boogie: maps as functions with select-of-store axioms, without extensionality. rboogie
    /// keeps SMT arrays (extensional, as Boogie's maps are): accepted, no effect
    #[arg(long, help_heading = COMPAT)]
    use_array_axioms: bool,
    /// Expansion of @PREFIX@ in file names (repeatable: the values are concatenated)
    #[arg(long, value_name = "X", action = ArgAction::Append, help_heading = COMPAT)]
    log_prefix: Vec<String>,
    /// Prover warnings: 0 none (default), 1 to stdout, 2 to stderr (accepted, no effect yet)
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=2), help_heading = COMPAT)]
    prover_warnings: Option<u8>,
    /// Trace labels in error output: 0 none, 1 useful (default), 2 all
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=2), help_heading = COMPAT)]
    error_trace: Option<u8>,
    /// Remove empty blocks before the VC: 1 (default) or 0
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    remove_empty_blocks: Option<u8>,
    /// Merge each block into its predecessor when it is that block's one successor and has no
    /// other predecessor: 1 (default) or 0
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    coalesce_blocks: Option<u8>,
    /// Send each implementation only the axioms its declarations reach: 1 or 0 (default)
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    prune: Option<u8>,
    /// Errors reported per procedure (default 5; 0: as many as possible)
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(0..INT_END), help_heading = COMPAT)]
    error_limit: Option<u32>,
    /// Solver option KEY[=VALUE] (repeatable)
    #[arg(long, value_name = "X", action = ArgAction::Append, help_heading = COMPAT)]
    prover_opt: Vec<String>,
    /// Log the solver's input to FILE
    #[arg(long, value_name = "FILE", help_heading = COMPAT)]
    prover_log: Option<String>,
    /// Print trace information
    #[arg(long, help_heading = COMPAT)]
    trace: bool,
    /// Print each implementation's name and its number of proof obligations
    #[arg(long, help_heading = COMPAT)]
    trace_pos: bool,
    /// Print the time of resolution and type checking and of each pass, and whether it changed the program
    #[arg(long, help_heading = "Pipeline")]
    trace_passes: bool,
    /// Infer modifies clauses
    #[arg(long, help_heading = COMPAT)]
    infer_modifies: bool,
    /// Unroll loops N times
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(0..INT_END), help_heading = COMPAT)]
    loop_unroll: Option<u32>,
    /// Unroll loops soundly
    #[arg(long, help_heading = COMPAT)]
    sound_loop_unrolling: bool,
    /// Assume each free loop invariant on the edges into its loop and at the end of the body,
    /// where the checked invariants are asserted
    #[arg(long, help_heading = COMPAT)]
    always_assume_free_loop_invariants: bool,
    /// Show Boogie's own error messages even for checks with a {:msg "..."} attribute
    #[arg(long, help_heading = COMPAT)]
    force_bpl_errors: bool,
    /// Inline every call to a procedure with an implementation, N levels deep
    #[arg(long, value_name = "N", value_parser = value_parser!(u32).range(0..INT_END), help_heading = COMPAT)]
    inline_depth: Option<u32>,
    /// Inlining of {:inline} procedures: none, assert, assume (default), spec
    #[arg(long, value_name = "X", value_parser = INLININGS.to_vec(), hide_possible_values = true, help_heading = COMPAT)]
    inline: Option<String>,
    /// Check only procedures matching P (* is a wildcard; repeatable)
    #[arg(long = "proc", value_name = "P", action = ArgAction::Append, help_heading = COMPAT)]
    procs: Vec<String>,
    /// Do not check procedures matching P (repeatable)
    #[arg(long = "no-proc", value_name = "P", action = ArgAction::Append, help_heading = COMPAT)]
    no_procs: Vec<String>,
    /// Print implementations after inlining
    #[arg(long, help_heading = COMPAT)]
    print_inlined: bool,
    /// Print the program as verification gets it (after lambda lifting, inlining, unrolling)
    #[arg(long, help_heading = COMPAT)]
    print_instrumented: bool,
    /// With --print, print the program again after type checking
    #[arg(long, help_heading = COMPAT)]
    print_desugared: bool,
    /// Print nothing but warnings and errors (no closing line)
    #[arg(long, help_heading = COMPAT)]
    quiet: bool,
    /// Print no verification errors and no closing line (only parse, resolution and type errors)
    #[arg(long, help_heading = COMPAT)]
    silent: bool,
    /// The closing line counts verified implementations: 1 (default) or 0
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    print_verified_procedures_count: Option<u8>,
    /// Append to the --prover-log files instead of overwriting them
    #[arg(long, help_heading = COMPAT)]
    prover_log_append: bool,
    /// Check each input file as a program of its own, one after another
    #[arg(long, help_heading = COMPAT)]
    verify_separately: bool,
    /// Track which {:id}s (assumptions, assertions, contract clauses, assignments, axioms)
    /// each proof uses; /trace prints them per implementation and for the whole program
    #[arg(long, help_heading = COMPAT)]
    track_verification_coverage: bool,
    /// Give every assertion, assumption, call and contract clause an id, and warn about each
    /// assertion or ensures clause that no proof used (implies --track-verification-coverage)
    #[arg(long, help_heading = COMPAT)]
    warn_vacuous_proofs: bool,
    /// 1: show the {:print ...} attributes on a failing path, with the counterexample's values
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    enhanced_error_messages: Option<u8>,
    /// One VC per assertion (implementation division)
    #[arg(long, help_heading = COMPAT)]
    vcs_split_on_every_assert: bool,
    /// Print each split's passive program to FILE-NAME.spl (- for stdout)
    #[arg(long, value_name = "FILE", help_heading = COMPAT)]
    print_split: Option<String>,
    /// 1: print each error's counterexample model after its trace
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    print_model: Option<u8>,
    /// With --print-model 1, write the models to FILE instead of after each trace
    #[arg(long, value_name = "FILE", help_heading = COMPAT)]
    print_model_to_file: Option<String>,
    /// Write each error's model, with its captured states, to FILE (- for stdout; @PROC@ for
    /// the implementation's name)
    #[arg(long, value_name = "FILE", help_heading = COMPAT)]
    model_view: Option<String>,
    /// With --print-split, print the program's declarations too
    #[arg(long, help_heading = COMPAT)]
    print_split_declarations: bool,
    /// Smoke test: report code no execution reaches
    #[arg(long, help_heading = COMPAT)]
    smoke: bool,
    /// Seconds for each check of the smoke test (default 10; 0: no limit)
    #[arg(long, value_name = "N", help_heading = COMPAT)]
    smoke_timeout: Option<u32>,
    /// Accepted, no effect: rboogie's solver names are always made from the program's
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    normalize_names: Option<u8>,
    /// Accepted, no effect: rboogie declares in the program's order, the same on every run
    #[arg(long, value_name = "N", value_parser = value_parser!(u8).range(0..=1), help_heading = COMPAT)]
    normalize_declaration_order: Option<u8>,
    /// Add the declarations of library NAME: base, node or set_size (repeatable)
    #[arg(long, value_name = "NAME", action = ArgAction::Append, help_heading = COMPAT)]
    lib: Vec<String>,
    /// Infer invariants by abstract interpretation: t (trivial domain) or j (intervals), a digit N (widen after N joins)
    #[arg(long, value_name = "X", help_heading = COMPAT)]
    infer: Option<String>,
    /// Where inferred invariants go: h (loop heads, default) or e (every block's entry and exit)
    #[arg(long, value_name = "X", value_parser = ["h", "e"], hide_possible_values = true, help_heading = COMPAT)]
    instrument_infer: Option<String>,
    /// Inferred invariants as assertions (checked) instead of assumptions
    #[arg(long, help_heading = COMPAT)]
    check_infer: bool,

    /// No start-up banner (rboogie prints none)
    #[arg(long, help_heading = BOOGIE2)]
    nologo: bool,
    /// No abstract interpretation (overrides /infer)
    #[arg(long, help_heading = BOOGIE2)]
    noinfer: bool,
    /// Maps of monomorphic programs as SMT arrays (rboogie's default, as Boogie 3.5's)
    #[arg(long, help_heading = BOOGIE2)]
    use_array_theory: bool,
}

/// [`Cli`]'s command, with each option's Boogie spellings added to its help line.
fn command() -> clap::Command {
    let mut cmd = Cli::command();
    let args: Vec<(String, String, String)> = cmd
        .get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?.to_string();
            let value_name = a.get_value_names().and_then(|v| v.first()).map(|s| s.to_string());
            Some((a.get_id().to_string(), long, value_name.unwrap_or_default()))
        })
        .collect();
    for (id, long, value_name) in args {
        let spellings: Vec<String> = BOOGIE_OPTIONS
            .iter()
            .filter(|o| o.long == long)
            .map(|o| match o.value {
                Value::Flag => format!("/{}", o.name),
                _ => format!("/{}:<{value_name}>", o.name),
            })
            .collect();
        if spellings.is_empty() {
            continue;
        }
        cmd = cmd.mut_arg(id, |a| {
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            a.help(format!("{help} [{}]", spellings.join(", ")))
        });
    }
    cmd
}

/// The text of `--help` (and `/help`, `-?`).
pub fn help_text() -> String {
    command().render_help().to_string()
}

/// rboogie's version line (`/version`, and the first `/env` comment of `/print` output).
pub fn version_text() -> String {
    format!("rboogie version {}, a Boogie 3.5 compatible verifier", env!("CARGO_PKG_VERSION"))
}

// ---------------------------------------------------------------------------------------------
// Entry point

/// Parses a command line (without the program name) as Boogie would.
pub fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Options, CliError> {
    let args: Vec<String> = args.into_iter().collect();
    // `merge` is never a Boogie input (those end in `.bpl`), so it can name the subcommand.
    if args.first().is_some_and(|a| a == "merge") {
        return merge_args(args);
    }
    let gnu = translate(&args).map_err(CliError::Boogie)?;
    let argv = || std::iter::once("rboogie".to_string()).chain(gnu.iter().cloned());
    // The plain command parses: adding the Boogie spellings to every help line ([`command`])
    // took a third of a small run's start-up (79 `mut_arg`s, each moving every argument), and
    // only `--help` shows them. Asked for help, the command with them parses again and renders
    // it, as it always did.
    let matches = match Cli::command().try_get_matches_from(argv()) {
        Ok(matches) => matches,
        Err(e)
            if matches!(
                e.kind(),
                clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) =>
        {
            command().try_get_matches_from(argv()).map_err(|e| CliError::Clap(e.render().to_string()))?
        }
        Err(e) => return Err(CliError::Clap(e.render().to_string())),
    };
    let cli = Cli::from_arg_matches(&matches).map_err(|e| CliError::Clap(e.render().to_string()))?;
    Ok(options_from(args, cli))
}

/// `rboogie merge FILE...`: file names only.
fn merge_args(args: Vec<String>) -> Result<Options, CliError> {
    let files: Vec<String> = args[1..].to_vec();
    if let Some(option) = files.iter().find(|f| f.starts_with('-')) {
        return Err(CliError::Usage(format!(
            "rboogie merge takes the shards' JSON files and no options (got {option})"
        )));
    }
    if files.is_empty() {
        return Err(CliError::Usage("rboogie merge needs the shards' JSON files: rboogie merge SHARD.json...".into()));
    }
    Ok(Options { files, merge: true, args, ..Options::default() })
}

fn options_from(args: Vec<String>, cli: Cli) -> Options {
    let d = Options::default();
    let mut o = Options {
        // Corral concatenates `/concat:` files ahead of its input file.
        files: cli.concat.iter().cloned().chain(cli.files).collect(),
        help: cli.help,
        version: cli.version,
        format: cli.format.as_deref().map(|f| match f {
            "rich" => Format::Rich,
            "json" => Format::Json,
            _ => Format::Boogie,
        }),
        color: false,
        show_env: match cli.env {
            Some(0) => ShowEnv::Never,
            Some(2) => ShowEnv::Always,
            Some(_) => ShowEnv::DuringPrint,
            None => d.show_env,
        },
        use_base_name: cli.use_base_name_for_file_name,
        no_resolve: cli.no_resolve,
        no_typecheck: cli.no_typecheck,
        verify: !cli.no_verify,
        print_file: cli.print,
        pretty: cli.pretty.map_or(d.pretty, |p| p == 1),
        time_limit: cli.time_limit.unwrap_or(d.time_limit),
        process_time_limit: cli.process_time_limit.unwrap_or(d.process_time_limit),
        max_memory_mb: cli.max_memory_mb.unwrap_or(d.max_memory_mb),
        resource_limit: cli.rlimit.unwrap_or(d.resource_limit),
        vcs_cores: cli.vcs_cores.unwrap_or(d.vcs_cores),
        type_encoding: match cli.type_encoding.as_deref() {
            Some("p" | "predicates") => TypeEncoding::Predicates,
            Some("a" | "arguments") => TypeEncoding::Arguments,
            Some(_) => TypeEncoding::Monomorphic,
            None => d.type_encoding,
        },
        free_var_lambda_lifting: cli.free_var_lambda_lifting,
        log_prefix: cli.log_prefix.iter().map(|p| p.replace(['/', '\\'], "-")).collect(),
        prover_warnings: match cli.prover_warnings {
            Some(1) => ProverWarnings::Stdout,
            Some(2) => ProverWarnings::Stderr,
            Some(_) => ProverWarnings::None,
            None => d.prover_warnings,
        },
        error_trace: cli.error_trace.map_or(d.error_trace, u32::from),
        remove_empty_blocks: cli.remove_empty_blocks.map_or(d.remove_empty_blocks, |n| n == 1),
        coalesce_blocks: cli.coalesce_blocks.map_or(d.coalesce_blocks, |n| n == 1),
        prune: cli.prune.map_or(d.prune, |n| n == 1),
        error_limit: cli.error_limit.unwrap_or(d.error_limit),
        prover_options: cli.prover_opt,
        solver: cli.solver,
        prover_log: cli.prover_log,
        trace: cli.trace,
        trace_proof_obligations: cli.trace_pos,
        trace_passes: cli.trace_passes,
        infer_modifies: cli.infer_modifies,
        loop_unroll: cli.loop_unroll,
        inline_depth: cli.inline_depth,
        sound_loop_unrolling: cli.sound_loop_unrolling,
        always_assume_free_loop_invariants: cli.always_assume_free_loop_invariants,
        force_bpl_errors: cli.force_bpl_errors,
        inline: match cli.inline.as_deref() {
            Some("none") => Inlining::None,
            Some("assert") => Inlining::Assert,
            Some("spec") => Inlining::Spec,
            Some(_) => Inlining::Assume,
            None => d.inline,
        },
        procs: cli.procs,
        no_procs: cli.no_procs,
        print_inlined: cli.print_inlined,
        print_instrumented: cli.print_instrumented,
        infer: cli.infer.as_deref().filter(|_| !cli.noinfer).and_then(|letters| {
            crate::passes::infer::InferConfig::from_letters(
                letters,
                cli.instrument_infer.as_deref() == Some("e"),
                cli.check_infer,
            )
        }),
        print_desugared: cli.print_desugared,
        quiet: cli.quiet || cli.silent,
        silent: cli.silent,
        print_verified_count: cli.print_verified_procedures_count != Some(0),
        prover_log_append: cli.prover_log_append,
        verify_separately: cli.verify_separately,
        track_verification_coverage: cli.track_verification_coverage || cli.warn_vacuous_proofs,
        warn_vacuous_proofs: cli.warn_vacuous_proofs,
        enhanced_error_messages: cli.enhanced_error_messages.map_or(d.enhanced_error_messages, u32::from),
        split_on_every_assert: cli.vcs_split_on_every_assert,
        print_split: cli.print_split,
        print_model: cli.print_model.map_or(d.print_model, u32::from),
        print_model_file: cli.print_model_to_file,
        model_view: cli.model_view,
        print_split_declarations: cli.print_split_declarations,
        smoke: cli.smoke,
        smoke_timeout: cli.smoke_timeout.unwrap_or(d.smoke_timeout),
        field_abstraction: cli.field_abstraction || cli.tracked_fields.is_some(),
        tracked_fields: cli
            .tracked_fields
            .map(|list| list.split(',').map(str::trim).filter(|f| !f.is_empty()).map(str::to_string).collect()),
        contract_infer: cli.contract_infer,
        print_assignment: cli.print_assignment,
        use_unsat_core_for_contract_infer: cli.use_unsat_core_for_contract_infer,
        print_after: cli.print_after,
        check_passes: cli.check_passes,
        libraries: cli.lib.iter().fold(Vec::new(), |mut names, name| {
            if !names.contains(name) {
                names.push(name.clone());
            }
            names
        }),
        shard: cli.shard.unwrap_or(d.shard),
        merge: false,
        free_at_exit: d.free_at_exit,
        reach_quantified: cli.reach_axioms.as_deref() == Some("quantified"),
        bounded: Bounded {
            on: cli.bounded,
            main: cli.main,
            recursion_bound: cli.recursion_bound.map(|n| u32::try_from(n).unwrap_or(0)),
            eager: cli.eager_inline,
            stratified: cli.stratified,
            max_static_loop_bound: cli.max_static_loop_bound,
            stack_depth_bound: cli.stack_depth_bound.filter(|&n| n > 0),
            k: cli.k,
            cooperative: cli.cooperative,
            fixed_k: cli.incremental_k == Some(0),
            threads: cli.thread,
            init: cli.init,
            track_all_vars: cli.track_all_vars,
            track: cli.track,
            print_data_values: cli.print_data_values.unwrap_or(0),
            no_trace: cli.no_trace,
            extensional_arrays: cli.use_array_theory,
            accepted: cli.no_array_theory
                || !cli.concat.is_empty()
                || cli.assert_var.is_some()
                || cli.assert_var_is_int
                || cli.no_trace_on_disk
                || cli.try_c_trace
                || cli.cex.is_some()
                || cli.stack_depth_bound.is_some(),
        },
        args,
    };
    // Boogie expands these macros once all options are known (`ApplyDefaultOptions`).
    let last_file = o.files.last().map(|f| f.replace([':', '/', '\\'], "-")).unwrap_or_default();
    let time = timestamp();
    let expand =
        |p: &String| p.replace("@PREFIX@", &o.log_prefix).replace("@TIME@", &time).replace("@FILE@", &last_file);
    o.print_file = o.print_file.as_ref().map(expand);
    o.prover_log = o.prover_log.as_ref().map(expand);
    o.print_model_file = o.print_model_file.as_ref().map(expand);
    o
}

/// The current time as Boogie's `@TIME@`: .NET's round-trip format with `:` replaced by `.`
/// (rboogie uses UTC where Boogie uses local time).
fn timestamp() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}.{:02}.{:02}.{:07}+00.00",
        rem / 3600,
        rem / 60 % 60,
        rem % 60,
        now.subsec_nanos() / 100
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn translated(s: &str) -> Result<Vec<String>, Vec<String>> {
        translate(&args(s))
    }

    fn parsed(s: &str) -> Options {
        parse_args(args(s)).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// Corral's `/concat:`, `/assertVar:`, `/assertVarIsInt` and `/noArrayTheory` select its
    /// mode; `/concat:` files are read first; arrays are weak unless `/useArrayTheory`.
    #[test]
    fn corral_input_options() {
        let o = parsed("/concat:lib.bpl main.bpl /concat:more.bpl");
        assert_eq!(o.files, args("lib.bpl more.bpl main.bpl"));
        assert!(o.bounded.active() && !o.bounded.extensional_arrays);
        for opts in ["/assertVar:err a.bpl", "/assertVarIsInt a.bpl", "/noArrayTheory a.bpl"] {
            assert!(parsed(opts).bounded.active(), "{opts}");
        }
        assert!(parsed("/main:m /useArrayTheory a.bpl").bounded.extensional_arrays);
        assert!(!parsed("a.bpl").bounded.active());
    }

    #[test]
    fn boogie_spellings_become_long_flags() {
        assert_eq!(
            translated("/noVerify -timeLimit:30 a.bpl /print:- b.bpl").unwrap(),
            args("--no-verify --time-limit=30 --print=- -- a.bpl b.bpl")
        );
        assert_eq!(translated("-p:O=1 /proverOpt:X").unwrap(), args("--prover-opt=O=1 --prover-opt=X --"));
        assert_eq!(translated("-? /help").unwrap(), args("--help --help --"));
    }

    /// `/trace`, `/quiet` and `/silent` are one setting in Boogie (`Verbosity`): the last wins.
    #[test]
    fn the_last_verbosity_option_wins() {
        assert_eq!(translated("/trace /silent a.bpl").unwrap(), args("--silent -- a.bpl"));
        assert_eq!(translated("/silent -trace a.bpl").unwrap(), args("--trace -- a.bpl"));
        let o = parsed("/trace /quiet a.bpl");
        assert!(o.quiet && !o.trace && !o.silent);
        let o = parsed("/silent a.bpl");
        assert!(o.silent && o.quiet && !o.trace);
    }

    #[test]
    fn value_without_colon_takes_next_argument() {
        assert_eq!(translated("/print out.bpl a.bpl").unwrap(), args("--print=out.bpl -- a.bpl"));
        assert_eq!(translated("-timeLimit 30").unwrap(), args("--time-limit=30 --"));
        // As in Boogie, even a file name: /pretty wants a number.
        assert_eq!(translated("/pretty a.bpl").unwrap_err(), vec!["Invalid argument \"a.bpl\" to option /pretty"]);
    }

    #[test]
    fn gnu_flags_pass_through_with_their_values() {
        assert_eq!(
            translated("--no-verify --time-limit 30 --format=json --print - a.bpl").unwrap(),
            args("--no-verify --time-limit=30 --format=json --print=- -- a.bpl")
        );
        assert_eq!(translated("a.bpl -- -odd.bpl /noVerify").unwrap(), args("-- a.bpl -odd.bpl /noVerify"));
    }

    #[test]
    fn unknown_switches_and_slash_paths() {
        assert_eq!(translated("-bogus a.bpl").unwrap_err(), vec!["unknown switch: -bogus"]);
        // On Unix an unknown `/...` is a file (it fails the extension check later).
        assert_eq!(translated("/tmp/a.bpl /bogus").unwrap(), args("-- /tmp/a.bpl /bogus"));
        // Boogie's names are case-sensitive.
        assert_eq!(translated("-noverify").unwrap_err(), vec!["unknown switch: -noverify"]);
        // The colon's value is read again as an argument of its own.
        assert_eq!(translated("/x:y.bpl").unwrap(), args("-- /x:y.bpl y.bpl"));
        // Boogie 2 options with no meaning today stay unknown.
        assert_eq!(translated("/z3opt:X -doNotUseLabels").unwrap_err(), vec!["unknown switch: -doNotUseLabels"]);
    }

    #[test]
    fn boogie_2_options_that_tools_pass_are_accepted() {
        // SMACK's command line.
        let o =
            parsed("/nologo /noinfer /doModSetAnalysis /useArrayTheory /proverOpt:O:smt.array.extensional=false a.bpl");
        assert!(o.infer_modifies);
        assert_eq!(o.prover_options, args("O:smt.array.extensional=false"));
        assert_eq!(
            o,
            Options {
                infer_modifies: true,
                prover_options: o.prover_options.clone(),
                args: o.args.clone(),
                files: args("a.bpl"),
                // Recorded for Corral's mode, where it keeps arrays extensional.
                bounded: Bounded { extensional_arrays: true, ..Bounded::default() },
                ..Options::default()
            }
        );
        assert_eq!(
            translated("-useArrayTheory:1").unwrap_err(),
            vec!["\"-useArrayTheory\" cannot take a colon argument"]
        );
    }

    #[test]
    fn print_after_names_a_pass() {
        assert_eq!(parsed("--print-after inline --print-after=all a.bpl").print_after, args("inline all"));
        let Err(CliError::Clap(e)) = parse_args(args("--print-after=inlining a.bpl")) else { panic!("accepted") };
        assert!(
            e.contains("inlining")
                && e.contains(
                    "lambda, monomorphize, erase-types, inline, infer, field-abstraction, unroll, sequentialize, pin, houdini-inline, houdini-assignment, all"
                ),
            "{e}"
        );
    }

    #[test]
    fn argument_count_errors_stop_the_walk() {
        assert_eq!(translated("/noVerify:1 -bogus").unwrap_err(), vec!["\"/noVerify\" cannot take a colon argument"]);
        assert_eq!(
            translated("-bogus /print").unwrap_err(),
            vec!["unknown switch: -bogus", "\"/print\" expects 1 argument"]
        );
    }

    #[test]
    fn values_are_checked_as_boogie_does() {
        assert_eq!(translated("/vcsCores:0").unwrap_err(), vec!["Invalid argument \"0\" to option /vcsCores"]);
        assert_eq!(translated("-env:3").unwrap_err(), vec!["Invalid argument \"3\" to option -env"]);
        assert_eq!(translated("-timeLimit:-1").unwrap_err(), vec!["Invalid argument \"-1\" to option -timeLimit"]);
        assert_eq!(translated("/inline:never").unwrap_err(), vec!["Invalid argument \"never\" to option /inline"]);
        // Errors that do not stop the walk are all reported.
        assert_eq!(translated("/env:x /pretty:2").unwrap_err().len(), 2);
        assert_eq!(translated("/timeLimit:+30 /errorTrace:0").unwrap(), args("--time-limit=30 --error-trace=0 --"));
    }

    #[test]
    fn infer_takes_boogies_letters_and_one_domain() {
        assert_eq!(translated("/infer:j a.bpl").unwrap(), args("--infer=j -- a.bpl"));
        assert_eq!(translated("-infer:t5s").unwrap(), args("--infer=t5s --"));
        assert_eq!(translated("/infer:jx").unwrap_err(), vec!["Invalid argument 'x' to option /infer"]);
        assert_eq!(
            translated("/infer:tj").unwrap_err(),
            vec!["Option /infer requires the selection of exactly one abstract domain"]
        );
        assert_eq!(translated("/infer:s").unwrap_err().len(), 1);
    }

    #[test]
    fn options_get_boogie_defaults_and_values() {
        let o = parsed("a.bpl");
        assert_eq!(o, Options { args: args("a.bpl"), files: args("a.bpl"), ..Options::default() });
        let o = parsed(
            "-useBaseNameForFileName -timeLimit:30 /vcsCores:2 /env:0 /pretty:0 /noVerify /proc:F* /proc:G a.bpl",
        );
        assert!(o.use_base_name && !o.verify && !o.pretty);
        assert_eq!((o.time_limit, o.vcs_cores, o.show_env), (30, 2, ShowEnv::Never));
        assert_eq!(o.procs, args("F* G"));
        let o = parsed("--no-verify --time-limit 7 --type-encoding p --inline spec --format json x.bpl");
        assert!(!o.verify);
        assert_eq!((o.time_limit, o.type_encoding, o.inline), (7, TypeEncoding::Predicates, Inlining::Spec));
        assert_eq!(o.format, Some(Format::Json));
        // The last occurrence wins, as in Boogie.
        assert_eq!(parsed("/timeLimit:1 /timeLimit:2").time_limit, 2);
        let o = parsed("/smoke /smokeTimeout:3 a.bpl");
        assert_eq!((o.smoke, o.smoke_timeout), (true, 3));
        assert_eq!(parsed("--smoke a.bpl").smoke_timeout, 10);
    }

    #[test]
    fn file_name_macros_are_expanded() {
        let o = parsed("/logPrefix:a/b -logPrefix:c /print:@PREFIX@-@FILE@.bpl dir/x.bpl");
        assert_eq!(o.log_prefix, "a-bc");
        assert_eq!(o.print_file.as_deref(), Some("a-bc-dir-x.bpl.bpl"));
    }

    #[test]
    fn gnu_errors_come_from_clap() {
        assert!(matches!(parse_args(args("--bogus a.bpl")), Err(CliError::Clap(_))));
        assert!(matches!(parse_args(args("--vcs-cores 0")), Err(CliError::Clap(_))));
        let e = parse_args(args("-bogus")).unwrap_err();
        assert_eq!(e.to_string(), "Boogie: Error: unknown switch: -bogus\nUse /help for available options\n");
        assert_eq!(e.exit_code(), 1);
    }

    #[test]
    fn every_table_entry_names_a_clap_flag() {
        let cmd = command();
        // `/flags:FILE` is expanded before clap sees the command line.
        for o in BOOGIE_OPTIONS.iter().filter(|o| !matches!(o.value, Value::Flags)) {
            let arg = cmd.get_arguments().find(|a| a.get_long() == Some(o.long));
            let arg = arg.unwrap_or_else(|| panic!("no --{} for /{}", o.long, o.name));
            assert_eq!(arg.get_action().takes_values(), !matches!(o.value, Value::Flag), "/{}", o.name);
        }
        let help = help_text();
        for needle in ["--no-verify", "[/noVerify]", "/timeLimit:<N>", "/?", "/p:<X>", "--format"] {
            assert!(help.contains(needle), "help lacks {needle}:\n{help}");
        }
    }

    #[test]
    fn boogie_options_without_effect_are_checked_and_dropped() {
        // Dafny's and SMACK's splitting and prover options, values as Boogie takes them.
        assert_eq!(
            translated("/vcsMaxCost:1.5 /vcsMaxSplits 4 -vcsKeepGoingTimeout:10 /subsumption:0 /restartProver a.bpl")
                .unwrap(),
            args("-- a.bpl")
        );
        assert_eq!(translated("/randomSeed:-3 /traceCaching:3 /wait").unwrap(), args("--"));
        assert_eq!(
            translated("/vcsMaxCost:-1 /subsumption:3 /timeLimitPerAssertionInPercent:0").unwrap_err(),
            vec![
                "Invalid argument \"-1\" to option /vcsMaxCost",
                "Invalid argument \"3\" to option /subsumption",
                "Invalid argument \"0\" to option /timeLimitPerAssertionInPercent",
            ]
        );
        assert_eq!(
            translated("/restartProver:1").unwrap_err(),
            vec!["\"/restartProver\" cannot take a colon argument"]
        );
        // `/vcsLoad:L` is `/vcsCores` as L times the processors (at least 1); 3 and more is
        // Boogie's error.
        let processors = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(parsed("/vcsLoad:1 a.bpl").vcs_cores, processors as u32);
        assert_eq!(parsed("/vcsLoad:0 a.bpl").vcs_cores, 1);
        assert_eq!(
            translated("/vcsLoad:3").unwrap_err(),
            vec!["surprisingly high load specified; got 3, expected nothing above 3.0"]
        );
    }

    #[test]
    fn boogie_options_rboogie_does_not_support_are_refused_by_name() {
        // Not taken for files (as an unknown `/...` is); a value after the option is its own.
        assert_eq!(
            translated("/kInductionDepth:2 /xml out.xml /printUnstructured a.bpl").unwrap_err(),
            vec![
                "/kInductionDepth is a Boogie option that rboogie does not support",
                "/xml is a Boogie option that rboogie does not support",
                "/printUnstructured is a Boogie option that rboogie does not support",
            ]
        );
    }

    /// Corral's own options: `/bopt:X` is the Boogie option X, `/killAfter:N` a time limit for
    /// the whole run, search and progress options are taken without effect, and the options
    /// that would change what is checked or printed are refused by name.
    #[test]
    fn corral_options_are_mapped_ignored_or_refused() {
        assert_eq!(
            translated("/bopt:proverOpt:O:smt.qi.eager_threshold=100 /bopt:timeLimit:9 a.bpl").unwrap(),
            args("--prover-opt=O:smt.qi.eager_threshold=100 --time-limit=9 -- a.bpl")
        );
        assert_eq!(translated("/killAfter:30 a.bpl").unwrap(), args("--process-time-limit=30 -- a.bpl"));
        assert_eq!(
            translated("/di /si /v:1 /include:lib.bpl /dislike:g /newStratifiedInlining a.bpl").unwrap(),
            args("-- a.bpl")
        );
        assert_eq!(
            translated("/runHoudini /deepAsserts /printFinalProg:out.bpl a.bpl").unwrap_err(),
            vec![
                "/runHoudini is a Corral option that rboogie does not support",
                "/deepAsserts is a Corral option that rboogie does not support",
                "/printFinalProg is a Corral option that rboogie does not support",
            ]
        );
        assert_eq!(translated("/v a.bpl").unwrap_err(), vec!["\"/v\" expects 1 argument"]);
        assert_eq!(translated("/di:1 a.bpl").unwrap_err(), vec!["\"/di\" cannot take a colon argument"]);
        assert_eq!(translated("/bopt a.bpl").unwrap_err(), vec!["\"/bopt\" expects 1 argument"]);
        assert_eq!(
            translated("/bopt:-x /bopt:-- a.bpl").unwrap_err(),
            vec!["unknown switch: --x", "unknown switch: ---"]
        );
        assert_eq!(translated("/killAfter a.bpl").unwrap_err(), vec!["\"/killAfter\" expects 1 argument"]);
        assert_eq!(
            translated("/killAfter:-1 a.bpl").unwrap_err(),
            vec!["Invalid argument \"-1\" to option /killAfter"]
        );
        // What `/bopt:` gives is checked as any Boogie option.
        assert_eq!(
            translated("/bopt:xml:f a.bpl").unwrap_err(),
            vec!["-xml is a Boogie option that rboogie does not support"]
        );
    }

    #[test]
    fn help_lists_the_options_taken_without_effect_and_those_refused() {
        let names = IGNORED_OPTIONS.iter().map(|(n, _)| *n).chain(UNSUPPORTED_OPTIONS.iter().map(|(n, _)| *n));
        let corral = CORRAL_IGNORED.iter().chain(CORRAL_UNSUPPORTED).map(|(n, _)| *n);
        for name in names.chain(corral).chain(["vcsLoad", "bopt", "killAfter"]) {
            assert!(!BOOGIE_OPTIONS.iter().any(|o| o.name == name), "/{name} is in two tables");
            let listed =
                AFTER_HELP.split(|c: char| c.is_whitespace()).any(|w| w.trim_end_matches('.') == format!("/{name}"));
            let listed = listed || [":", "["].iter().any(|c| AFTER_HELP.contains(&format!("/{name}{c}")));
            assert!(listed, "--help does not list /{name}");
        }
    }
}
