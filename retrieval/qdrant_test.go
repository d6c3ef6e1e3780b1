package retrieval_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/retrieval/qdranttest"
	"github.com/verity-fc/verity/retrieval/storetest"
)

// dial returns a client of url, closed when the test ends.
func dial(t testing.TB, url, apiKey string) *qdrant.Client {
	t.Helper()
	c, err := retrieval.DialQdrant(url, apiKey)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

var collectionSeq struct {
	sync.Mutex
	n int
}

// newCollectionName returns a collection name no other test of this run
// uses, so that tests against a real Qdrant do not meet each other's data.
func newCollectionName(t testing.TB) string {
	collectionSeq.Lock()
	defer collectionSeq.Unlock()
	collectionSeq.n++
	return fmt.Sprintf("verity_test_%d_%d", os.Getpid(), collectionSeq.n)
}

// openQdrant returns a store over a fresh collection of the server at url,
// deleted when the test ends.
func openQdrant(t testing.TB, client *qdrant.Client, cfg retrieval.QdrantConfig) *retrieval.Qdrant {
	t.Helper()
	if cfg.Collection == "" {
		cfg.Collection = newCollectionName(t)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = client.DeleteCollection(ctx, cfg.Collection) // absent when nothing was written
	})
	return retrieval.NewQdrant(client, cfg)
}

func TestQdrantConformance(t *testing.T) {
	srv := qdranttest.Start(t)
	client := dial(t, srv.URL(), "")
	storetest.Run(t, func(t *testing.T) retrieval.Store { return openQdrant(t, client, retrieval.QdrantConfig{}) })
}

// TestQdrantConformanceRealServer runs the suite against the Qdrant that
// QDRANT_URL names (its gRPC port, e.g. http://127.0.0.1:6334), with the
// API key in QDRANT_API_KEY. Each subtest uses its own collection and
// deletes it.
func TestQdrantConformanceRealServer(t *testing.T) {
	url := os.Getenv("QDRANT_URL")
	if url == "" {
		t.Skip("QDRANT_URL is not set: the Qdrant suite ran against the in-process server only (TestQdrantConformance)")
	}
	client := dial(t, url, os.Getenv("QDRANT_API_KEY"))
	if _, err := client.HealthCheck(context.Background()); err != nil {
		t.Fatalf("QDRANT_URL=%s does not answer: %v", url, err)
	}
	storetest.Run(t, func(t *testing.T) retrieval.Store { return openQdrant(t, client, retrieval.QdrantConfig{}) })
}

func TestDialQdrantAddresses(t *testing.T) {
	tests := []struct {
		url     string
		wantErr bool
	}{
		{"http://127.0.0.1:6334", false},
		{"https://qdrant.example:443", false},
		{"qdrant:6334", false},
		{"127.0.0.1:6334", false},
		{"http://qdrant", false},
		{"", true},
		{"ftp://qdrant:6334", true},
		{"http://qdrant:6334/collections", true},
		{"http://qdrant:99999", true},
		{"http://user:pw@qdrant:6334", true},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			c, err := retrieval.DialQdrant(tt.url, "")
			if c != nil {
				c.Close()
			}
			if (err != nil) != tt.wantErr {
				t.Errorf("DialQdrant(%q) error = %v, want error %v", tt.url, err, tt.wantErr)
			}
			if err != nil && strings.Contains(err.Error(), "pw@") {
				t.Errorf("the error shows the password: %v", err)
			}
		})
	}
}

// sample is a small corpus for the tests below.
func sample(n int) ([]evidence.Passage, [][]float32) {
	ps := make([]evidence.Passage, n)
	vs := make([][]float32, n)
	for i := range n {
		ps[i], vs[i] = passageN(i), vectorN(i)
	}
	return ps, vs
}

func count(t *testing.T, s *retrieval.Qdrant) int {
	t.Helper()
	n, err := s.Count(context.Background())
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	return n
}

// wantUnavailable checks that err is a *retrieval.BackendError naming qdrant
// that reports Unavailable as want.
func wantUnavailable(t *testing.T, what string, err error, want bool) {
	t.Helper()
	var be *retrieval.BackendError
	if !errors.As(err, &be) {
		t.Fatalf("%s: error = %v, want a *retrieval.BackendError", what, err)
	}
	if be.BackendName() != "qdrant" || be.Unavailable() != want {
		t.Errorf("%s: BackendName %q, Unavailable %v; want qdrant, %v (error %v)", what, be.BackendName(), be.Unavailable(), want, err)
	}
}

