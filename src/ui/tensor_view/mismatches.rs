//! Mismatching entries of the last correctness check, in red, in the tensor view.

use leptos::prelude::*;

use super::SceneMemo;
use crate::chart::boxes::PixelRect;
use crate::core::geometry::Region;
use crate::ui::AppState;

/// The smallest side of a drawn mismatch, in pixels, so that one entry of a huge tensor stays visible.
const MIN_PX: f64 = 3.0;

/// Where the reported mismatches of the viewed tensor fall in the slice, and how many fall outside it.
pub fn mismatch_rects(state: AppState, scene: SceneMemo) -> (Vec<PixelRect>, usize) {
    let tensor = state.view.with(|v| v.tensor);
    state.verification.with(|v| {
        let Some(Ok(verification)) = v else { return (Vec::new(), 0) };
        scene.with(|s| {
            let mut outside = 0;
            let mut rects = Vec::new();
            for m in verification.mismatches.iter().filter(|m| m.tensor == tensor) {
                let cell = Region::new(&m.coord, &vec![1; m.coord.len()]).and_then(|r| s.slice.project(&r));
                match cell {
                    Some(cells) => {
                        let r = s.rect(cells);
                        let (w, h) = (r.width.max(MIN_PX), r.height.max(MIN_PX));
                        rects.push(PixelRect::new(r.x + (r.width - w) / 2.0, r.y + (r.height - h) / 2.0, w, h));
                    }
                    None => outside += 1,
                }
            }
            (rects, outside)
        })
    })
}

/// The red cells, with the labels of the pieces they cover drawn again on top in white: covered, the label
/// of the piece that went wrong ("d0 → d3" under the toy's off-by-one) was gone from the picture.
#[component]
pub fn Mismatches(
    /// Mismatches in view, and the count outside the slice.
    mismatches: Memo<(Vec<PixelRect>, usize)>,
    scene: SceneMemo,
) -> impl IntoView {
    move || {
        mismatches.with(|(rects, _)| {
            let cells = rects
                .iter()
                .map(|r| view! { <rect class="tv-mismatch" data-testid="mismatch-cell" x=r.x y=r.y width=r.width height=r.height/> })
                .collect::<Vec<_>>();
            let covered = |(x, y): (f64, f64)| rects.iter().any(|r| x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height);
            // The scene is read (and followed) only while there are red cells: an edit clears the check.
            let labels = if rects.is_empty() {
                Vec::new()
            } else {
                scene.with(|s| {
                    s.pieces
                        .iter()
                        .filter_map(|p| p.label.as_ref())
                        .filter(|label| covered(label.at))
                        .flat_map(|label| super::pieces::label_texts(label, "#ffffff"))
                        .collect::<Vec<_>>()
                })
            };
            view! { <g class="tv-mismatches" aria-hidden="true">{cells} <g data-testid="mismatch-labels">{labels}</g></g> }
        })
    }
}
