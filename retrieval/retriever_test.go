package retrieval_test

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
)

// hashEmbedder is a deterministic bag-of-words embedder: each lower-case
// word adds 1 to the dimension its FNV hash selects.
type hashEmbedder struct {
	dim   int
	err   error
	zero  bool // give all-zero vectors, as for text without content words
	calls int
}

func (h *hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	h.calls++
	if h.err != nil {
		return nil, h.err
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.dim)
		if h.zero {
			out[i] = v
			continue
		}
		v[0] = 0.01 // never the zero vector
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !('a' <= r && r <= 'z' || '0' <= r && r <= '9') }) {
			f := fnv.New32a()
			f.Write([]byte(w))
			v[int(f.Sum32())%h.dim]++
		}
		out[i] = v
	}
	return out, nil
}

// fakeStore returns fixed hits and records the query it was asked.
type fakeStore struct {
	hits []retrieval.Hit
	err  error
	got  retrieval.Query
}

func (f *fakeStore) Upsert(context.Context, []evidence.Passage, [][]float32) error { return nil }
func (f *fakeStore) DeleteSource(context.Context, string) error                    { return nil }
func (f *fakeStore) Search(_ context.Context, q retrieval.Query) ([]retrieval.Hit, error) {
	f.got = q
	if f.err != nil {
		return nil, f.err
	}
	return f.hits[:min(len(f.hits), q.K)], nil
}

var now = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func clock() time.Time { return now }

// filler makes a passage text of n characters that shares no word with the
// claims below.
func filler(id string, n int) string {
	s := "Unrelated filler prose " + id + " "
	for len(s) < n {
		s += "x"
	}
	return s[:n]
}

// hit builds a hit for a passage on its own domain and URL.
func hit(id, text string) retrieval.Hit {
	return retrieval.Hit{Passage: evidence.Passage{
		ID: id, SourceID: "src-" + id, Text: text,
		URL: "https://" + id + ".example/page", Domain: id + ".example", PublishedAt: now.AddDate(0, -1, 0),
	}}
}

func ids(js []evidence.Judged) []string {
	out := []string{}
	for _, j := range js {
		out = append(out, j.ID)
	}
	return out
}

