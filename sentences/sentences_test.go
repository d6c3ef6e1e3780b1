package sentences

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// splitTests holds the cases of the splitters this package replaced
// (ingest's, the agents' lexicon's, the fact-check extractor's and the
// citation checker's), then its own. They seed FuzzSplit too.
var splitTests = []struct {
	name string
	text string
	want []string
}{
	// From ingest.
	{"empty", "", nil},
	{"one", "Just one sentence.", []string{"Just one sentence."}},
	{
		"titles and initials",
		"Dr. Smith met J. R. Jones in St. Louis. They talked.",
		[]string{"Dr. Smith met J. R. Jones in St. Louis.", "They talked."},
	},
	{
		"initialism and decimal",
		"The U.S. economy grew 3.5% in 2023. Mr. Jones disagreed, e.g. in his op-ed.",
		[]string{"The U.S. economy grew 3.5% in 2023.", "Mr. Jones disagreed, e.g. in his op-ed."},
	},
	{
		"references",
		"Anisotropy was higher (Fig. 2). Smith et al. reported it. See No. 5 and Vol. 3 for details.",
		[]string{"Anisotropy was higher (Fig. 2).", "Smith et al. reported it.", "See No. 5 and Vol. 3 for details."},
	},
	{
		"quotes and other terminators",
		`He said "No." Then he left! Did she? Yes... She did.`,
		[]string{`He said "No."`, "Then he left!", "Did she?", "Yes...", "She did."},
	},
	{
		"lower case after a period is no end",
		"It rose about 5 p.m. and fell at 6 p.m. The end came.",
		[]string{"It rose about 5 p.m. and fell at 6 p.m.", "The end came."},
	},
	{
		"number after a period starts a sentence",
		"The count was low in 2023. 15 people died in 2024.",
		[]string{"The count was low in 2023.", "15 people died in 2024."},
	},
	{
		"dates with month abbreviations",
		"It launched on Jan. 5, 2024. Nobody noticed.",
		[]string{"It launched on Jan. 5, 2024.", "Nobody noticed."},
	},
	{
		"opening quote",
		`It ended. "Never again," she said.`,
		[]string{"It ended.", `"Never again," she said.`},
	},
	{"no final period", "A fragment without an end", []string{"A fragment without an end"}},
	{
		"lower-case single letter is no initial",
		"Take vitamin x. Then rest. Ask Mr. X. Y. Smith.",
		[]string{"Take vitamin x.", "Then rest.", "Ask Mr. X. Y. Smith."},
	},

	// From agents/internal/lexicon.
	{"blank", "  \n\t ", nil},
	{"two", "The drug was approved in 2021. It cut deaths by 3.5%.", []string{"The drug was approved in 2021.", "It cut deaths by 3.5%."}},
	{
		"abbreviations and initials",
		"Dr. Smith et al. reported it. J. Doe of the U.S. Army agreed.",
		[]string{"Dr. Smith et al. reported it.", "J. Doe of the U.S. Army agreed."},
	},
	{
		"quotes and brackets",
		`He said "It works." (Later results differed.) Then 12 more came!`,
		[]string{`He said "It works."`, "(Later results differed.)", "Then 12 more came!"},
	},
	{"lower case after period", "Use e.g. aspirin. or not", []string{"Use e.g. aspirin. or not"}},
	{"blank line ends a sentence", "Heading without period\n\nBody text here.", []string{"Heading without period", "Body text here."}},
	{"question and ellipsis", "Does it work?... Yes. No!", []string{"Does it work?...", "Yes.", "No!"}},
	{"no final period, two", "Rates fell. Then rose", []string{"Rates fell.", "Then rose"}},

	// From agents/factcheck, whose Punkt splitter was tested on these.
	{
		"initialism before a capital and a title",
		"The Internet originated from ARPANET, funded by the U.S. Department of Defense in 1969. Dr. Smith said so.",
		[]string{"The Internet originated from ARPANET, funded by the U.S. Department of Defense in 1969.", "Dr. Smith said so."},
	},
	{"numbers end sentences", "One is 1. Two is 2. Three is 3.", []string{"One is 1.", "Two is 2.", "Three is 3."}},

	// From agents/citations.
	{"all terminators", "One. Two! Three? Four", []string{"One.", "Two!", "Three?", "Four"}},
	{"money", "Revenue was $3.5 billion. Costs fell.", []string{"Revenue was $3.5 billion.", "Costs fell."}},
	{"et al. before a year", "Smith et al. (2019) found it. Dr. Jones agreed.", []string{"Smith et al. (2019) found it.", "Dr. Jones agreed."}},
	{"initialism, then an initial", "The U.S. market grew. J. Smith said so.", []string{"The U.S. market grew.", "J. Smith said so."}},
	{"quoted lower case", `He said "it grew." Then it fell.`, []string{`He said "it grew."`, "Then it fell."}},
	{"opening abbreviation", "e.g. this one stays. Next.", []string{"e.g. this one stays.", "Next."}},
	{"lower case runs on", "ends in lower case. it continues", []string{"ends in lower case. it continues"}},

	// The cases that made ingest write its own splitter instead of Punkt.
	{"figure in brackets", "It rose (Fig. 2) in May.", []string{"It rose (Fig. 2) in May."}},
	{"et al. before lower case", "Smith et al. reported a rise.", []string{"Smith et al. reported a rise."}},
	{"year before a title", "It grew in 2023. Mr. Jones disagreed.", []string{"It grew in 2023.", "Mr. Jones disagreed."}},

	// Rules of this package.
	{
		"number abbreviations hold only before a number",
		"See No. 5 on p. 12, built c. 1850. He said no. Then he left.",
		[]string{"See No. 5 on p. 12, built c. 1850.", "He said no.", "Then he left."},
	},
	{"number abbreviation before a word ends", `Was it yes? He said No. Then left.`, []string{"Was it yes?", "He said No.", "Then left."}},
	{"versus", "In Roe v. Wade the court ruled. It was 1973.", []string{"In Roe v. Wade the court ruled.", "It was 1973."}},
	{"also known as", "Jewell (a.k.a. Ju-L) sang.", []string{"Jewell (a.k.a. Ju-L) sang."}},
	{
		"closer after an abbreviation ends the sentence",
		"It was made in the U.S.) Then it was sold by Acme Inc.\" He agreed.",
		[]string{"It was made in the U.S.)", `Then it was sold by Acme Inc."`, "He agreed."},
	},
	{
		"statistics before a period are no initialism",
		"Rates fell (P=0.01). Deaths rose (95% CI, 1.1-2.0; P=.002). Then it ended.",
		[]string{"Rates fell (P=0.01).", "Deaths rose (95% CI, 1.1-2.0; P=.002).", "Then it ended."},
	},
	{"initialism with lower case", "She holds a Ph.D. from Yale.", []string{"She holds a Ph.D. from Yale."}},
	{
		"lower-case names begin sentences",
		"It acts on the liver. mTOR inhibition blocks it. iPhone sales rose. p53 was lost.",
		[]string{"It acts on the liver.", "mTOR inhibition blocks it.", "iPhone sales rose.", "p53 was lost."},
	},
	{
		"lower-case names after abbreviations run on",
		"Kinases, e.g. mTOR and others, at 6 p.m. eBay time. Done.",
		[]string{"Kinases, e.g. mTOR and others, at 6 p.m. eBay time.", "Done."},
	},
	{"lower-case name after a question", "Is it new? iPhone sales say so.", []string{"Is it new?", "iPhone sales say so."}},
	{"lower-case name in quotes", `It ended. "eBay won," he said.`, []string{"It ended.", `"eBay won," he said.`}},
	{"broken web address", "See the site.  ? id=45 for more.", []string{"See the site.  ? id=45 for more."}},
	{
		"typographic quotes and guillemets",
		"He said “It works.” «Non.» ‘Later,’ she wrote.",
		[]string{"He said “It works.”", "«Non.»", "‘Later,’ she wrote."},
	},
	{"bracket opener", "It ended. [Citation needed.] Fine.", []string{"It ended.", "[Citation needed.]", "Fine."}},
	{
		"blank lines with carriage returns and spaces",
		"Title\r\n \r\nFirst line\nsame sentence.\n\n\n  Last one",
		[]string{"Title", "First line\nsame sentence.", "Last one"},
	},
	{"blank line after an abbreviation", "See Fig.\n\nNext part.", []string{"See Fig.", "Next part."}},
	{"line break is no blank line", "One line\nand the next.", []string{"One line\nand the next."}},
	{"no space after the period", "It was 3.5.Then 4.", []string{"It was 3.5.Then 4."}},
	{"terminator at the end with space", "It ended.   ", []string{"It ended."}},
	{"terminators alone do not split", "... !? .", []string{"... !? ."}},
	{"non-breaking space before an abbreviation", "It rose\u00a0approx. 5 units. Then fell.", []string{"It rose\u00a0approx. 5 units.", "Then fell."}},
	{"other scripts stay whole", "Ça a marché. Été 2023. Ωμέγα έρχεται.", []string{"Ça a marché.", "Été 2023.", "Ωμέγα έρχεται."}},
	{"invalid UTF-8 is kept", "Bad \xff byte. Next \xc3 one.", []string{"Bad \xff byte.", "Next \xc3 one."}},
}

