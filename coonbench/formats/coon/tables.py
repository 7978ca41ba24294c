"""The coonbench COON dialect's tables: the ONE place encoder, decoder, validator, primer and docs are built from.

Upstream's three tables (``spec/data/{widgets,properties,keywords}.json`` of AffanShaikhsurab/COON 1.0.0) are
adopted where they are unambiguous in a lossless grammar; every deviation is listed in ``CLASHES`` with its
reason (rendered into ``docs/coon.md``). Entries marked ``coonbench`` are additions (chosen by o200k token
savings on the corpus; an abbreviation that saves no token is not added).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

VERSION: Final = 5
HEADER_PREFIX: Final = "%coon"

# Widget (and other constructor) names → abbreviation. Expanded only in *call position*: directly before ``(``
# or ``.`` (``T('a')``, ``L.builder(…)``), so a type parameter ``T`` elsewhere needs no escape.
WIDGETS: Final = MappingProxyType(
    {
        # upstream spec/data/widgets.json (37 of its 39 rows unchanged; Divider → Dv and Image → Im: see CLASHES)
        "Scaffold": "S",
        "Column": "C",
        "Row": "R",
        "SafeArea": "A",
        "Padding": "P",
        "Text": "T",
        "AppBar": "B",
        "SizedBox": "Z",
        "TextField": "F",
        "ElevatedButton": "E",
        "TextStyle": "Y",
        "InputDecoration": "D",
        "OutlineInputBorder": "O",
        "TextEditingController": "X",
        "Container": "K",
        "Center": "N",
        "Expanded": "Ex",
        "ListView": "L",
        "GridView": "G",
        "Stack": "St",
        "Positioned": "Ps",
        "Card": "Cd",
        "IconButton": "Ib",
        "Icon": "Ic",
        "FloatingActionButton": "Fb",
        "CircularProgressIndicator": "Cp",
        "LinearProgressIndicator": "Lp",
        "Drawer": "Dr",
        "BottomNavigationBar": "Bn",
        "TabBar": "Tb",
        "TabBarView": "Tv",
        "Flexible": "Fl",
        "Align": "Al",
        "CustomScrollView": "Cv",
        "SingleChildScrollView": "Sv",
        "TextFormField": "Tf",
        "TextButton": "Bt",
        # coonbench additions
        "GestureDetector": "GD",
        "ListTile": "Lt",
        "BoxDecoration": "BX",
        "BorderRadius": "Br",
        "MaterialPageRoute": "Mr",
        "CircleAvatar": "Ca",
        "NetworkImage": "Ni",
        "BottomNavigationBarItem": "Bi",
        "SliverGridDelegateWithFixedCrossAxisCount": "SG",
        "StreamBuilder": "Sb",
        "FutureBuilder": "Fu",
        # a named constructor: the word stands for the whole dotted name
        # (Es(horizontal 8) = EdgeInsets.symmetric(horizontal: 8));
        # EdgeInsets.only and BorderRadius.circular were measured too and save no o200k token
        "EdgeInsets.symmetric": "Es",
        # other constructors whose name costs more than one o200k token
        "DateTime": "DT",
        "MaterialApp": "MA",
        "ThemeData": "TD",
        "OutlinedButton": "Ob",
        "DecorationImage": "Di",
    }
)

# Type names → abbreviation, expanded wherever the word stands (upstream's ``Widget``/``BuildContext`` rows of the
# keyword table, plus coonbench additions).
TYPES: Final = MappingProxyType(
    {
        "Widget": "W",
        "BuildContext": "ctx",
        "StatelessWidget": "SL",
        "StatefulWidget": "SF",
        "EdgeInsets": "Ei",
        "MainAxisAlignment": "Ma",
        "FontWeight": "Fw",
        "AsyncSnapshot": "As",
        "DocumentSnapshot": "Ds",
    }
)

# Named-argument labels → label word. In COON a label is written WITHOUT its colon when the value starts with a
# word or number (``c T('a')`` = ``child: Text('a')``); with the colon otherwise (``h:[…]``). Entries whose word is
# the label itself still save the colon token.
LABELS: Final = MappingProxyType(
    {
        # upstream spec/data/properties.json (29 of its 30 rows, unchanged; centerTitle → T: see CLASHES;
        # case distinguishes t/T, w/W, l/L, h/H, b/B…)
        "appBar": "a",
        "body": "b",
        "child": "c",
        "children": "h",
        "title": "t",
        "controller": "r",
        "padding": "p",
        "onPressed": "o",
        "style": "s",
        "fontSize": "z",
        "fontWeight": "w",
        "color": "l",
        "decoration": "d",
        "labelText": "L",
        "hintText": "H",
        "border": "B",
        "height": "e",
        "width": "W",
        "obscureText": "x",
        "mainAxisAlignment": "A",
        "crossAxisAlignment": "X",
        "minimumSize": "M",
        "margin": "m",
        "alignment": "n",
        "backgroundColor": "bg",
        "onChanged": "oc",
        "builder": "bl",
        "mainAxisSize": "ms",
        "crossAxisSize": "xs",
        # coonbench additions (colon-free labels; short forms only where they save a token)
        "icon": "icon",
        "onTap": "ot",
        "label": "label",
        "leading": "ld",
        "trailing": "tr",
        "subtitle": "subtitle",
        "size": "size",
        "top": "top",
        "left": "left",
        "right": "right",
        "bottom": "bottom",
        "borderRadius": "br",
        "itemCount": "ic",
        "itemBuilder": "ib",
        "elevation": "el",
        "actions": "actions",
        "key": "key",
        "value": "value",
        "fit": "f",
        "image": "image",
        "text": "text",
        "onSubmitted": "os",
        "textAlign": "ta",
        "radius": "radius",
        "shape": "shape",
        "floatingActionButton": "fab",
        "bottomNavigationBar": "bnb",
        "stream": "stream",
        "future": "future",
        "initialData": "initialData",
        "keyboardType": "kt",
        "prefixIcon": "pi",
        "suffixIcon": "si",
        "backgroundImage": "bgi",
        "spacing": "spacing",
        "runSpacing": "rs",
        "maxLines": "ml",
        "overflow": "overflow",
        "letterSpacing": "lsp",
        "fontStyle": "fs",
        "boxShadow": "bs",
        "gridDelegate": "gd",
        "crossAxisCount": "cc",
        "scrollDirection": "sd",
        "shrinkWrap": "sw",
        "physics": "physics",
        "routes": "routes",
        "home": "home",
        "theme": "theme",
        "content": "content",
        "duration": "duration",
        "selected": "selected",
        "currentIndex": "ci",
        "items": "items",
        "onSaved": "onSaved",
        "validator": "validator",
        "enabled": "enabled",
        "message": "message",
        "id": "id",
        "name": "name",
        "crossAxisSpacing": "xsp",
        "mainAxisSpacing": "msp",
        "colorSchemeSeed": "seed",
    }
)

# Labels whose value ``Type.member`` may drop ``Type`` (``A.center`` or ``A:.center`` =
# ``mainAxisAlignment: MainAxisAlignment.center``).
ENUM_LABELS: Final = MappingProxyType(
    {
        "mainAxisAlignment": "MainAxisAlignment",
        "crossAxisAlignment": "CrossAxisAlignment",
        "mainAxisSize": "MainAxisSize",
        "fontWeight": "FontWeight",
        "fontStyle": "FontStyle",
        "textAlign": "TextAlign",
        "alignment": "Alignment",
        "fit": "BoxFit",
        "overflow": "TextOverflow",
        "scrollDirection": "Axis",
        "keyboardType": "TextInputType",
        "color": "Colors",
        "backgroundColor": "Colors",
        "icon": "Icons",
        "colorSchemeSeed": "Colors",
    }
)

# Labels whose value's constructor may be left out: a label word followed directly by ``(`` (or by ``const (``)
# calls the label's implied constructor (``s(z 14)`` = ``style: TextStyle(fontSize: 14)``, ``t('Hi')`` = ``title:
# Text('Hi')``). Chosen by o200k savings on the corpus; a value written in full is read as before.
IMPLIED: Final = MappingProxyType(
    {
        "style": "TextStyle",
        "title": "Text",
        "icon": "Icon",
        "borderRadius": "BorderRadius.circular",
        "decoration": "BoxDecoration",
    }
)

# Calls whose first positional argument ``Type.member`` may drop ``Type`` (``Ic(.home)`` = ``Icon(Icons.home)``).
CALL_ENUMS: Final = MappingProxyType({"Icon": "Icons"})

# Macros: ``#name`` stands for a fixed Dart token sequence (upstream's ``m:b`` build-method prefix, generalised).
MACROS: Final = MappingProxyType(
    {
        "m": ("import", "'package:flutter/material.dart'", ";"),
        "b": ("@", "override", "Widget", "build", "(", "BuildContext", "context", ")"),
        "B": ("@", "override", "Widget", "build", "(", "BuildContext", "context", ")", "{", "return"),
        "i": ("@", "override", "void", "initState", "(", ")", "{", "super", ".", "initState", "(", ")", ";"),
        "d": ("@", "override", "void", "dispose", "(", ")", "{"),
        "sd": ("super", ".", "dispose", "(", ")", ";"),
        "nn": ("Navigator", ".", "pushNamed", "(", "context", ","),
        "ss": ("setState", "(", "(", ")", "{"),
        # no macro for ({super.key}), Navigator.push(context, or @override State<: #K, #Ka, #go and #S cover their
        # uses, and measured on their own they save no o200k token
        "run": ("void", "main", "(", ")", "=>", "runApp", "("),
        "sa": ("Scaffold", "(", "appBar", ":", "AppBar", "(", "title", ":"),
        "go": ("Navigator", ".", "push", "(", "context", ",", "MaterialPageRoute", "(", "builder", ":"),
        # class-name macros: {Class} is the name of the most recently declared class (the word after the last `class`)
        "K": ("const", "{Class}", "(", "{", "super", ".", "key", "}", ")", ";"),
        "Ka": ("const", "{Class}", "(", "{", "super", ".", "key", ","),
        "S": ("@", "override", "State", "<", "{Class}", ">", "createState", "(", ")", "=>", "_{Class}State", "(", ")",
              ";"),
        "So": ("@", "override", "_{Class}State", "createState", "(", ")", "=>", "_{Class}State", "(", ")", ";"),
        "ST": ("class", "_{Class}State", "extends", "State", "<", "{Class}", ">"),
        # whole widget headers (after `class Name`)
        "SL": ("extends", "StatelessWidget", "{", "const", "{Class}", "(", "{", "super", ".", "key", "}", ")", ";"),
        "SLa": ("extends", "StatelessWidget", "{", "const", "{Class}", "(", "{", "super", ".", "key", ","),
        "SF": (
            "extends", "StatefulWidget", "{", "const", "{Class}", "(", "{", "super", ".", "key", "}", ")", ";",
            "@", "override", "State", "<", "{Class}", ">", "createState", "(", ")", "=>", "_{Class}State", "(", ")",
            ";", "}", "class", "_{Class}State", "extends", "State", "<", "{Class}", ">", "{",
        ),
        "SFo": (
            "extends", "StatefulWidget", "{",
            "@", "override", "_{Class}State", "createState", "(", ")", "=>", "_{Class}State", "(", ")", ";",
            "}", "class", "_{Class}State", "extends", "State", "<", "{Class}", ">", "{",
        ),
    }
)

# Alias words (rule 11): the N-th entry, written as a bare word after the N-th ``\x`` definition of a document, is
# that alias again (``\N`` also is). Single letters and two-letter words that are no table word, keyword or
# built-in, each one o200k token after most punctuation; ordered by cost and by how rarely code uses them as names
# (a name spelled like an active alias word is written escaped, `` `q ``). Past the list, ``\N`` only.
ALIAS_WORDS: Final = tuple(
    """
    q k y j ch df my u re en np g av ax cv il ll sc se tf tp js de no it ac ad al am an bb bp bt cf cm co cr ct cx
    dc di dm dr dw ec ed em ep er es fc fe ff fp ft gc gr gs gt hr ht hw ii im io ir ix kn le lp ma mc mi mt mu mx
    nd nn ns nt ob or pb pc pe pg ph pk pm po pp pt py qu rb rc rd rt rv rx sf sh sn sz te tk un us vo we ws wx xx
    ai by cb et fi gl lo mm ne sk sl ar be pl ro tb th tx cd cl li ts tv ab dt fd ss ap ds ev fr dd eq sa fl iv tt
    mp tm lb sb pa pr sm pd fn up op tc dp af ag ak au aw ba bc bd bi bo ce cg ck cn cy cz dg dj dk dl du dv eb eg
    fb fm fo fx gb ge gf gg gv gz hg hk hl hm hp hs ie jd je jp ke kh kr ks kw la lk lr ls lt lv ly mo mv na nc nr
    nu nx nz od ol om ov qa qq qt ra rf rh rl rm rr
    """.split()
)

# The placeholder in a macro for the name of the most recently declared class (``#K`` inside ``class Foo`` is
# ``const Foo({super.key});``; ``#ST`` after ``class Foo`` is ``class _FooState extends State<Foo>``).
CLASS_PLACEHOLDER: Final = "{Class}"

# Special prefixes (one character before a token).
PREFIXES: Final = MappingProxyType(
    {
        "@N": "EdgeInsets.all(N) — N a number literal, e.g. @16",
        "@@N": "const EdgeInsets.all(N), e.g. p@@16 = padding: const EdgeInsets.all(16)",
        "@name": "an annotation, as in Dart (@override, @JsonKey(…))",
        "#name": "a macro (table MACROS); an unknown name is an error",
        "#`": "a literal Dart '#' (symbol literals: #`foo is #foo)",
        "#": (
            "a # that no name or backtick follows: .of(context), e.g. Theme#.textTheme = "
            "Theme.of(context).textTheme"
        ),
        "`name": "an identifier written as is, never expanded (escape)",
        "\\name": (
            "defines the next alias (\\1, \\2, … in order of definition) as the word, `word or string written "
            "directly after it, e.g. \\_selectedIndex or \\'Hello world'; the text is as if \\ were absent"
        ),
        "\\N": (
            "the word or string that alias N was defined as (per document), e.g. \\1; the N-th alias word (below) "
            "written as a bare word means the same"
        ),
        "^name": "required this.name — a named constructor parameter, directly after ( { [ or , (e.g. {^id,^name})",
        ".name": (
            "directly after an enum label's word, or after a label's colon: the label's enum type is implied "
            "(A.center or A:.center = mainAxisAlignment: MainAxisAlignment.center); after Ic( the type Icons"
        ),
    }
)

# Upstream entries NOT adopted (or adopted with a change), with the reason. Rendered into docs/coon.md.
CLASHES: Final = MappingProxyType(
    {
        "class → c:": "clashes with child → c: in the same table; kept as the keyword `class` (1 token anyway)",
        "final → f:, const → cn:, static → st:, void → v:, import → im:": (
            "a trailing colon marks labels in COON; the keywords are single o200k tokens already, so they stay"
        ),
        "override → ov:": (
            "replaced by macros (#b = the whole build-method signature, #i, #d, #S, #So); a bare @override stays"
        ),
        "extends → <, implements → >, with → +": "clash with the operators <, > and + (generics, comparison, sums)",
        "return → ret, async → asy, await → awt": "no token saved (each keyword is one token); would clash with identifiers",
        "true → 1, false → 0": "clash with the integer literals 1 and 0",
        "null → _": "clashes with the identifier _ (wildcard parameters such as (_) => …)",
        "Widget → W, BuildContext → ctx": "adopted as type words (TYPES)",
        "W (Widget) vs W: (width), B, A, X, L": (
            "resolved by position: label words stand at the start of an argument, widget words before ( or ."
        ),
        "EdgeInsets.symmetric → @H,V and EdgeInsets.only → @L,T,R,B": (
            "not adopted: a comma-separated value is ambiguous inside argument lists; the widget word Es = "
            "EdgeInsets.symmetric is used (Es(horizontal 8)); EdgeInsets.only keeps its name (a word saves no token)"
        ),
        "Type() → ~Type": "not adopted: ~ is Dart's bitwise-not operator and () costs no extra token after a name",
        "widget/property/keyword abbreviations inside strings": "never: literals are verbatim",
        "centerTitle → T:, Divider → Dv, Image → Im": (
            "not adopted: measured on the corpus, each costs o200k tokens (centerTitle, Divider and Image are "
            "single tokens after '(' or ' ', the abbreviations two); the names are written in full"
        ),
    }
)


def _check_tables() -> None:
    """The tables must be invertible within each namespace (run at import: a bad edit fails loudly)."""
    for name, table in (("WIDGETS", WIDGETS), ("TYPES", TYPES), ("LABELS", LABELS)):
        words = list(table.values())
        if len(set(words)) != len(words):
            raise ValueError(f"{name}: an abbreviation is used twice")
    if len(set(WIDGETS.values()) | set(TYPES.values())) != len(WIDGETS) + len(TYPES):
        raise ValueError("WIDGETS and TYPES share an abbreviation")
    marked = [name.casefold() for name in MACROS if not name.islower()]
    if len(set(marked)) != len(marked):
        raise ValueError("two macro names with capitals differ only in case")
    for word in list(WIDGETS.values()) + list(TYPES.values()) + list(LABELS.values()) + list(MACROS):
        if not word.replace("_", "a").isalnum() or word[0].isdigit():
            raise ValueError(f"abbreviation {word!r} is not an identifier")


_check_tables()
