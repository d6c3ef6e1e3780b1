package nli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/evidence"
)

func TestApplyRules(t *testing.T) {
	in := evidence.Judgment{Entail: 0.8, Contradict: 0.1, Neutral: 0.1}
	lessSure := evidence.Judgment{Entail: 0.8 * quantKeep, Contradict: 0.1, Neutral: 0.1 + 0.8*(1-quantKeep)}
	offTopic := evidence.Judgment{Entail: 0.8, Contradict: 0.1 * offTopicKeep, Neutral: 0.1 + 0.1*(1-offTopicKeep)}
	const feature, network = false, true
	tests := []struct {
		name, claim, passage string
		// seed: applySeedRules (the network's rules) instead of applyRules
		seed bool
		want evidence.Judgment
	}{
		{"no rule", "Birds can fly.", "Birds can fly.", feature, in},
		{"claim quantifies more strongly", "All birds can fly.", "Many birds can fly.", feature, lessSure},
		{"most against many", "Most birds can fly.", "Many birds can fly.", feature, lessSure},
		{"passage quantifies more strongly", "Many birds can fly.", "All birds can fly.", feature, in},
		{"some against nothing is fine", "Some birds can fly.", "Birds can fly.", feature, in},
		{"hedged passage", "Coffee causes cancer.", "Studies suggest that coffee causes cancer.", feature,
			evidence.Judgment{Entail: 0.8 * modalKeep, Contradict: 0.1 * modalKeep, Neutral: 0.1 + 0.9*(1-modalKeep)}},
		{"hedge far from the claim's words", "Coffee causes cancer.", "Coffee causes cancer, a study of 4,000 adults in six countries over ten years found; other drinks may too.", feature, in},
		{"hedge on another part of the passage", "The hospitals have enough beds for the outbreak.", "The hospitals have enough beds, officials said, although doctors warned that a larger outbreak could overwhelm emergency rooms.", feature, in},
		{"several counts with many", "Many dancers are on a stage.", "Several dancers are on stage.", feature, in},
		{"a superlative quantifies nothing", "Firefox is the most popular browser.", "Firefox is popular in some countries.", feature, in},
		{"most likely is no quantifier", "Bats are the most likely hosts of some viruses.", "Bats are hosts of some viruses.", feature, in},
		{"a rate quantifies nothing", "For every 1,000 children, many are premature.", "Many children are premature.", feature, in},
		{"every child is a quantifier", "Every child is premature.", "Many children are premature.", feature, lessSure},
		{"not all is some", "Not all masks protect equally.", "Some masks protect equally.", network, in},
		{"not entirely is some", "The immune system typically destroys foreign cells.", "The immune system is not entirely known to destroy foreign cells.", feature, lessSure},
		{"a claim hedged with possible", "It is possible that coffee causes cancer.", "Studies suggest that coffee causes cancer.", feature, in},
		{"hedged claim, definitive passage", "Coffee may cause cancer.", "Coffee causes cancer.", feature, in},
		{"both hedged", "Coffee may cause cancer.", "Coffee might cause cancer.", feature, in},
		{"a claim of what can happen", "The drug can cause weight loss.", "The drug may cause weight loss in some patients.", feature, in},
		{"another subject", "The bridge opened in 1937.", "Paris is the capital of France.", feature, offTopic},
		{"caption of another scene", "A man is playing a guitar.", "A woman is swimming in a pool.", feature, in},
		{"network: both name something", "Ian Brennan wrote for Dawson's Creek.", "Glee was created by Ryan Murphy.", network, offTopic},
		{"network: another named subject", "The Harbour Bridge opened in 1932.", "The Golden Gate Bridge opened in 1937.", network, offTopic},
		// SNLI's captions: a capital by a typo or a nationality names
		// nothing, and another scene is the network's contradiction.
		{"network: one side names something", "A woman is running on a dirt track.", "A Man in a blue shirt is walking across the street.", network, in},
		{"network: quantifiers", "All birds can fly.", "Many birds can fly.", network, lessSure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			apply := applyRules
			if tt.seed {
				apply = applySeedRules
			}
			got := apply(analyse(tt.claim), analyse(tt.passage), in)
			if diff := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
				t.Errorf("rules mismatch (-want +got):\n%s", diff)
			}
			if s := got.Entail + got.Contradict + got.Neutral; s < 1-1e-12 || s > 1+1e-12 {
				t.Errorf("probabilities sum to %g", s)
			}
		})
	}
}

