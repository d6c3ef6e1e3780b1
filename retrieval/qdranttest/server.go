// Package qdranttest is an in-process Qdrant for tests: a gRPC server on
// loopback TCP that implements, with the go-client's generated service
// interfaces, enough of Qdrant's real protocol for the retrieval store's
// conformance suite — collections with named dense and sparse vectors
// (IDF modifier), upsert, delete by IDs or filter, count, payload indexes,
// and the Query API with prefetches, nearest-vector queries and reciprocal
// rank fusion, under filters on keyword, numeric and datetime payloads.
//
// It also injects the faults a real deployment meets: error codes, calls
// that hang until the client gives up, a server that dies in the middle of
// a call, and a stop and restart on the same address that keeps the data,
// as a Qdrant with its storage volume does.
package qdranttest

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/qdrant/go-client/qdrant"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
)

// Version is the Qdrant version the server reports.
const Version = "1.17.0"

// Server is an in-process Qdrant. Its methods are safe for concurrent use.
type Server struct {
	addr   string
	apiKey string
	data   *store

	// lifeMu serialises Stop and Restart.
	lifeMu sync.Mutex
	mu     sync.Mutex
	grpc   *grpc.Server // nil while stopped
	// down is closed when the running server stops.
	down   chan struct{}
	faults map[string]*fault
	calls  map[string]int
}

// fault is what the next calls of one method meet.
type fault struct {
	failN   int
	code    codes.Code
	hang    bool
	release chan struct{}
	die     bool
}

// Option configures a Server.
type Option func(*Server)

// WithAPIKey makes the server refuse calls that do not carry key in the
// "api-key" metadata, as Qdrant does with service.api_key set.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// Start starts a server on a free loopback port and stops it when the test
// ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	s := &Server{data: newStore(), faults: map[string]*fault{}, calls: map[string]int{}}
	for _, o := range opts {
		o(s)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("qdranttest: listen: %v", err)
	}
	s.addr = ln.Addr().String()
	s.serve(ln)
	t.Cleanup(s.Stop)
	return s
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return s.addr }

// URL is the server's address in the form retrieval.DialQdrant takes.
func (s *Server) URL() string { return "http://" + s.addr }

func (s *Server) serve(ln net.Listener) {
	g := grpc.NewServer(
		grpc.UnaryInterceptor(s.intercept),
		// Qdrant's default service.max_request_size_mb.
		grpc.MaxRecvMsgSize(32<<20),
	)
	qdrant.RegisterQdrantServer(g, &healthService{})
	qdrant.RegisterCollectionsServer(g, &collectionsService{data: s.data})
	qdrant.RegisterPointsServer(g, &pointsService{data: s.data})
	s.mu.Lock()
	s.grpc, s.down = g, make(chan struct{})
	s.mu.Unlock()
	go g.Serve(ln) //nolint:errcheck // returns when stopped
}

// Stop kills the server: the listener and every connection close at once,
// and calls in flight fail on the client as connection errors. It returns
// once the address is free. The data is kept for Restart.
func (s *Server) Stop() {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	s.mu.Lock()
	g, down := s.grpc, s.down
	s.grpc = nil
	s.mu.Unlock()
	if g == nil {
		return
	}
	// Stop does not wait for handlers, so a handler may call it.
	g.Stop()
	// Hung calls return without doing anything.
	close(down)
}

// Restart serves again on the same address, with the data the server held
// when it stopped.
func (s *Server) Restart() error {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	s.mu.Lock()
	running := s.grpc != nil
	s.mu.Unlock()
	if running {
		return nil
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("qdranttest: listen again on %s: %w", s.addr, err)
	}
	s.serve(ln)
	return nil
}

// Method names are those of the gRPC services, e.g. "Query", "Upsert",
// "Delete", "Create", "Get", "HealthCheck"; "" matches every method.

func (s *Server) faultFor(method string) *fault {
	f := s.faults[method]
	if f == nil {
		f = &fault{}
		s.faults[method] = f
	}
	return f
}

// FailNext makes the next n calls of method fail with code, before they do
// anything.
func (s *Server) FailNext(method string, n int, code codes.Code) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faultFor(method)
	f.failN, f.code = n, code
}

// Hang makes calls of method block, without doing anything, until the
// client gives up or Release is called.
func (s *Server) Hang(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faultFor(method)
	if !f.hang {
		f.hang, f.release = true, make(chan struct{})
	}
}

// Release ends Hang for method: blocked calls go on.
func (s *Server) Release(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.faultFor(method)
	if f.hang {
		f.hang = false
		close(f.release)
		f.release = nil
	}
}

// DieDuring makes the next call of method kill the server (as Stop) while
// it is being handled, before it answers or applies anything.
func (s *Server) DieDuring(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faultFor(method).die = true
}

// Calls returns how many calls of method reached the server.
func (s *Server) Calls(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[method]
}

// intercept counts calls, checks the API key and applies faults.
func (s *Server) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	method := info.FullMethod[strings.LastIndex(info.FullMethod, "/")+1:]
	if s.apiKey != "" {
		md, _ := metadata.FromIncomingContext(ctx)
		if keys := md.Get("api-key"); len(keys) != 1 || keys[0] != s.apiKey {
			return nil, status.Error(codes.Unauthenticated, "Must provide an API key or an Authorization bearer token")
		}
	}
	s.mu.Lock()
	s.calls[method]++
	var (
		failCode codes.Code
		fail     bool
		release  chan struct{}
		die      bool
		down     = s.down
	)
	for _, name := range []string{method, ""} {
		f := s.faults[name]
		if f == nil {
			continue
		}
		if f.failN > 0 && !fail {
			f.failN--
			fail, failCode = true, f.code
		}
		if f.hang && release == nil {
			release = f.release
		}
		if f.die {
			f.die, die = false, true
		}
	}
	s.mu.Unlock()

	switch {
	case die:
		s.Stop()
		return nil, status.Error(codes.Unavailable, "server died")
	case fail:
		return nil, status.Errorf(failCode, "qdranttest: injected %v", failCode)
	case release != nil:
		select {
		case <-ctx.Done():
			return nil, status.FromContextError(ctx.Err()).Err()
		case <-down:
			return nil, status.Error(codes.Unavailable, "server stopped")
		case <-release:
		}
	}
	return handler(ctx, req)
}

type healthService struct {
	qdrant.UnimplementedQdrantServer
}

func (*healthService) HealthCheck(context.Context, *qdrant.HealthCheckRequest) (*qdrant.HealthCheckReply, error) {
	return &qdrant.HealthCheckReply{Title: "qdrant - vector search engine", Version: Version}, nil
}
