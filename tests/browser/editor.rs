//! The editors: typing into the cards re-plans, invalid input shows the core's message under its field
//! while the last good plan stays.

use leptos::{mount::mount_to, prelude::*, task::tick};
use reshard_lens::ui::{AppState, PieceTable, TrafficTotals, editor};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement, js_sys::Reflect};

use crate::dom::{next_paint, press, wrapper};

/// Mounts the editors with the totals and the piece table over `preset`.
fn mount(preset: &'static str) -> (HtmlElement, impl Sized) {
    let (root, _state, mounted) = mount_with_state(preset);
    (root, mounted)
}

/// [`mount`], with the app state it provides.
fn mount_with_state(preset: &'static str) -> (HtmlElement, AppState, impl Sized) {
    let root = wrapper();
    let (state_tx, state_rx) = std::sync::mpsc::channel();
    let mounted = mount_to(root.clone(), move || {
        let state = AppState::from_preset(preset);
        provide_context(state);
        // Where the fields keep unread text, as the app provides it.
        let drafts = state.drafts;
        drafts.follow_structure(state.input.into(), state.replaced.into());
        provide_context(drafts);
        let _ = state_tx.send(state);
        view! {
            <editor::PresetBar/>
            <editor::Editors/>
            <TrafficTotals/>
            <PieceTable/>
        }
    });
    let state = state_rx.recv().expect("the state was provided");
    (root, state, mounted)
}

/// Lets signals, memos and effects run and the DOM follow.
/// Lets an edit reach every view, including the piece table, which follows it one paint later.
async fn settle() {
    for _ in 0..4 {
        tick().await;
    }
    next_paint().await;
}

fn element(root: &Element, test_id: &str) -> Element {
    root.query_selector(&format!("[data-testid=\"{test_id}\"]"))
        .expect("a valid selector")
        .unwrap_or_else(|| panic!("no element with data-testid={test_id}"))
}

/// Whether an element with `test_id` is on the page.
fn present(root: &Element, test_id: &str) -> bool {
    root.query_selector(&format!("[data-testid='{test_id}']")).expect("a selector").is_some()
}

fn text(root: &Element, test_id: &str) -> String {
    element(root, test_id).text_content().unwrap_or_default()
}

/// The `value` of an input or a textarea (read as a property, which both have).
fn value_of(root: &Element, test_id: &str) -> String {
    Reflect::get(&element(root, test_id), &JsValue::from_str("value"))
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default()
}

/// The editors' status line counts `count` problems (and says the pictures are of the last valid change).
#[track_caller]
fn assert_problems(root: &Element, count: usize) {
    let status = text(root, "editor-status");
    let said = if count == 1 { "1 problem:".to_string() } else { format!("{count} problems:") };
    assert!(status.starts_with(&said), "expected {said} in the status line, read: {status}");
}

/// Types `value` into a text input or textarea as a user would: the value changes, then an `input` event fires.
fn type_into(root: &Element, test_id: &str, value: &str) {
    let field = element(root, test_id);
    Reflect::set(&field, &JsValue::from_str("value"), &JsValue::from_str(value)).expect("a value property");
    field.dispatch_event(&Event::new("input").expect("an event")).expect("dispatched");
}

/// Picks `value` in a select, then a `change` event fires.
fn choose(root: &Element, test_id: &str, value: &str) {
    let select = element(root, test_id).unchecked_into::<HtmlSelectElement>();
    select.set_value(value);
    select.dispatch_event(&Event::new("change").expect("an event")).expect("dispatched");
}

