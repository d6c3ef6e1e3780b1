package retrieval

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/internal/backend"
)

// The names of the two vectors of a point in the collection.
const (
	// QdrantDense is the named dense vector (cosine distance).
	QdrantDense = "dense"
	// QdrantSparse is the named sparse vector of BM25 term weights, with
	// Qdrant's IDF modifier.
	QdrantSparse = "text"
)

// pointNamespace derives Qdrant point IDs (UUIDs) from passage IDs, so that
// upserting a passage again replaces its point. Changing it would orphan
// every stored point.
var pointNamespace = uuid.MustParse("d0a75ce7-cd36-4a7a-9fdc-c33e042b9958")

// Payload keys of a point. domain_key, source_id and published_at carry
// payload indexes.
const (
	payloadID          = "id"
	payloadSourceID    = "source_id"
	payloadOrdinal     = "ordinal"
	payloadText        = "text"
	payloadURL         = "url"
	payloadDomain      = "domain"
	payloadDomainKey   = "domain_key"
	payloadTitle       = "title"
	payloadPublishedAt = "published_at"
	payloadReliability = "reliability"
)

// Bounds of one upsert request: Qdrant's gRPC service takes requests up
// to 32 MiB by default (service.max_request_size_mb).
const (
	qdrantBatchPoints = 256
	qdrantBatchBytes  = 8 << 20
)

// QdrantConfig tunes the Qdrant store. The zero value works.
type QdrantConfig struct {
	// Collection names the collection; default "verity_passages". The
	// store creates it, with its payload indexes, at the first Upsert.
	Collection string
	// CandidateFactor is how many candidates each of the sparse and dense
	// lists contributes to fusion, as a multiple of the query's K; default
	// 3, as in the embedded store.
	CandidateFactor int
	// Timeout bounds each call to Qdrant; default 10 s. A call that runs out
	// of it fails as unavailable, not as the caller's timeout.
	Timeout time.Duration
	// AvgPassageWords is BM25's average document length, in content words,
	// for length normalisation; default 80. It is fixed rather than
	// measured so that every writer computes the same weights.
	AvgPassageWords float64
	// Shards and Replicas are the collection's shard_number (0 to 1,000)
	// and replication_factor (0 to 100) when the store creates it; 0 keeps
	// Qdrant's default of 1. They matter on a Qdrant cluster.
	Shards, Replicas int
	// Logger receives collection events; nil discards them.
	Logger *slog.Logger
}

// Bounds of QdrantConfig.Shards and Replicas.
const (
	maxQdrantShards   = 1000
	maxQdrantReplicas = 100
)

// DefaultQdrantConfig returns the defaults the zero QdrantConfig stands
// for.
func DefaultQdrantConfig() QdrantConfig { return QdrantConfig{}.withDefaults() }

// Validate reports the first setting that cannot work, naming it as
// verity's configuration does (qdrant.timeout). It checks the values as
// given: start from DefaultQdrantConfig. An empty Collection takes the
// default.
func (c QdrantConfig) Validate() error {
	switch {
	case c.Timeout <= 0:
		return fmt.Errorf("qdrant.timeout must be positive, got %v", c.Timeout)
	case c.Shards < 0 || c.Shards > maxQdrantShards:
		return fmt.Errorf("qdrant.shards must be in [0,%d], got %d", maxQdrantShards, c.Shards)
	case c.Replicas < 0 || c.Replicas > maxQdrantReplicas:
		return fmt.Errorf("qdrant.replicas must be in [0,%d], got %d", maxQdrantReplicas, c.Replicas)
	case c.CandidateFactor < 1:
		return fmt.Errorf("retrieval: Qdrant candidate factor must be positive, got %d", c.CandidateFactor)
	case c.AvgPassageWords <= 0:
		return fmt.Errorf("retrieval: Qdrant average passage words must be positive, got %g", c.AvgPassageWords)
	}
	return nil
}

func (c QdrantConfig) withDefaults() QdrantConfig {
	if c.Collection == "" {
		c.Collection = "verity_passages"
	}
	if c.CandidateFactor <= 0 {
		c.CandidateFactor = 3
	}
	if c.Timeout <= 0 {
		c.Timeout = 10 * time.Second
	}
	if c.AvgPassageWords <= 0 {
		c.AvgPassageWords = 80
	}
	return c
}

