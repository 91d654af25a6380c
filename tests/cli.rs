#![cfg(not(target_arch = "wasm32"))] // Runs the native `reshard` binary; nothing to run in a browser.
//! The `reshard` CLI end to end: output shapes, exit codes and messages on bad input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn reshard(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reshard"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    if let Some(text) = stdin {
        // A command that refuses its arguments may exit before reading its input: the pipe is then closed,
        // and its exit code (checked by the caller) is what matters.
        if let Err(e) = child.stdin.take().expect("stdin").write_all(text.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "writes: {e}");
        }
    }
    drop(child.stdin.take());
    child.wait_with_output().expect("finishes")
}

fn toy() -> String {
    String::from_utf8(reshard(&["preset", "toy"], None).stdout).expect("utf8")
}

#[test]
fn plan_json_has_the_documented_shape() {
    let out = reshard(&["plan", "-", "--json"], Some(&toy()));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["strategy"], "intersection");
    let pieces = json["pieces"].as_array().expect("pieces");
    assert_eq!(pieces.len(), 6);
    assert_eq!(pieces[0]["src"], 0);
    assert_eq!(pieces[0]["dst"], 3);
    assert_eq!(pieces[0]["offset"], serde_json::json!([0, 0]));
    assert_eq!(pieces[0]["shape"], serde_json::json!([4, 3]));
    assert_eq!(pieces[0]["bytes"], 24);
    assert_eq!(pieces[0]["link"], "nvlink");
    assert_eq!(json["totals"]["unique_entries"], 72);
    assert_eq!(json["totals"]["bytes_received"], 144);
    assert_eq!(json["totals"]["messages"], 6);
    assert_eq!(json["totals"]["max_link_bytes"], 72);
    assert!(json["totals"]["estimated_seconds"].as_f64().expect("seconds") > 0.0);
    assert_eq!(json["links"][0], serde_json::json!({"device": 3, "link": "nvlink_in", "bytes": 72}));
}

#[test]
fn whole_shard_moves_144_entries_on_the_toy() {
    let out = reshard(&["plan", "-", "--json", "--strategy", "whole-shard"], Some(&toy()));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["totals"]["entries_moved"], 144);
}

#[test]
fn inventories_print_totals_and_per_tensor_rows_without_pieces() {
    let spec = String::from_utf8(reshard(&["inventory", "llama", "--layers", "1"], None).stdout).expect("utf8");
    let out = reshard(&["plan", "-", "--json"], Some(&spec));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert!(json.get("pieces").is_none());
    assert_eq!(json["tensors"].as_array().expect("tensors").len(), 12);
    assert!(json["groups"].as_array().expect("groups").iter().any(|g| g["name"] == "layers.*.attn.wq"));
    let with_pieces = reshard(&["plan", "-", "--json", "--pieces"], Some(&spec));
    let json: serde_json::Value = serde_json::from_slice(&with_pieces.stdout).expect("json");
    assert_eq!(json["pieces"].as_array().expect("pieces").len() as u64, json["totals"]["pieces"].as_u64().expect("n"));
}

#[test]
fn verify_exits_zero_when_exact_and_one_with_a_fault() {
    let ok = reshard(&["verify", "-"], Some(&toy()));
    assert_eq!(ok.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&ok.stdout).contains("all 72 entries of 2 destinations match version 7"));
    for fault in ["offset", "swap", "stale"] {
        let bad = reshard(&["verify", "-", "--fault", fault], Some(&toy()));
        assert_eq!(bad.status.code(), Some(1), "{fault}");
        assert!(String::from_utf8_lossy(&bad.stdout).contains("expected"), "{fault}");
    }
}

#[test]
fn bad_input_names_the_field_and_exits_two() {
    let spec = r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [3], "placements": ["S(0)"]},
        "destination": {"mesh": [2], "placements": ["Shard(2)"]}}"#;
    let out = reshard(&["plan", "-"], Some(spec));
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "stdin: destination.placements[0]: Shard(2) but the tensor has rank 2"
    );
    assert_eq!(reshard(&["plan", "no-such-file.json"], None).status.code(), Some(2));
    assert_eq!(reshard(&["plan", "-", "--strategy", "teleport"], Some(&toy())).status.code(), Some(2));
    assert_eq!(reshard(&["frobnicate"], None).status.code(), Some(2));
    // A limit past any memory is refused; u64's largest panicked in allocating.
    let huge = reshard(&["verify", "-", "--max-entries", "18446744073709551615"], Some(&toy()));
    assert_eq!(huge.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&huge.stderr).contains("expected a whole number up to 1099511627776"));
    assert!(reshard(&["verify", "-", "--max-entries", "1000"], Some(&toy())).status.success());
    // Empty stdin and JSON that is not an object say what a spec is, in the spec's terms, for both kinds.
    let empty = reshard(&["plan", "-"], Some(""));
    assert_eq!(empty.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&empty.stderr).trim(),
        "stdin: empty: expected a spec: a JSON object with tensor, source and destination"
    );
    let array = reshard(&["cycle", "-"], Some("[]"));
    assert_eq!(array.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&array.stderr).trim(),
        "stdin: starts with `[`: expected a cycle: a JSON object with stages"
    );
}

