package demo

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/eval"
	"github.com/verity-fc/verity/evidence"
)

// record is one corpus line. Pointers tell a missing field from a zero one.
type record struct {
	ID          *string  `json:"id"`
	URL         *string  `json:"url"`
	Title       *string  `json:"title"`
	Text        *string  `json:"text"`
	PublishedAt *string  `json:"published_at"`
	Domain      *string  `json:"domain"`
	Reliability *float64 `json:"reliability"`
}

// source is a validated corpus line.
type source struct {
	id, topic, domain string
}

var idPattern = regexp.MustCompile(`^demo-([a-z]+)-[0-9]{2}$`)

// exampleHost reports whether host is under a reserved example domain.
func exampleHost(host string) bool {
	for _, suffix := range []string{".example", ".example.org", ".example.com", ".example.net"} {
		if strings.HasSuffix(host, suffix) {
			return true
		}
	}
	return false
}

// loadCorpus parses and checks every line of the corpus.
func loadCorpus(t *testing.T) []source {
	t.Helper()
	data := Corpus()
	if len(data) == 0 || data[len(data)-1] != '\n' {
		t.Fatal("corpus is empty or does not end with a newline")
	}
	earliest := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	latest := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seen := map[string]bool{}
	var out []source
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		n := i + 1
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		var r record
		if err := dec.Decode(&r); err != nil {
			t.Errorf("line %d: %v", n, err)
			continue
		}
		if dec.More() {
			t.Errorf("line %d: more than one JSON value", n)
		}
		fields := map[string]*string{"id": r.ID, "url": r.URL, "title": r.Title, "text": r.Text, "published_at": r.PublishedAt, "domain": r.Domain}
		missing := false
		for name, v := range fields {
			if v == nil || strings.TrimSpace(*v) == "" {
				t.Errorf("line %d: %s is missing or empty", n, name)
				missing = true
			}
		}
		if r.Reliability == nil {
			t.Errorf("line %d: reliability is missing", n)
			missing = true
		}
		if missing {
			continue
		}

		id := *r.ID
		m := idPattern.FindStringSubmatch(id)
		if m == nil {
			t.Errorf("line %d: id %q does not match %s", n, id, idPattern)
			continue
		}
		if seen[id] {
			t.Errorf("line %d: duplicate id %q", n, id)
		}
		seen[id] = true

		u, err := url.Parse(*r.URL)
		switch {
		case err != nil:
			t.Errorf("%s: url: %v", id, err)
		case u.Scheme != "https" || u.Host == "":
			t.Errorf("%s: url %q is not an absolute https URL", id, *r.URL)
		case !exampleHost(u.Hostname()):
			t.Errorf("%s: host %q is not under .example, .example.org, .example.com or .example.net", id, u.Hostname())
		}
		if got := evidence.DomainOf(*r.URL); *r.Domain != got {
			t.Errorf("%s: domain %q, but the URL's host is %q", id, *r.Domain, got)
		}

		at, err := time.Parse(time.RFC3339, *r.PublishedAt)
		if err != nil {
			t.Errorf("%s: published_at: %v", id, err)
		} else if at.Before(earliest) || !at.Before(latest) {
			t.Errorf("%s: published_at %s is outside 2015-2025", id, at.Format(time.DateOnly))
		}

		if rel := *r.Reliability; rel < 0 || rel > 1 {
			t.Errorf("%s: reliability %v is outside [0,1]", id, rel)
		}

		if words := len(strings.Fields(*r.Text)); words < 40 || words > 200 {
			t.Errorf("%s: text has %d words, want 40-200", id, words)
		}

		out = append(out, source{id: id, topic: m[1], domain: *r.Domain})
	}
	return out
}

func TestCorpus(t *testing.T) {
	sources := loadCorpus(t)
	if len(sources) < 36 {
		t.Errorf("corpus has %d sources, want at least 36", len(sources))
	}
	domains := map[string]map[string]bool{}
	for _, s := range sources {
		if domains[s.topic] == nil {
			domains[s.topic] = map[string]bool{}
		}
		domains[s.topic][s.domain] = true
	}
	if len(domains) < 6 {
		t.Errorf("corpus covers %d topics, want at least 6", len(domains))
	}
	for topic, ds := range domains {
		if len(ds) < 4 {
			t.Errorf("topic %q has %d distinct domains, want at least 4", topic, len(ds))
		}
	}
}

func TestCorpusReturnsACopy(t *testing.T) {
	a := Corpus()
	a[0] = 'X'
	if b := Corpus(); bytes.Equal(a, b) {
		t.Error("modifying the result of Corpus changed the next result")
	}
}

