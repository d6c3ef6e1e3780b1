package qdranttest

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/protobuf/proto"
)

// pointsService implements qdrant.PointsServer.
type pointsService struct {
	qdrant.UnimplementedPointsServer
	data *store
}

func done() *qdrant.PointsOperationResponse {
	return &qdrant.PointsOperationResponse{Result: &qdrant.UpdateResult{Status: qdrant.UpdateStatus_Completed}}
}

// Upsert validates every point first and then applies them all, as one
// Qdrant operation is applied whole.
func (s *pointsService) Upsert(_ context.Context, req *qdrant.UpsertPoints) (*qdrant.PointsOperationResponse, error) {
	if req.UpdateFilter != nil || req.GetShardKeySelector() != nil {
		return nil, unsupported("conditional or sharded upserts")
	}
	s.data.mu.Lock()
	defer s.data.mu.Unlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	pts := make([]*point, 0, len(req.GetPoints()))
	for _, ps := range req.GetPoints() {
		p, err := c.parsePoint(ps)
		if err != nil {
			return nil, err
		}
		pts = append(pts, p)
	}
	for _, p := range pts {
		c.points[p.key] = p
	}
	return done(), nil
}

// parsePoint checks a point against the collection's vectors.
func (c *collection) parsePoint(ps *qdrant.PointStruct) (*point, error) {
	key, err := pointKey(ps.GetId())
	if err != nil {
		return nil, err
	}
	p := &point{id: proto.Clone(ps.GetId()).(*qdrant.PointId), key: key, dense: map[string][]float32{}, sparse: map[string]sparseVec{}, payload: map[string]*qdrant.Value{}}
	for k, v := range ps.GetPayload() {
		p.payload[k] = proto.Clone(v).(*qdrant.Value)
	}
	named := map[string]*qdrant.Vector{}
	switch v := ps.GetVectors().GetVectorsOptions().(type) {
	case *qdrant.Vectors_Vector:
		named[""] = v.Vector
	case *qdrant.Vectors_Vectors:
		named = v.Vectors.GetVectors()
	}
	for name, v := range named {
		dense, sp, err := parseVector(v)
		if err != nil {
			return nil, err
		}
		if sp != nil {
			if _, ok := c.sparse[name]; !ok {
				return nil, badInput("Not existing vector name error: %s", name)
			}
			p.sparse[name] = *sp
			continue
		}
		params, ok := c.dense[name]
		if !ok {
			return nil, badInput("Not existing vector name error: %s", name)
		}
		if uint64(len(dense)) != params.GetSize() {
			return nil, badInput("Vector dimension error: expected dim: %d, got %d", params.GetSize(), len(dense))
		}
		if params.GetDistance() == qdrant.Distance_Cosine {
			dense = unit(dense)
		}
		p.dense[name] = dense
	}
	return p, nil
}

// parseVector reads a dense or sparse vector in the current form (a oneof).
func parseVector(v *qdrant.Vector) ([]float32, *sparseVec, error) {
	switch x := v.GetVector().(type) {
	case *qdrant.Vector_Dense:
		return slices.Clone(x.Dense.GetData()), nil, nil
	case *qdrant.Vector_Sparse:
		sp, err := newSparse(x.Sparse.GetIndices(), x.Sparse.GetValues())
		return nil, sp, err
	}
	// The deprecated form (data, with indices when sparse) is not read:
	// the client only sends the oneof.
	return nil, nil, unsupported("multi-dense, inference and deprecated data/indices vectors")
}

func newSparse(indices []uint32, values []float32) (*sparseVec, error) {
	if len(indices) != len(values) {
		return nil, badInput("Sparse vector indices and values must have the same length, got %d and %d", len(indices), len(values))
	}
	order := make([]int, len(indices))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(indices[a], indices[b]) })
	sp := &sparseVec{indices: make([]uint32, len(order)), values: make([]float32, len(order))}
	for i, o := range order {
		if i > 0 && indices[o] == sp.indices[i-1] {
			return nil, badInput("Sparse vector indices must be unique")
		}
		sp.indices[i], sp.values[i] = indices[o], values[o]
	}
	return sp, nil
}

func unit(v []float32) []float32 {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return v
	}
	inv := 1 / math.Sqrt(sum)
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) * inv)
	}
	return out
}

func (s *pointsService) Delete(_ context.Context, req *qdrant.DeletePoints) (*qdrant.PointsOperationResponse, error) {
	s.data.mu.Lock()
	defer s.data.mu.Unlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	switch sel := req.GetPoints().GetPointsSelectorOneOf().(type) {
	case *qdrant.PointsSelector_Points:
		for _, id := range sel.Points.GetIds() {
			key, err := pointKey(id)
			if err != nil {
				return nil, err
			}
			delete(c.points, key)
		}
	case *qdrant.PointsSelector_Filter:
		var doomed []string
		for key, p := range c.points {
			ok, err := matches(sel.Filter, p)
			if err != nil {
				return nil, err
			}
			if ok {
				doomed = append(doomed, key)
			}
		}
		for _, key := range doomed {
			delete(c.points, key)
		}
	default:
		return nil, badInput("points selector is required")
	}
	return done(), nil
}

