//! `reshard`: the command-line shell over the planning core. Parse, call, print; no domain rules here.

use std::io::{Read, Write};
use std::process::ExitCode;

use reshard_lens::core::export::{self, NoteInput};
use reshard_lens::core::plan::{Planner, Strategy, count_pieces};
use reshard_lens::core::spec::{Problem, parse_spec, validate};
use reshard_lens::core::traffic::{Traffic, format_bytes, format_seconds};
use reshard_lens::core::verify::{Fault, VerifyOptions, plan_and_verify};
use reshard_lens::core::{cycle, presets};
use reshard_lens::share::text::{TextBlock, parse_block};
use serde_json::json;

const USAGE: &str = "usage:
  reshard plan SPEC.json [--strategy intersection|whole-shard|gather] [--json | --csv] [--pieces]
  reshard compare SPEC.json [--json]
  reshard verify SPEC.json [--strategy intersection|whole-shard] [--fault offset|swap|stale] [--max-entries N]
  reshard cycle CYCLE.json [--json]
  reshard note SPEC.json CYCLE.json   print a Markdown decision note for a refit transport switch
  reshard preset NAME            print a preset's spec (toy, uneven, nested, partial, fsdp-tp, colocated, large)
  reshard inventory model NAME   print a model's inventory spec, as the web app's inventory view makes it
                                 (llama-3-8b, llama-3-70b, qwen3-30b-a3b, deepseek-v3)
  reshard inventory llama [--layers N]   print the benchmarks' Llama-70B-like spec (default 55 layers; an
                                 older layout kept for the benchmark history: FSDP on dim 1, mesh order)
  reshard bench                  time the planner on the benchmark cases
SPEC.json (or CYCLE.json) may be `-` for stdin, and may be a text block (the web app's Export ▾ Text, a docs
widget's block) instead of JSON. Exit codes: 0 ok, 1 verification found mismatches, 2 bad input.";

/// `print!` / `println!` that stop quietly when the reader has gone (`reshard plan … --pieces | head`): the
/// standard macros panic on a closed pipe. Any other failure to write is reported, exit code 2.
macro_rules! out {
    ($($arg:tt)*) => { emit(write!(std::io::stdout().lock(), $($arg)*)) };
}
macro_rules! outln {
    ($($arg:tt)*) => { emit(writeln!(std::io::stdout().lock(), $($arg)*)) };
}

/// Ends the program quietly on a closed pipe, with a message (exit code 2) on any other failure to write.
fn emit(written: std::io::Result<()>) {
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("reshard: cannot write the output: {e}");
            std::process::exit(2);
        }
    }
}

/// A failure to report: the message and the exit code.
struct Failure(String, u8);

fn bad(message: impl Into<String>) -> Failure {
    Failure(message.into(), 2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(Failure(message, code)) => {
            eprintln!("{message}");
            ExitCode::from(code)
        }
    }
}

/// Command-line flags after the command and its file.
struct Flags<'a> {
    args: &'a [String],
}

impl<'a> Flags<'a> {
    fn has(&self, name: &str) -> bool {
        self.args.iter().any(|a| a == name)
    }
    fn value(&self, name: &str) -> Result<Option<&'a str>, Failure> {
        match self.args.iter().position(|a| a == name) {
            None => Ok(None),
            Some(i) => {
                self.args.get(i + 1).map(|v| Some(v.as_str())).ok_or_else(|| bad(format!("{name} needs a value")))
            }
        }
    }
    fn check_known(&self, known: &[&str], with_value: &[&str]) -> Result<(), Failure> {
        let mut i = 0;
        while i < self.args.len() {
            let a = self.args[i].as_str();
            if with_value.contains(&a) {
                i += 2;
                continue;
            }
            if !known.contains(&a) {
                return Err(bad(format!("unknown option `{a}`\n{USAGE}")));
            }
            i += 1;
        }
        Ok(())
    }
}

fn read_input(path: &str) -> Result<String, Failure> {
    if path == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| bad(format!("stdin: {e}")))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| bad(format!("{path}: {e}")))
    }
}