fn unique_entries(root: &Element) -> String {
    element(root, "total-unique-entries")
        .query_selector(".total-value")
        .expect("a valid selector")
        .and_then(|e| e.text_content())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn a_zero_mesh_size_shows_the_core_message_and_keeps_the_last_plan() {
    // Pins down: an invalid size reaches the core, its message sits under that size, the plan stays.
    let (root, _mounted) = mount("toy");
    settle().await;
    assert_eq!(text(&root, "piece-count"), "6 pieces");

    type_into(&root, "field-source-mesh-0", "0");
    settle().await;
    assert_eq!(text(&root, "problems-source-mesh-0"), "0: a mesh dim needs at least one device");
    assert_eq!(element(&root, "field-source-mesh-0").get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(unique_entries(&root), "72", "the last good plan stays");
    assert_eq!(text(&root, "piece-count"), "6 pieces");
    assert_problems(&root, 1);
    // The cards say which devices the pictures show, and that they are the last valid change's.
    assert_eq!(text(&root, "devices-note-source"), "3 devices · ids 0\u{2011}2 · node\u{a0}0 (last valid)");

    type_into(&root, "field-source-mesh-0", "4");
    settle().await;
    assert_eq!(text(&root, "problems-source-mesh-0"), "");
    assert_eq!(text(&root, "piece-count"), "8 pieces", "4 sources × 2 destinations");
    assert_eq!(text(&root, "devices-note-source"), "4 devices · ids 0\u{2011}3 · node\u{a0}0");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_larger_source_that_moves_the_disjoint_destination_to_another_node_says_so() {
    // Disjoint destination ids follow the source's: 8 source devices put the toy's destination on node 1,
    // and every link it uses across nodes (review 39: nothing said why the traffic changed class).
    let (root, _mounted) = mount("toy");
    settle().await;
    assert_eq!(text(&root, "devices-note-destination"), "2 devices · ids 3, 4 · node\u{a0}0");
    assert!(element(&root, "moved-note").has_attribute("hidden"));
    // Growing within the node moves the ids but not the node: nothing to say.
    type_into(&root, "field-source-mesh-0", "4");
    settle().await;
    assert!(element(&root, "moved-note").has_attribute("hidden"));
    type_into(&root, "field-source-mesh-0", "8");
    settle().await;
    assert_eq!(text(&root, "devices-note-destination"), "2 devices · ids 8, 9 · node\u{a0}1");
    assert!(!element(&root, "moved-note").has_attribute("hidden"));
    assert_eq!(
        text(&root, "moved-note"),
        "Destination ids moved from 4, 5 (node\u{a0}0) to 8, 9 (node\u{a0}1): disjoint ids follow the source's 8 \
         devices. Choose \u{201c}id list\u{201d} to pin them."
    );
    // Said, it follows the ids as the source grows on within the node, from where they were at first.
    type_into(&root, "field-source-mesh-0", "9");
    settle().await;
    assert!(
        text(&root, "moved-note").contains("from 4, 5 (node\u{a0}0) to 9, 10 (node\u{a0}1)"),
        "{}",
        text(&root, "moved-note")
    );
    // Back on their node: nothing to say.
    type_into(&root, "field-source-mesh-0", "3");
    settle().await;
    assert!(element(&root, "moved-note").has_attribute("hidden"));
    type_into(&root, "field-source-mesh-0", "8");
    settle().await;
    assert!(!element(&root, "moved-note").has_attribute("hidden"));
    // An edit of the destination itself is the user's own move: the note goes.
    type_into(&root, "field-destination-mesh-0", "3");
    settle().await;
    assert!(element(&root, "moved-note").has_attribute("hidden"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_change_too_large_to_plan_is_refused_under_the_destination_mesh_and_the_plan_stays() {
    // 65536 × 65536 from rows over 8,192 devices to columns over 8,192: 67 million pieces, which froze the
    // page for seconds to minutes. Each step on the way plans few pieces (small shape or few devices).
    let (root, _mounted) = mount("toy");
    settle().await;
    for (field, value) in
        [("field-destination-mesh-0", "8192"), ("field-source-mesh-0", "8192"), ("field-tensor-shape-0", "65536")]
    {
        type_into(&root, field, value);
        settle().await;
    }
    let planned = text(&root, "piece-count");
    assert_eq!(text(&root, "problems-destination-mesh"), "");
    type_into(&root, "field-tensor-shape-1", "65536");
    settle().await;
    let message = text(&root, "problems-destination-mesh");
    assert!(message.contains("more than 16,777,216 pieces, more than can be planned at once"), "{message}");
    assert_eq!(text(&root, "piece-count"), planned, "the last good plan stays");
    assert_eq!(value_of(&root, "field-tensor-shape-1"), "65536", "what was typed stays");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_mesh_of_too_many_devices_marks_its_sizes_invalid_and_names_the_mesh_message() {
    // The mesh's message sat under the mesh while the size just typed looked fine to assistive technology.
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "field-source-mesh-0", "100000");
    settle().await;
    assert!(text(&root, "problems-source-mesh").contains("holds more than 65536 devices"));
    let field = element(&root, "field-source-mesh-0");
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("true"));
    assert_eq!(field.get_attribute("aria-describedby").as_deref(), Some("problems-source-mesh-0 problems-source-mesh"));
    assert_eq!(element(&root, "field-destination-mesh-0").get_attribute("aria-invalid").as_deref(), Some("false"));
    type_into(&root, "field-source-mesh-0", "3");
    settle().await;
    assert_eq!(field.get_attribute("aria-invalid").as_deref(), Some("false"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_size_field_is_a_spin_button_stepped_by_the_arrow_keys() {
    let (root, _mounted) = mount("toy");
    settle().await;
    let field = element(&root, "field-tensor-shape-0");
    assert_eq!(field.get_attribute("role").as_deref(), Some("spinbutton"));
    assert_eq!(field.get_attribute("aria-valuenow").as_deref(), Some("12"));
    // The buttons are the pointer's: out of the Tab order, still buttons with names.
    for id in ["less-tensor-shape-0", "more-tensor-shape-0"] {
        assert_eq!(element(&root, id).get_attribute("tabindex").as_deref(), Some("-1"), "{id}");
    }

    assert!(press(&field, "ArrowUp"), "the arrow is the field's, not the caret's");
    settle().await;
    assert_eq!(value_of(&root, "field-tensor-shape-0"), "13");
    assert_eq!(field.get_attribute("aria-valuenow").as_deref(), Some("13"));
    assert_eq!(unique_entries(&root), "78", "13 × 6: the change re-planned");
    assert!(press(&field, "ArrowDown"));
    assert!(press(&field, "ArrowDown"));
    settle().await;
    assert_eq!(unique_entries(&root), "66", "11 × 6");
    assert!(!press(&field, "ArrowLeft"), "other keys move the caret");

    // From text that does not parse, a step counts from the spec's value, and the message goes.
    type_into(&root, "field-tensor-shape-0", "11x");
    settle().await;
    assert_eq!(field.get_attribute("aria-valuenow"), None, "no number to announce");
    assert_eq!(field.get_attribute("aria-valuetext").as_deref(), Some("11x"));
    press(&field, "ArrowUp");
    settle().await;
    assert_eq!(value_of(&root, "field-tensor-shape-0"), "12");
    assert_eq!(text(&root, "problems-tensor-shape-0"), "");

    // From a number past the range, a step goes to the range's end, not to the last valid value + 1
    // (review 34: `99999999999999999999` became 13).
    type_into(&root, "field-tensor-shape-0", "99999999999999999999");
    settle().await;
    press(&field, "ArrowDown");
    settle().await;
    let stepped = value_of(&root, "field-tensor-shape-0");
    assert!(stepped.len() > 6, "the field's largest size, not 11: {stepped}");
    assert_eq!(text(&root, "problems-tensor-shape-0"), "");
    type_into(&root, "field-tensor-shape-0", "12");
    settle().await;

    // A mesh size stops at the stepper's lower bound.
    let mesh = element(&root, "field-source-mesh-0");
    for _ in 0..4 {
        press(&mesh, "ArrowDown");
    }
    settle().await;
    assert_eq!(value_of(&root, "field-source-mesh-0"), "1");
    root.remove();
}

#[wasm_bindgen_test]
async fn text_that_is_not_a_number_stays_in_the_field_with_a_message() {
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "field-tensor-shape-0", "12x");
    settle().await;
    assert_eq!(text(&root, "problems-tensor-shape-0"), "`12x` is not a whole number");
    let field = element(&root, "field-tensor-shape-0").unchecked_into::<HtmlInputElement>();
    assert_eq!(field.value(), "12x", "nothing typed is lost");
    assert_eq!(text(&root, "piece-count"), "6 pieces");
    assert_problems(&root, 1);

    // Another field's edit re-plans without replacing what was typed here (it was reset to 12).
    element(&root, "more-tensor-shape-1").unchecked_into::<HtmlElement>().click();
    type_into(&root, "field-topology-nvlink-gbps", "fast");
    settle().await;
    assert_eq!(field.value(), "12x", "another field's edit keeps the text typed here");
    assert_eq!(text(&root, "problems-tensor-shape-0"), "`12x` is not a whole number");
    type_into(&root, "field-topology-latency-us", "6");
    settle().await;
    assert_eq!(value_of(&root, "field-topology-nvlink-gbps"), "fast", "also in a decimal field");
    assert_eq!(text(&root, "problems-topology-nvlink-gbps"), "`fast` is not a number");
    assert_problems(&root, 2);
    // A number beyond any float is too large, as `1e308` is (out of the link's range), not "not a number".
    type_into(&root, "field-topology-nvlink-gbps", "1e400");
    settle().await;
    assert_eq!(text(&root, "problems-topology-nvlink-gbps"), "`1e400` is too large");
    type_into(&root, "field-topology-nvlink-gbps", "inf");
    settle().await;
    assert_eq!(text(&root, "problems-topology-nvlink-gbps"), "`inf` is not a number");

    element(&root, "more-tensor-shape-0").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(field.value(), "13", "the stepper counts from the spec's value");
    assert_eq!(text(&root, "problems-tensor-shape-0"), "");
    assert_problems(&root, 1);
    type_into(&root, "field-topology-nvlink-gbps", "450");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");

    // A whole number too large to hold says so; a long one is echoed by its start and end.
    type_into(&root, "field-tensor-shape-0", "18446744073709551616");
    settle().await;
    assert_eq!(text(&root, "problems-tensor-shape-0"), "`18446744073709551616` is too large");
    // A whole number in another spelling is taken (as the cycle's fields take it); a fraction is not.
    type_into(&root, "field-tensor-shape-0", "1.2e1");
    settle().await;
    assert_eq!(text(&root, "problems-tensor-shape-0"), "");
    assert_eq!(unique_entries(&root), "84", "12 × 7");
    type_into(&root, "field-tensor-shape-0", "12.5");
    settle().await;
    assert_eq!(text(&root, "problems-tensor-shape-0"), "`12.5` is not a whole number");
    // A comma only groups thousands: `2,4` is refused, where it read as 24 without a word.
    type_into(&root, "field-tensor-shape-0", "2,4");
    settle().await;
    let message = text(&root, "problems-tensor-shape-0");
    assert_eq!(message, "`2,4` is not a whole number: a comma may only group thousands, as in 4,096");
    assert_eq!(unique_entries(&root), "84", "still 12 × 7");
    type_into(&root, "field-tensor-shape-0", "1,200");
    settle().await;
    assert_eq!(text(&root, "problems-tensor-shape-0"), "");
    assert_ne!(unique_entries(&root), "84", "1,200 × 7");
    type_into(&root, "field-tensor-shape-0", &"x".repeat(100_000));
    settle().await;
    let message = text(&root, "problems-tensor-shape-0");
    assert!(message.contains("characters left out") && message.ends_with("x` is not a whole number"), "{message}");
    assert!(message.chars().count() < 300, "{} characters", message.chars().count());
    root.remove();
}

#[wasm_bindgen_test]
async fn an_invalid_layout_text_shows_the_message_and_a_valid_one_re_plans() {
    let (root, _mounted) = mount("toy");
    settle().await;
    assert_eq!(value_of(&root, "layout-text-destination"), "[Shard(1)]");

    type_into(&root, "layout-text-destination", "[Shard(0), Bogus]");
    settle().await;
    assert!(text(&root, "problems-destination-layout").contains("`Bogus` is not a placement"));
    assert_eq!(text(&root, "piece-count"), "6 pieces");
    assert_problems(&root, 1);

    // Readable but wrong: the core's message, under the same field.
    type_into(&root, "layout-text-destination", "[Shard(2)]");
    settle().await;
    assert_eq!(text(&root, "problems-destination-layout"), "Shard(2) but the tensor has rank 2");
    assert_eq!(unique_entries(&root), "72");
    assert_eq!(text(&root, "piece-count"), "6 pieces");

    type_into(&root, "layout-text-destination", "[Shard(0)]");
    settle().await;
    assert_eq!(text(&root, "problems-destination-layout"), "");
    assert_eq!(text(&root, "piece-count"), "4 pieces", "rows 0-5 and 6-11 from sources of 4 rows");
    assert_eq!(element(&root, "field-destination-placement-0").unchecked_into::<HtmlSelectElement>().value(), "S(0)");
    root.remove();
}

#[wasm_bindgen_test]
async fn jax_notation_names_mesh_dims() {
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "layout-text-destination", "P(None, 'tp')");
    settle().await;
    assert_eq!(text(&root, "problems-destination-layout"), "");
    assert_eq!(text(&root, "piece-count"), "6 pieces", "P(None, 'tp') is Shard(1) on the mesh dim tp");

    type_into(&root, "layout-text-destination", "P('dp')");
    settle().await;
    assert!(text(&root, "problems-destination-layout").starts_with("`dp` is not a mesh dim name"));
    assert_eq!(text(&root, "piece-count"), "6 pieces");
    // Which mesh dim `dp` meant is unknown: the placement asks to be picked rather than claim Replicate.
    let select = element(&root, "field-destination-placement-0").unchecked_into::<HtmlSelectElement>();
    assert_eq!(select.value(), "");
    // Picking it puts tp where it says and drops the unknown name; the text stays in the notation it was
    // typed in (a card's edit rewrote it as DTensor: review 48).
    choose(&root, "field-destination-placement-0", "S(0)");
    settle().await;
    assert_eq!(text(&root, "problems-destination-layout"), "");
    assert_eq!(text(&root, "piece-count"), "4 pieces");
    assert_eq!(value_of(&root, "layout-text-destination"), "P('tp')", "still JAX");
    choose(&root, "field-destination-placement-0", "S(1)");
    settle().await;
    assert_eq!(value_of(&root, "layout-text-destination"), "P(None, 'tp')");
    root.remove();
}

#[wasm_bindgen_test]
async fn changing_a_placement_in_its_select_changes_the_plan_and_the_text() {
    let (root, _mounted) = mount("toy");
    settle().await;
    choose(&root, "field-destination-placement-0", "S(0)");
    settle().await;
    assert_eq!(text(&root, "piece-count"), "4 pieces");
    assert_eq!(value_of(&root, "layout-text-destination"), "[Shard(0)]", "the cards update the text");
    let options = element(&root, "field-destination-placement-0").query_selector_all("option").expect("options");
    let labels: Vec<String> = (0..options.length()).filter_map(|i| options.item(i)?.text_content()).collect();
    assert_eq!(labels, vec!["Shard(dim 0)", "Shard(dim 1)", "Replicate"], "no Partial on a destination");
    root.remove();
}

#[wasm_bindgen_test]
async fn where_a_dtype_change_happens_is_chosen_beside_the_destination_dtype() {
    let total_value = |root: &Element, id: &str| {
        element(root, id)
            .query_selector(".total-value")
            .ok()
            .flatten()
            .and_then(|e| e.text_content())
            .unwrap_or_default()
    };
    // The toy keeps bf16: nothing to choose.
    let (root, _mounted) = mount("toy");
    settle().await;
    assert!(root.query_selector("[data-testid=field-convert]").expect("a valid selector").is_none());
    root.remove();

    // FSDP-8 fp32 → TP bf16: converting at the receiver sends fp32, twice the bytes.
    let (root, _mounted) = mount("fsdp-tp");
    settle().await;
    let options = element(&root, "field-convert").query_selector_all("option").expect("options");
    let labels: Vec<String> = (0..options.length()).filter_map(|i| options.item(i)?.text_content()).collect();
    assert_eq!(labels, ["the sender", "the receiver"]);
    assert_eq!(text(&root, "convert-note"), "bf16 crosses the links");
    // In the Destination card, beside the dtype it converts to.
    assert!(element(&root, "side-destination").contains(Some(&element(&root, "field-convert"))));
    assert_eq!(total_value(&root, "total-bytes-received"), "4 MiB");
    choose(&root, "field-convert", "receiver");
    settle().await;
    assert_eq!(total_value(&root, "total-bytes-received"), "8 MiB");
    assert_eq!(text(&root, "convert-note"), "fp32 crosses the links");
    // Chosen, it stays on offer after the dtypes become equal (so it can be taken back).
    choose(&root, "field-source-dtype", "bf16");
    settle().await;
    assert_eq!(total_value(&root, "total-bytes-received"), "4 MiB");
    choose(&root, "field-convert", "sender");
    settle().await;
    assert!(root.query_selector("[data-testid=field-convert]").expect("a valid selector").is_none());
    root.remove();
}

#[wasm_bindgen_test]
async fn two_edits_in_one_task_both_land() {
    // A script (or an autofill tool) fires events back to back, with no chance for the app to catch up in
    // between. This panicked: the second edit recomputed the edited tensor's index against the spec it
    // was writing.
    let (root, _mounted) = mount("toy");
    settle().await;
    choose(&root, "field-source-placement-0", "S(1)");
    choose(&root, "field-source-placement-0", "R");
    element(&root, "add-tensor-dim").unchecked_into::<HtmlElement>().click();
    element(&root, "add-tensor-dim").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(value_of(&root, "layout-text-source"), "[Replicate()]");
    assert_eq!(
        root.query_selector_all("[data-testid^=tensor-dim-]").expect("a selector").length(),
        4,
        "two dims added"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn adding_a_mesh_dim_replicates_over_it() {
    let (root, _mounted) = mount("toy");
    settle().await;
    element(&root, "add-mesh-dim-destination").unchecked_into::<HtmlElement>().click();
    settle().await;
    // In front, as the outer dim: two replicas of the column split, named as such meshes usually are.
    assert_eq!(value_of(&root, "layout-text-destination"), "[Replicate(), Shard(1)]");
    assert_eq!(value_of(&root, "field-destination-dim-name-0"), "dp");
    assert_eq!(value_of(&root, "field-destination-dim-name-1"), "tp");
    assert_eq!(text(&root, "piece-count"), "12 pieces", "two replicas of each destination shard");
    element(&root, "remove-mesh-dim-destination-0").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(text(&root, "piece-count"), "6 pieces");
    assert_eq!(value_of(&root, "layout-text-destination"), "[Shard(1)]");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_mesh_dim_added_in_front_leaves_what_was_typed_in_the_rows_after_it() {
    // The rows are keyed: the new row is the first, and the old one keeps its unparsed text, now as dim 1.
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "field-source-mesh-0", "3x");
    settle().await;
    element(&root, "add-mesh-dim-source").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(value_of(&root, "field-source-mesh-0"), "2");
    assert_eq!(value_of(&root, "field-source-dim-name-0"), "dp");
    assert_eq!(value_of(&root, "field-source-mesh-1"), "3x");
    assert_eq!(value_of(&root, "field-source-dim-name-1"), "tp");
    root.remove();
}

#[wasm_bindgen_test]
async fn removing_a_dim_keeps_what_was_typed_in_the_dims_after_it() {
    // The rows were keyed by position: removing dim 0 handed row 1's place to dim 2, and text typed in
    // dim 1 that did not parse yet was replaced by a number. Now each row moves up with its dim.
    let (root, _mounted) = mount("nested");
    settle().await;
    type_into(&root, "field-source-dim-name-1", "rows");
    type_into(&root, "field-source-mesh-1", "3x");
    element(&root, "add-tensor-dim").unchecked_into::<HtmlElement>().click();
    settle().await;
    type_into(&root, "field-tensor-shape-1", "6 rows");
    settle().await;
    let dims_before = root.query_selector_all("[data-testid^=mesh-dim-source-]").expect("a selector").length();
    assert_eq!(dims_before, 2);

    element(&root, "remove-mesh-dim-source-0").unchecked_into::<HtmlElement>().click();
    element(&root, "remove-tensor-dim-0").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(root.query_selector_all("[data-testid^=mesh-dim-source-]").expect("a selector").length(), 1);
    assert_eq!(value_of(&root, "field-source-dim-name-0"), "rows", "the name moved up with its dim");
    assert_eq!(value_of(&root, "field-source-mesh-0"), "3x", "the unparsed size moved up with its dim");
    assert!(text(&root, "problems-source-mesh-0").contains("not a whole number"), "and its message");
    assert_eq!(
        element(&root, "field-source-mesh-0").get_attribute("aria-label").as_deref(),
        Some("source mesh dim 0 size")
    );
    assert_eq!(value_of(&root, "field-tensor-shape-0"), "6 rows");
    assert!(text(&root, "tensor-dim-0").starts_with("dim 0"), "the caption names the dim's new number");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_field_removed_with_unparsed_text_leaves_no_problem_counted() {
    // A row with text that does not parse, moved up by a removal and then dropped by a preset with fewer
    // dims, left "1 problem" in the status line with none on screen, until reload.
    let (root, _mounted) = mount("toy");
    settle().await;
    element(&root, "add-mesh-dim-source").unchecked_into::<HtmlElement>().click();
    element(&root, "add-mesh-dim-source").unchecked_into::<HtmlElement>().click();
    settle().await;
    type_into(&root, "field-source-mesh-2", "-");
    settle().await;
    assert_problems(&root, 1);
    element(&root, "remove-mesh-dim-source-1").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_problems(&root, 1);
    element(&root, "preset-toy").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    root.remove();
}

#[wasm_bindgen_test]
async fn following_the_advice_to_add_a_mesh_dim_makes_typed_placements_valid() {
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "layout-text-source", "[Shard(0), Shard(1)]");
    settle().await;
    assert_problems(&root, 1);
    assert!(
        text(&root, "problems-source-layout").contains("give the mesh 2 dims"),
        "{}",
        text(&root, "problems-source-layout")
    );
    element(&root, "add-mesh-dim-source").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(0), Shard(1)]");
    assert_eq!(value_of(&root, "field-source-mesh-1"), "2");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_layout_texts_button_gives_the_mesh_the_dims_its_placements_need() {
    let (root, _mounted) = mount("toy");
    settle().await;
    assert!(!present(&root, "layout-text-source-add-dims"));
    type_into(&root, "layout-text-source", "[Shard(0), Shard(1), R]");
    settle().await;
    assert!(text(&root, "problems-source-layout").contains("give the mesh 3 dims"));
    assert_eq!(text(&root, "layout-text-source-add-dims"), "Add 2 mesh dims of size 2");
    element(&root, "layout-text-source-add-dims").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(0), Shard(1), Replicate()]");
    assert_eq!(
        (value_of(&root, "field-source-mesh-1"), value_of(&root, "field-source-mesh-2")),
        ("2".into(), "2".into())
    );
    assert!(!present(&root, "layout-text-source-add-dims"));
    // Fewer placements than dims: which dim to remove is the user's choice (the cards' buttons), no button.
    type_into(&root, "layout-text-source", "[Shard(0)]");
    settle().await;
    assert!(text(&root, "problems-source-layout").contains("give the mesh 1 dim"));
    assert!(!present(&root, "layout-text-source-add-dims"));
    root.remove();
}

#[wasm_bindgen_test]
async fn text_that_stops_parsing_puts_back_the_cards_its_refused_layout_had_taken() {
    // Three placements on a 1-D mesh (refused), then half of another layout: the cards kept the refused one,
    // "2 problems", and offered "Add 2 mesh dims" for a layout no longer typed.
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "layout-text-source", "[Shard(0), Shard(0), Shard(0)]");
    settle().await;
    assert_problems(&root, 1);
    assert!(present(&root, "layout-text-source-add-dims"));
    type_into(&root, "layout-text-source", "[Shard(0)");
    settle().await;
    assert_problems(&root, 1);
    assert!(!present(&root, "layout-text-source-add-dims"));
    assert!(text(&root, "layout-text-source-kept").contains("[Shard(0)]"), "the cards are back to the accepted layout");
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(0)", "what was typed stays");
    // A layout the spec accepts is not put back: text that stops parsing after it keeps it in the cards.
    type_into(&root, "layout-text-source", "[Replicate()]");
    settle().await;
    type_into(&root, "layout-text-source", "[Replicate(), Sha");
    settle().await;
    assert!(text(&root, "layout-text-source-kept").contains("[Replicate()]"));
    root.remove();
}

#[wasm_bindgen_test]
async fn layout_text_that_does_not_parse_outlives_an_edit_in_the_cards() {
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "layout-text-source", "[Shard(0), Repl");
    settle().await;
    assert!(text(&root, "layout-text-source-kept").contains("[Shard(0)]"), "the last good layout is named");
    // A structural edit changes the layout the cards imply; the typed text and its message stay.
    element(&root, "add-mesh-dim-source").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(0), Repl");
    assert_problems(&root, 1);
    let kept = text(&root, "layout-text-source-kept");
    assert!(kept.contains("[Replicate(), Shard(0)]"), "{kept}");
    // The user may take the cards' layout instead.
    element(&root, "layout-text-source-use").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(value_of(&root, "layout-text-source"), "[Replicate(), Shard(0)]");
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    assert!(!present(&root, "layout-text-source-kept"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_negative_shard_dim_in_the_layout_text_is_the_tensor_dim_counted_from_the_last() {
    // DTensor reads Shard(-1) as the last dim; tensor-parallel code writes it so, and pasting it was refused.
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "layout-text-source", "[Shard(-1)]");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    let select = element(&root, "field-source-placement-0").unchecked_into::<HtmlSelectElement>();
    assert_eq!(select.value(), "S(1)");
    // Past the first dim: said with the rank, and nothing changes.
    type_into(&root, "layout-text-source", "[Shard(-3)]");
    settle().await;
    assert!(
        text(&root, "problems-source-layout").contains("the tensor has 2 dims"),
        "{}",
        text(&root, "problems-source-layout")
    );
    assert_eq!(select.value(), "S(1)");
    // A third tensor dim: the text is read again, now the first of three dims.
    element(&root, "add-tensor-dim").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    assert_eq!(select.value(), "S(0)");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_new_spec_of_another_rank_drops_unread_layout_text_instead_of_reading_it_in() {
    // Text is read again when an edit changes the rank, never written into a spec that replaced the state.
    let (root, state, _mounted) = mount_with_state("toy");
    settle().await;
    type_into(&root, "layout-text-source", "[Shard(-3)]");
    settle().await;
    let mut rank_3 = state.input.get_untracked();
    if let Some(tensor) = rank_3.tensor.as_mut() {
        tensor.shape = vec![12, 6, 4];
    }
    // Read in, the text would be Shard(0) of the three dims: the new spec says Shard(1).
    rank_3.source.placements = Some(vec!["S(1)".to_string()]);
    let (toy, typed_in) = (state.input.get_untracked(), state.replaced.get_untracked());
    state.replace_input(rank_3.clone());
    settle().await;
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(1)]");
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    // Undo to the toy brings the text back, unread; redo to the rank-3 spec, where the text would read,
    // neither reads it in nor shows it: the spec's layout shows.
    state.restore_input(toy, Some(typed_in));
    settle().await;
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(-3)]");
    let carried = state.replaced.get_untracked();
    state.restore_input(rank_3.clone(), Some(carried));
    settle().await;
    assert_eq!(state.input.get_untracked(), rank_3, "the restored spec stays as it was");
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(1)]");
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    root.remove();
}

#[wasm_bindgen_test]
async fn restoring_a_spec_in_its_old_draft_generation_brings_back_its_unread_text() {
    // A preset over unread text, then the spec before it restored in the generation it was typed in (as
    // undo does): the text comes back with its message, and the status line counts it again.
    let (root, state, _mounted) = mount_with_state("toy");
    settle().await;
    let size = value_of(&root, "field-source-mesh-0");
    type_into(&root, "field-source-mesh-0", "12x");
    type_into(&root, "layout-text-destination", "[Bogus]");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "2 problems: the pictures show the last valid change.");
    let (toy, typed_in) = (state.input.get_untracked(), state.replaced.get_untracked());
    element(&root, "preset-nested").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_ne!(value_of(&root, "field-source-mesh-0"), "12x");
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    // In a new generation (a link to the toy, say), the toy's fields are clean.
    state.restore_input(toy.clone(), None);
    settle().await;
    assert_eq!(value_of(&root, "field-source-mesh-0"), size);
    assert_eq!(text(&root, "problems-source-mesh-0"), "");
    // In the one it was typed in, the text is back.
    state.restore_input(toy, Some(typed_in));
    settle().await;
    assert_eq!(value_of(&root, "field-source-mesh-0"), "12x");
    assert_eq!(text(&root, "problems-source-mesh-0"), "`12x` is not a whole number");
    assert_eq!(value_of(&root, "layout-text-destination"), "[Bogus]");
    assert_eq!(text(&root, "editor-status"), "2 problems: the pictures show the last valid change.");
    root.remove();
}

#[wasm_bindgen_test]
async fn unread_layout_text_after_a_refused_layout_of_its_own_says_only_its_own_problem() {
    // `[Shard(5)]` is read into the cards (a problem: the tensor has rank 2), then `[Foo()]` is not read.
    // The cards held `[Shard(5)]`, whose problem was said and counted beside the text's, for a layout the
    // user had left; they go back to the layout last accepted, and only the text's problem stands.
    let (root, _mounted) = mount("toy");
    settle().await;
    type_into(&root, "layout-text-source", "[Shard(5)]");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "1 problem: the pictures show the last valid change.");
    type_into(&root, "layout-text-source", "[Foo()]");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "1 problem: the pictures show the last valid change.");
    let shown: Vec<String> = (0..)
        .map_while(|i| root.query_selector_all("#problems-source-layout li").expect("a selector").item(i))
        .map(|li| li.text_content().unwrap_or_default())
        .collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].contains("Foo()"), "{shown:?}");
    let kept = text(&root, "layout-text-source-kept");
    assert!(kept.starts_with("The pictures show [Shard(0)]"), "{kept}");
    assert_eq!(value_of(&root, "layout-text-source"), "[Foo()]", "what was typed stays");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_preset_link_opens_in_place_and_is_marked() {
    let (root, _mounted) = mount("toy");
    settle().await;
    assert_eq!(element(&root, "preset-toy").get_attribute("aria-current").as_deref(), Some("true"));
    assert_eq!(element(&root, "preset-nested").get_attribute("href").as_deref(), Some("?preset=nested"));
    element(&root, "preset-nested").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(element(&root, "preset-nested").get_attribute("aria-current").as_deref(), Some("true"));
    assert_eq!(element(&root, "preset-toy").get_attribute("aria-current"), None);
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(0), Shard(0)]");
    // An edit leaves the preset: nothing is marked.
    type_into(&root, "field-tensor-shape-0", "32");
    settle().await;
    assert_eq!(element(&root, "preset-nested").get_attribute("aria-current"), None);
    assert_eq!(text(&root, "preset-title"), "Edited: not a preset");
    root.remove();
}

