package ingest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
)

// journal records the writes of the fakes in order, to check that a
// source is put only after its passages.
type journal struct {
	mu      sync.Mutex
	entries []string
}

func (j *journal) add(format string, args ...any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, fmt.Sprintf(format, args...))
}

func (j *journal) forSource(id string) []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []string
	for _, e := range j.entries {
		if strings.HasSuffix(e, " "+id) {
			out = append(out, e)
		}
	}
	return out
}

// memSources is an in-memory SourceStore.
type memSources struct {
	j       *journal
	mu      sync.Mutex
	sources map[string]evidence.Source
	// failPut fails PutSource of these IDs.
	failPut map[string]bool
}

func (s *memSources) SourceHash(ctx context.Context, id string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	src, ok := s.sources[id]
	return src.ContentHash, ok, nil
}

func (s *memSources) PutSource(ctx context.Context, src evidence.Source) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failPut[src.ID] {
		return errors.New("disk full")
	}
	s.sources[src.ID] = src
	state := "done"
	if src.ContentHash == "" {
		state = "unfinished"
	}
	s.j.add("put %s %s", state, src.ID)
	return nil
}

// memIndex is an in-memory PassageIndex.
type memIndex struct {
	j        *journal
	mu       sync.Mutex
	passages map[string]evidence.Passage
	vecs     map[string][]float32
	// bySource holds the passage IDs of each source.
	bySource map[string][]string
	upserts  int
	// failUpsert fails Upsert of passages of these source IDs.
	failUpsert map[string]bool
}

func (x *memIndex) Upsert(ctx context.Context, ps []evidence.Passage, vecs [][]float32) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(ps) != len(vecs) {
		return fmt.Errorf("%d passages, %d vectors", len(ps), len(vecs))
	}
	if len(ps) > 0 && x.failUpsert[ps[0].SourceID] {
		return errors.New("index unavailable")
	}
	x.upserts++
	for i, p := range ps {
		if _, ok := x.passages[p.ID]; !ok {
			x.bySource[p.SourceID] = append(x.bySource[p.SourceID], p.ID)
		}
		x.passages[p.ID] = p
		x.vecs[p.ID] = vecs[i]
	}
	if len(ps) > 0 {
		x.j.add("upsert %d %s", len(ps), ps[0].SourceID)
	}
	return nil
}

func (x *memIndex) DeleteSource(ctx context.Context, sourceID string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, id := range x.bySource[sourceID] {
		delete(x.passages, id)
		delete(x.vecs, id)
	}
	delete(x.bySource, sourceID)
	x.j.add("delete %s", sourceID)
	return nil
}

func (x *memIndex) ofSource(id string) []evidence.Passage {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []evidence.Passage
	for _, pid := range x.bySource[id] {
		out = append(out, x.passages[pid])
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Ordinal < out[b].Ordinal })
	return out
}

// fakeEmbedder returns a 2-d vector per text (its length and word count)
// and fails texts holding "EMBED-FAIL".
type fakeEmbedder struct {
	mu    sync.Mutex
	calls int
	texts int
	// maxBatch is the largest batch seen.
	maxBatch int
}

func (e *fakeEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	e.mu.Lock()
	e.calls++
	e.texts += len(texts)
	e.maxBatch = max(e.maxBatch, len(texts))
	e.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if strings.Contains(t, "EMBED-FAIL") {
			return nil, errors.New("model refused the text")
		}
		out[i] = []float32{float32(len(t)), float32(len(strings.Fields(t)))}
	}
	return out, nil
}

type env struct {
	j       *journal
	sources *memSources
	index   *memIndex
	emb     *fakeEmbedder
	fetcher *Fetcher
}

