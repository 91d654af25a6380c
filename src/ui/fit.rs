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

/// The viewBox width of a chart whose `<svg>` `node` refers to: `widest` where its box has room, down to
/// `narrowest` in a narrow one ([`crate::chart::scale::fitted_width`]), so that its labels keep a readable
/// size on a phone or in a 480 px embed.
pub fn fitted_viewbox_width(node: NodeRef<leptos::svg::Svg>, widest: f64, narrowest: f64) -> Memo<f64> {
    let px = observed_width(node);
    Memo::new(move |_| crate::chart::scale::fitted_width(px.get(), widest, narrowest))
}

/// Where the lowest top of the elements matching `selector` inside the element `node` refers to stands on
/// the page (document coordinates, in pixels; 0 until one is drawn), measured again whenever the page's
/// body changes size: what stands above them grew or wrapped, or the window was resized. Only while `wanted`
/// (read untracked) holds: the body resizes on most edits, and nothing needs the figure otherwise. The
/// observer is disconnected with the view.
pub fn observed_page_top(
    node: NodeRef<leptos::html::Div>,
    selector: &'static str,
    wanted: impl Fn() -> bool + 'static,
) -> ReadSignal<f64> {
    use wasm_bindgen::{JsCast, closure::Closure};
    let px = RwSignal::new(0.0);
    let observer = StoredValue::new_local(None::<web_sys::ResizeObserver>);
    node.on_load(move |div| {
        let element: web_sys::Element = div.into();
        let on_resize = Closure::<dyn Fn()>::new(move || {
            if !wanted() {
                return;
            }
            let Ok(found) = element.query_selector_all(selector) else { return };
            let lowest = (0..found.length())
                .filter_map(|i| found.item(i)?.dyn_into::<web_sys::Element>().ok())
                .map(|e| e.get_bounding_client_rect().top())
                .fold(f64::NAN, f64::max);
            if lowest.is_nan() {
                return;
            }
            let scrolled = web_sys::window().and_then(|w| w.scroll_y().ok()).unwrap_or(0.0);
            let top = (lowest + scrolled).round();
            if px.try_get_untracked().is_some_and(|old| old != top) {
                px.try_set(top);
            }
        })
        .into_js_value();
        let body = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body());
        if let (Ok(watch), Some(body)) = (web_sys::ResizeObserver::new(on_resize.unchecked_ref()), body) {
            watch.observe(&body);
            observer.set_value(Some(watch));
        }
    });
    on_cleanup(move || {
        if let Some(Some(watch)) = observer.try_get_value() {
            watch.disconnect();
        }
    });
    px.read_only()
}
