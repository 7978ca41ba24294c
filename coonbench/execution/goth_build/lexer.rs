//! Goth lexer, written for coonbench in place of upstream's `logos`-derived one (no registry we can
//! reach carries `logos`). It yields the token stream upstream's parser expects: at each position the
//! longest match wins, and on equal length a fixed spelling beats a De Bruijn index, which beats a Greek
//! type variable, which beats an identifier (logos' priorities for these rules). Whitespace `[ \t\r\n]`
//! and `#` comments are skipped; anything else that matches no rule is one `Token::Error`.

use std::fmt;

/// A byte range in the source (what the parser calls a span).
pub type Span = std::ops::Range<usize>;

/// Source location.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Loc {
    pub start: usize,
    pub end: usize,
}

impl Loc {
    pub fn new(start: usize, end: usize) -> Self {
        Loc { start, end }
    }

    pub fn from_span(span: Span) -> Self {
        Loc { start: span.start, end: span.end }
    }

    pub fn merge(self, other: Loc) -> Loc {
        Loc { start: self.start.min(other.start), end: self.end.max(other.end) }
    }
}

/// A value with its location.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    pub value: T,
    pub loc: Loc,
}

impl<T> Spanned<T> {
    pub fn new(value: T, loc: Loc) -> Self {
        Spanned { value, loc }
    }
}

/// The tokens of Goth (the variant set upstream's parser matches on).
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    Let, In, If, Then, Else, Match, With, Where, Class, Impl, Do, End, Rec, Type, Enum, Fn, Use,
    FnStart, FnMid, FnEnd,
    LParen, RParen, LBracket, RBracket, LAngle, RAngle, LBrace, RBrace,
    Comma, Semi, Colon, DoubleColon, Dot, At,
    Plus, Minus, Star, Slash, Caret, Percent, PlusMinus, Sqrt, Floor, FloorClose, Ceil, CeilClose,
    Eq, Neq, Lt, Gt, Leq, Geq,
    And, Or, Not,
    Map, Filter, Bind, Compose, ZipWith, Concat,
    Write, Read,
    Sum, Prod, Scan,
    Gamma, Ln, Exp, Sin, Cos, Abs, Tan, Asin, Acos, Atan, Sinh, Cosh, Tanh, Log10, Log2, Round, Sign,
    Arrow, BackArrow, FatArrow,
    Lambda,
    Turnstile, Models,
    Forall, Exists,
    StructEq, RefEq,
    Pure, Diamond,
    True, False,
    Pi, Euler,
    Infinity, DotDot, Question, Underscore, Pipe,
    Norm,
    Index(u32),
    ImagLitI(f64), ImagLitJ(f64), ImagLitK(f64),
    ImagI, ImagJ, ImagK,
    Int(i128),
    Float(f64),
    String(String),
    Char(char),
    Ident(String),
    TyVar(String),
    AplIdent(String),
    TyF64, TyF32, TyI64, TyI32, TyU64, TyU8, TyBool, TyChar, TyByte, TyString, TyNat, TyInt, TyUnit,
    TyComplex, TyQuaternion,
    /// Text that matches no rule (or a literal whose value does not fit).
    Error(String),
}

