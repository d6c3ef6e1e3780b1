package ingest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// numbered returns n sentences of the given word count, numbered so each
// is distinct: "S1 word word." ...
func numbered(n, words int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "S" + fmt.Sprint(i+1) + strings.Repeat(" word", words-1) + "."
	}
	return out
}

func TestChunk(t *testing.T) {
	s := numbered(12, 20)
	join := func(ss ...string) string { return strings.Join(ss, " ") }
	tests := []struct {
		name string
		text string
		cfg  ChunkConfig
		want []string
	}{
		{"empty", "", ChunkConfig{}, nil},
		{"whitespace", " \n\n\t ", ChunkConfig{}, nil},
		{"short text is one passage", join(s[:2]...), ChunkConfig{}, []string{join(s[:2]...)}},
		{
			"default: up to 120 words, one sentence overlap",
			join(s[:12]...),
			ChunkConfig{},
			[]string{join(s[0:6]...), join(s[5:11]...), join(s[10:12]...)},
		},
		{
			"no overlap",
			join(s[:12]...),
			ChunkConfig{OverlapSentences: NoOverlap},
			[]string{join(s[0:6]...), join(s[6:12]...)},
		},
		{
			"two sentences of overlap",
			join(s[:8]...),
			ChunkConfig{MaxWords: 80, OverlapSentences: 2},
			[]string{join(s[0:4]...), join(s[2:6]...), join(s[4:8]...)},
		},
		{
			"paragraph break closes a passage of min words",
			join(s[0:3]...) + "\n\n" + join(s[3:5]...),
			ChunkConfig{},
			[]string{join(s[0:3]...), join(s[2:5]...)},
		},
		{
			"paragraph break below min words runs on",
			join(s[0:2]...) + "\n\n" + join(s[2:4]...),
			ChunkConfig{},
			[]string{join(s[0:4]...)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Chunk(tt.text, tt.cfg)); diff != "" {
				t.Errorf("Chunk (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChunkBounds(t *testing.T) {
	long := "Start" + strings.Repeat(" word", 300) + "."
	huge := strings.Repeat("x", 3000)
	tests := []struct {
		name string
		text string
		cfg  ChunkConfig
	}{
		{"over-long sentence", long, ChunkConfig{}},
		{"over-long word", "A " + huge + " b.", ChunkConfig{}},
		{"multibyte word", strings.Repeat("é", 2000), ChunkConfig{MaxChars: 101}},
		{"mixed", strings.Join(numbered(40, 33), " ") + "\n\n" + long, ChunkConfig{MinWords: 10, MaxWords: 50}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg.withDefaults()
			chunks := Chunk(tt.text, tt.cfg)
			if len(chunks) < 2 {
				t.Fatalf("got %d chunks, want the text split", len(chunks))
			}
			for i, c := range chunks {
				if strings.TrimSpace(c) == "" {
					t.Errorf("chunk %d is empty", i)
				}
				if n := len(strings.Fields(c)); n > cfg.MaxWords {
					t.Errorf("chunk %d has %d words, max %d", i, n, cfg.MaxWords)
				}
				if len(c) > cfg.MaxChars {
					t.Errorf("chunk %d has %d bytes, max %d", i, len(c), cfg.MaxChars)
				}
				if !utf8.ValidString(c) {
					t.Errorf("chunk %d is not valid UTF-8", i)
				}
			}
			// Nothing is lost: every word of the input is in some chunk.
			all := strings.Join(chunks, " ")
			for _, w := range strings.Fields(tt.text) {
				if len(w) < 1000 && !strings.Contains(all, w) {
					t.Errorf("word %q lost", w)
				}
			}
		})
	}
}

func TestJoinAndCountFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a b", " a b", "a b ", "a  b", "a\tb", "a\nb", "a\r\nb", "a\vb\fc",
		"caf\u00e9 au lait", "a\u00a0b", "a\u0085b", "a\u2009b", "\xff\xfe bad", "one two three four"} {
		if got, want := joinFields(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("joinFields(%q) = %q, want %q", s, got, want)
		}
		if got, want := countFields(s), len(strings.Fields(s)); got != want {
			t.Errorf("countFields(%q) = %d, want %d", s, got, want)
		}
	}
}

func FuzzJoinFields(f *testing.F) {
	f.Add("a  b\tc\u00a0d")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := joinFields(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("joinFields(%q) = %q, want %q", s, got, want)
		}
		if got, want := countFields(s), len(strings.Fields(s)); got != want {
			t.Errorf("countFields(%q) = %d, want %d", s, got, want)
		}
	})
}