#[wasm_bindgen_test]
async fn opening_a_preset_replaces_text_that_did_not_parse_even_where_its_value_is_the_same() {
    let (root, _mounted) = mount("toy");
    settle().await;
    // NVLink stays 450 GB/s and the layouts stay [Shard(0)] → [Shard(1)]-like in both presets' fields.
    type_into(&root, "field-topology-nvlink-gbps", "zz");
    type_into(&root, "layout-text-source", "[Shard(0");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "2 problems: the pictures show the last valid change.");
    element(&root, "preset-uneven").unchecked_into::<HtmlElement>().click();
    settle().await;
    assert_eq!(value_of(&root, "field-topology-nvlink-gbps"), "450");
    assert_eq!(value_of(&root, "layout-text-source"), "[Shard(0)]");
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_device_list_that_does_not_parse_outlives_an_edit_elsewhere() {
    let (root, _mounted) = mount("toy");
    settle().await;
    choose(&root, "field-source-devices", "list");
    settle().await;
    type_into(&root, "field-source-device-ids", "0, 1, x");
    settle().await;
    assert_problems(&root, 1);
    type_into(&root, "field-tensor-shape-0", "24");
    settle().await;
    assert_eq!(value_of(&root, "field-source-device-ids"), "0, 1, x", "the draft stays");
    assert_problems(&root, 1);
    assert!(!text(&root, "problems-source-devices").is_empty());
    root.remove();
}

