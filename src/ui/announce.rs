//! What a screen reader should say when something finishes (a check, a copy, a tour step): a live region
//! that is on the page before its words change. A `role="status"` element inserted already holding its
//! text (how the verdict and the share report arrived) is often not read at all.

use gloo::timers::callback::Timeout;
use leptos::prelude::*;

/// How long the words of an edit's answer wait for the next edit: typing `100000` into a size, or holding
/// ↑ on a field, had a screen reader queue an answer per key, each stale by the next (review 41).
pub const AFTER_TYPING_MS: u32 = 600;

/// A polite live region, unseen, saying `text` each time it is written, even with the same words (empty
/// says nothing): a check run again with the same verdict was not said again.
#[component]
pub fn Announcer(
    /// The words to say; each write is read once.
    text: Signal<String>,
    /// For tests.
    test_id: &'static str,
    /// Milliseconds the words wait for newer ones, which replace them ([`AFTER_TYPING_MS`] for what an
    /// edit changes); 0 says them at the next frame (a step, a verdict, a copy).
    #[prop(optional)]
    settle_ms: u32,
) -> impl IntoView {
    // Emptied, then filled a frame later: a region whose words do not change is not read again.
    let said = RwSignal::new(text.get_untracked());
    let waiting = StoredValue::new_local(None::<Timeout>);
    // Dropped, a waiting answer is never said (the region may be gone first).
    on_cleanup(move || {
        waiting.try_set_value(None);
    });
    Effect::new(move |first: Option<()>| {
        let words = text.get();
        // Also words written between the region's making and its first run (the inventory's hand-off sets the
        // cycle's s as the cycle view opens): it had held the words it was made with until the next edit.
        if first.is_some() || said.with_untracked(|said| *said != words) {
            let say = move || {
                said.try_set(String::new());
                request_animation_frame(move || {
                    said.try_set(words);
                });
            };
            // A newer answer drops the one waiting (a Timeout dropped is cancelled).
            if settle_ms == 0 {
                waiting.set_value(None);
                say();
            } else {
                waiting.set_value(Some(Timeout::new(settle_ms, say)));
            }
        }
    });
    view! {
        <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid=test_id>
            {move || said.get()}
        </p>
    }
}
