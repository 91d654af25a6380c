//! The guided tour ("Explain"): the article's argument as steps, each of which names the state it sets (a
//! layout preset, a fault, a cycle preset) and says what to look at. Every number a step quotes is computed
//! here by the core from exactly that state, never written into the text, so the tour cannot drift from
//! what the views show. No browser types: the UI applies a step's state and shows its text.

use crate::chart::readout::{percent, seconds, times};
use crate::core::cycle::{CycleReport, parse_cycle};
use crate::core::model::{Layout, ShardOrder};
use crate::core::plan::{Strategy, plan};
use crate::core::presets::{build, find};
use crate::core::region::device_regions;
use crate::core::traffic::{analyse, analyse_relayed, format_bytes, format_count};
use crate::core::verify::{Fault, VerifyOptions, verify};

/// Which view a step shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourView {
    Layout,
    Cycle,
}

/// One step: the state it sets, where to look, and what it says.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub title: &'static str,
    pub view: TourView,
    /// The layout preset (layout steps) or cycle preset (cycle steps) the step opens.
    pub preset: &'static str,
    /// A fault to inject before checking (the fault step).
    pub fault: Option<Fault>,
    /// Whether the step runs the correctness check.
    pub verify: bool,
    /// A CSS selector for the element to highlight.
    pub look_at: &'static str,
    pub text: String,
}

const CYCLES: [(&str, &str); 4] = [
    ("cycle-120", include_str!("../examples/cycle-120.json")),
    ("cycle-160", include_str!("../examples/cycle-160.json")),
    ("cycle-queue", include_str!("../examples/cycle-queue.json")),
    ("cycle-overlap", include_str!("../examples/cycle-overlap.json")),
];

fn cycle_report(name: &str) -> Result<CycleReport, String> {
    let (_, text) = CYCLES.iter().find(|(n, _)| *n == name).ok_or_else(|| format!("no cycle preset {name}"))?;
    let spec = parse_cycle(text).map_err(|p| format!("{name}: {p:?}"))?;
    spec.report().map_err(|p| format!("{name}: {p:?}"))
}

fn layout(name: &str) -> Result<crate::core::model::Reshard, String> {
    find(name).map(build).ok_or_else(|| format!("no layout preset {name}"))
}

/// `d0` → `d0`; `d0, d7` → `d0 and d7`; `d0, d3, d7` → `d0, d3 and d7`.
fn listed(names: &[String]) -> String {
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => names.join(""),
    }
}

fn rows(offset: u64, size: u64) -> String {
    if size == 0 { "nothing".to_string() } else { format!("rows {offset}–{}", offset + size - 1) }
}

/// The index of the first cycle step: where Explain starts from the RL cycle view (it started at the
/// layout's first step, eight steps from what the reader was looking at).
pub const FIRST_CYCLE_STEP: usize = 8;

