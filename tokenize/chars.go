package tokenize

import "unicode"

// isWord reports whether r belongs inside a word: a letter, a number or a
// combining mark.
func isWord(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// isDigit reports whether r is an ASCII digit.
func isDigit(r rune) bool { return '0' <= r && r <= '9' }

// isLetter reports whether r is a letter.
func isLetter(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

// isSpace reports whether r separates tokens: Unicode white space plus the
// invisible zero-width space, word joiner and byte-order mark, and the
// marks that set the direction of text (left-to-right and right-to-left
// marks, embeddings, overrides and isolates), which pasted text may hold
// and which would otherwise be tokens of their own.
func isSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return true
	case 0x200B, 0x2060, 0xFEFF, 0x200E, 0x200F, 0x061C:
		return true
	}
	if 0x202A <= r && r <= 0x202E || 0x2066 <= r && r <= 0x2069 {
		return true
	}
	return r >= 0x80 && unicode.IsSpace(r)
}

// invisible reports whether s holds only characters that are drawn as
// nothing on their own: format characters (a soft hyphen, a zero-width
// joiner or non-joiner, the invisible operators) and variation selectors.
// Inside a word they stay ("👨‍👩‍👧", "Wort\u00ADtrennung"); alone they are no
// token.
func invisible(s string) bool {
	for _, r := range s {
		if !unicode.Is(unicode.Cf, r) && !unicode.Is(unicode.Variation_Selector, r) {
			return false
		}
	}
	return true
}

// isWordish reports whether r counts as word material when deciding if a
// punctuation mark sits inside a word ("4,75", "pct.-loonsverhoging",
// "5,-").
func isWordish(r rune) bool { return isWord(r) || r == '-' || r == '+' }

// isApostrophe reports whether r can be an apostrophe: the typewriter one
// and the right single quotation mark that word processors put in its place.
func isApostrophe(r rune) bool { return r == '\'' || r == '’' }

// isSingleQuote reports whether r is a single quotation mark or apostrophe.
func isSingleQuote(r rune) bool {
	switch r {
	case '\'', '’', '‘', '‚', '‛', '`', '´', '‹', '›':
		return true
	}
	return false
}

// isDoubleQuote reports whether r is a double quotation mark.
func isDoubleQuote(r rune) bool {
	switch r {
	case '"', '“', '”', '„', '‟', '«', '»', '〝', '〞', '＂':
		return true
	}
	return false
}

// closingQuotes returns the marks that can close a quotation opened by r.
func closingQuotes(r rune) string {
	switch r {
	case '“':
		return "”“"
	case '„':
		return "“”"
	case '«':
		return "»"
	case '»':
		return "«»"
	}
	return string(r)
}

// isOpenBracket and isCloseBracket report whether r is a bracket.
func isOpenBracket(r rune) bool  { return r == '(' || r == '[' || r == '{' }
func isCloseBracket(r rune) bool { return r == ')' || r == ']' || r == '}' }

// matchingBracket returns the partner of a bracket.
func matchingBracket(r rune) rune {
	switch r {
	case '(':
		return ')'
	case ')':
		return '('
	case '[':
		return ']'
	case ']':
		return '['
	case '{':
		return '}'
	case '}':
		return '{'
	}
	return r
}

// isDash reports whether r is a hyphen or dash.
func isDash(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '—', '―':
		return true
	}
	return false
}

// isLongDash reports whether r is an em dash or a horizontal bar, which
// set off a clause even when typed between words ("zei—en dat klopt—dat"),
// unlike the hyphen and the en dash of "tv-omroepen" and "1990–2000".
func isLongDash(r rune) bool { return r == '—' || r == '―' }

// isSeparator reports whether r is a punctuation mark that becomes a token of
// its own unless it sits between word characters.
func isSeparator(r rune) bool {
	switch r {
	case '.', ',', ';', ':', '!', '?', '(', ')', '[', ']', '{', '}',
		'…', '*', '/', '&', '•', '·', '¿', '¡', '–', '—', '―':
		return true
	}
	return isSingleQuote(r) || isDoubleQuote(r) || r >= 0x3000 && isFullWidthMark(r)
}

// isFullWidthMark reports whether r is a full-width (CJK) punctuation mark:
// "。", "，", "、", "！", "？", "；" and the full-width and CJK brackets (not
// the full-width colon and full stop, which stand between digits: "１２：３０").
// No word holds one, so it is a token of its own also between word
// characters ("你好，世界。" gives "你好" "，" "世界" "。").
func isFullWidthMark(r rune) bool {
	switch r {
	case '。', '，', '、', '！', '？', '；', '（', '）', '［', '］', '｛', '｝',
		'「', '」', '『', '』', '【', '】', '《', '》', '〈', '〉', '〔', '〕':
		return true
	}
	return false
}

// isFullWidthFinal reports whether r is a full-width mark that ends a
// sentence: "。", "！" or "？".
func isFullWidthFinal(r rune) bool { return r == '。' || r == '！' || r == '？' }

// isCurrency reports whether r is a currency sign ($, €, £ ...).
func isCurrency(r rune) bool {
	if r == '$' {
		return true
	}
	return r >= 0x80 && unicode.Is(unicode.Sc, r)
}
