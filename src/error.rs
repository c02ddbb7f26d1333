//! Programmer errors: a stable code and a message that says where (`servers.github[3]: ...`).
//!
//! Layer 0 of ARCHITECTURE.md's Layers: imports only nothing.

use alloc::string::String;
use core::fmt;

/// The stable codes of SPEC §8. Model mistakes are never errors; they are `reject` results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// The toolbox is not a list of tools or a `{tools, servers}` object.
    InvalidToolbox,
    /// One tool is unusable (no name, not an object, unknown shape).
    InvalidTool,
    /// Two tools share one name.
    DuplicateTool,
    /// Tools of more than one format in one toolbox.
    MixedFormats,
    /// A call given to unwrap is not an object with a name.
    InvalidCall,
    /// A bound of §8 was exceeded (nesting depth, tool count, text size).
    TooLarge,
    /// Bytes given as a snapshot that are not one this version reads (truncated, corrupt, of
    /// another version, hostile), or a toolbox or options that differ from the snapshot's (SPEC §13).
    InvalidSnapshot,
    /// Vectors given for semantic search (SPEC §12) that do not fit: another model or dimension
    /// than the shelf's, a count other than the deferred tools', a component that is not a finite
    /// number, a zero vector.
    InvalidEmbeddings,
}

impl ErrorCode {
    /// The code as JavaScript sees it in `error.code`.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidToolbox => "invalid_toolbox",
            ErrorCode::InvalidTool => "invalid_tool",
            ErrorCode::DuplicateTool => "duplicate_tool",
            ErrorCode::MixedFormats => "mixed_formats",
            ErrorCode::InvalidCall => "invalid_call",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::InvalidSnapshot => "invalid_snapshot",
            ErrorCode::InvalidEmbeddings => "invalid_embeddings",
        }
    }
}

/// A programmer error: thrown as a JS `Error` with `code`, returned as `Err` in Rust.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The stable code.
    pub code: ErrorCode,
    /// What is wrong and where, e.g. `servers.github[3]: a tool needs a "name"`.
    pub message: String,
}

impl Error {
    /// An error with a code and a message.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Error {
        Error { code, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
