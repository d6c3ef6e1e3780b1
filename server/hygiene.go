package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/verity-fc/verity/evidence"
)

// checkJSONText refuses a JSON body with a NUL character or invalid UTF-8
// in any string, naming the field ("claims[2].text"). It must run on the
// raw body: encoding/json silently turns invalid UTF-8 and lone surrogate
// escapes into U+FFFD. A body that is not JSON passes; decoding reports it.
func checkJSONText(body []byte) error {
	if utf8.Valid(body) && !bytes.Contains(body, []byte(`\u`)) && bytes.IndexByte(body, 0) < 0 {
		return nil // the common case: nothing to look for
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	type frame struct {
		object bool
		key    string // the current key of an object
		index  int    // the next index of an array
		want   bool   // an object expects a key next
	}
	var stack []frame
	pathOf := func(stack []frame) string {
		var b strings.Builder
		for i, f := range stack {
			if f.object {
				if i > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			} else {
				b.WriteString("[" + strconv.Itoa(f.index-1) + "]")
			}
		}
		if b.Len() == 0 {
			return "body"
		}
		return b.String()
	}
	path := func() string { return pathOf(stack) }
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.want
		if err != nil {
			// A raw NUL is a syntax error; name the value it is in.
			var se *json.SyntaxError
			if errors.As(err, &se) && nulInString(body, start) {
				switch {
				case isKey:
					return evidence.Invalid(pathOf(stack), "has a key that holds a NUL character")
				case top != nil && !top.object:
					top.index++
				}
				return evidence.Invalid(path(), "holds a NUL character")
			}
			return nil
		}
		if top != nil && !top.object {
			if d, ok := tok.(json.Delim); !ok || (d != ']' && d != '}') {
				top.index++
			}
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{object: true, want: true})
			case '[':
				stack = append(stack, frame{})
			default:
				stack = stack[:len(stack)-1]
			}
			if (t == '}' || t == ']') && len(stack) > 0 && stack[len(stack)-1].object {
				stack[len(stack)-1].want = true
			}
			continue
		case string:
			raw := body[start:dec.InputOffset()]
			if isKey {
				if msg := badText(t, raw); msg != "" {
					return evidence.Invalid(pathOf(stack[:len(stack)-1]), "has a key that %s", msg)
				}
				top.key, top.want = t, false
				continue
			}
			if msg := badText(t, raw); msg != "" {
				return evidence.Invalid(path(), "%s", msg)
			}
		}
		if top != nil && top.object {
			top.want = true
		}
	}
}

// badText says what is wrong with a decoded JSON string s whose literal,
// with what preceded it since the last token, is raw; "" when nothing.
func badText(s string, raw []byte) string {
	if !utf8.Valid(raw) {
		return "is not valid UTF-8"
	}
	if strings.IndexByte(s, 0) >= 0 {
		return "holds a NUL character"
	}
	// A lone surrogate escape ("\ud800") decodes to U+FFFD; a U+FFFD the
	// client really sent is spelled out or escaped as \ufffd.
	if strings.ContainsRune(s, utf8.RuneError) && strings.Count(s, "\uFFFD") > bytes.Count(raw, []byte("\uFFFD"))+bytes.Count(bytes.ToLower(raw), []byte(`\ufffd`)) {
		return "is not valid UTF-8 (a lone surrogate escape)"
	}
	return ""
}

// checkRequestText refuses query parameters and path parameters that hold
// a NUL character or invalid UTF-8, naming the parameter.
func (s *Server) checkRequestText() gin.HandlerFunc {
	return func(c *gin.Context) {
		for name, values := range c.Request.URL.Query() {
			for _, v := range values {
				if err := evidence.CheckText(name, v); err != nil {
					s.writeError(c, err)
					return
				}
			}
			if err := evidence.CheckText("query", name); err != nil {
				s.writeError(c, err)
				return
			}
		}
		for _, p := range c.Params {
			if err := evidence.CheckText(p.Key, p.Value); err != nil {
				s.writeError(c, err)
				return
			}
		}
		c.Next()
	}
}

// nulInString reports whether the first string literal at or after from in
// body holds a raw NUL byte.
func nulInString(body []byte, from int64) bool {
	i := bytes.IndexByte(body[from:], '"')
	if i < 0 {
		return false
	}
	for j := from + int64(i) + 1; j < int64(len(body)); j++ {
		switch body[j] {
		case 0:
			return true
		case '\\':
			j++
		case '"':
			return false
		}
	}
	return false
}
