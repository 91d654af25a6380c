//! The analysis panels (traffic, strategies, correctness check) on the toy.

use std::{cell::Cell, rc::Rc};

use leptos::{mount::mount_to, prelude::*, task::tick};
use reshard_lens::core::verify::Fault;
use reshard_lens::ui::{
    AppState, PieceTable, partial_sums::PartialSumsPanel, strategies::StrategyComparison, traffic::TrafficPanel,
    verify::VerifyPanel,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{Element, HtmlElement, HtmlInputElement};

use crate::dom::{click, count, find, next_paint, text_of, wrapper};

/// Mounts `panel` on a fresh state of `preset` (created inside the mount, where the reactive runtime is
/// ready) and hands back the state for the test to read and drive.
fn mount_panel<V: IntoView + 'static>(
    root: &HtmlElement,
    preset: &'static str,
    panel: fn() -> V,
) -> (impl Sized, AppState) {
    let slot = Rc::new(Cell::new(None));
    let out = Rc::clone(&slot);
    let handle = mount_to(root.clone(), move || {
        let state = AppState::from_preset(preset);
        out.set(Some(state));
        provide_context(state);
        panel()
    });
    (handle, slot.get().expect("the panel mounted"))
}

/// Opens the spec `json` in `state` and waits until the panels below the pictures have followed it (one
/// paint after the pictures).
async fn show_spec(state: AppState, json: &str) {
    state.input.set(reshard_lens::core::spec::parse_input(json).expect("the spec parses"));
    tick().await;
    next_paint().await;
    next_paint().await;
}

