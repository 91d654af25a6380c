//! Editors for the change (being built: source, destination, tensor and topology cards, layout text).

use leptos::prelude::*;

/// The named presets, as links that open `?preset=NAME`.
#[component]
pub fn PresetBar() -> impl IntoView {
    view! { <nav class="preset-bar" aria-label="Presets"></nav> }
}

/// The cards that describe the change.
#[component]
pub fn Editors() -> impl IntoView {
    view! { <div class="editor-cards"></div> }
}
