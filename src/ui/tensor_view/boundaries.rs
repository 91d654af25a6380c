//! Region boundaries: source shards as solid lines, destination shards as dashed lines, across the frame;
//! heavier where they also part a mesh's outer groups (nested sharding).

use leptos::prelude::*;

use super::{SceneMemo, scene::Lines};
use crate::chart::tensor::{Frame, lines_path};
use crate::ui::keyed::redraw_on;

/// Both sides' boundaries, destination on top so that its dashes stay visible where lines coincide.
#[component]
pub fn Boundaries(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    // Redrawn only when the lines or the frame change (not when only the pieces' colours do).
    let key = move || {
        scene.with(|s| {
            let groups = (s.source_groups.clone(), s.destination_groups.clone());
            (s.frame, s.source_lines.clone(), s.destination_lines.clone(), groups)
        })
    };
    redraw_on(key, move || {
        scene.with(|s| {
            view! {
                <g class="tv-boundaries" aria-hidden="true">
                    {side_lines(&s.source_lines, &s.frame, "tv-src-line")}
                    {s.source_groups.as_ref().map(|(_, lines)| side_lines(lines, &s.frame, "tv-src-group-line"))}
                    {side_lines(&s.destination_lines, &s.frame, "tv-dst-line")}
                    {s.destination_groups.as_ref().map(|(_, lines)| side_lines(lines, &s.frame, "tv-dst-group-line"))}
                    <rect class="tv-outline" x=0.0 y=0.0 width=s.frame.width height=s.frame.height/>
                </g>
            }
        })
    })
}

/// One side's lines as one path (a dense split is a few elements however many shards). Thinned lines (a
/// dense split) are drawn finer, so that they read as a texture of boundaries rather than as a solid fill.
fn side_lines(lines: &Lines, frame: &Frame, class: &'static str) -> impl IntoView + use<> {
    let class = match (class, lines.every > 1) {
        ("tv-src-line", true) => "tv-src-line is-thinned",
        ("tv-dst-line", true) => "tv-dst-line is-thinned",
        (class, _) => class,
    };
    // On whole pixels (a 1 px line on the pixel's centre), so dense lines stay crisp instead of blurring
    // into alternating light and dark ones.
    let snap = |v: f64| if lines.every > 1 { v.floor() + 0.5 } else { v.round() };
    let d = lines_path(
        lines.rows.iter().map(|&r| snap(frame.y(r))),
        lines.cols.iter().map(|&c| snap(frame.x(c))),
        frame.width,
        frame.height,
    );
    // Destination dashes over a casing in the page's background colour: the accent alone nearly vanishes
    // on a piece of a similar colour (light blue dashes on d1's sky blue in the dark theme). Not under a
    // dense split's thinned lines, which would thicken into a fill.
    let casing = match class {
        "tv-dst-line" => Some("tv-dst-casing"),
        "tv-dst-group-line" => Some("tv-dst-casing is-group"),
        _ => None,
    }
    .map(|casing| view! { <path class=casing d=d.clone() fill="none"/> });
    (!d.is_empty()).then(|| view! { {casing} <path class=class d=d fill="none"/> })
}