// Qdrant is the passage store of the scale-out deployment: one Qdrant
// collection whose points hold a passage as payload, a dense vector and a
// sparse BM25 vector. Search is one Query API call with a dense and a
// sparse prefetch fused server-side by reciprocal rank fusion. Writes wait
// for Qdrant to apply them (wait=true), so an Upsert that returned is in
// Qdrant's write-ahead log. It is safe for concurrent use, also by several
// processes.
type Qdrant struct {
	client *qdrant.Client
	cfg    QdrantConfig
	log    *slog.Logger

	// mu guards dim and serialises collection creation.
	mu sync.Mutex
	// dim is the dense dimension of the collection; 0 until the store has
	// seen the collection.
	dim int
}

var _ Store = (*Qdrant)(nil)

// NewQdrant returns a store over client. It does no I/O: a Qdrant that is
// down at start does not stop the process, and Ping reports it.
func NewQdrant(client *qdrant.Client, cfg QdrantConfig) *Qdrant {
	cfg = cfg.withDefaults()
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return &Qdrant{client: client, cfg: cfg, log: log}
}

// DialQdrant returns a client of the Qdrant gRPC endpoint at rawURL:
// "http://host:6334", "https://host:6334" (TLS) or "host:port"; the port
// defaults to 6334, Qdrant's gRPC port (6333 is its REST port, which this
// client does not speak). apiKey, when set, is sent with every call.
// Connecting is lazy, so DialQdrant succeeds while the server is down;
// reconnection backs off to at most 2 s, so that the store recovers soon
// after Qdrant returns. opts are appended to the dial options (tests).
func DialQdrant(rawURL, apiKey string, opts ...grpc.DialOption) (*qdrant.Client, error) {
	cfg, err := qdrantAddress(rawURL)
	if err != nil {
		return nil, err
	}
	cfg.APIKey = apiKey
	cfg.PoolSize = 1 // one HTTP/2 connection multiplexes every call
	cfg.SkipCompatibilityCheck = true
	cfg.GrpcOptions = append([]grpc.DialOption{
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 2 * time.Second},
			MinConnectTimeout: 5 * time.Second,
		}),
		// Room for MaxK hits of long passages (gRPC's default is 4 MiB).
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(32<<20)),
	}, opts...)
	c, err := qdrant.NewClient(cfg)
	if err != nil {
		return nil, fmt.Errorf("qdrant client for %s: %w", rawURL, err)
	}
	return c, nil
}

// qdrantAddress parses the forms DialQdrant accepts.
func qdrantAddress(rawURL string) (*qdrant.Config, error) {
	s := rawURL
	if s == "" {
		return nil, errors.New("qdrant url: empty")
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		// "host:port" parses as a scheme and an opaque part.
		u, err = url.Parse("http://" + s)
	}
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("qdrant url %q: want http://host:6334, https://host:6334 or host:port", rawURL)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("qdrant url %q: scheme %q is not http or https", rawURL, u.Scheme)
	}
	if u.User != nil {
		return nil, errors.New("qdrant url: must not carry a user or password; give the API key as qdrant.api_key")
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
		return nil, fmt.Errorf("qdrant url %q: want only a scheme, host and port", rawURL)
	}
	cfg := &qdrant.Config{Host: u.Hostname(), Port: 6334, UseTLS: u.Scheme == "https"}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return nil, fmt.Errorf("qdrant url %q: bad port %q", rawURL, p)
		}
		cfg.Port = n
	}
	if cfg.Host == "" {
		return nil, fmt.Errorf("qdrant url %q: no host", rawURL)
	}
	return cfg, nil
}

// BackendError is a failed call to Qdrant. The HTTP layer answers it with
// 503 naming the backend when its Unavailable method reports true: Qdrant
// could not be reached, cut the call off, is overloaded or ran out of
// QdrantConfig.Timeout.
type BackendError = backend.Error

// qdrantTransient reports the gRPC codes of a Qdrant that is down or
// overloaded; grpc-go reports a connection that cannot be made or breaks as
// Unavailable.
func qdrantTransient(err error) bool {
	var re *qdrant.QdrantResourceExhaustedError
	if errors.As(err, &re) {
		return true
	}
	switch status.Code(err) {
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted, codes.Aborted:
		return true
	}
	return false
}

