//! The tensor view and the mesh view, mounted on a preset's state; their SVG read.

use leptos::{mount::mount_to, prelude::*, task::tick};
use reshard_lens::core::model::Mesh;
use reshard_lens::ui::{
    AppState, Focus, Side, mesh_view::MeshView, mesh_view::layout::has_thumbnails, tensor_view::TensorView,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{Element, HtmlElement};

use crate::dom::{text_of, wrapper};

/// Every element matching `selector` inside `root`, in document order.
fn all(root: &Element, selector: &str) -> Vec<Element> {
    let list = root.query_selector_all(selector).expect("a valid selector");
    (0..list.length()).filter_map(|i| list.item(i)).filter_map(|n| n.dyn_into::<Element>().ok()).collect()
}

fn one(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).expect("a valid selector").unwrap_or_else(|| panic!("no element matches {selector}"))
}

/// Mounts both views on a preset's state; returns the wrapper and the state (to read or set the focus).
fn mount_views(preset: &'static str) -> (HtmlElement, AppState, impl Sized) {
    let root = wrapper();
    let (state_tx, state_rx) = std::sync::mpsc::channel();
    let mounted = mount_to(root.clone(), move || {
        let state = AppState::from_preset(preset);
        provide_context(state);
        let _ = state_tx.send(state);
        view! { <section class="pictures"><TensorView/><MeshView/></section> }
    });
    let state = state_rx.recv().expect("the state was provided");
    (root, state, mounted)
}

#[wasm_bindgen_test]
async fn the_toy_draws_six_pieces_from_each_source_to_each_destination() {
    // The article's toy: sources d0, d1, d2 (rows) each send one 4 × 3 piece to d3 and to d4 (columns).
    let (root, _state, _mounted) = mount_views("toy");
    tick().await;
    let mut pairs: Vec<(String, String)> = all(&root, "[data-testid=piece]")
        .iter()
        .map(|p| (p.get_attribute("data-src").unwrap_or_default(), p.get_attribute("data-dst").unwrap_or_default()))
        .collect();
    pairs.sort();
    let expected: Vec<(String, String)> =
        [0, 1, 2].iter().flat_map(|s| [3, 4].map(|d| (s.to_string(), d.to_string()))).collect();
    assert_eq!(pairs, expected);
    // Focusable, with one Tab stop for all of them (the first drawn; arrow keys move between them).
    let stops: Vec<Option<String>> =
        all(&root, "[data-testid=piece]").iter().map(|p| p.get_attribute("tabindex")).collect();
    assert_eq!(stops[0].as_deref(), Some("0"), "{stops:?}");
    assert!(stops[1..].iter().all(|t| t.as_deref() == Some("-1")), "{stops:?}");
    for piece in all(&root, "[data-testid=piece]") {
        assert!(piece.get_attribute("aria-label").unwrap_or_default().contains("shape 4 × 3"));
    }
    assert!(root.query_selector("[data-testid=empty-shards]").expect("a valid selector").is_none());
    // Pieces drawn one by one carry the colours: no tint under them.
    assert_eq!(all(&root, "[data-testid=tensor-tint] path").len(), 0);
    root.remove();
}

#[wasm_bindgen_test]
async fn both_meshes_draw_one_focusable_tile_per_device() {
    let (root, _state, _mounted) = mount_views("toy");
    tick().await;
    let ids = |side: &str| -> Vec<String> {
        all(&root, &format!("[data-testid=device][data-side={side}]"))
            .iter()
            .map(|t| t.get_attribute("data-device").unwrap_or_default())
            .collect()
    };
    assert_eq!(ids("source"), ["0", "1", "2"]);
    assert_eq!(ids("destination"), ["3", "4"]);
    let first = one(&root, "[data-testid=device][data-side=source][data-device=\"0\"]");
    // A named picture, as a piece is: not a button (Enter and Space do nothing on it).
    assert_eq!(first.get_attribute("role").as_deref(), Some("img"));
    assert_eq!(
        first.get_attribute("aria-label").as_deref(),
        Some("Source device d0, node 0, holds offset [0, 0], shape 4 × 6"),
        "rows 0–3 of the 12 × 6 toy"
    );
    root.remove();
}