fn run(args: &[String]) -> Result<u8, Failure> {
    let Some(command) = args.first() else { return Err(bad(USAGE)) };
    let rest = &args[1..];
    // Asked anywhere (`reshard plan --help`), help is help: it was read as a file named `--help`.
    if args.iter().any(|a| matches!(a.as_str(), "--help" | "-h")) {
        outln!("{USAGE}");
        return Ok(0);
    }
    if matches!(command.as_str(), "--version" | "-V" | "version") {
        outln!("reshard {}", env!("CARGO_PKG_VERSION"));
        return Ok(0);
    }
    match command.as_str() {
        "plan" | "compare" | "verify" | "cycle" => {
            let Some(path) = rest.first() else {
                return Err(bad(format!("{command}: missing the input file\n{USAGE}")));
            };
            let text = read_input(path)?;
            let flags = Flags { args: &rest[1..] };
            match command.as_str() {
                "plan" => plan(&text, path, &flags),
                "compare" => compare(&text, path, &flags),
                "verify" => verify_command(&text, path, &flags),
                _ => cycle_command(&text, path, &flags),
            }
        }
        "note" => {
            let [spec_path, cycle_path, flags @ ..] = rest else {
                return Err(bad(format!("note: needs SPEC.json and CYCLE.json\n{USAGE}")));
            };
            if spec_path == "-" && cycle_path == "-" {
                return Err(bad("note: only one of SPEC.json and CYCLE.json can be `-` (stdin)"));
            }
            Flags { args: flags }.check_known(&[], &[])?;
            note_command(&read_input(spec_path)?, spec_path, &read_input(cycle_path)?, cycle_path)
        }
        "preset" => {
            let name = rest.first().ok_or_else(|| bad("preset: which one?"))?;
            let preset = presets::find(name).ok_or_else(|| {
                let names: Vec<&str> = presets::PRESETS.iter().map(|p| p.name).collect();
                bad(format!("no preset `{name}`; known: {}", names.join(", ")))
            })?;
            outln!("{}", preset.spec);
            Ok(0)
        }
        "inventory" => {
            if rest.first().map(String::as_str) == Some("model") {
                // A model preset's inventory, as the web app's inventory view plans it.
                let name = rest.get(1).ok_or_else(|| bad("inventory model: which model?"))?;
                let preset = reshard_lens::core::models::find_model(name).ok_or_else(|| {
                    let names: Vec<&str> = reshard_lens::core::models::MODEL_PRESETS.iter().map(|p| p.name).collect();
                    bad(format!("no model `{name}`; known: {}", names.join(", ")))
                })?;
                let spec = reshard_lens::core::models::inventory_spec(
                    &preset.model,
                    &preset.train,
                    &preset.generate,
                    preset.colocated,
                )
                .map_err(|e| bad(e.to_string()))?;
                outln!("{}", serde_json::to_string_pretty(&spec).map_err(|e| bad(e.to_string()))?);
                return Ok(0);
            }
            let flags = Flags { args: rest.get(1..).unwrap_or(&[]) };
            if rest.first().map(String::as_str) != Some("llama") {
                return Err(bad("inventory: `llama [--layers N]` or `model NAME`"));
            }
            let layers = match flags.value("--layers")? {
                None => 55,
                Some(v) => {
                    v.parse::<usize>().ok().filter(|&n| n <= 1000).ok_or_else(|| bad("--layers: expected 0..=1000"))?
                }
            };
            outln!("{}", presets::llama_inventory_json(layers));
            Ok(0)
        }
        "bench" => {
            // `bench measured`: only the measured cycles' table (the whole run takes minutes).
            if rest.first().map(String::as_str) == Some("measured") {
                bench_measured();
            } else {
                bench();
            }
            Ok(0)
        }
        "help" => {
            outln!("{USAGE}");
            Ok(0)
        }
        other => Err(bad(format!("unknown command `{other}`\n{USAGE}"))),
    }
}

/// How a message names where its input came from: `-` is read as stdin.
fn source_name(path: &str) -> &str {
    if path == "-" { "stdin" } else { path }
}

/// Every problem, each on its own line after where its input came from.
fn problems_at(path: &str, problems: &[Problem]) -> Failure {
    bad(problems.iter().map(|p| format!("{path}: {p}")).collect::<Vec<_>>().join("\n"))
}

