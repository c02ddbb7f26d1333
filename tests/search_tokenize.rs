//! Word splitting of every naming style the catalogs use, and the `mcp__<server>__` prefix.
// Native only, as every test here but tests/wasm_*.rs: flate2 and proptest are native dev-dependencies.
#![cfg(not(target_arch = "wasm32"))]

use toolshelf::search::tokenize::{strip_mcp_prefix, words};

fn check(text: &str, expected: &str) {
    assert_eq!(words(text, true).join(" "), expected, "words({text:?})");
}

fn check_no_camel(text: &str, expected: &str) {
    assert_eq!(words(text, false).join(" "), expected, "words({text:?}, no camel)");
}

#[test]
fn naming_styles() {
    check("create_issue", "create issue");
    check("PostChargesChargeRefunds", "post charges charge refunds");
    check("dns-records-for-a-zone-create-dns-record", "dns records for a zone create dns record");
    check("api_v2010_CreateMessage", "api v 2010 create message");
    check("getStoryWithComments", "get story with comments");
    check("mcp_howtocook_getAllRecipes", "mcp howtocook get all recipes");
    check("HTMLParser", "html parser");
    check("getURLForID", "get url for id");
    check("Get3dSecureThreeDSecure", "get 3 d secure three d secure");
    check("workers-ai-post-run-cf-meta-llama-3-1-8b-instruct", "workers ai post run cf meta llama 3 1 8 b instruct");
    check("files.read:text/plain", "files read text plain");
    check("user_-s-account-memberships", "user s account memberships");
    check("ALLCAPS", "allcaps");
    check("r2", "r 2");
}

#[test]
fn descriptions_and_queries() {
    check("List pull requests in a GitHub repository.", "list pull requests in a git hub repository");
    check("<p>Create a refund.</p>", "p create a refund p");
    check("  refund   charge ", "refund charge");
    check("获取 weather 天气", "weather");
    check("naïve café", "na ve caf");
    check("", "");
    check("  \t\n", "");
    check("?!.,;:-_/", "");
}

#[test]
fn without_camel_case_splitting() {
    check_no_camel("PostChargesChargeRefunds", "postchargeschargerefunds");
    check_no_camel("api_v2010_CreateMessage", "api v 2010 createmessage");
    check_no_camel("create_issue", "create issue");
}

#[test]
fn mcp_prefix() {
    let check = |name: &str, bare: &str| assert_eq!(strip_mcp_prefix(name), bare, "{name:?}");
    check("mcp__github__create_issue", "create_issue");
    check("mcp__my-server__do__thing", "do__thing");
    check("mcp__github__", "mcp__github__");
    check("mcp____x", "mcp____x");
    check("mcp__github", "mcp__github");
    check("create_issue", "create_issue");
    check("", "");
}