#[wasm_bindgen_test]
async fn the_toy_traffic_panel_keeps_the_three_quantities_apart() {
    // The article's numbers, each under its own name: 72 unique entries, 144 B received, 72 B on the busiest link.
    let root = wrapper();
    let _mounted = mount_to(root.clone(), || {
        provide_context(AppState::from_preset("toy"));
        view! { <TrafficPanel/> }
    });
    tick().await;

    assert_eq!(text_of(&root, "[data-testid=quantity-unique-entries] .quantity-value"), "72");
    assert_eq!(text_of(&root, "[data-testid=quantity-bytes-received] .quantity-value"), "144 B");
    assert_eq!(text_of(&root, "[data-testid=busiest-link]"), "72 B on nvlink_in of d3");
    assert!(text_of(&root, "[data-testid=quantity-unique-entries]").contains("each counted once"));

    // The table marks the busiest link, first by default.
    assert_eq!(count(&root, "[data-testid=link-row]"), 5);
    let first = find(&root, "[data-testid=link-row]");
    assert_eq!(first.get_attribute("data-busiest").as_deref(), Some("true"));
    assert_eq!(text_of(&first, "[data-testid=link-device]"), "d3");
    assert_eq!(text_of(&first, "[data-testid=link-kind]"), "nvlink_in");
    assert_eq!(count(&root, "[data-testid=busiest-badge]"), 1);

    // The estimate is labelled a model and names its bounding link.
    assert!(text_of(&root, "[data-testid=estimate]").contains("lower bound"));
    // The toy is latency-bound; its slowest link is named as such (a fast NIC can make the slowest link
    // carry fewer bytes than the busiest), and on a tie it is the busiest link's row that says "bounds time".
    assert_eq!(
        text_of(&root, "[data-testid=bounding-link]"),
        "Mostly message latency (15\u{a0}µs of 15\u{a0}µs): 3 messages at one device cost more than carrying the \
         bytes. The link slowest to carry its load, nvlink_in of d3, needs 0.16\u{a0}ns."
    );
    assert!(first.text_content().unwrap_or_default().contains("bounds time"));
    // 3 sources × 2 destinations in the heatmap, each sending 24 B: one path of six cells in the ramp's
    // strongest step. 5 devices in the bars.
    assert_eq!(find(&root, "[data-testid=heatmap-cells]").get_attribute("data-cells").as_deref(), Some("6"));
    assert_eq!(count(&root, "[data-testid=heatmap-step]"), 1);
    let step = find(&root, "[data-testid=heatmap-step]");
    assert_eq!(step.get_attribute("data-cells").as_deref(), Some("6"));
    assert_eq!(step.get_attribute("data-step").as_deref(), Some("32"));
    assert_eq!(step.get_attribute("d").unwrap_or_default().matches('M').count(), 6);
    assert_eq!(count(&root, "[data-testid=device-bar-row]"), 5);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_heatmaps_cells_are_read_from_the_keyboard() {
    // Focused, the grid takes the arrow keys: the first key chooses the first cell, the next move by one
    // and stop at the edge, and the readout (a live region) reads the cell; Escape and leaving let go.
    let root = wrapper();
    let _mounted = mount_panel(&root, "toy", || view! { <TrafficPanel/> });
    tick().await;
    let heatmap = find(&root, "[data-testid=heatmap]");
    assert_eq!(heatmap.get_attribute("tabindex").as_deref(), Some("0"));
    let press = |key: &str| crate::dom::press(&heatmap, key);
    let readout = || text_of(&root, "[data-testid=heatmap-readout]");
    // Six cells of 24 B: none is named the largest, as if it stood out.
    let at_rest =
        "All 6 cells with bytes hold 24 B each. Point at a cell, or focus the grid and use the arrow keys, to read it.";
    assert_eq!(readout(), at_rest);
    assert!(press("ArrowDown"), "an arrow is the grid's, not the page's");
    next_paint().await;
    assert_eq!(readout(), "d0 → d3: 24 B");
    press("ArrowRight");
    press("ArrowRight");
    next_paint().await;
    assert_eq!(readout(), "d0 → d4: 24 B", "the last column stays");
    press("ArrowDown");
    press("End");
    press("Home");
    next_paint().await;
    assert_eq!(readout(), "d1 → d3: 24 B");
    assert!(!press("Tab"), "Tab leaves the grid");
    assert!(press("Escape"));
    next_paint().await;
    assert_eq!(readout(), at_rest);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_heatmap_draws_local_copies_apart_and_says_so() {
    // Colocated: four GPUs on both sides, each keeping its own part: the diagonal's four cells are local
    // copies (faded, dashed, their own path), the other twelve transfers of the same size.
    let root = wrapper();
    let _mounted = mount_panel(&root, "colocated", || view! { <TrafficPanel/> });
    tick().await;
    let local = find(&root, "[data-testid=heatmap-step][data-local=true]");
    assert_eq!(local.get_attribute("data-cells").as_deref(), Some("4"));
    assert_eq!(local.get_attribute("class").as_deref(), Some("heat-cell is-local"));
    let moved: u32 = heat_steps(&root).iter().map(|s| s.1).sum::<u32>() - 4;
    assert_eq!(moved, 12);
    assert!(text_of(&root, ".heatmap-box .analysis-caption").contains("Faded, dashed cells are local copies"));
    assert!(text_of(&root, "[data-testid=heatmap]").contains("local copy (no link)"), "the legend's entry");
    // All cells hold 8 B, the diagonal's local copies too: no cell is named the largest.
    let largest = text_of(&root, "[data-testid=heatmap-readout]");
    assert!(largest.starts_with("All 16 cells with bytes hold 8 B each (4 of them local copies)."), "{largest}");
    // The first cell (d0 → d0) under the pointer reads as a local copy.
    point_at_first_heat_cell(&root).await;
    let readout = text_of(&root, "[data-testid=heatmap-readout]");
    assert!(readout.starts_with("d0 → d0: ") && readout.ends_with(", a local copy (no link)"), "{readout}");
    root.remove();

    // The toy's devices are disjoint: no local cell, no word about them.
    let root = wrapper();
    let _mounted = mount_to(root.clone(), || {
        provide_context(AppState::from_preset("toy"));
        view! { <TrafficPanel/> }
    });
    tick().await;
    assert_eq!(count(&root, "[data-testid=heatmap-step][data-local=true]"), 0);
    assert!(!text_of(&root, ".heatmap-box .analysis-caption").contains("local"));
    root.remove();
}

/// Moves the pointer onto the heatmap's first cell (3 px inside its corner), as the browser reports it.
async fn point_at_first_heat_cell(root: &Element) {
    let cells = find(root, "[data-testid=heatmap-cells]").get_bounding_client_rect();
    let init = web_sys::PointerEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((cells.left() + 3.0) as i32);
    init.set_client_y((cells.top() + 3.0) as i32);
    let event = web_sys::PointerEvent::new_with_event_init_dict("pointermove", &init).expect("a pointer event");
    find(root, "[data-testid=heatmap]").dispatch_event(&event).expect("dispatched");
    tick().await;
}

/// The heatmap's step paths as `(step, cells, subpaths in d)`.
fn heat_steps(root: &Element) -> Vec<(u32, u32, usize)> {
    let paths = root.query_selector_all("[data-testid=heatmap-step]").expect("a valid selector");
    (0..paths.length())
        .filter_map(|i| paths.item(i)?.dyn_into::<Element>().ok())
        .map(|p| {
            let number = |name: &str| p.get_attribute(name).and_then(|v| v.parse().ok()).unwrap_or(u32::MAX);
            (number("data-step"), number("data-cells"), p.get_attribute("d").unwrap_or_default().matches('M').count())
        })
        .collect()
}

#[wasm_bindgen_test]
async fn every_heatmap_cell_is_drawn_once_in_its_step_and_read_under_the_pointer() {
    // Uneven: cells of different sizes and empty ones. Every cell is in exactly one step's path.
    let root = wrapper();
    let _mounted = mount_panel(&root, "uneven", || view! { <TrafficPanel/> });
    tick().await;
    let steps = heat_steps(&root);
    let cells: u32 = find(&root, "[data-testid=heatmap-cells]")
        .get_attribute("data-cells")
        .and_then(|v| v.parse().ok())
        .expect("the cell count");
    assert_eq!(steps.iter().map(|s| s.1).sum::<u32>(), cells);
    assert!(steps.iter().all(|&(_, cells, subpaths)| cells as usize == subpaths), "{steps:?}");
    let mut seen: Vec<u32> = steps.iter().map(|s| s.0).collect();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), steps.len(), "one path per step: {steps:?}");
    assert!(seen.len() > 1, "uneven shards send different amounts: {steps:?}");

    // The pointer over the first cell: its outline and its bytes in the readout.
    let hover_width = |root: &Element| find(root, "[data-testid=heatmap-hover]").get_attribute("width");
    assert_eq!(hover_width(&root), None, "no cell outlined before the pointer comes");
    point_at_first_heat_cell(&root).await;
    assert!(hover_width(&root).is_some(), "the cell under the pointer is outlined");
    let readout = text_of(&root, "[data-testid=heatmap-readout]");
    assert!(readout.starts_with("d0 → "), "{readout}");
    root.remove();
}