/// Whether `text` is for the JSON reader: it opens with `{` or `[` (an array is refused there, which says
/// what it expected), or is empty (said there too).
fn for_json(text: &str) -> bool {
    let start = text.trim_start_matches('\u{feff}').trim_start();
    start.is_empty() || start.starts_with(['{', '['])
}

/// A text block (the app's *Text* exports, a docs widget's block) rather than JSON ([`for_json`]).
fn text_block(text: &str, path: &str) -> Result<Option<TextBlock>, Failure> {
    if for_json(text) {
        return Ok(None);
    }
    // Said first, so that JSON with a typo before its `{` is not taken for a block with strange keywords.
    let read_as = |problems: Vec<Problem>| {
        let Failure(message, code) = problems_at(path, &problems);
        Failure(format!("{path}: not JSON (a spec or cycle opens with `{{`); read as a text block:\n{message}"), code)
    };
    let block = parse_block(text).map_err(read_as)?;
    block.check().map_err(read_as)?;
    Ok(Some(block))
}

/// A spec as JSON or as a text block (`tensor w 12x6 …`).
fn parse(text: &str, path: &str) -> Result<reshard_lens::core::model::Reshard, Failure> {
    let path = source_name(path);
    let parsed = match text_block(text, path)? {
        Some(block) => validate(&block.spec),
        None => parse_spec(text),
    };
    parsed.map_err(|e| problems_at(path, &e.problems))
}

fn strategy(flags: &Flags) -> Result<Strategy, Failure> {
    match flags.value("--strategy")? {
        None => Ok(Strategy::Intersection),
        Some(s) => Strategy::parse(s)
            .ok_or_else(|| bad(format!("--strategy: `{s}`; expected intersection, whole-shard or gather"))),
    }
}

fn plan(text: &str, path: &str, flags: &Flags) -> Result<u8, Failure> {
    flags.check_known(&["--json", "--csv", "--pieces"], &["--strategy"])?;
    let reshard = parse(text, path)?;
    let strategy = strategy(flags)?;
    if flags.has("--csv") {
        if flags.has("--json") {
            return Err(bad("--csv and --json: choose one format"));
        }
        out!("{}", export::plan_csv_text(&reshard, strategy).map_err(bad)?);
        return Ok(0);
    }
    let inventory = reshard.tensors.len() > 1;
    let keep_pieces = !inventory || flags.has("--pieces");
    if flags.has("--json") {
        out!("{}", export::plan_json_text(&reshard, strategy, keep_pieces).map_err(bad)?);
        return Ok(0);
    }
    let mut planner = Planner::new(&reshard, strategy);
    let mut traffic = Traffic::new(&reshard, &planner.table, strategy);
    let mut pieces = Vec::new();
    planner
        .run(|p| {
            traffic.add(p);
            if keep_pieces {
                pieces.push(*p);
            }
        })
        .map_err(bad)?;
    let totals = traffic.totals();
    let estimate = traffic.estimate();
    outln!("strategy: {} ({})", strategy.name(), strategy.label());
    outln!("tensors: {}", reshard.tensors.len());
    if keep_pieces && pieces.len() <= 64 {
        outln!("pieces (src → dst, offset, shape, bytes, link):");
        for p in &pieces {
            outln!(
                "  d{} → d{}  offset {:?}  shape {:?}  {} B  {}",
                p.src,
                p.dst,
                p.region.offset(),
                p.region.shape(),
                p.bytes,
                p.link.name()
            );
        }
    } else {
        outln!("pieces: {}", totals.pieces);
    }
    outln!("unique logical entries:      {}", totals.unique_entries);
    outln!("entries moved (all pieces):  {}", totals.entries_moved);
    outln!("bytes received by devices:   {} ({} B)", format_bytes(totals.bytes_received), totals.bytes_received);
    outln!("bytes sent by devices:       {} ({} B)", format_bytes(totals.bytes_sent), totals.bytes_sent);
    let [_, (_, nvlink), (_, nic)] = traffic.by_link_class();
    outln!("  of which over NVLink:      {} (same node)", format_bytes(nvlink));
    outln!("  of which over the NIC:     {} (across nodes)", format_bytes(nic));
    outln!("local copies (no link):      {}", format_bytes(totals.local_bytes));
    outln!("messages (cross a link):     {}", totals.messages);
    match traffic.max_link() {
        Some(l) => {
            outln!("largest load on one link:    {} on {}(d{})", format_bytes(l.bytes), l.link.name(), l.device)
        }
        None => outln!("largest load on one link:    none (all local)"),
    }
    outln!("estimated transfer time (model, a lower bound): {}", format_seconds(estimate.seconds));
    outln!("  {}", estimate.formula);
    Ok(0)
}