// waitReady pings s until it answers, for at most 20 s: the client
// reconnects with a backoff of at most 2 s.
func waitReady(t *testing.T, s interface{ Ping(context.Context) error }) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := s.Ping(ctx)
		if err == nil {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the store did not recover after the server returned: %v", err)
		case <-tick.C:
		}
	}
}

// TestQdrantDownAndBack stops the server: every call fails at once as
// unavailable (the store's time limit is a minute, so a call that waited
// for the server would hang the test), nothing stored is lost, and the
// store works again once the server is back.
func TestQdrantDownAndBack(t *testing.T) {
	srv := qdranttest.Start(t)
	s := openQdrant(t, dial(t, srv.URL(), ""), retrieval.QdrantConfig{Timeout: time.Minute})
	ctx := context.Background()
	ps, vs := sample(30)
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}

	srv.Stop()
	_, err := s.Search(ctx, retrieval.Query{Text: "topic3", Vector: vectorN(3), K: 5})
	wantUnavailable(t, "Search while down", err, true)
	wantUnavailable(t, "Upsert while down", s.Upsert(ctx, ps[:1], vs[:1]), true)
	wantUnavailable(t, "DeleteSource while down", s.DeleteSource(ctx, ps[0].SourceID), true)
	wantUnavailable(t, "Ping while down", s.Ping(ctx), true)

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitReady(t, s)
	hits, err := s.Search(ctx, retrieval.Query{Text: "topic3", Vector: vectorN(3), K: 5})
	if err != nil {
		t.Fatalf("Search after the server returned: %v", err)
	}
	if len(hits) == 0 {
		t.Error("Search after the server returned found nothing")
	}
	if n := count(t, s); n != 30 {
		t.Errorf("collection holds %d points after the outage, want 30", n)
	}
}

// TestQdrantDiesMidCall kills the server while it handles an upsert: the
// call fails as unavailable, the batch is not half applied, the earlier
// data survives, and a retry after the restart stores the batch.
func TestQdrantDiesMidCall(t *testing.T) {
	srv := qdranttest.Start(t)
	s := openQdrant(t, dial(t, srv.URL(), ""), retrieval.QdrantConfig{Timeout: time.Minute})
	ctx := context.Background()
	ps, vs := sample(40)
	if err := s.Upsert(ctx, ps[:20], vs[:20]); err != nil {
		t.Fatal(err)
	}
	srv.DieDuring("Upsert")
	wantUnavailable(t, "Upsert when the server dies", s.Upsert(ctx, ps[20:], vs[20:]), true)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitReady(t, s)
	if n := count(t, s); n != 20 {
		t.Errorf("after the server died mid-upsert it holds %d points, want the 20 acknowledged before", n)
	}
	if err := s.Upsert(ctx, ps[20:], vs[20:]); err != nil {
		t.Fatalf("retry after the restart: %v", err)
	}
	if n := count(t, s); n != 40 {
		t.Errorf("after the retry it holds %d points, want 40", n)
	}
}

// TestQdrantTimeouts: a server that stops answering costs the store's own
// time limit and counts as unavailable; the caller's shorter deadline ends
// the call as the caller's, which is not the backend's fault.
func TestQdrantTimeouts(t *testing.T) {
	srv := qdranttest.Start(t)
	client := dial(t, srv.URL(), "")
	ps, vs := sample(5)
	q := retrieval.Query{Text: "topic1", K: 3}

	t.Run("store limit", func(t *testing.T) {
		// The data goes in under a generous limit, so a loaded machine
		// cannot fail the setup; only the hung search runs on 100 ms.
		name := newCollectionName(t)
		if err := openQdrant(t, client, retrieval.QdrantConfig{Collection: name, Timeout: time.Minute}).Upsert(context.Background(), ps, vs); err != nil {
			t.Fatal(err)
		}
		s := openQdrant(t, client, retrieval.QdrantConfig{Collection: name, Timeout: 100 * time.Millisecond})
		srv.Hang("Query")
		defer srv.Release("Query")
		_, err := s.Search(context.Background(), q)
		wantUnavailable(t, "Search of a hung server", err, true)
		if errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("the store's own time limit reads as the caller's deadline: %v", err)
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		s := openQdrant(t, client, retrieval.QdrantConfig{Timeout: time.Minute})
		if err := s.Upsert(context.Background(), ps, vs); err != nil {
			t.Fatal(err)
		}
		srv.Hang("Query")
		defer srv.Release("Query")
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		_, err := s.Search(ctx, q)
		wantUnavailable(t, "Search past the caller's deadline", err, false)
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("error = %v, want it to match context.DeadlineExceeded", err)
		}
	})
}