func (s *pointsService) Count(_ context.Context, req *qdrant.CountPoints) (*qdrant.CountResponse, error) {
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	var n uint64
	for _, p := range c.points {
		ok, err := matches(req.GetFilter(), p)
		if err != nil {
			return nil, err
		}
		if ok {
			n++
		}
	}
	return &qdrant.CountResponse{Result: &qdrant.CountResult{Count: n}}, nil
}

// fieldSchema maps the type of a new payload index to its schema type.
var fieldSchema = map[qdrant.FieldType]qdrant.PayloadSchemaType{
	qdrant.FieldType_FieldTypeKeyword:  qdrant.PayloadSchemaType_Keyword,
	qdrant.FieldType_FieldTypeInteger:  qdrant.PayloadSchemaType_Integer,
	qdrant.FieldType_FieldTypeFloat:    qdrant.PayloadSchemaType_Float,
	qdrant.FieldType_FieldTypeGeo:      qdrant.PayloadSchemaType_Geo,
	qdrant.FieldType_FieldTypeText:     qdrant.PayloadSchemaType_Text,
	qdrant.FieldType_FieldTypeBool:     qdrant.PayloadSchemaType_Bool,
	qdrant.FieldType_FieldTypeDatetime: qdrant.PayloadSchemaType_Datetime,
	qdrant.FieldType_FieldTypeUuid:     qdrant.PayloadSchemaType_Uuid,
}

func (s *pointsService) CreateFieldIndex(_ context.Context, req *qdrant.CreateFieldIndexCollection) (*qdrant.PointsOperationResponse, error) {
	s.data.mu.Lock()
	defer s.data.mu.Unlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	if req.GetFieldName() == "" || req.FieldType == nil {
		return nil, badInput("field name and type are required")
	}
	typ, ok := fieldSchema[req.GetFieldType()]
	if !ok {
		return nil, badInput("unknown field type %v", req.GetFieldType())
	}
	c.schema[req.GetFieldName()] = &qdrant.PayloadSchemaInfo{DataType: typ}
	return done(), nil
}

func (s *pointsService) Get(_ context.Context, req *qdrant.GetPoints) (*qdrant.GetResponse, error) {
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	// Retrieving points returns their payload unless asked not to.
	sel := req.GetWithPayload()
	if sel == nil {
		sel = qdrant.NewWithPayload(true)
	}
	out := &qdrant.GetResponse{}
	for _, id := range req.GetIds() {
		key, err := pointKey(id)
		if err != nil {
			return nil, err
		}
		if p, ok := c.points[key]; ok {
			out.Result = append(out.Result, &qdrant.RetrievedPoint{
				Id: proto.Clone(p.id).(*qdrant.PointId), Payload: selectPayload(sel, p.payload),
				Vectors: p.vectorsOutput(req.GetWithVectors()),
			})
		}
	}
	return out, nil
}

// vectorsOutput returns the point's vectors when sel asks for them.
func (p *point) vectorsOutput(sel *qdrant.WithVectorsSelector) *qdrant.VectorsOutput {
	if !sel.GetEnable() {
		return nil
	}
	named := map[string]*qdrant.VectorOutput{}
	for n, v := range p.dense {
		named[n] = &qdrant.VectorOutput{Vector: &qdrant.VectorOutput_Dense{Dense: &qdrant.DenseVector{Data: slices.Clone(v)}}}
	}
	for n, v := range p.sparse {
		named[n] = &qdrant.VectorOutput{Vector: &qdrant.VectorOutput_Sparse{Sparse: &qdrant.SparseVector{Indices: slices.Clone(v.indices), Values: slices.Clone(v.values)}}}
	}
	return &qdrant.VectorsOutput{VectorsOptions: &qdrant.VectorsOutput_Vectors{Vectors: &qdrant.NamedVectorsOutput{Vectors: named}}}
}