#[wasm_bindgen_test]
async fn sorting_the_link_table_by_device_flips_with_a_second_click() {
    // Clicking a header sorts by it and sets aria-sort; clicking again reverses.
    let root = wrapper();
    let _mounted = mount_to(root.clone(), || {
        provide_context(AppState::from_preset("toy"));
        view! { <TrafficPanel/> }
    });
    tick().await;
    let devices = |root: &Element| {
        let list = root.query_selector_all("[data-testid=link-device]").expect("a valid selector");
        (0..list.length())
            .filter_map(|i| list.item(i))
            .map(|n| n.text_content().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    assert_eq!(devices(&root), ["d3", "d4", "d0", "d1", "d2"]);
    click(&root, "[data-testid=link-sort-device]");
    tick().await;
    assert_eq!(devices(&root), ["d0", "d1", "d2", "d3", "d4"]);
    let header = find(&root, "[data-testid=link-sort-device]").parent_element().expect("a th");
    assert_eq!(header.get_attribute("aria-sort").as_deref(), Some("ascending"));
    click(&root, "[data-testid=link-sort-device]");
    tick().await;
    assert_eq!(devices(&root), ["d4", "d3", "d2", "d1", "d0"]);
    assert_eq!(header.get_attribute("aria-sort").as_deref(), Some("descending"));
    root.remove();
}

#[wasm_bindgen_test]
async fn the_comparison_shows_whole_shard_at_twice_the_intersection() {
    // Whole shard receives 288 B where the intersection receives 144 B: ratio 2×.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "toy", || view! { <StrategyComparison/> });
    tick().await;

    let whole = find(&root, "[data-testid=compare-bytes-received-whole-shard]");
    assert_eq!(text_of(&whole, ".cmp-value"), "288 B");
    assert_eq!(text_of(&whole, ".cmp-ratio"), "2×");
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-received-intersection] .cmp-value"), "144 B");
    assert_eq!(text_of(&root, "[data-testid=compare-unique-entries-gather]"), "72");
    // Gather's root d0 is no destination: what it collects is sent, not received, and the table says both.
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-received-gather] .cmp-value"), "288 B");
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-sent-gather] .cmp-value"), "384 B");
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-sent-gather] .cmp-ratio"), "2.67×");
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-sent-intersection] .cmp-value"), "144 B");

    // Choosing a strategy makes it the plan every view shows. With the whole-shard plan shown, its transfer
    // is drawn: the toggle stays ticked and locked. Under another plan, the toggle sets the shared view flag.
    let toggle = || {
        find(&root, "input[data-testid=strategies-whole-shard-toggle]")
            .dyn_into::<HtmlInputElement>()
            .expect("an input")
    };
    click(&root, "[data-testid=strategy-option-whole-shard] input");
    tick().await;
    assert_eq!(state.strategy.get_untracked().name(), "whole-shard");
    assert!(toggle().checked() && toggle().disabled());
    assert!(!state.view.with_untracked(|v| v.show_whole_shard), "the flag is the user's, not the strategy's");
    click(&root, "[data-testid=strategy-option-intersection] input");
    tick().await;
    assert!(!toggle().checked() && !toggle().disabled());
    click(&root, "input[data-testid=strategies-whole-shard-toggle]");
    tick().await;
    assert!(state.view.with_untracked(|v| v.show_whole_shard));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_replicated_destination_shows_what_relaying_inside_a_node_would_change() {
    // FSDP-8 → TP-4 × 2: each source's box crosses to node 1 twice, once per replica.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "fsdp-tp", || view! { <StrategyComparison/> });
    tick().await;
    next_paint().await;
    next_paint().await;
    let note = text_of(&root, "[data-testid=relay-note]");
    assert!(note.contains("8 pieces (2\u{a0}MiB) would travel inside the node"), "{note}");
    assert!(note.contains("The busiest link would carry 256\u{a0}KiB instead of 512\u{a0}KiB"), "{note}");
    assert!(note.contains("Bytes received by devices stay 4\u{a0}MiB"), "{note}");
    // NVLink slower than the NIC: forwarding inside the node is slower, and the note says it would not help.
    state.input.update(|input| {
        input.topology.get_or_insert_with(Default::default).nvlink_gbps = Some(5.0);
    });
    tick().await;
    next_paint().await;
    next_paint().await;
    let note = text_of(&root, "[data-testid=relay-note]");
    assert!(note.contains("would not help here"), "{note}");
    // The same load on the busiest link, but no longer on a NIC: said so ("16 MiB instead of 16 MiB").
    let spec = r#"{"tensor": {"name": "w", "shape": [4096, 4096], "dtype": "bf16"},
        "source": {"mesh": [2, 4], "placements": ["S(0)", "S(1)"]},
        "destination": {"mesh": [4, 2], "placements": ["R", "S(0)"]}}"#;
    show_spec(state, spec).await;
    let note = text_of(&root, "[data-testid=relay-note]");
    assert!(
        note.contains(
            "The busiest link would still carry 16\u{a0}MiB, but the time would be bound by nic_out of d0 (4\u{a0}MiB in 83.89"
        ),
        "{note}"
    );
    assert!(!note.contains("16\u{a0}MiB instead of 16\u{a0}MiB"), "{note}");
    root.remove();
    // The toy has no replicas: nothing to relay, no note.
    let root = wrapper();
    let (_mounted, _state) = mount_panel(&root, "toy", || view! { <StrategyComparison/> });
    tick().await;
    next_paint().await;
    next_paint().await;
    assert_eq!(count(&root, "[data-testid=relay-note]"), 0);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_partial_source_shows_each_destination_as_the_sum_of_its_partials() {
    // Partial over 4 devices → Replicate on 2: d4 = P0 · d0 + … + P3 · d3, and reducing first sends a quarter.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "partial", || view! { <PartialSumsPanel/> });
    tick().await;
    next_paint().await;
    next_paint().await;
    assert_eq!(count(&root, "[data-testid=partial-sum]"), 2);
    let terms: Vec<String> = (0..4)
        .map(|i| text_of(&root, &format!("[data-dst='4'] [data-testid=partial-term]:nth-of-type({})", i + 1)))
        .collect();
    assert_eq!(terms, ["P0 · d0", "P1 · d1", "P2 · d2", "P3 · d3"]);
    assert!(text_of(&root, "[data-dst='5']").contains("4 × 128 B arrive; added on d5"));
    let callout = text_of(&root, "[data-testid=reduce-first]");
    assert!(callout.starts_with("Reduce first: 4× fewer bytes reach the destinations."), "{callout}");
    assert!(callout.contains("sends 384\u{a0}B between them"), "{callout}");
    assert!(callout.contains("receive 256\u{a0}B instead of 1\u{a0}KiB"), "{callout}");
    assert!(callout.contains("640\u{a0}B against 1\u{a0}KiB"), "{callout}");
    // A source sharded by one mesh dim and Partial on the other: each partial comes from four row shards.
    let spec = r#"{"tensor": {"name": "out", "shape": [8, 8]},
        "source": {"mesh": [4, 2], "placements": ["S(0)", "P"]},
        "destination": {"mesh": [2], "placements": ["R"]}}"#;
    show_spec(state, spec).await;
    assert_eq!(text_of(&root, "[data-dst='8'] [data-testid=partial-term]"), "P0 · d0, d2, d4, d6");
    assert!(text_of(&root, "[data-testid=partial-sums]").contains("each destination receives both"));
    assert!(text_of(&root, "[data-testid=reduce-first]").starts_with("Reduce first: 2× fewer"));
    assert!(root.query_selector("[data-testid=rounded-before-sum]").expect("selector").is_none(), "no conversion");
    // fp32 partials sent as bf16 (converted at the sender): each is rounded before the destination adds it.
    let spec = r#"{"tensor": {"name": "out", "shape": [8, 8], "dtype": "fp32"},
        "source": {"mesh": [4], "placements": ["P"]},
        "destination": {"mesh": [2], "placements": ["R"], "dtype": "bf16"}}"#;
    show_spec(state, spec).await;
    let rounded = text_of(&root, "[data-testid=rounded-before-sum]");
    assert!(
        rounded.contains("converted fp32 → bf16 at its sender, so every destination adds 4 rounded bf16"),
        "{rounded}"
    );
    assert!(text_of(&root, "[data-testid=reduce-first]").contains("along dim 0, in fp32"));
    // Without a Partial source there is no panel.
    state.input.set(
        reshard_lens::core::spec::parse_input(reshard_lens::core::presets::find("toy").expect("a preset").spec)
            .expect("parses"),
    );
    tick().await;
    next_paint().await;
    next_paint().await;
    assert_eq!(count(&root, "[data-testid=partial-sums]"), 0);
    root.remove();
}

