package qdranttest_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/retrieval/qdranttest"
)

// The server is checked through the real go-client, on the behaviours of
// Qdrant that the retrieval store relies on.

func setup(t *testing.T) (*qdranttest.Server, *qdrant.Client) {
	t.Helper()
	srv := qdranttest.Start(t)
	c, err := retrieval.DialQdrant(srv.URL(), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	ctx := context.Background()
	err = c.CreateCollection(ctx, &qdrant.CreateCollection{
		CollectionName: "c",
		VectorsConfig:  qdrant.NewVectorsConfigMap(map[string]*qdrant.VectorParams{"d": {Size: 2, Distance: qdrant.Distance_Cosine}}),
		SparseVectorsConfig: qdrant.NewSparseVectorsConfig(map[string]*qdrant.SparseVectorParams{
			"s": {Modifier: qdrant.Modifier_Idf.Enum()},
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

func pt(id uint64, dense []float32, idx []uint32, payload map[string]any) *qdrant.PointStruct {
	vals := make([]float32, len(idx))
	for i := range vals {
		vals[i] = 1
	}
	return &qdrant.PointStruct{
		Id:      qdrant.NewIDNum(id),
		Vectors: qdrant.NewVectorsMap(map[string]*qdrant.Vector{"d": qdrant.NewVectorDense(dense), "s": qdrant.NewVectorSparse(idx, vals)}),
		Payload: qdrant.NewValueMap(payload),
	}
}

func upsert(t *testing.T, c *qdrant.Client, pts ...*qdrant.PointStruct) {
	t.Helper()
	if _, err := c.Upsert(context.Background(), &qdrant.UpsertPoints{CollectionName: "c", Points: pts, Wait: qdrant.PtrOf(true)}); err != nil {
		t.Fatal(err)
	}
}

func ids(res []*qdrant.ScoredPoint) []uint64 {
	out := []uint64{}
	for _, r := range res {
		out = append(out, r.GetId().GetNum())
	}
	return out
}

func TestErrors(t *testing.T) {
	_, c := setup(t)
	ctx := context.Background()
	upsert(t, c, pt(1, []float32{1, 0}, []uint32{1}, nil))
	tests := []struct {
		name string
		call func() error
		want codes.Code
	}{
		{"collection exists", func() error {
			return c.CreateCollection(ctx, &qdrant.CreateCollection{CollectionName: "c", VectorsConfig: qdrant.NewVectorsConfig(&qdrant.VectorParams{Size: 2, Distance: qdrant.Distance_Dot})})
		}, codes.AlreadyExists},
		{"missing collection", func() error {
			_, err := c.Query(ctx, &qdrant.QueryPoints{CollectionName: "nope", Query: qdrant.NewQueryDense([]float32{1, 0}), Using: qdrant.PtrOf("d")})
			return err
		}, codes.NotFound},
		{"wrong dimension in a batch", func() error {
			_, err := c.Upsert(ctx, &qdrant.UpsertPoints{CollectionName: "c", Points: []*qdrant.PointStruct{
				pt(2, []float32{1, 0}, nil, nil), pt(3, []float32{1, 0, 0}, nil, nil),
			}})
			return err
		}, codes.InvalidArgument},
		{"unknown vector name", func() error {
			_, err := c.Query(ctx, &qdrant.QueryPoints{CollectionName: "c", Query: qdrant.NewQueryDense([]float32{1, 0}), Using: qdrant.PtrOf("x")})
			return err
		}, codes.InvalidArgument},
		{"duplicate sparse index", func() error {
			_, err := c.Upsert(ctx, &qdrant.UpsertPoints{CollectionName: "c", Points: []*qdrant.PointStruct{{
				Id: qdrant.NewIDNum(4), Vectors: qdrant.NewVectorsMap(map[string]*qdrant.Vector{"s": qdrant.NewVectorSparse([]uint32{5, 5}, []float32{1, 1})}),
			}}})
			return err
		}, codes.InvalidArgument},
		{"bad uuid", func() error {
			_, err := c.Upsert(ctx, &qdrant.UpsertPoints{CollectionName: "c", Points: []*qdrant.PointStruct{{Id: qdrant.NewIDUUID("not-a-uuid")}}})
			return err
		}, codes.InvalidArgument},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := status.Code(tt.call()); got != tt.want {
				t.Errorf("code = %v, want %v", got, tt.want)
			}
		})
	}
	// The rejected batch left nothing behind.
	n, err := c.Count(ctx, &qdrant.CountPoints{CollectionName: "c"})
	if err != nil || n != 1 {
		t.Errorf("Count = %d, %v; want 1: a rejected batch must apply none of its points", n, err)
	}
}

// TestFusion checks reciprocal rank fusion's arithmetic with Qdrant's
// 0-based positions: 1/(k+r) summed over the prefetches.
func TestFusion(t *testing.T) {
	_, c := setup(t)
	upsert(t, c,
		pt(1, []float32{1, 0}, []uint32{7}, nil),
		pt(2, []float32{0.8, 0.6}, []uint32{8}, nil),
		pt(3, []float32{0, 1}, []uint32{7, 8}, nil),
	)
	res, err := c.Query(context.Background(), &qdrant.QueryPoints{
		CollectionName: "c",
		Prefetch: []*qdrant.PrefetchQuery{
			{Query: qdrant.NewQueryDense([]float32{1, 0}), Using: qdrant.PtrOf("d"), Limit: qdrant.PtrOf(uint64(3))},
			{Query: qdrant.NewQuerySparse([]uint32{8}, []float32{1}), Using: qdrant.PtrOf("s"), Limit: qdrant.PtrOf(uint64(3))},
		},
		Query: qdrant.NewQueryRRF(&qdrant.Rrf{K: qdrant.PtrOf(uint32(60))}),
	})
	if err != nil {
		t.Fatal(err)
	}
	// Dense ranks 1, 2, 3; sparse (index 8) finds 2 and 3, tied, in ID
	// order.
	want := map[uint64]float64{1: 1.0 / 60, 2: 1.0/61 + 1.0/60, 3: 1.0/62 + 1.0/61}
	if diff := cmp.Diff([]uint64{2, 3, 1}, ids(res)); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
	for _, r := range res {
		if got := float64(r.GetScore()); math.Abs(got-want[r.GetId().GetNum()]) > 1e-6 {
			t.Errorf("point %d score %v, want %v", r.GetId().GetNum(), got, want[r.GetId().GetNum()])
		}
	}
}

// TestIDF: with the IDF modifier a rare term outweighs a common one.
func TestIDF(t *testing.T) {
	_, c := setup(t)
	upsert(t, c,
		pt(1, []float32{1, 0}, []uint32{1}, nil), // common term only
		pt(2, []float32{1, 0}, []uint32{1, 2}, nil),
		pt(3, []float32{1, 0}, []uint32{1}, nil),
		pt(4, []float32{1, 0}, []uint32{3}, nil), // rare term only
	)
	res, err := c.Query(context.Background(), &qdrant.QueryPoints{
		CollectionName: "c", Query: qdrant.NewQuerySparse([]uint32{1, 3}, []float32{1, 1}), Using: qdrant.PtrOf("s"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 4 || res[0].GetId().GetNum() != 4 {
		t.Errorf("ranking %v, want the rare term's point 4 first of 4", ids(res))
	}
	// idf = ln(1 + (N - n + 0.5)/(n + 0.5)) with N=4, n=1.
	if want := math.Log(1 + 3.5/1.5); math.Abs(float64(res[0].GetScore())-want) > 1e-5 {
		t.Errorf("score %v, want %v", res[0].GetScore(), want)
	}
}

func TestFilters(t *testing.T) {
	_, c := setup(t)
	day := time.Date(2024, 2, 15, 10, 0, 0, 0, time.UTC)
	upsert(t, c,
		pt(1, []float32{1, 0}, nil, map[string]any{"dom": "a.org", "at": day.Format(time.RFC3339Nano), "n": 1}),
		pt(2, []float32{1, 0}, nil, map[string]any{"dom": "b.org", "at": day.Add(time.Microsecond).Format(time.RFC3339Nano), "n": 2}),
		pt(3, []float32{1, 0}, nil, map[string]any{"dom": "b.org", "n": 3}),
	)
	tests := []struct {
		name   string
		filter *qdrant.Filter
		want   []uint64
	}{
		{"keyword", &qdrant.Filter{Must: []*qdrant.Condition{qdrant.NewMatchKeyword("dom", "b.org")}}, []uint64{2, 3}},
		{"keywords", &qdrant.Filter{Must: []*qdrant.Condition{qdrant.NewMatchKeywords("dom", "a.org", "c.org")}}, []uint64{1}},
		{"datetime gte is inclusive; missing fails", &qdrant.Filter{Must: []*qdrant.Condition{
			qdrant.NewDatetimeRange("at", &qdrant.DatetimeRange{Gte: timestamppb.New(day)}),
		}}, []uint64{1, 2}},
		{"datetime to the microsecond", &qdrant.Filter{Must: []*qdrant.Condition{
			qdrant.NewDatetimeRange("at", &qdrant.DatetimeRange{Gt: timestamppb.New(day)}),
		}}, []uint64{2}},
		{"range", &qdrant.Filter{Must: []*qdrant.Condition{qdrant.NewRange("n", &qdrant.Range{Gte: qdrant.PtrOf(2.0)})}}, []uint64{2, 3}},
		{"must not", &qdrant.Filter{MustNot: []*qdrant.Condition{qdrant.NewMatchKeyword("dom", "b.org")}}, []uint64{1}},
		{"should", &qdrant.Filter{Should: []*qdrant.Condition{qdrant.NewMatchInt("n", 1), qdrant.NewMatchInt("n", 3)}}, []uint64{1, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := c.Query(context.Background(), &qdrant.QueryPoints{
				CollectionName: "c", Query: qdrant.NewQueryDense([]float32{1, 0}), Using: qdrant.PtrOf("d"), Filter: tt.filter,
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, ids(res)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}

	// Delete by filter.
	_, err := c.Delete(context.Background(), &qdrant.DeletePoints{
		CollectionName: "c", Points: qdrant.NewPointsSelectorFilter(&qdrant.Filter{Must: []*qdrant.Condition{qdrant.NewMatchKeyword("dom", "b.org")}}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := c.Count(context.Background(), &qdrant.CountPoints{CollectionName: "c"}); err != nil || n != 1 {
		t.Errorf("Count after a delete by filter = %d, %v; want 1", n, err)
	}
}

// TestFaults covers the fault injection itself.
func TestFaults(t *testing.T) {
	srv, c := setup(t)
	ctx := context.Background()
	srv.FailNext("HealthCheck", 2, codes.Unavailable)
	for i := range 3 {
		_, err := c.HealthCheck(ctx)
		if want := i == 2; (err == nil) != want {
			t.Errorf("HealthCheck %d: error %v, want success %v", i, err, want)
		}
	}
	if n := srv.Calls("HealthCheck"); n != 3 {
		t.Errorf("Calls = %d, want 3", n)
	}

	srv.Hang("HealthCheck")
	hctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	_, err := c.HealthCheck(hctx)
	cancel()
	if status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("hung HealthCheck: %v, want DeadlineExceeded", err)
	}
	srv.Release("HealthCheck")
	if _, err := c.HealthCheck(ctx); err != nil {
		t.Errorf("HealthCheck after Release: %v", err)
	}
}