func TestSplit(t *testing.T) {
	for _, tt := range splitTests {
		t.Run(tt.name, func(t *testing.T) {
			spans := Split(tt.text)
			checkSpans(t, tt.text, spans)
			var got []string
			for _, s := range spans {
				got = append(got, s.Text)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Split(%q) (-want +got):\n%s", tt.text, diff)
			}
			if diff := cmp.Diff(tt.want, Texts(tt.text)); diff != "" {
				t.Errorf("Texts(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestSplitOffsets(t *testing.T) {
	text := "  Dr. Smith left.\n\nHe “won.” Then\tlost  "
	want := []Span{
		{Text: "Dr. Smith left.", Start: 2, End: 17},
		{Text: "He “won.”", Start: 19, End: 32},
		{Text: "Then\tlost", Start: 33, End: 42},
	}
	if diff := cmp.Diff(want, Split(text)); diff != "" {
		t.Errorf("Split(%q) (-want +got):\n%s", text, diff)
	}
}

// checkSpans checks what Split promises of any text: spans in order,
// within the text, not overlapping, each exactly the text it points at,
// not empty, with no white space around it and only white space between.
func checkSpans(t *testing.T, text string, spans []Span) {
	t.Helper()
	prev := 0
	for i, s := range spans {
		if s.Start < prev || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("span %d is %d:%d after %d in a text of %d bytes", i, s.Start, s.End, prev, len(text))
		}
		if s.Text != text[s.Start:s.End] {
			t.Errorf("span %d is %d:%d, which holds %q, but its text is %q", i, s.Start, s.End, text[s.Start:s.End], s.Text)
		}
		first, _ := utf8.DecodeRuneInString(s.Text)
		last, _ := utf8.DecodeLastRuneInString(s.Text)
		if unicode.IsSpace(first) || unicode.IsSpace(last) {
			t.Errorf("span %d %q has white space around it", i, s.Text)
		}
		if gap := text[prev:s.Start]; strings.TrimSpace(gap) != "" {
			t.Errorf("before span %d the text %q is left out", i, gap)
		}
		prev = s.End
	}
	if rest := text[prev:]; strings.TrimSpace(rest) != "" {
		t.Errorf("after the last span the text %q is left out", rest)
	}
}

func FuzzSplit(f *testing.F) {
	for _, tt := range splitTests {
		f.Add(tt.text)
	}
	for _, s := range []string{"\n\n", ".\n\n.", "\u2028.\u00a0A", "x.\xe2\x80\xa8A", "\"(", ". \"", "A. \xff", "a.\u3000B."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		spans := Split(text)
		checkSpans(t, text, spans)
		texts := Texts(text)
		if len(texts) != len(spans) {
			t.Fatalf("Texts gave %d sentences, Split %d", len(texts), len(spans))
		}
		for i := range spans {
			if texts[i] != spans[i].Text {
				t.Errorf("Texts[%d] = %q, Split gave %q", i, texts[i], spans[i].Text)
			}
		}
	})
}

// BenchmarkSplit splits 20,000 bytes of news-like prose.
func BenchmarkSplit(b *testing.B) {
	text := strings.Repeat("The Paris Agreement was signed in 2015 by 196 countries. I think it is wonderful. "+
		"Dr. Smith said emissions fell 3.5% in the U.S. last year (Fig. 2). Prices might rise.\n\n", 120)[:20000]
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Split(text)
	}
}