#[wasm_bindgen_test]
async fn the_page_moving_under_a_resting_pointer_does_not_take_the_keyboards_device() {
    // Tab to a device below the fold scrolls the page; the browser then reports the tile that came under
    // the resting mouse as entered, at the coordinates the pointer already had.
    let (root, state, _mounted) = mount_views("toy");
    tick().await;
    let tile = |side: &str, device: u32| {
        one(&root, &format!("[data-testid=device][data-side={side}][data-device=\"{device}\"]"))
    };
    let mouse = |name: &str, target: &web_sys::EventTarget, x: i32, y: i32| {
        let init = web_sys::MouseEventInit::new();
        init.set_bubbles(true);
        init.set_client_x(x);
        init.set_client_y(y);
        let event = web_sys::MouseEvent::new_with_mouse_event_init_dict(name, &init).expect("an event");
        target.dispatch_event(&event).expect("dispatched");
    };
    let window = web_sys::window().expect("a window");
    // The pointer rests at (40, 50); the keyboard chooses destination d4.
    mouse("mousemove", &window, 40, 50);
    tile("destination", 4).unchecked_into::<web_sys::SvgElement>().focus().expect("focused");
    tick().await;
    let d4 = Focus::Device { side: Side::Destination, device: 4 };
    assert_eq!(state.focus.get_untracked(), d4);
    // Source d1 comes under the resting pointer: the keyboard's device stays.
    let d1 = tile("source", 1);
    mouse("mouseover", &d1, 40, 50);
    mouse("mousemove", &d1, 40, 50);
    tick().await;
    assert_eq!(state.focus.get_untracked(), d4, "the page moved, not the pointer");
    // The pointer moves onto d1: it wins.
    mouse("mouseover", &d1, 41, 50);
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Device { side: Side::Source, device: 1 });
    // Without a device chosen by keyboard, what scrolls under the pointer is what it points at (a wheel).
    mouse("mouseout", &d1, 41, 50);
    tile("destination", 4).unchecked_into::<web_sys::SvgElement>().blur().expect("blurred");
    mouse("mousemove", &window, 41, 50);
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Nothing);
    mouse("mouseover", &tile("source", 2), 41, 50);
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Device { side: Side::Source, device: 2 });
    // A piece entered under a resting pointer while a tile holds the keyboard: the tile stays.
    tile("destination", 3).unchecked_into::<web_sys::SvgElement>().focus().expect("focused");
    tick().await;
    let piece = all(&root, "[data-testid=piece]").remove(0);
    // Pieces follow the pointer from their group: the browser sends mouseover, which bubbles to it.
    mouse("mouseover", &piece, 41, 50);
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Device { side: Side::Destination, device: 3 });
    mouse("mouseover", &piece, 60, 70);
    tick().await;
    assert!(matches!(state.focus.get_untracked(), Focus::Piece(_)), "the pointer moved onto the piece");
    root.remove();
}

#[wasm_bindgen_test]
async fn replicated_tiles_name_their_replica() {
    let (root, _state, _mounted) = mount_views("fsdp-tp");
    tick().await;
    let names: Vec<String> = all(&root, "[data-testid=device][data-side=destination]")
        .iter()
        .map(|t| t.get_attribute("aria-label").unwrap_or_default())
        .collect();
    assert_eq!(names.len(), 8);
    assert_eq!(names.iter().filter(|n| n.ends_with("(R0)")).count(), 4, "{names:?}");
    assert_eq!(names.iter().filter(|n| n.ends_with("(R1)")).count(), 4, "{names:?}");
    root.remove();
}

