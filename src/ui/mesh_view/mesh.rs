//! One mesh: its device tiles in mesh shape, outlined by node.

use std::sync::Arc;

use leptos::prelude::*;

use super::{layout, paths::TilePaths, tile::Tile};
use crate::chart::mesh::{is_tile_key, next_tile, outlines_path};
use wasm_bindgen::JsCast;

use crate::ui::tensor_view::hover::{
    focus_of, let_go_on_escape, pointer_wins, restore_keyboard_focus, set_focus, side_name,
};
use crate::ui::{AppState, Focus, Fresh, Side, keyed::keyed};

/// Corner radius of a node's outline.
const NODE_RADIUS: f64 = 6.0;

/// The tile an event happened in: the `<g data-device>` around its target.
fn tile_at(target: Option<web_sys::EventTarget>) -> Option<web_sys::Element> {
    target?.dyn_into::<web_sys::Element>().ok()?.closest("[data-device]").ok()?
}

/// A tile's row-major index in its mesh.
fn flat_of(tile: &web_sys::Element) -> Option<usize> {
    tile.get_attribute("data-flat")?.parse().ok()
}

/// Arrow keys, Home and End move the keyboard focus from tile to tile within a mesh.
fn on_key(ev: &web_sys::KeyboardEvent, layout: Memo<Layout>) {
    let Some(tile) = tile_at(ev.target()) else { return };
    let Some(flat) = flat_of(&tile) else { return };
    let key = ev.key();
    if is_tile_key(&key) {
        ev.prevent_default();
    }
    let next = layout.with_untracked(|l| next_tile(flat, &key, &l.grid, l.tiles.len()));
    let Some(next) = next else { return };
    let target = tile
        .parent_element()
        .and_then(|group| group.query_selector(&format!("[data-flat=\"{next}\"]")).ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok());
    if let Some(target) = target {
        let _ = target.focus();
    }
}

/// A mesh's drawing.
pub type Layout = Fresh<layout::MeshLayout>;

/// One side's drawing: its tiles laid out for the viewed tensor, computed once per change.
pub fn mesh_layout(state: AppState, side: Side) -> Memo<Layout> {
    Memo::new(move |_| {
        Fresh(Arc::new(state.reshard.with(|r| {
            state.view.with(|v| {
                state
                    .regions
                    .with(|g| layout::layout(r, v, side, if side == Side::Source { &g.source } else { &g.destination }))
            })
        })))
    })
}

/// One side's mesh, titled, with node outlines and tiles.
#[component]
pub fn Mesh(
    /// Which mesh.
    side: Side,
    /// Its drawing ([`mesh_layout`]).
    layout: Memo<Layout>,
    /// Devices related to the focus, sorted.
    related: Memo<Vec<(bool, u32)>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let roving = RwSignal::new(0usize);
    // A large mesh is drawn as paths (a bounded number of elements), a small one tile by tile.
    let aggregated = Memo::new(move |_| layout.with(|l| l.drawn_as_paths()));
    let class = move || {
        let focus = if state.focus.with(|f| *f == Focus::Nothing) { "" } else { " has-focus" };
        // A mesh drawn as paths is large already: it is not scaled up while presenting.
        let paths = if aggregated.get() { " is-paths" } else { "" };
        format!("mesh-svg{focus}{paths}")
    };
    let title = move || layout.with(|l| l.title.clone());
    // "Source" and what the mesh is, apart: a slide puts them on two lines (views.css), so both meshes'
    // titles take the same height over meshes of any width, where a title wrapping over one of them sank
    // that mesh below the other and off a 720 px screen.
    let (side_word, detail) = {
        let split =
            move || layout.with(|l| l.title.split_once(" · ").map(|(side, rest)| (side.to_string(), rest.to_string())));
        (move || split().map(|(side, _)| side), move || split().map(|(_, rest)| rest))
    };
    view! {
        <div class="mesh" data-testid=format!("mesh-{}", side_name(side))>
            <h4 class="mesh-title">
                <span class="mesh-side">{side_word}</span>
                <span class="mesh-title-sep">" · "</span>
                <span class="mesh-about">{detail}</span>
            </h4>
            <svg
                class=class
                width=move || layout.with(|l| l.width)
                height=move || layout.with(|l| l.height)
                viewBox=move || layout.with(|l| format!("0 0 {} {}", l.width, l.height))
                // The drawn size, for scaling the mesh while presenting (views.css).
                style:--drawn-w=move || layout.with(|l| l.width.to_string())
                style:--drawn-h=move || layout.with(|l| l.height.to_string())
                role="group"
                aria-label=title
            >
                <g aria-hidden="true">
                    // A large mesh's node outlines are one path (its tiles are too small for node labels).
                    {move || if aggregated.get() {
                        let d = move || layout.with(|l| outlines_path(l.nodes.iter().map(|n| n.rect), NODE_RADIUS));
                        view! { <path class="node-outline" d=d/> }.into_any()
                    } else {
                        keyed(move || layout.with(|l| l.nodes.clone()), |n| {
                            let label = n.label.map(|text| {
                                view! { <text class="node-label" x=n.rect.x + 2.0 y=n.rect.y - 3.0>{text}</text> }
                            });
                            view! {
                                <rect class="node-outline" x=n.rect.x y=n.rect.y width=n.rect.width height=n.rect.height rx=NODE_RADIUS/>
                                {label}
                            }
                        })
                    }}
                </g>
                {move || if aggregated.get() {
                    view! { <TilePaths side layout roving related/> }.into_any()
                } else {
                    view! {
                        // Keyed by content without what a tile holds: an edit rebuilds only the tiles whose
                        // place, colour or name changed, and updates the others' regions in place.
                        // Not a Tab stop itself (Chromium makes an SVG element with focus listeners one).
                        <g
                            class="tiles"
                            tabindex="-1"
                            on:mouseover=move |ev| {
                                if let Some(tile) = tile_at(ev.target()).filter(|_| pointer_wins(&ev)) {
                                    set_focus(state, focus_of(&tile));
                                }
                            }
                            on:mouseout=move |ev| {
                                // Into another tile: its `mouseover` sets the focus. Anywhere else: back to the keyboard's.
                                if tile_at(ev.related_target()).is_none() {
                                    restore_keyboard_focus(state);
                                }
                            }
                            on:focusin=move |ev| {
                                if let Some(tile) = tile_at(ev.target()) {
                                    if let Some(flat) = flat_of(&tile) {
                                        roving.set(flat);
                                    }
                                    set_focus(state, focus_of(&tile));
                                }
                            }
                            on:focusout=move |_| set_focus(state, Focus::Nothing)
                            on:keydown=move |ev| {
                                if !let_go_on_escape(&ev, state) {
                                    on_key(&ev, layout);
                                }
                            }
                        >
                            {keyed(
                                move || layout.with(|l| l.tiles.iter().map(layout::TileSpec::frame).collect::<Vec<_>>()),
                                move |tile| view! { <Tile tile=tile layout=layout side=side roving=roving related=related/> },
                            )}
                        </g>
                    }
                    .into_any()
                }}
            </svg>
        </div>
    }
}
