// Package embedtest is the conformance suite of llm.Embedder: the built-in
// embedder (package embedding) and the Ollama and OpenAI clients, over the
// fake servers of llmtest and real ones, run [Run].
package embedtest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/verity-fc/verity/llm"
	"github.com/viterin/vek/vek32"
)

// Options say what an implementation promises beyond the contract.
type Options struct {
	// Dim is the dimension every vector must have; 0 accepts any, as long
	// as it is the same for every vector.
	Dim int
	// Semantic: a paraphrase is closer to a sentence than a sentence on
	// another subject is.
	Semantic bool
	// Timeout bounds the whole suite; default 5 minutes (a real model).
	Timeout time.Duration
}

const (
	tower   = "The Eiffel Tower is in Paris."
	towerP  = "The Eiffel tower stands in Paris, France."
	boiling = "Water boils at 100 degrees Celsius at sea level."
)

// Run checks the contract of llm.Embedder: one vector per text, in order,
// all of one dimension, finite; no texts give no vectors; the same text
// gives the same vector whatever it is embedded with, in one call or
// another, at once or concurrently; a batch larger than any backend's
// request size keeps its order; a cancelled context ends the call with its
// error.
func Run(t *testing.T, e llm.Embedder, opts Options) {
	if opts.Timeout <= 0 {
		opts.Timeout = 5 * time.Minute
	}
	ctx, cancel := context.WithTimeout(t.Context(), opts.Timeout)
	defer cancel()

	dim := opts.Dim
	var base [][]float32
	t.Run("one vector per text", func(t *testing.T) {
		texts := []string{tower, boiling, tower}
		vs, err := e.Embed(ctx, texts)
		if err != nil {
			t.Fatalf("Embed: %v", err)
		}
		if len(vs) != len(texts) {
			t.Fatalf("Embed gave %d vectors for %d texts", len(vs), len(texts))
		}
		if dim == 0 {
			dim = len(vs[0])
		}
		for i, v := range vs {
			if err := check(v, dim); err != nil {
				t.Fatalf("vector %d: %v", i, err)
			}
		}
		if c := Cosine(vs[0], vs[2]); c < 0.999 {
			t.Errorf("cosine of one text embedded twice in a batch = %v, want about 1", c)
		}
		if c := Cosine(vs[0], vs[1]); c > 0.99 {
			t.Errorf("cosine of different texts = %v, want below 0.99", c)
		}
		base = vs
	})
	if base == nil {
		return
	}

	t.Run("no texts", func(t *testing.T) {
		for _, texts := range [][]string{nil, {}} {
			if vs, err := e.Embed(ctx, texts); err != nil || len(vs) != 0 {
				t.Errorf("Embed(%#v) = %d vectors, %v; want none and no error", texts, len(vs), err)
			}
		}
	})

	t.Run("same text same vector", func(t *testing.T) {
		// Alone, reversed in another batch: the vector of a text does not
		// depend on its neighbours or its position.
		alone, err := e.Embed(ctx, []string{boiling})
		if err != nil {
			t.Fatalf("Embed: %v", err)
		}
		rev, err := e.Embed(ctx, []string{boiling, tower})
		if err != nil {
			t.Fatalf("Embed: %v", err)
		}
		if len(alone) != 1 || len(rev) != 2 {
			t.Fatalf("Embed gave %d and %d vectors, want 1 and 2", len(alone), len(rev))
		}
		for _, v := range append(alone, rev...) {
			if err := check(v, dim); err != nil {
				t.Fatalf("%v (the dimension changed between calls?)", err)
			}
		}
		if c := Cosine(alone[0], base[1]); c < 0.999 {
			t.Errorf("a text embedded alone and in a batch: cosine %v, want about 1", c)
		}
		if c0, c1 := Cosine(rev[0], base[1]), Cosine(rev[1], base[0]); c0 < 0.999 || c1 < 0.999 {
			t.Errorf("texts reversed: cosines %v, %v with their first vectors, want about 1 (out of order?)", c0, c1)
		}
	})

	t.Run("large batch keeps order", func(t *testing.T) {
		// 150 texts: more than the 64 a client sends in one request.
		texts := make([]string, 150)
		for i := range texts {
			texts[i] = fmt.Sprintf("Report number %d says the river rose by %d centimetres.", i, 3*i+1)
		}
		texts[0], texts[149] = tower, boiling
		vs, err := e.Embed(ctx, texts)
		if err != nil {
			t.Fatalf("Embed: %v", err)
		}
		if len(vs) != len(texts) {
			t.Fatalf("Embed gave %d vectors for %d texts", len(vs), len(texts))
		}
		for i, v := range vs {
			if err := check(v, dim); err != nil {
				t.Fatalf("vector %d: %v", i, err)
			}
		}
		if c0, c1 := Cosine(vs[0], base[0]), Cosine(vs[149], base[1]); c0 < 0.999 || c1 < 0.999 {
			t.Errorf("first and last of a large batch: cosines %v, %v with the same texts embedded apart, want about 1", c0, c1)
		}
	})

	t.Run("cancelled context", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		_, err := e.Embed(cctx, []string{tower})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Embed with a cancelled context: err = %v, want context.Canceled", err)
		}
		if errors.Is(err, llm.ErrUnavailable) {
			t.Errorf("Embed with a cancelled context blames the backend: %v", err)
		}
	})

	t.Run("concurrent calls", func(t *testing.T) {
		const callers = 6
		var wg sync.WaitGroup
		got := make([][][]float32, callers)
		errs := make([]error, callers)
		for c := range callers {
			wg.Go(func() { got[c], errs[c] = e.Embed(ctx, []string{tower, boiling}) })
		}
		wg.Wait()
		for c := range callers {
			if errs[c] != nil {
				t.Errorf("caller %d: %v", c, errs[c])
				continue
			}
			if len(got[c]) != 2 {
				t.Errorf("caller %d: %d vectors, want 2", c, len(got[c]))
				continue
			}
			if c0, c1 := Cosine(got[c][0], base[0]), Cosine(got[c][1], base[1]); c0 < 0.999 || c1 < 0.999 {
				t.Errorf("caller %d: cosines %v, %v with the serial vectors, want about 1", c, c0, c1)
			}
		}
	})

	if opts.Semantic {
		t.Run("paraphrase is closer", func(t *testing.T) {
			vs, err := e.Embed(ctx, []string{tower, towerP, boiling})
			if err != nil {
				t.Fatalf("Embed: %v", err)
			}
			if near, far := Cosine(vs[0], vs[1]), Cosine(vs[0], vs[2]); near <= far {
				t.Errorf("cosine with a paraphrase %v is not above that with another subject %v", near, far)
			}
		})
	}
}

// check reports a vector of the wrong dimension or with a value that is not
// a finite number.
func check(v []float32, dim int) error {
	if len(v) == 0 || len(v) != dim {
		return fmt.Errorf("dimension %d, want %d", len(v), dim)
	}
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("value %d is %v", i, x)
		}
	}
	return nil
}

// Cosine returns the cosine similarity of a and b over their common
// length, 0 when either is zero there.
func Cosine(a, b []float32) float64 {
	n := min(len(a), len(b))
	a, b = a[:n], b[:n]
	if vek32.Dot(a, a) == 0 || vek32.Dot(b, b) == 0 {
		return 0
	}
	return float64(vek32.CosineSimilarity(a, b))
}
