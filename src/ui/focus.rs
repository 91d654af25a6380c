//! Moving the keyboard focus once the views have followed a change: a view redrawn under the focused
//! element (the tour's bar, the stage rows) leaves the focus on the page unless it is put back.

use wasm_bindgen::JsCast;

/// Runs `then` once the views have followed the last change (after Leptos' batch of DOM updates).
///
/// Leptos redraws in tasks queued on the microtask queue when a signal changes; a task queued after them
/// (and one more turn, for effects they start) runs before the browser handles the next input event. A
/// timer did not: a key pressed again at once (Enter, Enter on "Move down") reached the control that had
/// taken the moved one's place before the focus was put back.
pub fn after_render(then: impl FnOnce(web_sys::Document) + 'static) {
    leptos::task::spawn_local(async move {
        leptos::task::tick().await;
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            then(document);
        }
    });
}

/// Focuses the element with `data-testid` `test_id` inside `scope` (a document or an element), if any.
pub fn focus_test_id(scope: &web_sys::Node, test_id: &str) {
    let selector = format!("[data-testid={test_id}]");
    let found = if let Some(document) = scope.dyn_ref::<web_sys::Document>() {
        document.query_selector(&selector).ok().flatten()
    } else {
        scope.dyn_ref::<web_sys::Element>().and_then(|e| e.query_selector(&selector).ok().flatten())
    };
    if let Some(element) = found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
        let _ = element.focus();
    }
}

/// Focuses the first of the elements with these `data-testid`s that is there and enabled: where the focus
/// goes when the control it was on is gone (a removed dim's ×).
pub fn focus_first_enabled(document: &web_sys::Document, test_ids: &[String]) {
    let found = test_ids.iter().find_map(|id| {
        let element = document.query_selector(&format!("[data-testid=\"{id}\"]")).ok().flatten()?;
        let element = element.dyn_into::<web_sys::HtmlElement>().ok()?;
        (!element.has_attribute("disabled")).then_some(element)
    });
    if let Some(element) = found {
        let _ = element.focus();
    }
}

/// Escape typed where text is typed (a text or number field, a text area): it is the field's there. A
/// checkbox, a radio, a select or a slider has no use for it: the page's Escape (leaving a presentation or
/// the tour) did nothing from them (review 41).
pub fn escape_belongs_to_field(event: &web_sys::KeyboardEvent) -> bool {
    let Some(element) = event.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    match element.tag_name().as_str() {
        "TEXTAREA" => true,
        "INPUT" => !matches!(
            element.get_attribute("type").unwrap_or_default().to_ascii_lowercase().as_str(),
            "checkbox" | "radio" | "range" | "button" | "submit" | "reset" | "file" | "color"
        ),
        _ => false,
    }
}

/// Whether `event` was typed into a form field (text, select, checkbox, radio): keys such as the arrows are
/// the field's there, not the page's (Escape: [`escape_belongs_to_field`]).
pub fn typed_in_field(event: &web_sys::KeyboardEvent) -> bool {
    event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT"))
}

/// Where the keyboard focus is: `None` on the page itself, else on an element, with its `data-testid` if
/// it has one and which of the elements of that id it is (what [`keep_focus`] looks for again: a row's
/// buttons share an id, and the focus on row 3's "remove" came back on row 1's, where Enter removed
/// another stage).
pub fn focused() -> Option<Option<(String, u32)>> {
    let document = web_sys::window()?.document()?;
    let element = document.active_element().filter(|e| document.body().is_none_or(|body| *body != *e))?;
    Some(element.get_attribute("data-testid").map(|id| {
        let alike = document.query_selector_all(&format!("[data-testid=\"{id}\"]")).ok();
        let nth = alike.and_then(|all| (0..all.length()).find(|&i| all.get(i).is_some_and(|node| node == *element)));
        (id, nth.unwrap_or(0))
    }))
}

/// Once the views have followed a change made from elsewhere (Back, Forward, undo), puts the focus back
/// where it was (`focused` before the change) when its element was redrawn: on the element of the same
/// `data-testid`, else on the view panel. It fell to the page, and Tab went on from the top or the footer
/// (review 41). Focus that was on the page stays there.
pub fn keep_focus(focused: Option<Option<(String, u32)>>) {
    let Some(test_id) = focused else { return };
    after_render(move |document| {
        let on_page = document.active_element().is_none_or(|e| document.body().is_some_and(|body| *body == e));
        if !on_page {
            return;
        }
        // The same one of its kind, or the last when there are fewer now.
        let again = test_id.and_then(|(id, nth)| {
            let all = document.query_selector_all(&format!("[data-testid=\"{id}\"]")).ok()?;
            all.get(nth.min(all.length().checked_sub(1)?))?.dyn_into::<web_sys::Element>().ok()
        });
        match again.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            Some(element) => {
                let _ = element.focus();
            }
            None => focus_view_panel(),
        }
    });
}

/// Moves the keyboard focus to the view panel and its top into view, once another view has replaced the one
/// a control belonged to (the inventory's "open this tensor", its hand-off to the cycle): the focus was
/// left on the page, scrolled thousands of pixels down, and Tab went on from the footer.
pub fn focus_view_panel() {
    after_render(|document| {
        let Some(panel) = document.get_element_by_id(super::VIEW_PANEL) else { return };
        panel.scroll_into_view();
        if let Ok(panel) = panel.dyn_into::<web_sys::HtmlElement>() {
            let _ = panel.focus();
        }
    });
}
