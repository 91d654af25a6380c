//! One mesh: its device tiles in mesh shape, outlined by node.

use std::sync::Arc;

use leptos::prelude::*;

use super::{layout, tile::Tile};
use crate::ui::{AppState, Focus, Fresh, Side, tensor_view::hover::side_name};

/// One side's mesh, titled, with node outlines and tiles.
#[component]
pub fn Mesh(
    /// Which mesh.
    side: Side,
    /// Devices related to the focus, sorted.
    related: Memo<Vec<(bool, u32)>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let layout = Memo::new(move |_| {
        Fresh(Arc::new(state.reshard.with(|r| {
            state.view.with(|v| {
                state
                    .regions
                    .with(|g| layout::layout(r, v, side, if side == Side::Source { &g.source } else { &g.destination }))
            })
        })))
    });
    let roving = RwSignal::new(0usize);
    let class = move || if state.focus.with(|f| *f == Focus::Nothing) { "mesh-svg" } else { "mesh-svg has-focus" };
    let title = move || layout.with(|l| l.title.clone());
    view! {
        <div class="mesh" data-testid=format!("mesh-{}", side_name(side))>
            <h4 class="mesh-title">{title}</h4>
            {move || {
                layout.with(|l| {
                    let grid = (l.grid.rows, l.grid.cols, l.tiles.len());
                    let nodes = l
                        .nodes
                        .iter()
                        .map(|n| {
                            let label = n.label.clone().map(|text| {
                                view! { <text class="node-label" x=n.rect.x + 2.0 y=n.rect.y - 3.0>{text}</text> }
                            });
                            view! {
                                <rect class="node-outline" x=n.rect.x y=n.rect.y width=n.rect.width height=n.rect.height rx=6.0/>
                                {label}
                            }
                        })
                        .collect::<Vec<_>>();
                    let tiles = l
                        .tiles
                        .iter()
                        .cloned()
                        .map(|tile| view! { <Tile tile=tile side=side grid=grid roving=roving related=related/> })
                        .collect::<Vec<_>>();
                    view! {
                        <svg
                            class=class
                            width=l.width
                            height=l.height
                            viewBox=format!("0 0 {} {}", l.width, l.height)
                            role="group"
                            aria-label=l.title.clone()
                        >
                            <g aria-hidden="true">{nodes}</g>
                            <g class="tiles">{tiles}</g>
                        </svg>
                    }
                })
            }}
        </div>
    }
}
