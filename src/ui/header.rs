//! The page header: the product's name and what it does, in one line, and the ways past the editors (the
//! keyboard's, and on a narrow screen, where the editors come first, everyone's).

use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// The id of the layout view's pictures, where [`SkipToPictures`] takes the focus.
pub const PICTURES: &str = "pictures";

/// The id of the model inventory's results, where [`SkipToResults`] takes the focus.
pub const RESULTS: &str = "inventory-results";

/// The id of the layout view's headline of the change, where [`SeeTheChange`] takes the focus.
pub const CHANGE: &str = "change";

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
                        "Weights move from training GPUs to inference GPUs laid out another way (an RL refit): see \
                         which piece each device needs, and what it costs on each link."
                    </p>
                </div>
            </div>
        </header>
    }
}

/// The first Tab stop of the layout view: a link, shown only while focused, that takes the focus past the
/// page bar, the presets and the editors to the pictures. Without it a keyboard reached the first piece after
/// 40 stops (48 while each stepper's buttons were stops of their own); with it, after two.
#[component]
pub fn SkipToPictures() -> impl IntoView {
    skip_link(PICTURES, "skip-to-pictures", "Skip to the pictures")
}

/// The first Tab stop of the model inventory, as [`SkipToPictures`] is the layout view's: its model and
/// layout fields were 32 stops before the first result (review 41).
#[component]
pub fn SkipToResults() -> impl IntoView {
    skip_link(RESULTS, "skip-to-results", "Skip to the results")
}

/// A link, shown only while focused, that takes the focus to the element `id`.
fn skip_link(id: &'static str, test_id: &'static str, words: &'static str) -> impl IntoView {
    view! {
        <a class="skip-link" href=format!("#{id}") data-testid=test_id on:click=move |ev| go_to(ev, id)>
            {words}
        </a>
    }
}

/// Above the editors where they stand over the pictures (a phone, a narrow window; CSS shows it there only):
/// a shared link opened on a phone showed a screen and a half of fields before the change they describe.
#[component]
pub fn SeeTheChange() -> impl IntoView {
    view! {
        <a class="see-the-change" href=format!("#{CHANGE}") data-testid="see-the-change" on:click=|ev| go_to(ev, CHANGE)>
            "See the change, pictured ↓"
        </a>
    }
}

/// Scrolls to the element `id` and focuses it, so that Tab goes on from there. Handled here rather than by
/// the fragment: fragments are the share links' state.
fn go_to(ev: leptos::ev::MouseEvent, id: &str) {
    ev.prevent_default();
    let Some(target) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id(id)) else {
        return;
    };
    target.scroll_into_view();
    if let Ok(target) = target.dyn_into::<web_sys::HtmlElement>() {
        let _ = target.focus();
    }
}
