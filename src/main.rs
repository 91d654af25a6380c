//! The web app's entry point (built by trunk): installs the panic hook, then mounts either the whole app on
//! `<body>` or, on a documentation page prepared by `public/widget.js`, one widget per text block.

use reshard_lens::ui::{App, panic::install_panic_hook, url_state, widgets};

fn main() {
    install_panic_hook();
    if let Some(mounts) = widgets::requested() {
        widgets::mount_all(mounts);
        return;
    }
    url_state::own_the_page();
    leptos::mount::mount_to_body(App);
    // The "Opening…" placeholder of index.html, now that the app stands in its place.
    if let Some(booting) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("booting")) {
        booting.remove();
    }
}
