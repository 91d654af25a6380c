//! The mesh view: both meshes as device tiles in their mesh shape, grouped by node. Hovering or focusing a
//! tile highlights the device's region and pieces in the tensor view; focusing a piece highlights its two
//! devices here.

pub mod layout;
mod mesh;
mod paths;
mod tile;

use leptos::prelude::*;

use crate::chart::mesh::TILE_ELEMENTS_MAX;
use crate::ui::{AppState, Focus, Side, tensor_view::LegendItem};

/// The devices that relate to the focus, as `(on the destination side, device)`, sorted: a piece's sender and receiver, or the partners of a
/// focused device (when the plan's pieces are kept; one filter over them per focus change).
fn related_devices(state: AppState) -> Memo<Vec<(bool, u32)>> {
    Memo::new(move |_| {
        let focus = state.focus.get();
        let (in_source, in_destination) = state.reshard.with(|r| {
            let source: std::collections::HashSet<u32> = r.source_mesh.devices.iter().copied().collect();
            let destination: std::collections::HashSet<u32> = r.destination_mesh.devices.iter().copied().collect();
            (source, destination)
        });
        let mut related: Vec<(bool, u32)> = state.with_drawn_pieces(|pieces| {
            let Some(pieces) = pieces else {
                return overlapping_devices(state, focus);
            };
            let ends = |src: u32, dst: u32| {
                // Keyed by "is on the destination side", so the list sorts.
                let src_side = !in_source.contains(&src);
                let dst_side = in_destination.contains(&dst);
                [(src_side, src), (dst_side, dst)]
            };
            match focus {
                Focus::Nothing => Vec::new(),
                Focus::Piece(i) => pieces.get(i).map(|p| ends(p.src, p.dst).to_vec()).unwrap_or_default(),
                Focus::Device { side: Side::Source, device } => {
                    pieces.iter().filter(|p| p.src == device).map(|p| ends(p.src, p.dst)[1]).collect()
                }
                Focus::Device { side: Side::Destination, device } => {
                    pieces.iter().filter(|p| p.dst == device).map(|p| ends(p.src, p.dst)[0]).collect()
                }
            }
        });
        related.sort_unstable();
        related.dedup();
        related
    })
}

/// When the plan's pieces are not kept (a very large plan): the devices of the other side whose region
/// overlaps the focused device's, for the viewed tensor (every replica counts; one pass over the regions).
fn overlapping_devices(state: AppState, focus: Focus) -> Vec<(bool, u32)> {
    let Focus::Device { side, device } = focus else { return Vec::new() };
    state.regions.with(|r| {
        let (mine, others) = match side {
            Side::Source => (&r.source, &r.destination),
            Side::Destination => (&r.destination, &r.source),
        };
        let Some(region) = mine.iter().find(|d| d.device == device).map(|d| d.region) else { return Vec::new() };
        others
            .iter()
            .filter(|o| o.region.intersect(&region).is_some())
            .map(|o| (side == Side::Source, o.device))
            .collect()
    })
}

/// What stands above the meshes on a slide, measured: the slide scales them to the screen's height under
/// it (`--above-meshes`, views.css). The headline above them wraps to more or fewer lines with its column's
/// width (a wide tensor leaves it narrow), and so do the meshes' titles with the meshes' width, which a
/// constant in the CSS could only guess: fsdp-tp's destination mesh ran off a 1280 × 720 slide. The lower
/// of the two pictures' tops is measured, and 1rem kept under them. A title that wraps as its mesh shrinks
/// moves the top down once, and the smaller mesh it gives wraps it no less, so the two settle. The readout
/// above keeps its height whatever it says. Not while touring: the tour's bar covers the top and its CSS
/// sizes the meshes.
fn slide_room() -> (NodeRef<leptos::html::Div>, impl Fn() -> Option<String> + Copy) {
    let presenting = use_context::<crate::ui::present::Presenting>().map(|p| p.0);
    let touring = use_context::<crate::ui::tour::TourState>().map(|t| t.step);
    let node = NodeRef::new();
    // Measured only while presenting: starting it resizes the body (the editors and the header go), which
    // measures again.
    let top = crate::ui::fit::observed_page_top(node, ".mesh-svg", move || {
        presenting.is_some_and(|p| p.try_get_untracked().unwrap_or(false))
    });
    let above = move || {
        let slide = presenting.is_some_and(|p| p.get()) && !touring.is_some_and(|t| t.with(Option::is_some));
        let top = top.get();
        // With the legend's room under them on a tall slide (views.css, `--legend-room`), as far as the
        // meshes keep their drawn size (`--pair-h`): below it their names stop being read from the back of
        // a room (nested's went from 1.4 to 0.81 of it), and the legend is the lesser loss.
        (slide && top > 0.0).then(|| {
            format!(
                "calc({top}px + 1rem + min(var(--legend-room, 0px), max(0px, 100vh - {top}px - 1rem - var(--pair-h) * 1px)))"
            )
        })
    };
    (node, above)
}

