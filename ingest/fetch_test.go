package ingest

import (
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/dns/dnsmessage"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		addr            string
		refused         bool // with AllowPrivate false
		refusedWhenPriv bool // with AllowPrivate true
	}{
		{"93.184.216.34", false, false},
		{"2606:2800:220:1:248:1893:25c8:1946", false, false},
		{"127.0.0.1", true, false},
		{"127.8.9.10", true, false},
		{"::1", true, false},
		{"::ffff:127.0.0.1", true, false},
		{"10.1.2.3", true, false},
		{"172.16.0.1", true, false},
		{"172.31.255.255", true, false},
		{"172.32.0.1", false, false},
		{"192.168.1.1", true, false},
		{"fc00::1", true, false},
		{"fd12:3456::1", true, false},
		{"100.64.0.1", true, false},
		{"100.127.255.255", true, false},
		{"169.254.169.254", true, true},
		{"169.254.1.1", true, true},
		{"fd00:ec2::254", true, true},
		{"fe80::1", true, true},
		{"0.0.0.0", true, true},
		{"0.1.2.3", true, true},
		{"::", true, true},
		{"224.0.0.1", true, true},
		{"ff02::1", true, true},
		{"255.255.255.255", true, true},
		{"240.0.0.1", true, true},
		{"198.18.0.1", true, true},
		{"::7f00:1", true, true},
		{"64:ff9b::a9fe:a9fe", true, true},   // NAT64 of 169.254.169.254
		{"64:ff9b::7f00:1", true, false},     // NAT64 of 127.0.0.1
		{"64:ff9b::5db8:d822", false, false}, // NAT64 of a public address
		{"2002:c0a8:101::1", true, false},    // 6to4 of 192.168.1.1
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			a := netip.MustParseAddr(tt.addr)
			if got := (&guard{}).check(a) != ""; got != tt.refused {
				t.Errorf("refused = %v, want %v (%q)", got, tt.refused, (&guard{}).check(a))
			}
			if got := (&guard{allowPrivate: true}).check(a) != ""; got != tt.refusedWhenPriv {
				t.Errorf("with AllowPrivate refused = %v, want %v", got, tt.refusedWhenPriv)
			}
		})
	}
}

func TestGuardCheckURL(t *testing.T) {
	tests := []struct {
		url          string
		allowPrivate bool
		refused      bool
	}{
		{"https://example.com/x", false, false},
		{"http://example.com:8080/x", false, false},
		{"file:///etc/passwd", false, true},
		{"gopher://example.com/", false, true},
		{"https:///path", false, true},
		{"http://127.0.0.1/", false, true},
		{"http://[::1]:8080/", false, true},
		{"http://localhost/", false, true},
		{"http://LOCALHOST./", false, true},
		{"http://app.localhost/", false, true},
		{"http://localhost/", true, false},
		{"http://169.254.169.254/latest/meta-data/", true, true},
		{"http://metadata.google.internal/computeMetadata/v1/", true, true},
		{"http://[fd00:ec2::254]/", true, true},
		{"http://10.0.0.1/", true, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s private=%v", tt.url, tt.allowPrivate), func(t *testing.T) {
			u := mustParseURL(t, tt.url)
			err := (&guard{allowPrivate: tt.allowPrivate}).checkURL(u)
			if got := err != nil; got != tt.refused {
				t.Fatalf("checkURL err = %v, want refused %v", err, tt.refused)
			}
			if err != nil && !errors.Is(err, ErrBlocked) {
				t.Errorf("err = %v, want ErrBlocked", err)
			}
		})
	}
}

func TestGuardControl(t *testing.T) {
	g := &guard{}
	tests := []struct {
		network, address string
		refused          bool
	}{
		{"tcp4", "93.184.216.34:443", false},
		{"tcp6", "[2606:2800:220:1:248:1893:25c8:1946]:443", false},
		{"tcp4", "127.0.0.1:80", true},
		{"tcp6", "[::ffff:10.0.0.1]:80", true},
		{"tcp4", "169.254.169.254:80", true},
		{"udp4", "93.184.216.34:53", true},
		{"tcp4", "not-an-address", true},
	}
	for _, tt := range tests {
		t.Run(tt.network+" "+tt.address, func(t *testing.T) {
			err := g.control(tt.network, tt.address, nil)
			if got := err != nil; got != tt.refused {
				t.Errorf("control err = %v, want refused %v", err, tt.refused)
			}
		})
	}
}

// testSite is an httptest server whose handlers are set per path and
// that counts requests per path.
type testSite struct {
	*httptest.Server
	mu   sync.Mutex
	hits map[string]int
}