// call runs f with the store's time limit and wraps its error.
func (q *Qdrant) call(ctx context.Context, op string, f func(ctx context.Context) error) error {
	return backend.Call(ctx, "qdrant", op, q.cfg.Timeout, qdrantTransient, f)
}

// Ping checks that Qdrant answers, for /readyz.
func (q *Qdrant) Ping(ctx context.Context) error {
	return q.call(ctx, "ping", func(ctx context.Context) error {
		_, err := q.client.HealthCheck(ctx)
		return err
	})
}

// Count returns the number of points in the collection; 0 when it does
// not exist yet.
func (q *Qdrant) Count(ctx context.Context) (int, error) {
	var n uint64
	err := q.call(ctx, "count", func(ctx context.Context) error {
		var err error
		n, err = q.client.Count(ctx, &qdrant.CountPoints{CollectionName: q.cfg.Collection, Exact: qdrant.PtrOf(true)})
		return err
	})
	if isNotFound(err) {
		return 0, nil
	}
	return int(n), err
}

// isNotFound reports a collection that does not exist.
func isNotFound(err error) bool { return err != nil && status.Code(err) == codes.NotFound }

// collectionDim returns the dense dimension of the collection, reading it
// from Qdrant the first time; 0 when the collection does not exist.
func (q *Qdrant) collectionDim(ctx context.Context) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.loadDimLocked(ctx)
}

func (q *Qdrant) loadDimLocked(ctx context.Context) (int, error) {
	if q.dim > 0 {
		return q.dim, nil
	}
	var info *qdrant.CollectionInfo
	err := q.call(ctx, "read collection", func(ctx context.Context) error {
		var err error
		info, err = q.client.GetCollectionInfo(ctx, q.cfg.Collection)
		return err
	})
	if isNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	dim, err := checkCollection(q.cfg.Collection, info)
	if err != nil {
		return 0, err
	}
	q.dim = dim
	return dim, nil
}

// checkCollection checks that a collection has the vectors this store
// writes and returns the dense dimension.
func checkCollection(name string, info *qdrant.CollectionInfo) (int, error) {
	params := info.GetConfig().GetParams()
	dense := params.GetVectorsConfig().GetParamsMap().GetMap()[QdrantDense]
	sparse, ok := params.GetSparseVectorsConfig().GetMap()[QdrantSparse]
	switch {
	case dense == nil || dense.GetSize() == 0:
		return 0, fmt.Errorf("qdrant collection %q has no dense vector named %q: it was not made by verity; name another collection", name, QdrantDense)
	case dense.GetDistance() != qdrant.Distance_Cosine:
		return 0, fmt.Errorf("qdrant collection %q: vector %q uses %v distance, want Cosine", name, QdrantDense, dense.GetDistance())
	case !ok:
		return 0, fmt.Errorf("qdrant collection %q has no sparse vector named %q: it was not made by verity; name another collection", name, QdrantSparse)
	case sparse.GetModifier() != qdrant.Modifier_Idf:
		return 0, fmt.Errorf("qdrant collection %q: sparse vector %q lacks the IDF modifier that BM25 needs", name, QdrantSparse)
	}
	return int(dense.GetSize()), nil
}