fn compare(text: &str, path: &str, flags: &Flags) -> Result<u8, Failure> {
    flags.check_known(&["--json"], &[])?;
    let reshard = parse(text, path)?;
    let mut rows = Vec::new();
    for strategy in Strategy::ALL {
        let traffic = reshard_lens::core::traffic::analyse(&reshard, strategy).map_err(bad)?;
        rows.push((strategy, traffic.totals()));
    }
    // Not a fourth strategy: the intersection with copies for replicas forwarded inside their node.
    let relayed = reshard_lens::core::traffic::analyse_relayed(&reshard).map_err(bad)?;
    if flags.has("--json") {
        let mut out: Vec<_> = rows.iter().map(|(s, t)| json!({"strategy": s.name(), "totals": t})).collect();
        if let Some(r) = &relayed {
            out.push(json!({"strategy": "intersection-relayed", "totals": r.traffic.totals(),
                "forwarded": {"pieces": r.forwarded, "bytes": r.forwarded_bytes}}));
        }
        outln!("{}", serde_json::to_string_pretty(&out).map_err(|e| bad(e.to_string()))?);
        return Ok(0);
    }
    outln!(
        "{:<28} {:>16} {:>16} {:>16} {:>14} {:>12}",
        "strategy",
        "bytes received",
        "bytes sent",
        "max link bytes",
        "messages",
        "est. time"
    );
    for (s, t) in &rows {
        outln!(
            "{:<28} {:>16} {:>16} {:>16} {:>14} {:>12}",
            s.label(),
            format_bytes(t.bytes_received),
            format_bytes(t.bytes_sent),
            format_bytes(t.max_link_bytes),
            t.messages,
            format_seconds(t.estimated_seconds)
        );
    }
    if let Some(relayed) = relayed {
        let t = relayed.traffic.totals();
        outln!(
            "{:<28} {:>16} {:>16} {:>16} {:>14} {:>12}",
            "(intersection, relayed)",
            format_bytes(t.bytes_received),
            format_bytes(t.bytes_sent),
            format_bytes(t.max_link_bytes),
            t.messages,
            format_seconds(t.estimated_seconds)
        );
        outln!(
            "relayed: {} pieces ({}) forwarded over NVLink inside their node instead of crossing a NIC again",
            relayed.forwarded,
            format_bytes(relayed.forwarded_bytes)
        );
    }
    Ok(0)
}

fn verify_command(text: &str, path: &str, flags: &Flags) -> Result<u8, Failure> {
    flags.check_known(&["--json"], &["--strategy", "--fault", "--max-entries"])?;
    let reshard = parse(text, path)?;
    let strategy = strategy(flags)?;
    let fault = match flags.value("--fault")? {
        None => None,
        Some(f) => Some(Fault::parse(f).ok_or_else(|| bad(format!("--fault: `{f}`; expected offset, swap or stale")))?),
    };
    let mut options = VerifyOptions { fault, ..Default::default() };
    if let Some(n) = flags.value("--max-entries")? {
        // Each entry the check holds takes 8 to 13 bytes: past 2⁴⁰ (some 10 TiB) no machine has the memory,
        // and near 2⁶⁰ a buffer's size no longer fits an address (a panic, before this limit).
        const MOST: u64 = 1 << 40;
        options.max_entries = n
            .parse::<u64>()
            .ok()
            .filter(|&n| n <= MOST)
            .ok_or_else(|| bad(format!("--max-entries: `{n}`: expected a whole number up to {MOST}")))?;
    }
    let result = plan_and_verify(&reshard, strategy, options).map_err(|e| bad(e.to_string()))?;
    if flags.has("--json") {
        outln!("{}", serde_json::to_string_pretty(&result).map_err(|e| bad(e.to_string()))?);
    } else {
        if let Some(f) = &result.fault {
            outln!("injected fault: {}", f.description);
        }
        outln!("{}", result.summary());
        if let Some(values) = result.value_summary() {
            outln!("{values}");
        }
        for m in result.mismatches.iter().take(20) {
            let found = match m.found_reading() {
                Some(reading) => format!("{} ({reading})", m.found_text()),
                None => m.found_text(),
            };
            outln!(
                "  {} d{} at {:?}: expected {}, found {found}",
                reshard.tensors[m.tensor].name,
                m.device,
                m.coord,
                m.expected
            );
        }
    }
    Ok(if result.passed() { 0 } else { 1 })
}

