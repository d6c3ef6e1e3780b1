package eval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Verdicts of the verify path, as a verdict set spells them.
var verdicts = []string{"Supported", "Refuted", "Contested", "Not enough evidence"}

// VerdictExample is one line of a verdict set (demo/claims.jsonl): a claim,
// its group and the verdict a person would give it under each policy.
type VerdictExample struct {
	ID    string `json:"id"`
	Group string `json:"group"`
	Claim string `json:"claim"`
	// Expect is the verdict under the seed's policy (Supported needs two
	// independent origins).
	Expect string `json:"expect"`
	// ExpectMinDomains1 is the verdict under supported_min_domains: 1.
	ExpectMinDomains1 string `json:"expect_min_domains_1"`
	// Sources are the corpus sources the expectation rests on.
	Sources []string `json:"sources,omitempty"`
}

// ReadVerdictSet reads a verdict set: one JSON object a line with id,
// group, claim, expect and expect_min_domains_1, each verdict one of
// Supported, Refuted, Contested, Not enough evidence. An error names the
// line.
func ReadVerdictSet(r io.Reader) ([]VerdictExample, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	var out []VerdictExample
	ids := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var ex VerdictExample
		if err := dec.Decode(&ex); err != nil {
			return nil, fmt.Errorf("line %d: not a verdict example: %w", n, err)
		}
		switch {
		case strings.TrimSpace(ex.Claim) == "":
			return nil, fmt.Errorf("line %d: \"claim\" is missing or empty", n)
		case ex.ID == "":
			return nil, fmt.Errorf("line %d: \"id\" is missing", n)
		case ids[ex.ID] > 0:
			return nil, fmt.Errorf("line %d: id %q repeats line %d", n, ex.ID, ids[ex.ID])
		}
		ids[ex.ID] = n
		for field, v := range map[string]string{"expect": ex.Expect, "expect_min_domains_1": ex.ExpectMinDomains1} {
			if !isVerdict(v) {
				return nil, fmt.Errorf("line %d: %q %q is not one of %s", n, field, v, strings.Join(verdicts, ", "))
			}
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read verdict set: %w", err)
	}
	return out, nil
}

func isVerdict(v string) bool {
	for _, x := range verdicts {
		if v == x {
			return true
		}
	}
	return false
}

// VerdictFunc verifies one claim under a policy and returns its verdict and
// the code of its reason.
type VerdictFunc func(ctx context.Context, claim string) (verdict, reason string, err error)

// Policy is a verdict policy to run a verdict set under.
type Policy struct {
	// Name is how reports call it: "seed" or "supported_min_domains: 1".
	Name string
	// MinDomains1 selects the set's expect_min_domains_1 column.
	MinDomains1 bool
	Verify      VerdictFunc
}

// PolicyReport is how a verdict set fared under one policy.
type PolicyReport struct {
	Policy   string                `json:"policy"`
	N        int                   `json:"n"`
	Correct  int                   `json:"correct"`
	Accuracy float64               `json:"accuracy"`
	PerGroup map[string]GroupScore `json:"per_group"`
	Misses   []Miss                `json:"misses"`
}

// GroupScore counts one group's claims and those verified as expected.
type GroupScore struct {
	N       int `json:"n"`
	Correct int `json:"correct"`
}

// Miss is a claim whose verdict differs from the expected one.
type Miss struct {
	ID     string `json:"id"`
	Claim  string `json:"claim"`
	Expect string `json:"expect"`
	Got    string `json:"got"`
	Reason string `json:"reason"`
}

// RunVerdicts verifies every example under each policy, one claim at a
// time, and reports the share verified as expected.
func RunVerdicts(ctx context.Context, examples []VerdictExample, policies []Policy) ([]PolicyReport, error) {
	if len(examples) == 0 {
		return nil, errors.New("eval: empty verdict set")
	}
	out := make([]PolicyReport, 0, len(policies))
	for _, p := range policies {
		r := PolicyReport{Policy: p.Name, N: len(examples), PerGroup: map[string]GroupScore{}, Misses: []Miss{}}
		for _, ex := range examples {
			want := ex.Expect
			if p.MinDomains1 {
				want = ex.ExpectMinDomains1
			}
			got, reason, err := p.Verify(ctx, ex.Claim)
			if err != nil {
				return nil, fmt.Errorf("verify %s (%s): %w", ex.ID, p.Name, err)
			}
			g := r.PerGroup[ex.Group]
			g.N++
			if got == want {
				g.Correct++
				r.Correct++
			} else {
				r.Misses = append(r.Misses, Miss{ID: ex.ID, Claim: ex.Claim, Expect: want, Got: got, Reason: reason})
			}
			r.PerGroup[ex.Group] = g
		}
		r.Accuracy = float64(r.Correct) / float64(r.N)
		sort.Slice(r.Misses, func(a, b int) bool { return r.Misses[a].ID < r.Misses[b].ID })
		out = append(out, r)
	}
	return out, nil
}