// TestQdrantServerErrors maps the codes Qdrant answers to Unavailable.
func TestQdrantServerErrors(t *testing.T) {
	srv := qdranttest.Start(t)
	s := openQdrant(t, dial(t, srv.URL(), ""), retrieval.QdrantConfig{})
	ctx := context.Background()
	ps, vs := sample(5)
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		code        codes.Code
		unavailable bool
	}{
		{codes.Unavailable, true},
		{codes.ResourceExhausted, true},
		{codes.DeadlineExceeded, true},
		{codes.Internal, false},
		{codes.InvalidArgument, false},
		{codes.PermissionDenied, false},
	}
	for _, tt := range tests {
		t.Run(tt.code.String(), func(t *testing.T) {
			srv.FailNext("Query", 1, tt.code)
			_, err := s.Search(ctx, retrieval.Query{Text: "topic1", K: 3})
			wantUnavailable(t, "Search", err, tt.unavailable)
			if got := status.Code(err); got != tt.code {
				t.Errorf("status code = %v, want %v", got, tt.code)
			}
			if _, err := s.Search(ctx, retrieval.Query{Text: "topic1", K: 3}); err != nil {
				t.Errorf("the next Search: %v", err)
			}
		})
	}
}

func TestQdrantAPIKey(t *testing.T) {
	srv := qdranttest.Start(t, qdranttest.WithAPIKey("s3cret"))
	ps, vs := sample(3)
	good := openQdrant(t, dial(t, srv.URL(), "s3cret"), retrieval.QdrantConfig{})
	if err := good.Upsert(context.Background(), ps, vs); err != nil {
		t.Fatalf("with the right key: %v", err)
	}
	bad := openQdrant(t, dial(t, srv.URL(), "wrong"), retrieval.QdrantConfig{})
	err := bad.Upsert(context.Background(), ps, vs)
	wantUnavailable(t, "with a wrong key", err, false)
	if status.Code(err) != codes.Unauthenticated {
		t.Errorf("with a wrong key: %v, want Unauthenticated", err)
	}
}

// TestQdrantCollectionLayout checks what the first Upsert creates: the
// named vectors, BM25's IDF modifier and the payload indexes that filters
// use.
func TestQdrantCollectionLayout(t *testing.T) {
	srv := qdranttest.Start(t)
	client := dial(t, srv.URL(), "")
	s := openQdrant(t, client, retrieval.QdrantConfig{Collection: "layout", Shards: 2, Replicas: 1})
	ctx := context.Background()
	if n := count(t, s); n != 0 {
		t.Fatalf("Count before the collection exists = %d", n)
	}
	ps, vs := sample(4)
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}
	info, err := client.GetCollectionInfo(ctx, "layout")
	if err != nil {
		t.Fatal(err)
	}
	params := info.GetConfig().GetParams()
	dense := params.GetVectorsConfig().GetParamsMap().GetMap()[retrieval.QdrantDense]
	if dense.GetSize() != 16 || dense.GetDistance() != qdrant.Distance_Cosine {
		t.Errorf("dense vector params = %v, want size 16, cosine", dense)
	}
	if m := params.GetSparseVectorsConfig().GetMap()[retrieval.QdrantSparse].GetModifier(); m != qdrant.Modifier_Idf {
		t.Errorf("sparse modifier = %v, want Idf", m)
	}
	if params.GetShardNumber() != 2 {
		t.Errorf("shard number = %d, want 2", params.GetShardNumber())
	}
	got := map[string]qdrant.PayloadSchemaType{}
	for k, v := range info.GetPayloadSchema() {
		got[k] = v.GetDataType()
	}
	want := map[string]qdrant.PayloadSchemaType{
		"domain_key":   qdrant.PayloadSchemaType_Keyword,
		"source_id":    qdrant.PayloadSchemaType_Keyword,
		"published_at": qdrant.PayloadSchemaType_Datetime,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("payload indexes (-want +got):\n%s", diff)
	}

	// Upserting again is idempotent: the same points, replaced.
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s); n != 4 {
		t.Errorf("after upserting the same passages twice the collection holds %d points, want 4", n)
	}
}

// TestQdrantForeignCollection refuses a collection of the same name that
// verity did not make, rather than writing into it.
func TestQdrantForeignCollection(t *testing.T) {
	srv := qdranttest.Start(t)
	client := dial(t, srv.URL(), "")
	ctx := context.Background()
	err := client.CreateCollection(ctx, &qdrant.CreateCollection{
		CollectionName: "foreign",
		VectorsConfig:  qdrant.NewVectorsConfig(&qdrant.VectorParams{Size: 16, Distance: qdrant.Distance_Cosine}),
	})
	if err != nil {
		t.Fatal(err)
	}
	s := openQdrant(t, client, retrieval.QdrantConfig{Collection: "foreign"})
	ps, vs := sample(2)
	if err := s.Upsert(ctx, ps, vs); err == nil || !strings.Contains(err.Error(), "not made by verity") {
		t.Errorf("Upsert into a foreign collection: error = %v, want a refusal", err)
	}
	if _, err := s.Search(ctx, retrieval.Query{Text: "topic1", K: 3}); err == nil {
		t.Error("Search of a foreign collection succeeded")
	}
}