/// Every fixed spelling (Unicode glyphs and their ASCII fallbacks) and its token.
const SPELLINGS: &[(&str, Token)] = &[
    ("let", Token::Let), ("in", Token::In), ("if", Token::If), ("then", Token::Then),
    ("else", Token::Else), ("match", Token::Match), ("with", Token::With), ("where", Token::Where),
    ("class", Token::Class), ("impl", Token::Impl), ("do", Token::Do), ("end", Token::End),
    ("rec", Token::Rec), ("type", Token::Type), ("enum", Token::Enum), ("fn", Token::Fn), ("use", Token::Use),
    ("╭─", Token::FnStart), ("/-", Token::FnStart), ("│", Token::FnMid), ("|_", Token::FnMid),
    ("╰─", Token::FnEnd), ("_/", Token::FnEnd),
    ("(", Token::LParen), (")", Token::RParen), ("[", Token::LBracket), ("]", Token::RBracket),
    ("⟨", Token::LAngle), ("<|", Token::LAngle), ("⟩", Token::RAngle), ("|>", Token::RAngle),
    ("{", Token::LBrace), ("}", Token::RBrace), (",", Token::Comma), (";", Token::Semi),
    (":", Token::Colon), ("::", Token::DoubleColon), (".", Token::Dot), ("@", Token::At),
    ("+", Token::Plus), ("-", Token::Minus), ("×", Token::Star), ("*", Token::Star), ("/", Token::Slash),
    ("^", Token::Caret), ("%", Token::Percent), ("mod", Token::Percent), ("±", Token::PlusMinus),
    ("+-", Token::PlusMinus), ("√", Token::Sqrt), ("⌊", Token::Floor), ("⌋", Token::FloorClose),
    ("⌈", Token::Ceil), ("⌉", Token::CeilClose),
    ("=", Token::Eq), ("≠", Token::Neq), ("/=", Token::Neq), ("<", Token::Lt), (">", Token::Gt),
    ("≤", Token::Leq), ("<=", Token::Leq), ("≥", Token::Geq), (">=", Token::Geq),
    ("∧", Token::And), ("&&", Token::And), ("∨", Token::Or), ("||", Token::Or), ("¬", Token::Not), ("!", Token::Not),
    ("↦", Token::Map), ("-:", Token::Map), ("▸", Token::Filter), ("|>_", Token::Filter),
    ("⤇", Token::Bind), ("=>>", Token::Bind), ("∘", Token::Compose), (".:", Token::Compose),
    ("⊗", Token::ZipWith), ("*:", Token::ZipWith),
    ("⊕", Token::Concat), ("+:", Token::Concat), ("⧺", Token::Concat), ("++", Token::Concat),
    ("▷", Token::Write), (">!", Token::Write), ("◁", Token::Read), ("<!", Token::Read),
    ("Σ", Token::Sum), ("+/", Token::Sum), ("Π", Token::Prod), ("*/", Token::Prod),
    ("⍀", Token::Scan), ("\\/", Token::Scan),
    ("Γ", Token::Gamma), ("gamma", Token::Gamma), ("ln", Token::Ln), ("exp", Token::Exp),
    ("sin", Token::Sin), ("cos", Token::Cos), ("abs", Token::Abs), ("tan", Token::Tan),
    ("asin", Token::Asin), ("acos", Token::Acos), ("atan", Token::Atan), ("sinh", Token::Sinh),
    ("cosh", Token::Cosh), ("tanh", Token::Tanh), ("log₁₀", Token::Log10), ("log10", Token::Log10),
    ("log₂", Token::Log2), ("log2", Token::Log2), ("round", Token::Round), ("sign", Token::Sign),
    ("signum", Token::Sign),
    ("→", Token::Arrow), ("->", Token::Arrow), ("←", Token::BackArrow), ("<-", Token::BackArrow),
    ("⇒", Token::FatArrow), ("=>", Token::FatArrow),
    ("λ", Token::Lambda), ("\\", Token::Lambda),
    ("⊢", Token::Turnstile), ("|-", Token::Turnstile), ("⊨", Token::Models), ("|=", Token::Models),
    ("∀", Token::Forall), ("forall", Token::Forall), ("∃", Token::Exists), ("exists", Token::Exists),
    ("≡", Token::StructEq), ("==", Token::StructEq), ("≣", Token::RefEq), ("===", Token::RefEq),
    ("□", Token::Pure), ("pure", Token::Pure), ("◇", Token::Diamond), ("io", Token::Diamond),
    ("⊤", Token::True), ("true", Token::True), ("⊥", Token::False), ("false", Token::False),
    ("π", Token::Pi), ("pi", Token::Pi), ("𝕖", Token::Euler), ("euler", Token::Euler),
    ("∞", Token::Infinity), ("inf", Token::Infinity), ("..", Token::DotDot), ("?", Token::Question),
    ("_", Token::Underscore), ("|", Token::Pipe), ("‖", Token::Norm), ("||_", Token::Norm),
    ("\u{1D55A}", Token::ImagI), ("\u{1D55B}", Token::ImagJ), ("\u{1D55C}", Token::ImagK),
    ("F64", Token::TyF64), ("F", Token::TyF64), ("F32", Token::TyF32), ("I64", Token::TyI64),
    ("I", Token::TyI64), ("I32", Token::TyI32), ("U64", Token::TyU64), ("U8", Token::TyU8),
    ("Bool", Token::TyBool), ("Char", Token::TyChar), ("Byte", Token::TyByte), ("String", Token::TyString),
    ("ℕ", Token::TyNat), ("Nat", Token::TyNat), ("ℤ", Token::TyInt), ("Int", Token::TyInt),
    ("Unit", Token::TyUnit), ("\u{2102}", Token::TyComplex), ("Complex", Token::TyComplex),
    ("\u{210D}", Token::TyQuaternion), ("Quaternion", Token::TyQuaternion),
];

