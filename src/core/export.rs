//! Documents made from the core's results: the plan as JSON (the CLI's `plan --json` format) and a Markdown
//! decision note for a refit transport switch.
//!
//! Both are pure functions of a validated [`Reshard`] and the numbers the core computes for it, so the web
//! app's downloads and the CLI's output are the same text for the same input.
//!
//! ## The decision note
//!
//! The article's advice before a transport switch ("Measure the bottleneck you can actually improve") is a
//! short note stating the current refit interval and its share of the cycle, the source and destination
//! layouts, the work the new transport is expected to remove, the condition under which generation resumes,
//! and the effect on the whole cycle with its bound. [`decision_note`] writes exactly those sections from a
//! [`NoteInput`]. Its numbers are written by [`crate::chart::readout`], the same functions the cycle view
//! uses, so the note and the screen never disagree by a rounding.
//!
//! Everything a user typed (tensor names, mesh dim names, stage names) is written inside a Markdown code span
//! ([`code_span`]), so it reads as literal characters and never as markup or HTML, whatever it contains.

use serde_json::{Value, json};

use super::cycle::CycleReport;
use super::model::{ConvertAt, Layout, Mesh, Reshard};
use super::notation::{placements_list, strided_where_it_matters};
use super::placement::Placement;
use super::plan::{Planner, Strategy};
use super::traffic::{Totals, Traffic, analyse, format_bytes, format_count, format_seconds, group_name};
use crate::chart::bars::ratio_text;
use crate::chart::readout::{decimal, percent, seconds, times};

// ---------------------------------------------------------------------------------------------------------
// The plan as JSON
// ---------------------------------------------------------------------------------------------------------

/// The plan of `strategy` as JSON, in the format `reshard plan --json` prints (README, "CLI"):
///
/// - `strategy`, `totals` ([`Totals`]), `estimate` (`seconds`, `formula`), `links` (every loaded link,
///   busiest first: `device`, `link`, `bytes`);
/// - `pieces`, only when `with_pieces`: `src`, `dst`, `offset`, `shape`, `bytes`, `link`, plus `tensor` (its
///   name) for an inventory, `keep_offset`/`keep_shape` when the receiver keeps less than it gets, and
///   `contributor` for a Partial source's second and later contributors;
/// - for an inventory (more than one tensor), `tensors` and `groups`: per-tensor and per-group totals.
///
/// An inventory's plan can hold millions of pieces; the CLI includes them only with `--pieces`. Fails with
/// the planner's message when the change cannot be planned.
pub fn plan_json(reshard: &Reshard, strategy: Strategy, with_pieces: bool) -> Result<Value, String> {
    serde_json::from_str(&plan_json_text(reshard, strategy, with_pieces)?).map_err(|e| e.to_string())
}

/// One piece of [`plan_json`], in the order its fields are written.
#[derive(serde::Serialize)]
struct PieceJson<'a> {
    src: u32,
    dst: u32,
    offset: &'a [u64],
    shape: &'a [u64],
    bytes: u64,
    link: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    tensor: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    keep_offset: Option<&'a [u64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    keep_shape: Option<&'a [u64]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    contributor: Option<usize>,
}

/// The most pieces the app writes into a download of the plan's pieces (JSON or CSV): some 150 MB of text.
/// A change may plan up to [`super::plan::MAX_PIECES`]; written out in the browser, those ran a wasm page
/// out of memory (it aborts). The CLI streams larger plans to a file.
pub const MAX_DOWNLOADED_PIECES: u64 = 1 << 20;

/// Refuses, before any planning, a download of more pieces than [`MAX_DOWNLOADED_PIECES`], saying which CLI
/// command (`reshard plan --json`, `--csv`) writes them instead.
pub fn downloadable_pieces(reshard: &Reshard, command: &str) -> Result<(), String> {
    let pieces = super::plan::count_pieces(reshard, MAX_DOWNLOADED_PIECES + 1);
    if pieces > MAX_DOWNLOADED_PIECES {
        return Err(format!(
            "more than {} pieces, too many to write in a browser page; `{command}` writes them",
            format_count(MAX_DOWNLOADED_PIECES)
        ));
    }
    Ok(())
}

