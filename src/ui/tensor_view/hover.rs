//! Pointer and keyboard focus on pictures, shared by the tensor view and the mesh view: what is under the
//! pointer wins while it is there; when it leaves, the element with keyboard focus (if any) is shown again.

use leptos::prelude::*;

use crate::ui::{AppState, Focus, Side};

/// The focus an element stands for, read from its data attributes (`data-piece`, or `data-side` with
/// `data-device`); `Focus::Nothing` for anything else.
pub fn focus_of(element: &web_sys::Element) -> Focus {
    if let Some(index) = element.get_attribute("data-piece").and_then(|i| i.parse().ok()) {
        return Focus::Piece(index);
    }
    let side = match element.get_attribute("data-side").as_deref() {
        Some("source") => Side::Source,
        Some("destination") => Side::Destination,
        _ => return Focus::Nothing,
    };
    element
        .get_attribute("data-device")
        .and_then(|d| d.parse().ok())
        .map_or(Focus::Nothing, |device| Focus::Device { side, device })
}

/// Sets the focus, notifying only on a change (every view re-reads it).
pub fn set_focus(state: AppState, focus: Focus) {
    if state.focus.get_untracked() != focus {
        state.focus.set(focus);
    }
}

/// When the pointer leaves an element: back to whatever holds keyboard focus.
pub fn restore_keyboard_focus(state: AppState) {
    let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    set_focus(state, active.as_ref().map_or(Focus::Nothing, focus_of));
}

/// Escape on a focused piece or device: lets go of it (blurred, so its highlight and tooltip go, and the
/// pointer leaving does not bring them back). Returns whether the key was Escape.
pub fn let_go_on_escape(ev: &web_sys::KeyboardEvent, state: AppState) -> bool {
    use wasm_bindgen::JsCast;
    if ev.key() != "Escape" {
        return false;
    }
    ev.prevent_default();
    if let Some(element) = ev.target().and_then(|t| t.dyn_into::<web_sys::SvgElement>().ok()) {
        let _ = element.blur();
    }
    set_focus(state, Focus::Nothing);
    true
}

/// The name of a side in data attributes and text.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::Source => "source",
        Side::Destination => "destination",
    }
}