fn cycle_command(text: &str, path: &str, flags: &Flags) -> Result<u8, Failure> {
    flags.check_known(&["--json"], &[])?;
    let report = cycle_report(text, path)?;
    if flags.has("--json") {
        outln!("{}", serde_json::to_string_pretty(&report).map_err(|e| bad(e.to_string()))?);
    } else {
        outln!("{report}");
    }
    Ok(0)
}

/// Reads and validates a cycle, then reports it; problems carry `path`.
fn cycle_report(text: &str, path: &str) -> Result<cycle::CycleReport, Failure> {
    let path = source_name(path);
    // A block's `view` line says which picture a widget draws; asked for the cycle, it goes without saying.
    let says_view = text.lines().any(|line| line.trim_start().starts_with("view"));
    let text = if for_json(text) || says_view { text.to_string() } else { format!("{text}\nview cycle\n") };
    let spec = match text_block(&text, path)? {
        Some(block) => block.cycle.ok_or_else(|| {
            bad(format!("{path}: a text block without a cycle: expected `stage NAME SECONDS` lines (or `cycle NAME`)"))
        })?,
        None => cycle::parse_cycle(&text).map_err(|problems| problems_at(path, &problems))?,
    };
    spec.report().map_err(|problems| problems_at(path, &problems))
}

fn note_command(spec_text: &str, spec_path: &str, cycle_text: &str, cycle_path: &str) -> Result<u8, Failure> {
    let reshard = parse(spec_text, spec_path)?;
    let report = cycle_report(cycle_text, cycle_path)?;
    let strategies = export::strategy_totals(&reshard).map_err(bad)?;
    out!("{}", export::decision_note(&NoteInput { reshard: &reshard, strategies: &strategies, cycle: &report }));
    Ok(0)
}

/// Times the planner with per-link totals on the benchmark cases and prints pieces per second.
fn bench() {
    let cases: Vec<(&str, reshard_lens::core::model::Reshard)> = vec![
        ("[8192, 8192] bf16, 1024 × S(0) → 256 × S(1)", presets::large()),
        (
            "[1000, 999], mesh [4, 6] (S(1), S(0)) → mesh [3, 5] (R, S(1))",
            parse_spec(
                r#"{"tensor": {"shape": [1000, 999]}, "source": {"mesh": [4, 6], "placements": ["S(1)", "S(0)"]},
                    "destination": {"mesh": [3, 5], "placements": ["R", "S(1)"]}}"#,
            )
            .expect("benchmark spec is valid"),
        ),
        (
            // Every destination picks one of 65,536 replicas: indexed, not scanned (the scan took minutes).
            "[12, 6] bf16, 65536 × R → 65536 × R",
            parse_spec(
                r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [65536], "placements": ["R"]},
                    "destination": {"mesh": [65536], "placements": ["R"]}}"#,
            )
            .expect("benchmark spec is valid"),
        ),
        ("Llama-70B-like inventory, 55 layers (498 tensors), [2, 64, 8] → [32, 8]", presets::llama_inventory(55)),
        ("Llama-70B-like inventory, 80 layers (723 tensors), [2, 64, 8] → [32, 8]", presets::llama_inventory(80)),
    ];
    outln!(
        "{:<76} {:>12} {:>10} {:>14} {:>9}",
        "case (intersection, with per-link totals)",
        "pieces",
        "ms",
        "pieces/s",
        "count ms"
    );
    for (name, reshard) in &cases {
        // Best of three runs, so a cold cache does not decide the figure.
        let mut best = f64::INFINITY;
        let mut pieces = 0u64;
        for _ in 0..3 {
            let start = std::time::Instant::now();
            let mut planner = Planner::new(reshard, Strategy::Intersection);
            let mut traffic = Traffic::new(reshard, &planner.table, Strategy::Intersection);
            planner.run(|p| traffic.add(p)).expect("benchmark cases plan");
            let seconds = start.elapsed().as_secs_f64();
            pieces = traffic.totals().pieces;
            best = best.min(seconds);
        }
        // Counting the pieces without planning, as validation does to refuse a change too large to plan.
        let start = std::time::Instant::now();
        let counted = count_pieces(reshard, u64::MAX);
        let count_seconds = start.elapsed().as_secs_f64();
        assert_eq!(counted, pieces, "the count is the plan's");
        outln!(
            "{:<76} {:>12} {:>10.1} {:>14.0} {:>9.2}",
            name,
            pieces,
            best * 1e3,
            pieces as f64 / best,
            count_seconds * 1e3
        );
    }
    bench_models();
    bench_measured();
    bench_lint();
    bench_tint();
}

