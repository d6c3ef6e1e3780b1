// Package deptest enforces the direction of dependencies that DESIGN.md
// gives: each package imports only from the rows above it, each agent
// stands alone, Gin appears only in server and cmd, evidence and sentences
// use the standard library only, and no production package links the
// testing package. Every banned dependency carries its reason, in the
// style of tailscale's deptest.DepChecker.
package deptest

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/verity-fc/verity"

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
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

// DepChecker forbids dependencies, direct or transitive, of the packages it
// names, each for a reason.
type DepChecker struct {
	// Pkgs selects the packages checked: import paths relative to the
	// module, a trailing "/..." for a subtree; nil checks every package.
	Pkgs []string
	// Except leaves packages of Pkgs unchecked, in the same form.
	Except []string
	// BadDeps maps a forbidden dependency to why it is forbidden. A key is
	// a full import path whose first element has a dot
	// ("github.com/gin-gonic/gin"), or a path relative to the module
	// ("agents/jury"); a trailing "/..." bans the subtree.
	BadDeps map[string]string
	// BadDep, when set, bans further dependencies by a rule rather than a
	// list: it returns the reason a dependency is banned, or "".
	BadDep func(dep string) string
}

// matches reports whether the import path p is selected by pattern: a
// full import path when its first element has a dot, else a path relative
// to the module.
func matches(pattern, p string) bool {
	if !strings.Contains(strings.Split(pattern, "/")[0], ".") {
		pattern = module + "/" + pattern
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == pattern
}

func (c DepChecker) selects(p string) bool {
	if !strings.HasPrefix(p, module) {
		return false
	}
	if c.Pkgs != nil && !slices.ContainsFunc(c.Pkgs, func(s string) bool { return matches(s, p) }) {
		return false
	}
	return !slices.ContainsFunc(c.Except, func(s string) bool { return matches(s, p) })
}

// violations returns one line per banned dependency of the packages.
func (c DepChecker) violations(pkgs []pkg) []string {
	var out []string
	for _, p := range pkgs {
		if !c.selects(p.ImportPath) {
			continue
		}
		for _, d := range p.Deps {
			if d == p.ImportPath {
				continue
			}
			why := ""
			for bad, reason := range c.BadDeps {
				if matches(bad, d) {
					why = reason
					break
				}
			}
			if why == "" && c.BadDep != nil {
				why = c.BadDep(d)
			}
			if why == "" {
				continue
			}
			how := "imports"
			if !slices.Contains(p.Imports, d) {
				how = "depends on" // go list -deps -f '{{.ImportPath}}: {{.Imports}}' shows the path
			}
			out = append(out, fmt.Sprintf("%s %s %s: %s", p.ImportPath, how, d, why))
		}
	}
	return out
}

// Check reports each banned dependency as a test error.
func (c DepChecker) Check(t *testing.T, pkgs []pkg) {
	t.Helper()
	for _, v := range c.violations(pkgs) {
		t.Error(v)
	}
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

// testHelpers are the packages beside the code they help test; with every
// package whose name ends in "test" they may link testing, and production
// code may not import them.
var testHelpers = []string{"internal/golden", "internal/shareddata"}

func isTestHelper(p string) bool {
	rel, ok := strings.CutPrefix(p, module+"/")
	// Commands are programs, whatever their name (cmd/loadtest).
	return ok && !strings.HasPrefix(rel, "cmd/") && (strings.HasSuffix(rel, "test") || slices.Contains(testHelpers, rel))
}

// checkers are the dependency rules, each ban with its reason.
func checkers() []DepChecker {
	var cs []DepChecker
	// Layers: each may use only the layers below it.
	for from, r := range rank {
		bad := map[string]string{}
		for to, r2 := range rank {
			if to != from && r2 >= r {
				bad[to+"/..."] = fmt.Sprintf("%s (layer %d of DESIGN.md) may only use layers below it; %s is layer %d", from, r, to, r2)
			}
		}
		cs = append(cs, DepChecker{Pkgs: []string{from + "/..."}, BadDeps: bad,
			BadDep: func(d string) string {
				// A test helper imported by production code is a
				// layer leak too.
				if isTestHelper(d) {
					return "test helpers are for tests; production code must not import them"
				}
				return ""
			}})
	}
	// Agents: each use case stands alone; what two share lives in
	// agents/internal.
	agents := []string{"citations", "entail", "factcheck", "jury"}
	for _, a := range agents {
		bad := map[string]string{}
		for _, b := range agents {
			if b != a {
				bad["agents/"+b+"/..."] = fmt.Sprintf("agents are independent pipelines: %s must not depend on %s; share code through agents/internal", a, b)
			}
		}
		cs = append(cs, DepChecker{Pkgs: []string{"agents/" + a + "/..."}, BadDeps: bad})
	}
	cs = append(cs,
		DepChecker{
			Except: []string{"server/...", "cmd/..."},
			BadDeps: map[string]string{
				"github.com/gin-gonic/...": "Gin belongs in server and cmd only; the domain packages do not know the HTTP framework",
			},
		},
		DepChecker{
			BadDep: func(d string) string {
				if d == "testing" {
					return "production code must not link the testing package (it registers test flags and bloats the binary); test helpers live in packages named …test"
				}
				return ""
			},
		},
	)
	return cs
}

func TestDependencies(t *testing.T) {
	pkgs := listPackages(t)
	var prod []pkg
	for _, p := range pkgs {
		if !isTestHelper(p.ImportPath) {
			prod = append(prod, p)
		}
	}
	for _, c := range checkers() {
		c.Check(t, prod)
	}
}

// TestBinariesDoNotLinkTesting checks the commands themselves, through
// third-party code too: github.com/kljensen/snowball once linked testing
// into verity through a helper file of its romance package.
func TestBinariesDoNotLinkTesting(t *testing.T) {
	for _, p := range listPackages(t) {
		if !strings.HasPrefix(p.ImportPath, module+"/cmd/") {
			continue
		}
		if slices.Contains(p.Deps, "testing") {
			t.Errorf("%s links the testing package; find the importer with: go list -deps -f '{{.ImportPath}}: {{join .Imports \" \"}}' ./%s | grep -w testing",
				p.ImportPath, strings.TrimPrefix(p.ImportPath, module+"/"))
		}
	}
}

// TestCheckerCatches shows that each kind of rule reports a violation, so
// that a rule that can never fire does not pass unnoticed.
func TestCheckerCatches(t *testing.T) {
	fake := []pkg{
		{ImportPath: module + "/agents/jury", Imports: []string{module + "/agents/entail"}, Deps: []string{module + "/agents/entail", "testing"}},
		{ImportPath: module + "/retrieval", Imports: []string{module + "/server"}, Deps: []string{module + "/server", "github.com/gin-gonic/gin", module + "/retrieval/storetest"}},
		{ImportPath: module + "/evidence"},
	}
	var got []string
	for _, c := range checkers() {
		got = append(got, c.violations(fake)...)
	}
	for _, want := range []string{
		"agents/jury imports " + module + "/agents/entail: agents are independent pipelines",
		"agents/jury depends on testing: production code must not link the testing package",
		"retrieval imports " + module + "/server: retrieval (layer 5 of DESIGN.md) may only use layers below it; server is layer 11",
		"retrieval depends on github.com/gin-gonic/gin: Gin belongs in server and cmd only",
		"retrieval depends on " + module + "/retrieval/storetest: test helpers are for tests",
	} {
		if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, want) }) {
			t.Errorf("no violation %q in\n%s", want, strings.Join(got, "\n"))
		}
	}
	if len(got) != 5 {
		t.Errorf("got %d violations, want 5:\n%s", len(got), strings.Join(got, "\n"))
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

// stopListName matches the names a package-level stop-word list goes by,
// stemmerName those of a stemming function.
var (
	stopListName = regexp.MustCompile(`(?i)stop.?words?$|^stop$|stoplist`)
	stemmerName  = regexp.MustCompile(`(?i)^(stem|stemmer|porter2?|snowball)$`)
)

// TestOneTextAnalysis keeps package text the one home of verity's
// stemmers and stop-word lists: no other package imports a Snowball
// stemmer or declares a function named like a stemmer ("stem"), and none
// defines a package-level stop-word list of its own (a variable named like
// one whose value holds string literals). A consumer that needs other
// words left out gets a named list in text/stop.go.
func TestOneTextAnalysis(t *testing.T) {
	checked := 0
	for _, p := range listPackages(t) {
		if p.ImportPath == module+"/text" {
			continue
		}
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "github.com/blevesearch/snowballstem") || strings.HasPrefix(imp, "github.com/kljensen/snowball") {
				t.Errorf("%s imports %s: stem words with text.Porter2 or text.Stem", p.ImportPath, imp)
			}
		}
		for _, f := range p.GoFiles {
			checked++
			lists, stemmers := textAnalysis(t, filepath.Join(p.Dir, f))
			for _, name := range lists {
				t.Errorf("%s: %s defines its own stop-word list %s; use or add a list in text/stop.go", p.ImportPath, f, name)
			}
			for _, name := range stemmers {
				t.Errorf("%s: %s defines its own stemmer %s; use text.Porter2 or text.Stem", p.ImportPath, f, name)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("checked %d files, want the whole module", checked)
	}
}

// textAnalysis returns the package-level variables of a Go file that look
// like stop-word lists (named like one, with string literals in the value)
// and its functions named like a stemmer.
func textAnalysis(t *testing.T, path string) (lists, stemmers []string) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && stemmerName.MatchString(fn.Name.Name) {
			stemmers = append(stemmers, fn.Name.Name)
		}
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, spec := range g.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if !stopListName.MatchString(n.Name) || i >= len(vs.Values) {
					continue
				}
				literal := false
				ast.Inspect(vs.Values[i], func(x ast.Node) bool {
					if b, ok := x.(*ast.BasicLit); ok && b.Kind == token.STRING {
						literal = true
					}
					return !literal
				})
				if literal {
					lists = append(lists, n.Name)
				}
			}
		}
	}
	return lists, stemmers
}

func TestTextAnalysisFound(t *testing.T) {
	dir := t.TempDir()
	src := "package p\n\nvar stopwords = map[string]bool{\"the\": true}\n\nvar (\n\tx = 1\n\tStopWords = set(`a an`)\n)\n\nvar stopwordsCopy = other.Set()\nvar noStop = f()\n\nfunc stem(w string) string { return w }\n\nfunc stems() {}\n"
	path := filepath.Join(dir, "p.go")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	lists, stemmers := textAnalysis(t, path)
	if want := []string{"stopwords", "StopWords"}; !slices.Equal(lists, want) {
		t.Errorf("stop-word lists found: %q, want %q", lists, want)
	}
	if want := []string{"stem"}; !slices.Equal(stemmers, want) {
		t.Errorf("stemmers found: %q, want %q", stemmers, want)
	}
}
