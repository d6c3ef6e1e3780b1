package citations

import (
	"fmt"
	"regexp"
	"strings"
)

// A page is judged on its text whatever its length: a short page that
// states the claim verifies it. A page is unreadable (thin_content) only
// when it has no text, or when all it shows besides is one of the markers
// below: a paywall, a login wall, a bot check or a consent wall. When a
// page shows a marker and also other text, the other text is judged; a
// claim not found there is reported unreadable rather than not in the
// source, since it may stand behind the wall, and the report names the
// marker.

// wallMarker is a sentence that shows a page is behind a wall.
type wallMarker struct {
	// kind is "paywall", "login", "bot check" or "consent".
	kind string
	// name is the marker as reports quote it.
	name string
	re   *regexp.Regexp
}

// wallMarkers is the tested set of markers, matched without regard to
// case against each sentence of a page.
var wallMarkers = []wallMarker{
	{"paywall", "subscribe to continue", regexp.MustCompile(`(?i)\bsubscribe (?:now )?to (?:continue|read|keep reading|unlock)`)},
	{"paywall", "to continue reading", regexp.MustCompile(`(?i)\bto continue reading\b`)},
	{"paywall", "subscribers only", regexp.MustCompile(`(?i)\b(?:subscribers? only|for subscribers|exclusive to subscribers)\b`)},
	{"paywall", "already a subscriber", regexp.MustCompile(`(?i)\balready a subscriber\b`)},
	{"login", "sign in to continue", regexp.MustCompile(`(?i)\b(?:sign|log) in to (?:continue|read|view|access)\b`)},
	{"login", "create an account", regexp.MustCompile(`(?i)\bcreate a (?:free )?account to\b`)},
	{"bot check", "verify you are human", regexp.MustCompile(`(?i)\bverify (?:that )?you are (?:a )?human\b`)},
	{"bot check", "are you a robot", regexp.MustCompile(`(?i)\b(?:are you a robot|not a robot)\b`)},
	{"bot check", "captcha", regexp.MustCompile(`(?i)\bcaptcha\b`)},
	{"bot check", "checking your browser", regexp.MustCompile(`(?i)\bchecking (?:if the site connection is secure|your browser)\b`)},
	{"bot check", "unusual traffic", regexp.MustCompile(`(?i)\bunusual traffic\b`)},
	{"bot check", "javascript required", regexp.MustCompile(`(?i)\b(?:enable javascript|javascript is (?:disabled|required))\b`)},
	{"bot check", "access denied", regexp.MustCompile(`(?i)\b(?:access denied|request blocked)\b`)},
	// A sentence that is only "Loading..." or "Just a moment...": the
	// page's text comes from a script or after a check.
	{"bot check", "loading", regexp.MustCompile(`(?i)^\W*(?:loading|please wait|just a moment|one moment(?:,? please)?)\W*$`)},
	{"consent", "cookie consent", regexp.MustCompile(`(?i)\b(?:we use cookies|accept (?:all )?cookies|cookie (?:consent|preferences|settings))\b`)},
}

// wallOf returns the first marker a sentence shows.
func wallOf(sentence string) (wallMarker, bool) {
	for _, m := range wallMarkers {
		if m.re.MatchString(sentence) {
			return m, true
		}
	}
	return wallMarker{}, false
}

func (m wallMarker) String() string { return fmt.Sprintf("%s marker (%q)", m.kind, m.name) }

// splitWalls removes the sentences that show a wall marker from text and
// returns the text left, paragraph breaks kept, and the first marker
// found.
func splitWalls(text string) (rest string, wall wallMarker, found bool) {
	var paras []string
	for _, para := range strings.Split(text, "\n\n") {
		var kept []string
		forEachSentence(para, func(s string) {
			if m, ok := wallOf(s); ok {
				if !found {
					wall, found = m, true
				}
				return
			}
			kept = append(kept, s)
		})
		if len(kept) > 0 {
			paras = append(paras, strings.Join(kept, " "))
		}
	}
	return strings.Join(paras, "\n\n"), wall, found
}
