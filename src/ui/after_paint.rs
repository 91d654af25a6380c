//! Values that follow an edit one paint later.
//!
//! An edit first repaints what is in view at the top of the page (the change, its totals, the tensor and
//! mesh pictures); the panels below them (traffic tables, heatmap, device bars, piece list, strategy
//! comparison) read copies that catch up after the next animation frame. Rebuilding all of them in the
//! edit's own task took two to three frames on the toy, most of it spent on tables that are off screen.

use leptos::prelude::*;

/// A signal holding `read()`, refreshed one paint after every change of what `track` reads (at once when
/// created). `track` should be cheap; `read` runs in the later task, so an expensive value (another plan)
/// is not computed before the paint either. `read` must only use signals that live at least as long as the
/// caller's owner: when that owner is gone by the time the task runs, nothing is read.
///
/// The effect's first run is checked too: it runs a tick after creation, and whatever changed in between
/// (the app restoring a shared link's state right after creating its own) would otherwise never be read.
/// The copy is set only when the value differs, so that check costs the panels nothing when nothing did.
pub fn after_paint<T>(track: impl Fn() + 'static, read: impl Fn() -> T + Copy + 'static) -> ReadSignal<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    use gloo::timers::callback::Timeout;
    use std::{cell::Cell, rc::Rc};
    let copy = RwSignal::new(read());
    let refresh = move || {
        if copy.is_disposed() {
            return;
        }
        let now = read();
        if copy.with_untracked(|held| *held != now) {
            copy.set(now);
        }
    };
    Effect::new(move || {
        track();
        // After the next paint as a rule; from a timer where no frame comes (an iframe out of view, whose
        // panels held the page's opening state until scrolled to). Whichever comes first refreshes.
        let done = Rc::new(Cell::new(false));
        let once = move || {
            if !done.replace(true) {
                refresh();
            }
        };
        let after_frame = once.clone();
        request_animation_frame(move || {
            Timeout::new(0, after_frame).forget();
        });
        Timeout::new(NO_FRAME_MS, once).forget();
    });
    copy.read_only()
}

/// How long to wait for a frame before refreshing without one.
const NO_FRAME_MS: u32 = 250;