/// The comparison's note `testid` for `preset`, once the comparison has followed its plan (two paints).
async fn comparison_note(preset: &'static str, testid: &str) -> Option<String> {
    let root = wrapper();
    let (_mounted, _state) = mount_panel(&root, preset, || view! { <StrategyComparison/> });
    tick().await;
    next_paint().await;
    next_paint().await;
    let selector = format!("[data-testid={testid}]");
    let note = (count(&root, &selector) > 0).then(|| text_of(&root, &selector));
    root.remove();
    note
}

async fn gather_note(preset: &'static str) -> Option<String> {
    comparison_note(preset, "gather-note").await
}

#[wasm_bindgen_test]
async fn where_every_time_is_mostly_latency_the_comparison_says_its_times_count_messages() {
    // The toy: 15 µs of latency against 0.16 ns of bytes; a newcomer read the intersection as no faster, and
    // the reason was behind the constraint check's closed panel (review 39).
    let note = comparison_note("toy", "latency-note").await.expect("a note on the toy");
    assert!(
        note.starts_with("Mostly message latency every strategy's estimated time is mostly the 5\u{a0}µs"),
        "{note}"
    );
    assert!(note.contains("take at most 0.32\u{a0}ns"), "{note}");
    assert!(note.contains("the times compare message counts, not bytes"), "{note}");
    // FSDP-8 → TP-4 × 2 moves megabytes: its times are the bytes'.
    assert_eq!(comparison_note("fsdp-tp", "latency-note").await, None);
}

