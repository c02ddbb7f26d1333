//! Stemming: our Porter2 against the Snowball project's reference implementation.
//!
//! `REFERENCE` pairs were produced by the Snowball reference stemmer (`snowballstemmer` 2.2.0,
//! English): the words of the Snowball sample vocabulary around `consign`/`knack`, the examples
//! of the algorithm's description, its exception lists, and every 40th word of the test catalogs'
//! vocabulary. (All 9,534 distinct words of the catalogs were checked once and agreed.)

use toolshelf::search::stem::stem;

fn check(word: &str, expected: &str) {
    assert_eq!(stem(word), expected, "stem({word:?})");
}

#[test]
fn snowball_reference_pairs() {
    assert!(REFERENCE.len() > 400);
    for (word, expected) in REFERENCE {
        check(word, expected);
    }
}

#[test]
fn inputs_outside_the_token_alphabet_come_back_unchanged() {
    check("", "");
    check("a", "a");
    check("is", "is");
    check("Running", "Running");
    check("naïve", "naïve");
    check("re-run", "re-run");
    check("2010", "2010");
    check("v2", "v2");
}

#[test]
fn words_tool_catalogs_use() {
    check("refunds", "refund");
    check("charges", "charg");
    check("repositories", "repositori");
    check("repository", "repositori");
    check("notifications", "notif");
    check("creating", "creat");
    check("created", "creat");
    check("webhooks", "webhook");
    check("subscriptions", "subscript");
}