/// [`plan_json`] as the exact text `reshard plan --json` prints, ending in a newline: pretty-printed, but
/// one line per link and per piece. A download made from this is byte for byte the CLI's output for the
/// same spec and strategy. The pieces are written as they are planned, never held as JSON values: the
/// large preset's 262,144 pieces were 50 MB pretty-printed a field per line, and took ~0.8 s to export.
pub fn plan_json_text(reshard: &Reshard, strategy: Strategy, with_pieces: bool) -> Result<String, String> {
    let inventory = reshard.tensors.len() > 1;
    let mut planner = Planner::new(reshard, strategy);
    let mut traffic = Traffic::new(reshard, &planner.table, strategy);
    let mut pieces = String::new();
    let mut failed = None;
    planner.run(|p| {
        traffic.add(p);
        if with_pieces {
            let kept_less = p.keep != p.region;
            let piece = PieceJson {
                src: p.src,
                dst: p.dst,
                offset: p.region.offset(),
                shape: p.region.shape(),
                bytes: p.bytes,
                link: p.link.name(),
                tensor: inventory.then(|| reshard.tensors[p.tensor].name.as_str()),
                keep_offset: kept_less.then(|| p.keep.offset()),
                keep_shape: kept_less.then(|| p.keep.shape()),
                contributor: (p.contributor > 0).then_some(p.contributor),
            };
            pieces.push_str(if pieces.is_empty() { "\n    " } else { ",\n    " });
            match serde_json::to_string(&piece) {
                Ok(text) => pieces.push_str(&text),
                Err(e) => failed = Some(e.to_string()),
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    let estimate = traffic.estimate();
    let links: Vec<String> = traffic
        .links()
        .iter()
        .map(|l| json!({"device": l.device, "link": l.link.name(), "bytes": l.bytes}).to_string())
        .collect();
    let mut head = json!({
        "strategy": strategy.name(),
        "totals": traffic.totals(),
        "estimate": {"seconds": estimate.seconds, "formula": estimate.formula},
    });
    if inventory {
        head["tensors"] = json!(traffic.per_tensor);
        head["groups"] = json!(traffic.per_group(&reshard.tensors));
    }
    let mut text = serde_json::to_string_pretty(&head).map_err(|e| e.to_string())?;
    // The object's closing brace comes back after the two arrays.
    text.truncate(text.trim_end_matches('}').trim_end().len());
    let list = |items: &str| if items.is_empty() { "[]".to_string() } else { format!("[{items}\n  ]") };
    let links = if links.is_empty() { String::new() } else { format!("\n    {}", links.join(",\n    ")) };
    text.push_str(&format!(",\n  \"links\": {}", list(&links)));
    if with_pieces {
        text.push_str(&format!(",\n  \"pieces\": {}", list(&pieces)));
    }
    text.push_str("\n}\n");
    Ok(text)
}

// ---------------------------------------------------------------------------------------------------------
// One tensor's pieces as CSV
// ---------------------------------------------------------------------------------------------------------

/// The pieces of one tensor's plan as CSV, one row per piece in the plan's order, for a spreadsheet: what
/// `reshard plan --csv` prints. Its columns are fixed by the change before any piece is written, so every
/// row has every column:
///
/// - `src`, `dst` (device ids), `link` (`local`, `nvlink`, `nic`);
/// - `role` for gather then broadcast only (`to-root`, `ring-hop`);
/// - `offset_0` … and `shape_0` … of the box sent, one column per tensor dim;
/// - `entries` and `bytes` of the box (bytes in the dtype that crosses the link);
/// - `keep_offset_0` … and `keep_shape_0` … for the strategies that send more than a receiver keeps;
/// - `contributor` when the source holds Partial sums (which contributor's sum the piece carries).
///
/// An inventory's plan has no CSV (its tensors differ in rank, and it runs to millions of rows): refused.
/// Nothing here is typed text, so no field needs quoting.
pub fn plan_csv_text(reshard: &Reshard, strategy: Strategy) -> Result<String, String> {
    let [tensor] = reshard.tensors.as_slice() else {
        return Err("a CSV holds the pieces of one tensor; the plan of an inventory is JSON".into());
    };
    let rank = tensor.shape.len();
    let gather = strategy == Strategy::Gather;
    let keeps = strategy != Strategy::Intersection;
    let partial = tensor.source.placements.contains(&Placement::Partial);
    let per_dim = |name: &'static str| (0..rank).map(move |d| format!("{name}_{d}"));
    let mut header = vec!["src".to_string(), "dst".into(), "link".into()];
    if gather {
        header.push("role".into());
    }
    header.extend(per_dim("offset").chain(per_dim("shape")));
    header.extend(["entries".to_string(), "bytes".into()]);
    if keeps {
        header.extend(per_dim("keep_offset").chain(per_dim("keep_shape")));
    }
    if partial {
        header.push("contributor".into());
    }
    let mut text = header.join(",") + "\n";
    let join = |numbers: &[u64]| numbers.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    Planner::new(reshard, strategy).run(|p| {
        let mut row = vec![p.src.to_string(), p.dst.to_string(), p.link.name().to_string()];
        if gather {
            row.push(p.role.name().to_string());
        }
        row.extend([join(p.region.offset()), join(p.region.shape()), p.region.entries().to_string()]);
        row.push(p.bytes.to_string());
        if keeps {
            row.extend([join(p.keep.offset()), join(p.keep.shape())]);
        }
        if partial {
            row.push(p.contributor.to_string());
        }
        text.push_str(&row.join(","));
        text.push('\n');
    })?;
    Ok(text)
}

// ---------------------------------------------------------------------------------------------------------
// Markdown that keeps typed text literal
// ---------------------------------------------------------------------------------------------------------

/// `text` as a Markdown code span, so that it reads as literal characters whatever it holds: `<img …>`,
/// `*`, `[x](y)` and backticks included.
///
/// The fence is one backtick longer than the longest run of backticks in `text`. When `text` starts or ends
/// with a backtick, or starts and ends with a space, it is padded with one space on each side (CommonMark
/// strips exactly that pair again). Control characters, which could end the span by ending the paragraph
/// (a blank line), are written as Rust escapes (`\n`, `\u{1b}`). An empty `text` has no code span (two
/// backticks would read as one empty fence), so it is written as the plain words `(empty)`.
///
/// ```
/// use reshard_lens::core::export::code_span;
/// assert_eq!(code_span("tp"), "`tp`");
/// assert_eq!(code_span("a`b"), "``a`b``");
/// assert_eq!(code_span("`x`"), "`` `x` ``");
/// assert_eq!(code_span("two\n\nlines"), r"`two\n\nlines`");
/// ```
pub fn code_span(text: &str) -> String {
    let text = visible(text);
    if text.is_empty() {
        return "(empty)".into();
    }
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    let all_spaces = text.chars().all(|c| c == ' ');
    let pad =
        text.starts_with('`') || text.ends_with('`') || (!all_spaces && text.starts_with(' ') && text.ends_with(' '));
    let space = if pad { " " } else { "" };
    format!("{fence}{space}{text}{space}{fence}")
}

/// [`code_span`] for a table cell: a `|` would end the cell (GFM splits rows before reading spans), so it is
/// escaped as `\|`, which GFM turns back into `|` inside the span.
pub fn table_code_span(text: &str) -> String {
    code_span(text).replace('|', "\\|")
}

/// `text` with control characters (line ends, tabs, escapes) written as Rust escapes, one line and visible.
fn visible(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars().map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() }).collect()
}

// ---------------------------------------------------------------------------------------------------------
// The decision note
// ---------------------------------------------------------------------------------------------------------

/// The most tensors the note lists one by one; the rest of an inventory is counted in one line.
pub const NOTE_TENSOR_ROWS: usize = 20;

/// What [`decision_note`] writes about: the layout change, every strategy's headline numbers on it, and the
/// cycle with the transfer speedup being considered.
#[derive(Clone, Copy, Debug)]
pub struct NoteInput<'a> {
    /// The validated change (one tensor or an inventory).
    pub reshard: &'a Reshard,
    /// Each strategy's totals for `reshard`, as `analyse(reshard, strategy).totals()` gives them (see
    /// [`strategy_totals`]), in the order to list them. Ratios are taken to the intersection row; without one
    /// no ratios are written. An empty slice leaves the section saying that no plan was available.
    pub strategies: &'a [(Strategy, Totals)],
    /// The cycle, with the speedup `s` of the transfer under consideration (see
    /// [`crate::core::cycle::CycleSpec::report`]).
    pub cycle: &'a CycleReport,
}

/// Every strategy's totals for `reshard`, in [`Strategy::ALL`] order: the `strategies` of a [`NoteInput`].
pub fn strategy_totals(reshard: &Reshard) -> Result<Vec<(Strategy, Totals)>, String> {
    Strategy::ALL.into_iter().map(|strategy| Ok((strategy, analyse(reshard, strategy)?.totals()))).collect()
}

/// A Markdown decision note for switching the refit transport (module doc, "The decision note"). The same
/// input always gives the same text; every name a user typed is inside a code span.
pub fn decision_note(input: &NoteInput) -> String {
    let mut note = String::new();
    note.push_str("# Decision note: refit transport\n\n");
    let reshard = input.reshard;
    let tensors = reshard.tensors.len();
    note.push_str(&format!(
        "A layout change of {} from {} to {}, in a cycle of {} with the transfer {}. Transfer times are a \
         model (a lower bound); the cycle is the one described below, its stage times as given (measured \
         or assumed).\n",
        count(tensors, "tensor"),
        count(reshard.source_mesh.size(), "source device"),
        count(reshard.destination_mesh.size(), "destination device"),
        count(input.cycle.before.stages.len(), "stage"),
        speedup_phrase(input.cycle.speedup),
    ));
    refit_interval_section(&mut note, input.cycle);
    layouts_section(&mut note, reshard);
    strategies_section(&mut note, input);
    groups_section(&mut note, reshard);
    resume_section(&mut note, input.cycle);
    cycle_effect_section(&mut note, input.cycle);
    note
}

/// `3 tensors`, `1 tensor`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// `4× faster`, `2× slower`, `unchanged`.
fn speedup_phrase(s: f64) -> String {
    if s == 1.0 {
        "unchanged (s = 1)".into()
    } else if s > 1.0 {
        format!("{} faster (s = {})", times(s), decimal(s, 4))
    } else {
        format!("{} slower (s = {})", times(1.0 / s), decimal(s, 4))
    }
}

fn refit_interval_section(note: &mut String, cycle: &CycleReport) {
    let old = cycle.before.cycle_seconds;
    let refit = cycle.refit_before;
    let kind = if cycle.sequential { "sequential" } else { "with overlapping stages" };
    note.push_str("\n## Current refit interval\n\n");
    note.push_str(&format!(
        "- The refit stage {} lasts {} of a {} cycle ({kind}): {} of the cycle.\n",
        code_span(&cycle.refit_name),
        seconds(refit.total()),
        seconds(old),
        percent(cycle.refit_fraction * 100.0),
    ));
    note.push_str(&format!(
        "- It runs as wait {} + transfer {} + preparation {}, in that order.\n",
        seconds(refit.wait),
        seconds(refit.transfer),
        seconds(refit.preparation)
    ));
    note.push_str(&format!(
        "- The share a transport can shrink is the transfer's: f = transfer / cycle = {} / {} = {} ({}).\n",
        seconds(refit.transfer),
        seconds(old),
        decimal(cycle.transfer_fraction, 4),
        percent(cycle.transfer_fraction * 100.0),
    ));
}

fn layouts_section(note: &mut String, reshard: &Reshard) {
    note.push_str("\n## Source and destination layouts\n\n");
    note.push_str(&format!("- Source mesh: {}.\n", mesh_text(&reshard.source_mesh)));
    note.push_str(&format!("- Destination mesh: {}.\n", mesh_text(&reshard.destination_mesh)));
    // Said only where some tensor changes dtype ("the sender converts" read oddly for bf16 → bf16).
    let converts = reshard.tensors.iter().any(|t| t.source.dtype != t.destination.dtype);
    let conversion = match reshard.convert_at {
        _ if !converts => "none (each tensor keeps its dtype)",
        ConvertAt::Sender => "the sender converts, so destination-dtype bytes travel",
        ConvertAt::Receiver => "the receiver converts, so source-dtype bytes travel",
    };
    let topology = reshard.topology;
    note.push_str(&format!(
        "- Split rule: {}; dtype conversion: {conversion}.\n- Cost model: {} devices per node; per device and \
         direction NVLink {} GB/s, NIC {} GB/s; {} µs per message.\n",
        reshard.split.label(),
        topology.devices_per_node,
        decimal(topology.nvlink_gbps, 3),
        decimal(topology.nic_gbps, 3),
        decimal(topology.latency_us, 3),
    ));
    note.push_str("\nPlacements in DTensor notation, one per mesh dim in mesh-dim order.\n\n");
    note.push_str("| tensor | shape | dtype | source placements | destination placements |\n");
    note.push_str("|---|---|---|---|---|\n");
    for tensor in reshard.tensors.iter().take(NOTE_TENSOR_ROWS) {
        let dtype = if tensor.source.dtype == tensor.destination.dtype {
            tensor.source.dtype.name().to_string()
        } else {
            format!("{} → {}", tensor.source.dtype.name(), tensor.destination.dtype.name())
        };
        note.push_str(&format!(
            "| {} | {:?} | {dtype} | {} | {} |\n",
            table_code_span(&tensor.name),
            tensor.shape,
            placements_text(&tensor.source, &reshard.source_mesh.shape),
            placements_text(&tensor.destination, &reshard.destination_mesh.shape),
        ));
    }
    let rest = reshard.tensors.len().saturating_sub(NOTE_TENSOR_ROWS);
    if rest > 0 {
        let rest_entries: u64 =
            reshard.tensors[NOTE_TENSOR_ROWS..].iter().map(|t| t.entries()).fold(0, u64::saturating_add);
        note.push_str(&format!(
            "\nNot listed: {} ({} entries); {} in all.\n",
            count(rest, "more tensor"),
            format_count(rest_entries),
            count(reshard.tensors.len(), "tensor")
        ));
    }
}

/// `[2, 4] (dp × tp), 8 devices: d0–d7`, with the dim names in code spans.
fn mesh_text(mesh: &Mesh) -> String {
    let names: Vec<String> = mesh.dim_names.iter().map(|name| code_span(name)).collect();
    let devices = &mesh.devices;
    let contiguous = devices.windows(2).all(|pair| pair[1] == pair[0].wrapping_add(1));
    let ids = match (devices.first(), devices.last()) {
        (Some(first), Some(last)) if contiguous && devices.len() > 1 => format!("d{first}–d{last}"),
        (Some(only), _) if devices.len() == 1 => format!("d{only}"),
        _ if devices.len() <= 8 => devices.iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(", "),
        _ => format!(
            "{}, … , {} (as listed in the spec)",
            devices[..4].iter().map(|d| format!("d{d}")).collect::<Vec<_>>().join(", "),
            devices.last().map(|d| format!("d{d}")).unwrap_or_default()
        ),
    };
    format!("{:?} ({}), {}: {ids}", mesh.shape, names.join(" × "), count(devices.len(), "device"))
}

/// `` `[Shard(0), Replicate()]` ``, marked when nested shards apply right to left: only where the order
/// matters, some tensor dim split by two mesh dims of more than one device (an inventory's FSDP-only
/// training side is strided by construction, and the mark there read as if the layout were nested).
fn placements_text(layout: &Layout, mesh_shape: &[u64]) -> String {
    let order = if strided_where_it_matters(layout, mesh_shape) { " (strided order)" } else { "" };
    format!("{}{order}", table_code_span(&placements_list(layout)))
}

/// The most parameter groups a note lists, largest first.
pub const NOTE_GROUP_ROWS: usize = 30;

/// For an inventory, the bytes each group of tensors receives under each strategy, largest first: where a
/// faster transport pays, which the app's inventory shows and the note left out. Planned again
/// here (a note is written once, on request); left out if a plan fails.
fn groups_section(note: &mut String, reshard: &Reshard) {
    if reshard.tensors.len() < 2 {
        return;
    }
    let mut per_strategy = Vec::new();
    for strategy in Strategy::ALL {
        let Ok(traffic) = analyse(reshard, strategy) else { return };
        per_strategy.push(traffic.per_group(&reshard.tensors));
    }
    let intersection = &per_strategy[0];
    let total: u64 = intersection.iter().map(|g| g.bytes_received).fold(0, u64::saturating_add);
    let mut order: Vec<usize> = (0..intersection.len()).collect();
    order
        .sort_unstable_by(|&a, &b| intersection[b].bytes_received.cmp(&intersection[a].bytes_received).then(a.cmp(&b)));
    note.push_str("\n## Where the bytes are: groups of tensors\n\n");
    note.push_str(
        "Bytes received by devices per group (the spec's own labels, else the tensors' names with layer numbers \
         as `*`), largest first under intersection.\n\n| group | tensors | share under intersection |",
    );
    for strategy in Strategy::ALL {
        note.push_str(&format!(" {} |", strategy.label()));
    }
    note.push_str(&format!("\n{}|\n", "|---".repeat(3 + Strategy::ALL.len())));
    for &i in order.iter().take(NOTE_GROUP_ROWS) {
        let name = &intersection[i].name;
        let tensors = reshard.tensors.iter().filter(|t| group_name(t) == *name).count();
        let share = if total == 0 { 0.0 } else { intersection[i].bytes_received as f64 / total as f64 * 100.0 };
        // A group of norms is a few thousandths of a percent: "< 0.01 %", not "2.3e-3 %".
        let share = if share > 0.0 && share < 0.005 { "< 0.01 %".to_string() } else { percent(share) };
        note.push_str(&format!("| {} | {tensors} | {share} |", code_span(name)));
        for groups in &per_strategy {
            note.push_str(&format!(" {} |", format_bytes(groups[i].bytes_received)));
        }
        note.push('\n');
    }
    if order.len() > NOTE_GROUP_ROWS {
        note.push_str(&format!("\n{} more groups are left out.\n", order.len() - NOTE_GROUP_ROWS));
    }
}

fn strategies_section(note: &mut String, input: &NoteInput) {
    note.push_str("\n## What the new transport is expected to remove\n\n");
    if input.strategies.is_empty() {
        note.push_str("No plan is available for this change, so there is nothing to compare.\n");
        return;
    }
    note.push_str(
        "Three quantities, kept apart: **unique logical entries** (entries of the logical tensors, the same for \
         every strategy), **bytes received by devices** (summed over destinations, from other devices) and **bytes \
         crossing the busiest link** (one direction of one device's NVLink or NIC port). The estimated transfer \
         time is a model and a lower bound: the longest load / bandwidth over links plus latency × the most \
         messages one device sends or receives. The new transport is intersection (each destination receives \
         exactly the pieces it needs, the Reshard idea); ratios are to it.\n\n",
    );
    let base = input.strategies.iter().find(|(s, _)| *s == Strategy::Intersection).map(|(_, t)| t);
    let ratio = |value: f64, base_value: fn(&Totals) -> f64| match base {
        Some(base) => format!(" ({})", ratio_text(value, base_value(base))),
        None => String::new(),
    };
    note.push_str(
        "| strategy | unique logical entries | entries moved | bytes received by devices | bytes sent by devices \
         | bytes crossing the busiest link | messages | estimated transfer time |\n",
    );
    note.push_str("|---|---|---|---|---|---|---|---|\n");
    for (strategy, totals) in input.strategies {
        note.push_str(&format!(
            "| {} | {} | {}{} | {}{} | {}{} | {}{} | {} | {}{} |\n",
            strategy.label(),
            format_count(totals.unique_entries),
            format_count(totals.entries_moved),
            ratio(totals.entries_moved as f64, |t| t.entries_moved as f64),
            format_bytes(totals.bytes_received),
            ratio(totals.bytes_received as f64, |t| t.bytes_received as f64),
            format_bytes(totals.bytes_sent),
            ratio(totals.bytes_sent as f64, |t| t.bytes_sent as f64),
            format_bytes(totals.max_link_bytes),
            ratio(totals.max_link_bytes as f64, |t| t.max_link_bytes as f64),
            format_count(totals.messages),
            format_seconds(totals.estimated_seconds),
            ratio(totals.estimated_seconds, |t| t.estimated_seconds),
        ));
    }
    let Some(base) = base else { return };
    note.push('\n');
    for (strategy, totals) in input.strategies.iter().filter(|(s, _)| *s != Strategy::Intersection) {
        note.push_str(&format!(
            "- Replacing “{}” by intersection: bytes received by devices {}; bytes crossing the busiest link {}; \
             modelled transfer time {}.\n",
            strategy.label(),
            reduction(totals.bytes_received, base.bytes_received),
            reduction(totals.max_link_bytes, base.max_link_bytes),
            time_change(totals.estimated_seconds, base.estimated_seconds),
        ));
    }
    // The cycle sections use the s entered in the cycle view, which need not be these estimates' ratio: say
    // which, so that a reader does not take the two for one number.
    let gather = input.strategies.iter().find(|(s, _)| *s == Strategy::Gather).map(|(_, t)| t.estimated_seconds);
    if let Some(gather) = gather.filter(|g| *g > 0.0 && base.estimated_seconds > 0.0) {
        let modelled = gather / base.estimated_seconds;
        let s = input.cycle.speedup;
        let same = decimal(modelled, 4) == decimal(s, 4);
        note.push_str(&format!(
            "- The modelled times give s = {} for gather then broadcast → intersection; the cycle below uses s = {}, \
             {}.\n",
            decimal(modelled, 4),
            decimal(s, 4),
            if same { "the same ratio" } else { "as entered in the cycle view (a measured or assumed speedup)" },
        ));
    }
}

/// How the intersection's modelled time `after` compares with another strategy's `before`: `15 µs instead
/// of 30 µs (2× shorter)`; times that print alike are called the same.
fn time_change(before: f64, after: f64) -> String {
    let (before_text, after_text) = (format_seconds(before), format_seconds(after));
    if before_text == after_text {
        format!("about the same ({after_text})")
    } else if after < before {
        format!("{after_text} instead of {before_text} ({} shorter)", factor_or_percent(before, after))
    } else {
        format!("{after_text} instead of {before_text} ({} longer)", factor_or_percent(after, before))
    }
}

/// `2×`, or for times within 0.5 % of each other the percent (8.001 µs against 8.005 µs was "1× shorter").
fn factor_or_percent(larger: f64, smaller: f64) -> String {
    let factor = ratio_text(larger, smaller);
    if factor != "1×" {
        return factor;
    }
    format!("{} %", crate::core::traffic::trim_float((larger - smaller) / larger * 100.0, 2))
}

/// How the intersection's `after` compares with another strategy's `before`, in bytes.
fn reduction(before: u64, after: u64) -> String {
    if after < before {
        let saved = before - after;
        format!(
            "{} fewer ({} → {}, {} less)",
            format_bytes(saved),
            format_bytes(before),
            format_bytes(after),
            percent(saved as f64 / before as f64 * 100.0)
        )
    } else if after == before {
        format!("unchanged ({})", format_bytes(after))
    } else {
        format!("{} more ({} → {})", format_bytes(after - before), format_bytes(before), format_bytes(after))
    }
}

fn resume_section(note: &mut String, cycle: &CycleReport) {
    note.push_str("\n## When generation can resume\n\n");
    let (before, after) = (cycle.refit_before, cycle.refit_after);
    note.push_str(&format!("| refit part | before | after (s = {}) |\n", decimal(cycle.speedup, 4)));
    note.push_str("|---|---|---|\n");
    for (part, old, new) in [
        ("wait before the transfer", before.wait, after.wait),
        ("transfer", before.transfer, after.transfer),
        ("preparation and acceptance", before.preparation, after.preparation),
        ("refit", before.total(), after.total()),
    ] {
        note.push_str(&format!("| {part} | {} | {} |\n", seconds(old), seconds(new)));
    }
    note.push('\n');

    let stages = &cycle.before.stages;
    let refit_index = cycle.refit_stage;
    let next_index = (refit_index + 1) % stages.len().max(1);
    if stages.len() < 2 {
        note.push_str(
            "The cycle has no stage besides the refit: the next refit can start when every destination device \
             has received its pieces and finished preparation.\n",
        );
    } else {
        let next = &stages[next_index];
        let overlap_after = cycle.after.stages.get(next_index).map_or(0.0, |stage| stage.overlap);
        // Said once, by the overlap: a note opening "generation resumes when every destination has its
        // pieces" and going on "it starts 6 s before the refit ends" contradicted itself.
        note.push_str(&format!("The next stage, {}, ", code_span(&next.name)));
        if next.overlap > 0.0 {
            note.push_str(&format!(
                "starts {} before the refit ends (overlap {}; {} after the change), so it works while the last \
                 pieces still arrive or are prepared. Those seconds are already hidden behind it: speeding them up \
                 saves less than the formula predicts.\n",
                seconds(next.overlap),
                seconds(next.overlap),
                seconds(overlap_after)
            ));
        } else {
            note.push_str(
                "starts when the refit ends (no overlap): once every destination device has received its pieces \
                 and finished preparation.\n",
            );
        }
        let refit_overlap = stages.get(refit_index).map_or(0.0, |stage| stage.overlap);
        if refit_overlap > 0.0 && refit_index > 0 {
            note.push_str(&format!(
                "The refit itself starts {} before {} ends.\n",
                seconds(refit_overlap),
                code_span(&stages[refit_index - 1].name)
            ));
        }
    }

    let total = before.total();
    let part_share = |part: f64| format!("{} of {}", seconds(part), seconds(total));
    if total > 0.0 {
        let advice = if before.wait > before.transfer && before.wait >= before.preparation {
            format!(
                "Most of the refit is the wait before the transfer ({}): fewer transferred bytes do not shorten \
                 it; look at the queue or barrier first.",
                part_share(before.wait)
            )
        } else if before.preparation > before.transfer {
            format!(
                "Most of the refit is the receivers' preparation after the bytes arrive ({}): a faster transport \
                 does not shorten it; measure it separately.",
                part_share(before.preparation)
            )
        } else {
            format!(
                "The transfer is the largest part of the refit ({}), the part a faster transport shrinks.",
                part_share(before.transfer)
            )
        };
        note.push_str(&format!("\n{advice}\n"));
    }
}

fn cycle_effect_section(note: &mut String, cycle: &CycleReport) {
    let old = cycle.before.cycle_seconds;
    let new = cycle.after.cycle_seconds;
    let formula = &cycle.formula;
    note.push_str("\n## Effect on the whole cycle, and its bound\n\n");
    let verdict = if formula.exact {
        "exact, since no stages overlap".to_string()
    } else if formula.matches_timeline {
        "it matches the timeline here; with overlap the timeline is the one to trust".to_string()
    } else {
        format!("with overlap only an approximation; the timeline gives {}", decimal(cycle.ratio, 4))
    };
    note.push_str(&format!("- Formula: new/old = 1 - f + f/s = {} ({verdict}).\n", formula.text));
    note.push_str(&format!("- New cycle: {} instead of {}.\n", seconds(new), seconds(old)));
    let change = if cycle.seconds_saved >= 0.0 {
        format!("{} less time ({} saved)", percent(cycle.percent_saved), seconds(cycle.seconds_saved))
    } else {
        format!("{} more time ({} added)", percent(-cycle.percent_saved), seconds(-cycle.seconds_saved))
    };
    note.push_str(&format!(
        "- Whole-cycle speedup (old / new): {}, {change}; the transfer alone became {}.\n",
        times(cycle.cycle_speedup),
        speedup_phrase(cycle.speedup)
    ));
    let bound = cycle.bound;
    let max_speedup = match bound.max_speedup {
        Some(max) => format!("at most {} faster", times(max)),
        None => "no limit on the speedup (the cycle was all transfer)".into(),
    };
    note.push_str(&format!(
        "- Bound as s → ∞ (an instant transfer; the wait and the preparation remain): best possible cycle {}, at \
         most {} saved ({} less time), {max_speedup}.",
        seconds(bound.best_cycle_seconds),
        seconds(bound.max_seconds_saved),
        percent(bound.max_percent_saved),
    ));
    match formula.bound_speedup {
        Some(b) => note.push_str(&format!(" The formula's bound 1 / (1 - f) = {}.\n", times(b))),
        None => note.push('\n'),
    }
    note.push_str(&format!("\n> {}\n", cycle.summary));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::cycle::{CycleSpec, parse_cycle};
    use crate::core::presets;
    use crate::core::spec::parse_spec;

    /// The article's sequential 120 s cycle: generation 70, scoring 10, training 30, refit 10, s = 4.
    fn article_cycle() -> CycleReport {
        CycleSpec::article(10.0, 4.0).report().unwrap_or_else(|problems| panic!("{problems:?}"))
    }

    fn note_for(reshard: &Reshard, cycle: &CycleReport) -> String {
        let strategies = strategy_totals(reshard).unwrap_or_else(|e| panic!("{e}"));
        decision_note(&NoteInput { reshard, strategies: &strategies, cycle })
    }

    #[test]
    fn a_pieces_download_past_the_browsers_limit_is_refused_before_planning_and_names_the_cli() {
        // 2,048 × 1,024 pieces: valid to plan, too many to write as text in a page.
        let huge = crate::core::spec::parse_spec(
            r#"{"tensor": {"shape": [8192, 8192]}, "source": {"mesh": [2048], "placements": ["S(0)"]},
                "destination": {"mesh": [1024], "placements": ["S(1)"]}}"#,
        )
        .unwrap();
        let why = downloadable_pieces(&huge, "reshard plan --csv").unwrap_err();
        assert_eq!(
            why,
            "more than 1,048,576 pieces, too many to write in a browser page; `reshard plan --csv` writes them"
        );
        // The large preset's 262,144 pieces are still written.
        assert_eq!(downloadable_pieces(&presets::large(), "reshard plan --json"), Ok(()));
    }

    #[test]
    fn an_inventorys_note_says_which_groups_carry_the_bytes() {
        // The app's inventory shows where the bytes are; the note left it out.
        let spec = r#"{"tensors": [
                {"name": "layers.0.wq", "shape": [64, 8], "group": "attention"},
                {"name": "layers.1.wq", "shape": [64, 8], "group": "attention"},
                {"name": "layers.0.norm", "shape": [8]}],
            "source": {"mesh": [2], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "placements": ["R"]}}"#;
        let reshard = crate::core::spec::parse_spec(spec).expect("a valid inventory");
        let note = note_for(&reshard, &article_cycle());
        let groups = note.split("## Where the bytes are").nth(1).unwrap_or_default();
        let rows: Vec<&str> = groups.lines().filter(|l| l.starts_with("| `")).collect();
        // attention: two tensors of 512 entries × 2 B, each received whole by both destinations: 4 KiB under
        // every strategy; the norm, named by its pattern, 2 × 16 B; shares of 4,128 B.
        assert_eq!(
            rows,
            [
                "| `attention` | 2 | 99.22 % | 4 KiB | 4 KiB | 4 KiB |",
                "| `layers.*.norm` | 1 | 0.78 % | 32 B | 32 B | 32 B |"
            ],
            "{note}"
        );
        // A group too small for two decimals of a percent says so, not "2.3e-3 %".
        let spec = spec.replace(r#""shape": [8]"#, r#""shape": [1]"#).replace("[64, 8]", "[4096, 64]");
        let reshard = crate::core::spec::parse_spec(&spec).expect("a valid inventory");
        let note = note_for(&reshard, &article_cycle());
        assert!(note.contains("| `layers.*.norm` | 1 | < 0.01 % |"), "{note}");
        // One tensor: nothing to group.
        assert!(!note_for(&presets::toy(), &article_cycle()).contains("## Where the bytes are"));
    }

    #[test]
    fn the_articles_120_second_cycle_reads_as_printed() {
        // The article's numbers: 112.5 s, 1.067×, 6.25 %, best cycle 110 s, f = 1/12.
        let note = note_for(&presets::toy(), &article_cycle());
        for expected in [
            "lasts 10 s of a 120 s cycle (sequential): 8.33 % of the cycle",
            "f = transfer / cycle = 10 s / 120 s = 0.0833 (8.33 %)",
            "new/old = 1 - f + f/s = 1 - 0.0833 + 0.0833/4 = 0.9375 (exact, since no stages overlap)",
            "New cycle: 112.5 s instead of 120 s",
            "Whole-cycle speedup (old / new): 1.067×, 6.25 % less time (7.5 s saved)",
            "best possible cycle 110 s, at most 10 s saved (8.33 % less time), at most 1.091× faster",
            "1 / (1 - f) = 1.091×",
            "| transfer | 10 s | 2.5 s |",
        ] {
            assert!(note.contains(expected), "missing {expected:?} in\n{note}");
        }
    }

    #[test]
    fn the_note_shows_the_same_numbers_as_the_cycle_view() {
        // The cycle view writes with chart::readout; the note must not round differently.
        let report = parse_cycle(include_str!("../../examples/cycle-160.json"))
            .and_then(|spec| spec.report())
            .unwrap_or_else(|problems| panic!("{problems:?}"));
        let note = note_for(&presets::toy(), &report);
        assert!(note.contains(&format!("New cycle: {} instead of", seconds(report.after.cycle_seconds))));
        assert!(note.contains("1.306×, 23.44 % less time"), "{note}");
        assert!(note.contains(&report.summary), "the summary sentence is the report's own");
        // The toy's modelled ratio (10 µs / 15 µs) is not the cycle's s: the note names both.
        assert!(
            note.contains(
                "The modelled times give s = 0.6667 for gather then broadcast → intersection; the cycle below \
                 uses s = 4, as entered in the cycle view"
            ),
            "{note}"
        );
    }

    #[test]
    fn the_toy_layout_appears_with_its_meshes_and_placements() {
        let note = note_for(&presets::toy(), &article_cycle());
        assert!(note.contains("- Source mesh: [3] (`tp`), 3 devices: d0–d2."), "{note}");
        assert!(note.contains("- Destination mesh: [2] (`tp`), 2 devices: d3–d4."), "{note}");
        assert!(note.contains("| `w` | [12, 6] | bf16 | `[Shard(0)]` | `[Shard(1)]` |"), "{note}");
        // bf16 to bf16: no conversion to place ("the sender converts" read oddly).
        assert!(note.contains("dtype conversion: none (each tensor keeps its dtype)."), "{note}");
        let fsdp = note_for(&presets::fsdp_tp(), &article_cycle());
        assert!(fsdp.contains("dtype conversion: the sender converts, so destination-dtype bytes travel."), "{fsdp}");
    }

    #[test]
    fn per_strategy_bytes_are_the_cores_totals() {
        // Each row carries analyse()'s numbers; the toy's intersection is the article's 72 entries, 144 B.
        let reshard = presets::toy();
        let note = note_for(&reshard, &article_cycle());
        for strategy in Strategy::ALL {
            let totals = analyse(&reshard, strategy).unwrap_or_else(|e| panic!("{e}")).totals();
            let row = note
                .lines()
                .find(|line| line.starts_with(&format!("| {} |", strategy.label())))
                .unwrap_or_else(|| panic!("no row for {strategy:?} in\n{note}"));
            let cells: Vec<&str> = row.split(" | ").collect();
            assert_eq!(cells[1], format_count(totals.unique_entries), "{row}");
            assert!(cells[2].starts_with(&format_count(totals.entries_moved)), "{row}");
            assert!(cells[3].starts_with(&format_bytes(totals.bytes_received)), "{row}");
            assert!(cells[4].starts_with(&format_bytes(totals.bytes_sent)), "{row}");
            assert!(cells[5].starts_with(&format_bytes(totals.max_link_bytes)), "{row}");
            assert!(cells[7].starts_with(&format_seconds(totals.estimated_seconds)), "{row}");
        }
        assert!(
            note.contains("| Send only the intersection | 72 | 72 (1×) | 144 B (1×) | 144 B (1×) | 72 B (1×) |"),
            "{note}"
        );
        assert!(note.contains("| Send whole shard, discard | 72 | 144 (2×) | 288 B (2×) | 288 B (2×) |"), "{note}");
        // Gather's root d0 collects 96 B that no destination receives: sent, not received.
        assert!(note.contains(" | 216 (3×) | 288 B (2×) | 384 B (2.67×) | "), "{note}");
        assert!(note.contains("by intersection: bytes received by devices 144 B fewer (288 B → 144 B, 50 % less)"));
        assert!(note.contains("modelled transfer time about the same (15 µs)"), "latency dominates: {note}");
        assert!(note.contains("modelled transfer time 15 µs instead of 10 µs (1.5× longer)"), "{note}");
        assert_eq!(time_change(8.005e-6, 8.001e-6), "8.001 µs instead of 8.005 µs (0.05 % shorter)");
        assert_eq!(time_change(8.001e-6, 8.005e-6), "8.005 µs instead of 8.001 µs (0.05 % longer)");
        assert_eq!(time_change(30e-6, 15e-6), "15 µs instead of 30 µs (2× shorter)");
    }

    #[test]
    fn a_hostile_tensor_name_stays_inside_a_code_span() {
        // A name that is HTML must reach the reader as characters, not as an element.
        let spec = r#"{"tensor": {"name": "<img src=x onerror=alert(1)>", "shape": [12, 6]},
            "source": {"mesh": [3], "dim_names": ["<b>tp</b>"], "placements": ["S(0)"]},
            "destination": {"mesh": [2], "dim_names": ["a|b"], "placements": ["S(1)"]}}"#;
        let reshard = parse_spec(spec).unwrap_or_else(|e| panic!("{e}"));
        let mut cycle = article_cycle();
        cycle.refit_name = "<script>alert(2)</script>".into();
        let note = note_for(&reshard, &cycle);
        assert!(note.contains("| `<img src=x onerror=alert(1)>` | [12, 6] |"), "{note}");
        assert!(note.contains("[3] (`<b>tp</b>`)"), "{note}");
        assert!(note.contains("The refit stage `<script>alert(2)</script>` lasts"), "{note}");
        for markup in ["<img", "<b>", "<script>"] {
            for (at, _) in note.match_indices(markup) {
                assert_eq!(&note[at - 1..at], "`", "{markup} at byte {at} is not the start of a code span");
            }
        }
    }

    #[test]
    fn code_spans_survive_backticks_pipes_and_line_ends() {
        assert_eq!(code_span("w"), "`w`");
        assert_eq!(code_span("a``b"), "```a``b```");
        assert_eq!(code_span("`"), "`` ` ``");
        assert_eq!(code_span(" padded "), "`  padded  `");
        assert_eq!(code_span("   "), "`   `", "all spaces are kept as they are");
        assert_eq!(code_span(""), "(empty)");
        assert_eq!(code_span("a\n\n<img>"), r"`a\n\n<img>`", "a blank line would end the span");
        assert_eq!(table_code_span("a|b"), r"`a\|b`");
        let reshard = parse_spec(
            r#"{"tensor": {"name": "x`y|z", "shape": [4]}, "source": {"mesh": [2], "placements": ["S(0)"]},
                "destination": {"mesh": [1], "placements": ["R"]}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let note = note_for(&reshard, &article_cycle());
        assert!(note.contains(r"| ``x`y\|z`` | [4] |"), "{note}");
    }

    #[test]
    fn the_strided_order_is_marked_only_where_it_changes_the_layout() {
        let note = |mesh: &str| {
            let spec = format!(
                r#"{{"tensor": {{"name": "w", "shape": [16, 4]}},
                "source": {{"mesh": {mesh}, "placements": ["S(0)", "S(0)"], "order": "strided"}},
                "destination": {{"mesh": [2], "placements": ["S(1)"]}}}}"#
            );
            let reshard = parse_spec(&spec).unwrap_or_else(|e| panic!("{e}"));
            note_for(&reshard, &article_cycle())
        };
        // Rows split by both mesh dims: the order decides which device holds which rows.
        assert!(note("[2, 4]").contains("`[Shard(0), Shard(0)]` (strided order)"));
        // One of the two has a single device (an inventory's FSDP-only training side): nothing is nested.
        let flat = note("[1, 8]");
        assert!(flat.contains("`[Shard(0), Shard(0)]` |"), "{flat}");
        assert!(!flat.contains("strided"), "{flat}");
    }

    #[test]
    fn an_inventory_lists_twenty_tensors_and_counts_the_rest() {
        let reshard = presets::llama_inventory(2);
        let note = note_for(&reshard, &article_cycle());
        // The tensors' rows, before the groups' table.
        let tensors = note.split("## Where the bytes are").next().unwrap_or_default();
        let rows = tensors.lines().filter(|line| line.starts_with("| `")).count();
        assert_eq!(rows, NOTE_TENSOR_ROWS);
        assert!(note.contains("| `embed_tokens` | [128256, 8192] | bf16 | `[Replicate(), Shard(1), Shard(0)]` |"));
        // The head, 128,256 × 8,192 entries, with its thousands grouped.
        assert!(note.contains("Not listed: 1 more tensor (1,050,673,152 entries); 21 tensors in all."), "{note}");
    }

    #[test]
    fn waiting_and_overlap_are_named_where_generation_resumes() {
        let queue = parse_cycle(include_str!("../../examples/cycle-queue.json"))
            .and_then(|spec| spec.report())
            .unwrap_or_else(|problems| panic!("{problems:?}"));
        let note = note_for(&presets::toy(), &queue);
        assert!(note.contains("Most of the refit is the wait before the transfer (8 s of 10 s)"), "{note}");
        assert!(note.contains("at most 2 s saved"), "{note}");
        assert!(
            note.contains(
                "The next stage, `generation`, starts when the refit ends (no overlap): once every destination device \
                 has received its pieces and finished preparation."
            ),
            "{note}"
        );

        let overlap = parse_cycle(include_str!("../../examples/cycle-overlap.json"))
            .and_then(|spec| spec.report())
            .unwrap_or_else(|problems| panic!("{problems:?}"));
        let note = note_for(&presets::toy(), &overlap);
        assert!(
            note.contains("The next stage, `generation`, starts 6 s before the refit ends (overlap 6 s;"),
            "{note}"
        );
        assert!(!note.contains("resumes when every destination"), "no claim the overlap contradicts: {note}");
        assert!(note.contains("with overlapping stages"), "{note}");
    }

    /// The rows of a CSV as maps from its header's names to cells.
    fn csv_rows(text: &str) -> Vec<std::collections::BTreeMap<String, String>> {
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
        lines
            .map(|line| {
                let cells: Vec<&str> = line.split(',').collect();
                assert_eq!(cells.len(), header.len(), "every row has every column: {line}");
                header.iter().zip(cells).map(|(h, c)| (h.to_string(), c.to_string())).collect()
            })
            .collect()
    }

    #[test]
    fn plan_csv_has_a_row_per_piece_that_agrees_with_the_json() {
        for (name, reshard) in [
            ("toy", presets::toy()),
            ("uneven", presets::uneven()),
            ("partial", presets::partial()),
            ("nested", presets::nested()),
        ] {
            for strategy in Strategy::ALL {
                let csv = plan_csv_text(&reshard, strategy).unwrap_or_else(|e| panic!("{e}"));
                let json = plan_json(&reshard, strategy, true).unwrap_or_else(|e| panic!("{e}"));
                let pieces = json["pieces"].as_array().cloned().unwrap_or_default();
                let rows = csv_rows(&csv);
                assert_eq!(rows.len(), pieces.len(), "{name} {strategy:?}");
                let rank = reshard.tensors[0].shape.len();
                for (row, piece) in rows.iter().zip(&pieces) {
                    let dims = |column: &str| -> Vec<Value> {
                        (0..rank)
                            .map(|d| json!(row[&format!("{column}_{d}")].parse::<u64>().unwrap_or(u64::MAX)))
                            .collect()
                    };
                    assert_eq!(row["src"], piece["src"].to_string());
                    assert_eq!(row["dst"], piece["dst"].to_string());
                    assert_eq!(json!(row["link"]), piece["link"]);
                    assert_eq!(Value::Array(dims("offset")), piece["offset"]);
                    assert_eq!(Value::Array(dims("shape")), piece["shape"]);
                    assert_eq!(row["bytes"], piece["bytes"].to_string());
                    let entries: u64 = dims("shape").iter().filter_map(Value::as_u64).product();
                    assert_eq!(row["entries"], entries.to_string());
                    if strategy != Strategy::Intersection {
                        // The JSON names what is kept only where it is less than the box.
                        let kept = piece.get("keep_shape").unwrap_or(&piece["shape"]);
                        assert_eq!(&Value::Array(dims("keep_shape")), kept);
                    }
                }
                let header = csv.lines().next().unwrap_or_default();
                assert_eq!(header.contains(",role,"), strategy == Strategy::Gather, "{header}");
                assert_eq!(header.contains("keep_offset_0"), strategy != Strategy::Intersection, "{header}");
                assert_eq!(header.ends_with(",contributor"), name == "partial", "{header}");
            }
        }
        let toy = plan_csv_text(&presets::toy(), Strategy::Intersection).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(toy.lines().next(), Some("src,dst,link,offset_0,offset_1,shape_0,shape_1,entries,bytes"));
        assert_eq!(toy.lines().nth(1), Some("0,3,nvlink,0,0,4,3,12,24"));
        assert!(plan_csv_text(&presets::llama_inventory(1), Strategy::Intersection).is_err());
    }

    #[test]
    fn plan_json_keeps_the_clis_documented_shape() {
        let json = plan_json(&presets::toy(), Strategy::Intersection, true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(json["strategy"], "intersection");
        assert_eq!(json["pieces"].as_array().map(Vec::len), Some(6));
        assert_eq!(json["totals"]["bytes_received"], 144);
        assert!(json.get("tensors").is_none(), "per-tensor rows are for inventories");
        let inventory =
            plan_json(&presets::llama_inventory(1), Strategy::Intersection, false).unwrap_or_else(|e| panic!("{e}"));
        assert!(inventory.get("pieces").is_none());
        assert_eq!(inventory["tensors"].as_array().map(Vec::len), Some(12));
        let text = plan_json_text(&presets::toy(), Strategy::Gather, true).unwrap_or_else(|e| panic!("{e}"));
        assert!(text.ends_with("}\n"));
        // One line per piece and per link (pretty-printed a field per line, the large preset's plan was 50 MB).
        let toy = plan_json_text(&presets::toy(), Strategy::Intersection, true).unwrap_or_else(|e| panic!("{e}"));
        let piece_lines: Vec<&str> = toy.lines().filter(|l| l.trim_start().starts_with("{\"src\":")).collect();
        assert_eq!(piece_lines.len(), 6, "{toy}");
        assert_eq!(piece_lines[0], r#"    {"src":0,"dst":3,"offset":[0,0],"shape":[4,3],"bytes":24,"link":"nvlink"},"#);
        assert_eq!(toy.lines().filter(|l| l.trim_start().starts_with("{\"bytes\":")).count(), 5, "3 out, 2 in");
        // No piece at all: the lists are empty, and the text is still JSON.
        let empty = plan_json_text(&presets::toy(), Strategy::Intersection, false).unwrap_or_else(|e| panic!("{e}"));
        assert!(serde_json::from_str::<Value>(&empty).is_ok_and(|v| v.get("pieces").is_none()), "{empty}");
        assert_eq!(serde_json::from_str::<Value>(&text).ok().map(|v| v["strategy"].clone()), Some(json!("gather")));
    }
}
