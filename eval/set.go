// Package eval measures how well verity judges labeled claims: it reads
// labeled JSONL sets, runs a predictor over them (the NLI judge on gold
// evidence, or the whole verify path on the corpus) and reports accuracy,
// balanced accuracy, macro-F1, per-label precision and recall, expected
// calibration error and throughput.
package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Labels of a labeled set. Three-way sets use Supports, Refutes and
// NotEnoughInfo; two-way sets use Supports and NotSupported.
const (
	Supports      = "SUPPORTS"
	Refutes       = "REFUTES"
	NotEnoughInfo = "NOT_ENOUGH_INFO"
	NotSupported  = "NOT_SUPPORTED"
)

// MaxLineBytes bounds one line of a labeled set: 4 MiB.
const MaxLineBytes = 4 << 20

// Example is one labeled claim.
type Example struct {
	// ID is the line's id as text (numeric ids are kept in their JSON
	// spelling); empty when the line has none.
	ID       string
	Claim    string
	Evidence []string
	Label    string
}

type line struct {
	ID       json.RawMessage `json:"id"`
	Claim    *string         `json:"claim"`
	Evidence []string        `json:"evidence"`
	Label    *string         `json:"label"`
}

// ReadSet reads a labeled set: one JSON object a line with "id", "claim",
// "evidence" (a list of passages, possibly empty) and "label" (SUPPORTS,
// REFUTES, NOT_ENOUGH_INFO or NOT_SUPPORTED). Other keys are ignored, blank
// lines are skipped. An error names the line (1-based) and what is wrong
// with it; a set may not mix NOT_SUPPORTED with REFUTES or NOT_ENOUGH_INFO.
func ReadSet(r io.Reader) ([]Example, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLineBytes)
	var out []Example
	twoWay, threeWay := 0, 0
	for n := 1; sc.Scan(); n++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		ex, err := parseLine(b)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		switch ex.Label {
		case NotSupported:
			twoWay = n
		case Refutes, NotEnoughInfo:
			threeWay = n
		}
		if twoWay > 0 && threeWay > 0 {
			return nil, fmt.Errorf("line %d: label %s mixes a two-way set (NOT_SUPPORTED, line %d) with a three-way one (line %d)", n, ex.Label, twoWay, threeWay)
		}
		out = append(out, ex)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("read set: a line is longer than %d bytes", MaxLineBytes)
		}
		return nil, fmt.Errorf("read set: %w", err)
	}
	return out, nil
}

func parseLine(b []byte) (Example, error) {
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return Example{}, fmt.Errorf("not a JSON object with claim, evidence and label: %w", err)
	}
	if l.Claim == nil || strings.TrimSpace(*l.Claim) == "" {
		return Example{}, errors.New(`"claim" is missing or empty`)
	}
	if l.Label == nil {
		return Example{}, errors.New(`"label" is missing`)
	}
	label := strings.ToUpper(strings.TrimSpace(*l.Label))
	switch label {
	case Supports, Refutes, NotEnoughInfo, NotSupported:
	default:
		return Example{}, fmt.Errorf(`"label" %q is not one of SUPPORTS, REFUTES, NOT_ENOUGH_INFO, NOT_SUPPORTED`, *l.Label)
	}
	ex := Example{Claim: *l.Claim, Evidence: l.Evidence, Label: label}
	if len(l.ID) > 0 && string(l.ID) != "null" {
		var s string
		if err := json.Unmarshal(l.ID, &s); err == nil {
			ex.ID = s
		} else {
			ex.ID = string(l.ID)
		}
	}
	return ex, nil
}

// TwoWay reports whether examples form a two-way set: some label is
// NOT_SUPPORTED.
func TwoWay(examples []Example) bool {
	for _, ex := range examples {
		if ex.Label == NotSupported {
			return true
		}
	}
	return false
}
