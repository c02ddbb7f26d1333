//! The shared wasm boundary tests (`tests/wasm/common.rs`) in headless Chromium:
//! `wasm-pack test --headless --chrome -- --test wasm_browser` (flags in `webdriver.json`).
//! Compiled for wasm32 only; natively this file is empty.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "wasm/common.rs"]
mod common;