/// Measured cycles as the cycle view reads a file: parse, then the per-stage statistics.
fn bench_measured() {
    outln!();
    outln!("{:<44} {:>10} {:>10} {:>10}", "measured cycles (CSV)", "rows", "parse ms", "stats ms");
    for cycles in [10_000u64, 100_000] {
        let mut csv = String::from("cycle,stage,seconds\n");
        for cycle in 0..cycles {
            for (stage, seconds) in [("generation", 70.0), ("training", 30.0), ("refit", 10.0)] {
                csv.push_str(&format!("{cycle},{stage},{}\n", seconds + (cycle % 7) as f64 * 0.1));
            }
        }
        let start = std::time::Instant::now();
        let measurements = cycle::parse_measurements(&csv);
        let parse = start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        let stats = cycle::stage_stats(&measurements, 1, Some("refit"));
        let seconds = start.elapsed().as_secs_f64();
        assert_eq!(stats.steady.cycles.len() as u64, cycles - 1, "every cycle but the startup one is steady");
        outln!(
            "{:<44} {:>10} {:>10.1} {:>10.1}",
            format!("{cycles} cycles × 3 stages"),
            measurements.rows.len(),
            parse * 1e3,
            seconds * 1e3
        );
    }
    // Wide files, a cycle a row: a table of 64 stage columns, and a JSON line of 20,000 keys (each key's
    // place in the line was once searched for along all of them: 28 s in the page).
    let mut wide = String::from("cycle");
    for stage in 0..64 {
        wide.push_str(&format!(",stage {stage}"));
    }
    wide.push('\n');
    for cycle in 0..20_000 {
        wide.push_str(&cycle.to_string());
        for stage in 0..64 {
            wide.push_str(&format!(",{}", 1.0 + (stage + cycle) as f64 % 7.0 * 0.1));
        }
        wide.push('\n');
    }
    let mut line = String::from("{\"step\": 1");
    for key in 0..20_000 {
        line.push_str(&format!(", \"k{key}\": 1"));
    }
    line.push_str("}\n");
    for (name, text) in [("20000 cycles × 64 stage columns (CSV)", wide), ("one JSON line of 20000 keys", line)] {
        let start = std::time::Instant::now();
        let measurements = cycle::parse_measurements(&text);
        let parse = start.elapsed().as_secs_f64();
        let start = std::time::Instant::now();
        let _ = cycle::stage_stats(&measurements, 1, None);
        let seconds = start.elapsed().as_secs_f64();
        outln!("{:<44} {:>10} {:>10.1} {:>10.1}", name, measurements.rows.len(), parse * 1e3, seconds * 1e3);
    }
}

