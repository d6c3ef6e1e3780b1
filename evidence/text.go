package evidence

import (
	"strings"
	"unicode/utf8"
)

// CheckText returns an *InputError naming field when s holds a NUL
// character or is not valid UTF-8: text that every layer would have to
// guard against (SQL drivers, JSON, terminals) is refused where it enters.
func CheckText(field, s string) error {
	if !utf8.ValidString(s) {
		return Invalid(field, "is not valid UTF-8")
	}
	if strings.IndexByte(s, 0) >= 0 {
		return Invalid(field, "holds a NUL character")
	}
	return nil
}
