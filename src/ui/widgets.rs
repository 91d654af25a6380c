//! Live widgets in a documentation page: each `<pre class="reshard-lens">` block (the text form of
//! `share::text`) becomes the view it asks for. `public/widget.js` finds the blocks, gives each a shadow
//! root (so the page's CSS and ours do not meet, and ids stay unique per widget), lists the mount points in
//! `globalThis.reshardLensWidgets` and starts the wasm once; [`mount_all`] then mounts one app per block,
//! all sharing the one module.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::js_sys::{Array, Reflect};

use super::embed::{EmbedView, EmbeddedView};
use super::{AppState, cycle};
use crate::share::text::parse_block;

/// The mount points `widget.js` prepared, if this page is a documentation page rather than the app.
pub fn requested() -> Option<Vec<web_sys::HtmlElement>> {
    let window = web_sys::window()?;
    let list = Reflect::get(&window, &"reshardLensWidgets".into()).ok()?;
    let list = list.dyn_into::<Array>().ok()?;
    Some(list.iter().filter_map(|item| item.dyn_into::<web_sys::HtmlElement>().ok()).collect())
}

/// Mounts one widget on each prepared element; a block's text is its `data-block` attribute and the app's
/// address (for "Open in Reshard Lens") its `data-app`.
pub fn mount_all(mounts: Vec<web_sys::HtmlElement>) {
    for element in mounts {
        let text = element.get_attribute("data-block").unwrap_or_default();
        let app_url = element.get_attribute("data-app").unwrap_or_default();
        leptos::mount::mount_to(element, move || view! { <Widget text app_url/> }).forget();
    }
}

/// One block's widget, or the block's problems, each with its line.
#[component]
fn Widget(text: String, app_url: String) -> impl IntoView {
    let problems = |title: &'static str, lines: Vec<String>| {
        view! {
            <div class="widget-problems" role="alert" data-testid="widget-problems">
                <p class="problem">{title}</p>
                <ul>{lines.into_iter().map(|line| view! { <li>{line}</li> }).collect_view()}</ul>
            </div>
        }
        .into_any()
    };
    let block = match parse_block(&text) {
        Ok(block) => block,
        Err(found) => {
            return problems("This Reshard Lens block cannot be drawn:", found.iter().map(|p| p.to_string()).collect());
        }
    };
    if let Err(found) = block.check() {
        let lines = found.iter().map(|p| p.to_string()).collect();
        return problems(
            if block.view == "cycle" {
                "This Reshard Lens block describes an impossible layout or cycle:"
            } else {
                "This Reshard Lens block describes an impossible layout:"
            },
            lines,
        );
    }
    let view = match EmbedView::parse(&block.view) {
        Ok(view) => view,
        Err(message) => return problems("This Reshard Lens block cannot be drawn:", vec![message]),
    };
    if !block.says_layout() {
        provide_context(cycle::NoLayout);
    }
    provide_context(AppState::new(block.spec));
    let cycle_state = cycle::CycleState::from_preset("cycle-120");
    if let Some(spec) = block.cycle {
        cycle_state.replace(spec);
    }
    provide_context(cycle_state);
    view! { <div class="widget" data-testid="widget"><EmbeddedView view app_url/></div> }.into_any()
}