// ensureCollection creates the collection with dense dimension dim and its
// payload indexes unless it exists, and returns the collection's
// dimension. Another process creating it at the same time is not an error.
func (q *Qdrant) ensureCollection(ctx context.Context, dim int) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if have, err := q.loadDimLocked(ctx); err != nil || have > 0 {
		return have, err
	}
	req := &qdrant.CreateCollection{
		CollectionName: q.cfg.Collection,
		VectorsConfig: qdrant.NewVectorsConfigMap(map[string]*qdrant.VectorParams{
			QdrantDense: {Size: uint64(dim), Distance: qdrant.Distance_Cosine},
		}),
		SparseVectorsConfig: qdrant.NewSparseVectorsConfig(map[string]*qdrant.SparseVectorParams{
			QdrantSparse: {Modifier: qdrant.Modifier_Idf.Enum()},
		}),
	}
	// Validate bounds both far below MaxUint32.
	if q.cfg.Shards > 0 {
		req.ShardNumber = qdrant.PtrOf(uint32(min(q.cfg.Shards, maxQdrantShards)))
	}
	if q.cfg.Replicas > 0 {
		req.ReplicationFactor = qdrant.PtrOf(uint32(min(q.cfg.Replicas, maxQdrantReplicas)))
	}
	err := q.call(ctx, "create collection", func(ctx context.Context) error {
		return q.client.CreateCollection(ctx, req)
	})
	if err != nil {
		// Another process may have created it first: Qdrant answers
		// AlreadyExists, or InvalidArgument in older versions.
		if c := status.Code(err); c != codes.AlreadyExists && c != codes.InvalidArgument {
			return 0, err
		}
		if have, lerr := q.loadDimLocked(ctx); lerr != nil || have == 0 {
			return 0, err
		}
	} else {
		q.log.Info("created qdrant collection", "collection", q.cfg.Collection, "dim", dim)
	}
	// Indexes are created on every first write of a process: creating an
	// existing index is a no-op, and a process that lost a creation race
	// must not leave them missing.
	for field, typ := range map[string]qdrant.FieldType{
		payloadDomainKey:   qdrant.FieldType_FieldTypeKeyword,
		payloadSourceID:    qdrant.FieldType_FieldTypeKeyword,
		payloadPublishedAt: qdrant.FieldType_FieldTypeDatetime,
	} {
		err := q.call(ctx, "create payload index", func(ctx context.Context) error {
			_, err := q.client.CreateFieldIndex(ctx, &qdrant.CreateFieldIndexCollection{
				CollectionName: q.cfg.Collection, FieldName: field, FieldType: typ.Enum(), Wait: qdrant.PtrOf(true),
			})
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	return q.loadDimLocked(ctx)
}

// Upsert implements Store. Every passage needs an ID, a source ID, text and
// a finite vector whose dimension matches the collection's (any dimension
// when the collection does not exist yet; the first Upsert creates it). A
// passage with an all-zero vector is found by its text only. A batch is written in requests of at most 256 points, each
// applied whole; a failure part way leaves the earlier requests applied,
// which a retry of the batch replaces.
func (q *Qdrant) Upsert(ctx context.Context, passages []evidence.Passage, vecs [][]float32) error {
	units, err := validateBatch(passages, vecs)
	if err != nil || len(units) == 0 {
		return err
	}
	dim := len(units[0])
	points := make([]*qdrant.PointStruct, len(passages))
	for i, p := range passages {
		points[i] = q.point(p, units[i])
	}
	have, err := q.ensureCollection(ctx, dim)
	if err != nil {
		return err
	}
	if have != dim {
		return fmt.Errorf("upsert: vectors have %d dimensions; qdrant collection %q holds %d-dimensional vectors (re-index to change embedders)", dim, q.cfg.Collection, have)
	}
	for start := 0; start < len(points); {
		end, size := start, 0
		for end < len(points) && end-start < qdrantBatchPoints && (end == start || size < qdrantBatchBytes) {
			size += len(passages[end].Text) + len(passages[end].Title) + 4*dim
			end++
		}
		if err := q.upsertBatch(ctx, points[start:end], dim); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// upsertBatch writes one request. A collection deleted behind the store's
// back is created again and the request sent once more.
func (q *Qdrant) upsertBatch(ctx context.Context, batch []*qdrant.PointStruct, dim int) error {
	send := func() error {
		return q.call(ctx, "upsert", func(ctx context.Context) error {
			_, err := q.client.Upsert(ctx, &qdrant.UpsertPoints{CollectionName: q.cfg.Collection, Points: batch, Wait: qdrant.PtrOf(true)})
			return err
		})
	}
	err := send()
	if !isNotFound(err) {
		return err
	}
	q.forgetCollection()
	if _, err := q.ensureCollection(ctx, dim); err != nil {
		return err
	}
	return send()
}

// forgetCollection drops what the store knows of a collection that was
// deleted behind its back, so that the next write creates it again.
func (q *Qdrant) forgetCollection() {
	q.mu.Lock()
	q.dim = 0
	q.mu.Unlock()
}

// QdrantPointID is the Qdrant point ID of a passage: a UUID derived from
// its ID, so that upserting a passage again replaces its point.
func QdrantPointID(passageID string) *qdrant.PointId {
	return qdrant.NewIDUUID(uuid.NewSHA1(pointNamespace, []byte(passageID)).String())
}

// point turns a validated passage and its unit vector into a point.
func (q *Qdrant) point(p evidence.Passage, unit []float32) *qdrant.PointStruct {
	payload := map[string]*qdrant.Value{
		payloadID:          qdrant.NewValueString(p.ID),
		payloadSourceID:    qdrant.NewValueString(p.SourceID),
		payloadOrdinal:     qdrant.NewValueInt(int64(p.Ordinal)),
		payloadText:        qdrant.NewValueString(p.Text),
		payloadURL:         qdrant.NewValueString(p.URL),
		payloadDomain:      qdrant.NewValueString(p.Domain),
		payloadDomainKey:   qdrant.NewValueString(domainKey(p.Domain)),
		payloadTitle:       qdrant.NewValueString(p.Title),
		payloadReliability: qdrant.NewValueDouble(p.Reliability),
	}
	if !p.PublishedAt.IsZero() {
		// Microseconds, the precision of the embedded store and of Qdrant's
		// datetime index.
		payload[payloadPublishedAt] = qdrant.NewValueString(p.PublishedAt.UTC().Truncate(time.Microsecond).Format(time.RFC3339Nano))
	}
	// Each vector is left out when it says nothing: a zero dense vector has
	// no direction (Qdrant would score it 0 for every query and return it
	// among the nearest), a text of stopwords no term. A point keeps at
	// least its sparse vector.
	vecs := map[string]*qdrant.Vector{}
	if !isZero(unit) {
		vecs[QdrantDense] = qdrant.NewVectorDense(unit)
	}
	if sp := documentSparse(p.Text, p.Title, q.cfg.AvgPassageWords); len(sp.indices) > 0 || len(vecs) == 0 {
		vecs[QdrantSparse] = qdrant.NewVectorSparse(sp.indices, sp.values)
	}
	return &qdrant.PointStruct{Id: QdrantPointID(p.ID), Payload: payload, Vectors: qdrant.NewVectorsMap(vecs)}
}

// Search implements Store. It sends one Query API request whose prefetches
// rank by BM25 (the sparse vector of q.Text's content terms; stopwords
// dropped) and, when q.Vector is given and not all zeros, by cosine
// similarity, each taking
// CandidateFactor*K candidates under q.Filter, fused by reciprocal rank
// fusion with RRFK. Text that is only stopwords or punctuation ranks
// nothing. K must be positive; above MaxK it is MaxK.
func (q *Qdrant) Search(ctx context.Context, qr Query) ([]Hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	if qr.K < 1 {
		return nil, evidence.Invalid("k", "must be at least 1, got %d", qr.K)
	}
	k := min(qr.K, MaxK)
	var unit []float32
	if len(qr.Vector) > 0 {
		var err error
		unit, err = normalize(qr.Vector)
		switch {
		case errors.Is(err, errZeroVector):
			unit = nil // no direction: the text alone ranks
		case err != nil:
			return nil, fmt.Errorf("search: query %w", err)
		}
	}
	dim, err := q.collectionDim(ctx)
	if err != nil {
		return nil, err
	}
	if dim == 0 {
		return []Hit{}, nil // no collection yet: nothing was stored
	}
	if len(qr.Vector) > 0 && len(qr.Vector) != dim {
		return nil, fmt.Errorf("search: query vector has %d dimensions; this store holds %d-dimensional vectors", len(qr.Vector), dim)
	}

	n := qdrant.PtrOf(uint64(k * q.cfg.CandidateFactor))
	filter := qdrantFilter(qr.Filter)
	var prefetch []*qdrant.PrefetchQuery
	if unit != nil {
		prefetch = append(prefetch, &qdrant.PrefetchQuery{
			Query: qdrant.NewQueryDense(unit), Using: qdrant.PtrOf(QdrantDense), Filter: filter, Limit: n,
		})
	}
	if sp := querySparse(qr.Text); len(sp.indices) > 0 {
		prefetch = append(prefetch, &qdrant.PrefetchQuery{
			Query: qdrant.NewQuerySparse(sp.indices, sp.values), Using: qdrant.PtrOf(QdrantSparse), Filter: filter, Limit: n,
		})
	}
	if len(prefetch) == 0 {
		return []Hit{}, nil
	}
	// The filter is given to every prefetch and to the fusion: each list
	// must be filtered before it is cut to its candidates.
	req := &qdrant.QueryPoints{
		CollectionName: q.cfg.Collection,
		Prefetch:       prefetch,
		Query:          qdrant.NewQueryRRF(&qdrant.Rrf{K: qdrant.PtrOf(uint32(RRFK))}),
		Filter:         filter,
		Limit:          qdrant.PtrOf(uint64(k)),
		WithPayload:    qdrant.NewWithPayload(true),
	}
	var res []*qdrant.ScoredPoint
	err = q.call(ctx, "search", func(ctx context.Context) error {
		var err error
		res, err = q.client.Query(ctx, req)
		return err
	})
	if isNotFound(err) {
		q.forgetCollection()
		return []Hit{}, nil
	}
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(res))
	for _, sp := range res {
		p, err := passageFromPayload(sp.GetPayload())
		if err != nil {
			return nil, fmt.Errorf("search: qdrant point %v: %w", sp.GetId(), err)
		}
		hits = append(hits, Hit{Passage: p, Score: float64(sp.GetScore())})
	}
	// Equal scores in ID order, as the embedded store breaks ties.
	slices.SortStableFunc(hits, func(a, b Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Passage.ID, b.Passage.ID))
	})
	return hits, nil
}

// qdrantFilter translates a Filter; nil for the zero Filter.
func qdrantFilter(f Filter) *qdrant.Filter {
	var must []*qdrant.Condition
	if len(f.Domains) > 0 {
		keys := make([]string, 0, len(f.Domains))
		for _, d := range f.Domains {
			keys = append(keys, domainKey(d))
		}
		slices.Sort(keys)
		must = append(must, qdrant.NewMatchKeywords(payloadDomainKey, slices.Compact(keys)...))
	}
	if !f.Since.IsZero() {
		// A point without published_at fails the range, as an undated
		// passage must fail a Since filter.
		must = append(must, qdrant.NewDatetimeRange(payloadPublishedAt, &qdrant.DatetimeRange{Gte: timestamppb.New(f.Since)}))
	}
	if len(must) == 0 {
		return nil
	}
	return &qdrant.Filter{Must: must}
}

// passageFromPayload reads back a passage that point wrote.
func passageFromPayload(pl map[string]*qdrant.Value) (evidence.Passage, error) {
	p := evidence.Passage{
		ID:          pl[payloadID].GetStringValue(),
		SourceID:    pl[payloadSourceID].GetStringValue(),
		Ordinal:     int(pl[payloadOrdinal].GetIntegerValue()),
		Text:        pl[payloadText].GetStringValue(),
		URL:         pl[payloadURL].GetStringValue(),
		Domain:      pl[payloadDomain].GetStringValue(),
		Title:       pl[payloadTitle].GetStringValue(),
		Reliability: pl[payloadReliability].GetDoubleValue(),
	}
	if p.ID == "" || p.SourceID == "" {
		return evidence.Passage{}, errors.New("payload lacks the passage or source id: not a verity point")
	}
	if v, ok := pl[payloadPublishedAt]; ok {
		t, err := time.Parse(time.RFC3339Nano, v.GetStringValue())
		if err != nil {
			return evidence.Passage{}, fmt.Errorf("published_at: %w", err)
		}
		p.PublishedAt = t.UTC()
	}
	return p, nil
}

// DeleteSource implements Store: one delete by a filter on source_id.
// Deleting a source with no passages is not an error.
func (q *Qdrant) DeleteSource(ctx context.Context, sourceID string) error {
	err := q.call(ctx, "delete source", func(ctx context.Context) error {
		_, err := q.client.Delete(ctx, &qdrant.DeletePoints{
			CollectionName: q.cfg.Collection,
			Points:         qdrant.NewPointsSelectorFilter(&qdrant.Filter{Must: []*qdrant.Condition{qdrant.NewMatchKeyword(payloadSourceID, sourceID)}}),
			Wait:           qdrant.PtrOf(true),
		})
		return err
	})
	if isNotFound(err) {
		q.forgetCollection()
		return nil
	}
	return err
}
