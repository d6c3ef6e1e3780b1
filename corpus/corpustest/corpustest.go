// Package corpustest is the conformance suite of corpus.Store: every
// implementation (SQLite, PostgreSQL) runs [Run] against a fresh, empty
// store.
package corpustest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
)

// Run runs the suite. open returns a new, empty store for each subtest and
// arranges its cleanup with t.Cleanup.
//
// Times are compared at microsecond precision, the precision both SQLite
// (integer microseconds) and PostgreSQL (timestamptz) keep.
func Run(t *testing.T, open func(t *testing.T) corpus.Store) {
	tests := []struct {
		name string
		run  func(t *testing.T, s corpus.Store)
	}{
		{"SourceRoundTrip", testSourceRoundTrip},
		{"SourceUpsertReplaces", testSourceUpsert},
		{"SourceNotFound", testSourceNotFound},
		{"SourceHash", testSourceHash},
		{"DeleteSource", testDeleteSource},
		{"Stats", testStats},
		{"InvalidSource", testInvalidSource},
		{"ListSources", testListSources},
		{"ListSourcesPaging", testListSourcesPaging},
		{"ListSourcesBadOptions", testListSourcesBadOptions},
		{"Jobs", testJobs},
		{"InvalidJob", testInvalidJob},
		{"ListJobs", testListJobs},
		{"LiveJobs", testLiveJobs},
		{"Prune", testPrune},
		{"Usage", testUsage},
		{"Stages", testStages},
		{"InvalidStage", testInvalidStage},
		{"ConcurrentWrites", testConcurrentWrites},
		{"CanceledContext", testCanceled},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, open(t)) })
	}
}

var day = time.Date(2024, 2, 15, 10, 30, 0, 123456000, time.UTC)

func source(id string, mod func(*evidence.Source)) evidence.Source {
	s := evidence.Source{
		ID:          id,
		URL:         "https://example.org/" + id,
		Domain:      "example.org",
		Title:       "Title " + id,
		PublishedAt: day,
		Reliability: 0.8,
		ContentHash: "hash-" + id,
		IngestedAt:  day.Add(time.Hour),
		Passages:    3,
	}
	if mod != nil {
		mod(&s)
	}
	return s
}

func put(t *testing.T, s corpus.Store, srcs ...evidence.Source) {
	t.Helper()
	for _, src := range srcs {
		if err := s.PutSource(context.Background(), src); err != nil {
			t.Fatalf("PutSource(%q): %v", src.ID, err)
		}
	}
}

func wantInputError(t *testing.T, what string, err error) {
	t.Helper()
	var ie *evidence.InputError
	if !errors.As(err, &ie) {
		t.Errorf("%s: error = %v, want an *evidence.InputError", what, err)
	}
}

func testSourceRoundTrip(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	tests := []evidence.Source{
		source("full", nil),
		{ID: "minimal"},
		source("undated", func(s *evidence.Source) { s.PublishedAt = time.Time{}; s.URL, s.Domain = "", "" }),
		source("unicode", func(s *evidence.Source) { s.Title = "Ünïcode — “quotes” 日本語"; s.Reliability = 1 }),
	}
	for _, want := range tests {
		t.Run(want.ID, func(t *testing.T) {
			put(t, s, want)
			got, err := s.Source(ctx, want.ID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Source (-want +got):\n%s", diff)
			}
		})
	}
}

func testSourceUpsert(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	put(t, s, source("a", nil))
	want := source("a", func(s *evidence.Source) {
		s.Title, s.ContentHash, s.Passages, s.PublishedAt = "New title", "hash-2", 7, time.Time{}
	})
	put(t, s, want)
	got, err := s.Source(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after upsert (-want +got):\n%s", diff)
	}
	if st, err := s.Stats(ctx); err != nil || st.Sources != 1 {
		t.Errorf("Stats = %+v, %v; want 1 source after an upsert", st, err)
	}
}

func testSourceNotFound(t *testing.T, s corpus.Store) {
	_, err := s.Source(context.Background(), "nope")
	if !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("Source of a missing id: error = %v, want ErrNotFound", err)
	}
}

func testSourceHash(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	put(t, s, source("a", nil), source("nohash", func(s *evidence.Source) { s.ContentHash = "" }))
	tests := []struct {
		id     string
		hash   string
		wantOK bool
	}{
		{"a", "hash-a", true},
		{"nohash", "", true},
		{"missing", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			h, ok, err := s.SourceHash(ctx, tt.id)
			if err != nil || h != tt.hash || ok != tt.wantOK {
				t.Errorf("SourceHash = %q, %v, %v; want %q, %v, nil", h, ok, err, tt.hash, tt.wantOK)
			}
		})
	}
}

