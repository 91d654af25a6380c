//! The focused device's region, and the piece the keyboard is on, outlined in the tensor view.

use leptos::prelude::*;

use super::SceneMemo;
use crate::chart::boxes::PixelRect;
use crate::ui::{AppState, Focus, Side};

/// Where the piece holding the keyboard's focus is drawn (its box, or its card in a stack), while the
/// browser shows that focus (`:focus-visible`, not after a click). Written by the pieces, drawn by
/// [`FocusRing`] over everything else in the picture.
#[derive(Clone, Copy)]
pub struct FocusedBox(pub RwSignal<Option<PixelRect>>);

/// A ring around the piece the keyboard is on, drawn above every piece: its own stroke, under its
/// neighbours' boxes and the grid, was half covered, and after Escape let go of the piece's highlight it
/// was the only sign of where the focus was (review 41).
#[component]
pub fn FocusRing(
    /// The scene being drawn: a new one moves or removes the pieces (a removed one is not blurred), and the
    /// ring goes until the keyboard lands on a piece again.
    scene: SceneMemo,
) -> impl IntoView {
    let FocusedBox(focused) = expect_context::<FocusedBox>();
    Effect::new(move |first: Option<()>| {
        scene.track();
        if first.is_some() {
            focused.set(None);
        }
    });
    move || {
        focused.get().map(|r| {
            view! {
                <g class="tv-focus-ring" data-testid="focus-ring" aria-hidden="true">
                    <rect class="tv-focus-ring-halo" x=r.x y=r.y width=r.width height=r.height/>
                    <rect class="tv-focus-ring-line" x=r.x y=r.y width=r.width height=r.height/>
                </g>
            }
        })
    }
}

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
