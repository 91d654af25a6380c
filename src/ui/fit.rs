//! Charts drawn in viewBox units that follow the width of their box ([`crate::chart::scale::fitted_width`]).

use leptos::prelude::*;

/// The width in pixels of the element `node` refers to, followed by a `ResizeObserver` (0 until it is
/// drawn), which is disconnected with the view.
pub fn observed_width(node: NodeRef<leptos::svg::Svg>) -> ReadSignal<f64> {
    let (px, slot) = (RwSignal::new(0.0), observer_slot());
    node.on_load(move |svg| {
        let element: web_sys::Element = svg.into();
        let measured = element.clone();
        measure_on_resize(px, slot, &element, || true, move || Some(measured.get_bounding_client_rect().width()));
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

/// Where the lowest top of the elements matching `selector` inside the element `node` refers to, in the
/// first row of them (those starting above the highest one's bottom), stands on the page (document
/// coordinates, in pixels; 0 until one is drawn), measured again whenever the page's body changes size:
/// what stands above them grew or wrapped, or the window was resized. Only while `wanted` (read untracked)
/// holds: the body resizes on most edits, and nothing needs the figure otherwise. The observer is
/// disconnected with the view.
pub fn observed_page_top(
    node: NodeRef<leptos::html::Div>,
    selector: &'static str,
    wanted: impl Fn() -> bool + 'static,
) -> ReadSignal<f64> {
    let (px, slot) = (RwSignal::new(0.0), observer_slot());
    node.on_load(move |div| {
        let element: web_sys::Element = div.into();
        if let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) {
            measure_on_resize(px, slot, &body, wanted, move || first_row_top(&element, selector));
        }
    });
    px.read_only()
}

/// The page position of the lowest top among the first row of the elements matching `selector` inside
/// `element`; `None` when there are none.
fn first_row_top(element: &web_sys::Element, selector: &str) -> Option<f64> {
    use wasm_bindgen::JsCast;
    let found = element.query_selector_all(selector).ok()?;
    let boxes: Vec<(f64, f64)> = (0..found.length())
        .filter_map(|i| found.item(i)?.dyn_into::<web_sys::Element>().ok())
        .map(|e| {
            let rect = e.get_bounding_client_rect();
            (rect.top(), rect.bottom())
        })
        .collect();
    // Only those in the first row, beside the highest: one stacked under it is not "above" the others, and
    // counting it flipped a slide between stacked and side by side 13 times a second (large at
    // 2560 × 1440).
    let &(_, first_row_ends) = boxes.iter().min_by(|a, b| a.0.total_cmp(&b.0))?;
    let lowest = boxes.iter().map(|&(top, _)| top).filter(|&top| top < first_row_ends).fold(f64::NAN, f64::max);
    let scrolled = web_sys::window().and_then(|w| w.scroll_y().ok()).unwrap_or(0.0);
    (!lowest.is_nan()).then(|| (lowest + scrolled).round())
}

/// How far the element `node` refers to reaches below the first element matching `selector` inside it, in
/// whole pixels (0 until measured): on a slide, the notes, the legend and the padding under a picture,
/// which the slide's CSS keeps room for under the picture it scales to the screen. Measured again whenever
/// the element changes size (the legend wrapped, the picture was scaled), and only while `wanted` (read
/// untracked). A picture shrunk for a taller legend narrows it, which can wrap the legend once more; each
/// step only adds room, so the two settle. The observer is disconnected with the view.
pub fn observed_room_below(
    node: NodeRef<leptos::html::Figure>,
    selector: &'static str,
    wanted: impl Fn() -> bool + 'static,
) -> ReadSignal<f64> {
    let (px, slot) = (RwSignal::new(0.0), observer_slot());
    node.on_load(move |figure| {
        let element: web_sys::Element = figure.into();
        let measured = element.clone();
        measure_on_resize(px, slot, &element, wanted, move || {
            let inner = measured.query_selector(selector).ok()??;
            let below = measured.get_bounding_client_rect().bottom() - inner.get_bounding_client_rect().bottom();
            Some(below.max(0.0).round())
        });
    });
    px.read_only()
}

/// Whether the element `node` refers to is larger inside than it shows (it scrolls), measured again
/// whenever it or one of its children (a table that grew a column) changes size. The observer is
/// disconnected with the view.
pub fn observed_overflow(node: NodeRef<leptos::html::Div>) -> Memo<bool> {
    let (px, slot) = (RwSignal::new(0.0), observer_slot());
    node.on_load(move |div| {
        let element: web_sys::Element = div.into();
        let measured = element.clone();
        measure_on_resize(
            px,
            slot,
            &element,
            || true,
            move || {
                // The children are not in the box yet when it loads: each report watches those it has (watching
                // one twice changes nothing).
                let children = measured.children();
                slot.with_value(|watch| {
                    if let Some(watch) = watch {
                        (0..children.length()).filter_map(|i| children.item(i)).for_each(|child| watch.observe(&child));
                    }
                });
                let across = measured.scroll_width() - measured.client_width();
                let down = measured.scroll_height() - measured.client_height();
                Some(f64::from(across.max(down)).max(0.0))
            },
        );
    });
    Memo::new(move |_| px.get() > 0.0)
}

/// Where a view keeps its `ResizeObserver`: disconnected when the view is cleaned up.
type ObserverSlot = StoredValue<Option<web_sys::ResizeObserver>, LocalStorage>;

/// An empty [`ObserverSlot`] whose observer is disconnected with the view that makes it.
fn observer_slot() -> ObserverSlot {
    let slot: ObserverSlot = StoredValue::new_local(None);
    on_cleanup(move || {
        if let Some(Some(watch)) = slot.try_get_value() {
            watch.disconnect();
        }
    });
    slot
}

/// Whenever `target` changes size, and while `wanted` (read untracked), writes what `measure` finds into
/// `px` if it changed (`None`: nothing to measure now; `px` keeps its figure), with the observer kept in
/// `slot`. Written with `try_set`, so that a last report after the view is gone does nothing.
fn measure_on_resize(
    px: RwSignal<f64>,
    slot: ObserverSlot,
    target: &web_sys::Element,
    wanted: impl Fn() -> bool + 'static,
    measure: impl Fn() -> Option<f64> + 'static,
) {
    use wasm_bindgen::{JsCast, closure::Closure};
    let on_resize = Closure::<dyn Fn()>::new(move || {
        if !wanted() {
            return;
        }
        if let Some(value) = measure()
            && px.try_get_untracked().is_some_and(|old| old != value)
        {
            px.try_set(value);
        }
    })
    .into_js_value();
    if let Ok(watch) = web_sys::ResizeObserver::new(on_resize.unchecked_ref()) {
        watch.observe(target);
        slot.set_value(Some(watch));
    }
}