#[wasm_bindgen_test]
async fn an_eight_device_row_shows_thumbnails_but_an_eight_by_eight_mesh_does_not() {
    // FSDP-8's row of 45 px tiles: each shows the eighth of the rows it holds.
    let (root, _state, _mounted) = mount_views("fsdp-tp");
    tick().await;
    for side in ["source", "destination"] {
        let tiles = all(&root, &format!("[data-testid=device][data-side={side}]"));
        assert_eq!(tiles.len(), 8);
        assert!(tiles.iter().all(|t| t.query_selector(".tile-region").ok().flatten().is_some()), "{side}");
    }
    // 64 tiles of the same size stay plain (cheap to redraw on every edit).
    let mesh = |shape: &[u64]| Mesh::contiguous(shape, 0);
    assert!(!has_thumbnails(&mesh(&[8, 8]), (false, false)));
    assert!(has_thumbnails(&mesh(&[8]), (true, false)), "d7 and R7 fit a 45 px tile");
    // Two rows of 8 replicas: "d15" and "R1" do not fit side by side, so the tiles stay plain rather than
    // drop the badge that says which replica each holds.
    assert!(has_thumbnails(&mesh(&[2, 8]), (false, false)));
    assert!(!has_thumbnails(&mesh(&[2, 8]), (true, false)));
    assert!(!has_thumbnails(&mesh(&[8]), (true, true)), "R7·P0 does not fit beside d7");
    root.remove();
}

#[wasm_bindgen_test]
async fn the_uneven_preset_lists_its_empty_shard() {
    // 6 rows over 4 devices by torch.chunk: 2, 2, 2, 0; the empty shard must be said, not silently lost.
    let (root, _state, _mounted) = mount_views("uneven");
    tick().await;
    let listed: Vec<String> = all(&root, "[data-testid=empty-shard]").iter().filter_map(|e| e.text_content()).collect();
    assert_eq!(listed, ["Source d3 holds an empty shard (no rows, offset 6)"]);
    // The legend names the colours drawn: d3 sends nothing, so it has no swatch.
    let legend = one(&root, "[data-testid=tensor-legend]").text_content().unwrap_or_default();
    assert!(legend.contains("from d0") && legend.contains("from d2") && !legend.contains("from d3"), "{legend}");
    // The axes are numbered at the shard boundaries: rows cut at 2 and 4 (source), columns at 4 and 8
    // (destination: 10 columns by torch.chunk over 3 is 4, 4, 2).
    let ticks: Vec<String> = all(&root, ".tv-tick-label").iter().filter_map(|e| e.text_content()).collect();
    assert_eq!(ticks, ["0", "4", "8", "10", "0", "2", "4", "6"], "columns along the top, then rows");
    root.remove();
}

#[wasm_bindgen_test]
async fn local_copies_are_drawn_pale_and_explained() {
    // The same 4 GPUs switch from rows to columns: the 4 diagonal pieces stay on their device.
    let (root, _state, _mounted) = mount_views("colocated");
    tick().await;
    let local: Vec<(String, String)> = all(&root, "[data-testid=piece].is-local")
        .iter()
        .map(|p| (p.get_attribute("data-src").unwrap_or_default(), p.get_attribute("data-dst").unwrap_or_default()))
        .collect();
    assert_eq!(local.len(), 4);
    assert!(local.iter().all(|(src, dst)| src == dst), "{local:?}");
    assert_eq!(all(&root, "[data-testid=piece]").len(), 16);
    let legend = one(&root, "[data-testid=tensor-legend]").text_content().unwrap_or_default();
    assert!(legend.contains("a local copy"), "{legend}");
    root.remove();
}

#[wasm_bindgen_test]
async fn focusing_a_device_highlights_its_pieces_and_region() {
    // Pins down the link between the views: a focus event on a mesh tile marks exactly its pieces.
    let (root, state, _mounted) = mount_views("toy");
    tick().await;
    // Real keyboard focus (the mesh listens for `focusin` on behalf of all its tiles).
    let tile = one(&root, "[data-testid=device][data-side=destination][data-device=\"3\"]");
    tile.unchecked_into::<web_sys::SvgElement>().focus().expect("the tile takes focus");
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Device { side: Side::Destination, device: 3 });
    let highlighted: Vec<String> = all(&root, "[data-testid=piece].is-related")
        .iter()
        .map(|p| p.get_attribute("data-dst").unwrap_or_default())
        .collect();
    assert_eq!(highlighted, ["3", "3", "3"]);
    assert_eq!(all(&root, "[data-testid=piece]:not(.is-related)").len(), 3);
    assert!(root.query_selector("[data-testid=focus-region]").expect("a valid selector").is_some());
    assert!(one(&root, "[data-testid=focus-line]").text_content().unwrap_or_default().starts_with("d3 (destination)"));
    root.remove();
}

