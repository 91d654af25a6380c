//! Region boundaries: source shards as solid lines, destination shards as dashed lines, across the frame.

use leptos::prelude::*;

use super::{SceneMemo, scene::Lines};
use crate::chart::tensor::Frame;
use crate::ui::keyed::redraw_on;

/// Both sides' boundaries, destination on top so that its dashes stay visible where lines coincide.
#[component]
pub fn Boundaries(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    // Redrawn only when the lines or the frame change (not when only the pieces' colours do).
    let key = move || scene.with(|s| (s.frame, s.source_lines.clone(), s.destination_lines.clone()));
    redraw_on(key, move || {
        scene.with(|s| {
            view! {
                <g class="tv-boundaries" aria-hidden="true">
                    {side_lines(&s.source_lines, &s.frame, "tv-src-line")}
                    {side_lines(&s.destination_lines, &s.frame, "tv-dst-line")}
                    <rect class="tv-outline" x=0.0 y=0.0 width=s.frame.width height=s.frame.height/>
                </g>
            }
        })
    })
}

/// Thinned lines (a dense split) are drawn finer, so that they read as a texture of boundaries rather
/// than as a solid fill.
fn side_lines(lines: &Lines, frame: &Frame, class: &'static str) -> impl IntoView + use<> {
    let (w, h) = (frame.width, frame.height);
    let class = match (class, lines.every > 1) {
        ("tv-src-line", true) => "tv-src-line is-thinned",
        ("tv-dst-line", true) => "tv-dst-line is-thinned",
        (class, _) => class,
    };
    let rows = lines.rows.iter().map(|&r| {
        let y = frame.y(r);
        view! { <line class=class x1=0.0 y1=y x2=w y2=y/> }
    });
    let cols = lines.cols.iter().map(|&c| {
        let x = frame.x(c);
        view! { <line class=class x1=x y1=0.0 x2=x y2=h/> }
    });
    rows.chain(cols).collect::<Vec<_>>()
}
