package factcheck

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/corpus"
)

// TestRunAndLoadOnSQLite stores a fact-check in the real SQLite corpus and
// rebuilds it from the deliberation_stages rows.
func TestRunAndLoadOnSQLite(t *testing.T) {
	ctx := context.Background()
	db, err := corpus.OpenSQLite(ctx, filepath.Join(t.TempDir(), "corpus.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	var _ StageStore = db

	e := newEnv(panel(), Config{})
	e.p.deps.Stages = db
	res, err := e.run(t, Request{Question: "Climate facts?", Mode: "fact_check",
		ModeConfig: &ModeConfig{GeneratorModel: "gen", ExtractorModel: "ext", CheckerModels: []string{"c1", "c2"}, ReporterModel: "rep"}})
	if err != nil {
		t.Fatal(err)
	}
	stages, err := db.Stages(ctx, res.MessageID)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range stages {
		got = append(got, s.StageType+"/"+s.Role)
	}
	want := []string{"generate/generator", "extract/extractor", "verify_0/checker", "verify_1/checker", "report/reporter"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stored stages (-want +got):\n%s", diff)
	}
	loaded, err := e.p.Load(ctx, res.MessageID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res, loaded); diff != "" {
		t.Errorf("Load from SQLite differs from Run (-run +load):\n%s", diff)
	}
	if _, err := e.p.Load(ctx, "no-such-message"); err == nil {
		t.Error("Load of an unknown message succeeded")
	}
}
