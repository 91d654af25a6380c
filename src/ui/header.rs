//! The page header: the product's name and what it does, in one line.

use leptos::prelude::*;

/// The product name and a one-line description.
#[component]
pub fn AppHeader() -> impl IntoView {
    view! {
        <header class="header">
            <div class="header-inner">
                <img class="logo" src="public/favicon.svg" alt="" width="28" height="28"/>
                <div>
                    <h1 class="product" data-testid="product-name">"Reshard Lens"</h1>
                    <p class="tagline">
                        "See which piece of which source shard every destination device needs when a tensor \
                         changes layout, and what it costs on each link."
                    </p>
                </div>
            </div>
        </header>
    }
}