func testDeleteSource(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	put(t, s, source("a", nil), source("b", nil))
	if err := s.DeleteSource(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Source(ctx, "a"); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("deleted source still found: %v", err)
	}
	if _, err := s.Source(ctx, "b"); err != nil {
		t.Errorf("other source gone: %v", err)
	}
	if err := s.DeleteSource(ctx, "a"); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("second delete: error = %v, want ErrNotFound", err)
	}
}

func testStats(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(corpus.Stats{}, st); diff != "" {
		t.Errorf("empty Stats (-want +got):\n%s", diff)
	}
	put(t, s, source("a", nil), source("b", func(s *evidence.Source) { s.Passages = 10 }))
	st, err = s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(corpus.Stats{Sources: 2, Passages: 13}, st); diff != "" {
		t.Errorf("Stats (-want +got):\n%s", diff)
	}
}

func testInvalidSource(t *testing.T, s corpus.Store) {
	tests := []struct {
		name string
		src  evidence.Source
	}{
		{"empty id", evidence.Source{}},
		{"long id", evidence.Source{ID: string(make([]byte, corpus.MaxIDLen+1))}},
		{"reliability above 1", source("a", func(s *evidence.Source) { s.Reliability = 1.5 })},
		{"negative reliability", source("a", func(s *evidence.Source) { s.Reliability = -0.1 })},
		{"negative passages", source("a", func(s *evidence.Source) { s.Passages = -1 })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantInputError(t, "PutSource", s.PutSource(context.Background(), tt.src))
		})
	}
	if st, err := s.Stats(context.Background()); err != nil || st.Sources != 0 {
		t.Errorf("invalid sources were stored: %+v, %v", st, err)
	}
}

func ids(srcs []evidence.Source) []string {
	out := []string{}
	for _, s := range srcs {
		out = append(out, s.ID)
	}
	return out
}

func testListSources(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	put(t, s,
		source("old", func(s *evidence.Source) {
			s.IngestedAt, s.PublishedAt, s.Title = day, day.AddDate(-5, 0, 0), "Orbital debris report"
		}),
		source("mid", func(s *evidence.Source) {
			s.IngestedAt, s.Domain, s.URL, s.Title = day.Add(time.Hour), "NASA.gov", "https://nasa.gov/x", "Satellites 100% up"
		}),
		source("new", func(s *evidence.Source) {
			s.IngestedAt, s.PublishedAt, s.Title = day.Add(2*time.Hour), time.Time{}, "Undated note_file"
		}),
	)
	tests := []struct {
		name  string
		opts  corpus.ListOptions
		want  []string
		total int
	}{
		{"all newest ingested first", corpus.ListOptions{}, []string{"new", "mid", "old"}, 3},
		{"query in title ignores case", corpus.ListOptions{Query: "ORBITAL"}, []string{"old"}, 1},
		{"query in url", corpus.ListOptions{Query: "nasa.gov/x"}, []string{"mid"}, 1},
		{"query in domain", corpus.ListOptions{Query: "example"}, []string{"new", "old"}, 2},
		{"percent is literal", corpus.ListOptions{Query: "100%"}, []string{"mid"}, 1},
		{"underscore is literal", corpus.ListOptions{Query: "e_f"}, []string{"new"}, 1},
		{"no match", corpus.ListOptions{Query: "zebra"}, []string{}, 0},
		{"domain ignores case", corpus.ListOptions{Domain: "nasa.GOV"}, []string{"mid"}, 1},
		{"since drops older and undated", corpus.ListOptions{Since: day.AddDate(-1, 0, 0)}, []string{"mid"}, 1},
		{"since is inclusive", corpus.ListOptions{Since: day}, []string{"mid"}, 1},
		{"filters combine", corpus.ListOptions{Domain: "example.org", Query: "debris"}, []string{"old"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, total, err := s.ListSources(ctx, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if total != tt.total {
				t.Errorf("total = %d, want %d", total, tt.total)
			}
		})
	}
}

func testListSourcesPaging(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	var all []string
	for i := range 7 {
		id := fmt.Sprintf("s%d", i)
		// Two sources share each ingest time, so the ID breaks ties.
		put(t, s, source(id, func(s *evidence.Source) { s.IngestedAt = day.Add(time.Duration(i/2) * time.Minute) }))
	}
	all = []string{"s6", "s4", "s5", "s2", "s3", "s0", "s1"}
	tests := []struct {
		limit, offset int
		want          []string
	}{
		{3, 0, all[:3]},
		{3, 3, all[3:6]},
		{3, 6, all[6:]},
		{3, 7, []string{}},
		{0, 0, all},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("limit %d offset %d", tt.limit, tt.offset), func(t *testing.T) {
			got, total, err := s.ListSources(ctx, corpus.ListOptions{Limit: tt.limit, Offset: tt.offset})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(got)); diff != "" {
				t.Errorf("page (-want +got):\n%s", diff)
			}
			if total != 7 {
				t.Errorf("total = %d, want 7", total)
			}
		})
	}
}