#[test]
fn cycle_examples_reproduce_the_article() {
    let out = reshard(&["cycle", "examples/cycle-120.json", "--json"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["after"]["cycle_seconds"], 112.5);
    assert_eq!(json["bound"]["best_cycle_seconds"], 110.0);
    let text = String::from_utf8(reshard(&["cycle", "examples/cycle-160.json"], None).stdout).expect("utf8");
    assert!(text.contains("1.306× faster (23.44 % less time)"), "{text}");
    let bad = reshard(&["cycle", "-"], Some(r#"{"stages": [{"name": "refit", "seconds": -1}], "speedup": 4}"#));
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("stages[0].seconds"));
}

#[test]
fn plan_json_is_the_cores_export_byte_for_byte() {
    // The web app's plan download is `export::plan_json_text`; it must be exactly what the CLI prints.
    use reshard_lens::core::{export, plan::Strategy, presets, spec::parse_spec};
    let toy = toy();
    for strategy in Strategy::ALL {
        let out = reshard(&["plan", "-", "--json", "--strategy", strategy.name()], Some(&toy));
        let reshard = parse_spec(&toy).expect("the toy is valid");
        let expected = export::plan_json_text(&reshard, strategy, true).expect("plans");
        assert_eq!(String::from_utf8(out.stdout).expect("utf8"), expected, "{strategy:?}");
    }
    let spec = presets::llama_inventory_json(1);
    let out = reshard(&["plan", "-", "--json"], Some(&spec));
    let expected = export::plan_json_text(&presets::llama_inventory(1), Strategy::Intersection, false).expect("plans");
    assert_eq!(String::from_utf8(out.stdout).expect("utf8"), expected);
}

#[test]
fn note_prints_a_markdown_decision_note_for_a_spec_and_a_cycle() {
    let out = reshard(&["note", "examples/toy.json", "examples/cycle-120.json"], None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let note = String::from_utf8(out.stdout.clone()).expect("utf8");
    assert!(note.starts_with("# Decision note: refit transport\n"), "{note}");
    for expected in [
        "| `w` | [12, 6] | bf16 | `[Shard(0)]` | `[Shard(1)]` |",
        "| Send only the intersection | 72 | 72 (1×) | 144 B (1×) | 144 B (1×) | 72 B (1×) |",
        "f = transfer / cycle = 10 s / 120 s = 0.0833 (8.33 %)",
        "New cycle: 112.5 s instead of 120 s.",
        "1.067×, 6.25 % less time",
        "best possible cycle 110 s",
    ] {
        assert!(note.contains(expected), "missing {expected:?} in\n{note}");
    }
    let piped = reshard(&["note", "-", "examples/cycle-120.json"], Some(&toy()));
    assert_eq!(piped.stdout, out.stdout, "the spec may come from stdin");

    let bad_cycle =
        reshard(&["note", "examples/toy.json", "-"], Some(r#"{"stages": [{"name": "refit", "seconds": -1}]}"#));
    assert_eq!(bad_cycle.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad_cycle.stderr).contains("stdin: stages[0].seconds"),
        "stdin is named as for a spec"
    );
    assert_eq!(reshard(&["note", "examples/toy.json"], None).status.code(), Some(2), "the cycle is required");
    assert_eq!(reshard(&["note", "-", "-"], Some("{}")).status.code(), Some(2), "stdin can feed only one file");
    let extra = reshard(&["note", "examples/toy.json", "examples/cycle-120.json", "--json"], None);
    assert_eq!(extra.status.code(), Some(2), "note has no options");
}

#[test]
fn compare_adds_the_relayed_intersection_for_a_replicated_destination() {
    let fsdp = String::from_utf8(reshard(&["preset", "fsdp-tp"], None).stdout).expect("utf8");
    let out = String::from_utf8(reshard(&["compare", "-"], Some(&fsdp)).stdout).expect("utf8");
    let relayed = out.lines().find(|l| l.starts_with("(intersection, relayed)")).unwrap_or_else(|| panic!("{out}"));
    assert!(relayed.contains("4 MiB") && relayed.contains("256 KiB"), "{relayed}");
    assert!(out.contains("relayed: 8 pieces (2 MiB) forwarded over NVLink"), "{out}");
    let toy = String::from_utf8(reshard(&["compare", "-"], Some(&toy())).stdout).expect("utf8");
    assert!(!toy.contains("relayed"), "{toy}");
    // Gather's root d0 is not a destination: the 96 B it collects are sent, not received.
    let gather = toy
        .lines()
        .find(|l| l.starts_with(reshard_lens::core::plan::Strategy::Gather.label()))
        .unwrap_or_else(|| panic!("{toy}"));
    let cells: Vec<&str> = gather.split("  ").map(str::trim).filter(|c| !c.is_empty()).collect();
    assert_eq!(cells[1..3], ["288 B", "384 B"], "bytes received, then bytes sent: {toy}");
    let json = String::from_utf8(reshard(&["compare", "-", "--json"], Some(&fsdp)).stdout).expect("utf8");
    let rows: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(rows[3]["strategy"], "intersection-relayed", "{json}");
    assert_eq!(rows[3]["forwarded"]["pieces"], 8);
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    // `reshard plan large --pieces | head`: the pipe closes after a few lines of 23 MB.
    let large = String::from_utf8(reshard(&["preset", "large"], None).stdout).expect("utf8");
    let mut child = Command::new(env!("CARGO_BIN_EXE_reshard"))
        .args(["plan", "-", "--pieces"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child.stdin.take().expect("stdin").write_all(large.as_bytes()).expect("writes");
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut child.stdout.take().expect("stdout"), &mut first).expect("reads");
    // The read end is dropped here, with most of the output unwritten.
    let out = child.wait_with_output().expect("finishes");
    assert!(out.status.success(), "exit {:?}: {}", out.status.code(), String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn text_blocks_from_the_apps_text_exports_are_read_as_json_is() {
    use reshard_lens::core::cycle::{CYCLE_PRESETS, parse_cycle};
    use reshard_lens::core::spec::parse_input;
    use reshard_lens::share::{cycle_text::cycle_lines, text::to_block};
    // The toy as the app's Export ▾ Spec → Text writes it: the same plan as its JSON.
    let block = to_block(&parse_input(&toy()).expect("the toy parses"), "tensor").expect("the toy has a text form");
    let from_block = reshard(&["plan", "-", "--json"], Some(&block));
    assert!(from_block.status.success(), "{}", String::from_utf8_lossy(&from_block.stderr));
    assert_eq!(from_block.stdout, reshard(&["plan", "-", "--json"], Some(&toy())).stdout);
    // An edited cycle as Export ▾ Cycle → Text writes it, 8× faster: the note and the cycle read it.
    let mut cycle = parse_cycle(CYCLE_PRESETS[0].2).expect("cycle-120");
    cycle.speedup = 8.0;
    let lines = cycle_lines(&cycle).expect("a text form").join("\n") + "\nview cycle\n";
    let out = reshard(&["cycle", "-"], Some(&lines));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("111.25 s"), "{}", String::from_utf8_lossy(&out.stdout));
    let note = reshard(&["note", "examples/toy.json", "-"], Some(&lines));
    assert!(String::from_utf8_lossy(&note.stdout).contains("New cycle: 111.25 s instead of 120 s."));
    // Without its `view cycle` line (typed rather than exported), the cycle command reads it all the same.
    let typed = reshard(&["cycle", "-"], Some("stage generation 70\nstage refit 10\nspeedup 4\n"));
    assert!(
        String::from_utf8_lossy(&typed.stdout).contains("cycle 72.5 s"),
        "{}",
        String::from_utf8_lossy(&typed.stderr)
    );
    // A block without cycle lines is no cycle, and says what is missing; a bad line is named by its number.
    let no_cycle = reshard(&["cycle", "-"], Some(&block));
    assert_eq!(no_cycle.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_cycle.stderr).contains("a text block without a cycle"));
    let typo = reshard(&["plan", "-"], Some("tensor w 12x6\nsource 3 Shrd(0)\ndestination 2 S(1)\n"));
    assert_eq!(typo.status.code(), Some(2));
    let said = String::from_utf8_lossy(&typo.stderr);
    assert!(said.starts_with("stdin: not JSON") && said.contains("stdin: line 2"), "{said}");
}

#[test]
fn help_is_help_wherever_it_is_asked_and_the_version_is_named() {
    for args in [&["--help"][..], &["plan", "--help"], &["note", "-h"], &["help"]] {
        let out = reshard(args, None);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).starts_with("usage:"), "{args:?}");
    }
    let version = reshard(&["--version"], None);
    assert_eq!(String::from_utf8_lossy(&version.stdout).trim(), format!("reshard {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn plan_splits_the_bytes_sent_between_nvlink_and_the_nic() {
    let text = |out: Output| String::from_utf8(out.stdout).expect("UTF-8");
    let near = text(reshard(&["plan", "-"], Some(&toy())));
    assert!(near.contains("  of which over NVLink:      144 B (same node)\n"), "{near}");
    assert!(near.contains("  of which over the NIC:     0 B (across nodes)\n"), "{near}");
    // The toy with one GPU per node: every byte crosses a NIC.
    let spread = toy().replacen('{', r#"{"topology": {"devices_per_node": 1}, "#, 1);
    let spread = text(reshard(&["plan", "-"], Some(&spread)));
    assert!(spread.contains("  of which over NVLink:      0 B (same node)\n"), "{spread}");
    assert!(spread.contains("  of which over the NIC:     144 B (across nodes)\n"), "{spread}");
}
