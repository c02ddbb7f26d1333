//! The five tool-definition formats of SPEC §2.1: detect one, read a tool's name, description and
//! schema from it, and write a tool (the bridge tools) in it.
//!
//! Layer 2 of ARCHITECTURE.md's Layers: imports only `error`, `hash`, `float`, `swar`, `lowercase`, `json`.

use crate::json::Value;
use alloc::string::String;
use alloc::vec;

/// A tool-definition format. All tools of one toolbox share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Format {
    /// OpenAI Chat Completions: `{"type":"function","function":{name, description, parameters}}`.
    OpenAi,
    /// OpenAI Responses: `{"type":"function", name, description, parameters, strict?}`.
    Responses,
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
    /// MCP `tools/list` items: `{name, title?, description, inputSchema, annotations?}`.
    Mcp,
    /// Gemini function declarations: `{name, description, parameters}`.
    Gemini,
}

/// What a format keeps of one tool: borrowed from the tool def.
pub struct Fields<'a> {
    /// The tool's name, if it has a string one.
    pub name: Option<&'a str>,
    /// The description, if a string.
    pub description: Option<&'a str>,
    /// The parameters schema, if present.
    pub schema: Option<&'a Value>,
}

impl Format {
    /// Every format, in the order detection tries them.
    pub const ALL: [Format; 5] = [Format::OpenAi, Format::Responses, Format::Anthropic, Format::Mcp, Format::Gemini];

    /// The name used in options and messages.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::OpenAi => "openai",
            Format::Responses => "responses",
            Format::Anthropic => "anthropic",
            Format::Mcp => "mcp",
            Format::Gemini => "gemini",
        }
    }

    /// The format named `name` (as in the `format` option), if any.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str().eq_ignore_ascii_case(name.trim()))
    }

    /// The format a tool def's shape says, or `None` when the shape says nothing (e.g. `{name}` only).
    pub fn detect(tool: &Value) -> Option<Format> {
        if tool.get("function").is_some_and(Value::is_object) {
            Some(Format::OpenAi)
        } else if tool.get("type").and_then(Value::as_str) == Some("function") && tool.get("name").is_some() {
            Some(Format::Responses)
        } else if tool.get("input_schema").is_some() {
            Some(Format::Anthropic)
        } else if tool.get("inputSchema").is_some() {
            Some(Format::Mcp)
        } else if tool.get("name").is_some() && tool.get("parameters").is_some() && tool.get("type").is_none() {
            Some(Format::Gemini)
        } else {
            None
        }
    }

    /// Where this format keeps a tool's fields: the key of the object holding them, when it is
    /// not the def itself (OpenAI Chat's `function`, read only when present), and the schema's key.
    pub fn field_keys(self) -> (Option<&'static str>, &'static str) {
        match self {
            Format::OpenAi => (Some("function"), "parameters"),
            Format::Responses | Format::Gemini => (None, "parameters"),
            Format::Anthropic => (None, "input_schema"),
            Format::Mcp => (None, "inputSchema"),
        }
    }

    /// Reads a tool def's name, description and schema as this format keeps them.
    pub fn fields(self, tool: &Value) -> Fields<'_> {
        let (holder_key, schema_key) = self.field_keys();
        let holder = holder_key.and_then(|key| tool.get(key)).unwrap_or(tool);
        Fields {
            name: holder.get("name").and_then(Value::as_str),
            description: holder.get("description").and_then(Value::as_str),
            schema: holder.get(schema_key),
        }
    }

    /// A tool def in this format.
    pub fn tool(self, name: &str, description: &str, schema: Value) -> Value {
        let core = |schema_key: &str| {
            vec![
                (String::from("name"), Value::str(name)),
                (String::from("description"), Value::str(description)),
                (String::from(schema_key), schema.clone()),
            ]
        };
        match self {
            Format::OpenAi => {
                Value::object([("type", Value::str("function")), ("function", Value::Object(core("parameters")))])
            }
            Format::Responses => {
                let mut members = vec![(String::from("type"), Value::str("function"))];
                members.extend(core("parameters"));
                Value::Object(members)
            }
            Format::Anthropic => Value::Object(core("input_schema")),
            Format::Mcp => Value::Object(core("inputSchema")),
            Format::Gemini => Value::Object(core("parameters")),
        }
    }

    /// The same tool def with its name replaced (used by `qualify` when tools are shown as they are).
    pub fn renamed(self, tool: &Value, new_name: &str) -> Value {
        let mut copy = tool.clone();
        let holder = match (self, &mut copy) {
            (Format::OpenAi, Value::Object(members)) => {
                members.iter_mut().rev().find(|(k, _)| k == "function").map(|(_, v)| v)
            }
            (_, other) => Some(other),
        };
        if let Some(Value::Object(members)) = holder {
            if let Some(slot) = members.iter_mut().rev().find(|(k, _)| k == "name") {
                slot.1 = Value::str(new_name);
            }
        }
        copy
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse;

    fn detect(text: &str) -> Option<Format> {
        Format::detect(&parse(text).unwrap())
    }

    #[test]
    fn detection_follows_the_shape() {
        for (text, expected) in [
            (r#"{"type":"function","function":{"name":"a"}}"#, Some(Format::OpenAi)),
            (r#"{"type":"function","name":"a","parameters":{}}"#, Some(Format::Responses)),
            (r#"{"name":"a","input_schema":{}}"#, Some(Format::Anthropic)),
            (r#"{"name":"a","inputSchema":{}}"#, Some(Format::Mcp)),
            (r#"{"name":"a","parameters":{}}"#, Some(Format::Gemini)),
            (r#"{"name":"a","description":"b"}"#, None),
            (r#"{"type":"custom","name":"a","parameters":{}}"#, None),
        ] {
            assert_eq!(detect(text), expected, "{text}");
        }
    }

    #[test]
    fn each_format_writes_what_it_reads() {
        let schema = parse(r#"{"type":"object"}"#).unwrap();
        for format in Format::ALL {
            let tool = format.tool("n", "d", schema.clone());
            assert_eq!(Format::detect(&tool), Some(format));
            let fields = format.fields(&tool);
            assert_eq!((fields.name, fields.description, fields.schema), (Some("n"), Some("d"), Some(&schema)));
            let renamed = format.renamed(&tool, "m");
            assert_eq!(format.fields(&renamed).name, Some("m"));
        }
    }
}
