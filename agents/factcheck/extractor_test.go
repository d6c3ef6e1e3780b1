package factcheck

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var testNow = time.Date(2026, 2, 9, 12, 0, 0, 0, time.UTC)

func TestClassify(t *testing.T) {
	c := classifier{year: testNow.Year()}
	tests := []struct {
		sentence string
		want     classification
	}{
		// The six types.
		{"Global temperatures have risen by 1.1 degrees Celsius since pre-industrial times.", classification{typ: "STATISTIC"}},
		{"China produces 30% of global emissions.", classification{typ: "STATISTIC"}},
		{"Tim Berners-Lee invented the World Wide Web in 1989 at CERN.", classification{typ: "DATE"}},
		{"The treaty was signed on March 3, 2015 in Paris.", classification{typ: "DATE"}},
		{"According to NASA, the mission was a complete success.", classification{typ: "ATTRIBUTION"}},
		{"The minister said that the bridge had been closed for repairs.", classification{typ: "ATTRIBUTION"}},
		{"Smoking causes lung cancer in most long-term smokers.", classification{typ: "CAUSAL"}},
		{"The outage was due to a faulty power supply in the data centre.", classification{typ: "CAUSAL"}},
		{"Mount Everest is taller than K2 by a wide margin.", classification{typ: "COMPARISON"}},
		{"The Nile is the longest river in Africa.", classification{typ: "COMPARISON"}},
		{"The kernel scheduler in Linux uses red-black trees.", classification{typ: "TECHNICAL"}},
		{"The first message sent was 'LO' — the system crashed before 'LOGIN' could be completed.", classification{typ: "COMPARISON"}},
		// Skipped.
		{"Is the Earth really warming that fast?", classification{skip: question}},
		{"I think the Paris Agreement was a mistake in 2015.", classification{skip: opinion}},
		{"I love Paris in the spring.", classification{skip: opinion}},
		{"We prefer the 2019 edition of the Oxford atlas.", classification{skip: opinion}},
		{"This is the best book ever written about Rome.", classification{skip: opinion}},
		{"Governments should cut emissions by 2030.", classification{skip: opinion}},
		{"Prices could rise by 10% next quarter.", classification{skip: hedged}},
		{"The vaccine is probably safe for 95% of adults.", classification{skip: hedged}},
		{"It seems that the company lost 200 employees.", classification{skip: hedged}},
		{"The company will hire 500 engineers next year.", classification{skip: prediction}},
		{"Sea levels are expected to rise by one metre.", classification{skip: prediction}},
		{"Global emissions fall to zero in 2050 under the plan.", classification{skip: prediction}},
		{"A triangle is defined as a polygon with 3 sides.", classification{skip: definition}},
		{"The weather was nice and everyone was happy.", classification{skip: noSignal}},
		{"Yes, 42.", classification{skip: tooShort}},
		// "Will" as a name and "may" as a month are not future or hedges.
		{"Will Smith won an Oscar in 2022.", classification{typ: "DATE"}},
		// Titles and factual idioms are not opinions; a year in a title is
		// not a prediction; comparisons of likelihood are not hedges.
		{"Regina King received the Best Actress award at the ceremony.", classification{typ: "TECHNICAL"}},
		{"Jewell is best known for her song Harvest for the World.", classification{typ: "TECHNICAL"}},
		{"Blade Runner 2049 is a sequel to Blade Runner.", classification{typ: "DATE"}},
		{"Women with a lower birth weight are more likely to develop breast cancer.", classification{typ: "COMPARISON"}},
		// Scientific claims: causal verbs, stated relations, identifiers.
		{"Active caspase-11 protein promotes pyroptosis.", classification{typ: "CAUSAL"}},
		{"Obesity is associated with poorer prognosis in breast cancer.", classification{typ: "TECHNICAL"}},
		{"Tamoxifen therapy targets ALDH1 expression.", classification{typ: "TECHNICAL"}},
		{"DUSP4 decreases apoptosis.", classification{typ: "CAUSAL"}},
	}
	for _, tt := range tests {
		t.Run(tt.sentence, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, c.classify(tt.sentence), cmp.AllowUnexported(classification{})); diff != "" {
				t.Errorf("classify (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSplitSentences(t *testing.T) {
	got := splitSentences("# Internet history\nThe Internet originated from ARPANET, funded by the U.S. Department of Defense in 1969. Dr. Smith said so.\n\n- CO2 levels reached 421 ppm in 2023\n- Is it true?\n1. Last item.")
	want := []string{
		"Internet history",
		"The Internet originated from ARPANET, funded by the U.S. Department of Defense in 1969.",
		"Dr. Smith said so.",
		"CO2 levels reached 421 ppm in 2023",
		"Is it true?",
		"Last item.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("splitSentences (-want +got):\n%s", diff)
	}
}

func TestBuiltinExtract(t *testing.T) {
	content := "The Paris Agreement was signed in 2015 by 196 countries. It entered into force in 2016. " +
		"I believe it is the best treaty ever. Emissions might fall soon. " +
		"The Paris Agreement was signed in 2015 by 196 countries."
	claims, st := builtinExtract(content, testNow)
	want := []ExtractedClaim{
		{ID: "claim_1", Claim: "The Paris Agreement was signed in 2015 by 196 countries", Context: "The Paris Agreement was signed in 2015 by 196 countries.", Type: "STATISTIC"},
		{ID: "claim_2", Claim: "It entered into force in 2016", Context: "The Paris Agreement was signed in 2015 by 196 countries. It entered into force in 2016.", Type: "DATE"},
		{ID: "claim_3", Claim: "The Paris Agreement was signed in 2015 by 196 countries", Context: "The Paris Agreement was signed in 2015 by 196 countries.", Type: "STATISTIC"},
	}
	if diff := cmp.Diff(want, claims); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if st != (extractStats{sentences: 5, nonFactual: 2, factual: 3}) {
		t.Errorf("stats = %+v", st)
	}
}

// BenchmarkBuiltinExtract extracts from 20,000 characters, the default
// maxContentLength.
func BenchmarkBuiltinExtract(b *testing.B) {
	content := strings.Repeat("The Paris Agreement was signed in 2015 by 196 countries. I think it is wonderful. "+
		"Dr. Smith said emissions fell 3% in the U.S. last year. Prices might rise. ", 200)[:DefaultContentLength]
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		builtinExtract(content, testNow)
	}
}

// TestBuiltinExtractScreensAndResolves: the extractor applies the screen
// verify applies (questions without a question mark, instructions,
// opinions), and resolveClaims gives a subject that leans on the sentences
// before the subject they name.
func TestBuiltinExtractScreensAndResolves(t *testing.T) {
	text := "The Golden Gate Bridge spans the Golden Gate strait. When did the Golden Gate Bridge open. " +
		"Check the history of the Golden Gate Bridge. I think trams are lovely. It opened in 1937."
	claims, st := builtinExtract(text, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	claims = resolveClaims(text, claims)
	var got []string
	for _, c := range claims {
		got = append(got, c.Claim+" | "+c.Original)
	}
	want := []string{
		"The Golden Gate Bridge spans the Golden Gate strait | ",
		"The Golden Gate Bridge opened in 1937 | It opened in 1937.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("claims (-want +got):\n%s", diff)
	}
	if st.nonFactual != 3 {
		t.Errorf("non-factual sentences %d, want 3 (question, instruction, opinion)", st.nonFactual)
	}
}