#[wasm_bindgen_test]
async fn the_toys_piece_tooltips_keep_clear_of_the_row_axis() {
    // The toy's picture is narrow: a tooltip with the link on its size's line was wider than the space
    // beside the row axis, and covered the axis labels.
    use reshard_lens::ui::tensor_view::scene::MARGIN_LEFT;
    let (root, _state, _mounted) = mount_views("toy");
    tick().await;
    let pieces = all(&root, "[data-testid=piece]");
    assert_eq!(pieces.len(), 6);
    for piece in pieces {
        piece.dispatch_event(&web_sys::Event::new("focus").expect("an event")).expect("dispatched");
        tick().await;
        let boxed = one(&root, "[data-testid=piece-tooltip] rect");
        let x: f64 = boxed.get_attribute("x").and_then(|x| x.parse().ok()).expect("a numeric x");
        assert!(x >= MARGIN_LEFT, "the tooltip of {:?} starts at x = {x}", piece.get_attribute("data-dst"));
    }
}

#[wasm_bindgen_test]
async fn the_whole_shard_plan_draws_its_transfer_and_its_tooltips_say_sent_and_kept() {
    // Under the whole-shard plan a piece is the whole source shard; the receiver keeps its intersection. The
    // tooltip said the kept shape beside the sent entries ("4 × 3 · 24 entries"), and the picture drew
    // intersections alone unless its toggle was ticked.
    let (root, state, _mounted) = mount_views("toy");
    tick().await;
    assert!(root.query_selector("[data-testid=whole-shard]").expect("a selector").is_none());
    state.strategy.set(reshard_lens::core::plan::Strategy::WholeShard);
    tick().await;
    assert!(root.query_selector("[data-testid=whole-shard]").expect("a selector").is_some(), "the transfer is drawn");
    let piece = one(&root, "[data-testid=piece][data-src=\"1\"][data-dst=\"4\"]");
    piece.dispatch_event(&web_sys::Event::new("focus").expect("an event")).expect("dispatched");
    tick().await;
    let tooltip = one(&root, "[data-testid=piece-tooltip]").text_content().unwrap_or_default();
    assert!(tooltip.contains("sends offset [4, 0] · shape 4 × 6"), "{tooltip}");
    assert!(tooltip.contains("keeps offset [4, 3] · shape 4 × 3"), "{tooltip}");
    assert!(tooltip.contains("24 entries · 48 B sent"), "{tooltip}");
}

#[wasm_bindgen_test]
async fn a_stacked_pieces_tooltip_names_the_other_receivers_of_its_box() {
    // FSDP-TP: d0's rows go whole to d8 and to d12 (two replicas); the box is labelled "d0 → d8, d12".
    let (root, _state, _mounted) = mount_views("fsdp-tp");
    tick().await;
    let piece = one(&root, "[data-testid=piece][data-src=\"0\"][data-dst=\"8\"]");
    piece.dispatch_event(&web_sys::Event::new("focus").expect("an event")).expect("dispatched");
    tick().await;
    let tooltip = one(&root, "[data-testid=piece-tooltip]").text_content().unwrap_or_default();
    assert!(tooltip.contains("d0 → d8") && tooltip.contains("same box also d0 → d12"), "{tooltip}");
    // The toy stacks nothing: no such line.
    let (root, _state, _mounted) = mount_views("toy");
    tick().await;
    let piece = one(&root, "[data-testid=piece][data-src=\"0\"][data-dst=\"3\"]");
    piece.dispatch_event(&web_sys::Event::new("focus").expect("an event")).expect("dispatched");
    tick().await;
    assert!(!one(&root, "[data-testid=piece-tooltip]").text_content().unwrap_or_default().contains("same box"));
}

