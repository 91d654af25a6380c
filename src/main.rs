//! The web app's entry point (built by trunk): installs the panic hook and mounts [`App`] on `<body>`.

use reshard_lens::ui::{App, panic::install_panic_hook, url_state};

fn main() {
    install_panic_hook();
    url_state::own_the_page();
    leptos::mount::mount_to_body(App);
}
