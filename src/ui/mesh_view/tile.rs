//! One device tile: its id, a thumbnail of the region it holds, a replica or partial badge; focusable.
//! Tiles carry no event listeners of their own: the mesh listens once for all of them (`mesh.rs`), which
//! keeps a mesh of a thousand tiles quick to redraw.
//!
//! What a tile holds changes with nearly every edit (one device more on the other side moves every
//! boundary) while its place, colour and name rarely do: the tile is built from the parts that rarely
//! change (see [`TileSpec::frame`]) and reads what it holds (its thumbnail's region, its accessible name)
//! from the mesh's layout, updating those attributes in place.

use leptos::prelude::*;

use super::layout::{MeshLayout, TileSpec};
use crate::chart::boxes::PixelRect;
use crate::ui::tensor_view::hover::side_name;
use crate::ui::{AppState, Focus, Fresh, Side};

/// How far inside its tile the focused tile's inner ring is drawn, in drawn pixels.
const RING_INSET: f64 = 3.0;

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
    /// The tile, laid out, without what it holds ([`TileSpec::frame`]).
    tile: TileSpec,
    /// The mesh's layout, read for what the tile at `tile.flat` holds.
    layout: Memo<Fresh<MeshLayout>>,
    /// Which mesh it belongs to.
    side: Side,
    /// The tile that takes Tab focus in this mesh (roving tabindex: one Tab stop per mesh).
    roving: RwSignal<usize>,
    /// Devices related to the focus, sorted.
    related: Memo<Vec<(bool, u32)>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let TileSpec { device, flat, rect, fill, ink, label, badge, thumbnail, .. } = tile;
    let aria = move || layout.with(|l| l.tiles.get(flat).map(TileSpec::aria));
    let inside_at =
        move |f: fn(PixelRect) -> f64| move || layout.with(|l| l.tiles.get(flat).and_then(|t| t.thumbnail?.1)).map(f);
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
    let thumb_view = thumbnail.map(|(frame, _)| {
        // Without a region (nothing held) the rect has no size and draws nothing.
        view! {
            <rect class="tile-thumb" x=frame.x y=frame.y width=frame.width height=frame.height stroke=ink/>
            <rect
                class="tile-region"
                x=inside_at(|r| r.x)
                y=inside_at(|r| r.y)
                width=inside_at(|r| r.width)
                height=inside_at(|r| r.height)
                fill=ink
            />
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
            // A picture with a name, as a piece is (it was a button, whose Enter did nothing).
            role="img"
            tabindex=move || if roving.get() == flat { "0" } else { "-1" }
            aria-label=aria
        >
            <rect class=fill_class x=rect.x y=rect.y width=rect.width height=rect.height rx=(rect.width * 0.12).min(4.0) fill=fill.unwrap_or("none")/>
            // The focused tile's inner ring (views.css shows it): a light line inside its accent stroke, which
            // alone was hard to tell from the dark stroke of the devices related to it. Inside, as tiles stand
            // only 3 px apart.
            <rect
                class="tile-ring"
                x=rect.x + RING_INSET
                y=rect.y + RING_INSET
                width=(rect.width - 2.0 * RING_INSET).max(0.0)
                height=(rect.height - 2.0 * RING_INSET).max(0.0)
                rx=((rect.width * 0.12).min(4.0) - 1.0).max(0.0)
            />
            {label_view}
            {badge_view}
            {thumb_view}
        </g>
    }
}
