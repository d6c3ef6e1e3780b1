package citations

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/ingest"
)

// The four test cases of seed 003.
func TestSeedCases(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{}, Config{})
	tests := []struct {
		name string
		doc  string
		// want is the claim's verdict and its citation's status.
		wantVerdict, wantStatus string
		check                   func(t *testing.T, r Report)
	}{
		{
			name:        "fabrication",
			doc:         "# Pilot\n\nOur pilot with 500 students showed 73% improvement.\n",
			wantVerdict: VerdictUnsourced,
			check: func(t *testing.T, r Report) {
				want := []CriticalIssue{{
					Severity: SeverityHigh, Claim: "Our pilot with 500 students showed 73% improvement.",
					Issue:    "No source provided, appears fabricated: results the author claims as their own",
					Location: "line 3", Recommendation: "Remove claim or provide verifiable source",
				}}
				if diff := cmp.Diff(want, r.CriticalIssues); diff != "" {
					t.Errorf("critical issues (-want +got):\n%s", diff)
				}
			},
		},
		{
			name:        "404",
			doc:         fmt.Sprintf("AI tutoring doubles learning gains [2].\n\n## References\n\n[2] Harvard study, %s/missing\n", s.URL),
			wantVerdict: VerdictSourceUnavailable, wantStatus: StatusNotFound,
			check: func(t *testing.T, r Report) {
				ci, _ := issueFor(r, "doubles")
				if ci.CitationID != "[2]" || ci.URL != s.URL+"/missing" || ci.HTTPStatus != 404 || ci.Severity != SeverityMedium {
					t.Errorf("issue = %+v", ci)
				}
				if !strings.Contains(ci.Recommendation, "Replace broken citation [2]") || !strings.Contains(ci.Recommendation, "remove") {
					t.Errorf("recommendation = %q", ci.Recommendation)
				}
			},
		},
		{
			name:        "number mismatch",
			doc:         fmt.Sprintf("The global AI tutoring market was worth $50 billion in 2023 [1].\n\n[1]: %s/market-30b\n", s.URL),
			wantVerdict: VerdictFalse, wantStatus: StatusContradicted,
			check: func(t *testing.T, r Report) {
				ci, _ := issueFor(r, "$50 billion")
				if ci.Actual != "$30 billion" || ci.Severity != SeverityHigh {
					t.Errorf("issue = %+v, want actual $30 billion, severity high", ci)
				}
				if !strings.Contains(ci.Recommendation, "[1] gives $30 billion") {
					t.Errorf("recommendation = %q", ci.Recommendation)
				}
				if len(r.CriticalIssues) != 1 || !strings.Contains(r.CriticalIssues[0].Issue, "$30 billion, not $50 billion") {
					t.Errorf("critical issues = %+v", r.CriticalIssues)
				}
				if r.Summary.FalseClaims != 1 {
					t.Errorf("false claims = %d", r.Summary.FalseClaims)
				}
			},
		},
		{
			name:        "misattribution",
			doc:         fmt.Sprintf("According to Khan Academy, 60%% of students prefer online learning [3].\n\n[3]: %s/pew\n", s.URL),
			wantVerdict: VerdictMisattributed, wantStatus: StatusMisattributed,
			check: func(t *testing.T, r Report) {
				if len(r.CriticalIssues) != 1 || !strings.Contains(r.CriticalIssues[0].Issue, "False attribution") ||
					!strings.Contains(r.CriticalIssues[0].Issue, "Khan Academy") {
					t.Errorf("critical issues = %+v", r.CriticalIssues)
				}
			},
		},
		{
			name:        "attribution the source makes",
			doc:         fmt.Sprintf("According to Khan Academy, 60%% of students prefer online learning [3].\n\n[3]: %s/khan\n", s.URL),
			wantVerdict: VerdictVerified, wantStatus: StatusVerified,
			check: func(t *testing.T, r Report) {
				if len(r.CriticalIssues) != 0 || len(r.CitationIssues) != 0 || r.Summary.AccuracyScore == nil || *r.Summary.AccuracyScore != 100 {
					t.Errorf("report = %+v", r)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := c.Check(context.Background(), Document{Text: tt.doc, Path: "analysis.md"})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Claims) != 1 {
				t.Fatalf("claims = %+v, want one", r.Claims)
			}
			got := r.Claims[0]
			if got.Verdict != tt.wantVerdict {
				t.Errorf("verdict = %q, want %q", got.Verdict, tt.wantVerdict)
			}
			if tt.wantStatus != "" && (len(got.Citations) != 1 || got.Citations[0].Status != tt.wantStatus) {
				t.Errorf("citations = %+v, want one with status %q", got.Citations, tt.wantStatus)
			}
			tt.check(t, r)
		})
	}
}