func newTestSite(t *testing.T, addr string, routes map[string]http.HandlerFunc) *testSite {
	t.Helper()
	s := &testSite{hits: map[string]int{}}
	mux := http.NewServeMux()
	for p, h := range routes {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	}))
	if addr != "" {
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Skipf("cannot listen on %s: %v", addr, err)
		}
		srv.Listener.Close()
		srv.Listener = l
	}
	srv.Start()
	t.Cleanup(srv.Close)
	s.Server = srv
	return s
}

func (s *testSite) hitCount(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func (s *testSite) total() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, c := range s.hits {
		n += c
	}
	return n
}

func html200(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, body)
	}
}

func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target, http.StatusFound)
	}
}

func TestFetch(t *testing.T) {
	site := newTestSite(t, "", map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			// The verity group, the most specific, is the only one that
			// applies: /fine, disallowed for others, is allowed.
			io.WriteString(w, "User-agent: *\nDisallow: /fine\n\nUser-agent: verity\nDisallow: /private\nDisallow: /no-verity\n")
		},
		"/page":      html200("<p>hello</p>"),
		"/moved":     redirectTo("/page"),
		"/to-secret": redirectTo("/private/x"),
		"/loop":      redirectTo("/loop"),
		"/missing":   http.NotFound,
		"/forbidden": func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusForbidden) },
		"/broken":    func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusInternalServerError) },
		"/json": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"a":1}`)
		},
		"/untyped": func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = nil
			io.WriteString(w, "<!DOCTYPE html><p>sniffed</p>")
		},
		"/big": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, strings.Repeat("x", 2000))
		},
		"/big-chunked": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			for range 20 {
				io.WriteString(w, strings.Repeat("x", 100))
				w.(http.Flusher).Flush()
			}
		},
		"/gzip-bomb": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write([]byte(strings.Repeat("x", 100000)))
			zw.Close()
		},
		"/gzip": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write([]byte("unzipped"))
			zw.Close()
		},
		"/private/x": html200("secret"),
		"/no-verity": html200("not for verity"),
		"/fine":      html200("fine"),
	})
	fixed := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	f := NewFetcher(FetchConfig{AllowPrivate: true, MaxBytes: 1024, MaxRedirects: 3, Now: func() time.Time { return fixed }}, nil)

	tests := []struct {
		path      string
		wantBody  string
		wantURL   string
		wantType  string
		wantErr   error
		wantCode  int
		notCalled string // a path the fetch must not reach
	}{
		{path: "/page", wantBody: "<p>hello</p>", wantURL: "/page", wantType: "text/html; charset=utf-8"},
		{path: "/moved", wantBody: "<p>hello</p>", wantURL: "/page", wantType: "text/html; charset=utf-8"},
		{path: "/untyped", wantBody: "<!DOCTYPE html><p>sniffed</p>", wantURL: "/untyped", wantType: "text/html; charset=utf-8"},
		{path: "/gzip", wantBody: "unzipped", wantURL: "/gzip", wantType: "text/plain"},
		{path: "/fine", wantBody: "fine", wantURL: "/fine", wantType: "text/html; charset=utf-8"},
		{path: "/missing", wantCode: 404},
		{path: "/forbidden", wantCode: 403},
		{path: "/broken", wantCode: 500},
		{path: "/json", wantErr: ErrUnsupportedContentType},
		{path: "/big", wantErr: ErrTooLarge},
		{path: "/big-chunked", wantErr: ErrTooLarge},
		{path: "/gzip-bomb", wantErr: ErrTooLarge},
		{path: "/loop", wantErr: ErrTooManyRedirects},
		{path: "/private/x", wantErr: ErrRobotsDisallowed, notCalled: "/private/x"},
		{path: "/no-verity", wantErr: ErrRobotsDisallowed, notCalled: "/no-verity"},
		{path: "/to-secret", wantErr: ErrRobotsDisallowed, notCalled: "/private/x"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			page, err := f.Fetch(context.Background(), site.URL+tt.path)
			switch {
			case tt.wantCode != 0:
				var se *StatusError
				if !errors.As(err, &se) || se.Code != tt.wantCode {
					t.Fatalf("err = %v, want StatusError %d", err, tt.wantCode)
				}
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
			default:
				if err != nil {
					t.Fatal(err)
				}
				if string(page.Body) != tt.wantBody || page.URL != site.URL+tt.wantURL || page.ContentType != tt.wantType ||
					page.StatusCode != 200 || !page.FetchedAt.Equal(fixed) {
					t.Errorf("page = %+v (body %q), want body %q at %s, type %q", page, page.Body, tt.wantBody, tt.wantURL, tt.wantType)
				}
			}
			if tt.notCalled != "" && site.hitCount(tt.notCalled) != 0 {
				t.Errorf("%s was requested %d times, want never", tt.notCalled, site.hitCount(tt.notCalled))
			}
		})
	}
	if n := site.hitCount("/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times, want once (cached)", n)
	}
}

func TestFetchRobots(t *testing.T) {
	tests := []struct {
		name    string
		robots  http.HandlerFunc
		ignore  bool
		wantErr error
	}{
		{"missing robots allows", http.NotFound, false, nil},
		{"server error disallows", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }, false, ErrRobotsDisallowed},
		{"disallow all", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "User-agent: *\nDisallow: /\n") }, false, ErrRobotsDisallowed},
		{"ignored", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "User-agent: *\nDisallow: /\n") }, true, nil},
		{"garbage allows", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "\x00\x01 not robots {{{") }, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			site := newTestSite(t, "", map[string]http.HandlerFunc{"/robots.txt": tt.robots, "/doc": html200("doc")})
			f := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: tt.ignore}, nil)
			_, err := f.Fetch(context.Background(), site.URL+"/doc")
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.ignore && site.hitCount("/robots.txt") != 0 {
				t.Errorf("robots.txt fetched though ignored")
			}
		})
	}
}

func TestFetchRobotsConcurrentOnce(t *testing.T) {
	release, arrived := make(chan struct{}), make(chan struct{})
	var once sync.Once
	site := newTestSite(t, "", map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			once.Do(func() { close(arrived) })
			<-release
			io.WriteString(w, "User-agent: *\nAllow: /\n")
		},
		"/doc": html200("doc"),
	})
	f := NewFetcher(FetchConfig{AllowPrivate: true}, nil)
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 8 {
		wg.Go(func() {
			if _, err := f.Fetch(context.Background(), site.URL+"/doc"); err != nil {
				t.Error(err)
				failed.Add(1)
			}
		})
	}
	// Hold the first robots request until it has arrived: fetches that
	// come meanwhile must wait for it rather than ask themselves.
	<-arrived
	close(release)
	wg.Wait()
	if n := site.hitCount("/robots.txt"); n != 1 {
		t.Errorf("robots.txt fetched %d times by 8 concurrent fetches, want 1", n)
	}
	if n := site.hitCount("/doc"); n != 8-int(failed.Load()) {
		t.Errorf("/doc fetched %d times", n)
	}
}

func TestFetchTimeout(t *testing.T) {
	block := make(chan struct{})
	t.Cleanup(func() { close(block) })
	site := newTestSite(t, "", map[string]http.HandlerFunc{
		"/slow-headers": func(w http.ResponseWriter, r *http.Request) {
			select {
			case <-r.Context().Done():
			case <-block:
			}
		},
		"/slow-body": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "partial")
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-block:
			}
		},
	})
	f := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: true, Timeout: 100 * time.Millisecond}, nil)
	for _, path := range []string{"/slow-headers", "/slow-body"} {
		t.Run(path, func(t *testing.T) {
			_, err := f.Fetch(context.Background(), site.URL+path)
			if !errors.Is(err, ErrTimeout) || !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err = %v, want ErrTimeout and context.DeadlineExceeded", err)
			}
		})
	}
	t.Run("caller cancels", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := f.Fetch(ctx, site.URL+"/slow-headers")
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
			t.Errorf("err = %v, want context.Canceled only", err)
		}
	})
	t.Run("caller deadline", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		long := NewFetcher(FetchConfig{AllowPrivate: true, IgnoreRobots: true, Timeout: time.Hour}, nil)
		_, err := long.Fetch(ctx, site.URL+"/slow-headers")
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want context.DeadlineExceeded", err)
		}
	})
}

// fakeResolver answers A queries from hosts and nothing else, so that a
// test can make a name resolve to a loopback address.
func fakeResolver(t *testing.T, hosts map[string]netip.Addr) *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
			client, server := net.Pipe()
			go serveDNS(t, server, hosts)
			return client, nil
		},
	}
}

// serveDNS answers DNS-over-TCP framed queries (a net.Pipe is not a
// PacketConn, so the resolver frames its messages) until the conn closes.
func serveDNS(t *testing.T, c net.Conn, hosts map[string]netip.Addr) {
	defer c.Close()
	for {
		var n uint16
		if err := binary.Read(c, binary.BigEndian, &n); err != nil {
			return
		}
		msg := make([]byte, n)
		if _, err := io.ReadFull(c, msg); err != nil {
			return
		}
		var p dnsmessage.Parser
		h, err := p.Start(msg)
		if err != nil {
			return
		}
		q, err := p.Question()
		if err != nil {
			return
		}
		name := strings.TrimSuffix(q.Name.String(), ".")
		addr, known := hosts[name]
		rh := dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true}
		if !known {
			rh.RCode = dnsmessage.RCodeNameError
		}
		b := dnsmessage.NewBuilder(make([]byte, 2, 514), rh)
		b.EnableCompression()
		b.StartQuestions()
		b.Question(q)
		b.StartAnswers()
		if known && q.Type == dnsmessage.TypeA && addr.Is4() {
			b.AResource(dnsmessage.ResourceHeader{Name: q.Name, Class: dnsmessage.ClassINET, TTL: 60},
				dnsmessage.AResource{A: addr.As4()})
		}
		out, err := b.Finish()
		if err != nil {
			t.Errorf("build DNS answer: %v", err)
			return
		}
		binary.BigEndian.PutUint16(out, uint16(len(out)-2))
		if _, err := c.Write(out); err != nil {
			return
		}
	}
}

// TestFetchGuard runs with AllowPrivate false. The "allowed" site listens
// on 127.0.0.2, which the test exempts from the guard; everything else on
// loopback stays refused, so a redirect from the allowed site to
// 127.0.0.1, to a name resolving to 127.0.0.1, or to the metadata address
// shows that every redirect is checked again.
func TestFetchGuard(t *testing.T) {
	inner := newTestSite(t, "127.0.0.1:0", map[string]http.HandlerFunc{"/": html200("internal secret")})
	_, innerPort, _ := net.SplitHostPort(inner.Listener.Addr().String())
	allowed := newTestSite(t, "127.0.0.2:0", map[string]http.HandlerFunc{
		"/doc":          html200("public doc"),
		"/to-self":      redirectTo("/doc"),
		"/to-loopback":  redirectTo("http://127.0.0.1:" + innerPort + "/"),
		"/to-localhost": redirectTo("http://localhost:" + innerPort + "/"),
		"/to-rebind":    redirectTo("http://rebind.test:" + innerPort + "/"),
		"/to-metadata":  redirectTo("http://169.254.169.254/latest/meta-data/"),
		"/to-file":      redirectTo("file:///etc/passwd"),
	})
	_, allowedPort, _ := net.SplitHostPort(allowed.Listener.Addr().String())
	resolver := fakeResolver(t, map[string]netip.Addr{
		"allowed.test": netip.MustParseAddr("127.0.0.2"),
		"rebind.test":  netip.MustParseAddr("127.0.0.1"),
	})
	f := newFetcher(FetchConfig{IgnoreRobots: true}, nil, resolver, []netip.Addr{netip.MustParseAddr("127.0.0.2")})
	allowedURL := func(p string) string { return "http://127.0.0.2:" + allowedPort + p }

	tests := []struct {
		name    string
		url     string
		wantErr error
	}{
		{"exempt address", allowedURL("/doc"), nil},
		{"redirect within the exempt site", allowedURL("/to-self"), nil},
		{"name resolving to the exempt address", "http://allowed.test:" + allowedPort + "/doc", nil},
		{"loopback address", "http://127.0.0.1:" + innerPort + "/", ErrBlocked},
		{"localhost name", "http://localhost:" + innerPort + "/", ErrBlocked},
		{"name resolving to loopback (dial-time check)", "http://rebind.test:" + innerPort + "/", ErrBlocked},
		{"redirect to loopback", allowedURL("/to-loopback"), ErrBlocked},
		{"redirect to localhost", allowedURL("/to-localhost"), ErrBlocked},
		{"redirect to a name resolving to loopback", allowedURL("/to-rebind"), ErrBlocked},
		{"redirect to metadata", allowedURL("/to-metadata"), ErrBlocked},
		{"redirect to file", allowedURL("/to-file"), ErrBlocked},
		{"file URL", "file:///etc/passwd", ErrBlocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page, err := f.Fetch(context.Background(), tt.url)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr == nil && string(page.Body) != "public doc" {
				t.Errorf("body = %q", page.Body)
			}
			var be *BlockedError
			if tt.wantErr != nil && (!errors.As(err, &be) || be.Reason == "") {
				t.Errorf("err = %v, want a *BlockedError with a reason", err)
			}
		})
	}
	if n := inner.total(); n != 0 {
		t.Errorf("the internal server got %d requests, want none", n)
	}
	if allowed.hitCount("/to-loopback") != 1 {
		t.Errorf("the allowed site's redirect was not exercised")
	}

	t.Run("raw client is guarded too", func(t *testing.T) {
		resp, err := f.Client().Get("http://rebind.test:" + innerPort + "/")
		if err == nil {
			resp.Body.Close()
		}
		if !errors.Is(err, ErrBlocked) {
			t.Errorf("Client().Get err = %v, want ErrBlocked", err)
		}
		if inner.total() != 0 {
			t.Errorf("the internal server was reached")
		}
	})
}

func TestFetchBadURL(t *testing.T) {
	f := NewFetcher(FetchConfig{}, nil)
	if _, err := f.Fetch(context.Background(), "http://[::1"); err == nil {
		t.Error("Fetch of an unparsable URL succeeded")
	}
}

func mustParseURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