/// Greek letters usable in names and as type variables (λ is the lambda keyword, so not among them).
const GREEK: &str = "αβγδεζηθικμνξοπρστυφχψω";
/// Single-character APL-style names.
const APL: &str = "⍳⍴⌽⍉·…↑↓⧏⧐⊻⌿";
const SUBSCRIPTS: &str = "₀₁₂₃₄₅₆₇₈₉";

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || GREEK.contains(c)
}

fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '\'' || c == '²' || c == '³' || GREEK.contains(c)
}

/// Length in bytes of the run of ASCII digits at the start of `s`.
fn digits(s: &str) -> usize {
    s.bytes().take_while(|b| b.is_ascii_digit()).count()
}

/// Length of `[0-9]+` followed optionally by `.[0-9]+` and then optionally by `[eE][+-]?[0-9]+`, as the
/// three lengths it can end at: (integer part, with fraction, with fraction and exponent). 0 = absent.
fn number_ends(s: &str) -> (usize, usize, usize) {
    let n = digits(s);
    if n == 0 {
        return (0, 0, 0);
    }
    let b = s.as_bytes();
    if b.get(n) != Some(&b'.') {
        return (n, 0, 0);
    }
    let f = digits(&s[n + 1..]);
    if f == 0 {
        return (n, 0, 0);
    }
    let frac = n + 1 + f;
    let mut e = frac;
    if matches!(b.get(e), Some(b'e') | Some(b'E')) {
        e += 1;
        if matches!(b.get(e), Some(b'+') | Some(b'-')) {
            e += 1;
        }
        let x = digits(&s[e..]);
        if x == 0 {
            return (n, frac, 0);
        }
        return (n, frac, e + x);
    }
    (n, frac, 0)
}

/// Imaginary literal: a number then 𝕚/𝕛/𝕜 or i/j/k; returns its length and token (longest reading).
fn imaginary(s: &str) -> Option<(usize, Option<Token>)> {
    let (n, frac, exp) = number_ends(s);
    let mut best: Option<(usize, Option<Token>)> = None;
    for end in [n, frac, exp] {
        if end == 0 {
            continue;
        }
        let rest = &s[end..];
        let units: [(&str, u8); 6] =
            [("\u{1D55A}", 0), ("\u{1D55B}", 1), ("\u{1D55C}", 2), ("i", 0), ("j", 1), ("k", 2)];
        for (unit, which) in units {
            if rest.starts_with(unit) {
                let len = end + unit.len();
                if best.as_ref().map_or(true, |(l, _)| len > *l) {
                    let tok = s[..end].parse::<f64>().ok().map(|x| match which {
                        0 => Token::ImagLitI(x),
                        1 => Token::ImagLitJ(x),
                        _ => Token::ImagLitK(x),
                    });
                    best = Some((len, tok));
                }
            }
        }
    }
    best
}

/// `"…"` with `\x` + anything escapes; the length including both quotes, or None when unterminated.
fn string_len(s: &str) -> Option<usize> {
    let mut chars = s.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some(i + 1),
            '\\' => match chars.next() {
                Some((_, '\n')) | None => return None,
                Some(_) => {}
            },
            _ => {}
        }
    }
    None
}