// TestStatuses covers every way a cited page can fail, and keeps apart the
// verdicts peers conflate: unreachable, mis-cited, unsourced, contradicted.
func TestStatuses(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{}, Config{})
	tests := []struct {
		name, claim, path       string
		wantStatus, wantVerdict string
		wantHTTP                int
	}{
		{"supporting page", "AI tutoring doubles learning gains for students", "/study", StatusVerified, VerdictVerified, 0},
		{"redirect to a supporting page", "The global AI tutoring market was worth $30 billion in 2023", "/moved", StatusVerified, VerdictVerified, 0},
		{"404", "AI tutoring doubles learning gains for students", "/missing", StatusNotFound, VerdictSourceUnavailable, 404},
		{"soft 404", "AI tutoring doubles learning gains for students", "/soft404", StatusNotFound, VerdictSourceUnavailable, 0},
		{"403", "AI tutoring doubles learning gains for students", "/forbidden", StatusForbidden, VerdictSourceUnavailable, 403},
		{"500", "AI tutoring doubles learning gains for students", "/broken", StatusHTTPError, VerdictSourceUnavailable, 500},
		{"slow page", "AI tutoring doubles learning gains for students", "/slow", StatusTimeout, VerdictSourceUnavailable, 0},
		{"redirect to the metadata address", "AI tutoring doubles learning gains for students", "/to-metadata", StatusBlocked, VerdictSourceUnavailable, 0},
		{"paywall", "The global AI tutoring market was worth $50 billion in 2023", "/paywall", StatusThinContent, VerdictSourceUnavailable, 0},
		{"short page stating the claim", "AI tutoring doubles learning gains for students", "/short", StatusVerified, VerdictVerified, 0},
		{"paywall teaser without the claim", "AI tutoring doubles learning gains for students", "/teaser", StatusThinContent, VerdictSourceUnavailable, 0},
		{"pdf", "AI tutoring doubles learning gains for students", "/report.pdf", StatusUnsupported, VerdictSourceUnavailable, 0},
		{"page on something else", "AI tutoring doubles learning gains for students", "/unrelated", StatusClaimNotInSource, VerdictMiscited, 0},
		{"page without the price", "Duolingo Super costs $4 per month for a learner", "/study", StatusClaimNotInSource, VerdictMiscited, 0},
		{"page with another price", "Duolingo Super costs $4 per month for an individual learner", "/pricing", StatusContradicted, VerdictFalse, 0},
		{"page that denies it", "AI tutoring doubles learning gains compared with classroom instruction", "/denial", StatusContradicted, VerdictFalse, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := checkOne(t, c, tt.claim, s.URL+tt.path)
			cl := r.Claims[0]
			if cl.Citations[0].Status != tt.wantStatus || cl.Verdict != tt.wantVerdict {
				t.Errorf("status %q verdict %q, want %q %q (issues %+v)", cl.Citations[0].Status, cl.Verdict, tt.wantStatus, tt.wantVerdict, r.CitationIssues)
			}
			wantSource := statusOfFetch(tt.wantStatus)
			if tt.path == "/teaser" {
				// The page was read; the claim may stand behind its wall.
				wantSource = StatusOK
				if !strings.Contains(r.CitationIssues[0].Actual, `paywall marker ("subscribe to continue")`) {
					t.Errorf("actual = %q, want the marker named", r.CitationIssues[0].Actual)
				}
			}
			if len(r.Sources) != 1 || r.Sources[0].Status != wantSource || r.Sources[0].HTTPStatus != tt.wantHTTP {
				t.Errorf("sources = %+v", r.Sources)
			}
		})
	}
}

