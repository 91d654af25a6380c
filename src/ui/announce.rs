//! What a screen reader should say when something finishes (a check, a copy, a tour step): a live region
//! that is on the page before its words change. A `role="status"` element inserted already holding its
//! text (how the verdict and the share report arrived) is often not read at all.

use leptos::prelude::*;

/// A polite live region, unseen, saying `text` each time it changes (empty says nothing).
#[component]
pub fn Announcer(
    /// The words to say; each new value is read once.
    text: Signal<String>,
    /// For tests.
    test_id: &'static str,
) -> impl IntoView {
    view! {
        <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" data-testid=test_id>
            {move || text.get()}
        </p>
    }
}
