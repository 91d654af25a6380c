//! The tensor's frame, its cells (small tensors only) and the axes with their ticks.

use leptos::prelude::*;

use super::{
    SceneMemo,
    scene::{Lines, MARGIN_TOP, ROW_TITLE_X},
};
use crate::chart::scale::{boundary_ticks, group_thousands, integer_ticks};
use crate::ui::keyed::redraw_on;

/// The frame's background, under the pieces.
#[component]
pub fn Grid(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    let (w, h) = (move || scene.with(|s| s.frame.width), move || scene.with(|s| s.frame.height));
    view! { <rect class="tv-frame" x=0.0 y=0.0 width=w height=h/> }
}

/// When the view is at most 32 × 32, one faint line per cell boundary, over the pieces (under them the
/// opaque fills hid every entry the legend's "one entry" promises) and under the boundaries.
#[component]
pub fn Cells(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    // Redrawn only when the frame changes (not on every re-plan).
    redraw_on(
        move || scene.with(|s| (s.frame, s.draws_cells)),
        move || {
            scene.with(|s| {
                let (w, h) = (s.frame.width, s.frame.height);
                let cells = s.draws_cells.then(|| {
                    let rows = (1..s.frame.rows).map(|r| {
                        let y = s.frame.y(r);
                        view! { <line class="tv-cell" x1=0.0 y1=y x2=w y2=y/> }
                    });
                    let cols = (1..s.frame.cols).map(|c| {
                        let x = s.frame.x(c);
                        view! { <line class="tv-cell" x1=x y1=0.0 x2=x y2=h/> }
                    });
                    rows.chain(cols).collect::<Vec<_>>()
                });
                view! { <g class="tv-cells" aria-hidden="true">{cells}</g> }
            })
        },
    )
}

/// Ticks and labels along the top (columns) and the left (rows), and the axis titles.
#[component]
pub fn Axes(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    // Redrawn only when the frame, the names of its dims or the shard boundaries change.
    let key = move || {
        scene.with(|s| {
            let lines = |l: &Lines| (l.rows.clone(), l.cols.clone());
            let boundaries = (lines(&s.source_lines), lines(&s.destination_lines));
            (
                s.frame,
                s.shape.len(),
                s.col_word.clone(),
                s.row_word.clone(),
                s.slice.col_dim,
                s.slice.row_dim,
                boundaries,
            )
        })
    };
    redraw_on(key, move || {
        scene.with(|s| {
            let (w, h, margin) = (s.frame.width, s.frame.height, s.margin_left());
            // Numbers at the shard boundaries when each has room for its label, round numbers otherwise.
            let digits = group_thousands(s.frame.cols).len() as f64;
            let cut = |a: &[u64], b: &[u64]| a.iter().chain(b).copied().collect::<Vec<u64>>();
            let col_cuts = cut(&s.source_lines.cols, &s.destination_lines.cols);
            let row_cuts = cut(&s.source_lines.rows, &s.destination_lines.rows);
            // Thinned boundaries are not all drawn: then their numbers would mislead.
            let all_drawn = s.source_lines.every <= 1 && s.destination_lines.every <= 1;
            let col_ticks = all_drawn
                .then(|| boundary_ticks(&col_cuts, s.frame.cols, w / s.frame.cols.max(1) as f64, digits * 7.0 + 10.0))
                .flatten()
                .unwrap_or_else(|| integer_ticks(s.frame.cols, (w / 64.0).floor().max(1.0) as usize));
            let row_ticks = all_drawn
                .then(|| boundary_ticks(&row_cuts, s.frame.rows, h / s.frame.rows.max(1) as f64, 16.0))
                .flatten()
                .unwrap_or_else(|| integer_ticks(s.frame.rows, (h / 32.0).floor().max(1.0) as usize));
            let top = col_ticks
                .into_iter()
                .map(|t| {
                    let x = margin + s.frame.x(t);
                    view! {
                        <line class="tv-tick" x1=x y1=MARGIN_TOP - 5.0 x2=x y2=MARGIN_TOP/>
                        <text class="tv-tick-label" x=x y=MARGIN_TOP - 9.0 text-anchor="middle">{group_thousands(t)}</text>
                    }
                })
                .collect::<Vec<_>>();
            let rank_one = s.shape.len() <= 1;
            let left = (!rank_one).then(|| {
                row_ticks
                    .into_iter()
                    .map(|t| {
                        let y = MARGIN_TOP + s.frame.y(t);
                        view! {
                            <line class="tv-tick" x1=margin - 5.0 y1=y x2=margin y2=y/>
                            <text class="tv-tick-label" x=margin - 8.0 y=y + 4.0 text-anchor="end">{group_thousands(t)}</text>
                        }
                    })
                    .collect::<Vec<_>>()
            });
            let col_title = format!("{} (dim {}) →", s.col_word, s.slice.col_dim);
            // Turned to read upwards, so the arrow leads: it points down, the way the row index grows.
            let row_title = format!("← {} (dim {})", s.row_word, s.slice.row_dim);
            let row_title_view = (!rank_one).then(|| {
                let (x, y) = (ROW_TITLE_X, MARGIN_TOP + h / 2.0);
                view! {
                    <text class="tv-axis-title" x=x y=y text-anchor="middle" transform=format!("rotate(-90 {x} {y})")>{row_title}</text>
                }
            });
            view! {
                <g class="tv-axes" aria-hidden="true">
                    <text class="tv-axis-title" x=margin y=14.0>{col_title}</text>
                    {top}
                    {left}
                    {row_title_view}
                </g>
            }
        })
    })
}
