//! `/vcsCores`: the speed-up of checking implementations on two threads instead of one.
//!
//! `cargo bench --bench vcs_cores` generates a program of independent procedures, each with a
//! VC that takes the solver a few hundred milliseconds (the pigeonhole principle over local
//! booleans, PHP(8): 9 pigeons, 8 holes, `assert false` after the assumptions, which z3 must
//! refute by search), runs it through rboogie's library entry (`cli::parse_args`,
//! `cli::run`) with `/vcsCores:1` and with `/vcsCores:2`, best of three runs each, checks the
//! two print the same, and prints the wall times, the CPU time over the wall time (how many
//! threads were busy, on average, with in-process Z3) and the speed-up. Target, printed beside the
//! figure: at least 1.7 on two cores (which must be idle for the figure to mean anything: the
//! load average is printed too). `--procedures N` (default 12) and `--holes H` (default 8)
//! change the program; `--solver S` passes `--solver S` on (default: in-process Z3).

use std::fmt::Write;
use std::time::{Duration, Instant};

#[global_allocator]
static GLOBAL: rboogie::alloc::Allocator = rboogie::alloc::Allocator;

const TARGET_SPEED_UP: f64 = 1.7;
const RUNS: usize = 3;

/// `procedures` procedures, each putting `holes + 1` pigeons into `holes` holes; procedure
/// `k` lists its clauses rotated by `k`, so that no two VCs are the same text.
fn pigeonholes(procedures: usize, holes: usize) -> String {
    let mut text = String::new();
    for k in 0..procedures {
        let _ = writeln!(text, "procedure Pigeons{k}()\n{{");
        let vars: Vec<String> = (0..=holes).flat_map(|i| (0..holes).map(move |j| format!("p{i}_{j}"))).collect();
        let _ = writeln!(text, "  var {}: bool;", vars.join(", "));
        let mut clauses = Vec::new();
        for i in 0..=holes {
            clauses.push((0..holes).map(|j| format!("p{i}_{j}")).collect::<Vec<_>>().join(" || "));
        }
        for j in 0..holes {
            for i in 0..=holes {
                for m in i + 1..=holes {
                    clauses.push(format!("!p{i}_{j} || !p{m}_{j}"));
                }
            }
        }
        let shift = k % clauses.len();
        clauses.rotate_left(shift);
        for c in clauses {
            let _ = writeln!(text, "  assume {c};");
        }
        text += "  assert false;\n}\n\n";
    }
    text
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map_or_else(|_| "unknown".into(), |l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
}

/// The CPU time (user and system) this process has used so far, from `/proc/self/stat`.
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which is in parentheses): utime and stime are the
    // 12th and 13th of them, in clock ticks (100 a second on Linux).
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let ticks: u64 = after_name.split_whitespace().skip(11).take(2).filter_map(|t| t.parse::<u64>().ok()).sum();
    Duration::from_millis(ticks * 10)
}

/// Best wall time of [`RUNS`] runs, the CPU time of that run, and what rboogie printed.
fn time_runs(file: &str, cores: u32, solver: &Option<String>) -> (Duration, Duration, String) {
    let mut best = Duration::MAX;
    let mut best_cpu = Duration::ZERO;
    let mut printed = String::new();
    for _ in 0..RUNS {
        let mut args = vec![format!("/vcsCores:{cores}"), file.to_string()];
        if let Some(s) = solver {
            args.extend(["--solver".to_string(), s.clone()]);
        }
        let options = rboogie::cli::parse_args(args).expect("options");
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let (started, cpu_before) = (Instant::now(), cpu_time());
        rboogie::cli::run(&options, &mut out, &mut err);
        let wall = started.elapsed();
        if wall < best {
            best = wall;
            best_cpu = cpu_time() - cpu_before;
        }
        printed = String::from_utf8_lossy(&out).into_owned();
    }
    (best, best_cpu, printed)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value_of = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
    let procedures: usize = value_of("--procedures").and_then(|v| v.parse().ok()).unwrap_or(12);
    let holes: usize = value_of("--holes").and_then(|v| v.parse().ok()).unwrap_or(8);
    let solver = value_of("--solver");
    let file = std::env::temp_dir().join(format!("rboogie-vcs-cores-{}.bpl", std::process::id()));
    std::fs::write(&file, pigeonholes(procedures, holes)).expect("the generated program is written");
    let file_name = file.display().to_string();

    let run = move || {
        println!(
            "/vcsCores: {procedures} procedures, each PHP({holes}); {} cores online; load average before: {}",
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            load_average()
        );
        let (one, one_cpu, one_out) = time_runs(&file_name, 1, &solver);
        let (two, two_cpu, two_out) = time_runs(&file_name, 2, &solver);
        let _ = std::fs::remove_file(&file_name);
        assert_eq!(one_out, two_out, "/vcsCores:2 prints what /vcsCores:1 prints");
        let last = one_out.lines().last().unwrap_or_default().to_string();
        println!("rboogie says: {last}");
        // CPU time over wall time: how many threads were busy on average (in-process Z3 only:
        // a solver process's time is not this process's).
        println!(
            "/vcsCores:1  {:>8.0} ms (best of {RUNS}), {:.0} ms per procedure, CPU/wall {:.2}",
            ms(one),
            ms(one) / procedures as f64,
            one_cpu.as_secs_f64() / one.as_secs_f64()
        );
        println!(
            "/vcsCores:2  {:>8.0} ms (best of {RUNS}), CPU/wall {:.2}",
            ms(two),
            two_cpu.as_secs_f64() / two.as_secs_f64()
        );
        let speed_up = one.as_secs_f64() / two.as_secs_f64();
        let verdict = if speed_up >= TARGET_SPEED_UP { "met" } else { "NOT met" };
        println!("speed-up {speed_up:.2} -- target at least {TARGET_SPEED_UP} on 2 cores: {verdict}");
        println!("load average after: {}", load_average());
    };
    std::thread::Builder::new().stack_size(1 << 30).spawn(run).expect("a thread").join().expect("the bench ran");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
