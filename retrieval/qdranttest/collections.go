package qdranttest

import (
	"context"
	"slices"
	"strconv"
	"sync"

	"github.com/google/uuid"
	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// maxDim is Qdrant's bound on a dense vector's size.
const maxDim = 65536

// store is the server's data. It outlives the gRPC server across Stop and
// Restart.
type store struct {
	mu          sync.RWMutex
	collections map[string]*collection
}

func newStore() *store { return &store{collections: map[string]*collection{}} }

// collection is one collection: its vector configuration, payload indexes
// and points.
type collection struct {
	params *qdrant.CollectionParams
	dense  map[string]*qdrant.VectorParams // "" names the unnamed vector
	sparse map[string]*qdrant.SparseVectorParams
	schema map[string]*qdrant.PayloadSchemaInfo
	points map[string]*point // by pointKey
}

// point is one stored point. Dense vectors of a cosine collection are kept
// normalised, as Qdrant keeps them.
type point struct {
	id      *qdrant.PointId
	key     string
	dense   map[string][]float32
	sparse  map[string]sparseVec
	payload map[string]*qdrant.Value
}

type sparseVec struct {
	indices []uint32 // ascending
	values  []float32
}

func notFound(name string) error {
	return status.Errorf(codes.NotFound, "Not found: Collection `%s` doesn't exist!", name)
}

func badInput(format string, args ...any) error {
	return status.Errorf(codes.InvalidArgument, "Wrong input: "+format, args...)
}

func unsupported(what string) error {
	return status.Errorf(codes.Unimplemented, "qdranttest does not implement %s", what)
}

// pointKey is the canonical form of a point ID: a number in decimal, a UUID
// in lower-case hyphenated form.
func pointKey(id *qdrant.PointId) (string, error) {
	switch v := id.GetPointIdOptions().(type) {
	case *qdrant.PointId_Num:
		return "n:" + strconv.FormatUint(v.Num, 10), nil
	case *qdrant.PointId_Uuid:
		u, err := uuid.Parse(v.Uuid)
		if err != nil {
			return "", badInput("Unable to parse UUID: %s", v.Uuid)
		}
		return "u:" + u.String(), nil
	}
	return "", badInput("point id is missing")
}

// collectionsService implements qdrant.CollectionsServer.
type collectionsService struct {
	qdrant.UnimplementedCollectionsServer
	data *store
}

func (s *collectionsService) Create(_ context.Context, req *qdrant.CreateCollection) (*qdrant.CollectionOperationResponse, error) {
	name := req.GetCollectionName()
	if name == "" {
		return nil, badInput("collection name must not be empty")
	}
	c := &collection{
		dense: map[string]*qdrant.VectorParams{}, sparse: map[string]*qdrant.SparseVectorParams{},
		schema: map[string]*qdrant.PayloadSchemaInfo{}, points: map[string]*point{},
	}
	switch cfg := req.GetVectorsConfig().GetConfig().(type) {
	case *qdrant.VectorsConfig_Params:
		c.dense[""] = cfg.Params
	case *qdrant.VectorsConfig_ParamsMap:
		for n, p := range cfg.ParamsMap.GetMap() {
			c.dense[n] = p
		}
	}
	for n, p := range c.dense {
		switch {
		case p.GetSize() == 0 || p.GetSize() > maxDim:
			return nil, badInput("vector %q: size must be between 1 and %d, got %d", n, maxDim, p.GetSize())
		case p.GetDistance() == qdrant.Distance_UnknownDistance:
			return nil, badInput("vector %q: distance is required", n)
		case p.GetMultivectorConfig() != nil:
			return nil, unsupported("multivectors")
		}
	}
	for n, p := range req.GetSparseVectorsConfig().GetMap() {
		if _, ok := c.dense[n]; ok {
			return nil, badInput("vector name %q is both dense and sparse", n)
		}
		c.sparse[n] = p
	}
	c.params = &qdrant.CollectionParams{
		ShardNumber:         max(req.GetShardNumber(), 1),
		ReplicationFactor:   qdrant.PtrOf(max(req.GetReplicationFactor(), 1)),
		VectorsConfig:       req.GetVectorsConfig(),
		SparseVectorsConfig: req.GetSparseVectorsConfig(),
	}
	c.params = proto.Clone(c.params).(*qdrant.CollectionParams)

	s.data.mu.Lock()
	defer s.data.mu.Unlock()
	if _, ok := s.data.collections[name]; ok {
		return nil, status.Errorf(codes.AlreadyExists, "Wrong input: Collection `%s` already exists!", name)
	}
	s.data.collections[name] = c
	return &qdrant.CollectionOperationResponse{Result: true}, nil
}

func (s *collectionsService) Get(_ context.Context, req *qdrant.GetCollectionInfoRequest) (*qdrant.GetCollectionInfoResponse, error) {
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	c, ok := s.data.collections[req.GetCollectionName()]
	if !ok {
		return nil, notFound(req.GetCollectionName())
	}
	schema := map[string]*qdrant.PayloadSchemaInfo{}
	for k, v := range c.schema {
		schema[k] = proto.Clone(v).(*qdrant.PayloadSchemaInfo)
	}
	n := uint64(len(c.points))
	return &qdrant.GetCollectionInfoResponse{Result: &qdrant.CollectionInfo{
		Status:        qdrant.CollectionStatus_Green,
		SegmentsCount: 1,
		Config:        &qdrant.CollectionConfig{Params: proto.Clone(c.params).(*qdrant.CollectionParams)},
		PayloadSchema: schema,
		PointsCount:   &n,
	}}, nil
}

func (s *collectionsService) List(context.Context, *qdrant.ListCollectionsRequest) (*qdrant.ListCollectionsResponse, error) {
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	var names []string
	for n := range s.data.collections {
		names = append(names, n)
	}
	slices.Sort(names)
	out := &qdrant.ListCollectionsResponse{}
	for _, n := range names {
		out.Collections = append(out.Collections, &qdrant.CollectionDescription{Name: n})
	}
	return out, nil
}

func (s *collectionsService) Delete(_ context.Context, req *qdrant.DeleteCollection) (*qdrant.CollectionOperationResponse, error) {
	s.data.mu.Lock()
	defer s.data.mu.Unlock()
	_, ok := s.data.collections[req.GetCollectionName()]
	delete(s.data.collections, req.GetCollectionName())
	return &qdrant.CollectionOperationResponse{Result: ok}, nil
}

func (s *collectionsService) CollectionExists(_ context.Context, req *qdrant.CollectionExistsRequest) (*qdrant.CollectionExistsResponse, error) {
	s.data.mu.RLock()
	defer s.data.mu.RUnlock()
	_, ok := s.data.collections[req.GetCollectionName()]
	return &qdrant.CollectionExistsResponse{Result: &qdrant.CollectionExists{Exists: ok}}, nil
}
