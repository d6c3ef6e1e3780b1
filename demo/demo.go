// Package demo ships the demo corpus ingested on first start.
//
// The corpus is a JSONL file of short, original sources on seven topics
// (spacecraft in orbit, global temperature and carbon dioxide, vitamin D,
// internet history, renewable energy, the Golden Gate Bridge and ocean
// plastics), one source per line with the fields id, url, title, text,
// published_at, domain and reliability. Every URL is on a reserved example
// domain (*.example, *.example.org, *.example.com, *.example.net); the
// sources belong to no real organisation.
//
// Each topic states its key facts in several sources on different domains,
// so that a claim can gather agreement from two or more domains. Some topics
// also hold a stale or low-reliability source that disagrees with the
// others, so that claims can come out Contested or Refuted. [ExampleClaims]
// lists claims with the verdict the corpus is written to produce.
package demo

import (
	"bufio"
	_ "embed"
	"encoding/json"
	"strings"
	"sync"
)

//go:embed corpus.jsonl
var corpus string

//go:embed claims.jsonl
var claims string

// Claims returns the demo-claims benchmark as JSONL: claims against the
// demo corpus in four groups (stated, paraphrased, changed number, date,
// name or negation, and not covered), each with the verdict a person would
// give it under the seed's policy ("expect") and under
// supported_min_domains: 1 ("expect_min_domains_1"). `verity eval --mode
// verdicts` runs it. Each call returns a fresh copy.
func Claims() []byte { return []byte(claims) }

// Corpus returns the demo corpus as JSONL, one source per line. Each call
// returns a fresh copy that the caller may modify.
func Corpus() []byte { return []byte(corpus) }

// Page is one demo source as a page at its URL.
type Page struct {
	URL, Title, Text string
}

// pages indexes the demo corpus by URL, once.
var pages = sync.OnceValue(func() map[string]Page {
	out := map[string]Page{}
	sc := bufio.NewScanner(strings.NewReader(corpus))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var p Page
		if err := json.Unmarshal(sc.Bytes(), &struct {
			URL   *string `json:"url"`
			Title *string `json:"title"`
			Text  *string `json:"text"`
		}{&p.URL, &p.Title, &p.Text}); err == nil && p.URL != "" {
			out[p.URL] = p
		}
	}
	return out
})

// PageAt returns the demo source whose URL is url. The demo URLs are on
// reserved example domains that resolve nowhere; the citation checker
// reads a cited demo URL here, so that a document citing the demo corpus
// (the web UI's sample) can be checked offline.
func PageAt(url string) (Page, bool) {
	p, ok := pages()[url]
	return p, ok
}

// Example is a claim and the verdict the demo corpus is written to produce
// for it.
type Example struct {
	Claim string
	// Expect is "Supported", "Refuted", "Contested" or "Not enough evidence".
	Expect string
	// Sources are the ids of the corpus sources the expectation rests on:
	// those that state or contradict the claim. It is empty when the corpus
	// says nothing about the claim.
	Sources []string
}

// ExampleClaims are claims spanning all four verdicts given the demo corpus.
// Each is also in the demo-claims benchmark ([Claims]) with the same
// expected verdict under the seed's policy.
var ExampleClaims = []Example{
	// Supported: two or more domains agree and none contradicts.
	{
		Claim:   "More than 9,000 active spacecraft orbited Earth at the start of 2024.",
		Expect:  "Supported",
		Sources: []string{"demo-space-01", "demo-space-02", "demo-space-03"},
	},
	{
		Claim:   "The first message on the ARPANET was sent in October 1969.",
		Expect:  "Supported",
		Sources: []string{"demo-internet-01", "demo-internet-03", "demo-internet-05"},
	},
	{
		Claim:   "Atmospheric carbon dioxide passed 420 parts per million in 2023.",
		Expect:  "Supported",
		Sources: []string{"demo-climate-03", "demo-climate-04"},
	},
	{
		Claim:   "Global installed solar capacity passed 1,000 gigawatts in 2022.",
		Expect:  "Supported",
		Sources: []string{"demo-energy-01", "demo-energy-03", "demo-energy-04"},
	},
	{
		Claim:   "The Golden Gate Bridge opened in 1937.",
		Expect:  "Supported",
		Sources: []string{"demo-bridge-01", "demo-bridge-02", "demo-bridge-03", "demo-bridge-04", "demo-bridge-05", "demo-bridge-06"},
	},

	// Refuted: sources contradict the claim and none supports it.
	{
		Claim:   "Tim Berners-Lee proposed the World Wide Web in 1995.",
		Expect:  "Refuted",
		Sources: []string{"demo-internet-02", "demo-internet-04", "demo-internet-06"},
	},
	{
		Claim:   "Atmospheric carbon dioxide fell below 350 parts per million in 2023.",
		Expect:  "Refuted",
		Sources: []string{"demo-climate-03", "demo-climate-04"},
	},
	{
		Claim:   "The Great Pacific Garbage Patch is a solid island of plastic that people can walk on.",
		Expect:  "Refuted",
		Sources: []string{"demo-ocean-05", "demo-ocean-06"},
	},

	// Refuted, superseded: a stale source states a figure that newer,
	// more reliable sources contradict; the newer credible one leads.
	{
		Claim:   "Solar power supplies about 1 percent of the world's electricity.",
		Expect:  "Refuted",
		Sources: []string{"demo-energy-05", "demo-energy-02", "demo-energy-04", "demo-energy-06"},
	},
	{
		Claim:   "About 8 million tonnes of plastic enter the ocean every year.",
		Expect:  "Refuted",
		Sources: []string{"demo-ocean-01", "demo-ocean-02", "demo-ocean-03", "demo-ocean-04"},
	},

	// Contested: a low-reliability source supports a claim that is not
	// time-dependent and more reliable sources contradict it.
	{
		Claim:   "Vitamin D supplements reduce the risk of heart attacks and strokes.",
		Expect:  "Contested",
		Sources: []string{"demo-health-05", "demo-health-02", "demo-health-03", "demo-health-04"},
	},

	// Not enough evidence: the corpus says nothing about the claim, even
	// where it covers the topic.
	{
		Claim:  "The first email was sent over the ARPANET in 1971.",
		Expect: "Not enough evidence",
	},
	{
		Claim:  "The Eiffel Tower is repainted about every seven years.",
		Expect: "Not enough evidence",
	},
}

// CurlExample is a one-line request to a local verity for a claim the demo
// corpus supports.
const CurlExample = `curl -s http://127.0.0.1:8080/v1/verify -H 'Content-Type: application/json' -d '{"claim": "The Golden Gate Bridge opened in 1937.", "k": 20, "top_n": 6}'`