// selectPayload returns the part of payload that sel asks for; none when
// sel is nil, as the Query API answers by default.
func selectPayload(sel *qdrant.WithPayloadSelector, payload map[string]*qdrant.Value) map[string]*qdrant.Value {
	keep := func(string) bool { return false }
	switch o := sel.GetSelectorOptions().(type) {
	case *qdrant.WithPayloadSelector_Enable:
		keep = func(string) bool { return o.Enable }
	case *qdrant.WithPayloadSelector_Include:
		keep = func(k string) bool { return slices.Contains(o.Include.GetFields(), k) }
	case *qdrant.WithPayloadSelector_Exclude:
		keep = func(k string) bool { return !slices.Contains(o.Exclude.GetFields(), k) }
	}
	out := map[string]*qdrant.Value{}
	for k, v := range payload {
		if keep(k) {
			out[k] = proto.Clone(v).(*qdrant.Value)
		}
	}
	return out
}

// scored is a point with its score in one ranked list.
type scored struct {
	p     *point
	score float64
}

// defaultRRFK is Qdrant's constant of reciprocal rank fusion when a query
// names none.
const defaultRRFK = 2

func (s *pointsService) Query(_ context.Context, req *qdrant.QueryPoints) (*qdrant.QueryResponse, error) {
	if req.GetLookupFrom() != nil || req.GetShardKeySelector() != nil {
		return nil, unsupported("lookup_from and shard keys")
	}
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	limit := uint64(10)
	if req.Limit != nil {
		limit = req.GetLimit()
	}
	var threshold *float64
	if req.ScoreThreshold != nil {
		t := float64(req.GetScoreThreshold())
		threshold = &t
	}
	ranked, err := c.run(req.GetPrefetch(), req.GetQuery(), req.GetUsing(), []*qdrant.Filter{req.GetFilter()}, threshold, limit+req.GetOffset())
	if err != nil {
		return nil, err
	}
	ranked = ranked[min(uint64(len(ranked)), req.GetOffset()):]
	out := &qdrant.QueryResponse{Result: make([]*qdrant.ScoredPoint, 0, len(ranked))}
	for _, r := range ranked {
		out.Result = append(out.Result, &qdrant.ScoredPoint{
			Id: proto.Clone(r.p.id).(*qdrant.PointId), Score: float32(r.score),
			Payload: selectPayload(req.GetWithPayload(), r.p.payload), Vectors: r.p.vectorsOutput(req.GetWithVectors()),
		})
	}
	return out, nil
}

// run evaluates one level of a query: its prefetches, then its own query
// over their candidates (or over every point when it has none), under every
// filter of filters (a query's filter applies to its prefetches too).
func (c *collection) run(prefetch []*qdrant.PrefetchQuery, q *qdrant.Query, using string, filters []*qdrant.Filter, threshold *float64, limit uint64) ([]scored, error) {
	if len(prefetch) == 0 {
		if q == nil {
			return nil, unsupported("queries without a query (scroll through Query)")
		}
		nearest := q.GetNearest()
		if nearest == nil {
			return nil, unsupported("this query kind without prefetch; only nearest is")
		}
		cands, err := c.filtered(c.allPoints(), filters)
		if err != nil {
			return nil, err
		}
		return c.nearest(nearest, using, cands, threshold, limit)
	}

	lists := make([][]scored, len(prefetch))
	for i, pf := range prefetch {
		pfLimit := uint64(10)
		if pf.Limit != nil {
			pfLimit = pf.GetLimit()
		}
		var pfThreshold *float64
		if pf.ScoreThreshold != nil {
			t := float64(pf.GetScoreThreshold())
			pfThreshold = &t
		}
		var err error
		lists[i], err = c.run(pf.GetPrefetch(), pf.GetQuery(), pf.GetUsing(), append(slices.Clone(filters), pf.GetFilter()), pfThreshold, pfLimit)
		if err != nil {
			return nil, err
		}
	}
	switch v := q.GetVariant().(type) {
	case *qdrant.Query_Fusion:
		if v.Fusion != qdrant.Fusion_RRF {
			return nil, unsupported("fusion other than RRF")
		}
		return fuse(lists, defaultRRFK, threshold, limit), nil
	case *qdrant.Query_Rrf:
		if len(v.Rrf.GetWeights()) > 0 {
			return nil, unsupported("weighted RRF")
		}
		k := defaultRRFK
		if v.Rrf.K != nil {
			k = int(v.Rrf.GetK())
		}
		return fuse(lists, k, threshold, limit), nil
	case *qdrant.Query_Nearest:
		// Re-score the union of the candidates.
		seen := map[string]bool{}
		var cands []*point
		for _, l := range lists {
			for _, r := range l {
				if !seen[r.p.key] {
					seen[r.p.key] = true
					cands = append(cands, r.p)
				}
			}
		}
		return c.nearest(v.Nearest, using, cands, threshold, limit)
	case nil:
		return nil, badInput("a query with prefetch needs a query (fusion or nearest)")
	}
	return nil, unsupported("this query kind")
}

func (c *collection) allPoints() []*point {
	out := make([]*point, 0, len(c.points))
	for _, p := range c.points {
		out = append(out, p)
	}
	return out
}

