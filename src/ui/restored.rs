//! The line that says the page reopened this browser's autosave, not the article's toy, with a link to the
//! toy: a lecture opened at the bare address was greeted by the rehearsal's leftovers, with nothing saying
//! where they came from.

use leptos::prelude::*;

use super::url_state;

/// Shown once, under the view tabs, until dismissed or followed.
#[component]
pub fn RestoredNote() -> impl IntoView {
    let shown = RwSignal::new(true);
    // A real link: the toy opens in a fresh page (layout, cycle and inventory all at their defaults), and a
    // modified click opens it in a new tab. Presenting and the theme are kept.
    let toy = url_state::with_display_parameters("?preset=toy");
    move || {
        shown.get().then(|| {
            view! {
                <p class="restored-note" data-testid="restored-note">
                    <span>"Reopened where this browser last left off (saved as you edit)."</span>
                    <a href=toy.clone() data-testid="restored-toy">"Start from the article's toy"</a>
                    <button type="button" class="link-button" on:click=move |_| shown.set(false)>"Dismiss"</button>
                </p>
            }
        })
    }
}
