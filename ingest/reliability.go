package ingest

import (
	"fmt"
	"maps"
	"math"
	"strings"
)

// DefaultReliability is the reliability of a source whose record gives
// none and whose domain matches no table entry (files and records without
// a URL included): 0.5, "unknown", which neither helps nor hurts rel_avg
// against a middling source.
const DefaultReliability = 0.5

// builtinReliability is the starting table: public institutions and
// peer-reviewed publishers high, wire services and established newsrooms
// above the default, user-generated platforms below it. Deployments tune
// it with ingest.reliability in the configuration.
var builtinReliability = map[string]float64{
	"gov": 0.9, "mil": 0.85, "edu": 0.85, "int": 0.85,
	"gov.uk": 0.9, "ac.uk": 0.85, "europa.eu": 0.85, "gc.ca": 0.9, "gov.au": 0.9, "edu.au": 0.85,
	"who.int": 0.9, "nih.gov": 0.95, "cdc.gov": 0.9, "nasa.gov": 0.95, "noaa.gov": 0.9,
	"nature.com": 0.9, "science.org": 0.9, "thelancet.com": 0.9, "nejm.org": 0.9, "bmj.com": 0.9,
	"cell.com": 0.9, "pnas.org": 0.9, "plos.org": 0.85, "sciencedirect.com": 0.85,
	"springer.com": 0.85, "wiley.com": 0.85, "jamanetwork.com": 0.9, "cochranelibrary.com": 0.9,
	"arxiv.org": 0.7, "biorxiv.org": 0.7, "medrxiv.org": 0.7,
	"reuters.com": 0.85, "apnews.com": 0.85, "bbc.co.uk": 0.8, "bbc.com": 0.8, "npr.org": 0.8,
	"nytimes.com": 0.8, "washingtonpost.com": 0.8, "theguardian.com": 0.8, "ft.com": 0.8,
	"economist.com": 0.8, "wsj.com": 0.8, "bloomberg.com": 0.8,
	"wikipedia.org": 0.7, "britannica.com": 0.8,
	"medium.com": 0.4, "substack.com": 0.4, "blogspot.com": 0.35, "wordpress.com": 0.35,
	"reddit.com": 0.3, "quora.com": 0.3, "twitter.com": 0.3, "x.com": 0.3,
	"facebook.com": 0.3, "instagram.com": 0.3, "tiktok.com": 0.25, "youtube.com": 0.35,
}

// ReliabilityTable scores a domain by its longest matching suffix on label
// boundaries: with entries "gov" and "nasa.gov", "www.jpl.nasa.gov" scores
// as nasa.gov and "usa.gov" as gov; "notgov.com" matches neither. The zero
// value (and a nil table) scores everything at [DefaultReliability].
type ReliabilityTable struct {
	scores map[string]float64
	def    float64
	hasDef bool
}

// NewReliabilityTable returns the built-in table with overrides applied.
// Keys are domains or suffixes ("nasa.gov", ".gov" and "gov" are alike);
// the key "*" replaces DefaultReliability. Every score must be in [0,1].
func NewReliabilityTable(overrides map[string]float64) (*ReliabilityTable, error) {
	t := &ReliabilityTable{scores: maps.Clone(builtinReliability)}
	for k, v := range overrides {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return nil, fmt.Errorf("ingest.reliability.%s must be in [0,1], got %g", k, v)
		}
		if strings.TrimSpace(k) == "*" {
			t.def, t.hasDef = v, true
			continue
		}
		key := normalizeDomain(k)
		if key == "" {
			return nil, fmt.Errorf("ingest.reliability: key %q names no domain", k)
		}
		t.scores[key] = v
	}
	return t, nil
}

// Default returns the score of an unmatched domain.
func (t *ReliabilityTable) Default() float64 {
	if t == nil || !t.hasDef {
		return DefaultReliability
	}
	return t.def
}

// Lookup returns the score of domain's longest matching suffix, or the
// default when none matches or domain is empty.
func (t *ReliabilityTable) Lookup(domain string) float64 {
	if t == nil {
		return DefaultReliability
	}
	d := normalizeDomain(domain)
	for d != "" {
		if v, ok := t.scores[d]; ok {
			return v
		}
		_, rest, ok := strings.Cut(d, ".")
		if !ok {
			break
		}
		d = rest
	}
	return t.Default()
}

func normalizeDomain(d string) string {
	d = strings.ToLower(strings.TrimSpace(d))
	d = strings.Trim(d, ".")
	return strings.TrimPrefix(d, "www.")
}
