package corpustest

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// DatabaseURLEnv names the variable that points the PostgreSQL suites at a
// server, e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable
// (.ci/run sets it when a server runs on loopback).
const DatabaseURLEnv = "VERITY_TEST_DATABASE_URL"

// PostgresURL returns the test database's URL, or skips the test loudly —
// in the test output and on stderr — when none is configured.
func PostgresURL(t testing.TB) string {
	t.Helper()
	u := os.Getenv(DatabaseURLEnv)
	if u == "" {
		msg := fmt.Sprintf("!!! SKIPPING %s: %s is not set, so the PostgreSQL suites did NOT run; "+
			"start a server and set it (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable), or use .ci/run", t.Name(), DatabaseURLEnv)
		log.Print(msg)
		t.Skip(msg)
	}
	return u
}

var schemaSeq atomic.Int64

// NewSchema creates a schema of its own for the test in the database at
// dbURL and drops it, with everything in it, when the test ends.
func NewSchema(t testing.TB, dbURL string) string {
	t.Helper()
	name := fmt.Sprintf("verity_test_%d_%d", os.Getpid(), schemaSeq.Add(1))
	exec(t, dbURL, "CREATE SCHEMA "+name)
	t.Cleanup(func() { exec(t, dbURL, "DROP SCHEMA IF EXISTS "+name+" CASCADE") })
	return name
}

func exec(t testing.TB, dbURL, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatalf("connect to %s: %v", DatabaseURLEnv, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// WithHost returns dbURL with its host and port replaced by addr.
func WithHost(t testing.TB, dbURL, addr string) string {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("%s does not parse as a URL: %v", DatabaseURLEnv, err)
	}
	u.Host = addr
	return u.String()
}

// Proxy forwards TCP connections from a loopback port to a server, so that
// a test can cut a real backend off — as if it had gone down — and bring
// it back.
type Proxy struct {
	target string
	addr   string

	mu    sync.Mutex
	ln    net.Listener // nil while cut
	conns map[net.Conn]bool
	wg    sync.WaitGroup
}

// StartProxy starts a proxy to target (host:port) and stops it when the
// test ends.
func StartProxy(t testing.TB, target string) *Proxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{target: target, addr: ln.Addr().String(), conns: map[net.Conn]bool{}}
	p.serve(ln)
	t.Cleanup(func() {
		p.Cut()
		p.wg.Wait()
	})
	return p
}

// Addr is the proxy's host:port.
func (p *Proxy) Addr() string { return p.addr }

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				p.pipe(c)
			}()
		}
	}()
}

// track records c as open, or reports false when the proxy was cut.
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *Proxy) pipe(client net.Conn) {
	server, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		client.Close()
		return
	}
	if !p.track(client, server) {
		client.Close()
		server.Close()
		return
	}
	var wg sync.WaitGroup
	for _, dir := range [][2]net.Conn{{client, server}, {server, client}} {
		wg.Go(func() {
			io.Copy(dir[0], dir[1]) //nolint:errcheck // ends when either side closes
			dir[0].Close()
			dir[1].Close()
		})
	}
	wg.Wait()
	p.mu.Lock()
	delete(p.conns, client)
	delete(p.conns, server)
	p.mu.Unlock()
}

// Cut closes the listener and every open connection: new connections are
// refused and open ones break, as when the server goes down.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
}

// Restore listens again on the same address.
func (p *Proxy) Restore() error {
	p.mu.Lock()
	up := p.ln != nil
	p.mu.Unlock()
	if up {
		return nil
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("proxy: listen again on %s: %w", p.addr, err)
	}
	p.serve(ln)
	return nil
}
