//! The lines over the page about how it was opened, each until dismissed: that it reopened this browser's
//! autosave, not the article's toy, with a link to the toy (a lecture opened at the bare address was greeted
//! by the rehearsal's leftovers, with nothing saying where they came from); and what was wrong with the
//! address, when it could not be opened as written.

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

/// What was wrong with the address that opened the page (an unknown preset, a broken link), over the default
/// it shows instead, until dismissed: the message stood over every later edit with no way to close it.
#[component]
pub fn LinkProblemNote(message: String) -> impl IntoView {
    let shown = RwSignal::new(true);
    move || {
        shown.get().then(|| {
            view! {
                <p class="problem link-problem" role="alert" data-testid="link-problem">
                    <span>{message.clone()}</span>
                    <button type="button" class="link-button" data-testid="link-problem-dismiss" on:click=move |_| shown.set(false)>
                        "Dismiss"
                    </button>
                </p>
            }
        })
    }
}