func TestSubjectRules(t *testing.T) {
	type rule func(c, p *text) bool
	tests := []struct {
		name           string
		rule           rule
		claim, passage string
		want           bool
	}{
		{"names another subject", otherSubject, "The bridge opened in 1937.", "Paris is the capital of France.", true},
		{"claim names the subject", otherSubject, "Barack Obama was born in Hawaii.", "The river flows into the sea.", true},
		{"shares a word", otherSubject, "The bridge opened in 1937.", "The bridge in Paris is long.", false},
		{"shares a near spelling", otherSubject, "The Lincoln-Douglas debates were held in Illinois.", "Lincoln's debate drew crowds in Ottawa.", false},
		// SNLI's captions: no names, and a scene described otherwise.
		{"names nothing", otherSubject, "A man is playing a guitar.", "A woman is swimming in a pool.", false},
		{"pronoun may refer to the claim's subject", otherSubject, "Noel Fisher portrayed a fictional character.", "He played Cotton Top Mounts in Hatfields & McCoys.", false},
		{"numbers bear on the claim", otherSubject, "Fewer than 510 COVID-19 cases in Hawaii were healed.", "505 persons have recovered.", false},
		{"no content words", otherSubject, "It is.", "Paris is the capital of France.", false},
		{"another named bridge", otherNamedSubject, "The Harbour Bridge opened in 1932.", "The Golden Gate Bridge opened in 1937.", true},
		{"a short form of the claim's name", otherNamedSubject, "Lockheed Martin F-35 Lightning II first flew in 2008.", "The F-35 first flew on 15 December 2006.", false},
		{"the claim's name", otherNamedSubject, "The Golden Gate Bridge opened in 1932.", "The Golden Gate Bridge opened in 1937.", false},
		{"a passage opening with a preposition", otherNamedSubject, "The Good Place has less than 57 reviews on Rotten Tomatoes.", "On Rotten Tomatoes, the second season has a rating of 100%, based on 57 reviews.", false},
		{"a passage name the claim mentions further on", otherNamedSubject, "Inside Llewyn Davis's score on Rotten Tomatoes is based on under 100 reviews.", "Rotten Tomatoes gives the film a score of 94% based on 197 reviews.", false},
		{"a first name shortened", otherNamedSubject, "Sam Bradford plays for the Minnesota Vikings.", "Samuel Jacob Bradford is an American football quarterback for the Tampa Bay Buccaneers.", false},
		{"a middle initial", otherNamedSubject, "Rutherford B. Hayes was the 18th president of the United States.", "Rutherford Birchard Hayes was the 19th president of the United States.", false},
		{"a one-word name", otherNamedSubject, "Paris is in Germany.", "Berlin is the capital of Germany.", false},
		{"a name of one word after an article, against another", otherNamedSubject, "The Amazon is the longest river in South America.", "The Nile is the longest river in Africa.", true},
		{"a name of one word that opens the claim", otherNamedSubject, "Jupiter is the largest planet.", "The Saturn probe reached the planet.", false},
		{"a name of one word against a passage that opens otherwise", otherNamedSubject, "The Amazon floods every year.", "Every year the river floods the forest.", false},
		{"a pronoun may refer to the claim's named subject", otherNamedSubject, "The Harbour Bridge opened in 1932.", "The Golden Gate Bridge opened in 1937, and its towers are red.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.rule(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
				t.Errorf("%q | %q: %v, want %v", tt.claim, tt.passage, got, tt.want)
			}
		})
	}
}

