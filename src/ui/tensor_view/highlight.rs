//! The focused device's region, outlined in the tensor view.

use leptos::prelude::*;

use super::SceneMemo;
use crate::ui::{AppState, Focus, Side};

/// A bold outline around the region of the focused device (nothing for other focus).
#[component]
pub fn FocusRegion(
    /// The scene being drawn.
    scene: SceneMemo,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let Focus::Device { side, device } = state.focus.get() else { return None };
        let region = state.regions.with(|r| {
            let list = if side == Side::Source { &r.source } else { &r.destination };
            list.iter().find(|d| d.device == device).map(|d| d.region)
        })?;
        let cells = scene.with(|s| s.slice.project(&region))?;
        let r = scene.with(|s| s.rect(cells));
        Some(view! {
            <rect class="tv-focus-region" data-testid="focus-region" x=r.x y=r.y width=r.width height=r.height/>
        })
    }
}
