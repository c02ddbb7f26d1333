//! toolshelf: keeps an LLM agent's many tools on a shelf. See the crate docs below.
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod error;
pub mod json;
pub mod schema;

pub use error::{Error, ErrorCode};
pub use json::Value;