#[wasm_bindgen_test]
async fn colocated_devices_and_an_explicit_list_reach_the_core() {
    let (root, _mounted) = mount("toy");
    settle().await;
    choose(&root, "field-destination-devices", "colocated");
    settle().await;
    assert_eq!(
        text(&root, "problems-destination-devices"),
        "\"colocated\" needs the same number of devices as the source (3), not 2"
    );
    choose(&root, "field-destination-devices", "list");
    settle().await;
    assert_eq!(text(&root, "problems-destination-devices"), "");
    type_into(&root, "field-destination-device-ids", "0, 1");
    settle().await;
    assert_eq!(text(&root, "problems-destination-devices"), "");
    assert!(
        text(&root, "devices-note-destination").contains("ids 0, 1"),
        "{}",
        text(&root, "devices-note-destination")
    );
    type_into(&root, "field-destination-device-ids", "0, x");
    settle().await;
    assert!(text(&root, "problems-destination-devices").contains("`x` is not a device id"));
    // Counted like any field's problem; leaving the list takes its message with it.
    assert_eq!(text(&root, "editor-status"), "1 problem: the pictures show the last valid change.");
    choose(&root, "field-destination-devices", "disjoint");
    settle().await;
    assert_eq!(text(&root, "editor-status"), "Every edit re-plans at once.");
    root.remove();
}