// TestQdrantSharedCollection runs two stores, as two processes would, on
// one collection: they race to create it, and each sees the other's
// writes and deletes.
func TestQdrantSharedCollection(t *testing.T) {
	srv := qdranttest.Start(t)
	name := newCollectionName(t)
	a := openQdrant(t, dial(t, srv.URL(), ""), retrieval.QdrantConfig{Collection: name})
	b := openQdrant(t, dial(t, srv.URL(), ""), retrieval.QdrantConfig{Collection: name})
	ctx := context.Background()
	ps, vs := sample(20)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*retrieval.Qdrant{a, b} {
		wg.Go(func() { errs[i] = s.Upsert(ctx, ps[i*10:(i+1)*10], vs[i*10:(i+1)*10]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("concurrent first upserts: %v", err)
	}
	hits, err := a.Search(ctx, retrieval.Query{Vector: vectorN(15), K: 1})
	if err != nil || len(hits) != 1 || hits[0].Passage.ID != ps[15].ID {
		t.Errorf("store a finds %v, %v; want b's passage %s", hits, err, ps[15].ID)
	}
	if err := a.DeleteSource(ctx, ps[15].SourceID); err != nil {
		t.Fatal(err)
	}
	if n := count(t, b); n != 17 {
		t.Errorf("store b counts %d points after a deleted a source of 3, want 17", n)
	}
}

// TestQdrantRecreatedCollection: a collection deleted behind the store's
// back reads as empty and is created again by the next write.
func TestQdrantRecreatedCollection(t *testing.T) {
	srv := qdranttest.Start(t)
	client := dial(t, srv.URL(), "")
	s := openQdrant(t, client, retrieval.QdrantConfig{Collection: "gone"})
	ctx := context.Background()
	ps, vs := sample(3)
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}
	if err := client.DeleteCollection(ctx, "gone"); err != nil {
		t.Fatal(err)
	}
	hits, err := s.Search(ctx, retrieval.Query{Text: "topic1", K: 3})
	if err != nil || len(hits) != 0 {
		t.Errorf("Search of a deleted collection = %v, %v; want no hits", hits, err)
	}
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatalf("Upsert after the collection was deleted: %v", err)
	}
	if n := count(t, s); n != 3 {
		t.Errorf("recreated collection holds %d points, want 3", n)
	}
}

// TestQdrantVectorsLeftOut: a passage of stopwords gets no sparse vector
// and one with a zero vector no dense vector; each is still stored and
// found the other way.
func TestQdrantVectorsLeftOut(t *testing.T) {
	srv := qdranttest.Start(t)
	client := dial(t, srv.URL(), "")
	s := openQdrant(t, client, retrieval.QdrantConfig{Collection: "sparse"})
	ctx := context.Background()
	ps, vs := sample(2)
	ps[0].Text, ps[0].Title = "It is what it is, and so it was.", ""
	vs[1] = make([]float32, len(vs[1]))
	if err := s.Upsert(ctx, ps, vs); err != nil {
		t.Fatal(err)
	}
	got, err := client.Get(ctx, &qdrant.GetPoints{
		CollectionName: "sparse", Ids: []*qdrant.PointId{retrieval.QdrantPointID(ps[0].ID), retrieval.QdrantPointID(ps[1].ID)},
		WithVectors: qdrant.NewWithVectors(true), WithPayload: qdrant.NewWithPayload(true),
	})
	if err != nil || len(got) != 2 {
		t.Fatalf("Get = %v, %v", got, err)
	}
	names := map[string][]string{}
	for _, p := range got {
		for n := range p.GetVectors().GetVectors().GetVectors() {
			names[p.GetPayload()["id"].GetStringValue()] = append(names[p.GetPayload()["id"].GetStringValue()], n)
		}
	}
	want := map[string][]string{ps[0].ID: {retrieval.QdrantDense}, ps[1].ID: {retrieval.QdrantSparse}}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("vectors stored (-want +got):\n%s", diff)
	}
	if hits, err := s.Search(ctx, retrieval.Query{Vector: vs[0], K: 5}); err != nil || len(hits) != 1 || hits[0].Passage.ID != ps[0].ID {
		t.Errorf("dense search = %v, %v; want only the stopword passage", hits, err)
	}
}
