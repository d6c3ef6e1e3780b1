package citations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAnalyseClaim(t *testing.T) {
	type want struct {
		Claim      bool
		Kind       string
		Fabricated bool
		Precise    bool
		Vague      bool
	}
	tests := []struct {
		text  string
		cited bool
		want  want
	}{
		{"Our pilot with 500 students showed 73% improvement.", false, want{true, KindStatistic, true, false, false}},
		{"We found a 40% drop in churn after launch.", false, want{true, KindStatistic, true, false, false}},
		{"Retention improved by 12.5% after the redesign.", false, want{true, KindStatistic, false, true, false}},
		{"The global AI tutoring market was worth $50 billion in 2023.", true, want{true, KindMarket, false, false, false}},
		{"Acme Corp raised $20 million in Series B funding.", false, want{true, KindCompany, false, false, false}},
		{"Studies show that tutoring helps weaker students.", false, want{true, KindAttribution, false, false, true}},
		{"Smoking causes lung cancer in most patients.", false, want{true, KindCausal, false, false, false}},
		{"The company was founded in 2008 in Paris.", false, want{true, KindDate, false, false, false}},
		{"The platform runs on Kubernetes clusters.", false, want{true, KindEntity, false, false, false}},
		{"The platform is simple to use.", false, want{}},
		{"The platform is simple to use.", true, want{true, KindOther, false, false, false}},
		{"The market could reach $90 billion by 2030.", false, want{}},
		{"The market could reach $90 billion by 2030.", true, want{true, KindMarket, false, false, false}},
		{"We recommend a freemium model for schools.", false, want{}},
		{"Is the market worth $50 billion?", true, want{}},
		{"See the appendix for details.", true, want{}},
		{"Sales rose 5%.", true, want{true, KindStatistic, false, false, false}},
		{"Sales rose 5%.", false, want{}},
		{"Report.", true, want{}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			info, ok := analyseClaim(tt.text, tt.cited)
			got := want{ok, info.kind, info.fabricated, info.precise, info.vague}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestAttribution(t *testing.T) {
	tests := []struct{ in, entity, content string }{
		{"According to Khan Academy, 60% of students prefer online learning.", "Khan Academy", "60% of students prefer online learning."},
		{"According to the World Bank's 2022 report, poverty fell by half.", "World Bank", "Poverty fell by half."},
		{"60% of students prefer online learning, according to Khan Academy.", "Khan Academy", "60% of students prefer online learning."},
		{"Gartner estimates that IT spending will grow 8% in 2024.", "Gartner", "IT spending will grow 8% in 2024."},
		{"McKinsey & Company found that 70% of transformations fail.", "McKinsey & Company", "70% of transformations fail."},
		{"Duolingo reported 500 million users.", "Duolingo", "Duolingo reported 500 million users."},
		{"A 2021 study by Stanford University found large gains.", "Stanford University", "A 2021 study by Stanford University found large gains."},
		{"Research shows that tutoring works.", "", "Research shows that tutoring works."},
		{"Our pilot with 500 students showed 73% improvement.", "", "Our pilot with 500 students showed 73% improvement."},
		{"It found that sales rose.", "", "It found that sales rose."},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			e, c := attribution(tt.in)
			if e != tt.entity || c != tt.content {
				t.Errorf("attribution = %q, %q; want %q, %q", e, c, tt.entity, tt.content)
			}
		})
	}
}

func TestMentions(t *testing.T) {
	tests := []struct {
		text, entity string
		want         bool
	}{
		{"Khan Academy reports that 60% of learners...", "Khan Academy", true},
		{"A Pew Research Center survey found that 60%...", "Khan Academy", false},
		{"The academy said so.", "Khan Academy", false},
		{"Analysts at McKinsey found...", "McKinsey & Company", true},
		{"The company found...", "McKinsey & Company", false},
		{"GARTNER, Inc. estimates", "Gartner", true},
		{"Gartnerian views", "Gartner", false},
	}
	for _, tt := range tests {
		if got := mentions(tt.text, tt.entity); got != tt.want {
			t.Errorf("mentions(%q, %q) = %v, want %v", tt.text, tt.entity, got, tt.want)
		}
	}
	domains := []struct {
		domain, entity string
		want           bool
	}{
		{"khanacademy.org", "Khan Academy", true},
		{"mckinsey.com", "McKinsey & Company", true},
		{"pewresearch.org", "Khan Academy", false},
		{"", "Khan Academy", false},
	}
	for _, tt := range domains {
		if got := domainNames(tt.domain, tt.entity); got != tt.want {
			t.Errorf("domainNames(%q, %q) = %v, want %v", tt.domain, tt.entity, got, tt.want)
		}
	}
}
