//! The tensor view: the logical tensor in a 2-D slice, source shard boundaries solid, destination shard
//! boundaries dashed, and every piece filled in its sender's colour where its receiver keeps it. On demand
//! it also draws the whole-shard transfer (what a receiver discards, hatched) and the mismatching entries
//! of the last check (red).
//!
//! The scene (what is drawn, in pixels) is a `Memo` built once per change of the plan, the regions or the
//! view choice ([`scene::build`]); hovering only flips classes, and draws at most the focused device's
//! pieces when the plan is too large to draw piece by piece.

mod boundaries;
mod grid;
mod highlight;
pub(crate) mod hover;
mod legend;
mod mismatches;
mod notes;
mod order_toggle;
mod pieces;
pub mod scene;
mod slice_controls;
mod tooltip;
pub mod whole_shard;

pub(crate) use notes::describe_device;

use std::sync::Arc;

use leptos::prelude::*;

use crate::chart::aggregate::PIECE_BUDGET;
use crate::core::plan::{Piece, PieceRole, Strategy};
use crate::ui::{AppState, Focus, Fresh, Side, format_shape};
use scene::{DrawnPiece, MARGIN_TOP, TensorScene};

pub(crate) use legend::LegendItem;

/// Provided where the tensor view is shown without the mesh view (an embed of the tensor alone): no
/// device can be focused there, so the focus line does not offer one.
#[derive(Clone, Copy)]
pub struct WithoutDevices;

/// The scene every layer of the picture reads.
pub type SceneMemo = Memo<Fresh<TensorScene>>;
/// The focused device's pieces, drawn when the scene is aggregated.
pub type FocusPieces = Memo<Fresh<Vec<DrawnPiece>>>;

/// The widest the tensor's frame may be on this window, followed through resizes: narrower only on a phone
/// ([`crate::chart::tensor::frame_width_for_screen`]), so that elsewhere a resize re-lays nothing out.
fn frame_width() -> Memo<f64> {
    let inner = || web_sys::window().and_then(|w| w.inner_width().ok()).and_then(|w| w.as_f64()).unwrap_or(0.0);
    let px = RwSignal::new(inner());
    let resized = window_event_listener(leptos::ev::resize, move |_| px.set(inner()));
    on_cleanup(move || resized.remove());
    Memo::new(move |_| crate::chart::tensor::frame_width_for_screen(px.get(), scene::MAX_WIDTH))
}