func TestStrictHedge(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Studies suggest coffee may cause cancer.", true},
		{"May coffee cause cancer?", true},
		{"She was born May 13, 1964, in Washington.", false},
		{"The album came out in May 2014.", false},
		{"It closed on 13 May.", false},
		{"Theresa May became prime minister.", false},
		{"The album came out in spring.", false},
		{"The drug likely works.", true},
		{"Smokers are 15 times more likely to get lung cancer.", false}, // a comparison of chances
		{"Boys are less likely to read.", false},
		{"Boys are twice as likely to fall.", false},
	}
	for _, tt := range tests {
		a := analyse(tt.text)
		if got := claimHedged(a); got != tt.want {
			t.Errorf("claimHedged(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestQuantIdiom(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"All birds can fly.", 4},
		{"Each team played twice.", 4},
		{"The two teams played each other twice.", 0},
		{"It did not rain at all.", 0},
		{"After all, the plan worked.", 0},
		{"Many of them, after all, stayed.", 2},
	}
	for _, tt := range tests {
		if got := analyse(tt.text).quant; got != tt.want {
			t.Errorf("analyse(%q).quant = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestNegationFlip(t *testing.T) {
	checkPairs(t, "negationFlip", negationFlip, []pairCase[bool]{
		{"Revenue grew 20% in 2023.", "Revenue did not grow 20% in 2023.", true},
		{"Revenue did not grow in 2023.", "Revenue grew in 2023.", true},
		{"Revenue grew in 2023.", "Revenue grew in 2023.", false},
		{"Revenue did not grow in 2023.", "Revenue did not grow in 2023.", false},
		// Too little of the claim is covered for the negation to bear on it.
		{"The company's revenue grew strongly in Europe and Asia.", "Profits did not grow.", false},
	})
}

func TestPlainNegation(t *testing.T) {
	checkPairs(t, "plainNegation", plainNegation, []pairCase[bool]{
		{"The company makes cars.", "The company does not make cars.", true},
		{"The film was never released in cinemas.", "The film was released in cinemas.", true},
		{"The museum is open on Monday.", "No, the museum is not open on Monday.", true},
		// A verb of failure denies the verb after its "to".
		{"The drug reduced mortality.", "The drug failed to reduce mortality in the trial.", true},
		{"The company was unable to make cars.", "The company makes cars.", true},
		{"The drug failed in the trial.", "The drug reduced mortality in the trial.", false},
		// A refusal denies the verb after its "to" when the other side
		// has no word of refusal or rejection.
		{"The mayor resigned.", "The mayor refused to resign despite the scandal.", true},
		// Both sides negate: the same statement, or the network's to judge.
		{"The company does not make cars.", "The company does not make cars.", false},
		{"The screening was not effective in preventing the outbreak.", "The screening did not effectively prevent the outbreak.", false},
		// A verb of lack is no plain negation, nor a refusal beside a
		// rejection.
		{"He has refused to host any podcasts.", "He rejected many offers to host podcasts.", false},
		{"The board turned down the bid.", "The board refused to back the bid.", false},
		{"The founder lacked early support.", "Although lacking early support, the founder went on.", false},
		// The passage lacks a content word of the claim.
		{"The company makes electric cars.", "The company does not make cars.", false},
		// The passage affirms the word it denies elsewhere.
		{"The museum is open on Monday.", "The museum is open on Monday. It is not open on Sunday.", false},
		// "Not all" and "not only" weaken a statement; they deny nothing.
		{"Some masks protect equally.", "Not all masks protect equally.", false},
		{"The company makes cars.", "The company makes not only cars.", false},
		// The negation is about a word the claim does not have.
		{"The company makes cars.", "The company makes cars but not trucks.", false},
	})
}

func TestSameDenial(t *testing.T) {
	checkPairs(t, "sameDenial", sameDenial, []pairCase[bool]{
		{"The drug did not reduce mortality.", "The drug failed to reduce mortality in the trial.", true},
		{"The film was never released in cinemas.", "The film was not released in cinemas.", true},
		{"The mayor did not resign.", "The mayor refused to resign despite the scandal.", true},
		// Each denies another word.
		{"The company does not make cars.", "No cars are made by the company.", false},
		// One side only negates: plainNegation's.
		{"The drug reduced mortality.", "The drug failed to reduce mortality.", false},
		// Two negations on a side.
		{"The drug did not reduce mortality.", "The drug never failed to reduce mortality.", false},
		// The passage lacks a word of the claim.
		{"The drug did not reduce mortality in children.", "The drug failed to reduce mortality.", false},
	})
}

func TestStatesThenDenies(t *testing.T) {
	checkPairs(t, "statesThenDenies", statesThenDenies, []pairCase[bool]{
		{"The company makes cars.", "The company makes cars but not trucks.", true},
		{"The United States signed the treaty.", "The United States signed the treaty in 1997 but never ratified it.", true},
		{"The museum opened in 1990.", "The museum opened in 1990, although it was not finished until 1995.", true},
		// A negation before the claim's words may govern them.
		{"The company makes cars.", "It is not true that the company makes cars.", false},
		// The negation denies a word of the claim.
		{"The company makes cars.", "The company makes cars, but does not make them anymore.", false},
		// A negation that denies no word ("without"), or a claim that negates.
		{"The company makes cars.", "The company makes cars without engines.", false},
		{"The company does not make trucks.", "The company makes cars but not trucks.", false},
		// The passage lacks a word of the claim.
		{"The company makes electric cars.", "The company makes cars but not trucks.", false},
	})
}

func TestOtherEndOfLife(t *testing.T) {
	checkPairs(t, "otherEndOfLife", otherEndOfLife, []pairCase[bool]{
		{"The poet was born in Rome.", "The poet died in Rome in 1989.", true},
		{"The poet died in 1989.", "The poet was born in 1950.", true},
		{"The poet was born in 1950.", "The poet was born in 1950 and died in 1989.", false},
		{"The poet was born and died in Rome.", "The poet died in Rome.", false},
		{"The poet lived in Rome.", "The poet died in Rome.", false},
	})
}

// TestSlotClash checks the same-slot rule's reading of names.
func TestSlotClash(t *testing.T) {
	checkPairs(t, "slotClash", slotClash, []pairCase[bool]{
		{"Kalabhavan Mani died at Rishi Hospital.", "Kalabhavan Mani died on 6 March 2016 at Amrita Hospital.", true},
		{"Kalabhavan Mani died at Amrita Hospital.", "Kalabhavan Mani died on 6 March 2016 at Amrita Hospital.", false},
		// A name spelled within an edit or two is the same name.
		{"Mani Ratman first approached Ram Charan.", "Mani Ratnam first approached Ram Charan.", false},
		// A function word is no shared slot.
		{"Steve Selvidge played with The Hold Steady.", "Steve Selvidge played with The Big Ass Truck.", false},
		// Too little of the claim in the passage: not the same event.
		{"The museum was designed by Frank Gehry.", "Frank Lloyd Wright was born in Wisconsin.", false},
		// Another named subject is no slot of the claim's.
		{"The Harbour Bridge opened in 1932.", "The Golden Gate Bridge opened in 1937.", false},
		// A headline has no names to tell apart.
		{"Argentina's President Didn't Adopt A Jewish Child", "Argentina's President Cristina Fernández de Kirchner did not adopt a Jewish child.", false},
	})
}

// TestNarrowerPlaceMoves: a claim's narrower place moves all but placeKeep
// of the entailment to neutral, under a negation all but placeKeep of the
// contradiction, and no narrowing moves nothing; the three still sum to 1.
func TestNarrowerPlaceMoves(t *testing.T) {
	j := evidence.Judgment{Entail: 0.7, Neutral: 0.2, Contradict: 0.1}
	for _, tt := range []struct {
		n    narrowing
		want evidence.Judgment
	}{
		{notNarrower, j},
		{narrower, evidence.Judgment{Entail: 0.7 * placeKeep, Neutral: 0.2 + 0.7*(1-placeKeep), Contradict: 0.1}},
		{narrowerNegated, evidence.Judgment{Entail: 0.7, Neutral: 0.2 + 0.1*(1-placeKeep), Contradict: 0.1 * placeKeep}},
	} {
		got := narrowerPlace(j, tt.n)
		if d := cmp.Diff(tt.want, got, cmpopts.EquateApprox(0, 1e-12)); d != "" {
			t.Errorf("narrowing %d (-want +got):\n%s", tt.n, d)
		}
		if s := got.Entail + got.Neutral + got.Contradict; s < 1-1e-12 || s > 1+1e-12 {
			t.Errorf("narrowing %d: sums to %g", tt.n, s)
		}
	}
}

// TestUniqueRole: the passage gives the claim's definite role to another
// subject, or it does not: the same subject, a role that is not the
// claim's, an indefinite or shared role, a negation, another tense, a
// pronoun or a determiner for a subject, or the claim's subject named in
// the passage; another subject at another time is read as such.
func TestUniqueRole(t *testing.T) {
	for _, tt := range []struct {
		claim, passage string
		want           roleHolding
	}{
		{"Sydney is the capital of Australia.", "Canberra is the capital city of Australia.", roleTaken},
		{"John Smith is the chief executive of Acme.", "Jane Doe is the chief executive of Acme.", roleTaken},
		{"The Harbour Bridge is the longest bridge in Sydney.", "The Anzac Bridge is the longest bridge in Sydney.", roleTaken},
		{"Canberra is the capital of Australia.", "Canberra is the capital city of Australia.", roleUnread},
		{"Sydney is the largest city in Australia.", "Canberra is the capital of Australia.", roleUnread},
		{"Sydney is a city in Australia.", "Canberra is a city in Australia.", roleUnread},
		{"Tom is the son of Ann.", "Jim is the son of Ann.", roleUnread},
		{"Sydney is not the capital of Australia.", "Canberra is the capital of Australia.", roleUnread},
		{"Obama was the president of the United States.", "Biden is the president of the United States.", roleOtherTime},
		{"Biden is the president of the United States.", "Obama was the president of the United States.", roleOtherTime},
		{"Obama was the president of the United States.", "Obama is the president of the United States.", roleUnread},
		{"It is the capital of Australia.", "Canberra is the capital of Australia.", roleUnread},
		{"The team is the champion of the league.", "The club is the champion of the league.", roleUnread},
		{"Sydney is the capital of Australia.", "Canberra, not Sydney, is the capital of Australia.", roleUnread},
		{"Sydney is the capital of Australia.", "In 1913 Canberra became the capital of Australia.", roleUnread},
		// The passage names the claim's subject only to rank it lower.
		{"The Danube is the longest river in Europe.", "The Volga is the longest river in Europe. The Danube is the second longest.", roleTaken},
		{"The Danube is the longest river in Europe.", "The Volga is the longest river in Europe, and the Danube flows into the Black Sea.", roleUnread},
		// The role first: "The capital of Australia is Canberra."
		{"Sydney is the capital of Australia.", "The capital of Australia is Canberra.", roleTaken},
		{"The capital of Australia is Sydney.", "Canberra is the capital of Australia.", roleTaken},
		{"Canberra is the capital of Australia.", "The capital of Australia is Canberra.", roleUnread},
		{"The capital of Australia was Melbourne.", "Canberra is the capital of Australia.", roleOtherTime},
		{"Sydney is the capital of Australia.", "The capital of Australia is a planned city.", roleUnread},
		{"The Anzac Bridge is the longest bridge in Sydney.", "The Harbour Bridge is Sydney's oldest.", roleUnread},
	} {
		if got := uniqueRole(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("uniqueRole(%q, %q) = %d, want %d", tt.claim, tt.passage, got, tt.want)
		}
	}
}

// pairCase is a claim, a passage and what a reading of the pair should
// give (checkPairs).
type pairCase[T comparable] struct {
	claim, passage string
	want           T
}

// checkPairs checks that f, named name, gives each case's want.
func checkPairs[T comparable](t *testing.T, name string, f func(c, p *text) T, cases []pairCase[T]) {
	t.Helper()
	for _, tt := range cases {
		if got := f(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("%s(%q, %q) = %v, want %v", name, tt.claim, tt.passage, got, tt.want)
		}
	}
}
