//! A panic hook that shows the panic on the page, so a bug never leaves a silent blank page.

/// The `id` of the element that shows a panic (styled in `style/main.css`; `public/boot.js` writes start-up
/// failures to the same element).
pub const PANIC_ELEMENT_ID: &str = "panic";

/// Installs the hook: the message goes to the console (with a stack trace) and onto the page.
///
/// Call once, before mounting the app.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_panic(&info.to_string());
    }));
}

/// Writes `message` into a fixed alert box at the top of the page, creating the box if needed.
///
/// The message is set as text, never parsed as HTML. Does nothing when there is no document (a worker),
/// since there is nowhere to show it; the console still has it.
pub fn show_panic(message: &str) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let element = match document.get_element_by_id(PANIC_ELEMENT_ID) {
        Some(element) => element,
        None => {
            let Ok(element) = document.create_element("div") else {
                return;
            };
            element.set_id(PANIC_ELEMENT_ID);
            // Failing to set the role only loses the screen-reader announcement; the text still shows.
            let _ = element.set_attribute("role", "alert");
            let Some(body) = document.body() else { return };
            if body.append_child(&element).is_err() {
                return;
            }
            element
        }
    };
    element.set_text_content(Some(&format!(
        "Reshard Lens stopped because of a bug: {message}\nReload the page to start again; the browser \
         console has the details."
    )));
}
