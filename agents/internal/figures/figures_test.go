package figures

import (
	"testing"

	"github.com/verity-fc/verity/quantity"
)

func TestFirm(t *testing.T) {
	tests := []struct {
		name          string
		claim, source string
		want          bool
	}{
		{"one figure of the kind", "Sales rose 12% in 2022.", "Sales rose 21% in 2022.", true},
		{"several figures of the kind", "The film grossed $122 million.", "It grossed $36.3 million at home and $85 million abroad.", false},
		{"a date bound", "He was born after 1960.", "He was born on February 16, 1962.", false},
		{"a plain year", "He was born in 1960.", "He was born on February 16, 1962.", true},
		{"two dates", "The deal was announced in July 2019.", "In June 2019 a deal effective August 2019 was announced.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			source := quantity.Extract(tt.source)
			var got, paired bool
			for _, f := range quantity.Check(tt.claim, tt.source) {
				if f.Outcome == quantity.Conflicts || f.Outcome == quantity.Unsettled {
					paired = true
					got = got || Firm(f, source, tt.claim)
				}
			}
			if !paired {
				t.Fatalf("quantity.Check found no conflict to judge: %+v", quantity.Check(tt.claim, tt.source))
			}
			if got != tt.want {
				t.Errorf("Firm = %v, want %v; findings %+v", got, tt.want, quantity.Check(tt.claim, tt.source))
			}
		})
	}
}
