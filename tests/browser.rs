#![cfg(target_arch = "wasm32")]
//! Browser component tests: components mounted in headless Chromium, their DOM read
//! (`cargo test --target wasm32-unknown-unknown --test browser`; the runner is set in .cargo/config.toml).
//!
//! One test binary with a module per area: every binary links the app and is processed by wasm-bindgen and
//! opened in its own browser, so six binaries cost a clean build (CI) minutes more than one.

use wasm_bindgen_test::wasm_bindgen_test_configure;

wasm_bindgen_test_configure!(run_in_browser);

#[path = "browser/dom.rs"]
mod dom;

#[path = "browser/analysis.rs"]
mod analysis;
#[path = "browser/cycle.rs"]
mod cycle;
#[path = "browser/editor.rs"]
mod editor;
#[path = "browser/shell.rs"]
mod shell;
#[path = "browser/teach.rs"]
mod teach;
#[path = "browser/views.rs"]
mod views;