#[wasm_bindgen_test]
async fn where_the_model_times_gather_under_the_intersection_a_note_says_why_it_is_not() {
    // The toy: gather then broadcast is timed 10 µs against 15 µs while it sends twice the bytes, which a
    // class would take for the strategy being quicker.
    let note = gather_note("toy").await.expect("a note on the toy");
    assert!(
        // Each number kept with its unit (no-break spaces): a phone broke "10 / µs".
        note.contains(
            "is timed at 10\u{a0}µs against the intersection's 15\u{a0}µs, with 384\u{a0}B sent against 144\u{a0}B"
        ),
        "{note}"
    );
    assert!(note.contains("each hop waits for the one before"), "{note}");
    // Why the model times it faster: on the toy, fewer messages at the busiest device.
    assert!(note.contains("more bytes, but at most 2 messages at one device against 3"), "{note}");
    // Partial sums: the root adds them, so gather sends fewer bytes (640 B against 1 KiB); the note says
    // that rather than leave the caveat to read as a claim that gather sent more.
    let note = gather_note("partial").await.expect("a note on partial");
    assert!(note.contains("with 640\u{a0}B sent against 1\u{a0}KiB: its root adds the partial sums"), "{note}");
    // FSDP-8 → TP-4 × 2: the ring carries the whole tensor eight times and is timed slower; no note.
    assert_eq!(gather_note("fsdp-tp").await, None);
}

