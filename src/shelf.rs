//! `Shelf`: a toolbox prepared once with its options, answering every operation; and the stateless
//! free functions, which prepare a shelf per call and give the same results.

use crate::assemble::{layout, Assembly, Layout};
use crate::catalog::{parse_input, Catalog};
use crate::error::{Error, ErrorCode};
use crate::json::Value;
use crate::options::Options;
use alloc::string::String;
use alloc::vec::Vec;

/// A toolbox prepared with its options.
#[derive(Clone, Debug)]
pub struct Shelf {
    catalog: Catalog,
    options: Options,
    warnings: Vec<String>,
}

impl Shelf {
    /// Prepares `toolbox` (SPEC §2.2) with `options` (SPEC §3.1, read leniently).
    pub fn new(toolbox: &Value, options: &Value) -> Result<Shelf, Error> {
        let parsed = Options::parse(options);
        Shelf::with_options(toolbox.clone(), parsed.options, parsed.warnings)
    }

    /// Prepares a toolbox given as JSON text, with options as JSON text (`""` or `"null"` for none).
    pub fn from_json(toolbox: &str, options: &str) -> Result<Shelf, Error> {
        let toolbox = parse_input(toolbox, "toolbox", ErrorCode::InvalidToolbox)?;
        let parsed =
            if options.trim().is_empty() { Options::parse(&Value::Null) } else { Options::parse_json(options) };
        Shelf::with_options(toolbox, parsed.options, parsed.warnings)
    }

    /// Prepares a toolbox (taking it, no copy) with options already built in Rust; `warnings` are
    /// carried into every assembly.
    pub fn with_options(toolbox: Value, options: Options, mut warnings: Vec<String>) -> Result<Shelf, Error> {
        let catalog = Catalog::parse(toolbox, &options)?;
        warnings.extend(catalog.warnings.iter().cloned());
        Ok(Shelf { catalog, options, warnings })
    }

    /// The parsed toolbox.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// The options in force.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The model-visible tools and facts (SPEC §3).
    pub fn assemble(&self) -> Assembly {
        self.layout().into()
    }

    /// As [`Shelf::assemble`], but borrowing the caller's tool defs instead of copying them:
    /// what a binding needs to hand the caller back its own objects.
    pub fn layout(&self) -> Layout<'_> {
        layout(&self.catalog, &self.options, &self.warnings)
    }
}

/// Stateless assemble: `Shelf::new(toolbox, options)?.assemble()`.
pub fn assemble(toolbox: &Value, options: &Value) -> Result<Assembly, Error> {
    Ok(Shelf::new(toolbox, options)?.assemble())
}