#[wasm_bindgen_test]
async fn focusing_a_piece_shows_its_tooltip_and_both_devices() {
    let (root, state, _mounted) = mount_views("toy");
    tick().await;
    let piece = one(&root, "[data-testid=piece][data-src=\"1\"][data-dst=\"4\"]");
    piece.dispatch_event(&web_sys::Event::new("focus").expect("an event")).expect("dispatched");
    tick().await;
    assert!(matches!(state.focus.get_untracked(), Focus::Piece(_)));
    let tooltip = one(&root, "[data-testid=piece-tooltip]").text_content().unwrap_or_default();
    assert!(tooltip.contains("d1 → d4"), "{tooltip}");
    assert!(tooltip.contains("offset [4, 3]"), "{tooltip}");
    assert!(tooltip.contains("4 × 3"), "{tooltip}");
    assert!(tooltip.contains("12 entries"), "{tooltip}");
    assert!(tooltip.contains("24 B"), "{tooltip}");
    assert!(tooltip.contains("nvlink (same node)"), "{tooltip}");
    let lit: Vec<(String, String)> = all(&root, "[data-testid=device].is-related")
        .iter()
        .map(|t| (t.get_attribute("data-side").unwrap_or_default(), t.get_attribute("data-device").unwrap_or_default()))
        .collect();
    assert_eq!(lit, [("source".to_string(), "1".to_string()), ("destination".to_string(), "4".to_string())]);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_whole_shard_toggle_hatches_what_the_receiver_discards() {
    let (root, state, _mounted) = mount_views("toy");
    tick().await;
    assert!(root.query_selector("[data-testid=whole-shard]").expect("a valid selector").is_none());
    state.view.update(|v| v.show_whole_shard = true);
    tick().await;
    // d3 receives the three whole 4 × 6 row shards (72 entries) and keeps columns 0..3 of each (36).
    assert_eq!(all(&root, "[data-testid=whole-shard] .tv-discard").len(), 3);
    // Each veiled under its hatch, so that the other receiver's labels there read as set aside.
    assert_eq!(all(&root, "[data-testid=whole-shard] .tv-discard-veil").len(), 3);
    let note = one(&root, "[data-testid=whole-shard-note]").text_content().unwrap_or_default();
    assert_eq!(
        note,
        "Whole shard: d3 receives 3 whole source shards (72 entries) and discards 36 of them (hatched). Hover or \
         focus another destination device to see its transfer."
    );
    // The picture says whose transfer it is: the hatched boxes carry other receivers' labels ("d0 → d4").
    let tags = |root: &Element| -> Vec<String> {
        all(root, "[data-testid=whole-shard-tag]").iter().map(|t| t.text_content().unwrap_or_default()).collect()
    };
    assert_eq!(tags(&root), ["d3 discards", "d3 keeps"]);
    state.focus.set(Focus::Device { side: Side::Destination, device: 4 });
    tick().await;
    assert_eq!(tags(&root), ["d4 discards", "d4 keeps"]);
    root.remove();
}

#[wasm_bindgen_test]
async fn the_large_preset_draws_boundaries_not_a_quarter_million_pieces() {
    // 1024 → 256 devices: 262,144 pieces are aggregated; the SVG stays small.
    let (root, _state, _mounted) = mount_views("large");
    tick().await;
    assert_eq!(all(&root, "[data-testid=piece]").len(), 0);
    let svg_elements = all(&root, ".tensor-svg *").len();
    assert!(svg_elements < 1_000, "{svg_elements} elements in the tensor view");
    // 1024 source devices: drawn as a few paths (one per colour) with one keyboard cursor, not 1024 tiles.
    assert_eq!(all(&root, "[data-testid=device][data-side=source]").len(), 0);
    let source = one(&root, "[data-testid=device-paths-source]");
    assert_eq!(source.get_attribute("data-count").as_deref(), Some("1024"));
    let mesh_elements = all(&root, "[data-testid=mesh-source] svg *").len();
    assert!(mesh_elements < 400, "{mesh_elements} elements in the source mesh");
    // The 256 destination devices too (above 128 a side): a bounded number of elements, one outline path.
    assert_eq!(all(&root, "[data-testid=device]").len(), 0);
    let destination = one(&root, "[data-testid=device-paths-destination]");
    assert_eq!(destination.get_attribute("data-count").as_deref(), Some("256"));
    for side in ["source", "destination"] {
        let outlines = all(&root, &format!("[data-testid=mesh-{side}] .node-outline"));
        assert_eq!(outlines.len(), 1, "the {side} node outlines are one path");
    }
    let mesh_elements = all(&root, "[data-testid=mesh-destination] svg *").len();
    assert!(mesh_elements < 40, "{mesh_elements} elements in the destination mesh");
    let notes = one(&root, ".tv-notes").text_content().unwrap_or_default();
    assert!(notes.contains("262,144 pieces"), "{notes}");
    // The tensor is tinted as the source tiles are shaded: one path per shade, rows from yellow to purple.
    let tint: Vec<String> = all(&root, "[data-testid=tensor-tint] path")
        .iter()
        .map(|p| p.get_attribute("fill").unwrap_or_default())
        .collect();
    assert_eq!(tint, reshard_lens::chart::mesh::POSITION_RAMP.map(String::from).to_vec());
    let legend = one(&root, "[data-testid=tensor-legend]").text_content().unwrap_or_default();
    assert!(legend.contains("each source region shaded as its device's tile"), "{legend}");
    // Both sides shaded by where their regions start (eight source colours repeated over 1024 tiles said
    // nothing, and destination tiles were blank): rows of the source from yellow down to purple, the
    // destination's columns likewise, each shade one path.
    use reshard_lens::chart::mesh::POSITION_RAMP;
    for side in ["source", "destination"] {
        let fills: Vec<String> = all(&root, &format!("[data-testid=device-paths-{side}] .tile-paths-base path"))
            .iter()
            .map(|p| p.get_attribute("fill").unwrap_or_default())
            .collect();
        assert_eq!(fills, POSITION_RAMP.map(String::from).to_vec(), "{side}: in order of first appearance");
    }
    let legend = one(&root, ".mesh-legend").text_content().unwrap_or_default();
    assert!(legend.contains("each shaded by where its region starts"), "{legend}");
    assert!(!legend.contains("its colour is that of the pieces it sends"), "no piece is drawn in a device colour");
    root.remove();
}

#[wasm_bindgen_test]
async fn a_large_mesh_is_walked_with_the_keyboard_cursor() {
    let (root, state, _mounted) = mount_views("large");
    tick().await;
    let cursor = one(&root, "[data-testid=device-cursor][data-side=source]");
    cursor.clone().unchecked_into::<web_sys::SvgElement>().focus().expect("the cursor takes focus");
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Device { side: Side::Source, device: 0 });
    let right = web_sys::KeyboardEventInit::new();
    right.set_key("ArrowRight");
    let event = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &right).expect("an event");
    cursor.dispatch_event(&event).expect("dispatched");
    tick().await;
    assert_eq!(state.focus.get_untracked(), Focus::Device { side: Side::Source, device: 1 });
    assert_eq!(cursor.get_attribute("data-device").as_deref(), Some("1"));
    let name = cursor.get_attribute("aria-label").unwrap_or_default();
    assert!(name.starts_with("Source device d1, node 0, holds offset ["), "{name}");
    // Its partners are outlined: every destination column needs a piece of d1's rows, so the destination's
    // related overlay holds all 256 tiles (one rectangle each in its path).
    let related = all(&root, "[data-testid=device-paths-destination] .tile-path.is-related");
    assert_eq!(related.len(), 8, "one path per shade");
    let rectangles: usize = related.iter().map(|p| p.get_attribute("d").unwrap_or_default().matches('M').count()).sum();
    assert_eq!(rectangles, 256);
    root.remove();
}