func (c *collection) filtered(ps []*point, filters []*qdrant.Filter) ([]*point, error) {
	out := ps[:0:0]
	for _, p := range ps {
		keep := true
		for _, f := range filters {
			ok, err := matches(f, p)
			if err != nil {
				return nil, err
			}
			keep = keep && ok
		}
		if keep {
			out = append(out, p)
		}
	}
	return out, nil
}

// nearest ranks cands by similarity to the query vector in the named
// vector space using.
func (c *collection) nearest(in *qdrant.VectorInput, using string, cands []*point, threshold *float64, limit uint64) ([]scored, error) {
	var out []scored
	switch v := in.GetVariant().(type) {
	case *qdrant.VectorInput_Dense:
		params, ok := c.dense[using]
		if !ok {
			return nil, badInput("Not existing vector name error: %s", using)
		}
		q := v.Dense.GetData()
		if uint64(len(q)) != params.GetSize() {
			return nil, badInput("Vector dimension error: expected dim: %d, got %d", params.GetSize(), len(q))
		}
		switch params.GetDistance() {
		case qdrant.Distance_Cosine:
			q = unit(q)
		case qdrant.Distance_Dot:
		default:
			return nil, unsupported("distances other than cosine and dot")
		}
		for _, p := range cands {
			if vec, ok := p.dense[using]; ok {
				out = append(out, scored{p: p, score: dot(q, vec)})
			}
		}
	case *qdrant.VectorInput_Sparse:
		params, ok := c.sparse[using]
		if !ok {
			return nil, badInput("Not existing vector name error: %s", using)
		}
		q, err := newSparse(v.Sparse.GetIndices(), v.Sparse.GetValues())
		if err != nil {
			return nil, err
		}
		if params.GetModifier() == qdrant.Modifier_Idf {
			q = c.withIDF(using, q)
		}
		for _, p := range cands {
			if vec, ok := p.sparse[using]; ok {
				if s, overlap := sparseDot(*q, vec); overlap {
					out = append(out, scored{p: p, score: s})
				}
			}
		}
	default:
		return nil, unsupported("nearest queries other than dense and sparse vectors")
	}
	return rank(out, threshold, limit), nil
}

// withIDF multiplies each query weight by the term's inverse document
// frequency over the collection, Qdrant's formula:
// ln(1 + (N − n + 0.5) / (n + 0.5)).
func (c *collection) withIDF(name string, q *sparseVec) *sparseVec {
	n := 0
	df := make(map[uint32]int, len(q.indices))
	for _, p := range c.points {
		vec, ok := p.sparse[name]
		if !ok {
			continue
		}
		n++
		for _, i := range q.indices {
			if _, found := slices.BinarySearch(vec.indices, i); found {
				df[i]++
			}
		}
	}
	out := &sparseVec{indices: q.indices, values: make([]float32, len(q.values))}
	for j, i := range q.indices {
		idf := math.Log(1 + (float64(n)-float64(df[i])+0.5)/(float64(df[i])+0.5))
		out.values[j] = q.values[j] * float32(idf)
	}
	return out
}

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

// sparseDot is the dot product of two sparse vectors and whether they share
// an index.
func sparseDot(a, b sparseVec) (float64, bool) {
	var s float64
	overlap := false
	for i, j := 0, 0; i < len(a.indices) && j < len(b.indices); {
		switch {
		case a.indices[i] < b.indices[j]:
			i++
		case a.indices[i] > b.indices[j]:
			j++
		default:
			s += float64(a.values[i]) * float64(b.values[j])
			overlap = true
			i++
			j++
		}
	}
	return s, overlap
}

// fuse merges ranked lists by reciprocal rank fusion as Qdrant does: a
// point at 0-based position r of a list scores 1/(k+r).
func fuse(lists [][]scored, k int, threshold *float64, limit uint64) []scored {
	sum := map[string]*scored{}
	for _, l := range lists {
		for r, s := range l {
			e := sum[s.p.key]
			if e == nil {
				e = &scored{p: s.p}
				sum[s.p.key] = e
			}
			e.score += 1 / float64(k+r)
		}
	}
	out := make([]scored, 0, len(sum))
	for _, e := range sum {
		out = append(out, *e)
	}
	return rank(out, threshold, limit)
}

// rank sorts best first (ties by point ID), drops scores under threshold
// and keeps limit.
func rank(out []scored, threshold *float64, limit uint64) []scored {
	slices.SortFunc(out, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.p.key, b.p.key))
	})
	if threshold != nil {
		out = slices.DeleteFunc(out, func(s scored) bool { return s.score < *threshold })
	}
	if uint64(len(out)) > limit {
		out = out[:limit]
	}
	return out
}
