//! A schema and arguments (JSON texts split at the first NUL byte): validation never panics, a
//! rejection leaves the arguments as they were, and accepted arguments stay accepted as they are.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolshelf::json;
use toolshelf::schema::validate;

fuzz_target!(|data: &[u8]| {
    let Some(split) = data.iter().position(|b| *b == 0) else { return };
    let (Ok(schema), Ok(args)) = (std::str::from_utf8(&data[..split]), std::str::from_utf8(&data[split + 1..])) else {
        return;
    };
    let (Ok(schema), Ok(args)) = (json::parse(schema), json::parse(args)) else { return };
    let mut checked = args.clone();
    match validate(&schema, &mut checked) {
        Ok(()) => {
            let mut again = checked.clone();
            assert!(validate(&schema, &mut again).is_ok(), "accepted arguments rejected on a second look");
            assert_eq!(again, checked, "coerced twice");
        }
        Err(violation) => {
            assert_eq!(checked, args, "a rejected call was changed");
            assert!(violation.path.starts_with("arguments") && !violation.message.is_empty());
        }
    }
});
