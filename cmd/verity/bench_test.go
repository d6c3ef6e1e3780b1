package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeDevData lays out a tiny development-data directory.
func writeDevData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"fever/paper_dev.jsonl": `{"claim":"Paris is in France.","evidence":["Paris is the capital and largest city of France ."]}
{"claim":"Nothing here.","evidence":[]}
{"claim":"The Nile is long.","evidence":["The Nile is a major north-flowing river in northeastern Africa ."]}
`,
		"vitaminc/real_a.jsonl":    `{"claim":"x","evidence":["ChuChu TV is the 42nd most subscribed YouTube channel in the world ."]}` + "\n",
		"vitaminc/synthetic.jsonl": `{"claim":"x","evidence":["The film grossed $ 10 million in its opening weekend in North America ."]}` + "\n",
		"snli/dev.jsonl":           `{"claim":"x","evidence":["Two women are embracing while holding to go packages ."]}` + "\n",
		"snli/test.jsonl":          `{"claim":"x","evidence":["A man is playing a guitar on a crowded street corner ."]}` + "\n",
		"scifact/corpus.jsonl":     `{"doc_id":1,"title":"t","abstract":["Vitamin D deficiency is common in older adults.","Supplementation reduced fracture risk in the trial."]}` + "\n",
	}
	for rel, body := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestBenchCorpusIsDeterministic(t *testing.T) {
	dev := writeDevData(t)
	gen := func() []byte {
		b := &benchScale{passages: 25, partSize: 10, dir: t.TempDir(), devData: dev}
		parts, err := b.generate()
		if err != nil {
			t.Fatal(err)
		}
		if len(parts) != 3 {
			t.Fatalf("%d parts for 25 records of 10 a part; want 3", len(parts))
		}
		var all []byte
		for _, p := range parts {
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, raw...)
		}
		return all
	}
	a, b := gen(), gen()
	if string(a) != string(b) {
		t.Error("two runs generated different corpora")
	}
	if n := strings.Count(string(a), "\n"); n != 25 {
		t.Errorf("%d records; want 25", n)
	}
}

func TestBenchClaimsSpreadOverClaimsWithEvidence(t *testing.T) {
	dev := writeDevData(t)
	got, err := benchClaims(dev, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "Paris is in France." || got[1] != "The Nile is long." {
		t.Errorf("claims %q", got)
	}
	if _, err := benchClaims(dev, 3); err == nil {
		t.Error("asking for more claims than the data holds succeeded")
	}
}

func TestLatencyPercentiles(t *testing.T) {
	var l latencies
	for i := 1; i <= 100; i++ {
		l.d = append(l.d, time.Duration(i)*time.Millisecond)
	}
	if l.p(50) != 50*time.Millisecond || l.p(99) != 99*time.Millisecond || l.p(100) != 100*time.Millisecond {
		t.Errorf("p50 %v p99 %v p100 %v", l.p(50), l.p(99), l.p(100))
	}
}