#[wasm_bindgen_test]
async fn partial_sums_to_replicas_are_drawn_as_one_box_with_a_deck_of_their_senders() {
    // 4 partial contributors each send the whole 8 × 8 to both replicas: 8 pieces on one box. The box is drawn
    // once, exactly the tensor (not a row of it, not set off), with a deck of 8 cards in its corner, one per
    // piece in its sender's colour, fanned so each can be pointed at.
    let (root, state, _mounted) = mount_views("partial");
    tick().await;
    assert_eq!(all(&root, "[data-testid=piece]").len(), 8, "every piece is still one focusable element");
    let number = |b: &Element, name: &str| b.get_attribute(name).unwrap_or_default().parse::<f64>().expect("a number");
    let boxes = all(&root, "[data-testid=piece] .tv-piece-box");
    assert_eq!(boxes.len(), 1, "the box is drawn once");
    let grid = one(&root, "rect.tv-frame");
    for name in ["x", "y", "width", "height"] {
        assert!((number(&boxes[0], name) - number(&grid, name)).abs() < 0.5, "the box is the whole tensor: {name}");
    }
    let cards = all(&root, "[data-testid=deck-card]");
    assert_eq!(cards.len(), 8);
    for pair in cards.windows(2) {
        assert!(number(&pair[1], "x") > number(&pair[0], "x") + 3.0, "fanned: every card shows a strip");
    }
    let right = |c: &Element| number(c, "x") + number(c, "width");
    assert!(number(&cards[0], "x") >= number(&grid, "x") && right(&cards[7]) <= right(&grid), "inside the box");
    // Each card is in its sender's colour: the colour of the source device its piece comes from.
    let pieces = all(&root, "[data-testid=piece]");
    for card in &cards {
        let index = card.get_attribute("data-piece").unwrap_or_default();
        let piece = one(&root, &format!("[data-testid=piece][data-piece=\"{index}\"]"));
        let src: usize = piece.get_attribute("data-src").unwrap_or_default().parse().expect("a device");
        assert_eq!(card.get_attribute("fill").as_deref(), Some(reshard_lens::chart::palette::device_color(src)));
    }
    // The box is labelled once: who sends to whom on it (partial sums, which the receivers add up), and how
    // many pieces it carries.
    let labels = all(&root, "[data-testid=piece] text");
    let texts: Vec<String> = labels.iter().map(|l| l.text_content().unwrap_or_default()).collect();
    assert_eq!(texts, ["4 partial sums → d4, d5", "8 × 8 · 8 pieces"]);
    // The box is under the deck (it comes first), and entering a piece focuses it. (That the pointer finds
    // each card's strip is checked end to end, with the app's stylesheet: tests/e2e/views.spec.ts.)
    let first_box = boxes[0].compare_document_position(&cards[0]);
    assert!(first_box & web_sys::Node::DOCUMENT_POSITION_FOLLOWING != 0, "the deck is drawn over the box");
    let hit = pieces[5].clone();
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    let enter = web_sys::MouseEvent::new_with_mouse_event_init_dict("mouseover", &init).expect("an event");
    hit.dispatch_event(&enter).expect("dispatched");
    tick().await;
    let index: usize = hit.get_attribute("data-piece").unwrap_or_default().parse().expect("an index");
    assert_eq!(state.focus.get_untracked(), Focus::Piece(index));
    // Four senders: the box is cross-hatched, and the legend says why.
    assert_eq!(boxes[0].get_attribute("class").as_deref(), Some("tv-piece-box is-stacked"));
    let own = |c: &Element| c.get_attribute("class").unwrap_or_default().contains("is-own-colour");
    assert!(!cards.iter().any(own), "no card on its own colour");
    assert!(text_of(&root, "[data-testid=tensor-legend]").contains("cross-hatched when several devices send it"));
    root.remove();

    // FSDP-8 → TP-4 × 2: each row band goes from one source to both replicas: its box keeps its sender's
    // colour, with a deck of two cards.
    let (root, _state, _mounted) = mount_views("fsdp-tp");
    tick().await;
    let boxes = all(&root, "[data-testid=piece] .tv-piece-box");
    assert_eq!(boxes.len(), 8);
    assert_eq!(all(&root, "[data-testid=deck-card]").len(), 16);
    assert_eq!(boxes[0].get_attribute("class").as_deref(), Some("tv-piece-box"));
    assert_eq!(boxes[0].get_attribute("fill").as_deref(), Some(reshard_lens::chart::palette::device_color(0)));
    let first_card = all(&root, "[data-testid=deck-card]").remove(0);
    assert_eq!(first_card.get_attribute("class").as_deref(), Some("tv-deck-card is-own-colour"), "outlined on its box");
    assert!(!text_of(&root, "[data-testid=tensor-legend]").contains("cross-hatched"));
    root.remove();
}

