package deptest

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// mapLine is one line of README's package map: "- `path`: what it does".
var mapLine = regexp.MustCompile("^- `([^`]+)`: (.+)$")

// readPackageMap returns the packages README's "Package map" section lists,
// in order, and whether each is marked as used by tests only.
func readPackageMap(t *testing.T) (paths []string, testsOnly map[string]bool) {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, sec, ok := strings.Cut(string(b), "\n## Package map\n")
	if !ok {
		t.Fatal(`README.md has no "## Package map" section`)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	testsOnly = map[string]bool{}
	for _, l := range strings.Split(sec, "\n") {
		m := mapLine.FindStringSubmatch(l)
		if m == nil {
			if strings.HasPrefix(l, "- ") {
				t.Errorf("README package map: line %q is not of the form \"- `path`: description\"", l)
			}
			continue
		}
		paths = append(paths, m[1])
		testsOnly[m[1]] = strings.HasPrefix(m[2], "(tests)")
	}
	return paths, testsOnly
}

// TestPackageMap checks README's package map against `go list ./...`: every
// package listed once, none that does not exist, each after the packages it
// imports, and "(tests)" on exactly the test helpers.
func TestPackageMap(t *testing.T) {
	listed, testsOnly := readPackageMap(t)
	pkgs := listPackages(t)
	imports := map[string][]string{}
	for _, p := range pkgs {
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		imports[rel] = nil
		for _, imp := range p.Imports {
			if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				imports[rel] = append(imports[rel], r)
			}
		}
	}
	pos := map[string]int{}
	for i, p := range listed {
		if _, dup := pos[p]; dup {
			t.Errorf("README package map lists %s twice", p)
		}
		pos[p] = i
		if _, ok := imports[p]; !ok {
			t.Errorf("README package map lists %s, which go list ./... does not have: remove it", p)
		}
	}
	var missing []string
	for p := range imports {
		if _, ok := pos[p]; !ok {
			missing = append(missing, p)
		}
	}
	slices.Sort(missing)
	for _, p := range missing {
		t.Errorf("README package map does not list %s: add a line for it after the packages it imports", p)
	}
	for _, p := range listed {
		for _, imp := range imports[p] {
			if i, ok := pos[imp]; ok && i > pos[p] {
				t.Errorf("README package map lists %s before %s, which it imports: list it after", p, imp)
			}
		}
		if _, ok := imports[p]; ok && testsOnly[p] != isTestHelper(module+"/"+p) {
			t.Errorf("README package map: %s is marked \"(tests)\" %v, want %v (test helpers and only they)", p, testsOnly[p], isTestHelper(module+"/"+p))
		}
	}
}