const REFERENCE: &[(&str, &str)] = &[
    ("consign", "consign"), ("consigned", "consign"), ("consigning", "consign"),
    ("consignment", "consign"), ("consist", "consist"), ("consisted", "consist"),
    ("consistency", "consist"), ("consistent", "consist"), ("consistently", "consist"),
    ("consisting", "consist"), ("consists", "consist"), ("consolation", "consol"),
    ("consolations", "consol"), ("consolatory", "consolatori"), ("console", "consol"),
    ("consoled", "consol"), ("consoles", "consol"), ("consolidate", "consolid"),
    ("consolidated", "consolid"), ("consolidating", "consolid"), ("consoling", "consol"),
    ("consolingly", "consol"), ("consols", "consol"), ("consonant", "conson"),
    ("consort", "consort"), ("consorted", "consort"), ("consorting", "consort"),
    ("conspicuous", "conspicu"), ("conspicuously", "conspicu"), ("conspiracy", "conspiraci"),
    ("conspirator", "conspir"), ("conspirators", "conspir"), ("conspire", "conspir"),
    ("conspired", "conspir"), ("conspiring", "conspir"), ("constable", "constabl"),
    ("constables", "constabl"), ("constance", "constanc"), ("constancy", "constanc"),
    ("constant", "constant"), ("knack", "knack"), ("knackeries", "knackeri"), ("knacks", "knack"),
    ("knag", "knag"), ("knave", "knave"), ("knaves", "knave"), ("knavish", "knavish"),
    ("kneaded", "knead"), ("kneading", "knead"), ("knee", "knee"), ("kneel", "kneel"),
    ("kneeled", "kneel"), ("kneeling", "kneel"), ("kneels", "kneel"), ("knees", "knee"),
    ("knell", "knell"), ("knelt", "knelt"), ("knew", "knew"), ("knick", "knick"),
    ("knif", "knif"), ("knife", "knife"), ("knight", "knight"), ("knightly", "knight"),
    ("knights", "knight"), ("knit", "knit"), ("knits", "knit"), ("knitted", "knit"),
    ("knitting", "knit"), ("knives", "knive"), ("knob", "knob"), ("knobs", "knob"),
    ("knock", "knock"), ("knocked", "knock"), ("knocker", "knocker"), ("knockers", "knocker"),
    ("knocking", "knock"), ("knocks", "knock"), ("knopp", "knopp"), ("knot", "knot"),
    ("knots", "knot"), ("caresses", "caress"), ("ponies", "poni"), ("ties", "tie"),
    ("caress", "caress"), ("cats", "cat"), ("feed", "feed"), ("agreed", "agre"),
    ("plastered", "plaster"), ("bled", "bled"), ("motoring", "motor"), ("sing", "sing"),
    ("conflated", "conflat"), ("troubled", "troubl"), ("sized", "size"), ("hopping", "hop"),
    ("tanned", "tan"), ("falling", "fall"), ("hissing", "hiss"), ("fizzed", "fizz"),
    ("failing", "fail"), ("filing", "file"), ("happy", "happi"), ("sky", "sky"),
    ("relational", "relat"), ("conditional", "condit"), ("rational", "ration"),
    ("valenci", "valenc"), ("hesitanci", "hesit"), ("digitizer", "digit"),
    ("conformabli", "conform"), ("radicalli", "radic"), ("differentli", "differ"),
    ("vileli", "vile"), ("analogousli", "analog"), ("vietnamization", "vietnam"),
    ("predication", "predic"), ("operator", "oper"), ("feudalism", "feudal"),
    ("decisiveness", "decis"), ("hopefulness", "hope"), ("callousness", "callous"),
    ("formaliti", "formal"), ("sensitiviti", "sensit"), ("sensibiliti", "sensibl"),
    ("triplicate", "triplic"), ("formative", "format"), ("formalize", "formal"),
    ("electriciti", "electr"), ("electrical", "electr"), ("hopeful", "hope"),
    ("goodness", "good"), ("revival", "reviv"), ("allowance", "allow"), ("inference", "infer"),
    ("airliner", "airlin"), ("gyroscopic", "gyroscop"), ("adjustable", "adjust"),
    ("defensible", "defens"), ("irritant", "irrit"), ("replacement", "replac"),
    ("adjustment", "adjust"), ("dependent", "depend"), ("adoption", "adopt"),
    ("homologou", "homologou"), ("communism", "communism"), ("activate", "activ"),
    ("angulariti", "angular"), ("homologous", "homolog"), ("effective", "effect"),
    ("bowdlerize", "bowdler"), ("probate", "probat"), ("rate", "rate"), ("cease", "ceas"),
    ("controll", "control"), ("roll", "roll"), ("generate", "generat"), ("generates", "generat"),
    ("generated", "generat"), ("generating", "generat"), ("general", "general"),
    ("generally", "general"), ("generic", "generic"), ("generically", "generic"),
    ("generous", "generous"), ("generously", "generous"), ("communication", "communic"),
    ("communications", "communic"), ("communist", "communist"), ("community", "communiti"),
    ("arsenal", "arsenal"), ("arsenals", "arsenal"), ("arsenic", "arsenic"), ("skis", "ski"),
    ("skies", "sky"), ("dying", "die"), ("lying", "lie"), ("tying", "tie"), ("idly", "idl"),
    ("gently", "gentl"), ("ugly", "ugli"), ("early", "earli"), ("only", "onli"),
    ("singly", "singl"), ("news", "news"), ("howe", "howe"), ("atlas", "atlas"),
    ("cosmos", "cosmos"), ("bias", "bias"), ("andes", "andes"), ("inning", "inning"),
    ("innings", "inning"), ("outing", "outing"), ("outings", "outing"), ("canning", "canning"),
    ("cannings", "canning"), ("herring", "herring"), ("herrings", "herring"),
    ("earring", "earring"), ("earrings", "earring"), ("proceed", "proceed"),
    ("proceeds", "proceed"), ("proceeded", "proceed"), ("proceeding", "proceed"),
    ("exceed", "exceed"), ("exceeds", "exceed"), ("exceeded", "exceed"), ("exceeding", "exceed"),
    ("succeed", "succeed"), ("succeeds", "succeed"), ("succeeded", "succeed"),
    ("succeeding", "succeed"), ("yelled", "yell"), ("youth", "youth"), ("boy", "boy"),
    ("boys", "boy"), ("toy", "toy"), ("enjoying", "enjoy"), ("saying", "say"), ("played", "play"),
    ("cried", "cri"), ("crying", "cri"), ("by", "by"), ("say", "say"), ("apply", "appli"),
    ("applied", "appli"), ("applying", "appli"), ("fly", "fli"), ("flies", "fli"),
    ("flying", "fli"), ("a", "a"), ("accepts", "accept"), ("acls", "acl"),
    ("adequately", "adequ"), ("advisory", "advisori"), ("aiding", "aid"), ("alias", "alia"),
    ("although", "although"), ("analyzer", "analyz"), ("anomaly", "anomali"), ("appl", "appl"),
    ("arcgis", "arcgi"), ("arrows", "arrow"), ("assess", "assess"), ("astronauts", "astronaut"),
    ("attractions", "attract"), ("autofix", "autofix"), ("axes", "axe"), ("banks", "bank"),
    ("be", "be"), ("benchmark", "benchmark"), ("bilibili", "bilibili"),
    ("bitcoinist", "bitcoinist"), ("bodies", "bodi"), ("boundary", "boundari"),
    ("brewery", "breweri"), ("builder", "builder"), ("bytedance", "byted"), ("caller", "caller"),
    ("capacities", "capac"), ("case", "case"), ("cdo", "cdo"), ("championships", "championship"),
    ("checkboxes", "checkbox"), ("chromatic", "chromat"), ("classical", "classic"),
    ("clockwise", "clockwis"), ("coast", "coast"), ("colour", "colour"),
    ("completing", "complet"), ("conception", "concept"), ("confirmed", "confirm"),
    ("constraint", "constraint"), ("contours", "contour"), ("cooking", "cook"),
    ("counter", "counter"), ("crash", "crash"), ("crosshair", "crosshair"),
    ("currenlty", "currenlti"), ("dailyc", "dailyc"), ("db", "db"), ("decks", "deck"),
    ("definitions", "definit"), ("deno", "deno"), ("descending", "descend"),
    ("detection", "detect"), ("diceroller", "dicerol"), ("directories", "directori"),
    ("disk", "disk"), ("dividends", "dividend"), ("dollar", "dollar"),
    ("downloadminecraftjarchecksum", "downloadminecraftjarchecksum"), ("dsp", "dsp"),
    ("earnings", "earn"), ("eeg", "eeg"), ("elicitation", "elicit"), ("empowering", "empow"),
    ("enforcement", "enforc"), ("entr", "entr"), ("erhalten", "erhalten"), ("eu", "eu"),
    ("examining", "examin"), ("exhibition", "exhibit"), ("explicit", "explicit"),
    ("extractimagefeatures", "extractimagefeatur"), ("fake", "fake"), ("fblgit", "fblgit"),
    ("fi", "fi"), ("finanzoo", "finanzoo"), ("fj", "fj"), ("fmp", "fmp"), ("forecas", "foreca"),
    ("fpl", "fpl"), ("frontline", "frontlin"), ("fx", "fx"), ("gcd", "gcd"), ("genres", "genr"),
    ("getalltemplates", "getalltempl"), ("getfullreviews", "getfullreview"),
    ("getphonesbybrandid", "getphonesbybrandid"), ("getteams", "getteam"), ("github", "github"),
    ("government", "govern"), ("grep", "grep"), ("gyms", "gym"), ("happened", "happen"),
    ("heading", "head"), ("hero", "hero"), ("his", "his"), ("hope", "hope"), ("hsjssj", "hsjssj"),
    ("ia", "ia"), ("igtv", "igtv"), ("important", "import"), ("ind", "ind"),
    ("influencer", "influenc"), ("inline", "inlin"), ("instances", "instanc"),
    ("interactable", "interact"), ("introducing", "introduc"), ("ip", "ip"), ("ist", "ist"),
    ("jobsearch", "jobsearch"), ("kan", "kan"), ("kismet", "kismet"), ("lab", "lab"),
    ("latin", "latin"), ("leak", "leak"), ("lg", "lg"), ("lineup", "lineup"),
    ("llamaguard", "llamaguard"), ("logins", "login"), ("love", "love"),
    ("mailboxlayer", "mailboxlay"), ("manipulate", "manipul"), ("masked", "mask"), ("mc", "mc"),
    ("membership", "membership"), ("metaphor", "metaphor"), ("milk", "milk"), ("mixed", "mix"),
    ("modifywmf", "modifywmf"), ("moonrise", "moonris"), ("ms", "ms"), ("mute", "mute"),
    ("nature", "natur"), ("netflows", "netflow"), ("nimo", "nimo"), ("notations", "notat"),
    ("numcode", "numcod"), ("occ", "occ"), ("ohlcv", "ohlcv"), ("opener", "open"),
    ("option", "option"), ("orphans", "orphan"), ("overlap", "overlap"), ("padding", "pad"),
    ("parameteres", "parameter"), ("pass", "pass"), ("payouts", "payout"), ("perm", "perm"),
    ("phase", "phase"), ("pipelines", "pipelin"), ("platformbil", "platformbil"),
    ("podcast", "podcast"), ("pop", "pop"), ("postcodesrc", "postcodesrc"), ("pre", "pre"),
    ("prepares", "prepar"), ("pricing", "price"), ("product", "product"), ("promoting", "promot"),
    ("provided", "provid"), ("pulls", "pull"), ("qb", "qb"), ("queues", "queue"),
    ("random", "random"), ("rdcpix", "rdcpix"), ("realtyn", "realtyn"),
    ("recommender", "recommend"), ("redemption", "redempt"), ("refuse", "refus"),
    ("relation", "relat"), ("removed", "remov"), ("repeated", "repeat"),
    ("requesting", "request"), ("resolved", "resolv"), ("results", "result"),
    ("revert", "revert"), ("rig", "rig"), ("roman", "roman"), ("rtmp", "rtmp"),
    ("salon", "salon"), ("scale", "scale"), ("scoped", "scope"), ("sdk", "sdk"),
    ("sections", "section"), ("senegal", "seneg"), ("services", "servic"), ("shapes", "shape"),
    ("shortening", "shorten"), ("significantly", "signific"), ("sinks", "sink"),
    ("slightly", "slight"), ("socialsearch", "socialsearch"), ("sound", "sound"),
    ("special", "special"), ("spline", "spline"), ("ss", "ss"), ("start", "start"),
    ("stays", "stay"), ("streamed", "stream"), ("styling", "style"), ("subset", "subset"),
    ("suitable", "suitabl"), ("sure", "sure"), ("synced", "sync"), ("talent", "talent"),
    ("teamdetails", "teamdetail"), ("tend", "tend"), ("thebloke", "theblok"),
    ("threads", "thread"), ("tiling", "tile"), ("tld", "tld"), ("topic", "topic"),
    ("traced", "trace"), ("transformer", "transform"), ("trial", "trial"), ("tsla", "tsla"),
    ("tweets", "tweet"), ("umap", "umap"), ("unified", "unifi"), ("unresolve", "unresolv"),
    ("upon", "upon"), ("usertable", "usert"), ("valor", "valor"), ("venn", "venn"),
    ("vex", "vex"), ("visible", "visibl"), ("vote", "vote"), ("wan", "wan"), ("we", "we"),
    ("went", "went"), ("width", "width"), ("won", "won"), ("wrong", "wrong"), ("yet", "yet"),
    ("zomi", "zomi"),
];
