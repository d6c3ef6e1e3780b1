package text

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestStopListsPinned pins every stop-word list, word for word (the
// digest of its sorted words): each was its consumer's own list before
// package text held them, and changing one changes what retrieval indexes,
// what the embedder's stored vectors are, or what the NLI model was
// trained on. A deliberate change updates the digest here and says in the
// commit what it was measured on.
func TestStopListsPinned(t *testing.T) {
	for _, tc := range []struct {
		name string
		list StopList
		n    int
		sum  string
	}{
		{"SnowballStop", SnowballStop, 127, "cc397ed4bad427203e3c41acd7a7a74d9ffa4a9c7fc6319ece9cb4cd0a557694"},
		{"SearchStop", SearchStop, 136, "e9aa4d986f33038f15ff4fb8ba1bcbbbb01f97356d3ef9d97d1a6cf4d7448281"},
		{"EmbedStop", EmbedStop, 131, "47e474f8601fe122e193999985691c35b74f6a46849e38dd04fcb5e268a860ef"},
		{"CitationStop", CitationStop, 142, "243d60514f5937d590f8e7b5bce51e05c82e44a9b5efbb87cc5ed653939c1cc3"},
		{"AlignStop", AlignStop, 100, "5b58cfcc38b9fc8cb2dc371befa452c676db6bc8e5c039da0aaa5d3a539bd674"},
		{"AboutStop", AboutStop, 132, "9faf6bdca1b865ba3a13b0452dbd0e553512053847142f912986172f2ef76c53"},
		{"LexiconStop", LexiconStop, 124, "b5450b7076482a68e61ef2fd5daaa2921784416c581ccc31ee5d48dee4a0dc21"},
		{"ContextStop", ContextStop, 60, "6dcf8e5f723e9cb5f70953b697cb8c9d73f16d5accdf01bb04d4aee42e7e61a1"},
		{"PairStop", PairStop, 40, "c4fd840488c9eb179250b529fba85825db538b110b8b1c294c213bd4dece291c"},
	} {
		words := tc.list.Words()
		sum := sha256.Sum256([]byte(strings.Join(words, " ")))
		if got := hex.EncodeToString(sum[:]); tc.list.Len() != tc.n || got != tc.sum {
			t.Errorf("%s has %d words hashing to %s, want %d hashing to %s; its words: %s", tc.name, tc.list.Len(), got, tc.n, tc.sum, strings.Join(words, " "))
		}
	}
}

// TestStopListsDiffer shows what each list keeps or drops that tells it
// apart from the others.
func TestStopListsDiffer(t *testing.T) {
	for _, tc := range []struct {
		name string
		list StopList
		has  string
		lack string
	}{
		{"SnowballStop", SnowballStop, "the having yourselves don", "would also"},
		{"SearchStop", SearchStop, "the would may also whether", "vaccine"},
		{"EmbedStop", EmbedStop, "the would 's 're", "not no nor now don s"},
		{"CitationStop", CitationStop, "the according said per would upon", "vaccine"},
		{"AlignStop", AlignStop, "the named called known no not many", "under same why"},
		{"AboutStop", AboutStop, "the named within yet it's", "vaccine"},
		{"LexiconStop", LexiconStop, "the via mine it's", "him through"},
		{"ContextStop", ContextStop, "the around nearly least", "no will"},
		{"PairStop", PairStop, "the no not", "all some more"},
	} {
		for _, w := range strings.Fields(tc.has) {
			if !tc.list.Has(w) {
				t.Errorf("%s lacks %q", tc.name, w)
			}
		}
		for _, w := range strings.Fields(tc.lack) {
			if tc.list.Has(w) {
				t.Errorf("%s has %q", tc.name, w)
			}
		}
	}
	s := SearchStop.Set()
	s["vaccine"] = true
	if SearchStop.Has("vaccine") {
		t.Error("Set returned the list itself, not a copy")
	}
}
