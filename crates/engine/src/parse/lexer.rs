//! Splits the text of one order into words and signs.
//!
//! Words are runs of letters and digits (any script), lower-cased; an
//! apostrophe inside a word is dropped. Signs: the move arrow in its many
//! spellings (`-`, `->`, `=>`, `>`, `–`, `—`, `→`), the slash and the
//! opening parenthesis (before a coast), the colon (after a power's name).
//! Everything else — full stops, closing parentheses, other punctuation,
//! white space and control characters — only separates words; a full stop
//! is remembered on the word right after it (`Spa.nc`).

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Word,
    Dash,
    Slash,
    Open,
    Colon,
}

#[derive(Clone, Debug)]
pub(super) struct Tok {
    pub kind: Kind,
    /// For words: the word in lower case, letters and digits only.
    pub norm: String,
    /// The byte range of the token in the order's text.
    pub start: usize,
    pub end: usize,
    /// A word written right after a full stop, with no space (`.nc`).
    pub after_dot: bool,
    /// A dash with no space on either side (`Mid-Atlantic`, `Lon-Bel`).
    pub tight: bool,
}

impl Tok {
    fn sign(kind: Kind, start: usize, end: usize) -> Tok {
        Tok {
            kind,
            norm: String::new(),
            start,
            end,
            after_dot: false,
            tight: false,
        }
    }
}

fn is_dash(c: char) -> bool {
    matches!(
        c,
        '-' | '>' | '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{2192}' | '\u{21D2}' | '\u{27F6}'
    )
}

/// The tokens of `text`, in order.
pub(super) fn lex(text: &str) -> Vec<Tok> {
    let mut toks: Vec<Tok> = Vec::new();
    let mut chars = text.char_indices().peekable();
    let mut prev: Option<char> = None;
    while let Some((i, c)) = chars.next() {
        if c.is_alphanumeric() {
            let mut norm: String = c.to_lowercase().collect();
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if d.is_alphanumeric() {
                    norm.extend(d.to_lowercase());
                } else if d != '\'' && d != '\u{2019}' {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            toks.push(Tok {
                kind: Kind::Word,
                norm,
                start: i,
                end,
                after_dot: prev == Some('.'),
                tight: false,
            });
            prev = text[..end].chars().next_back();
            continue;
        }
        let kind = match c {
            '-' | '=' if chars.peek().is_some_and(|&(_, d)| d == '>') => {
                let (j, d) = chars.next().expect("peeked");
                toks.push(Tok::sign(Kind::Dash, i, j + d.len_utf8()));
                prev = Some(d);
                continue;
            }
            c if is_dash(c) => Kind::Dash,
            '/' | '\\' => Kind::Slash,
            '(' | '[' | '{' => Kind::Open,
            ':' => Kind::Colon,
            _ => {
                prev = Some(c);
                continue;
            }
        };
        toks.push(Tok::sign(kind, i, i + c.len_utf8()));
        prev = Some(c);
    }
    for k in 0..toks.len() {
        if toks[k].kind == Kind::Dash {
            let before = k > 0 && toks[k - 1].end == toks[k].start;
            let after = toks.get(k + 1).is_some_and(|t| t.start == toks[k].end);
            toks[k].tight = before && after;
        }
    }
    toks
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<String> {
        lex(text)
            .into_iter()
            .map(|t| match t.kind {
                Kind::Word => t.norm,
                Kind::Dash if t.tight => "~".to_string(),
                Kind::Dash => "-".to_string(),
                Kind::Slash => "/".to_string(),
                Kind::Open => "(".to_string(),
                Kind::Colon => ":".to_string(),
            })
            .collect()
    }

    #[test]
    fn words_and_signs() {
        assert_eq!(kinds("A Par-Bur."), ["a", "par", "~", "bur"]);
        assert_eq!(
            kinds("F StP/NC -> Bot"),
            ["f", "stp", "/", "nc", "-", "bot"]
        );
        assert_eq!(
            kinds("F: a St. P. (sc) => x"),
            ["f", ":", "a", "st", "p", "(", "sc", "-", "x"]
        );
        assert_eq!(kinds("Mid—Atlantic"), ["mid", "~", "atlantic"]);
        assert_eq!(kinds("MÜNCHEN's"), ["münchens"]);
        assert!(lex("").is_empty());
        assert!(lex(" .,;\u{0} ").is_empty());
    }

    #[test]
    fn dot_marks_the_next_word() {
        let t = lex("Spa.nc St. P");
        assert!(t[1].after_dot);
        assert!(!t[3].after_dot);
    }
}