func newEnv() *env {
	j := &journal{}
	return &env{
		j:       j,
		sources: &memSources{j: j, sources: map[string]evidence.Source{}, failPut: map[string]bool{}},
		index: &memIndex{j: j, passages: map[string]evidence.Passage{}, vecs: map[string][]float32{},
			bySource: map[string][]string{}, failUpsert: map[string]bool{}},
		emb:     &fakeEmbedder{},
		fetcher: NewFetcher(FetchConfig{AllowPrivate: true}, nil),
	}
}

var ingestTime = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

func (e *env) ingester(cfg Config) *Ingester {
	cfg.Now = func() time.Time { return ingestTime }
	return New(e.fetcher, e.sources, e.index, e.emb, cfg, nil)
}

// prose returns n distinct sentences of about ten words.
func prose(tag string, n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "The %s finding number %d was confirmed by several independent teams. ", tag, i+1)
	}
	return strings.TrimSpace(b.String())
}

func failureMap(fs []Failure) map[string]error {
	out := map[string]error{}
	for _, f := range fs {
		out[f.Source] = f.Err
	}
	return out
}

func TestRun(t *testing.T) {
	site := newTestSite(t, "", map[string]http.HandlerFunc{
		"/robots.txt": http.NotFound,
		"/meta": html200(`<html><head><title>Meta page</title>
			<meta property="article:published_time" content="2024-02-15T00:00:00Z"></head>
			<body><article><p>` + prose("meta", 30) + `</p></article></body></html>`),
		"/jsonld": html200(`<html><head><title>LD page</title>
			<script type="application/ld+json">{"@type":"Article","datePublished":"2023-06-01"}</script></head>
			<body><main><p>` + prose("ld", 4) + `</p></main></body></html>`),
		"/visible": html200(`<html><head><title>Visible page</title></head>
			<body><p class="byline">Published March 3, 2022</p><p>` + prose("visible", 4) + `</p></body></html>`),
		"/missing":          http.NotFound,
		"/redirect-private": redirectTo("http://169.254.169.254/latest/meta-data/"),
		"/empty":            html200(`<html><body><script>only script</script></body></html>`),
	})

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"docs/a.html":    `<html><head><title>File A</title></head><body><p>` + prose("file-a", 3) + `</p></body></html>`,
		"docs/b.md":      "# Markdown B\n\n" + prose("md-b", 3) + "\n",
		"docs/sub/c.txt": prose("text-c", 3) + "\n",
		"docs/empty.txt": "  \n\n",
		"docs/skip.json": "{}",
		"records.jsonl": strings.Join([]string{
			`{"id": 1, "title": "Record one", "text": "` + prose("rec-1", 3) + `", "url": "https://www.nasa.gov/r1", "published_at": "2020-01-01"}`,
			`{"id": 2, "text": "` + prose("rec-2", 3) + `", "domain": "example.org", "reliability": 0.3}`,
			`{"id": 3, "abstract": ["` + prose("rec-3", 1) + `", "Second sentence of the abstract."]}`,
			`{"id": 4}`,
			`{"id": 5, "text": "This record breaks the EMBED-FAIL embedder."}`,
		}, "\n"),
	})
	jsonl := filepath.Join(dir, "records.jsonl")
	docs := filepath.Join(dir, "docs")
	args := []string{
		site.URL + "/meta", site.URL + "/jsonld", site.URL + "/visible",
		site.URL + "/missing", site.URL + "/redirect-private", site.URL + "/empty",
		docs, jsonl, filepath.Join(dir, "nope.html"),
	}

	e := newEnv()
	var reports []Progress
	sum, err := e.ingester(Config{}).Run(context.Background(), args, func(p Progress) { reports = append(reports, p) })
	if err != nil {
		t.Fatal(err)
	}

	// Failures, in argument order, each with its cause.
	wantFailed := []string{
		site.URL + "/missing", site.URL + "/redirect-private", site.URL + "/empty",
		filepath.Join(docs, "empty.txt"), jsonl + ":4", jsonl + ":5", filepath.Join(dir, "nope.html"),
	}
	gotFailed := failureSources(sum.Failed)
	if diff := cmp.Diff(wantFailed, gotFailed, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("failed sources (-want +got):\n%s", diff)
	}
	fm := failureMap(sum.Failed)
	var se *StatusError
	if err := fm[site.URL+"/missing"]; !errors.As(err, &se) || se.Code != 404 {
		t.Errorf("/missing failed with %v, want a 404 StatusError", err)
	}
	if err := fm[site.URL+"/redirect-private"]; !errors.Is(err, ErrBlocked) {
		t.Errorf("/redirect-private failed with %v, want ErrBlocked", err)
	}
	if err := fm[site.URL+"/empty"]; !errors.Is(err, errNoText) {
		t.Errorf("/empty failed with %v, want no text", err)
	}
	for _, f := range sum.Failed {
		if f.Reason == "" {
			t.Errorf("failure of %s has no reason", f.Source)
		}
	}

	if sum.Total != 16 || sum.Sources != 9 || sum.Skipped != 0 {
		t.Errorf("summary = total %d, sources %d, skipped %d; want 16, 9, 0", sum.Total, sum.Sources, sum.Skipped)
	}
	// One report before the start (the two rejected already done), one per
	// source.
	if len(reports) != 15 || reports[0].Done != 2 || reports[0].Total != 16 {
		t.Errorf("%d progress reports, first %+v; want 15, the first with Done 2 of 16", len(reports), reports[0])
	}
	last := reports[len(reports)-1]
	if last.Done != last.Total || last.Ingested != 9 || last.Failed != 7 {
		t.Errorf("last progress = %+v", last)
	}
	var streamed []string
	for _, p := range reports {
		streamed = append(streamed, failureSources(p.NewFailures)...)
	}
	if diff := cmp.Diff(wantFailed, streamed, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("failures streamed through progress (-want +got):\n%s", diff)
	}
	if got := failureSources(reports[0].NewFailures); len(got) != 2 {
		t.Errorf("first report carries failures %v, want the two rejected", got)
	}
	for i := 1; i < len(reports); i++ {
		if reports[i].Done != reports[i-1].Done+1 {
			t.Errorf("progress %d: Done %d after %d", i, reports[i].Done, reports[i-1].Done)
		}
	}

	// Metadata of each kind of source.
	ids := map[string]string{"records:1": "records:1", "records:2": "records:2"}
	for _, src := range e.sources.sources {
		if src.Title != "" {
			ids[src.Title] = src.ID
		}
	}
	ignore := cmpopts.IgnoreFields(evidence.Source{}, "ID", "ContentHash", "Passages")
	host := evidence.DomainOf(site.URL)
	wantSources := map[string]evidence.Source{
		"Meta page":    {URL: site.URL + "/meta", Domain: host, Title: "Meta page", PublishedAt: day(2024, 2, 15), Reliability: DefaultReliability, IngestedAt: ingestTime},
		"LD page":      {URL: site.URL + "/jsonld", Domain: host, Title: "LD page", PublishedAt: day(2023, 6, 1), Reliability: DefaultReliability, IngestedAt: ingestTime},
		"Visible page": {URL: site.URL + "/visible", Domain: host, Title: "Visible page", PublishedAt: day(2022, 3, 3), Reliability: DefaultReliability, IngestedAt: ingestTime},
		"File A":       {Title: "File A", Reliability: DefaultReliability, IngestedAt: ingestTime},
		"Markdown B":   {Title: "Markdown B", Reliability: DefaultReliability, IngestedAt: ingestTime},
		"c":            {Title: "c", Reliability: DefaultReliability, IngestedAt: ingestTime},
		"records:1":    {URL: "https://www.nasa.gov/r1", Domain: "nasa.gov", Title: "Record one", PublishedAt: day(2020, 1, 1), Reliability: 0.95, IngestedAt: ingestTime},
		"records:2":    {Domain: "example.org", Reliability: 0.3, IngestedAt: ingestTime},
	}
	for key, want := range wantSources {
		id, ok := ids[key]
		if !ok {
			t.Errorf("no source titled %q", key)
			continue
		}
		got, ok := e.sources.sources[id]
		if !ok {
			t.Errorf("source %s not stored", id)
		}
		if diff := cmp.Diff(want, got, ignore); diff != "" {
			t.Errorf("source %q (-want +got):\n%s", key, diff)
		}
	}
	if _, ok := e.sources.sources["records:3"]; !ok {
		t.Errorf("the abstract-only record was not stored")
	}

	// Passages: IDs, metadata copied from the source, count on the source,
	// and the source written last.
	totalPassages := 0
	for id, src := range e.sources.sources {
		ps := e.index.ofSource(id)
		totalPassages += len(ps)
		if len(ps) == 0 || src.Passages != len(ps) || len(src.ContentHash) != 64 {
			t.Errorf("source %s: %d passages stored, source says %d, hash %q", id, len(ps), src.Passages, src.ContentHash)
		}
		for i, p := range ps {
			want := evidence.Passage{
				ID: fmt.Sprintf("%s#%d", id, i), SourceID: id, Ordinal: i, Text: p.Text,
				URL: src.URL, Domain: src.Domain, Title: src.Title, PublishedAt: src.PublishedAt, Reliability: src.Reliability,
			}
			if diff := cmp.Diff(want, p); diff != "" {
				t.Errorf("passage (-want +got):\n%s", diff)
			}
			if p.Text == "" {
				t.Errorf("passage %s is empty", p.ID)
			}
		}
		if diff := cmp.Diff([]string{"delete " + id, fmt.Sprintf("upsert %d %s", len(ps), id), "put done " + id}, e.j.forSource(id)); diff != "" {
			t.Errorf("writes of %s (-want +got):\n%s", id, diff)
		}
	}
	if sum.Chunks != totalPassages {
		t.Errorf("summary chunks = %d, index holds %d", sum.Chunks, totalPassages)
	}
	if metaID := ids["Meta page"]; len(e.index.ofSource(metaID)) < 3 {
		t.Errorf("the 300-word meta page made %d passages, want at least 3", len(e.index.ofSource(metaID)))
	}

	// Running again changes nothing.
	embedCalls, upserts := e.emb.calls, e.index.upserts
	again, err := e.ingester(Config{}).Run(context.Background(), args, nil)
	if err != nil {
		t.Fatal(err)
	}
	if again.Sources != 0 || again.Skipped != 9 || len(again.Failed) != 7 || again.Chunks != 0 {
		t.Errorf("second run = %+v, want 9 skipped, 7 failed, nothing written", again)
	}
	// Only the record the embedder refuses is embedded again.
	if e.emb.calls != embedCalls+1 || e.index.upserts != upserts {
		t.Errorf("second run: %d embed calls, %d upserts; want 1 and 0", e.emb.calls-embedCalls, e.index.upserts-upserts)
	}
}

func TestRunReplacesChangedContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "doc.txt")
	writeFiles(t, dir, map[string]string{"doc.txt": prose("long", 40)})
	e := newEnv()
	in := e.ingester(Config{})
	if _, err := in.Run(context.Background(), []string{path}, nil); err != nil {
		t.Fatal(err)
	}
	id := fileItem(path).ID
	before := e.index.ofSource(id)
	if len(before) < 3 {
		t.Fatalf("%d passages from 400 words, want at least 3", len(before))
	}

	writeFiles(t, dir, map[string]string{"doc.txt": "A short replacement text."})
	sum, err := in.Run(context.Background(), []string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 1 || sum.Chunks != 1 {
		t.Errorf("summary = %+v, want the source re-ingested into one passage", sum)
	}
	after := e.index.ofSource(id)
	if len(after) != 1 || after[0].Text != "A short replacement text." || after[0].ID != id+"#0" {
		t.Errorf("passages after change = %+v, want only the new one", after)
	}
	if got := e.sources.sources[id].Passages; got != 1 {
		t.Errorf("source says %d passages, want 1", got)
	}
	// The re-ingest marks the source unfinished before deleting.
	want := []string{
		"delete " + id, fmt.Sprintf("upsert %d %s", len(before), id), "put done " + id,
		"put unfinished " + id, "delete " + id, "upsert 1 " + id, "put done " + id,
	}
	if diff := cmp.Diff(want, e.j.forSource(id)); diff != "" {
		t.Errorf("writes (-want +got):\n%s", diff)
	}
}

