package verify

import (
	"context"
	"strings"
	"testing"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/scoring"
)

func TestConflict(t *testing.T) {
	mismatch := func(claim, source string) evidence.NumCheck {
		return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: claim, Source: source}}}
	}
	for _, tc := range []struct {
		name, claim, passage string
		num                  evidence.NumCheck
		// want is the conflict's kind and the passage's figure or name;
		// empty for none.
		kind, source string
	}{
		{"same event, another year", "The Golden Gate Bridge opened in 1947.",
			"Fog is common. The Golden Gate Bridge opened to pedestrians on 27 May 1937.", mismatch("1947", "27 May 1937"), evidence.ConflictFigure, "27 May 1937"},
		{"the subject from the sentence before", "The main span of the Golden Gate Bridge is 2,500 metres long.",
			"The Golden Gate Bridge opened in 1937. Its main span of 1,280 metres was the longest in the world.", mismatch("2,500 metres", "1,280 metres"), evidence.ConflictFigure, "1,280 metres"},
		{"figure in a sentence about another event", "The Golden Gate Bridge opened in 1937.",
			"Work on a steel net beneath the Golden Gate Bridge was completed at the start of 2024.", mismatch("1937", "2024"), "", ""},
		{"figure in a sentence that names the subject only in passing", "Construction of the Golden Gate Bridge began in 1933.",
			"The Golden Gate Bridge opened in 1937.", mismatch("1933", "1937"), "", ""},
		{"another agent of the same event", "Vint Cerf proposed the World Wide Web in 1989.",
			"Tim Berners-Lee, a British scientist, proposed the World Wide Web in March 1989.", evidence.NumCheck{Applicable: true, OK: true}, evidence.ConflictName, "Tim Berners Lee"},
		{"another country", "The United States launched Sputnik 1 in 1957.",
			"The Soviet Union launched Sputnik 1 on 4 October 1957, the first artificial satellite.", evidence.NumCheck{}, evidence.ConflictName, "Soviet Union"},
		{"the same agent", "Tim Berners-Lee proposed the World Wide Web in 1989.",
			"Tim Berners-Lee proposed the World Wide Web in March 1989.", evidence.NumCheck{}, "", ""},
		{"a name in another role", "Tim Berners-Lee proposed the World Wide Web in March 1989.",
			"In March 1989 Tim Berners-Lee handed his manager at CERN a proposal for a linked information system.", evidence.NumCheck{}, "", ""},
		{"one name is the subject: another subject, no swap", "The Brooklyn Bridge opened in 1937.",
			"The Golden Gate Bridge opened in 1937.", evidence.NumCheck{}, "", ""},
		{"a name half there", "The Sydney Harbour Bridge opened in 1932.",
			"The Golden Gate Bridge opened in 1937 over the harbour.", evidence.NumCheck{}, "", ""},
		{"the event only inside a compound", "The ARPANET switched to TCP/IP in 1983.",
			"The ARPANET was a packet-switching network funded by the Advanced Research Projects Agency.", evidence.NumCheck{}, "", ""},
		{"the event word missing", "The United States launched Sputnik 1 in 1957.",
			"The Soviet Union built Sputnik 1 in 1957.", evidence.NumCheck{}, "", ""},
		{"the opposite direction", "The price of solar modules rose between 2010 and 2020.",
			"The price of solar modules fell by around 90 percent between 2010 and 2020.", evidence.NumCheck{}, evidence.ConflictOpposite, "fell"},
		{"a rare WordNet antonym of another use", "The Golden Gate Bridge opened in 1937.",
			"The Golden Gate Bridge is about 2.7 kilometres long, and walking across takes 30 minutes.", evidence.NumCheck{}, "", ""},
		{"the opposite, but two words missing", "The price of solar modules rose sharply between 2010 and 2020.",
			"The cost of solar modules fell between 2010 and 2020.", evidence.NumCheck{}, "", ""},
		{"the same direction", "The price of solar modules fell between 2010 and 2020.",
			"The price of solar modules fell by around 90 percent between 2010 and 2020.", evidence.NumCheck{}, "", ""},
		{"a negated word of the claim", "The Great Pacific Garbage Patch is a solid island of plastic that people can walk on.",
			"The Great Pacific Garbage Patch is not an island and has no surface that anyone could stand or walk on.", evidence.NumCheck{}, evidence.ConflictNegation, "not an island"},
		{"a negated event", "Vitamin D supplements reduce the risk of heart attacks and strokes.",
			"Large trials found that vitamin D supplements do not reduce the risk of heart attacks or strokes.", evidence.NumCheck{}, evidence.ConflictNegation, "not reduce"},
		{"a contracted negation", "Vitamin D supplements reduce the risk of heart attacks and strokes.",
			"Vitamin D supplements don't reduce the risk of heart attacks or strokes.", evidence.NumCheck{}, evidence.ConflictNegation, "don't reduce"},
		{"a negation of a word the claim lacks", "Solar power supplies about 1 percent of the world's electricity.",
			"Solar power supplies about 1 percent of the world's electricity, and I do not expect solar to matter.", evidence.NumCheck{}, "", ""},
		{"not only adds", "Vitamin D supplements reduce the risk of heart attacks and strokes.",
			"Vitamin D supplements not only reduce the risk of heart attacks but also of strokes.", evidence.NumCheck{}, "", ""},
		{"a negation in a sentence not about the claim", "Vitamin D supplements reduce the risk of heart attacks and strokes.",
			"Vitamin D supplements did not reduce fractures in older adults.", evidence.NumCheck{}, "", ""},
		{"a negated claim against the plain statement", "Sputnik 1 was not the first artificial satellite.",
			"The Soviet Union launched Sputnik 1 in 1957, the first artificial satellite.", evidence.NumCheck{}, evidence.ConflictNegation, "no negation"},
		{"a negated claim against a negated statement", "Sputnik 1 was not the first artificial satellite.",
			"Sputnik 1 was never the first artificial satellite, some say.", evidence.NumCheck{}, "", ""},
		{"a negated claim against a sentence that lacks some of its words", "Sputnik 1 was not the first artificial satellite.",
			"Sputnik 1 was the first satellite.", evidence.NumCheck{}, "", ""},
		{"the same polarity", "The Great Pacific Garbage Patch is not a solid island.",
			"The Great Pacific Garbage Patch is not a solid island but a diffuse region.", evidence.NumCheck{}, "", ""},
		{"a figure mismatch never falls back to names", "The United States launched Sputnik 1 in 1967.",
			"The Soviet Union launched Sputnik 1 in 1957 from Baikonur.", mismatch("1967", "1957"), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := conflict(tc.claim, claimTerms(tc.claim), tc.passage, tc.num, DefaultMinAbout)
			switch {
			case tc.kind == "" && got != nil:
				t.Errorf("conflict %+v, want none", *got)
			case tc.kind != "" && got == nil:
				t.Errorf("no conflict, want %s %q", tc.kind, tc.source)
			case tc.kind != "" && (got.Kind != tc.kind || got.Source != tc.source):
				t.Errorf("conflict %+v, want %s %q", *got, tc.kind, tc.source)
			}
		})
	}
}