/// `'c'`, `'\c'` or `'\xHH'`: the length including both quotes.
fn char_len(s: &str) -> Option<usize> {
    let body = &s[1..];
    let mut it = body.chars();
    let first = it.next()?;
    let inner = if first == '\\' {
        let b = body.as_bytes();
        if b.len() >= 5 && b[1] == b'x' && b[2].is_ascii_hexdigit() && b[3].is_ascii_hexdigit() && b[4] == b'\'' {
            return Some(6);
        }
        let second = it.next()?;
        if second == '\n' {
            return None;
        }
        1 + second.len_utf8()
    } else if first == '\'' {
        return None;
    } else {
        first.len_utf8()
    };
    if body[inner..].starts_with('\'') {
        Some(inner + 2)
    } else {
        None
    }
}

/// The longest token at the start of `s` (non-empty, not whitespace or comment): its byte length and the
/// token, or None for the token when the text matched a rule whose value does not fit (an overflow).
fn scan(s: &str) -> (usize, Option<Token>) {
    let mut best_len = 0usize;
    let mut best: Option<Token> = None;
    let offer = |len: usize, tok: Option<Token>, best_len: &mut usize, best: &mut Option<Token>| {
        if len > *best_len {
            *best_len = len;
            *best = tok;
        }
    };
    for (text, tok) in SPELLINGS {
        if s.starts_with(text) {
            offer(text.len(), Some(tok.clone()), &mut best_len, &mut best);
        }
    }
    let first = s.chars().next().unwrap_or('\0');
    if let Some(d) = SUBSCRIPTS.chars().position(|c| c == first) {
        offer(first.len_utf8(), Some(Token::Index(d as u32)), &mut best_len, &mut best);
    }
    if first == '_' {
        let n = digits(&s[1..]);
        if n > 0 {
            offer(1 + n, s[1..1 + n].parse::<u32>().ok().map(Token::Index), &mut best_len, &mut best);
        }
    }
    if APL.contains(first) {
        offer(first.len_utf8(), Some(Token::AplIdent(first.to_string())), &mut best_len, &mut best);
    }
    if first.is_ascii_digit() {
        let (n, frac, exp) = number_ends(s);
        offer(n, s[..n].parse::<i128>().ok().map(Token::Int), &mut best_len, &mut best);
        let f = exp.max(frac);
        if f > 0 {
            offer(f, s[..f].parse::<f64>().ok().map(Token::Float), &mut best_len, &mut best);
        }
        if let Some((len, tok)) = imaginary(s) {
            offer(len, tok, &mut best_len, &mut best);
        }
    }
    if first == '"' {
        if let Some(len) = string_len(s) {
            offer(len, Some(Token::String(unescape_string(&s[1..len - 1]))), &mut best_len, &mut best);
        }
    }
    if first == '\'' {
        if let Some(len) = char_len(s) {
            offer(len, unescape_char(&s[1..len - 1]).map(Token::Char), &mut best_len, &mut best);
        }
    }
    if GREEK.contains(first) {
        offer(first.len_utf8(), Some(Token::TyVar(first.to_string())), &mut best_len, &mut best);
    }
    if is_ident_start(first) {
        let len: usize = s
            .char_indices()
            .skip(1)
            .find(|(_, c)| !is_ident_continue(*c))
            .map_or(s.len(), |(i, _)| i);
        offer(len, Some(Token::Ident(s[..len].to_string())), &mut best_len, &mut best);
    }
    if best_len == 0 {
        return (first.len_utf8(), None);
    }
    (best_len, best)
}

