//! The page footer: the version that is running and where its source lives.

use leptos::prelude::*;

/// The crate version (`Cargo.toml`) and a link to the repository.
#[component]
pub fn AppFooter() -> impl IntoView {
    view! {
        <footer class="footer">
            <span data-testid="version">{concat!("Reshard Lens ", env!("CARGO_PKG_VERSION"))}</span>
            <span class="footer-sep" aria-hidden="true">"·"</span>
            <a href=env!("CARGO_PKG_REPOSITORY") rel="noopener noreferrer">"Source"</a>
        </footer>
    }
}