// A conflict makes the passage count as a contradiction: Refuted when
// nothing entails the claim, whatever the judge made of the paragraph.
func TestConflictRefutes(t *testing.T) {
	claim := "Vint Cerf proposed the World Wide Web in 1989."
	// The judge reads the swapped name as entailment, as NLI judges do.
	judge := mapJudge{"proposed": {Entail: 0.55, Contradict: 0.15, Neutral: 0.3}}
	p := passage("museum", "museum.example", "Tim Berners-Lee, a British scientist, proposed the World Wide Web in March 1989.")
	res := assess(t, Limits{}, scoringDefault(), judge, claim, p)
	if res.Verdict != evidence.Refuted {
		t.Fatalf("verdict %s (%s), want Refuted", res.Verdict, res.Reason.Text)
	}
	got := res.Passages[0]
	if got.Conflict == nil || got.Contradict < DefaultConflict-1e-9 {
		t.Errorf("passage %+v, want a name conflict counted with contradiction %.2f", got, DefaultConflict)
	}
	if sum := got.Entail + got.Contradict + got.Neutral; sum < 0.999 || sum > 1.001 {
		t.Errorf("judgment sums to %v", sum)
	}
	res = assess(t, Limits{Conflict: -1}, scoringDefault(), judge, claim, p)
	if res.Verdict == evidence.Refuted || res.Passages[0].Conflict != nil {
		t.Errorf("with the rule off: %s, conflict %v", res.Verdict, res.Passages[0].Conflict)
	}
}

func scoringDefault() scoring.Config { return scoring.DefaultConfig() }

func TestConflictReason(t *testing.T) {
	claim := "The Golden Gate Bridge opened in 1947."
	num := func(_, p string) evidence.NumCheck {
		return evidence.NumCheck{Applicable: true, Mismatches: []evidence.Mismatch{{Claim: "1947", Source: "1937"}}}
	}
	s := New(&fakeRetriever{}, mapJudge{}, scoring.New(scoring.DefaultConfig(), nil), num, Limits{})
	res, err := s.Assess(context.Background(), claim, []evidence.Judged{passage("a", "a.org", "The Golden Gate Bridge opened in 1937.")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != evidence.Refuted || res.Reason.Code != evidence.ReasonRefuted {
		t.Fatalf("%s (%s), want Refuted", res.Verdict, res.Reason.Code)
	}
	for _, w := range []string{`"1937"`, `"1947"`, "a.org"} {
		if !strings.Contains(res.Reason.Text, w) {
			t.Errorf("reason %q lacks %s", res.Reason.Text, w)
		}
	}
}
