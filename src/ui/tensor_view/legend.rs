//! The tensor view's legend: every colour and line style the picture uses, and only those.

use leptos::prelude::*;

use super::{SceneMemo, whole_shard::WholeShardTransfer};
use crate::chart::{
    boxes::PixelRect,
    palette::{PALETTE, device_color},
};
use crate::ui::AppState;

/// The legend under the picture.
#[component]
pub fn Legend(
    /// The scene being drawn.
    scene: SceneMemo,
    /// The whole-shard transfer shown, if the toggle is on.
    transfer: Memo<Option<WholeShardTransfer>>,
    /// Mismatches in view, and the count outside the slice.
    mismatches: Memo<(Vec<PixelRect>, usize)>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let colours = move || {
        let sources: Vec<u32> = state.reshard.with(|r| r.source_mesh.devices.clone());
        // Only the colours drawn: a source with an empty shard, or a replica the plan does not read from,
        // sends nothing and has no swatch (the empty-shard note names it). With the pieces kept but not drawn
        // one by one (aggregated; a focused device's pieces are drawn), every source is listed.
        let sends = |d: u32| scene.with(|s| s.pieces.is_empty() || s.pieces.iter().any(|p| p.src == d));
        // An aggregated picture's tint: by device colour, or on a source mesh drawn as paths by where each
        // region starts, as the mesh view shades its tiles.
        let tinted = scene.with(|s| !s.tint.is_empty());
        let ramp = tinted && sources.len() > crate::chart::mesh::TILE_ELEMENTS_MAX;
        let ramp_item = ramp.then(|| {
            let text = "faint: each source region shaded as its device's tile, by where it starts (yellow first, \
                        purple last)";
            view! { <LegendItem kind="ramp" fill="" text=text.to_string()/> }
        });
        // Boundaries alone (too many pieces to keep, and no tint in device colours): no device colour is
        // drawn, so none is explained.
        let items = if scene.with(|s| s.pieces.is_empty() && !s.pieces_kept) && (!tinted || ramp) {
            Vec::new()
        } else if sources.len() <= PALETTE.len() {
            sources
                .iter()
                .enumerate()
                .filter(|&(_, &d)| sends(d))
                .map(|(i, d)| view! { <LegendItem kind="swatch" fill=device_color(i) text=format!("from d{d}")/> })
                .collect::<Vec<_>>()
        } else {
            vec![view! {
                <LegendItem kind="palette" fill="" text=format!("from source device (the {} colours repeat; labels and tooltips name the device)", PALETTE.len())/>
            }]
        };
        items.into_iter().chain(ramp_item).collect::<Vec<_>>()
    };
    view! {
        <ul class="legend tv-legend" aria-label="Legend of the tensor view" data-testid="tensor-legend">
            {colours}
            <LegendItem kind="solid" fill="" text="source shard boundary".to_string()/>
            {move || scene.with(|s| s.source_groups.as_ref().map(|(name, _)| name.clone())).map(|name| view! {
                <LegendItem kind="group" fill="" text=format!("heavier: between the source's {name} groups (the devices that share a {name} index)")/>
            })}
            <LegendItem kind="dashed" fill="" text="destination shard boundary".to_string()/>
            {move || scene.with(|s| s.destination_groups.as_ref().map(|(name, _)| name.clone())).map(|name| view! {
                <LegendItem kind="dashed-group" fill="" text=format!("heavier dashes: between the destination's {name} groups")/>
            })}
            {move || scene.with(|s| s.draws_cells).then(|| view! { <LegendItem kind="cell" fill="" text="one entry (a square of the grid)".to_string()/> })}
            {move || scene.with(|s| s.pieces.iter().any(|p| p.local)).then(|| view! {
                <LegendItem kind="local" fill="" text="faded: a local copy, on the device that holds it (crosses no link)".to_string()/>
            })}
            {move || scene.with(|s| s.stacked).then(|| {
                let mixed = scene.with(|s| s.pieces.iter().any(|p| p.deck.is_some_and(|d| d.mixed)));
                let text = format!(
                    "a box sent whole to several devices, or by several (replicas, partial sums): one small card per piece, in its sender's colour{}",
                    if mixed { "; cross-hatched when several devices send it" } else { "" }
                );
                // The drawing matches the boxes: cross-hatched under several senders' cards, or one sender's colour.
                let fill = if mixed { "" } else { device_color(0) };
                view! { <LegendItem kind="stack" fill=fill text=text/> }
            })}
            {move || transfer.with(|t| t.is_some()).then(|| view! {
                <LegendItem kind="hatch" fill="" text="sent whole, discarded by the receiver".to_string()/>
            })}
            {move || mismatches.with(|m| !m.0.is_empty() || m.1 > 0).then(|| view! {
                <LegendItem kind="mismatch" fill="" text="mismatching entry".to_string()/>
            })}
        </ul>
    }
}