// statusOfFetch is the source status behind a citation status.
func statusOfFetch(citation string) string {
	switch citation {
	case StatusVerified, StatusClaimNotInSource, StatusContradicted, StatusMisattributed:
		return StatusOK
	}
	return citation
}

func TestUnsourcedClaims(t *testing.T) {
	c := newChecker(t, Deps{}, Config{})
	doc := strings.Join([]string{
		"# Market", // 1
		"",         // 2
		"87% of students use digital learning tools daily.",     // 3
		"The AI tutoring market grows 30% a year.",              // 4
		"Duolingo's app has 500 million registered users.",      // 5
		"Studies show that tutoring helps weaker students.",     // 6
		"Our results showed a 73% gain in test scores.",         // 7
		"Retention improved by 12.5% after the redesign.",       // 8
		"We believe tutoring should be free for every student.", // 9
		"Is tutoring worth it?",                                 // 10
	}, "\n")
	r, err := c.Check(context.Background(), Document{Text: doc})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Line, Severity, Kind string }
	var got []row
	for _, u := range r.UnsourcedClaims {
		got = append(got, row{u.Location, u.Severity, u.Kind})
	}
	want := []row{
		{"line 3", SeverityMedium, KindStatistic},
		{"line 4", SeverityMedium, KindMarket},
		{"line 5", SeverityMedium, KindCompany},
		{"line 6", SeverityLow, KindAttribution},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unsourced claims (-want +got):\n%s", diff)
	}
	var crit []string
	for _, ci := range r.CriticalIssues {
		crit = append(crit, ci.Location+" "+ci.Severity)
	}
	if diff := cmp.Diff([]string{"line 7 high", "line 8 high"}, crit); diff != "" {
		t.Errorf("critical issues (-want +got):\n%s", diff)
	}
	wantSummary := Summary{TotalClaims: 6, UnverifiedClaims: 6, AccuracyScore: ptr(0.0)}
	if diff := cmp.Diff(wantSummary, r.Summary); diff != "" {
		t.Errorf("summary (-want +got):\n%s", diff)
	}
	if len(r.Recommendations) == 0 || !strings.HasPrefix(r.Recommendations[0], "Priority 1: Remove or source the claim") {
		t.Errorf("recommendations = %q", r.Recommendations)
	}
}

// TestFetchOncePerRun: a URL cited by several claims, in several forms, is
// fetched once; a second run fetches it again.
func TestFetchOncePerRun(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{}, Config{})
	doc := fmt.Sprintf(`The global AI tutoring market was worth $30 billion in 2023 [1].
The AI tutoring market was valued at $30 billion in 2023, per the [survey](%[1]s/market-30b#top).
Analysts put the AI tutoring market at $30 billion in 2023 (%[1]s/market-30b).

[1]: %[1]s/market-30b
`, s.URL)
	for run := 1; run <= 2; run++ {
		r, err := c.Check(context.Background(), Document{Text: doc})
		if err != nil {
			t.Fatal(err)
		}
		if n := s.hitsOf("/market-30b"); n != run {
			t.Errorf("run %d: /market-30b fetched %d times in all, want %d", run, n, run)
		}
		if r.Summary.CitationsChecked != 3 || r.VerificationDetails.WebfetchAttempts != 1 || len(r.Sources) != 1 {
			t.Errorf("run %d: summary %+v details %+v sources %d", run, r.Summary, r.VerificationDetails, len(r.Sources))
		}
		src := r.Sources[0]
		if len(src.ContentSHA256) != 64 || src.FetchedAt.IsZero() || src.FinalURL != s.URL+"/market-30b" {
			t.Errorf("source record = %+v", src)
		}
	}
}

