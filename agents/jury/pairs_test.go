package jury

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/verity-fc/verity/evidence"
)

const novaCSV = "\ufeffid,claim,truth,source\n" +
	"a,Claim zero.,Truth zero.,x\n" +
	"b,\"Claim one, with a comma.\",\"Truth one,\nover two lines.\",x\n" +
	"c,Claim two.,Truth two.,x\n"

func TestReadPairs(t *testing.T) {
	cfg := DefaultConfig()
	got, err := ReadPairs(strings.NewReader(novaCSV), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := []Pair{{0, "Claim zero.", "Truth zero."}, {1, "Claim one, with a comma.", "Truth one,\nover two lines."}, {2, "Claim two.", "Truth two."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	cfg.Data.PairIDs = []int{2, 0}
	got, err = ReadPairs(strings.NewReader(novaCSV), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]Pair{want[2], want[0]}, got); diff != "" {
		t.Errorf("pair_ids [2, 0] (-want +got):\n%s", diff)
	}

	cfg = DefaultConfig()
	cfg.Data.ClaimCol, cfg.Data.TruthCol = "truth", "claim"
	got, err = ReadPairs(strings.NewReader(novaCSV), cfg)
	if err != nil || got[0].Claim != "Truth zero." {
		t.Errorf("custom columns: %+v, %v", got, err)
	}
}

func TestReadPairsErrors(t *testing.T) {
	tests := []struct {
		name, csv string
		edit      func(*Config)
		key, msg  string
	}{
		{"empty file", "", nil, "data.source", "empty"},
		{"no claim column", "text,truth\na,b\n", nil, "data.claim_col", `"claim"`},
		{"no truth column", "claim,reference\na,b\n", nil, "data.truth_col", `"truth"`},
		{"pair id out of range", novaCSV, func(c *Config) { c.Data.PairIDs = []int{1, 3} }, "data.pair_ids[1]", "out of range"},
		{"malformed", "claim,truth\n\"a,b\n", nil, "data.source", "line"},
		{"wrong field count", "claim,truth\na,b,c\n", nil, "data.source", "line 2"},
		{"empty claim", "claim,truth\na,b\n ,d\n", nil, "data.source", "row 1 (line 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if tt.edit != nil {
				tt.edit(&cfg)
			}
			_, err := ReadPairs(strings.NewReader(tt.csv), cfg)
			var ie *evidence.InputError
			if !errors.As(err, &ie) || ie.Field != tt.key || !strings.Contains(ie.Message, tt.msg) {
				t.Errorf("err = %v, want an input error on %q saying %q", err, tt.key, tt.msg)
			}
		})
	}
}

func TestReadPairsSkipsUnselectedEmptyRows(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Data.PairIDs = []int{0}
	got, err := ReadPairs(strings.NewReader("claim,truth\na,b\n,\n"), cfg)
	if err != nil || len(got) != 1 {
		t.Errorf("got %+v, %v", got, err)
	}
}