func retrieve(t *testing.T, store retrieval.Store, cfg retrieval.Config, claim string, opts retrieval.Options) []evidence.Judged {
	t.Helper()
	got, err := retrieval.NewRetriever(store, &hashEmbedder{dim: 32}, cfg, clock).Retrieve(context.Background(), claim, opts)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func TestConfigDefaults(t *testing.T) {
	got := retrieval.NewRetriever(&fakeStore{}, &hashEmbedder{dim: 4}, retrieval.Config{}, nil).Config()
	want := retrieval.Config{
		K: 20, TopN: 6, MinChars: 40, MaxChars: 2000, RecencyHalfLifeDays: 730, UnknownDateRecency: 0.5,
		MaxPerURL: 1, MaxPerDomain: 2, Blend: retrieval.Blend{Relevance: 0.6, Overlap: 0.3, Recency: 0.1},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
}

func TestRetrieveQuery(t *testing.T) {
	since := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		cfg  retrieval.Config
		opts retrieval.Options
		want retrieval.Query
	}{
		{"defaults", retrieval.Config{}, retrieval.Options{}, retrieval.Query{K: 20}},
		{"config k", retrieval.Config{K: 50}, retrieval.Options{}, retrieval.Query{K: 50}},
		{"options override", retrieval.Config{K: 50}, retrieval.Options{K: 30, Domains: []string{"nasa.gov"}, Since: since},
			retrieval.Query{K: 30, Filter: retrieval.Filter{Domains: []string{"nasa.gov"}, Since: since}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := &fakeStore{}
			retrieve(t, s, tt.cfg, "  The claim.  ", tt.opts)
			tt.want.Text = "The claim."
			if diff := cmp.Diff(tt.want, s.got, cmpopts.IgnoreFields(retrieval.Query{}, "Vector")); diff != "" {
				t.Errorf("query (-want +got):\n%s", diff)
			}
			if len(s.got.Vector) != 32 {
				t.Errorf("query vector has %d dimensions, want the embedder's 32", len(s.got.Vector))
			}
		})
	}
}

// A claim the embedder finds no content in gives a zero vector; the store
// is asked for text matches only.
func TestRetrieveZeroClaimVector(t *testing.T) {
	s := &fakeStore{hits: []retrieval.Hit{hit("a", filler("a", 60))}}
	got, err := retrieval.NewRetriever(s, &hashEmbedder{dim: 8, zero: true}, retrieval.Config{}, clock).Retrieve(context.Background(), "It is what it is.", retrieval.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.got.Vector != nil || len(got) != 1 {
		t.Errorf("query vector %v, %d passages; want no vector and the store's hit", s.got.Vector, len(got))
	}
}

func TestRetrieveLengthFilter(t *testing.T) {
	hits := []retrieval.Hit{
		hit("short", filler("short", 39)),
		hit("min", filler("min", 40)),
		hit("max", filler("max", 2000)),
		hit("long", filler("long", 2001)),
		hit("padded", "   "+filler("padded", 39)+"   \n"),
		hit("runes", strings.Repeat("é", 40)),
	}
	tests := []struct {
		name string
		cfg  retrieval.Config
		want []string
	}{
		{"defaults 40..2000", retrieval.Config{}, []string{"min", "max", "runes"}},
		{"configured", retrieval.Config{MinChars: 10, MaxChars: 39}, []string{"short", "padded"}},
		{"bounds off", retrieval.Config{MinChars: -1, MaxChars: -1, TopN: 20}, []string{"short", "min", "max", "long", "padded", "runes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ids(retrieve(t, &fakeStore{hits: hits}, tt.cfg, "a claim about nothing here", retrieval.Options{}))
			if diff := cmp.Diff(tt.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRetrieveDedupe(t *testing.T) {
	same := func(id, url, domain, text string) retrieval.Hit {
		h := hit(id, text)
		h.Passage.URL, h.Passage.Domain = url, domain
		return h
	}
	tests := []struct {
		name string
		cfg  retrieval.Config
		hits []retrieval.Hit
		want []string
	}{
		{
			name: "one passage per URL, however it is written",
			hits: []retrieval.Hit{
				same("a1", "https://www.site.example/doc/", "site.example", filler("a1", 60)),
				same("a2", "http://site.example/doc#part-2", "site.example", filler("a2", 60)),
				same("a3", "https://SITE.example/doc", "site.example", filler("a3", 60)),
				same("b1", "https://site.example/other", "site.example", filler("b1", 60)),
			},
			want: []string{"a1", "b1"},
		},
		{
			name: "two passages per domain",
			hits: []retrieval.Hit{
				same("a", "https://site.example/1", "site.example", filler("a", 60)),
				same("b", "https://site.example/2", "site.example", filler("b", 60)),
				same("c", "https://site.example/3", "Site.example", filler("c", 60)),
				same("d", "https://other.example/1", "other.example", filler("d", 60)),
			},
			want: []string{"a", "b", "d"},
		},
		{
			name: "passages without URL are keyed by source",
			hits: []retrieval.Hit{
				{Passage: evidence.Passage{ID: "f1", SourceID: "file", Text: filler("f1", 60)}},
				{Passage: evidence.Passage{ID: "f2", SourceID: "file", Text: filler("f2", 60)}},
				{Passage: evidence.Passage{ID: "g1", SourceID: "other-file", Text: filler("g1", 60)}},
			},
			want: []string{"f1", "g1"},
		},
		{
			name: "same text from two sources",
			hits: []retrieval.Hit{
				hit("x", "The  Same passage text,\n copied by two sites word for word."),
				hit("y", "the same passage text, copied by two sites word for word."),
				hit("z", filler("z", 60)),
			},
			want: []string{"x", "z"},
		},
		{
			name: "limits configurable",
			cfg:  retrieval.Config{MaxPerURL: 2, MaxPerDomain: -1},
			hits: []retrieval.Hit{
				same("a", "https://site.example/1", "site.example", filler("a", 60)),
				same("b", "https://site.example/1", "site.example", filler("b", 60)),
				same("c", "https://site.example/1", "site.example", filler("c", 60)),
				same("d", "https://site.example/2", "site.example", filler("d", 60)),
			},
			want: []string{"a", "b", "d"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ids(retrieve(t, &fakeStore{hits: tt.hits}, tt.cfg, "claim without shared words", retrieval.Options{}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("kept (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRecency(t *testing.T) {
	tests := []struct {
		name      string
		published time.Time
		want      float64
	}{
		{"today", now, 1},
		{"future clamps to 1", now.AddDate(1, 0, 0), 1},
		{"one half-life", now.Add(-730 * 24 * time.Hour), 0.5},
		{"two half-lives", now.Add(-1460 * 24 * time.Hour), 0.25},
		{"unknown", time.Time{}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := retrieval.Recency(tt.published, now, 730, 0.5)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Recency = %v, want %v", got, tt.want)
			}
		})
	}
	// The Retriever fills in Recency with its configuration.
	h := hit("old", filler("old", 60))
	h.Passage.PublishedAt = now.Add(-365 * 24 * time.Hour)
	u := hit("undated", filler("undated", 60))
	u.Passage.PublishedAt = time.Time{}
	got := retrieve(t, &fakeStore{hits: []retrieval.Hit{h, u}}, retrieval.Config{RecencyHalfLifeDays: 365, UnknownDateRecency: 0.3}, "claim", retrieval.Options{})
	if len(got) != 2 || math.Abs(got[0].Recency-0.5) > 1e-12 || got[1].Recency != 0.3 {
		t.Errorf("recency of a one-year-old and an undated passage with a one-year half-life: %+v", got)
	}
}

func TestRetrieveRerank(t *testing.T) {
	claim := "Operational satellites exceeded nine thousand in 2024"
	hits := []retrieval.Hit{
		hit("first", filler("first", 80)),
		hit("second", filler("second", 80)),
		hit("third", filler("third", 80)),
		hit("match", "The number of operational satellites exceeded nine thousand early in 2024, the census says."),
	}
	stale := hit("stale", filler("stale", 80))
	stale.Passage.PublishedAt = now.AddDate(-30, 0, 0)
	hits = append([]retrieval.Hit{stale}, hits...)
	got := retrieve(t, &fakeStore{hits: hits}, retrieval.Config{}, claim, retrieval.Options{})
	// The passage that holds the claim's words overtakes the store's
	// first hits; a 30-year-old first hit falls below the second.
	if diff := cmp.Diff([]string{"match", "first", "stale", "second", "third"}, ids(got)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Relevance > got[i-1].Relevance {
			t.Errorf("relevance rises at %d: %v after %v", i, got[i].Relevance, got[i-1].Relevance)
		}
	}
	for _, j := range got {
		if j.Relevance <= 0 || j.Relevance > 1 || j.Entail != 0 || j.Contradict != 0 || j.Neutral != 0 {
			t.Errorf("passage %s: relevance %v, judgment %+v; want relevance in (0,1] and no judgment", j.ID, j.Relevance, j.Judgment)
		}
	}
}

func TestRetrieveTopN(t *testing.T) {
	var hits []retrieval.Hit
	for i := range 30 {
		hits = append(hits, hit(fmt.Sprintf("h%02d", i), filler(fmt.Sprint(i), 60)))
	}
	tests := []struct {
		name string
		cfg  retrieval.Config
		opts retrieval.Options
		want int
	}{
		{"default 6", retrieval.Config{}, retrieval.Options{}, 6},
		{"config", retrieval.Config{TopN: 8}, retrieval.Options{}, 8},
		{"option overrides", retrieval.Config{TopN: 8}, retrieval.Options{TopN: 5}, 5},
		{"bounded by k", retrieval.Config{}, retrieval.Options{K: 3}, 3},
		{"max", retrieval.Config{}, retrieval.Options{TopN: retrieval.MaxTopN}, retrieval.MaxTopN},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := retrieve(t, &fakeStore{hits: hits}, tt.cfg, "claim", tt.opts); len(got) != tt.want {
				t.Errorf("%d passages, want %d", len(got), tt.want)
			}
		})
	}
}

func TestRetrieveErrors(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		claim     string
		opts      retrieval.Options
		cfg       retrieval.Config
		store     *fakeStore
		emb       *hashEmbedder
		wantField string
		wantErr   error
	}{
		{name: "empty claim", claim: "  ", wantField: "claim"},
		{name: "k too large", claim: "c", opts: retrieval.Options{K: retrieval.MaxK + 1}, wantField: "k"},
		{name: "negative k", claim: "c", opts: retrieval.Options{K: -1}, wantField: "k"},
		{name: "top_n too large", claim: "c", opts: retrieval.Options{TopN: retrieval.MaxTopN + 1}, wantField: "top_n"},
		{name: "bad configured top_n", claim: "c", cfg: retrieval.Config{TopN: -2}, wantField: "top_n"},
		{name: "embedder fails", claim: "c", emb: &hashEmbedder{dim: 4, err: boom}, wantErr: boom},
		{name: "store fails", claim: "c", store: &fakeStore{err: boom}, wantErr: boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store, emb := tt.store, tt.emb
			if store == nil {
				store = &fakeStore{}
			}
			if emb == nil {
				emb = &hashEmbedder{dim: 4}
			}
			_, err := retrieval.NewRetriever(store, emb, tt.cfg, clock).Retrieve(context.Background(), tt.claim, tt.opts)
			var ie *evidence.InputError
			switch {
			case tt.wantField != "" && (!errors.As(err, &ie) || ie.Field != tt.wantField):
				t.Errorf("error = %v, want an *evidence.InputError for %q", err, tt.wantField)
			case tt.wantErr != nil && !errors.Is(err, tt.wantErr):
				t.Errorf("error = %v, want %v", err, tt.wantErr)
			}
			if tt.wantField != "" && emb.calls != 0 {
				t.Error("the embedder was called for an invalid request")
			}
		})
	}
}

// TestRetrieverOverEmbedded runs the whole path on the embedded store: the
// claim's passages from three sites come back, the duplicate page once, and
// nothing off topic.
func TestRetrieverOverEmbedded(t *testing.T) {
	ctx := context.Background()
	s := openEmbedded(t, retrieval.EmbeddedConfig{})
	emb := &hashEmbedder{dim: 64}
	mk := func(id, domain, text string, years int) evidence.Passage {
		return evidence.Passage{ID: id, SourceID: id, Text: text, URL: "https://" + domain + "/" + id, Domain: domain,
			PublishedAt: now.AddDate(-years, 0, 0), Reliability: 0.8}
	}
	ps := []evidence.Passage{
		mk("agency", "space-agency.gov", "Our database recorded 9,210 operational satellites as of January 1, 2024.", 1),
		mk("univ", "university.edu", "With recent launches the count of active satellites passed nine thousand in late 2023.", 1),
		mk("news", "news.example", "Active satellites now number more than 9,000, according to the 2024 census of orbits.", 0),
		mk("news-copy", "mirror.example", "Active satellites now number more than 9,000, according to the 2024 census of orbits.", 0),
		mk("whales", "ocean.example", "Blue whales are the largest animals ever known to have lived on the planet.", 2),
		mk("tiny", "tiny.example", "Satellites: 9,000.", 0),
	}
	vecs, err := emb.Embed(ctx, func() []string {
		var ts []string
		for _, p := range ps {
			ts = append(ts, p.Text)
		}
		return ts
	}())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Upsert(ctx, ps, vecs); err != nil {
		t.Fatal(err)
	}
	r := retrieval.NewRetriever(s, emb, retrieval.Config{}, clock)
	got, err := r.Retrieve(ctx, "The number of active satellites exceeded 9,000 at the start of 2024.", retrieval.Options{TopN: 5})
	if err != nil {
		t.Fatal(err)
	}
	gotIDs := ids(got)
	if diff := cmp.Diff([]string{"agency", "news", "univ"}, gotIDs[:min(3, len(gotIDs))], cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("top 3 (-want +got):\n%s\nall: %v", diff, gotIDs)
	}
	for _, j := range got {
		if j.ID == "news-copy" || j.ID == "tiny" {
			t.Errorf("%s kept: duplicate text and too-short passages must go (got %v)", j.ID, gotIDs)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name      string
		cfg       retrieval.Config
		wantField string // "" for valid
	}{
		{"defaults", retrieval.DefaultConfig(), ""},
		{"k zero", retrieval.Config{K: 0, TopN: 1}, "k"},
		{"top_n zero", retrieval.Config{K: 20, TopN: 0}, "top_n"},
		{"largest", retrieval.Config{K: retrieval.MaxK, TopN: retrieval.MaxTopN}, ""},
		{"k negative", retrieval.Config{K: -1, TopN: 1}, "k"},
		{"k too large", retrieval.Config{K: retrieval.MaxK + 1, TopN: 1}, "k"},
		{"top_n negative", retrieval.Config{K: 20, TopN: -1}, "top_n"},
		{"top_n above MaxTopN", retrieval.Config{K: 50, TopN: 30}, "top_n"},
		{"top_n above k", retrieval.Config{K: 5, TopN: 6}, "top_n"},
		{"max_chars under min_chars", retrieval.Config{K: 20, TopN: 6, MinChars: 500, MaxChars: 100}, "max_chars"},
		{"max_chars under the default min_chars", retrieval.Config{K: 20, TopN: 6, MaxChars: 10}, "max_chars"},
		{"no length bounds", retrieval.Config{K: 20, TopN: 6, MinChars: -1, MaxChars: -1}, ""},
		{"unknown_date_recency above 1", retrieval.Config{K: 20, TopN: 6, UnknownDateRecency: 1.5}, "unknown_date_recency"},
		{"negative blend", retrieval.Config{K: 20, TopN: 6, Blend: retrieval.Blend{Relevance: -1}}, "blend"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.cfg.Validate()
			if tt.wantField == "" {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			var ie *evidence.InputError
			if !errors.As(err, &ie) || ie.Field != tt.wantField {
				t.Fatalf("Validate() = %v, want an InputError naming %q", err, tt.wantField)
			}
		})
	}
}