// TestPerHostLimit: fetches to one host never exceed PerHost at a time,
// and do reach it.
func TestPerHostLimit(t *testing.T) {
	const perHost = 2
	var (
		inflight, peak int
		full           = make(chan struct{})
		closed         bool
	)
	lock := make(chan struct{}, 1)
	fetcher := fetcherFunc(func(ctx context.Context, url string) (*ingest.Page, error) {
		lock <- struct{}{}
		inflight++
		peak = max(peak, inflight)
		if inflight == perHost && !closed {
			closed = true
			close(full)
		}
		<-lock
		defer func() { lock <- struct{}{}; inflight--; <-lock }()
		select {
		case <-full:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return nil, &ingest.StatusError{URL: url, Code: 404}
	})
	c := newChecker(t, Deps{Fetcher: fetcher}, Config{PerHost: perHost, Parallel: 8})
	var b strings.Builder
	for i := range 6 {
		fmt.Fprintf(&b, "The AI tutoring market grew %d%% in 2023 (https://one.example/p%d).\n\n", 10+i, i)
	}
	r, err := c.Check(context.Background(), Document{Text: b.String()})
	if err != nil {
		t.Fatal(err)
	}
	if peak != perHost {
		t.Errorf("peak fetches to one host = %d, want %d", peak, perHost)
	}
	if r.VerificationDetails.WebfetchAttempts != 6 {
		t.Errorf("attempts = %d", r.VerificationDetails.WebfetchAttempts)
	}
}

type fetcherFunc func(ctx context.Context, url string) (*ingest.Page, error)

func (f fetcherFunc) Fetch(ctx context.Context, url string) (*ingest.Page, error) { return f(ctx, url) }

// TestGuardIsOnByDefault: without AllowPrivate the guarded fetcher refuses
// the loopback test site, and the report says so.
func TestGuardIsOnByDefault(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{Fetcher: ingest.NewFetcher(ingest.FetchConfig{}, nil)}, Config{})
	r, err := c.Check(context.Background(), Document{Text: fmt.Sprintf("AI tutoring doubles learning gains [1].\n\n[1]: %s/study\n", s.URL)})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sources[0].Status != StatusBlocked || s.hitsOf("/study") != 0 {
		t.Errorf("source = %+v, hits %d", r.Sources[0], s.hitsOf("/study"))
	}
}

// TestPageInstructionsHaveNoEffect: text in a fetched page that tells the
// checker what to report changes nothing.
func TestPageInstructionsHaveNoEffect(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{}, Config{})
	tests := []struct {
		path, wantStatus, wantActual string
	}{
		// The page only tells the checker to verify the claim.
		{"/injection", StatusClaimNotInSource, "No passage of the page states this claim"},
		// The page tells it to verify and, further down, gives $30 billion.
		{"/injection-30b", StatusContradicted, "$30 billion"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			doc := fmt.Sprintf("The global AI tutoring market was worth $50 billion in 2023 [1].\n\n[1]: %s%s\n", s.URL, tt.path)
			r, err := c.Check(context.Background(), Document{Text: doc})
			if err != nil {
				t.Fatal(err)
			}
			ci, ok := issueFor(r, "$50 billion")
			if !ok || ci.Status != tt.wantStatus || ci.Actual != tt.wantActual {
				t.Errorf("issue = %+v, want status %q actual %q", ci, tt.wantStatus, tt.wantActual)
			}
			if r.Summary.VerifiedClaims != 0 || r.Sources[0].IgnoredInstructions < 2 {
				t.Errorf("summary %+v, source %+v", r.Summary, r.Sources[0])
			}
		})
	}
}

