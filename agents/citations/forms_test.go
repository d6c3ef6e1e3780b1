package citations

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/verity-fc/verity/internal/golden"
)

// TestCitationForms reads one document per citation form under
// testdata/forms and compares its sentences and their citations with the
// form's golden file (NAME.golden.json).
func TestCitationForms(t *testing.T) {
	forms := []struct {
		file string
		// must are citations ("id url" or "id !problem") the form has to
		// yield, whatever the golden file says.
		must []string
	}{
		{"reference-links.md", []string{"[survey] https://pew.example/teachers-ai", "[OECD] https://oecd.example/adoption", "[report] https://report.example/costs"}},
		{"numbered-brackets.md", []string{"[1] https://ehm.example/measles.pdf", "[3] https://unicef.example/data"}},
		{"numbered-parens.md", []string{"(1) https://iea.example/renewables-2023", "(2) https://bnef.example/solar-prices"}},
		{"superscript.md", []string{"^1 https://transit.example/annual-2024", "^2 https://freight.example/q4"}},
		{"numbered.html", []string{"[1] https://nasa.example/sea-level", "^2 https://noaa.example/rate", "[3] https://gcrmn.example/2020"}},
		{"footnotes.md", []string{"[^yield] https://fao.example/crops-2023", "[^Prices] https://worldbank.example/commodities"}},
		{"inline-links.md", []string{"[statistics office] https://stats.example/cpi"}},
		{"bare-urls.txt", []string{"https://labour.example/march https://labour.example/march", "www.wages.example/annual https://www.wages.example/annual"}},
		{"doi-arxiv.md", []string{"doi:10.1056/NEJMoa2034577 https://doi.org/10.1056/NEJMoa2034577", "https://doi.org/10.1016/S0140-6736(21)00234-8 https://doi.org/10.1016/S0140-6736(21)00234-8", "arXiv:1706.03762 https://arxiv.org/abs/1706.03762", "arXiv:hep-th/9901001v2 https://arxiv.org/abs/hep-th/9901001v2"}},
		{"links-and-cite.html", []string{"[regulator's report] https://ofcom.example/report", "[Connected Nations 2023] !no_url", "[Networks of the Nation] https://book.example/networks", "https://speech.example/minister https://speech.example/minister"}},
		{"no-url.md", []string{"[1] !no_url", "[2] https://nn.example/naps"}},
	}
	for _, f := range forms {
		t.Run(f.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "forms", f.file))
			if err != nil {
				t.Fatal(err)
			}
			format := FormatMarkdown
			switch filepath.Ext(f.file) {
			case ".html":
				format = FormatHTML
			case ".txt":
				format = FormatText
			}
			got := flatten(parseDocument(string(src), format))
			seen := map[string]bool{}
			for _, g := range got {
				for _, c := range g.Cites {
					seen[c] = true
				}
			}
			for _, c := range f.must {
				if !seen[c] {
					t.Errorf("citation %q not found", c)
				}
			}
			b, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "forms/"+strings.TrimSuffix(f.file, filepath.Ext(f.file))+".golden.json", string(b)+"\n")
		})
	}
}

// TestSoftMarkersNeedAnEntry: "(2)" and superscripts cite only when the
// reference list has that entry; otherwise they are enumerations, units
// or powers.
func TestSoftMarkersNeedAnEntry(t *testing.T) {
	doc := "The plan has two parts (1) and (2). The hall covers 300 m² and the tank 10³ litres. Rainfall rose.¹\n"
	for _, s := range parseDocument(doc, FormatMarkdown) {
		if len(s.cites) > 0 {
			t.Errorf("%q cites %+v; want nothing without a reference list", s.text, s.cites)
		}
	}
}
