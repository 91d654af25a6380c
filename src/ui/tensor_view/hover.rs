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
/// Also where an element let go of with Escape stops being let go of: when it loses the keyboard focus.
pub fn follow_pointer() {
    if !FOLLOWING.replace(true) {
        // Never removed: one listener each for the page's life, shared by every picture.
        let _ = window_event_listener(leptos::ev::mousemove, |ev: web_sys::MouseEvent| {
            POINTER.set(Some((ev.client_x(), ev.client_y())));
        });
        let _ = window_event_listener(leptos::ev::focusout, |ev: web_sys::FocusEvent| {
            use wasm_bindgen::JsCast;
            if let Some(element) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                take_back(&element);
            }
        });
    }
}

/// Marks a focused picture element let go of with Escape: it keeps the keyboard focus but stands for nothing.
const LET_GO: &str = "data-let-go";

/// An element let go of with Escape stands for itself again (the keyboard moved the focus on, or left it).
pub fn take_back(element: &web_sys::Element) {
    let _ = element.remove_attribute(LET_GO);
}

/// Sets the focus, notifying only on a change (every view re-reads it).
pub fn set_focus(state: AppState, focus: Focus) {
    if state.focus.get_untracked() != focus {
        state.focus.set(focus);
    }
}

/// What the element with keyboard focus stands for (`Focus::Nothing` when it is not a piece or a device, or
/// was let go of with Escape).
fn keyboard_focus() -> Focus {
    let active = web_sys::window().and_then(|w| w.document()).and_then(|d| d.active_element());
    active.filter(|a| !a.has_attribute(LET_GO)).as_ref().map_or(Focus::Nothing, focus_of)
}

/// When the pointer leaves an element: back to whatever holds keyboard focus.
pub fn restore_keyboard_focus(state: AppState) {
    set_focus(state, keyboard_focus());
}

/// Escape on a focused piece or device: lets go of it, so its highlight and tooltip go and the pointer
/// leaving does not bring them back. It keeps the keyboard focus, so that the next Tab goes on from there
/// (blurred, it went back to the top of the page), marked let go of until the focus moves on
/// ([`take_back`]). Escape again, with nothing shown, is not the picture's: it goes on to the page (leaving
/// Present or the tour). Returns whether the picture took the key.
pub fn let_go_on_escape(ev: &web_sys::KeyboardEvent, state: AppState) -> bool {
    use wasm_bindgen::JsCast;
    if ev.key() != "Escape" {
        return false;
    }
    let Some(element) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return false };
    if element.has_attribute(LET_GO) && state.focus.get_untracked() == Focus::Nothing {
        return false;
    }
    ev.prevent_default();
    let _ = element.set_attribute(LET_GO, "");
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