/// Decode the escapes of a string literal's body (`\n \t \r \\ \" \0 \xHH`; others kept as written).
fn unescape_string(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('0') => out.push('\0'),
            Some('x') => {
                let mut hex = String::new();
                while hex.len() < 2 && chars.peek().map_or(false, |c| c.is_ascii_hexdigit()) {
                    hex.push(chars.next().unwrap());
                }
                match (hex.len(), u8::from_str_radix(&hex, 16)) {
                    (2, Ok(byte)) => out.push(byte as char),
                    _ => {
                        out.push_str("\\x");
                        out.push_str(&hex);
                    }
                }
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Decode a character literal's body; None for a short `\x` escape.
fn unescape_char(s: &str) -> Option<char> {
    let mut chars = s.chars();
    let c = chars.next()?;
    if c != '\\' {
        return Some(c);
    }
    Some(match chars.next()? {
        'n' => '\n',
        't' => '\t',
        'r' => '\r',
        '0' => '\0',
        'x' => {
            let hex: String = chars.take(2).collect();
            if hex.len() != 2 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            u8::from_str_radix(&hex, 16).ok()? as char
        }
        other => other,
    })
}

impl Token {
    /// Whether the token can begin an expression in juxtaposition (function application). Keywords that
    /// also begin declarations (let, if, match, do) are left out on purpose.
    pub fn can_start_expr(&self) -> bool {
        use Token::*;
        matches!(
            self,
            Int(_) | Float(_) | String(_) | Char(_) | ImagLitI(_) | ImagLitJ(_) | ImagLitK(_) | ImagI | ImagJ
                | ImagK | True | False | Pi | Euler | Ident(_) | TyVar(_) | AplIdent(_) | Lambda | LParen
                | LBracket | LAngle | Index(_) | Minus | Not | Sum | Prod | Scan | Norm | Underscore
        )
    }

    pub fn is_binop(&self) -> bool {
        self.precedence().is_some()
    }

    /// Binding strength of a binary operator (higher binds tighter).
    pub fn precedence(&self) -> Option<u8> {
        use Token::*;
        Some(match self {
            Write | Read => 1,
            Map | Filter | Bind => 2,
            Or => 3,
            And => 4,
            Eq | Neq | Lt | Gt | Leq | Geq | StructEq => 5,
            Concat => 6,
            Plus | Minus | PlusMinus => 7,
            Star | Slash | Percent | ZipWith => 8,
            Caret => 9,
            Compose => 10,
            _ => return None,
        })
    }

    pub fn is_right_assoc(&self) -> bool {
        use Token::*;
        matches!(self, Caret | Arrow | Map | Filter | Bind | Compose | Read)
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Token::*;
        match self {
            Int(n) => write!(f, "{}", n),
            Float(x) => write!(f, "{}", x),
            String(s) => write!(f, "\"{}\"", s),
            Char(c) => write!(f, "'{}'", c),
            Ident(s) | TyVar(s) => write!(f, "{}", s),
            Index(i) => write!(f, "_{}", i),
            ImagLitI(x) => write!(f, "{}𝕚", x),
            ImagLitJ(x) => write!(f, "{}𝕛", x),
            ImagLitK(x) => write!(f, "{}𝕜", x),
            Error(s) => write!(f, "<invalid: {}>", s),
            _ => {
                let glyph = match self {
                    True => "⊤", False => "⊥", Pi => "π", Euler => "𝕖", Plus => "+", Minus => "-",
                    Star => "×", Slash => "/", Arrow => "→", Lambda => "λ", Map => "↦", Filter => "▸",
                    Bind => "⤇", Sum => "Σ", Prod => "Π", ImagI => "𝕚", ImagJ => "𝕛", ImagK => "𝕜",
                    _ => return write!(f, "{:?}", self),
                };
                f.write_str(glyph)
            }
        }
    }
}

thread_local! {
    /// The furthest end of a token handed to the parser (peeked ones excluded) since the last
    /// [`reset_consumed`]: where upstream's `parse_module`, which ends silently at the first token that
    /// starts no declaration, stopped reading (the command line's `--strict` reports what is left).
    static CONSUMED_END: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Forget what earlier parses consumed (before parsing one source whose remainder is to be checked).
pub fn reset_consumed() {
    CONSUMED_END.with(|end| end.set(0));
}

/// The furthest byte a token consumed since [`reset_consumed`] ended at.
pub fn consumed_end() -> usize {
    CONSUMED_END.with(|end| end.get())
}

/// A token stream with one token of lookahead.
pub struct Lexer<'a> {
    source: &'a str,
    offset: usize,
    last: Span,
    peeked: Option<Option<Spanned<Token>>>,
}

impl<'a> Lexer<'a> {
    pub fn new(source: &'a str) -> Self {
        Lexer { source, offset: 0, last: 0..0, peeked: None }
    }

    pub fn peek(&mut self) -> Option<&Token> {
        self.peek_spanned().map(|s| &s.value)
    }

    pub fn peek_spanned(&mut self) -> Option<&Spanned<Token>> {
        if self.peeked.is_none() {
            self.peeked = Some(self.next_inner());
        }
        self.peeked.as_ref().unwrap().as_ref()
    }

    pub fn next(&mut self) -> Option<Token> {
        self.next_spanned().map(|s| s.value)
    }

    pub fn next_spanned(&mut self) -> Option<Spanned<Token>> {
        let token = match self.peeked.take() {
            Some(p) => p,
            None => self.next_inner(),
        };
        if let Some(t) = &token {
            CONSUMED_END.with(|end| end.set(end.get().max(t.loc.end)));
        }
        token
    }

    fn skip_trivia(&mut self) {
        loop {
            let rest = &self.source[self.offset..];
            let ws = rest.bytes().take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')).count();
            self.offset += ws;
            let rest = &self.source[self.offset..];
            if rest.starts_with('#') {
                self.offset += rest.find('\n').unwrap_or(rest.len());
            } else if ws == 0 {
                return;
            }
        }
    }

    fn next_inner(&mut self) -> Option<Spanned<Token>> {
        self.skip_trivia();
        let start = self.offset;
        if start >= self.source.len() {
            return None;
        }
        let (len, tok) = scan(&self.source[start..]);
        let end = start + len;
        self.offset = end;
        self.last = start..end;
        let tok = tok.unwrap_or_else(|| Token::Error(self.source[start..end].to_string()));
        Some(Spanned::new(tok, Loc::new(start, end)))
    }

    pub fn has_more(&mut self) -> bool {
        self.peek().is_some()
    }

    pub fn expect(&mut self, expected: &Token) -> Result<Spanned<Token>, std::string::String> {
        match self.next_spanned() {
            Some(tok) if &tok.value == expected => Ok(tok),
            Some(tok) => Err(format!("Expected {:?}, got {:?}", expected, tok.value)),
            None => Err(format!("Expected {:?}, got EOF", expected)),
        }
    }

    pub fn slice(&self, loc: Loc) -> &'a str {
        &self.source[loc.start..loc.end]
    }

    /// Start of the token most recently read from the source (the peeked one, if any).
    pub fn pos(&self) -> usize {
        self.last.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(src: &str) -> Vec<Token> {
        let mut lex = Lexer::new(src);
        std::iter::from_fn(|| lex.next()).collect()
    }

    #[test]
    fn longest_match_and_ties() {
        use Token::*;
        assert_eq!(all("let letx F F64 _ _0 _x π πx μ μ_v σ² λ→ ₀₁"), vec![
            Let, Ident("letx".into()), TyF64, TyF64, Underscore, Index(0), Ident("_x".into()), Pi,
            Ident("πx".into()), TyVar("μ".into()), Ident("μ_v".into()), Ident("σ²".into()), Lambda, Arrow,
            Index(0), Index(1),
        ]);
        assert_eq!(all("|>_ |> |_ ||_ || | _/ /- /= =>> => === == 1..n 2i 1.5e3 1.5e 'a' \"a\\nb\""), vec![
            Filter, RAngle, FnMid, Norm, Or, Pipe, FnEnd, FnStart, Neq, Bind, FatArrow, RefEq, StructEq,
            Int(1), DotDot, Ident("n".into()), ImagLitI(2.0), Float(1500.0), Float(1.5), Ident("e".into()),
            Char('a'), String("a\nb".into()),
        ]);
        assert_eq!(all("x # c\n log₁₀ log10 \u{a0}"), vec![
            Ident("x".into()), Log10, Log10, Error("\u{a0}".into()),
        ]);
    }
}
