//! The app shell: the whole app mounted, its totals and pieces read from the DOM; the panic box.

use leptos::{mount::mount_to, task::tick};
use reshard_lens::{
    core::{
        plan::Strategy,
        presets,
        traffic::{analyse, format_bytes},
    },
    ui::{App, describe_change, describe_placements, format_count, format_offset, format_shape, panic::show_panic},
};
use wasm_bindgen_test::wasm_bindgen_test;

use crate::dom::{forget_saved_state, text_of, texts_of, wrapper};

#[wasm_bindgen_test]
async fn the_app_shows_the_three_traffic_totals_of_the_toy() {
    // Pins down that the page reads the core: its numbers are the core's, labelled as the three quantities.
    forget_saved_state();
    let root = wrapper();
    let _mounted = mount_to(root.clone(), App);
    tick().await;

    let totals = analyse(&presets::toy(), Strategy::Intersection).expect("the toy plans").totals();
    let unique = text_of(&root, "[data-testid=total-unique-entries]");
    let received = text_of(&root, "[data-testid=total-bytes-received]");
    let link = text_of(&root, "[data-testid=total-max-link-bytes]");

    assert!(unique.starts_with("Unique logical entries72"), "{unique}");
    assert!(received.starts_with("Bytes received by devices144 B"), "{received}");
    // The bytes say which entries and dtype they are (the article counts the toy in entries).
    assert!(received.ends_with("= 72 entries × 2 B (bf16), local copies (same device) excluded"), "{received}");
    assert!(
        link.starts_with(&format!("Bytes crossing the busiest link{}", format_bytes(totals.max_link_bytes))),
        "{link}"
    );
    // And which link that is, as the traffic panel names it.
    let busiest = analyse(&presets::toy(), Strategy::Intersection).expect("the toy plans").max_link().expect("a link");
    let place = text_of(&root, "[data-testid=total-place]");
    assert_eq!(place, format!("on {} of d{}", busiest.link.name(), busiest.device));
    assert_eq!(place, "on nvlink_in of d3");
    assert_eq!(totals.unique_entries, 72);
    assert_eq!(totals.bytes_received, 144);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_app_lists_six_pieces_of_four_by_three() {
    // The article's toy: each of 2 destinations gets one 4 × 3 piece from each of 3 sources.
    forget_saved_state();
    let root = wrapper();
    let _mounted = mount_to(root.clone(), App);
    tick().await;

    let shapes = texts_of(&root, "[data-testid=piece-row] [data-testid=piece-shape]");
    assert_eq!(shapes, vec!["4 × 3"; 6]);
    let bytes = texts_of(&root, "[data-testid=piece-row] [data-testid=piece-bytes]");
    assert_eq!(bytes, vec!["24"; 6]);
    // The article counts each piece in entries: 12, twice over for bf16's 24 bytes.
    assert_eq!(texts_of(&root, "[data-testid=piece-row] [data-testid=piece-entries]"), vec!["12"; 6]);
    assert_eq!(text_of(&root, "[data-testid=piece-count]"), "6 pieces");
    // Shapes and device counts held together by no-break spaces: the line wraps only between its parts.
    assert_eq!(
        text_of(&root, "[data-testid=change-description]"),
        "w · 12\u{a0}×\u{a0}6 bf16 · 3\u{a0}source\u{a0}devices → 2\u{a0}destination\u{a0}devices"
    );
    // What the change is: the placements on each side, under the counts.
    assert_eq!(text_of(&root, "[data-testid=change-placements]"), "[Shard(0)] → [Shard(1)]");
    assert!(text_of(&root, "[data-testid=version]").ends_with(env!("CARGO_PKG_VERSION")));
    root.remove();
}

#[wasm_bindgen_test]
fn the_placements_line_names_each_sides_layout_and_a_strided_order() {
    let line =
        |reshard: &reshard_lens::core::model::Reshard, tensor| describe_placements(reshard, tensor, [None, None]);
    assert_eq!(line(&presets::partial(), 0).as_deref(), Some("[Partial()] → [Replicate()]"));
    assert_eq!(line(&presets::nested(), 0).as_deref(), Some("[Shard(0), Shard(0)] → [Shard(1)]"));
    // Rows split by both mesh dims in the strided order: said, as it changes who holds which rows.
    let strided = reshard_lens::core::spec::parse_spec(
        r#"{"tensor": {"name": "w", "shape": [16, 8]},
            "source": {"mesh": [2, 4], "placements": ["S(0)", "S(0)"], "order": "strided"},
            "destination": {"mesh": [4], "placements": ["S(1)"]}}"#,
    )
    .unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(line(&strided, 0).as_deref(), Some("[Shard(0), Shard(0)] (strided order) → [Shard(1)]"));
    // An inventory: the tensor in view, named.
    let inventory = presets::llama_inventory(1);
    let second = line(&inventory, 1).unwrap_or_default();
    assert!(second.starts_with(&format!("{}: [", inventory.tensors[1].name)), "{second}");
    assert_eq!(line(&inventory, inventory.tensors.len()), None, "no such tensor");
    // A side typed in JAX is written as typed; the other side's placements as computed.
    let typed = describe_placements(&presets::toy(), 0, [None, Some("P(None, 'tp')".into())]);
    assert_eq!(typed.as_deref(), Some("[Shard(0)] → P(None, 'tp')"));
}

#[wasm_bindgen_test]
fn a_panic_message_is_shown_as_text_never_as_html() {
    // The panic box must show whatever the message says, markup included, without parsing it.
    show_panic("<img src=x onerror=alert(1)> went wrong");
    let document = web_sys::window().and_then(|w| w.document()).expect("a browser document");
    let panic = document.get_element_by_id("panic").expect("the panic box exists");
    assert_eq!(panic.child_element_count(), 0);
    assert!(panic.text_content().unwrap_or_default().contains("<img src=x onerror=alert(1)> went wrong"));
    assert_eq!(panic.get_attribute("role").as_deref(), Some("alert"));

    // A second panic reuses the box.
    show_panic("again");
    assert_eq!(document.query_selector_all("#panic").expect("a valid selector").length(), 1);
    panic.remove();
}

#[wasm_bindgen_test]
fn numbers_offsets_and_shapes_read_as_people_write_them() {
    assert_eq!(format_count(0), "0");
    assert_eq!(format_count(999), "999");
    assert_eq!(format_count(1_000), "1,000");
    assert_eq!(format_count(67_108_864), "67,108,864");
    assert_eq!(format_offset(&[4, 0]), "[4, 0]");
    assert_eq!(format_offset(&[]), "[]");
    assert_eq!(format_shape(&[4, 3]), "4 × 3");
    assert_eq!(format_shape(&[]), "scalar");
    assert_eq!(describe_change(&presets::toy()), "w · 12 × 6 bf16 · 3 source devices → 2 destination devices");
    // A dtype change names the bytes that travel; colocated sides are one set of GPUs, not two.
    let fsdp = describe_change(&presets::fsdp_tp());
    assert!(fsdp.contains("fp32 → bf16 (bf16 on the wire)"), "{fsdp}");
    assert_eq!(
        describe_change(&presets::colocated()),
        "w · 8 × 8 bf16 · 4 devices, source and destination on the same GPUs"
    );
}