/// The tensor view: header with the whole-shard toggle, slice controls, the picture, notes and legend.
#[component]
pub fn TensorView() -> impl IntoView {
    let state = expect_context::<AppState>();
    hover::follow_pointer();
    pieces::provide_focus_keys(state);
    provide_context(highlight::FocusedBox(RwSignal::new(None)));
    let widest = frame_width();
    let scene: SceneMemo = Memo::new(move |_| {
        let widest = widest.get();
        Fresh(Arc::new(crate::ui::timing::measured("tensor scene", || {
            state.reshard.with(|r| {
                state.view.with(|v| {
                    state.regions.with(|g| {
                        state.summary.with(|s| state.with_drawn_pieces(|p| scene::build(r, v, g, s, p, widest)))
                    })
                })
            })
        })))
    });
    let focus_pieces = focus_pieces(state, scene);
    let transfer = Memo::new(move |_| whole_shard::transfer(state, scene));
    let mismatches = Memo::new(move |_| mismatches::mismatch_rects(state, scene));
    let size = move || scene.with(|s| s.size());
    // The picture's box scrolls sideways when the picture is wider (a phone): the tooltip stays in the part
    // in sight, placed again when it scrolls.
    let picture = NodeRef::<leptos::html::Div>::new();
    let scrolled = RwSignal::new(0u32);
    let subtitle = move || {
        scene.with(|s| {
            let mut text = format!("{} · {}", s.tensor_name, format_shape(&s.shape));
            if s.shape.len() > 2 {
                let fixed: Vec<String> = (0..s.shape.len())
                    .filter(|&d| d != s.slice.row_dim && d != s.slice.col_dim)
                    .map(|d| format!("dim {d} = {}", s.slice.index.get(d).copied().unwrap_or(0)))
                    .collect();
                text.push_str(&format!(" · slice at {}", fixed.join(", ")));
            }
            text
        })
    };
    let aria = move || {
        scene.with(|s| {
            format!(
                "The tensor {}: {} pieces drawn; source boundaries solid, destination boundaries dashed",
                s.tensor_name,
                s.pieces.len()
            )
        })
    };
    // Clearly taller than wide: on a projector's slide such a picture is as tall as the screen and leaves
    // room at its side, where its notes and legend go (views.css) instead of under it, below the fold.
    let portrait = move || {
        let (width, height) = size();
        width <= height * 0.8
    };
    let (figure, below) = crate::ui::present::room_below_on_slide(".tv-picture");
    view! {
        <figure class="tensor-view" class:is-portrait=portrait data-testid="tensor-view" node_ref=figure style:--below-tensor=below>
            <div class="view-header">
                <h3 class="view-title">"The tensor " <span class="view-subtitle">{subtitle}</span></h3>
                <div class="view-toggles">
                    <whole_shard::WholeShardToggle testid="whole-shard-toggle" label="Show the whole-shard transfer"/>
                    <order_toggle::OrderToggles/>
                </div>
            </div>
            <slice_controls::SliceControls/>
            <div class="tv-picture" node_ref=picture on:scroll=move |_| scrolled.update(|n| *n = n.wrapping_add(1))>
                <svg
                    class="tensor-svg"
                    role="group"
                    aria-label=aria
                    width=move || size().0
                    height=move || size().1
                    viewBox=move || format!("0 0 {} {}", size().0, size().1)
                    // The drawn size, for scaling the picture to the screen while presenting (views.css).
                    style:--drawn-w=move || size().0.to_string()
                    style:--drawn-h=move || size().1.to_string()
                >
                    <defs>
                        <pattern id="tv-hatch" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
                            <line class="tv-hatch-line" x1="0" y1="0" x2="0" y2="6"/>
                        </pattern>
                        // A box several devices send (partial contributors): cross-hatched, unlike the empty
                        // background and unlike any device's colour.
                        <pattern id="tv-mixed" patternUnits="userSpaceOnUse" width="10" height="10" patternTransform="rotate(45)">
                            <rect class="tv-mixed-ground" x="0" y="0" width="10" height="10"/>
                            <path class="tv-mixed-line" d="M0 0V10M0 0H10"/>
                        </pattern>
                    </defs>
                    <grid::Axes scene=scene/>
                    <g transform=move || format!("translate({} {MARGIN_TOP})", scene.with(|s| s.margin_left()))>
                        <grid::Grid scene=scene/>
                        <pieces::Tint scene=scene/>
                        <pieces::Pieces scene=scene focus_pieces=focus_pieces transfer=transfer/>
                        <grid::Cells scene=scene/>
                        <pieces::Decks scene=scene focus_pieces=focus_pieces/>
                        <whole_shard::WholeShard scene=scene transfer=transfer/>
                        // The red cells under the shard boundaries: over them, they hid where a piece ends.
                        <mismatches::Mismatches mismatches=mismatches scene=scene/>
                        <boundaries::Boundaries scene=scene/>
                        <highlight::FocusRegion scene=scene/>
                        <highlight::FocusRing scene=scene/>
                    </g>
                    <tooltip::Tooltip scene=scene focus_pieces=focus_pieces picture=picture scrolled=scrolled/>
                </svg>
            </div>
            <notes::Notes scene=scene transfer=transfer mismatches=mismatches/>
            <legend::Legend scene=scene transfer=transfer mismatches=mismatches/>
        </figure>
    }
}

/// When the scene is aggregated: the pieces of the focused device (if the plan's pieces are kept), at most
/// [`PIECE_BUDGET`]. Hovering one of them keeps them drawn (the focus moves to a piece of that device).
fn focus_pieces(state: AppState, scene: SceneMemo) -> FocusPieces {
    Memo::new(move |previous: Option<&Fresh<Vec<DrawnPiece>>>| {
        let empty = || Fresh(Arc::new(Vec::new()));
        if !scene.with(|s| s.aggregated.is_some() && s.pieces_kept) {
            return empty();
        }
        let focus = state.focus.get();
        if let (Focus::Piece(i), Some(previous)) = (focus, previous)
            && previous.iter().any(|p| p.index == i)
        {
            return previous.clone();
        }
        let Focus::Device { side, device } = focus else { return empty() };
        let tensor = state.view.with_untracked(|v| v.tensor);
        let gather = state.summary.with(|s| s.as_ref().is_ok_and(|s| s.strategy == Strategy::Gather));
        state.with_drawn_pieces(|pieces| {
            let Some(pieces) = pieces else { return empty() };
            let mine = |p: &Piece| match side {
                Side::Source => p.src == device,
                Side::Destination => p.dst == device,
            };
            let shown: Vec<(usize, &Piece)> = pieces
                .iter()
                .enumerate()
                .filter(|(_, p)| p.tensor == tensor && mine(p) && !(gather && p.role == PieceRole::RingHop))
                .take(PIECE_BUDGET)
                .collect();
            Fresh(Arc::new(scene.with(|s| scene::draw_pieces(s, &shown))))
        })
    })
}
