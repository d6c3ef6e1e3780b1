package citations

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/internal/golden"
	"github.com/verity-fc/verity/nli"
)

// fixtureSite is how the golden reports name the loopback server that
// serves testdata/fixtures/site.
const fixtureSite = "http://fixtures.test"

// TestFixtures checks each document under testdata/fixtures, the kinds of
// document users bring, against pages served from testdata/fixtures/site
// by a loopback server, with the NLI model that ships with verity, and
// compares the report with NAME.report.json (go test -update rewrites
// them). Every report's summary must add up.
func TestFixtures(t *testing.T) {
	judge, err := nli.LoadAligner()
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(filepath.Join("testdata", "fixtures", "site"))))
	t.Cleanup(srv.Close)
	c := newChecker(t, Deps{
		Fetcher:  ingest.NewFetcher(ingest.FetchConfig{AllowPrivate: true, Timeout: 10 * time.Second}, nil),
		Assessor: newService(corpusRetriever{}, judge),
	}, Config{DOIResolver: srv.URL + "/doi/", ArXivResolver: srv.URL + "/arxiv/"})

	docs, err := filepath.Glob(filepath.Join("testdata", "fixtures", "*.*"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range docs {
		if !strings.HasSuffix(d, ".report.json") {
			names = append(names, filepath.Base(d))
		}
	}
	if len(names) < 8 {
		t.Fatalf("%d fixture documents, want at least 8", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata", "fixtures", name))
			if err != nil {
				t.Fatal(err)
			}
			text := strings.ReplaceAll(string(src), "{{site}}", srv.URL)
			r, err := c.Check(context.Background(), Document{Text: text, Path: name})
			if err != nil {
				t.Fatal(err)
			}
			checkArithmetic(t, r)
			for i := range r.Sources {
				// The fetcher stamps pages with the real clock.
				r.Sources[i].FetchedAt = r.Timestamp
			}
			b, err := json.MarshalIndent(r, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			out := strings.ReplaceAll(string(b), srv.URL, fixtureSite) + "\n"
			golden.Check(t, filepath.Join("fixtures", strings.TrimSuffix(name, filepath.Ext(name))+".report.json"), out)
		})
	}
}

// checkArithmetic checks that a report's counts agree with its lists.
func checkArithmetic(t *testing.T, r Report) {
	t.Helper()
	s := r.Summary
	if s.TotalClaims != len(r.Claims) {
		t.Errorf("total_claims %d, claims listed %d", s.TotalClaims, len(r.Claims))
	}
	if s.VerifiedClaims+s.UnverifiedClaims+s.FalseClaims != s.TotalClaims {
		t.Errorf("verified %d + unverified %d + false %d != total %d", s.VerifiedClaims, s.UnverifiedClaims, s.FalseClaims, s.TotalClaims)
	}
	verified, falses, checked, valid, unsourced := 0, 0, 0, 0, 0
	for _, c := range r.Claims {
		switch c.Verdict {
		case VerdictVerified:
			verified++
		case VerdictFalse, VerdictMisattributed:
			falses++
		case VerdictUnsourced:
			unsourced++
		}
		for _, ch := range c.Citations {
			checked++
			if ch.Status == StatusVerified {
				valid++
			}
		}
	}
	if verified != s.VerifiedClaims || falses != s.FalseClaims {
		t.Errorf("verdicts give %d verified and %d false; summary says %d and %d", verified, falses, s.VerifiedClaims, s.FalseClaims)
	}
	if checked != s.CitationsChecked || valid != s.CitationsValid {
		t.Errorf("claims give %d citations, %d valid; summary says %d and %d", checked, valid, s.CitationsChecked, s.CitationsValid)
	}
	if len(r.CitationIssues) != checked-valid {
		t.Errorf("%d citation issues, want checked - valid = %d", len(r.CitationIssues), checked-valid)
	}
	if len(r.UnsourcedClaims) > unsourced {
		t.Errorf("%d unsourced claims listed, %d claims unsourced", len(r.UnsourcedClaims), unsourced)
	}
	high := 0
	for _, ci := range r.CitationIssues {
		if ci.Severity == SeverityHigh {
			high++
		}
	}
	cited := 0
	for _, ci := range r.CriticalIssues {
		if ci.CitationID != "" {
			cited++
		}
	}
	if high != cited {
		t.Errorf("%d high-severity citation issues, %d critical issues for citations", high, cited)
	}
	switch {
	case s.TotalClaims == 0 && (s.AccuracyScore != nil || len(r.Warnings) == 0):
		t.Errorf("no claims: score %v, warnings %q; want null and a warning", s.AccuracyScore, r.Warnings)
	case s.TotalClaims > 0 && (s.AccuracyScore == nil || *s.AccuracyScore != math.Round(1000*float64(s.VerifiedClaims)/float64(s.TotalClaims))/10):
		t.Errorf("accuracy %v, want 100 * %d / %d", s.AccuracyScore, s.VerifiedClaims, s.TotalClaims)
	}
	attempts, ok := 0, 0
	for _, src := range r.Sources {
		if src.Status != StatusInvalidURL {
			attempts++
		}
		if src.Status == StatusOK {
			ok++
		}
	}
	if d := r.VerificationDetails; d.WebfetchAttempts != attempts || d.WebfetchSuccessful != ok {
		t.Errorf("webfetch %d of %d; sources give %d of %d", d.WebfetchSuccessful, d.WebfetchAttempts, ok, attempts)
	}
}