/// The model presets of the inventory view: building the spec and planning it, one tensor per layer and
/// layers stacked (pipeline stages need stacked layers).
fn bench_models() {
    use reshard_lens::core::models::{MODEL_PRESETS, TrainingLayout, inventory};
    outln!(
        "\n{:<44} {:>8} {:>12} {:>10} {:>10}",
        "model preset (intersection)",
        "tensors",
        "pieces",
        "spec ms",
        "plan ms"
    );
    for preset in MODEL_PRESETS {
        for stacked in [false, true] {
            if !stacked && preset.train.pp > 1 {
                continue;
            }
            let train = TrainingLayout { stacked_layers: stacked, ..preset.train };
            let start = std::time::Instant::now();
            let reshard =
                inventory(&preset.model, &train, &preset.generate, preset.colocated).expect("presets are valid");
            let built = start.elapsed();
            let pieces = reshard_lens::core::traffic::analyse(&reshard, Strategy::Intersection)
                .expect("presets plan")
                .totals()
                .pieces;
            let label = format!(
                "{}, {} → {}{}",
                preset.name,
                train.devices(),
                preset.generate.devices(),
                if stacked { ", stacked" } else { "" }
            );
            outln!(
                "{:<44} {:>8} {:>12} {:>10.1} {:>10.1}",
                label,
                reshard.tensors.len(),
                pieces,
                built.as_secs_f64() * 1e3,
                (start.elapsed() - built).as_secs_f64() * 1e3
            );
        }
    }
}

/// The constraint check against the one plan it reuses.
fn bench_lint() {
    outln!("\n{:<44} {:>12} {:>10} {:>10}", "constraint check", "findings", "lint ms", "plan ms");
    for (label, reshard) in
        [("large preset", presets::large()), ("Llama-70B-like inventory, 55 layers", presets::llama_inventory(55))]
    {
        let start = std::time::Instant::now();
        let findings = reshard_lens::core::lint::lint(&reshard).expect("benchmark cases lint").len();
        let lint_time = start.elapsed();
        let start = std::time::Instant::now();
        reshard_lens::core::traffic::analyse(&reshard, Strategy::Intersection).expect("benchmark cases plan");
        outln!(
            "{:<44} {:>12} {:>10.1} {:>10.1}",
            label,
            findings,
            lint_time.as_secs_f64() * 1e3,
            start.elapsed().as_secs_f64() * 1e3
        );
    }
}

/// The aggregated tensor view's tint, redone on every edit of a large layout ([`region_tint`]: each source
/// region projected, shaded by where it starts, deduplicated and written as one path per shade). Up to
/// `TINT_REGIONS_MAX` regions; the large preset has 1,024.
fn bench_tint() {
    use reshard_lens::chart::aggregate::{TINT_REGIONS_MAX, region_tint};
    use reshard_lens::chart::boxes::PixelRect;
    use reshard_lens::chart::tensor::{Frame, Slice};
    use reshard_lens::core::region::device_regions;
    let square = parse_spec(
        r#"{"tensor": {"shape": [8192, 8192]}, "source": {"mesh": [64, 64], "placements": ["S(0)", "S(1)"]},
            "destination": {"mesh": [16], "placements": ["S(1)"]}}"#,
    )
    .expect("benchmark spec is valid");
    outln!("\n{:<44} {:>10} {:>10} {:>10}", "aggregated tensor tint (source regions)", "regions", "paths", "tint ms");
    for (label, reshard) in
        [("large preset, 1024 × S(0)", presets::large()), ("[8192, 8192], 64 × 64 (S(0), S(1))", square)]
    {
        let tensor = &reshard.tensors[0];
        let source = device_regions(&tensor.source, &reshard.source_mesh, &tensor.shape, reshard.split)
            .expect("benchmark cases split");
        assert!(source.len() <= TINT_REGIONS_MAX, "the case is one the view tints");
        let slice = Slice { row_dim: 0, col_dim: 1, index: vec![0; tensor.shape.len()] };
        let (rows, cols) = slice.extent(&tensor.shape);
        let frame = Frame::fit(rows, cols, 760.0, 560.0, 8.0);
        let mut best = f64::INFINITY;
        let mut paths = 0;
        for _ in 0..3 {
            let start = std::time::Instant::now();
            let drawn = region_tint(&source, &slice, |_| "unused", |cells| PixelRect::from_tuple(frame.rect(cells)));
            best = best.min(start.elapsed().as_secs_f64());
            paths = drawn.len();
        }
        outln!("{:<44} {:>10} {:>10} {:>10.2}", label, source.len(), paths, best * 1e3);
    }
}
