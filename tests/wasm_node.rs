//! The shared wasm boundary tests (`tests/wasm/common.rs`) under Node: `wasm-pack test --node -- --test wasm_node`.
//! Compiled for wasm32 only; natively this file is empty.
#![cfg(target_arch = "wasm32")]

#[path = "wasm/common.rs"]
mod common;
