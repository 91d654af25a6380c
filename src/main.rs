//! The web app's entry point (built by trunk): installs the panic hook and mounts [`App`] on `<body>`.

use reshard_lens::ui::{App, panic::install_panic_hook};

fn main() {
    install_panic_hook();
    leptos::mount::mount_to_body(App);
}
