//! One device tile: its id, a thumbnail of the region it holds, a replica or partial badge; focusable.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::layout::TileSpec;
use crate::ui::tensor_view::hover::{restore_keyboard_focus, set_focus, side_name};
use crate::ui::{AppState, Focus, Side};

/// How a tile relates to the focus.
pub fn tile_class(focus: Focus, related: &[(bool, u32)], side: Side, device: u32) -> &'static str {
    if focus == (Focus::Device { side, device }) {
        "tile is-focus"
    } else if related.binary_search(&(side == Side::Destination, device)).is_ok() {
        "tile is-related"
    } else {
        "tile"
    }
}

/// Moves keyboard focus to the tile at `flat` in the same mesh (arrow keys).
fn focus_tile(from: &web_sys::Element, flat: usize) {
    let target = from
        .parent_element()
        .and_then(|group| group.query_selector(&format!("[data-flat=\"{flat}\"]")).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok());
    if let Some(target) = target {
        let _ = target.focus();
    }
}

/// One tile.
#[component]
pub fn Tile(
    /// The tile, laid out.
    tile: TileSpec,
    /// Which mesh it belongs to.
    side: Side,
    /// Rows and columns of its mesh's grid, and its device count (for arrow-key moves).
    grid: (usize, usize, usize),
    /// The tile that takes Tab focus in this mesh (roving tabindex: one Tab stop per mesh).
    roving: RwSignal<usize>,
    /// Devices related to the focus, sorted.
    related: Memo<Vec<(bool, u32)>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let TileSpec { device, flat, rect, fill, ink, label, badge, thumbnail, aria } = tile;
    let focus = Focus::Device { side, device };
    let class = move || related.with(|r| tile_class(state.focus.get(), r, side, device));
    let (rows, cols, count) = grid;
    let on_key = move |ev: web_sys::KeyboardEvent| {
        let row = flat / cols;
        let next = match ev.key().as_str() {
            "ArrowRight" => Some(flat + 1),
            "ArrowLeft" => flat.checked_sub(1),
            "ArrowDown" if row + 1 < rows => Some(flat + cols),
            "ArrowUp" => flat.checked_sub(cols),
            "Home" => Some(0),
            "End" => Some(count.saturating_sub(1)),
            _ => None,
        };
        if let Some(next) = next.filter(|&n| n < count) {
            ev.prevent_default();
            if let Some(el) = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                focus_tile(&el, next);
            }
        }
    };
    let label_view = label.map(|text| {
        let big = thumbnail.is_some();
        let (x, y, anchor) = if big {
            (rect.x + 5.0, rect.y + 13.0, "start")
        } else {
            (rect.x + rect.width / 2.0, rect.y + rect.height / 2.0 + 4.0, "middle")
        };
        view! { <text class="tile-label" x=x y=y text-anchor=anchor fill=ink>{text}</text> }
    });
    let badge_view = badge.map(|text| {
        view! { <text class="tile-badge" x=rect.x + rect.width - 4.0 y=rect.y + 13.0 text-anchor="end" fill=ink>{text}</text> }
    });
    let thumb_view = thumbnail.map(|(frame, inside)| {
        let region =
            inside.map(|r| view! { <rect class="tile-region" x=r.x y=r.y width=r.width height=r.height fill=ink/> });
        view! {
            <rect class="tile-thumb" x=frame.x y=frame.y width=frame.width height=frame.height stroke=ink/>
            {region}
        }
    });
    let fill_class = if fill.is_some() { "tile-box" } else { "tile-box is-neutral" };
    view! {
        <g
            class=class
            data-testid="device"
            data-side=side_name(side)
            data-device=device.to_string()
            data-flat=flat.to_string()
            role="button"
            tabindex=move || if roving.get() == flat { "0" } else { "-1" }
            aria-label=aria
            on:mouseenter=move |_| set_focus(state, focus)
            on:mouseleave=move |_| restore_keyboard_focus(state)
            on:focus=move |_| {
                roving.set(flat);
                set_focus(state, focus);
            }
            on:blur=move |_| set_focus(state, Focus::Nothing)
            on:keydown=on_key
        >
            <rect class=fill_class x=rect.x y=rect.y width=rect.width height=rect.height rx=(rect.width * 0.12).min(4.0) fill=fill.unwrap_or("none")/>
            {label_view}
            {badge_view}
            {thumb_view}
        </g>
    }
}