func TestExampleClaims(t *testing.T) {
	byID := map[string]source{}
	for _, s := range loadCorpus(t) {
		byID[s.id] = s
	}
	valid := map[string]bool{
		string(evidence.Supported):         true,
		string(evidence.Refuted):           true,
		string(evidence.Contested):         true,
		string(evidence.NotEnoughEvidence): true,
	}
	outcomes := map[string]bool{}
	claims := map[string]bool{}
	for i, ex := range ExampleClaims {
		if strings.TrimSpace(ex.Claim) == "" {
			t.Errorf("ExampleClaims[%d]: empty claim", i)
		}
		if claims[ex.Claim] {
			t.Errorf("ExampleClaims[%d]: duplicate claim %q", i, ex.Claim)
		}
		claims[ex.Claim] = true
		if !valid[ex.Expect] {
			t.Errorf("ExampleClaims[%d]: Expect %q is not a verdict", i, ex.Expect)
			continue
		}
		outcomes[ex.Expect] = true

		doms := map[string]bool{}
		for _, id := range ex.Sources {
			s, ok := byID[id]
			if !ok {
				t.Errorf("ExampleClaims[%d]: source %q is not in the corpus", i, id)
				continue
			}
			doms[s.domain] = true
		}
		switch ex.Expect {
		case string(evidence.NotEnoughEvidence):
			if len(ex.Sources) != 0 {
				t.Errorf("ExampleClaims[%d]: %q expects %s but names sources", i, ex.Claim, ex.Expect)
			}
		case string(evidence.Supported), string(evidence.Contested):
			// Supported needs agreement from two domains; Contested
			// needs one source for and one against.
			if len(doms) < 2 {
				t.Errorf("ExampleClaims[%d]: %q expects %s but names %d domains, want at least 2", i, ex.Claim, ex.Expect, len(doms))
			}
		default:
			if len(doms) < 1 {
				t.Errorf("ExampleClaims[%d]: %q expects %s but names no source", i, ex.Claim, ex.Expect)
			}
		}
	}
	for v := range valid {
		if !outcomes[v] {
			t.Errorf("no example claim expects %q", v)
		}
	}
}

func TestCurlExample(t *testing.T) {
	if strings.ContainsAny(CurlExample, "\r\n") {
		t.Fatal("CurlExample is not one line")
	}
	if !strings.HasPrefix(CurlExample, "curl ") || !strings.Contains(CurlExample, "http://127.0.0.1:8080/v1/verify") {
		t.Fatalf("CurlExample does not call POST http://127.0.0.1:8080/v1/verify: %s", CurlExample)
	}
	start := strings.Index(CurlExample, "-d '")
	end := strings.LastIndex(CurlExample, "'")
	if start < 0 || end <= start+len("-d '") {
		t.Fatalf("CurlExample has no -d '...' body: %s", CurlExample)
	}
	dec := json.NewDecoder(strings.NewReader(CurlExample[start+len("-d '") : end]))
	dec.DisallowUnknownFields()
	var body struct {
		Claim string `json:"claim"`
		K     int    `json:"k"`
		TopN  int    `json:"top_n"`
	}
	if err := dec.Decode(&body); err != nil {
		t.Fatalf("CurlExample body: %v", err)
	}
	for _, ex := range ExampleClaims {
		if ex.Claim == body.Claim {
			if ex.Expect != string(evidence.Supported) {
				t.Errorf("CurlExample claim expects %q, want Supported", ex.Expect)
			}
			return
		}
	}
	t.Errorf("CurlExample claim %q is not in ExampleClaims", body.Claim)
}

func TestClaimsBenchmark(t *testing.T) {
	byID := map[string]bool{}
	for _, s := range loadCorpus(t) {
		byID[s.id] = true
	}
	set, err := eval.ReadVerdictSet(bytes.NewReader(Claims()))
	if err != nil {
		t.Fatal(err)
	}
	if len(set) < 60 {
		t.Errorf("%d claims, want at least 60", len(set))
	}
	groups := map[string]int{}
	expect := map[string]string{}
	for _, ex := range set {
		groups[ex.Group]++
		expect[ex.Claim] = ex.Expect
		for _, id := range ex.Sources {
			if !byID[id] {
				t.Errorf("%s: source %q is not in the corpus", ex.ID, id)
			}
		}
		switch {
		case ex.Group == "not covered" && (len(ex.Sources) > 0 || ex.Expect != string(evidence.NotEnoughEvidence)):
			t.Errorf("%s: a claim the corpus does not cover expects %s and names %d sources", ex.ID, ex.Expect, len(ex.Sources))
		case ex.Expect != ex.ExpectMinDomains1 && (ex.Expect != string(evidence.NotEnoughEvidence) || ex.ExpectMinDomains1 != string(evidence.Supported)):
			// Lowering supported_min_domains can only turn a single-origin
			// Not enough evidence into Supported.
			t.Errorf("%s: expects %s under the seed policy but %s with one origin", ex.ID, ex.Expect, ex.ExpectMinDomains1)
		}
	}
	for _, g := range []string{"stated", "paraphrased", "changed", "not covered"} {
		if groups[g] < 10 {
			t.Errorf("group %q has %d claims, want at least 10", g, groups[g])
		}
	}
	if len(groups) != 4 {
		t.Errorf("groups %v, want the four of the benchmark", groups)
	}
	for _, ex := range ExampleClaims {
		if got, ok := expect[ex.Claim]; !ok || got != ex.Expect {
			t.Errorf("example %q expects %s; the benchmark has %q", ex.Claim, ex.Expect, got)
		}
	}
}

func TestPageAt(t *testing.T) {
	p, ok := PageAt("https://civil-engineering.example.org/landmarks/golden-gate-at-80")
	if !ok || !strings.Contains(p.Text, "1937") || p.Title == "" {
		t.Errorf("demo page: %+v, %v", p, ok)
	}
	for _, u := range []string{"https://example.org/golden-gate-history", "", "https://civil-engineering.example.org/landmarks/"} {
		if _, ok := PageAt(u); ok {
			t.Errorf("%q: a page, want none", u)
		}
	}
}
