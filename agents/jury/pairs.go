package jury

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/verity-fc/verity/evidence"
)

// Limits of a CSV of pairs.
const (
	// MaxCSVBytes bounds the file.
	MaxCSVBytes = 64 << 20
	// MaxCSVRows bounds its data rows.
	MaxCSVRows = 100_000
)

// ReadPairs reads the pairs of a CSV whose header names cfg.Data.ClaimCol
// and cfg.Data.TruthCol. A pair's ID is its 0-based data row index (the
// header is not a row), as data.pair_ids counts; when pair_ids is set only
// those rows are returned, in its order. Problems are
// *evidence.InputError naming the key at fault: data.claim_col,
// data.truth_col, data.pair_ids[i] or data.source (with the line).
func ReadPairs(r io.Reader, cfg Config) ([]Pair, error) {
	cr := csv.NewReader(io.LimitReader(r, MaxCSVBytes+1))
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, evidence.Invalid("data.source", "the CSV is empty; it needs a header row")
	}
	if err != nil {
		return nil, csvError(err)
	}
	col := func(key, name string) (int, error) {
		for i, h := range header {
			if strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")) == name {
				return i, nil
			}
		}
		return 0, evidence.Invalid(key, "column %q is not in the CSV header (%s)", name, strings.Join(header, ", "))
	}
	ci, err := col("data.claim_col", cfg.Data.ClaimCol)
	if err != nil {
		return nil, err
	}
	ti, err := col("data.truth_col", cfg.Data.TruthCol)
	if err != nil {
		return nil, err
	}
	var rows []Pair
	var lines []int
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(err)
		}
		if len(rows) == MaxCSVRows {
			return nil, evidence.Invalid("data.source", "the CSV has more than %d rows", MaxCSVRows)
		}
		line, _ := cr.FieldPos(0)
		rows = append(rows, Pair{ID: len(rows), Claim: rec[ci], Truth: rec[ti]})
		lines = append(lines, line)
	}
	selected := rows
	if len(cfg.Data.PairIDs) > 0 {
		selected = make([]Pair, 0, len(cfg.Data.PairIDs))
		for k, id := range cfg.Data.PairIDs {
			if id < 0 || id >= len(rows) {
				return nil, evidence.Invalid(fmt.Sprintf("data.pair_ids[%d]", k), "pair %d is out of range: the CSV has %d data rows (0-%d)", id, len(rows), len(rows)-1)
			}
			selected = append(selected, rows[id])
		}
	}
	for _, p := range selected {
		if err := ValidatePair(p, ""); err != nil {
			var ie *evidence.InputError
			errors.As(err, &ie)
			column := map[string]string{"claim": cfg.Data.ClaimCol, "truth": cfg.Data.TruthCol}[ie.Field]
			return nil, evidence.Invalid("data.source", "row %d (line %d): column %q %s", p.ID, lines[p.ID], column, ie.Message)
		}
	}
	return selected, nil
}

func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return evidence.Invalid("data.source", "line %d: %v", pe.Line, pe.Err)
	}
	return fmt.Errorf("read pairs: %w", err)
}

// Outcome is one pair's result in a batch: a card, or the error that
// failed the pair.
type Outcome struct {
	PairID int    `json:"pair_id"`
	Card   *Card  `json:"card,omitempty"`
	Error  string `json:"error,omitempty"`
	// Err is the error itself, for callers that branch on it.
	Err error `json:"-"`
}

// RunBatch runs pairs with at most cfg.Parallelism at once and returns one
// outcome per pair, in order. A failed pair does not stop the others; a
// cancelled ctx fails the pairs not yet done.
func (j *Jury) RunBatch(ctx context.Context, pairs []Pair) []Outcome {
	out := make([]Outcome, len(pairs))
	var g errgroup.Group
	g.SetLimit(j.cfg.Parallelism)
	for i, p := range pairs {
		g.Go(func() error {
			out[i].PairID = p.ID
			if err := ctx.Err(); err != nil {
				out[i].Err, out[i].Error = err, err.Error()
				return nil
			}
			card, err := j.Run(ctx, p)
			if err != nil {
				out[i].Err, out[i].Error = err, err.Error()
				return nil
			}
			out[i].Card = &card
			return nil
		})
	}
	_ = g.Wait()
	return out
}
