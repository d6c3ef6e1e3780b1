// Command citemem measures the peak resident memory of a verity server
// while two /v1/citations requests at once each cite 40 URLs (40 loopback
// hosts) of a 9 MiB HTML page: the memory amplification of issue 14.
//
//	go build -o /tmp/verity ./cmd/verity
//	go run ./cmd/citemem /tmp/verity /tmp/citemem-data
//
// It starts `verity serve --allow-private` on 127.0.0.1:18931 with a fresh
// data directory, prints VmHWM (peak) and VmRSS before and after, and
// stops the server. Linux only (/proc).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// vmHWM prints the peak and current resident memory of pid.
func vmHWM(pid int) {
	b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM") || strings.HasPrefix(l, "VmRSS") {
			fmt.Print(l, "  ")
		}
	}
	fmt.Println()
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: citemem VERITY-BINARY DATA-DIR")
		os.Exit(2)
	}
	bin, data := os.Args[1], os.Args[2]
	page := []byte("<html><head><title>Big page</title></head><body>" + strings.Repeat("<p>The tower was painted green in 2024 according to the city records office. </p>", 9<<20/80) + "</body></html>")
	ln, _ := net.Listen("tcp", "0.0.0.0:0")
	port := ln.Addr().(*net.TCPAddr).Port
	go http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write(page)
	}))
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:18931", "--data", data, "--demo=false", "--allow-private")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	defer cmd.Process.Kill()
	for {
		if r, err := http.Get("http://127.0.0.1:18931/healthz"); err == nil {
			r.Body.Close()
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	fmt.Print("idle: ")
	vmHWM(cmd.Process.Pid)
	var doc strings.Builder
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&doc, "The tower was painted green in 2024 [%d].\n\n", i+1)
	}
	doc.WriteString("## References\n\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&doc, "%d. http://127.0.0.%d:%d/page\n", i+1, 2+i, port)
	}
	body, _ := json.Marshal(map[string]string{"document": doc.String(), "format": "markdown"})
	var wg sync.WaitGroup
	start := time.Now()
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Post("http://127.0.0.1:18931/v1/citations", "application/json", bytes.NewReader(body))
			if err != nil {
				fmt.Println("request:", err)
				return
			}
			var rep struct {
				Sources []struct {
					Status string `json:"status"`
				} `json:"sources"`
			}
			json.NewDecoder(resp.Body).Decode(&rep)
			resp.Body.Close()
			st := map[string]int{}
			for _, s := range rep.Sources {
				st[s.Status]++
			}
			fmt.Println("status", resp.StatusCode, "sources", st)
		}()
	}
	wg.Wait()
	fmt.Printf("two requests took %s; ", time.Since(start).Round(time.Millisecond))
	vmHWM(cmd.Process.Pid)
}