func TestRunMetadataChangeReingests(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	write := func(rel string) {
		writeFiles(t, dir, map[string]string{"r.jsonl": `{"id":"x","text":"Same text.","reliability":` + rel + `}`})
	}
	e := newEnv()
	in := e.ingester(Config{})
	write("0.2")
	if _, err := in.Run(context.Background(), []string{path}, nil); err != nil {
		t.Fatal(err)
	}
	write("0.8")
	sum, err := in.Run(context.Background(), []string{path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 1 {
		t.Errorf("summary = %+v, want the source re-ingested", sum)
	}
	if ps := e.index.ofSource("r:x"); len(ps) != 1 || ps[0].Reliability != 0.8 {
		t.Errorf("passages = %+v, want reliability 0.8", ps)
	}
}

func TestRunFailuresKeepOldDataConsistent(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.txt": prose("a", 3),
		"b.txt": prose("b", 3),
		"c.txt": prose("c", 3),
	})
	path := func(n string) string { return filepath.Join(dir, n) }
	id := func(n string) string { return fileItem(path(n)).ID }
	e := newEnv()
	in := e.ingester(Config{Workers: 1})
	if _, err := in.Run(context.Background(), []string{dir}, nil); err != nil {
		t.Fatal(err)
	}

	// Change all three; the index fails b's upsert and the store fails c's
	// final put. a still goes through.
	writeFiles(t, dir, map[string]string{
		"a.txt": prose("a2", 3),
		"b.txt": prose("b2", 3),
		"c.txt": prose("c2", 3),
	})
	e.index.failUpsert[id("b.txt")] = true
	e.sources.failPut[id("c.txt")] = true
	sum, err := in.Run(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 1 || len(sum.Failed) != 2 {
		t.Fatalf("summary = %+v, want a ingested, b and c failed", sum)
	}
	if got := e.sources.sources[id("a.txt")].ContentHash; got == "" {
		t.Errorf("a has no hash after a good re-ingest")
	}
	// b failed after its old passages went: it is marked unfinished, so
	// the next run redoes it even if its content is unchanged.
	if got := e.sources.sources[id("b.txt")].ContentHash; got != "" {
		t.Errorf("b hash = %q after a failed re-ingest, want empty (unfinished)", got)
	}

	delete(e.index.failUpsert, id("b.txt"))
	sum, err = in.Run(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 1 || sum.Skipped != 1 || len(sum.Failed) != 1 {
		t.Errorf("third run = %+v, want b redone, a skipped, c still failing", sum)
	}
	if ps := e.index.ofSource(id("b.txt")); len(ps) == 0 || !strings.Contains(ps[0].Text, "b2") {
		t.Errorf("b passages = %+v, want the new text", ps)
	}
}

func TestRunLimits(t *testing.T) {
	dir := t.TempDir()
	paras := make([]string, 50)
	for i := range paras {
		paras[i] = prose(fmt.Sprintf("p%d", i), 8)
	}
	writeFiles(t, dir, map[string]string{"big.txt": strings.Join(paras, "\n\n")})
	e := newEnv()
	sum, err := e.ingester(Config{MaxPassages: 5, EmbedBatch: 2}).Run(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Chunks != 5 {
		t.Errorf("chunks = %d, want 5 (MaxPassages)", sum.Chunks)
	}
	if e.emb.maxBatch != 2 || e.emb.calls != 3 {
		t.Errorf("embed calls = %d, max batch %d; want 3 calls of at most 2", e.emb.calls, e.emb.maxBatch)
	}

	e = newEnv()
	if _, err := e.ingester(Config{MaxTextBytes: 2000}).Run(context.Background(), []string{dir}, nil); err != nil {
		t.Fatal(err)
	}
	id := fileItem(filepath.Join(dir, "big.txt")).ID
	var all strings.Builder
	for _, p := range e.index.ofSource(id) {
		all.WriteString(p.Text)
	}
	if !strings.Contains(all.String(), "p0 finding number 1") || strings.Contains(all.String(), "p49") {
		t.Errorf("MaxTextBytes: want the start kept and the end cut")
	}

	e = newEnv()
	sum, err = e.ingester(Config{MaxFileBytes: 100}).Run(context.Background(), []string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) != 1 || !errors.Is(sum.Failed[0].Err, ErrTooLarge) {
		t.Errorf("MaxFileBytes: failed = %+v, want ErrTooLarge", sum.Failed)
	}
}

func TestRunCancel(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("f%02d.txt", i)] = prose(fmt.Sprint(i), 2)
	}
	writeFiles(t, dir, files)
	e := newEnv()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := e.ingester(Config{Workers: 2}).Run(ctx, []string{dir}, func(p Progress) {
		if p.Done == 3 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(sum.Failed) != 0 {
		t.Errorf("interrupted sources reported as failed: %+v", sum.Failed)
	}
	if sum.Sources < 3 || sum.Sources >= 20 {
		t.Errorf("%d sources ingested, want the run stopped early", sum.Sources)
	}
	// Every source reported ingested has its passages and hash.
	n := 0
	for id, src := range e.sources.sources {
		if src.ContentHash != "" {
			n++
			if len(e.index.ofSource(id)) != src.Passages {
				t.Errorf("source %s reported ingested without its passages", id)
			}
		}
	}
	if n != sum.Sources {
		t.Errorf("%d sources stored, summary says %d", n, sum.Sources)
	}
}

func TestRunWithoutFetcher(t *testing.T) {
	e := newEnv()
	in := New(nil, e.sources, e.index, e.emb, Config{}, nil)
	sum, err := in.Run(context.Background(), []string{"https://example.com/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Failed) != 1 {
		t.Errorf("failed = %+v, want the URL to fail", sum.Failed)
	}
}

func TestCutText(t *testing.T) {
	tests := []struct {
		text string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"one two\n\nthree four", 12, "one two"},
		{"no breaks at all here", 7, "no brea"},
		{"héllo", 2, "h"},
	}
	for _, tt := range tests {
		if got := cutText(tt.text, tt.max); got != tt.want {
			t.Errorf("cutText(%q, %d) = %q, want %q", tt.text, tt.max, got, tt.want)
		}
	}
}

// TestRunWithSQLite runs against the real SQLite corpus store.
func TestRunWithSQLite(t *testing.T) {
	ctx := context.Background()
	store, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.md":  "# Alpha\n\n" + prose("alpha", 20),
		"b.txt": prose("beta", 3),
	})
	e := newEnv()
	in := New(nil, store, e.index, e.emb, Config{Now: func() time.Time { return ingestTime }}, nil)

	sum, err := in.Run(ctx, []string{dir}, nil)
	if err != nil || sum.Sources != 2 || len(sum.Failed) != 0 {
		t.Fatalf("first run = %+v, %v; want 2 sources", sum, err)
	}
	id := fileItem(filepath.Join(dir, "a.md")).ID
	src, err := store.Source(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if src.Title != "Alpha" || src.Passages != len(e.index.ofSource(id)) || src.Passages < 2 ||
		len(src.ContentHash) != 64 || !src.IngestedAt.Equal(ingestTime) {
		t.Errorf("stored source = %+v", src)
	}

	sum, err = in.Run(ctx, []string{dir}, nil)
	if err != nil || sum.Skipped != 2 || sum.Sources != 0 {
		t.Errorf("second run = %+v, %v; want both skipped", sum, err)
	}

	writeFiles(t, dir, map[string]string{"a.md": "# Alpha\n\nNow much shorter."})
	sum, err = in.Run(ctx, []string{dir}, nil)
	if err != nil || sum.Sources != 1 || sum.Skipped != 1 {
		t.Errorf("third run = %+v, %v; want a re-ingested, b skipped", sum, err)
	}
	if src, err := store.Source(ctx, id); err != nil || src.Passages != 1 || len(e.index.ofSource(id)) != 1 {
		t.Errorf("after change: source %+v (err %v), %d passages indexed; want 1", src, err, len(e.index.ofSource(id)))
	}
}

// TestRunRecordsInBundles ingests JSONL records, which workers prepare in
// bundles (one read, one hash query, shared embedding batches), into the
// SQLite corpus: unchanged records are skipped, changed ones redone, and a
// record the embedder refuses fails alone.
func TestRunRecordsInBundles(t *testing.T) {
	ctx := context.Background()
	store, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	path := recordsFile(t, 500)
	e := newEnv()
	in := New(nil, store, e.index, e.emb, Config{Workers: 2, Now: func() time.Time { return ingestTime }}, nil)
	sum, err := in.Run(ctx, []string{path}, nil)
	if err != nil || sum.Sources != 500 || len(sum.Failed) != 0 {
		t.Fatalf("first run = %+v, %v; want 500 sources", sum, err)
	}
	if e.emb.calls >= 500 {
		t.Errorf("%d embedder calls for 500 records; want batches shared across records", e.emb.calls)
	}
	for _, i := range []int{0, 63, 64, 499} {
		id := fmt.Sprintf("recs:r%d", i)
		ps := e.index.ofSource(id)
		if len(ps) != 1 || !strings.Contains(ps[0].Text, fmt.Sprintf("rec%d finding", i)) || len(e.index.vecs[ps[0].ID]) != 2 ||
			e.index.vecs[ps[0].ID][0] != float32(len(ps[0].Text)) {
			t.Errorf("source %s: passages %+v, or its vector is another's", id, ps)
		}
	}

	// Change two records and make a third fail to embed.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(raw), "rec5 finding number 1", "rec5 finding number one", 1)
	text = strings.Replace(text, "rec150 finding number 1", "rec150 finding number one", 1)
	text = strings.Replace(text, "rec300 finding number 1", "rec300 EMBED-FAIL", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err = in.Run(ctx, []string{path}, nil)
	if err != nil || sum.Sources != 2 || sum.Skipped != 497 || len(sum.Failed) != 1 || !strings.HasSuffix(sum.Failed[0].Source, ":301") {
		t.Fatalf("second run = %+v, %v; want 2 redone, 497 skipped, line 301 failed", sum, err)
	}
	if ps := e.index.ofSource("recs:r150"); len(ps) != 1 || !strings.Contains(ps[0].Text, "number one") {
		t.Errorf("changed record r150: passages %+v", ps)
	}
}

// batchIndex and batchSources are the in-memory stores with the batch
// methods, counting the transactions they stand for. The first
// ReplaceSources waits for gate, when it is not nil.
type batchIndex struct {
	*memIndex
	gate     chan struct{}
	replaces int
}

func (x *batchIndex) ReplaceSources(ctx context.Context, ids []string, ps []evidence.Passage, vecs [][]float32) error {
	if x.gate != nil {
		<-x.gate
		x.gate = nil
	}
	x.mu.Lock()
	for _, p := range ps {
		if x.failUpsert[p.SourceID] {
			x.mu.Unlock()
			return errors.New("index unavailable")
		}
	}
	x.replaces++
	x.mu.Unlock()
	for _, id := range ids {
		if err := x.DeleteSource(ctx, id); err != nil {
			return err
		}
	}
	return x.Upsert(ctx, ps, vecs)
}

type batchSources struct {
	*memSources
	puts int
}

func (s *batchSources) PutSources(ctx context.Context, srcs []evidence.Source) error {
	for _, src := range srcs {
		if err := s.PutSource(ctx, src); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.puts++
	s.mu.Unlock()
	return nil
}

func recordsFile(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	var lines []string
	for i := range n {
		lines = append(lines, fmt.Sprintf(`{"id":"r%d","text":%q}`, i, prose(fmt.Sprint("rec", i), 2)))
	}
	writeFiles(t, dir, map[string]string{"recs.jsonl": strings.Join(lines, "\n")})
	return filepath.Join(dir, "recs.jsonl")
}

// TestRunBatchesWrites checks that sources that wait while a batch is
// written go in one transaction together, and that every source reported
// ingested has its passages and its hash.
func TestRunBatchesWrites(t *testing.T) {
	e := newEnv()
	// The first batch is held until every source is queued for the
	// writer, so the other 299 wait and form the second. (Holding it until
	// every source was embedded left a race: a worker queues its run of
	// sources after their embedding returns.)
	all := make(chan struct{})
	var mu sync.Mutex
	queued := 0
	idx, srcs := &batchIndex{memIndex: e.index, gate: all}, &batchSources{memSources: e.sources}
	in := New(nil, srcs, idx, e.emb, Config{Now: func() time.Time { return ingestTime }}, nil)
	in.queued = func() {
		mu.Lock()
		defer mu.Unlock()
		if queued++; queued == 300 {
			close(all)
		}
	}
	reported := 0
	sum, err := in.Run(context.Background(), []string{recordsFile(t, 300)}, func(p Progress) {
		if p.Current != "" {
			reported++
		}
	})
	if err != nil || sum.Sources != 300 || len(sum.Failed) != 0 {
		t.Fatalf("summary %+v, %v; want 300 ingested", sum, err)
	}
	// Two of each: the first source, then the 299 that waited. On a
	// loaded machine the writer may start only after every source is
	// queued, and then one transaction holds them all.
	if idx.replaces != srcs.puts || idx.replaces < 1 || idx.replaces > 2 {
		t.Errorf("%d passage and %d source transactions for 300 sources; want 2 of each (the first source, then the 299 that waited), or 1 when the writer starts after all are queued", idx.replaces, srcs.puts)
	}
	for i := range 300 {
		id := fmt.Sprintf("recs:r%d", i)
		hash, ok, _ := e.sources.SourceHash(context.Background(), id)
		if n := len(e.index.ofSource(id)); !ok || hash == "" || n == 0 {
			t.Errorf("source %s: stored %v, hash %q, %d passages", id, ok, hash, n)
		}
	}
	if reported != 300 {
		t.Errorf("%d sources reported; want 300", reported)
	}
}

// TestRunBatchFailureIsolated checks that a source whose write fails fails
// alone, whatever batch it was in.
func TestRunBatchFailureIsolated(t *testing.T) {
	e := newEnv()
	e.index.failUpsert["recs:r7"] = true
	idx, srcs := &batchIndex{memIndex: e.index}, &batchSources{memSources: e.sources}
	in := New(nil, srcs, idx, e.emb, Config{Now: func() time.Time { return ingestTime }}, nil)
	sum, err := in.Run(context.Background(), []string{recordsFile(t, 50)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Sources != 49 || len(sum.Failed) != 1 || !strings.HasSuffix(sum.Failed[0].Source, ":8") {
		t.Fatalf("summary %+v; want 49 ingested and line 8 failed", sum)
	}
	if _, ok, _ := e.sources.SourceHash(context.Background(), "recs:r7"); ok || len(e.index.ofSource("recs:r7")) != 0 {
		t.Error("the failed source was stored")
	}
	if _, ok, _ := e.sources.SourceHash(context.Background(), "recs:r8"); !ok {
		t.Error("a source next to the failed one was not stored")
	}
}