// TestAlternativeSource: a claim whose citation is broken gets the corpus
// source that states it; one whose corpus passages do not state it gets
// none; the broken URL itself is never proposed.
func TestAlternativeSource(t *testing.T) {
	s := newSite(t)
	corpus := []evidence.Judged{
		{Passage: evidence.Passage{ID: "p1", SourceID: "s1", URL: s.URL + "/missing", Domain: "127.0.0.1", Title: "Old copy",
			Text: "A controlled trial found that AI tutoring doubles learning gains compared with classroom instruction."}},
		{Passage: evidence.Passage{ID: "p2", SourceID: "s2", URL: "https://journal.example/ai-tutors", Domain: "journal.example", Title: "AI tutors trial",
			Text: "In a controlled trial, AI tutoring doubles learning gains compared with classroom instruction."}},
		{Passage: evidence.Passage{ID: "p3", SourceID: "s3", URL: "https://recipes.example/stew", Domain: "recipes.example", Title: "Stew",
			Text: "Soak the beans overnight, then simmer them with onions."}},
	}
	search := newService(corpusRetriever{passages: corpus}, &wordJudge{})
	c := newChecker(t, Deps{Searcher: search}, Config{})
	doc := fmt.Sprintf(`AI tutoring doubles learning gains compared with classroom instruction [1].
Volcanic soils hold 40%% more water than sandy soils [2].

[1]: %[1]s/missing
[2]: %[1]s/forbidden
`, s.URL)
	r, err := c.Check(context.Background(), Document{Text: doc})
	if err != nil {
		t.Fatal(err)
	}
	ci, _ := issueFor(r, "doubles")
	if ci.Alternative == nil || ci.Alternative.URL != "https://journal.example/ai-tutors" {
		t.Fatalf("alternative = %+v", ci.Alternative)
	}
	if !strings.Contains(ci.Recommendation, "https://journal.example/ai-tutors") {
		t.Errorf("recommendation = %q", ci.Recommendation)
	}
	if other, _ := issueFor(r, "Volcanic"); other.Alternative != nil {
		t.Errorf("volcanic claim got alternative %+v", other.Alternative)
	}
	if r.VerificationDetails.WebsearchFallbacks != 2 {
		t.Errorf("websearch fallbacks = %d, want 2", r.VerificationDetails.WebsearchFallbacks)
	}
}

func TestReferenceProblems(t *testing.T) {
	c := newChecker(t, Deps{Fetcher: fetcherFunc(func(context.Context, string) (*ingest.Page, error) {
		t.Error("nothing should be fetched")
		return nil, errors.New("unexpected")
	})}, Config{})
	doc := "The AI tutoring market grew 20% in 2023 [7].\n\nTutoring doubled learning gains in 2019 [2].\n\n## References\n\n2. Smith, J. (2019). Tutoring at scale. Journal of Education.\n"
	r, err := c.Check(context.Background(), Document{Text: doc})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ci := range r.CitationIssues {
		got = append(got, ci.CitationID+" "+ci.Status+" "+ci.Severity)
	}
	want := []string{"[7] reference_missing medium", "[2] no_url low"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("issues (-want +got):\n%s", diff)
	}
}

func TestCheckRejectsBadInput(t *testing.T) {
	c := newChecker(t, Deps{}, Config{MaxDocumentBytes: 100, MaxURLs: 2})
	tests := []struct {
		name      string
		doc       Document
		wantField string
	}{
		{"empty", Document{Text: "  \n "}, "document"},
		{"too large", Document{Text: strings.Repeat("a", 101)}, "document"},
		{"bad format", Document{Text: "Some text here.", Format: "pdf"}, "format"},
		{"too many URLs", Document{Text: "A is 1 (https://a.example). B is 2 (https://b.example). C is 3 (https://c.example)."}, "document"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.Check(context.Background(), tt.doc)
			var ie *evidence.InputError
			if !errors.As(err, &ie) || ie.Field != tt.wantField {
				t.Errorf("err = %v, want an input error on %q", err, tt.wantField)
			}
		})
	}
}

