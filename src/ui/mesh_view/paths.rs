//! A large mesh (more tiles than [`crate::chart::mesh::TILE_ELEMENTS_MAX`]) drawn with a bounded number of elements: one path
//! per device colour, the related tiles and the focused tile as overlays, and one focusable cursor that the
//! arrow keys move from device to device (the roving tab stop of a small mesh). The pointer is read by
//! position rather than by a listener on every tile.
//!
//! Why: a thousand tiles as elements took most of an edit's time on the large preset (every tile's region,
//! and so its tile, changes when the mesh does).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::layout::MeshLayout;
use crate::chart::mesh::{is_tile_key, next_tile, paths_by_fill, tile_at};
use crate::ui::tensor_view::hover::{
    let_go_on_escape, pointer_wins, restore_keyboard_focus, set_focus, side_name, take_back,
};
use crate::ui::{AppState, Focus, Fresh, Side, keyed::keyed};

/// The device under the pointer, read from the event's position in the mesh's SVG, which is drawn scaled
/// down when the mesh is wider than its column (`max-width: 100%`).
fn device_under(ev: &web_sys::MouseEvent, layout: Memo<Fresh<MeshLayout>>) -> Option<u32> {
    let svg = ev.current_target()?.dyn_into::<web_sys::Element>().ok()?.closest("svg").ok()??;
    let bounds = svg.get_bounding_client_rect();
    layout.with_untracked(|l| {
        let scale = l.width / bounds.width();
        if !scale.is_finite() {
            return None;
        }
        let x = (f64::from(ev.client_x()) - bounds.left()) * scale;
        let y = (f64::from(ev.client_y()) - bounds.top()) * scale;
        tile_at(l.tiles.iter().map(|t| t.rect), x, y).and_then(|i| l.tiles.get(i)).map(|t| t.device)
    })
}

/// The class of a colour's path: source devices in their colour, destination devices neutral.
fn path_class(fill: Option<&'static str>, extra: &'static str) -> String {
    let base = if fill.is_some() { "tile-box" } else { "tile-box is-neutral" };
    format!("{base} {extra}")
}

/// One mesh's tiles as paths, with its highlights and keyboard cursor.
#[component]
pub fn TilePaths(
    /// Which mesh.
    side: Side,
    /// The mesh, laid out.
    layout: Memo<Fresh<MeshLayout>>,
    /// The tile the keyboard is on.
    roving: RwSignal<usize>,
    /// Devices related to the focus, sorted.
    related: Memo<Vec<(bool, u32)>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let on_destination = side == Side::Destination;
    let base = move || layout.with(|l| paths_by_fill(l.tiles.iter().map(|t| (t.rect, t.fill))));
    let related_paths = move || {
        related.with(|r| {
            layout.with(|l| {
                paths_by_fill(
                    l.tiles
                        .iter()
                        .filter(|t| r.binary_search(&(on_destination, t.device)).is_ok())
                        .map(|t| (t.rect, t.fill)),
                )
            })
        })
    };
    let focused = move || match state.focus.get() {
        Focus::Device { side: s, device } if s == side => {
            layout.with(|l| l.tiles.iter().find(|t| t.device == device).map(|t| t.rect))
        }
        _ => None,
    };
    // The cursor: the tile the keyboard is on (kept inside the mesh when it shrinks).
    let cursor = move || layout.with(|l| l.tiles.get(roving.get().min(l.tiles.len().saturating_sub(1))).cloned());
    let cursor_device = move || cursor().map(|t| t.device);
    let focus_cursor = move || {
        if let Some(device) = cursor_device() {
            set_focus(state, Focus::Device { side, device });
        }
    };
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if let_go_on_escape(&ev, state) {
            return;
        }
        let key = ev.key();
        if is_tile_key(&key) {
            ev.prevent_default();
        }
        let next = layout.with_untracked(|l| next_tile(roving.get_untracked(), &key, &l.grid, l.tiles.len()));
        if let Some(next) = next {
            roving.set(next);
            let cursor = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            // The cursor is one element: moved after an Escape, it stands for its device again.
            if let Some(cursor) = &cursor {
                take_back(cursor);
            }
            focus_cursor();
            // The cursor may have left the screen (End on a 1,024-device mesh): bring it back once moved.
            if let Some(cursor) = cursor {
                crate::ui::focus::after_render(move |_| {
                    let options = web_sys::ScrollIntoViewOptions::new();
                    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
                    options.set_inline(web_sys::ScrollLogicalPosition::Nearest);
                    cursor.scroll_into_view_with_scroll_into_view_options(&options);
                });
            }
        }
    };
    let rect = move |f: fn(&crate::chart::boxes::PixelRect) -> f64| cursor().map_or(0.0, |t| f(&t.rect));
    view! {
        <g
            class="tile-paths"
            data-testid=format!("device-paths-{}", side_name(side))
            data-count=move || layout.with(|l| l.tiles.len())
            on:mousemove=move |ev| {
                if let Some(device) = device_under(&ev, layout).filter(|_| pointer_wins(&ev)) {
                    set_focus(state, Focus::Device { side, device });
                }
            }
            on:mouseleave=move |_| restore_keyboard_focus(state)
        >
            <g class="tile-paths-base" aria-hidden="true">
                {keyed(base, |(fill, d)| view! { <path class=path_class(fill, "tile-path") d=d fill=fill.unwrap_or("none")/> })}
            </g>
            <g class="tile-paths-related" aria-hidden="true">
                {keyed(related_paths, |(fill, d)| {
                    view! { <path class=path_class(fill, "tile-path is-related") d=d fill=fill.unwrap_or("none")/> }
                })}
            </g>
            {move || focused().map(|r| {
                view! { <rect class="tile-path-focus" x=r.x y=r.y width=r.width height=r.height aria-hidden="true"/> }
            })}
            <rect
                class="tile-cursor"
                data-testid="device-cursor"
                data-side=side_name(side)
                data-device=move || cursor_device().map(|d| d.to_string())
                // A picture with a name, as a piece is: a button promised an action Enter did not take.
                role="img"
                tabindex="0"
                aria-label=move || cursor().map(|t| format!("{} (arrow keys: other devices)", t.aria()))
                x=move || rect(|r| r.x)
                y=move || rect(|r| r.y)
                width=move || rect(|r| r.width)
                height=move || rect(|r| r.height)
                on:focus=move |_| focus_cursor()
                on:blur=move |_| set_focus(state, Focus::Nothing)
                on:keydown=on_key
            />
        </g>
    }
}
