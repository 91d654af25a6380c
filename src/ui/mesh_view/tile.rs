//! One device tile: its id, a thumbnail of the region it holds, a replica or partial badge; focusable.
//! Tiles carry no event listeners of their own: the mesh listens once for all of them (`mesh.rs`), which
//! keeps a mesh of a thousand tiles quick to redraw.

use leptos::prelude::*;

use super::layout::TileSpec;
use crate::ui::tensor_view::hover::side_name;
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

/// One tile.
#[component]
pub fn Tile(
    /// The tile, laid out.
    tile: TileSpec,
    /// Which mesh it belongs to.
    side: Side,
    /// The tile that takes Tab focus in this mesh (roving tabindex: one Tab stop per mesh).
    roving: RwSignal<usize>,
    /// Devices related to the focus, sorted.
    related: Memo<Vec<(bool, u32)>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let aria = tile.aria();
    let TileSpec { device, flat, rect, fill, ink, label, badge, thumbnail, .. } = tile;
    let class = move || related.with(|r| tile_class(state.focus.get(), r, side, device));
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
        >
            <rect class=fill_class x=rect.x y=rect.y width=rect.width height=rect.height rx=(rect.width * 0.12).min(4.0) fill=fill.unwrap_or("none")/>
            {label_view}
            {badge_view}
            {thumb_view}
        </g>
    }
}
