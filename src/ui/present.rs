//! Presenting: the pictures as large as the screen allows, for a projector or a screen share.
//!
//! On a 1920 × 1080 projector the tensor keeps the 400-odd pixels and 11 px labels it is drawn at, beside an
//! editor column the audience does not need. "Present" (or `?present` in the address) hides the header,
//! the editors and the share/export buttons and lays the layout view out as a slide: the tensor on the
//! left, scaled with CSS to the screen's height, the change's headline and the meshes on the right (CSS in
//! `style/main.css` and `style/views.css`, `.presenting`). The pictures keep their drawn coordinates, so
//! hovering, focus and export work as at 1:1. The RL cycle keeps its speedup control, above the answer and
//! the timeline. The tabs, the presets, the tour and the panels below stay; Escape or the button leaves.

use leptos::prelude::*;

use super::focus::{after_render, escape_belongs_to_field, focus_test_id};
use super::query_parameter;
use super::tour::TourState;

/// Whether the page is presenting; provided by the app.
#[derive(Clone, Copy)]
pub struct Presenting(pub RwSignal<bool>);

impl Presenting {
    /// Presenting when the address asks for it (`?present`, `?present=1`; not `?present=0`).
    pub fn from_address() -> Presenting {
        let asked = query_parameter("present").is_some_and(|v| !matches!(v.as_str(), "0" | "false" | "no"));
        Presenting(RwSignal::new(asked))
    }
}

/// The button that starts and ends presenting, and Escape to end it (unless the key was used by something
/// else first: a menu, a focused device, the tour, a field).
#[component]
pub fn PresentButton() -> impl IntoView {
    let Presenting(on) = expect_context::<Presenting>();
    let tour = expect_context::<TourState>();
    let toggle = move |_| {
        let start = !on.get_untracked();
        on.set(start);
        if start {
            // The tensor is sized to fit the screen under the tabs and the presets: from the top.
            if let Some(window) = web_sys::window() {
                window.scroll_to_with_x_and_y(0.0, 0.0);
            }
        }
    };
    let keys = window_event_listener(leptos::ev::keydown, move |event: web_sys::KeyboardEvent| {
        if event.key() != "Escape" || event.default_prevented() || !on.get_untracked() {
            return;
        }
        if tour.step.get_untracked().is_some() {
            return;
        }
        // An open menu (Share, on a slide) takes the Escape: this listener runs before the menus' own.
        let menu_open = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("details.menu[open]").ok().flatten())
            .is_some();
        if menu_open {
            return;
        }
        if !escape_belongs_to_field(&event) {
            on.set(false);
            event.prevent_default();
            // Back on the button that presents again (the focus was on the page, or on a control that
            // stays): from there Tab goes on through the header's controls, in view again.
            after_render(|document| focus_test_id(&document, "present"));
        }
    });
    on_cleanup(move || keys.remove());
    // Back and Forward step through edits, not in and out of a slide: the entry stepped to keeps the page as
    // it is shown, and says so (an entry written while presenting kept `?present` after leaving, and a
    // reload there presented again, review 36).
    let steps = window_event_listener(leptos::ev::popstate, move |_| mark_in_address(on.get_untracked()));
    on_cleanup(move || steps.remove());
    // The address says whether the page presents: a reload, or the address copied, presents only while
    // presenting (leaving kept `?present`, and a reload presented again).
    Effect::new(move |before: Option<bool>| {
        let now = on.get();
        if before.is_some_and(|b| b != now) {
            mark_in_address(now);
        }
        now
    });
    view! {
        <button
            type="button"
            class="button-like present-button"
            data-testid="present"
            // Its name says what it does ("Leave presentation"), so no pressed state beside it: a screen
            // reader said "Leave presentation, toggle button, pressed".
            title=move || {
                if on.get() {
                    "Show the editors again (Escape)"
                } else {
                    "Hide the editors and scale the pictures to the screen (Escape leaves)"
                }
            }
            on:click=toggle
        >
            {move || if on.get() { "Leave presentation" } else { "Present" }}
        </button>
    }
}

/// Adds or removes `present` in the address's query, keeping the rest of the address and the history entry.
fn mark_in_address(on: bool) {
    super::url_state::set_display_parameter("present", on.then_some("1"));
}

/// On a slide, the room a view's notes and legend take under its picture (the first element matching
/// `picture`), as a CSS length for the slide's CSS to keep free under the picture (views.css): a picture
/// scaled to the screen's height pushed them below the fold (fsdp-tp's and partial's legends on
/// a 1920 × 1080 slide). `None` until measured, and outside a slide.
pub fn room_below_on_slide(
    picture: &'static str,
) -> (NodeRef<leptos::html::Figure>, impl Fn() -> Option<String> + Copy) {
    let presenting = use_context::<Presenting>().map(|p| p.0);
    let node = NodeRef::new();
    let below = crate::ui::fit::observed_room_below(node, picture, move || {
        presenting.is_some_and(|p| p.try_get_untracked().unwrap_or(false))
    });
    let css = move || {
        let px = below.get();
        (presenting.is_some_and(|p| p.get()) && px > 0.0).then(|| format!("{px}px"))
    };
    (node, css)
}
