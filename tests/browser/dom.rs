//! DOM helpers shared by the browser component tests' modules.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

/// A fresh `<div>` in the page's body for one test to mount into.
pub fn wrapper() -> HtmlElement {
    let document = web_sys::window().and_then(|w| w.document()).expect("a browser document");
    let element = document.create_element("div").expect("a div").unchecked_into::<HtmlElement>();
    document.body().expect("a body").append_child(&element).expect("appended");
    element
}

/// The one element matching `selector` inside `root`.
pub fn find(root: &Element, selector: &str) -> Element {
    root.query_selector(selector).expect("a valid selector").unwrap_or_else(|| panic!("no element matches {selector}"))
}

/// The text of the one element matching `selector` inside `root`.
pub fn text_of(root: &Element, selector: &str) -> String {
    find(root, selector).text_content().unwrap_or_default()
}

/// The texts of every element matching `selector` inside `root`, in document order.
pub fn texts_of(root: &Element, selector: &str) -> Vec<String> {
    let list = root.query_selector_all(selector).expect("a valid selector");
    (0..list.length()).filter_map(|i| list.item(i)).map(|node| node.text_content().unwrap_or_default()).collect()
}

/// How many elements match `selector` inside `root`.
pub fn count(root: &Element, selector: &str) -> u32 {
    root.query_selector_all(selector).expect("a valid selector").length()
}

/// Clicks the one element matching `selector` inside `root`.
pub fn click(root: &Element, selector: &str) {
    find(root, selector).unchecked_into::<HtmlElement>().click();
}

/// Types `value` into the one input matching `selector` inside `root`, as a user would: set it, then fire
/// `input`.
pub fn type_text(root: &Element, selector: &str, value: &str) {
    let input = find(root, selector).unchecked_into::<web_sys::HtmlInputElement>();
    input.set_value(value);
    input.dispatch_event(&web_sys::Event::new("input").expect("an event")).expect("dispatched");
}

/// Waits until the panels that follow an edit one paint later (`src/ui/after_paint.rs`) have caught up: the
/// next animation frame, a task after the app's own, then the reactive updates it started.
pub async fn next_paint() {
    let window = web_sys::window().expect("a window");
    let frame = web_sys::js_sys::Promise::new(&mut |resolve, _| {
        window.request_animation_frame(&resolve).expect("a frame");
    });
    wasm_bindgen_futures::JsFuture::from(frame).await.expect("the frame came");
    let task = web_sys::js_sys::Promise::new(&mut |resolve, _| {
        window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0).expect("a timer");
    });
    wasm_bindgen_futures::JsFuture::from(task).await.expect("the timer fired");
    leptos::task::tick().await;
}

/// Forgets what an app mounted earlier in this page left for the next one: its autosave in local storage,
/// and its state in the address (a `?preset=` link followed, a fragment written). Every test module shares
/// one page, and the app opens what it finds there, so a test that mounts the whole app calls this first.
pub fn forget_saved_state() {
    let window = web_sys::window().expect("a window");
    if let Ok(Some(storage)) = window.local_storage() {
        storage.clear().expect("local storage cleared");
    }
    let location = window.location();
    let address = location.pathname().expect("a path");
    let history = window.history().expect("a history");
    history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address)).expect("the address reset");
}

/// Presses `key` on `element` as a keyboard would (a bubbling, cancelable `keydown`); returns whether the
/// element's handler took it from the page (prevented its default).
pub fn press(element: &Element, key: &str) -> bool {
    let init = web_sys::KeyboardEventInit::new();
    init.set_key(key);
    init.set_bubbles(true);
    init.set_cancelable(true);
    let event = web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).expect("an event");
    element.dispatch_event(&event).expect("dispatched");
    event.default_prevented()
}