/// One legend entry: a small drawing and its meaning.
#[component]
pub fn LegendItem(
    /// Which drawing: `swatch` (uses `fill`), `palette`, `ramp`, `solid`, `group`, `dashed`, `cell`, `stack`, `local`, `hatch`,
    /// `mismatch`.
    kind: &'static str,
    /// The swatch's colour, for `swatch`; for `stack`, the one sender's colour (empty: several senders).
    fill: &'static str,
    /// What it means.
    text: String,
    /// For `palette`: how many of its colours are in use (all when absent), so three source devices show
    /// three colours, not eight.
    #[prop(optional)]
    colours: Option<usize>,
) -> impl IntoView {
    let in_use = colours.unwrap_or(PALETTE.len()).clamp(1, PALETTE.len());
    let drawing = match kind {
        "swatch" => view! { <rect class="lg-swatch" x=1.0 y=1.0 width=20.0 height=12.0 rx=2.0 fill=fill/> }.into_any(),
        "palette" => PALETTE[..in_use]
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let width = 24.0 / in_use as f64;
                view! { <rect x=i as f64 * width y=1.0 width=width height=12.0 fill=*c/> }
            })
            .collect::<Vec<_>>()
            .into_any(),
        // A large mesh's shades, first to last.
        "ramp" => crate::chart::mesh::POSITION_RAMP
            .iter()
            .enumerate()
            .map(|(i, c)| view! { <rect x=i as f64 * 3.0 y=1.0 width=3.0 height=12.0 fill=*c/> })
            .collect::<Vec<_>>()
            .into_any(),
        "solid" => view! { <line class="tv-src-line" x1=0.0 y1=7.0 x2=22.0 y2=7.0/> }.into_any(),
        "group" => view! { <line class="tv-src-group-line" x1=0.0 y1=7.0 x2=22.0 y2=7.0/> }.into_any(),
        "dashed" => view! { <line class="tv-dst-line" x1=0.0 y1=7.0 x2=22.0 y2=7.0/> }.into_any(),
        "dashed-group" => view! { <line class="tv-dst-group-line" x1=0.0 y1=7.0 x2=22.0 y2=7.0/> }.into_any(),
        // Four entries of a piece, as the picture draws them (one faint square alone was invisible).
        "cell" => view! {
            <rect class="lg-cell" x=4.0 y=1.0 width=14.0 height=12.0/>
            <path class="lg-cell-grid" d="M11 1V13M4 7H18"/>
        }
        .into_any(),
        // `fill` empty: a cross-hatched box and cards of three senders; else a box and two cards of that colour.
        "stack" if fill.is_empty() => view! {
            <rect class="tv-piece-box is-stacked" x=0.5 y=0.5 width=22.0 height=13.0/>
            <rect class="tv-deck-tray" x=1.5 y=1.5 width=14.0 height=10.0 rx=1.5/>
            <rect class="tv-deck-card" x=2.5 y=2.5 width=6.0 height=8.0 rx=1.0 fill=device_color(0)/>
            <rect class="tv-deck-card" x=5.5 y=2.5 width=6.0 height=8.0 rx=1.0 fill=device_color(1)/>
            <rect class="tv-deck-card" x=8.5 y=2.5 width=6.0 height=8.0 rx=1.0 fill=device_color(2)/>
        }
        .into_any(),
        "stack" => view! {
            <rect class="tv-piece-box" x=0.5 y=0.5 width=22.0 height=13.0 fill=fill/>
            <rect class="tv-deck-tray" x=1.5 y=1.5 width=11.0 height=10.0 rx=1.5/>
            <rect class="tv-deck-card" x=2.5 y=2.5 width=6.0 height=8.0 rx=1.0 fill=fill/>
            <rect class="tv-deck-card" x=5.5 y=2.5 width=6.0 height=8.0 rx=1.0 fill=fill/>
        }
        .into_any(),
        "local" => view! { <rect class="lg-swatch" x=1.0 y=1.0 width=20.0 height=12.0 rx=2.0 fill=device_color(0) fill-opacity="0.4"/> }
            .into_any(),
        "hatch" => view! { <rect class="tv-discard lg-outline" x=1.0 y=1.0 width=20.0 height=12.0/> }.into_any(),
        "mismatch" => view! { <rect class="tv-mismatch" x=6.0 y=2.0 width=10.0 height=10.0/> }.into_any(),
        _ => ().into_any(),
    };
    view! {
        <li class="legend-item">
            <svg class="legend-mark" width="22" height="14" viewBox="0 0 22 14" aria-hidden="true">{drawing}</svg>
            <span>{text}</span>
        </li>
    }
}
