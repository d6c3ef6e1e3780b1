// Package deptest enforces the direction of dependencies that DESIGN.md
// gives: each package imports only from the rows above it, Gin appears only
// in server and cmd, evidence uses the standard library only.
package deptest

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/verity-fc/verity"

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json", module+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	var pkgs []pkg
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// rank orders the layers of DESIGN.md; a package may import only packages
// of a lower rank. Packages not listed (test helpers, internal) are free.
var rank = map[string]int{
	"evidence":  0,
	"prompts":   1,
	"quantity":  1,
	"sentences": 1,
	"wordvec":   1,
	"demo":      1,
	"web":       1,
	"llm":       2,
	"embedding": 2,
	"scoring":   3,
	"corpus":    4,
	"retrieval": 5,
	"nli":       6,
	"ingest":    7,
	"verify":    8,
	"eval":      10,
	"jobs":      8,
	"retention": 9, // prunes corpus records and the uploads of jobs
	"agents":    9,
	"server":    11,
	"cmd":       12,
}

func layer(path string) (string, bool) {
	rel := strings.TrimPrefix(path, module+"/")
	if rel == path {
		return "", false
	}
	top := strings.Split(rel, "/")[0]
	if _, ok := rank[top]; !ok {
		return "", false
	}
	// Test helper packages (storetest, llmtest, ...) sit beside their
	// package and may import anything below the caller.
	if strings.HasSuffix(rel, "test") && strings.Contains(rel, "/") {
		return "", false
	}
	return top, true
}

func TestLayering(t *testing.T) {
	for _, p := range listPackages(t) {
		from, ok := layer(p.ImportPath)
		if !ok {
			continue
		}
		for _, imp := range p.Imports {
			to, ok := layer(imp)
			if !ok || to == from {
				continue
			}
			if rank[to] >= rank[from] {
				t.Errorf("%s imports %s: %s may only import layers below it", p.ImportPath, imp, from)
			}
		}
	}
}

func TestGinOnlyInServerAndCmd(t *testing.T) {
	for _, p := range listPackages(t) {
		from, _ := layer(p.ImportPath)
		if from == "server" || from == "cmd" {
			continue
		}
		for _, d := range p.Deps {
			if strings.HasPrefix(d, "github.com/gin-gonic/") {
				t.Errorf("%s depends on %s; Gin belongs in server and cmd only", p.ImportPath, d)
				break
			}
		}
	}
}

// stdlibOnly names the packages that must use the standard library only:
// the domain types, and the sentence splitter every layer reads text with.
var stdlibOnly = map[string]bool{"evidence": true, "sentences": true}

func TestStandardLibraryOnly(t *testing.T) {
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(p.ImportPath, module+"/")
		if !stdlibOnly[name] {
			continue
		}
		for _, d := range p.Deps {
			if first := strings.Split(d, "/")[0]; strings.Contains(first, ".") {
				t.Errorf("%s depends on %s; it must use the standard library only", name, d)
			}
		}
	}
}