func testListSourcesBadOptions(t *testing.T, s corpus.Store) {
	for _, opts := range []corpus.ListOptions{{Limit: -1}, {Limit: corpus.MaxListLimit + 1}, {Offset: -1}} {
		_, _, err := s.ListSources(context.Background(), opts)
		wantInputError(t, fmt.Sprintf("ListSources(%+v)", opts), err)
	}
}

func job(id string, created time.Time) corpus.Job {
	return corpus.Job{
		ID: id, State: corpus.JobQueued, Sources: []string{"https://a.example/1", "file.pdf"},
		Total: 2, CreatedAt: created, UpdatedAt: created,
	}
}

func testJobs(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	j := job("j1", day)
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	got, err := s.Job(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(j, got); diff != "" {
		t.Errorf("created job (-want +got):\n%s", diff)
	}
	if err := s.CreateJob(ctx, j); !errors.Is(err, corpus.ErrExists) {
		t.Errorf("second CreateJob: error = %v, want ErrExists", err)
	}

	j.State, j.Done, j.Ingested, j.Failed = corpus.JobSucceeded, 2, 1, 1
	j.Errors = []corpus.JobError{{Source: "file.pdf", Reason: "not a PDF"}}
	j.UpdatedAt, j.FinishedAt, j.Message = day.Add(time.Minute), day.Add(time.Minute), "done with errors"
	update := j
	update.CreatedAt = day.Add(time.Hour) // ignored: a job is created once
	if err := s.UpdateJob(ctx, update); err != nil {
		t.Fatal(err)
	}
	got, err = s.Job(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(j, got); diff != "" {
		t.Errorf("updated job (-want +got):\n%s", diff)
	}

	if _, err := s.Job(ctx, "nope"); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("Job of a missing id: error = %v, want ErrNotFound", err)
	}
	if err := s.UpdateJob(ctx, job("nope", day)); !errors.Is(err, corpus.ErrNotFound) {
		t.Errorf("UpdateJob of a missing id: error = %v, want ErrNotFound", err)
	}
}

func testInvalidJob(t *testing.T, s corpus.Store) {
	mod := func(f func(*corpus.Job)) corpus.Job {
		j := job("j", day)
		f(&j)
		return j
	}
	tests := []struct {
		name string
		job  corpus.Job
	}{
		{"empty id", mod(func(j *corpus.Job) { j.ID = "" })},
		{"bad state", mod(func(j *corpus.Job) { j.State = "paused" })},
		{"done above total", mod(func(j *corpus.Job) { j.Done, j.Ingested = 3, 3 })},
		{"counts disagree", mod(func(j *corpus.Job) { j.Done, j.Ingested = 2, 1 })},
		{"negative count", mod(func(j *corpus.Job) { j.Skipped, j.Failed, j.Done = -1, 1, 0 })},
		{"no created_at", mod(func(j *corpus.Job) { j.CreatedAt = time.Time{} })},
	}
	ctx := context.Background()
	if err := s.CreateJob(ctx, job("j", day)); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantInputError(t, "UpdateJob", s.UpdateJob(ctx, tt.job))
			tt.job.ID += "-new"
			if tt.name != "empty id" {
				wantInputError(t, "CreateJob", s.CreateJob(ctx, tt.job))
			}
		})
	}
}

func testListJobs(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	for i := range 5 {
		if err := s.CreateJob(ctx, job(fmt.Sprintf("j%d", i), day.Add(time.Duration(i)*time.Second))); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		limit int
		want  []string
	}{
		{0, []string{"j4", "j3", "j2", "j1", "j0"}},
		{2, []string{"j4", "j3"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.limit), func(t *testing.T) {
			got, err := s.ListJobs(ctx, tt.limit)
			if err != nil {
				t.Fatal(err)
			}
			var gotIDs []string
			for _, j := range got {
				gotIDs = append(gotIDs, j.ID)
			}
			if diff := cmp.Diff(tt.want, gotIDs); diff != "" {
				t.Errorf("ListJobs (-want +got):\n%s", diff)
			}
		})
	}
	for _, limit := range []int{-1, corpus.MaxListLimit + 1} {
		_, err := s.ListJobs(ctx, limit)
		wantInputError(t, fmt.Sprintf("ListJobs(%d)", limit), err)
	}
}

// jsonEqual compares JSON documents by value: PostgreSQL's jsonb does not
// keep the text as written.
var jsonEqual = cmp.Transformer("json", func(raw json.RawMessage) any {
	if raw == nil {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "invalid JSON: " + string(raw)
	}
	return v
})

