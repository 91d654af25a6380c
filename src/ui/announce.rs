//! What a screen reader should say when something finishes (a check, a copy, a tour step): a live region
//! that is on the page before its words change. A `role="status"` element inserted already holding its
//! text (how the verdict and the share report arrived) is often not read at all.

use leptos::prelude::*;

/// A polite live region, unseen, saying `text` each time it is written, even with the same words (empty
/// says nothing): a check run again with the same verdict was not said again.
#[component]
pub fn Announcer(
    /// The words to say; each write is read once.
    text: Signal<String>,
    /// For tests.
    test_id: &'static str,
) -> impl IntoView {
    // Emptied, then filled a frame later: a region whose words do not change is not read again.
    let said = RwSignal::new(text.get_untracked());
    Effect::new(move |first: Option<()>| {
        let words = text.get();
        // Also words written between the region's making and its first run (the inventory's hand-off sets the
        // cycle's s as the cycle view opens): it had held the words it was made with until the next edit.
        if first.is_some() || said.with_untracked(|said| *said != words) {
            said.set(String::new());
            request_animation_frame(move || {
                said.try_set(words);
            });
        }
    });
    view! {
        <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid=test_id>
            {move || said.get()}
        </p>
    }
}