#[wasm_bindgen_test]
async fn verify_passes_on_the_toy_and_an_offset_fault_lists_mismatches() {
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "toy", || view! { <VerifyPanel/> });
    tick().await;
    assert_eq!(count(&root, "[data-testid=verify-idle]"), 1);

    click(&root, "[data-testid=verify-button]");
    tick().await;
    assert!(
        text_of(&root, "[data-testid=verify-summary]").ends_with("all 72 entries of 2 destinations match version 7")
    );
    assert_eq!(count(&root, "[data-testid=mismatch-row]"), 0);
    assert!(state.verification.with_untracked(|v| matches!(v, Some(Ok(v)) if v.passed())));

    // Choosing a fault clears the old result; verifying again finds the mismatches.
    state.fault.set(Some(Fault::Offset));
    tick().await;
    assert_eq!(count(&root, "[data-testid=verify-idle]"), 1, "a result of another fault is not kept");
    click(&root, "[data-testid=verify-button]");
    tick().await;
    let summary = text_of(&root, "[data-testid=verify-summary]");
    assert!(summary.contains("do not match version 7"), "{summary}");
    assert!(count(&root, "[data-testid=mismatch-row]") > 0);
    assert!(text_of(&root, "[data-testid=verify-fault]").contains("shifted by one along dim 0"));
    assert!(text_of(&root, "[data-testid=mismatch-note]").contains("ending in another version is stale"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_conversion_is_also_compared_by_value_and_says_what_values_alone_miss() {
    // FSDP-TP converts fp32 → bf16: the verdict says the converted values match, and with a stale source
    // that values alone would have shown almost none of the mismatches.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "fsdp-tp", || view! { <VerifyPanel/> });
    tick().await;
    click(&root, "[data-testid=verify-button]");
    tick().await;
    assert_eq!(
        text_of(&root, "[data-testid=verify-values]"),
        "After the declared conversion (fp32 → bf16), every value matches too."
    );
    state.fault.set(Some(Fault::Stale));
    tick().await;
    click(&root, "[data-testid=verify-button]");
    tick().await;
    let values = text_of(&root, "[data-testid=verify-values]");
    assert!(values.starts_with("Compared as converted values alone (fp32 → bf16), only "), "{values}");
    assert!(values.contains("layout and version need a check of their own"), "{values}");
    root.remove();
    // The toy does not convert: no second comparison.
    let root = wrapper();
    let (_mounted, _state) = mount_panel(&root, "toy", || view! { <VerifyPanel/> });
    tick().await;
    click(&root, "[data-testid=verify-button]");
    tick().await;
    assert_eq!(count(&root, "[data-testid=verify-values]"), 0);
    root.remove();
}

#[wasm_bindgen_test]
async fn a_partial_sources_mismatches_are_explained_as_sums_of_shares() {
    // A stale contributor's share makes the sum another number altogether, not one ending in version 6.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "partial", || view! { <VerifyPanel/> });
    tick().await;
    state.fault.set(Some(Fault::Stale));
    tick().await;
    click(&root, "[data-testid=verify-button]");
    tick().await;
    assert!(count(&root, "[data-testid=mismatch-row]") > 0);
    let caption = text_of(&root, "[data-testid=mismatch-note]");
    assert!(caption.contains("the sum of every contributor's share"), "{caption}");
    root.remove();
}

#[wasm_bindgen_test]
async fn gather_and_oversized_changes_are_refused_in_words() {
    // Gather is modelled for traffic only; the large preset is too large to hold in memory.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "toy", || view! { <VerifyPanel/> });
    tick().await;
    state.strategy.set(reshard_lens::core::plan::Strategy::Gather);
    tick().await;
    click(&root, "[data-testid=verify-button]");
    tick().await;
    assert!(text_of(&root, "[data-testid=verify-error]").contains("modelled for traffic only"));
    root.remove();

    let root = wrapper();
    let (_mounted, _large) = mount_panel(&root, "large", || view! { <VerifyPanel/> });
    tick().await;
    click(&root, "[data-testid=verify-button]");
    tick().await;
    assert!(text_of(&root, "[data-testid=verify-error]").contains("more than the limit"));
    root.remove();
}

#[wasm_bindgen_test]
async fn an_edit_reaches_the_traffic_panel_whole_one_paint_later() {
    // The panel shows one plan at a time: until the paint after an edit, the previous plan with its own
    // bandwidths and strategy; then the new one. Never a new bandwidth beside an old load.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "toy", || view! { <TrafficPanel/> });
    tick().await;
    let formula = |root: &HtmlElement| text_of(root, "[data-testid=estimate-formula]");
    let before = formula(&root);
    assert!(before.contains("72 B ÷ 450 GB/s"), "{before}");
    let spec = r#"{"tensor": {"name": "w", "shape": [12, 6], "dtype": "bf16"},
        "source": {"mesh": [3], "placements": ["S(0)"]}, "destination": {"mesh": [2], "placements": ["S(1)"]},
        "topology": {"nvlink_gbps": 100}}"#;
    state.input.set(reshard_lens::core::spec::parse_input(spec).expect("the spec parses"));
    state.strategy.set(reshard_lens::core::plan::Strategy::WholeShard);
    tick().await;
    assert_eq!(formula(&root), before, "the previous plan, whole");
    assert_eq!(text_of(&root, "[data-testid=traffic-strategy]"), "Send only the intersection");
    next_paint().await;
    let after = formula(&root);
    assert!(after.contains("144 B ÷ 100 GB/s"), "whole shards on the new NVLink: {after}");
    assert_eq!(text_of(&root, "[data-testid=traffic-strategy]"), "Send whole shard, discard");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_estimates_formula_carries_exact_bytes_that_come_to_its_time() {
    // 4100 × 4096 bf16 from 8 to 8 devices across nodes: the busiest link carries 16,793,600 B. Written
    // "16 MiB ÷ 50 GB/s" (rounded), the formula came to 335.5 µs while the time beside it said 335.9 µs.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "toy", || view! { <TrafficPanel/> });
    let spec = r#"{"tensor": {"name": "w", "shape": [4100, 4096], "dtype": "bf16"},
        "source": {"mesh": [2, 4], "placements": ["S(0)", "S(1)"]},
        "destination": {"mesh": [4, 2], "placements": ["R", "S(0)"]}}"#;
    state.input.set(reshard_lens::core::spec::parse_input(spec).expect("the spec parses"));
    tick().await;
    next_paint().await;
    let formula = text_of(&root, "[data-testid=estimate-formula]");
    assert!(formula.contains("16,793,600 B ÷ 50 GB/s"), "{formula}");
    assert!(formula.contains("335.9 µs"), "{formula}");
    assert!(formula.contains("most messages one device sends or receives"), "{formula}");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_piece_table_lists_a_page_at_a_time() {
    // 16 sources by rows → 16 destinations by columns: 256 pieces, listed 100 at a time.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "toy", || view! { <PieceTable/> });
    let spec = r#"{"tensor": {"name": "w", "shape": [16, 16]}, "source": {"mesh": [16], "placements": ["S(0)"]},
        "destination": {"mesh": [16], "placements": ["S(1)"]}}"#;
    state.input.set(reshard_lens::core::spec::parse_input(spec).expect("the spec parses"));
    tick().await;
    // The piece table is below the pictures: it follows an edit one paint later.
    next_paint().await;
    assert_eq!(count(&root, "[data-testid=piece-row]"), 100);
    assert_eq!(text_of(&root, "[data-testid=piece-count]"), "256 pieces, first 100 listed");
    assert_eq!(text_of(&root, "[data-testid=pieces-more]"), "List 100 more");
    click(&root, "[data-testid=pieces-more]");
    tick().await;
    assert_eq!(count(&root, "[data-testid=piece-row]"), 200);
    assert_eq!(text_of(&root, "[data-testid=pieces-more]"), "List 56 more");
    click(&root, "[data-testid=pieces-more]");
    tick().await;
    assert_eq!(count(&root, "[data-testid=piece-row]"), 256);
    assert_eq!(text_of(&root, "[data-testid=piece-count]"), "256 pieces");
    assert_eq!(count(&root, "[data-testid=pieces-more]"), 0);
    root.remove();
}

/// How many `performance.measure`s called `name` the app has recorded in this page (see `ui::timing`).
fn measures(name: &str) -> u32 {
    let performance = web_sys::window().and_then(|w| w.performance()).expect("a performance timeline");
    performance.get_entries_by_name_with_entry_type(name, "measure").length()
}

#[wasm_bindgen_test]
async fn a_strategy_switch_plans_the_shown_strategy_once_and_replans_nothing_that_does_not_depend_on_it() {
    // The comparison and the constraint check depend on the change only. Following every plan shown, a
    // switch planned the other strategies again and linted the change again, tens of ms on a large change.
    let root = wrapper();
    let (_mounted, state) = mount_panel(&root, "fsdp-tp", || {
        view! { <StrategyComparison/> <reshard_lens::ui::constraints::ConstraintCheck/> }
    });
    tick().await;
    for _ in 0..3 {
        next_paint().await;
    }
    let before = [measures("plan"), measures("compare strategies"), measures("constraint check")];
    assert!(before[1] > 0 && before[2] > 0, "the panels planned and linted once drawn: {before:?}");
    click(&root, "[data-testid=strategy-option-whole-shard] input");
    tick().await;
    for _ in 0..3 {
        next_paint().await;
    }
    let switched = [measures("plan"), measures("compare strategies"), measures("constraint check")];
    assert_eq!(switched, [before[0] + 1, before[1], before[2]], "plan, compare strategies, constraint check");
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-received-intersection] .cmp-value"), "4 MiB");

    // An edit of the change is followed by both, once.
    show_spec(
        state,
        r#"{"tensor": {"shape": [12, 6]}, "source": {"mesh": [3], "placements": ["S(0)"]},
        "destination": {"mesh": [2], "placements": ["S(1)"]}}"#,
    )
    .await;
    next_paint().await;
    let edited = [measures("plan"), measures("compare strategies"), measures("constraint check")];
    assert_eq!(
        edited,
        [switched[0] + 1, switched[1] + 1, switched[2] + 1],
        "plan, compare strategies, constraint check"
    );
    assert_eq!(text_of(&root, "[data-testid=compare-bytes-received-intersection] .cmp-value"), "144 B");
    root.remove();
}