func testStages(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	stage := func(id, typ string, order int, created time.Time) corpus.Stage {
		return corpus.Stage{
			ID: id, MessageID: "msg-1", ConversationID: "conv-1", StageType: typ, StageOrder: order,
			Model: "m", Role: "checker", Content: "text of " + id,
			ParsedData:     json.RawMessage(`{"claims": [{"id": "claim_1"}], "n": 1}`),
			ResponseTimeMS: 7200, CreatedAt: created,
		}
	}
	report := stage("r", "report", 99, day)
	verify1 := stage("v1", "verify_1", 11, day.Add(time.Second))
	verify0 := stage("v0", "verify_0", 10, day.Add(2*time.Second))
	extract := stage("e", "extract", 1, day.Add(3*time.Second))
	extract.ParsedData = nil
	// Same order as extract, created earlier: created_at breaks the tie.
	extractEarly := stage("e0", "extract", 1, day.Add(-time.Second))
	other := stage("o", "extract", 1, day)
	other.MessageID = "msg-2"
	for _, st := range []corpus.Stage{report, verify1, verify0, extract, extractEarly, other} {
		if err := s.PutStage(ctx, st); err != nil {
			t.Fatalf("PutStage(%q): %v", st.ID, err)
		}
	}
	got, err := s.Stages(ctx, "msg-1")
	if err != nil {
		t.Fatal(err)
	}
	want := []corpus.Stage{extractEarly, extract, verify0, verify1, report}
	if diff := cmp.Diff(want, got, jsonEqual); diff != "" {
		t.Errorf("Stages (-want +got):\n%s", diff)
	}

	report.Content = "rewritten"
	if err := s.PutStage(ctx, report); err != nil {
		t.Fatal(err)
	}
	got, err = s.Stages(ctx, "msg-1")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(got); n != 5 || got[n-1].Content != "rewritten" {
		t.Errorf("PutStage of an existing ID did not replace it: %d stages, last %+v", n, got[n-1])
	}

	undated := stage("u", "generate", 0, time.Time{})
	undated.MessageID = "msg-3"
	before := time.Now().Add(-time.Second)
	if err := s.PutStage(ctx, undated); err != nil {
		t.Fatal(err)
	}
	got, err = s.Stages(ctx, "msg-3")
	if err != nil || len(got) != 1 || got[0].CreatedAt.Before(before) {
		t.Errorf("stage with zero CreatedAt: got %+v, %v; want it stamped with the current time", got, err)
	}

	got, err = s.Stages(ctx, "no-such-message")
	if err != nil || len(got) != 0 {
		t.Errorf("Stages of an unknown message = %v, %v; want none, nil", got, err)
	}
}

func testInvalidStage(t *testing.T, s corpus.Store) {
	ok := corpus.Stage{ID: "s", MessageID: "m", StageType: "extract", CreatedAt: day}
	mod := func(f func(*corpus.Stage)) corpus.Stage {
		st := ok
		f(&st)
		return st
	}
	tests := []struct {
		name  string
		stage corpus.Stage
	}{
		{"empty id", mod(func(s *corpus.Stage) { s.ID = "" })},
		{"empty message id", mod(func(s *corpus.Stage) { s.MessageID = "" })},
		{"empty type", mod(func(s *corpus.Stage) { s.StageType = "" })},
		{"bad json", mod(func(s *corpus.Stage) { s.ParsedData = json.RawMessage(`{"a":`) })},
		{"negative time", mod(func(s *corpus.Stage) { s.ResponseTimeMS = -1 })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantInputError(t, "PutStage", s.PutStage(context.Background(), tt.stage))
		})
	}
}

func testConcurrentWrites(t *testing.T, s corpus.Store) {
	ctx := context.Background()
	const writers, each = 4, 10
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				src := source(fmt.Sprintf("w%d-%d", w, i), nil)
				if err := s.PutSource(ctx, src); err != nil {
					errs[w] = err
					return
				}
				if _, err := s.Source(ctx, src.ID); err != nil {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	st, err := s.Stats(ctx)
	if err != nil || st.Sources != writers*each {
		t.Errorf("Stats = %+v, %v; want %d sources", st, err, writers*each)
	}
}

func testCanceled(t *testing.T, s corpus.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := map[string]error{
		"PutSource": s.PutSource(ctx, source("a", nil)),
		"CreateJob": s.CreateJob(ctx, job("j", day)),
		"PutStage":  s.PutStage(ctx, corpus.Stage{ID: "s", MessageID: "m", StageType: "extract"}),
	}
	_, calls["Source"] = s.Source(ctx, "a")
	_, _, calls["ListSources"] = s.ListSources(ctx, corpus.ListOptions{})
	_, calls["Stats"] = s.Stats(ctx)
	_, calls["Stages"] = s.Stages(ctx, "m")
	for name, err := range calls {
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context: error = %v, want context.Canceled", name, err)
		}
	}
}
