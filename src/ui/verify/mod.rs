//! The correctness check (being built): Verify button, fault injection, mismatches.

use leptos::prelude::*;

#[component]
pub fn VerifyPanel() -> impl IntoView {
    view! { <div class="verify-panel"></div> }
}
