//! toolshelf keeps an LLM agent's many tools on a shelf: before each model request it replaces the
//! schemas of deferred tools (MCP servers, plugins) with three bridge tools and a listing sized to a
//! token budget; after the model answers, it turns a bridge call back into the real call.
//!
//! The core is `#![no_std]` + `alloc` and knows nothing of JavaScript; the binding module
//! (`wasm`, compiled for wasm32 only) is the one place that does.
//!
//! ```
//! use toolshelf::{json, Shelf};
//!
//! let toolbox = json::parse(r#"{
//!   "tools": [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}],
//!   "servers": {"linear": [{"type": "function", "function": {
//!     "name": "create_issue", "description": "Create a new issue in Linear.",
//!     "parameters": {"type": "object", "properties": {"title": {"type": "string"}}}}}]}
//! }"#).unwrap();
//! let options = json::parse(r#"{"contextLength": 200000}"#).unwrap();
//! let assembly = Shelf::new(&toolbox, &options).unwrap().assemble();
//! assert_eq!(assembly.facts.tier, 1);                  // bridge, tools listed one by one
//! let names: Vec<_> = assembly.tools.iter()
//!     .map(|t| t.get("function").and_then(|f| f.get("name")).and_then(|n| n.as_str()).unwrap())
//!     .collect();
//! assert_eq!(names, ["read_file", "tool_search", "tool_describe", "tool_call"]);
//! ```
#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(any(feature = "std", test))]
extern crate std;

pub mod assemble;
mod bridge;
pub mod catalog;
pub mod conversation;
mod describe;
mod dialect;
mod distance;
mod error;
mod find;
mod float;
mod format;
mod hash;
pub mod json;
mod listing;
mod lowercase;
pub mod native;
pub mod options;
pub mod schema;
pub mod search;
pub use search::embed;
mod shelf;
mod swar;
mod texts;
mod unwrap;
#[cfg(target_arch = "wasm32")]
pub mod wasm;
pub mod wire;

pub use assemble::{Assembly, Facts, Layout, ServerFacts, Slot};
pub use describe::Described;
pub use error::{Error, ErrorCode};
pub use find::{Found, SearchResult};
pub use format::{Fields, Format};
pub use json::Value;
pub use listing::{Form, Level};
pub use options::Options;
pub use shelf::snapshot::SNAPSHOT_VERSION;
pub use shelf::{assemble, describe, search, unwrap, Shelf};
pub use unwrap::{Call, Prepared, SentAt, Unwrapped};