/// Both meshes and the legend of their marks.
#[component]
pub fn MeshView() -> impl IntoView {
    let state = expect_context::<AppState>();
    crate::ui::tensor_view::hover::follow_pointer();
    let related = related_devices(state);
    let (source, destination) = (mesh::mesh_layout(state, Side::Source), mesh::mesh_layout(state, Side::Destination));
    // The taller drawn height of the two meshes drawn tile by tile: while presenting both are scaled by one
    // factor that fits it under the headline (views.css), so a device is the same size on both sides.
    let pair_height = move || {
        let tiled_height = |l: &mesh::Layout| if l.drawn_as_paths() { 0.0 } else { l.height };
        let height = source.with(|l| tiled_height(l)).max(destination.with(|l| tiled_height(l)));
        height.max(1.0).to_string()
    };
    // Their drawn widths together: a pair wider than its column is shrunk by one factor too (views.css).
    let pair_width = move || (source.with(|l| l.width) + destination.with(|l| l.width)).max(1.0).to_string();
    // Stacked (a pair too wide to show at 0.8× side by side), the wider sets the scale and the heights add up.
    let stack_width = move || source.with(|l| l.width).max(destination.with(|l| l.width)).max(1.0).to_string();
    let stack_height = move || {
        let tiled_height = |l: &mesh::Layout| if l.drawn_as_paths() { 0.0 } else { l.height };
        (source.with(|l| tiled_height(l)) + destination.with(|l| tiled_height(l))).max(1.0).to_string()
    };
    let badges = move || {
        state.reshard.with(|r| {
            let any = |f: &dyn Fn(&crate::core::placement::Placement) -> bool| {
                r.tensors.iter().any(|t| t.source.placements.iter().chain(&t.destination.placements).any(f))
            };
            (
                any(&|p| *p == crate::core::placement::Placement::Replicate),
                any(&|p| *p == crate::core::placement::Placement::Partial),
            )
        })
    };
    // Only meshes with large enough tiles show thumbnails; the legend names only marks that are drawn.
    let thumbnails = Memo::new(move |_| {
        let badged = badges();
        state.reshard.with(|r| {
            layout::has_thumbnails(&r.source_mesh, badged) || layout::has_thumbnails(&r.destination_mesh, badged)
        })
    });
    let readout = move || match state.focus.get() {
        Focus::Device { side, device } => crate::ui::tensor_view::describe_device(state, side, device),
        // True of every picture (an aggregated one lights up the region, not always the pieces).
        _ => "Hover or focus a device to see what it holds, sends and receives.".to_string(),
    };
    // The hint about hovering means nothing in an exported picture.
    let hint_only = move || state.focus.with(|f| !matches!(f, Focus::Device { .. })).then_some("skip");
    let above_meshes = slide_room();
    let (figure, below) = crate::ui::present::room_below_on_slide(".meshes");
    view! {
        <figure class="mesh-view" data-testid="mesh-view" node_ref=figure style:--below-meshes=below>
            <div class="view-header">
                <h3 class="view-title">"The devices"</h3>
            </div>
            // The focused device's details where the eye is (the line under the tensor, which says the same
            // to screen readers, is below the fold on a laptop).
            <p class="mesh-readout" data-testid="mesh-readout" data-export=hint_only aria-hidden="true">{readout}</p>
            <div
                class="meshes"
                node_ref=above_meshes.0
                style:--above-meshes=above_meshes.1
                style:--pair-h=pair_height
                style:--pair-w=pair_width
                style:--stack-w=stack_width
                style:--stack-h=stack_height
            >
                <mesh::Mesh side=Side::Source layout=source related=related/>
                <mesh::Mesh side=Side::Destination layout=destination related=related/>
            </div>
            <ul class="legend mesh-legend" aria-label="Legend of the mesh view">
                // Source colours while the source is drawn tile by tile; a mesh drawn as paths is shaded.
                {move || {
                    let (source, largest) =
                        state.reshard.with(|r| (r.source_mesh.size(), r.source_mesh.size().max(r.destination_mesh.size())));
                    let palette = (source <= TILE_ELEMENTS_MAX)
                        .then(|| ("palette", "source device: its colour is that of the pieces it sends".to_string()));
                    let ramp = (largest > TILE_ELEMENTS_MAX).then(|| {
                        let text = format!(
                            "a mesh of over {TILE_ELEMENTS_MAX} devices: each shaded by where its region starts in the \
                             tensor, yellow first, purple last (rows before columns); copies share a shade"
                        );
                        ("ramp", text)
                    });
                    [palette, ramp]
                        .into_iter()
                        .flatten()
                        .map(|(kind, text)| view! { <LegendItem kind fill="" colours=source text/> })
                        .collect_view()
                }}
                <li class="legend-item">
                    <svg class="legend-mark" width="22" height="14" viewBox="0 0 22 14" aria-hidden="true">
                        <rect class="node-outline" x="1" y="1" width="20" height="12" rx="3"/>
                    </svg>
                    <span>{move || format!("devices on one node (up to {})", state.reshard.with(|r| r.topology.devices_per_node))}</span>
                </li>
                {move || thumbnails.get().then(|| view! {
                    <li class="legend-item">
                        <svg class="legend-mark" width="22" height="14" viewBox="0 0 22 14" aria-hidden="true">
                            <rect class="tile-thumb" x="3" y="1" width="16" height="12" stroke="currentColor"/>
                            <rect class="tile-region" x="3" y="1" width="8" height="12" fill="currentColor"/>
                        </svg>
                        <span>"thumbnail: the whole tensor, with the region the device holds filled in"</span>
                    </li>
                })}
                {move || badges().0.then(|| view! { <li class="legend-item"><span class="legend-badge">"R1"</span><span>"replica 1 of the tile's region: the devices that hold the same region are numbered R0, R1, …"</span></li> })}
                {move || badges().1.then(|| view! { <li class="legend-item"><span class="legend-badge">"P2"</span><span>"partial contributor 2: values sum over contributors"</span></li> })}
            </ul>
        </figure>
    }
}
