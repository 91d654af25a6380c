//! The page header: the product's name and what it does, in one line, and the keyboard's way past the
//! editors.

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The id of the layout view's pictures, where [`SkipToPictures`] takes the focus.
pub const PICTURES: &str = "pictures";

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

/// The first Tab stop of the layout view: a link, shown only while focused, that takes the focus past the
/// page bar, the presets and the editors to the pictures. Without it a keyboard reached the first piece after
/// 40 stops (48 while each stepper's buttons were stops of their own); with it, after two.
///
/// The click is handled here rather than by the `#pictures` fragment: fragments are the share links' state.
#[component]
pub fn SkipToPictures() -> impl IntoView {
    let skip = |ev: leptos::ev::MouseEvent| {
        ev.prevent_default();
        let Some(pictures) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(PICTURES))
        else {
            return;
        };
        pictures.scroll_into_view();
        if let Ok(pictures) = pictures.dyn_into::<web_sys::HtmlElement>() {
            let _ = pictures.focus();
        }
    };
    view! {
        <a class="skip-link" href=format!("#{PICTURES}") data-testid="skip-to-pictures" on:click=skip>
            "Skip to the pictures"
        </a>
    }
}
