package web

import (
	"io/fs"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func readAsset(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Assets(), name)
	if err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return string(b)
}

func scripts(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, err := fs.Glob(Assets(), "js/*.js")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts under js/ (%v)", err)
	}
	for _, f := range files {
		out[f] = readAsset(t, f)
	}
	return out
}

var (
	assetRef = regexp.MustCompile(`(?:src|href)="/assets/([^"]+)"`)
	importRe = regexp.MustCompile(`(?m)^import [^'"]*['"]\./([^'"]+)['"];`)
)

// TestReferencesResolve checks that every file index.html names and every
// module a script imports is embedded: a missing one is a blank page.
func TestReferencesResolve(t *testing.T) {
	index := readAsset(t, "index.html")
	refs := assetRef.FindAllStringSubmatch(index, -1)
	if len(refs) < 3 {
		t.Fatalf("index.html names %d assets; want the stylesheet, the script and the icon", len(refs))
	}
	for _, m := range refs {
		if _, err := fs.Stat(Assets(), m[1]); err != nil {
			t.Errorf("index.html names /assets/%s, which is not embedded", m[1])
		}
	}
	for name, src := range scripts(t) {
		for _, m := range importRe.FindAllStringSubmatch(src, -1) {
			target := path.Join(path.Dir(name), m[1])
			if _, err := fs.Stat(Assets(), target); err != nil {
				t.Errorf("%s imports ./%s, which is not embedded", name, m[1])
			}
		}
	}
}

// TestNoMarkupFromStrings keeps the rule that server and model text is
// rendered as text: no script builds DOM from HTML strings or runs strings
// as code.
func TestNoMarkupFromStrings(t *testing.T) {
	banned := []string{"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function", "setTimeout('", "createContextualFragment", "DOMParser"}
	for name, src := range scripts(t) {
		for _, b := range banned {
			if strings.Contains(src, b) {
				t.Errorf("%s uses %s; build elements with h() and textContent", name, b)
			}
		}
	}
	if strings.Contains(readAsset(t, "index.html"), "<script>") || strings.Contains(readAsset(t, "index.html"), " style=") {
		t.Error("index.html has inline script or style, which the Content-Security-Policy refuses")
	}
}

var cssVar = regexp.MustCompile(`--([a-z-]+):\s*(#[0-9a-fA-F]{6})\b`)

// TestContrast checks the colour pairs the stylesheet puts text on against
// WCAG AA: 4.5:1 for text, 3:1 for the gauge's arcs and other graphics.
func TestContrast(t *testing.T) {
	vars := map[string]string{"white": "#ffffff"}
	for _, m := range cssVar.FindAllStringSubmatch(readAsset(t, "app.css"), -1) {
		vars[m[1]] = m[2]
	}
	tests := []struct {
		fg, bg string
		min    float64
	}{
		{"text", "white", 4.5}, {"text", "bg", 4.5}, {"muted", "white", 4.5}, {"muted", "bg", 4.5},
		{"muted", "accent-bg", 4.5}, {"accent", "white", 4.5}, {"accent", "bg", 4.5}, {"accent", "accent-bg", 4.5},
		{"white", "accent", 4.5}, {"good", "white", 4.5}, {"good-text", "good-bg", 4.5}, {"white", "good", 4.5},
		{"fair", "white", 4.5}, {"fair-text", "fair-bg", 4.5}, {"poor", "white", 4.5}, {"poor-text", "poor-bg", 4.5},
		{"white", "poor", 4.5}, {"neutral", "white", 4.5}, {"white", "neutral", 4.5}, {"neutral-text", "neutral-bg", 4.5},
		{"white", "topbar", 4.5}, {"topbar-text", "topbar", 4.5}, {"topbar-muted", "topbar", 4.5}, {"topbar", "white", 4.5},
		{"border-strong", "white", 3}, {"focus", "white", 3},
	}
	for _, tt := range tests {
		t.Run(tt.fg+" on "+tt.bg, func(t *testing.T) {
			fg, ok1 := vars[tt.fg]
			bg, ok2 := vars[tt.bg]
			if !ok1 || !ok2 {
				t.Fatalf("app.css does not define --%s or --%s", tt.fg, tt.bg)
			}
			if r := contrast(t, fg, bg); r < tt.min {
				t.Errorf("--%s %s on --%s %s has contrast %.2f:1, want at least %.1f:1", tt.fg, fg, tt.bg, bg, r, tt.min)
			}
		})
	}
}

// contrast is the WCAG 2 contrast ratio of two #rrggbb colours.
func contrast(t *testing.T, a, b string) float64 {
	la, lb := luminance(t, a), luminance(t, b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(t *testing.T, hex string) float64 {
	t.Helper()
	var c [3]float64
	for i := range c {
		v, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		if err != nil {
			t.Fatalf("colour %s: %v", hex, err)
		}
		s := float64(v) / 255
		if s <= 0.03928 {
			c[i] = s / 12.92
		} else {
			c[i] = math.Pow((s+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*c[0] + 0.7152*c[1] + 0.0722*c[2]
}

func TestContrastReference(t *testing.T) {
	// Black on white is 21:1 and a colour on itself 1:1, by definition.
	for _, tt := range []struct {
		a, b string
		want float64
	}{{"#000000", "#ffffff", 21}, {"#777777", "#777777", 1}} {
		if got := contrast(t, tt.a, tt.b); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("contrast(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
