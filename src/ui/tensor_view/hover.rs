//! Pointer and keyboard focus on pictures, shared by the tensor view and the mesh view: what the pointer
//! moves onto wins while it is there; when it leaves, the element with keyboard focus (if any) is shown again.

use std::cell::Cell;

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

thread_local! {
    /// Where the window saw the pointer last, once [`follow_pointer`] has started following it.
    static POINTER: Cell<Option<(i32, i32)>> = const { Cell::new(None) };
    static FOLLOWING: Cell<bool> = const { Cell::new(false) };
}

/// Whether a pointer event over a picture may set the focus: yes when the pointer moved, and when the page
/// moved under a resting pointer while no picture holds keyboard focus (a mouse user scrolling with the
/// wheel sees what is now under the pointer). Not when a picture element holds keyboard focus: Tab to a
/// device below the fold scrolls the page, the browser reports the tile that came under the resting mouse
/// as entered, and taken for a hover, that tile replaced the device the keyboard had just chosen in every
/// highlight and readout.
///
/// The page moving is told by the coordinates: the window's `mousemove` listener ([`follow_pointer`])
/// records each position after the pictures' handlers have seen it, and an event at the recorded position
/// is not the pointer moving.
pub fn pointer_wins(ev: &web_sys::MouseEvent) -> bool {
    follow_pointer();
    POINTER.get() != Some((ev.client_x(), ev.client_y())) || keyboard_focus() == Focus::Nothing
}

/// Starts recording where the pointer is, once per page: called by every view that draws a picture (in the
/// app, an embed or a widget), so that the pointer's resting place is known before the page first scrolls.
pub fn follow_pointer() {
    if !FOLLOWING.replace(true) {
        // Never removed: one listener for the page's life, shared by every picture.
        let _ = window_event_listener(leptos::ev::mousemove, |ev: web_sys::MouseEvent| {
            POINTER.set(Some((ev.client_x(), ev.client_y())));
        });
    }
}

/// Sets the focus, notifying only on a change (every view re-reads it).
pub fn set_focus(state: AppState, focus: Focus) {
    if state.focus.get_untracked() != focus {
        state.focus.set(focus);
    }
}

/// What the element with keyboard focus stands for (`Focus::Nothing` when it is not a piece or a device).
fn keyboard_focus() -> Focus {
    let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    active.as_ref().map_or(Focus::Nothing, focus_of)
}

/// When the pointer leaves an element: back to whatever holds keyboard focus.
pub fn restore_keyboard_focus(state: AppState) {
    set_focus(state, keyboard_focus());
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