#[wasm_bindgen_test]
async fn a_rank_three_tensor_offers_dim_pickers_and_a_slider_for_the_third_dim() {
    // Rank > 2: two dims are drawn, the third is sliced; moving the slider changes the slice shown.
    let spec = r#"{"tensor": {"name": "experts", "shape": [4, 6, 8], "dtype": "bf16"},
        "source": {"mesh": [2], "placements": ["S(2)"]},
        "destination": {"mesh": [2], "placements": ["S(0)"]}}"#;
    let input = reshard_lens::core::spec::parse_input(spec).expect("a valid spec");
    let root = wrapper();
    let (state_tx, state_rx) = std::sync::mpsc::channel();
    let _mounted = mount_to(root.clone(), move || {
        let state = AppState::new(input);
        provide_context(state);
        let _ = state_tx.send(state);
        view! { <TensorView/> }
    });
    let state = state_rx.recv().expect("the state was provided");
    tick().await;
    assert!(root.query_selector("[data-testid=slice-controls]").expect("a valid selector").is_some());
    let slider = one(&root, "[data-testid=slice-dim-2]");
    assert_eq!(slider.get_attribute("max").as_deref(), Some("7"));
    // Dim 2 is split over the sources at 4: index 0 shows source d0's half only.
    let senders = |root: &Element| -> Vec<String> {
        let mut s: Vec<String> =
            all(root, "[data-testid=piece]").iter().map(|p| p.get_attribute("data-src").unwrap_or_default()).collect();
        s.dedup();
        s
    };
    assert_eq!(senders(&root), ["0"]);
    state.view.update(|v| v.slice[2] = 6);
    tick().await;
    assert_eq!(senders(&root), ["1"]);

    // A view no tensor can have (as a link or an undo step may bring): fitted, never drawn as asked.
    state.view.update(|v| v.slice[2] = 100);
    tick().await;
    assert_eq!(state.view.get_untracked().slice, [0, 0, 7], "within dim 2's 8 entries");
    state.view.update(|v| v.col_dim = v.row_dim);
    tick().await;
    assert_eq!(state.view.with_untracked(|v| (v.row_dim, v.col_dim)), (0, 1), "rows and columns on one dim");
    state.view.update(|v| v.row_dim = 5);
    tick().await;
    assert_eq!(state.view.with_untracked(|v| (v.row_dim, v.col_dim, v.slice.clone())), (0, 1, vec![0, 0, 0]));
    assert!(!all(&root, "[data-testid=piece]").is_empty());
    root.remove();
}

#[wasm_bindgen_test]
async fn mismatching_entries_of_a_faulty_check_are_drawn_in_red() {
    // An off-by-one offset in one piece: the check reports mismatching cells, the view marks them.
    use reshard_lens::core::{
        plan::{Strategy, plan},
        verify::{Fault, VerifyOptions, verify},
    };
    let (root, state, _mounted) = mount_views("toy");
    tick().await;
    assert!(root.query_selector("[data-testid=mismatch-cell]").expect("a valid selector").is_none());
    let toy = state.reshard.get_untracked();
    let the_plan = plan(&toy, Strategy::Intersection).expect("the toy plans");
    let checked = verify(&toy, &the_plan, VerifyOptions { fault: Some(Fault::Offset), ..VerifyOptions::default() })
        .expect("the check runs");
    assert!(!checked.passed());
    let reported = checked.mismatches.len();
    state.verification.set(Some(Ok(checked)));
    tick().await;
    assert_eq!(all(&root, "[data-testid=mismatch-cell]").len(), reported);
    assert!(one(&root, "[data-testid=tensor-legend]").text_content().unwrap_or_default().contains("mismatching entry"));
    root.remove();
}
