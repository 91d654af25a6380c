//! Charts drawn in viewBox units that follow the width of their box ([`crate::chart::scale::fitted_width`]).

use leptos::prelude::*;

/// The width in pixels of the element `node` refers to, followed by a `ResizeObserver` (0 until it is
/// drawn). The observer lives as long as the element: it holds nothing but a signal, written with
/// `try_set` so that a last report after the view is gone does nothing.
pub fn observed_width(node: NodeRef<leptos::svg::Svg>) -> ReadSignal<f64> {
    use wasm_bindgen::{JsCast, closure::Closure};
    let px = RwSignal::new(0.0);
    node.on_load(move |svg| {
        let element: web_sys::Element = svg.into();
        let measured = element.clone();
        let on_resize = Closure::<dyn Fn()>::new(move || {
            let width = measured.get_bounding_client_rect().width();
            if px.try_get_untracked().is_some_and(|old| old != width) {
                px.try_set(width);
            }
        })
        .into_js_value();
        if let Ok(observer) = web_sys::ResizeObserver::new(on_resize.unchecked_ref()) {
            observer.observe(&element);
        }
    });
    px.read_only()
}