/// Every step, in the article's order, with its numbers computed now.
pub fn steps() -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();

    // 1. A layout is who holds what.
    let toy = layout("toy")?;
    let tensor = &toy.tensors[0];
    let source = device_regions(&tensor.source, &toy.source_mesh, &tensor.shape, toy.split)?;
    let held: Vec<String> = source
        .iter()
        .map(|d| format!("d{} holds {}", d.device, rows(d.region.offset()[0], d.region.shape()[0])))
        .collect();
    steps.push(Step {
        title: "A layout says which part each device holds",
        view: TourView::Layout,
        preset: "toy",
        fault: None,
        verify: false,
        look_at: "[data-testid=mesh-view]",
        text: format!(
            "The logical tensor `{}` is {}×{}. A mesh is a grid of devices, and a layout gives each of its dims \
             a placement: Shard(d) splits tensor dim d over it, Replicate copies the tensor to each, Partial \
             holds a share of a sum. On the source mesh, `[Shard(0)]` splits the rows over {} devices: {}. Each \
             tile in the outlined panel is a device; its thumbnail is the region it holds.",
            tensor.name,
            tensor.shape[0],
            tensor.shape[1],
            source.len(),
            held.join(", ")
        ),
    });

    // 2. The destination and its intersections; intersections versus whole shards.
    let intersection = analyse(&toy, Strategy::Intersection)?.totals();
    let whole = analyse(&toy, Strategy::WholeShard)?.totals();
    let pieces = plan(&toy, Strategy::Intersection)?.pieces.len();
    steps.push(Step {
        title: "The destination layout, and the pieces each device needs",
        view: TourView::Layout,
        preset: "toy",
        fault: None,
        verify: false,
        look_at: "[data-testid=tensor-view]",
        text: format!(
            "The destination splits the same tensor by columns over {} devices (dashed lines). Each destination \
             needs one piece of every source shard: {pieces} intersections, each coloured by the device that \
             sends it. Sending only the intersections moves {} entries ({}); sending whole shards and discarding \
             the rest moves {} entries ({}): tick \"Show the whole-shard transfer\" to see what is discarded.",
            toy.destination_mesh.size(),
            intersection.entries_moved,
            format_bytes(intersection.bytes_received),
            whole.entries_moved,
            format_bytes(whole.bytes_received)
        ),
    });

    // 3. Count the right thing: a replicated destination.
    let replicated = layout("fsdp-tp")?;
    let traffic = analyse(&replicated, Strategy::Intersection)?;
    let totals = traffic.totals();
    let busiest = traffic
        .max_link()
        .map_or("no link".to_string(), |l| format!("{} on {} of d{}", format_bytes(l.bytes), l.link.name(), l.device));
    steps.push(Step {
        title: "Count the right thing",
        view: TourView::Layout,
        preset: "fsdp-tp",
        fault: None,
        verify: false,
        look_at: "[data-testid=traffic-panel]",
        text: format!(
            "A new example, with replicas: {} ({}): training shards the rows over {} GPUs (FSDP), generation \
             splits them over {} (tensor parallelism, TP) and keeps {} copies. Three numbers that are easy to \
             confuse. Unique logical \
             entries: {} (each counted once). Bytes received by devices: {} (the destination has {} replicas, so \
             every entry arrives {}). Bytes crossing the busiest link: {busiest}. A faster transport carries \
             that link's bytes sooner; the unique entries never change.",
            find("fsdp-tp").map_or("", |p| p.title),
            {
                let t = &replicated.tensors[0];
                let shape: Vec<String> = t.shape.iter().map(|n| n.to_string()).collect();
                format!("{}, {} → {}", shape.join(" × "), t.source.dtype, t.destination.dtype)
            },
            replicated.source_mesh.size(),
            replicated.destination_mesh.shape.last().copied().unwrap_or(1),
            replicated.destination_mesh.shape[0],
            format_count(totals.unique_entries),
            format_bytes(totals.bytes_received),
            replicated.destination_mesh.shape[0],
            match replicated.destination_mesh.shape[0] {
                2 => "twice".to_string(),
                n => format!("{n} times"),
            }
        ),
    });

    // 3b. The same replicas, relayed inside their node: the busiest link changes, the bytes received do not.
    // Its own step: appended to the one before, it made a seven-line paragraph on a laptop.
    if let Some(relayed) = analyse_relayed(&replicated)? {
        let relayed = relayed.traffic.totals();
        steps.push(Step {
            title: "Cross the NIC once, then relay over NVLink",
            view: TourView::Layout,
            preset: "fsdp-tp",
            fault: None,
            verify: false,
            look_at: "[data-testid=relay-note]",
            text: format!(
                "Same change, another question: how often the same piece of the tensor crosses between nodes. \
                 A piece that several devices of one node need crosses the NIC once for each of them. Crossing \
                 once and passed on over NVLink, the busiest link would carry {} instead of {}, while devices still receive {}. It is not one of \
                 the strategies compared further down (intersection, whole shard, gather then broadcast); the \
                 outlined note says the rest.",
                format_bytes(relayed.max_link_bytes),
                format_bytes(totals.max_link_bytes),
                format_bytes(relayed.bytes_received)
            ),
        });
    }

    // 4. Uneven splits and empty shards.
    let uneven = layout("uneven")?;
    let t = &uneven.tensors[0];
    let regions = device_regions(&t.source, &uneven.source_mesh, &t.shape, uneven.split)?;
    let sizes: Vec<String> = regions.iter().map(|d| d.region.shape()[0].to_string()).collect();
    let empty: Vec<String> = regions.iter().filter(|d| d.region.is_empty()).map(|d| format!("d{}", d.device)).collect();
    steps.push(Step {
        title: "Uneven splits leave empty shards",
        view: TourView::Layout,
        preset: "uneven",
        fault: None,
        verify: false,
        look_at: "[data-testid=mesh-view]",
        text: format!(
            "{} rows over {} devices, the way torch.chunk splits them: {} rows. {} holds nothing and sends \
             nothing; a transport that assumes equal shards would get this wrong.",
            t.shape[0],
            regions.len(),
            sizes.join(", "),
            if empty.is_empty() { "No device".to_string() } else { empty.join(", ") }
        ),
    });

    // 5. Nested sharding order.
    let nested = layout("nested")?;
    let t = &nested.tensors[0];
    let regions = device_regions(&t.source, &nested.source_mesh, &t.shape, nested.split)?;
    let first: Vec<String> = regions
        .iter()
        .take(3)
        .map(|d| format!("d{} {}", d.device, rows(d.region.offset()[0], d.region.shape()[0])))
        .collect();
    // The same placements read in the other order: the devices whose rows change (not all: on a 2 × 4 mesh
    // the first and the last device hold the same rows either way).
    let other_order = Layout {
        order: match t.source.order {
            ShardOrder::Mesh => ShardOrder::Strided,
            ShardOrder::Strided => ShardOrder::Mesh,
        },
        ..t.source.clone()
    };
    let other = device_regions(&other_order, &nested.source_mesh, &t.shape, nested.split)?;
    let kept: Vec<String> = regions
        .iter()
        .zip(&other)
        .filter(|(a, b)| a.region == b.region)
        .map(|(a, _)| format!("d{}", a.device))
        .collect();
    let moved = if kept.is_empty() {
        "every device would hold different rows".to_string()
    } else {
        format!(
            "{} of the {} devices would hold different rows; only {} {} theirs",
            regions.len() - kept.len(),
            regions.len(),
            listed(&kept),
            if kept.len() == 1 { "keeps" } else { "keep" }
        )
    };
    steps.push(Step {
        title: "Nested sharding: the order of the mesh dims matters",
        view: TourView::Layout,
        preset: "nested",
        fault: None,
        verify: false,
        look_at: "[data-testid=tensor-view]",
        text: format!(
            "Rows are split by `{}` first, then each chunk by `{}`: {} … Read the other order (tick “Strided \
             order” above the tensor) and {moved}.",
            nested.source_mesh.dim_names[0],
            nested.source_mesh.dim_names[1],
            first.join(", ")
        ),
    });

    // 6. The correctness check, then 7. a fault it catches.
    let checked =
        verify(&toy, &plan(&toy, Strategy::Intersection)?, VerifyOptions::default()).map_err(|e| e.to_string())?;
    steps.push(Step {
        title: "Check it: every entry, every destination",
        view: TourView::Layout,
        preset: "toy",
        fault: None,
        verify: true,
        look_at: "[data-testid=verify-panel]",
        text: format!(
            "Each entry gets a value made from where it is and the version sent (x × 1000 + v, x its row-major \
             index, as the panel says); the plan is executed in memory and every destination compared with what \
             it should hold: {}.",
            checked.summary()
        ),
    });
    let faulty = verify(
        &toy,
        &plan(&toy, Strategy::Intersection)?,
        VerifyOptions { fault: Some(Fault::Offset), ..VerifyOptions::default() },
    )
    .map_err(|e| e.to_string())?;
    steps.push(Step {
        title: "A fault the check catches",
        view: TourView::Layout,
        preset: "toy",
        fault: Some(Fault::Offset),
        verify: true,
        // The red cells, not the check's panel: it lies far below them, and the text quotes its verdict.
        look_at: "[data-testid=tensor-view]",
        text: format!(
            "Shift one piece by one row (an off-by-one in an offset) and the check says: {}. The wrong cells are \
             drawn in red in the tensor view; the correctness check further down lists them.",
            faulty.summary()
        ),
    });

    // 8–10. The whole-cycle denominator, a larger share, the bound and overlap.
    let short = cycle_report("cycle-120")?;
    steps.push(Step {
        title: "Give the multiplier a whole-cycle denominator",
        view: TourView::Cycle,
        preset: "cycle-120",
        fault: None,
        verify: false,
        look_at: "section[aria-labelledby=cycle-answer-title]",
        text: format!(
            "A refit of {} in a {} cycle, made {} faster: the cycle becomes {} ({} faster, {} less time). \
             `new/old = 1 − f + f/s` with `f = {}`.",
            seconds(short.before.stages[short.refit_stage].seconds),
            seconds(short.before.cycle_seconds),
            times(short.speedup),
            seconds(short.after.cycle_seconds),
            times(short.cycle_speedup),
            percent(short.percent_saved),
            crate::chart::readout::decimal(short.transfer_fraction, 4)
        ),
    });
    let long = cycle_report("cycle-160")?;
    steps.push(Step {
        title: "The same multiplier matters more when refit is a larger share",
        view: TourView::Cycle,
        preset: "cycle-160",
        fault: None,
        verify: false,
        look_at: "section[aria-labelledby=cycle-answer-title]",
        text: format!(
            "With {} of other work and a {} refit, the same {} gives {} from {} ({} faster, {} less time). \
             Even an instant refit would leave {}.",
            seconds(long.before.cycle_seconds - long.before.stages[long.refit_stage].seconds),
            seconds(long.before.stages[long.refit_stage].seconds),
            times(long.speedup),
            seconds(long.after.cycle_seconds),
            seconds(long.before.cycle_seconds),
            times(long.cycle_speedup),
            percent(long.percent_saved),
            seconds(long.bound.best_cycle_seconds)
        ),
    });
    let overlap = cycle_report("cycle-overlap")?;
    steps.push(Step {
        title: "Draw the waiting before adding the times",
        view: TourView::Cycle,
        preset: "cycle-overlap",
        fault: None,
        verify: false,
        look_at: "section[aria-labelledby=cycle-timeline-title]",
        text: format!(
            "When generation starts while weights still arrive, adding its time to the transfer's would count \
             the overlap twice: draw the timeline first, and the formula is only a guide. The timeline gives {} \
             before and {} after, {} faster; the bound is {}.",
            seconds(overlap.before.cycle_seconds),
            seconds(overlap.after.cycle_seconds),
            times(overlap.cycle_speedup),
            seconds(overlap.bound.best_cycle_seconds)
        ),
    });

    // 11. Measure the bottleneck you can actually improve.
    let queue = cycle_report("cycle-queue")?;
    steps.push(Step {
        title: "Measure the bottleneck you can actually improve",
        view: TourView::Cycle,
        preset: "cycle-queue",
        fault: None,
        verify: false,
        look_at: "section[aria-labelledby=cycle-timeline-title]",
        text: format!(
            "Here most of the {} refit is waiting in a queue ({}), not transfer ({}). A {} faster transport \
             makes the cycle only {} faster: measure where the refit's time goes before buying a transport.",
            seconds(queue.refit_before.total()),
            seconds(queue.refit_before.wait),
            seconds(queue.refit_before.transfer),
            times(queue.speedup),
            times(queue.cycle_speedup)
        ),
    });
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_cycle_step_is_where_the_layout_steps_end() {
        let steps = steps().unwrap();
        assert_eq!(steps[FIRST_CYCLE_STEP].view, TourView::Cycle);
        assert!(steps[..FIRST_CYCLE_STEP].iter().all(|step| step.view == TourView::Layout));
    }

    #[test]
    fn the_readme_counts_the_tour_steps_there_are() {
        const WORDS: [&str; 21] = [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
            "twenty",
        ];
        let count = steps().expect("steps").len();
        let readme = include_str!("../README.md");
        let said = format!("guided tour of the article: {} steps", WORDS[count]);
        assert!(readme.contains(&said), "the README should say \"{said}\"");
    }

    fn text(title: &str) -> String {
        steps().unwrap().into_iter().find(|s| s.title == title).unwrap().text
    }

    #[test]
    fn the_tour_quotes_the_articles_numbers_computed_by_the_core() {
        let all = steps().unwrap();
        assert!(all.len() >= 10);
        let first = text("A layout says which part each device holds");
        assert!(first.contains("d0 holds rows 0–3, d1 holds rows 4–7, d2 holds rows 8–11"), "{first}");
        let second = text("The destination layout, and the pieces each device needs");
        assert!(second.contains("6 intersections"), "{second}");
        // Entries and bytes named apart: "moves 144" stood beside the card's "144 B" of the other plan.
        assert!(
            second.contains("moves 72 entries (144 B)") && second.contains("the rest moves 144 entries (288 B)"),
            "{second}"
        );
        let check = text("Check it: every entry, every destination");
        assert!(check.contains("all 72 entries of 2 destinations match version"), "{check}");
        let fault = text("A fault the check catches");
        assert!(fault.contains("do not match"), "{fault}");
        let nested = text("Nested sharding: the order of the mesh dims matters");
        assert!(nested.contains("d0 rows 0–1, d1 rows 2–3, d2 rows 4–5"), "{nested}");
        let cycle = text("Give the multiplier a whole-cycle denominator");
        assert!(cycle.contains("112.5 s") && cycle.contains("1.067×") && cycle.contains("6.25 %"), "{cycle}");
        let long = text("The same multiplier matters more when refit is a larger share");
        assert!(long.contains("122.5 s from 160 s") && long.contains("1.306×") && long.contains("23.44 %"), "{long}");
        assert!(long.contains("leave 110 s") && long.contains("the same 4×"), "{long}");
        let queue = text("Measure the bottleneck you can actually improve");
        assert!(queue.contains("A 4× faster transport"), "{queue}");
        let count = text("Count the right thing");
        assert!(count.contains("1,048,576"), "{count}");
        assert!(!count.contains("relay"), "one idea a step: {count}");
        let relay = text("Cross the NIC once, then relay over NVLink");
        assert!(
            relay.contains("busiest link would carry 256 KiB instead of 512 KiB, while devices still receive 4 MiB"),
            "{relay}"
        );
        assert!(count.starts_with("A new example, with replicas: FSDP-8 training → TP-4 inference with 2 replicas (1024 × 1024, fp32 → bf16)"), "{count}");
        // The terms a reader new to DTensor meets first are said where they are met.
        assert!(first.contains("Shard(d) splits tensor dim d over it, Replicate copies") && first.contains("Partial"));
        assert!(count.contains("shards the rows over 8 GPUs (FSDP), generation splits them over 4 (tensor parallelism, TP) and keeps 2 copies"), "{count}");
    }

    #[test]
    fn the_nested_step_counts_the_devices_the_other_order_moves() {
        // A 2 × 4 mesh over 16 rows: read tp first, d1 to d6 hold other rows, but d0 (rows 0–1) and d7
        // (rows 14–15) hold the same ones; the text said "every device".
        let nested = text("Nested sharding: the order of the mesh dims matters");
        assert!(
            nested.contains("6 of the 8 devices would hold different rows; only d0 and d7 keep theirs"),
            "{nested}"
        );
        assert!(!nested.contains("every device"), "{nested}");
    }

    #[test]
    fn a_list_of_names_reads_as_a_sentence() {
        let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(listed(&names(&["d0"])), "d0");
        assert_eq!(listed(&names(&["d0", "d7"])), "d0 and d7");
        assert_eq!(listed(&names(&["d0", "d3", "d7"])), "d0, d3 and d7");
        assert_eq!(listed(&[]), "");
    }

    #[test]
    fn every_step_names_real_state() {
        for step in steps().unwrap() {
            match step.view {
                TourView::Layout => assert!(find(step.preset).is_some(), "{}", step.preset),
                TourView::Cycle => assert!(cycle_report(step.preset).is_ok(), "{}", step.preset),
            }
            assert!(!step.text.is_empty());
        }
    }
}