func TestCheckStopsWithContext(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{Fetcher: ingest.NewFetcher(ingest.FetchConfig{AllowPrivate: true}, nil)}, Config{})
	ctx, cancel := context.WithCancel(context.Background())
	fetcher := fetcherFunc(func(ctx context.Context, url string) (*ingest.Page, error) {
		cancel()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	c.fetcher = fetcher
	_, err := c.Check(ctx, Document{Text: fmt.Sprintf("AI tutoring doubles learning gains [1].\n\n[1]: %s/study\n", s.URL)})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestNewValidates(t *testing.T) {
	svc := newService(corpusRetriever{}, &wordJudge{})
	if _, err := New(Deps{Assessor: svc}, Config{}); err == nil {
		t.Error("New without a Fetcher succeeded")
	}
	if _, err := New(Deps{Fetcher: testFetcher(), Assessor: svc}, Config{VerifyEntail: 1.5}); err == nil {
		t.Error("New with VerifyEntail 1.5 succeeded")
	}
}

// TestReportJSON checks the wire form against the seed's field names.
func TestReportJSON(t *testing.T) {
	c := newChecker(t, Deps{}, Config{})
	r, err := c.Check(context.Background(), Document{Text: "Our pilot with 500 students showed 73% improvement.", Path: "analyses/x.md"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"timestamp", "analysis_path", "summary", "critical_issues", "citation_issues", "unsourced_claims", "verification_details", "recommendations", "sources"} {
		if _, ok := m[k]; !ok {
			t.Errorf("report JSON has no %q", k)
		}
	}
	if m["timestamp"] != "2025-08-26T16:45:00Z" || m["analysis_path"] != "analyses/x.md" {
		t.Errorf("timestamp %v path %v", m["timestamp"], m["analysis_path"])
	}
	for _, k := range []string{"total_claims", "verified_claims", "unverified_claims", "false_claims", "accuracy_score", "citations_checked", "citations_valid"} {
		if _, ok := m["summary"].(map[string]any)[k]; !ok {
			t.Errorf("summary has no %q", k)
		}
	}
	for _, k := range []string{"webfetch_attempts", "webfetch_successful", "websearch_fallbacks", "processing_time_seconds"} {
		if _, ok := m["verification_details"].(map[string]any)[k]; !ok {
			t.Errorf("verification_details has no %q", k)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestNoClaims: a document without claims has no accuracy score (JSON
// null) and a warning that names what was looked for.
func TestNoClaims(t *testing.T) {
	c := newChecker(t, Deps{}, Config{})
	r, err := c.Check(context.Background(), Document{Text: "# Notes\n\nWhat should we do next?\n\nI think we should wait.\n"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.TotalClaims != 0 || r.Summary.AccuracyScore != nil {
		t.Errorf("summary = %+v, want no claims and no score", r.Summary)
	}
	if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "No claims found") || !strings.Contains(r.Warnings[0], "DOIs") {
		t.Errorf("warnings = %q", r.Warnings)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"accuracy_score":null`) {
		t.Errorf("JSON summary lacks accuracy_score null: %s", b)
	}
}

// TestContradictionIsCritical: a claim its own source contradicts is a
// high-severity (critical) issue and listed among the critical issues.
func TestContradictionIsCritical(t *testing.T) {
	s := newSite(t)
	c := newChecker(t, Deps{}, Config{})
	r := checkOne(t, c, "AI tutoring doubles learning gains compared with classroom instruction", s.URL+"/denial")
	if len(r.CitationIssues) != 1 || r.CitationIssues[0].Status != StatusContradicted || r.CitationIssues[0].Severity != SeverityHigh {
		t.Fatalf("citation issues = %+v, want one high contradiction", r.CitationIssues)
	}
	if len(r.CriticalIssues) != 1 || r.CriticalIssues[0].URL != s.URL+"/denial" || !strings.Contains(r.CriticalIssues[0].Issue, "contradicts its source") {
		t.Errorf("critical issues = %+v", r.CriticalIssues)
	}
}
