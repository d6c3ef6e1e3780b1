package web

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSourceLines runs the Corpus page's line reader (sourceLines in
// js/corpus.js) under Node: one URL a line, each bad line reported by its
// number, the good ones kept.
func TestSourceLines(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the browser tests cover the Corpus page")
	}
	mod, err := filepath.Abs(filepath.Join("static", "js", "corpus.js"))
	if err != nil {
		t.Fatal(err)
	}
	input := "https://a.org/x\n\nnot a url\r\n/etc/passwd\nftp://x.org/f\n  https://b.org/y  \n# a comment\nwww.c.org\nhttps://d.org/1 https://d.org/2\nC:\\docs\\r.pdf"
	script := `import(process.argv[1]).then((m) => console.log(JSON.stringify(m.sourceLines(process.argv[2]))))`
	out, err := exec.Command(node, "-e", script, mod, input).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	type bad struct {
		Line   int    `json:"line"`
		Text   string `json:"text"`
		Reason string `json:"reason"`
	}
	var got struct {
		Good []string `json:"good"`
		Bad  []bad    `json:"bad"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	const notURL, path = "is not an http(s) URL", "is a file path; the server reads no paths, so upload the file under Files"
	want := []bad{
		{3, "not a url", notURL},
		{4, "/etc/passwd", path},
		{5, "ftp://x.org/f", notURL},
		{8, "www.c.org", notURL},
		{9, "https://d.org/1 https://d.org/2", "holds more than one address; put one a line"},
		{10, `C:\docs\r.pdf`, path},
	}
	if diff := cmp.Diff([]string{"https://a.org/x", "https://b.org/y"}, got.Good); diff != "" {
		t.Errorf("good lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, got.Bad); diff != "" {
		t.Errorf("bad lines (-want +got):\n%s", diff)
	}
}
