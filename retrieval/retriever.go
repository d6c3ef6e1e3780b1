package retrieval

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/verity-fc/verity/evidence"
	txt "github.com/verity-fc/verity/text"
)

// Embedder turns texts into dense vectors, one per text. The Retriever
// embeds the claim with the embedder the passages were indexed with.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// MaxTopN bounds the passages the Retriever returns for judging.
const MaxTopN = 20

// Config tunes the Retriever. The zero value gives the defaults below, which
// are seed 004's: k >= 20 candidates, re-ranked to the top 5-8. The koanf
// tags are the keys of the retrieval section of verity's configuration.
type Config struct {
	// K is the number of passages retrieved before filtering, 1..MaxK;
	// default 20.
	K int `koanf:"k"`
	// TopN is the number of passages returned for judging, 1..MaxTopN;
	// default 6.
	TopN int `koanf:"top_n"`
	// MinChars and MaxChars bound a passage's length in characters (runes,
	// surrounding space not counted); shorter or longer passages are
	// dropped. Defaults 40 and 2000; a negative value removes that bound.
	MinChars int `koanf:"min_chars"`
	MaxChars int `koanf:"max_chars"`
	// RecencyHalfLifeDays is the age at which the recency weight halves;
	// default 730 (two years), a mild decay.
	RecencyHalfLifeDays float64 `koanf:"recency_half_life_days"`
	// UnknownDateRecency is the recency weight of an undated passage, in
	// [0,1]; default 0.5, neither fresh nor stale.
	UnknownDateRecency float64 `koanf:"unknown_date_recency"`
	// MaxPerURL is how many passages one document may contribute; default
	// 1. A passage without a URL is keyed by its source ID. Negative means
	// no limit.
	MaxPerURL int `koanf:"max_per_url"`
	// MaxPerDomain is how many passages one origin (domain, or the source
	// for a source without one; see evidence.Origin) may contribute; default
	// 2, so that one site cannot fill the judged set and agree_dom counts
	// independent origins. Negative means no limit.
	MaxPerDomain int `koanf:"max_per_domain"`
	// Blend weighs the re-ranking score; see Blend.
	Blend Blend `koanf:"blend"`
}

// Blend weighs the parts of the re-ranking score,
//
//	score = Relevance*rank + Overlap*overlap + Recency*recency
//
// where rank = 1/(1 + r/10) for the store's r-th hit (0-based): 1 for the
// first, 0.5 for the eleventh (ranks, not Hit.Score, because only the order
// is comparable across stores); overlap is the share of the claim's content
// words (stemmed, stopwords dropped) that the passage contains; and recency
// is the passage's recency weight. The zero Blend means 0.6, 0.3, 0.1: the
// store's fused ranking leads, word overlap with the claim corrects it
// where dense similarity drifts off topic, and recency only breaks near-ties
// (the seed's "mild time decay").
type Blend struct {
	Relevance float64 `koanf:"relevance"`
	Overlap   float64 `koanf:"overlap"`
	Recency   float64 `koanf:"recency"`
}

// DefaultConfig returns the defaults the zero Config stands for.
func DefaultConfig() Config { return Config{}.withDefaults() }

// Validate reports a K or TopN out of range as an *evidence.InputError
// naming "k" or "top_n"; TopN must also be at most K. MaxChars must exceed
// MinChars unless one of them is negative (no bound), UnknownDateRecency lie in [0,1]
// and the Blend weights not be negative. It checks the values
// as given, zero included, as a configuration file states them (start from
// DefaultConfig). Check a configuration once, at start-up: Retrieve refuses
// the same values on every call.
func (c Config) Validate() error {
	// Zero lengths stand for their defaults.
	lengths := Config{MinChars: c.MinChars, MaxChars: c.MaxChars}.withDefaults()
	switch {
	case c.K < 1 || c.K > MaxK:
		return evidence.Invalid("k", "must be between 1 and %d, got %d", MaxK, c.K)
	case c.TopN < 1 || c.TopN > MaxTopN || c.TopN > c.K:
		return evidence.Invalid("top_n", "must be between 1 and %d and at most k, got %d", MaxTopN, c.TopN)
	case lengths.MinChars >= 0 && lengths.MaxChars >= 0 && lengths.MaxChars <= lengths.MinChars:
		return evidence.Invalid("max_chars", "(%d) must exceed min_chars (%d); negative removes the bound", lengths.MaxChars, lengths.MinChars)
	case c.UnknownDateRecency < 0 || c.UnknownDateRecency > 1:
		return evidence.Invalid("unknown_date_recency", "must be in [0,1], got %g", c.UnknownDateRecency)
	case c.Blend.Relevance < 0 || c.Blend.Overlap < 0 || c.Blend.Recency < 0:
		return evidence.Invalid("blend", "weights must not be negative")
	}
	return nil
}

func (c Config) withDefaults() Config {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.K, 20)
	def(&c.TopN, 6)
	def(&c.MinChars, 40)
	def(&c.MaxChars, 2000)
	def(&c.MaxPerURL, 1)
	def(&c.MaxPerDomain, 2)
	if c.RecencyHalfLifeDays <= 0 {
		c.RecencyHalfLifeDays = 730
	}
	if c.UnknownDateRecency <= 0 || c.UnknownDateRecency > 1 {
		c.UnknownDateRecency = 0.5
	}
	if c.Blend == (Blend{}) {
		c.Blend = Blend{Relevance: 0.6, Overlap: 0.3, Recency: 0.1}
	}
	return c
}

// Retriever turns a claim into the passages to judge: it embeds the claim,
// searches the store for K candidates (hybrid BM25 + dense), drops passages
// outside the length bounds, re-ranks the rest (see Blend), dedupes them by
// exact text, by URL and by origin, and returns the top N.
type Retriever struct {
	store Store
	emb   Embedder
	cfg   Config
	now   func() time.Time
}

// NewRetriever returns a Retriever over store that embeds claims with emb.
// now is the clock recency is measured against; nil means time.Now.
func NewRetriever(store Store, emb Embedder, cfg Config, now func() time.Time) *Retriever {
	if now == nil {
		now = time.Now
	}
	return &Retriever{store: store, emb: emb, cfg: cfg.withDefaults(), now: now}
}

// Config returns the configuration in force, defaults filled in.
func (r *Retriever) Config() Config { return r.cfg }

// Retrieve returns the re-ranked passages for claim, best first, with
// Passage, Relevance (the re-ranking score, in [0,1] when the Blend weights
// sum to 1) and Recency set; the NLI fields are left zero for the judge.
// Non-zero fields of opts override the configuration. An empty corpus, or
// one with nothing on the claim, gives no passages and no error. A bad claim
// or option is an *evidence.InputError.
func (r *Retriever) Retrieve(ctx context.Context, claim string, opts Options) ([]evidence.Judged, error) {
	claim = strings.TrimSpace(claim)
	if claim == "" {
		return nil, evidence.Invalid("claim", "must not be empty")
	}
	k, topN := cmp.Or(opts.K, r.cfg.K), cmp.Or(opts.TopN, r.cfg.TopN)
	if k < 1 || k > MaxK {
		return nil, evidence.Invalid("k", "must be between 1 and %d, got %d", MaxK, k)
	}
	if topN < 1 || topN > MaxTopN {
		return nil, evidence.Invalid("top_n", "must be between 1 and %d, got %d", MaxTopN, topN)
	}
	vecs, err := r.emb.Embed(ctx, []string{claim})
	if err != nil {
		return nil, fmt.Errorf("embed claim: %w", err)
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("embed claim: got %d vectors for 1 text", len(vecs))
	}
	vec := vecs[0]
	if isZero(vec) {
		// A claim without content words has no direction; let BM25 rank.
		vec = nil
	}
	hits, err := r.store.Search(ctx, Query{Text: claim, Vector: vec, K: k, Filter: Filter{Domains: opts.Domains, Since: opts.Since}})
	if err != nil {
		return nil, fmt.Errorf("search passages: %w", err)
	}
	return r.rerank(claim, hits, topN), nil
}

// candidate is a hit that passed the length filter, with its score.
type candidate struct {
	evidence.Judged
	rank int
}

func (r *Retriever) rerank(claim string, hits []Hit, topN int) []evidence.Judged {
	claimStems := stems(claim, maxQueryTerms)
	now := r.now()
	b := r.cfg.Blend
	cands := make([]candidate, 0, len(hits))
	for i, h := range hits {
		n := utf8.RuneCountInString(strings.TrimSpace(h.Passage.Text))
		if (r.cfg.MinChars >= 0 && n < r.cfg.MinChars) || (r.cfg.MaxChars >= 0 && n > r.cfg.MaxChars) {
			continue
		}
		rec := Recency(h.Passage.PublishedAt, now, r.cfg.RecencyHalfLifeDays, r.cfg.UnknownDateRecency)
		score := b.Relevance/(1+float64(i)/10) + b.Overlap*txt.SetOverlap(claimStems, stems(h.Passage.Text, math.MaxInt)) + b.Recency*rec
		cands = append(cands, candidate{Judged: evidence.Judged{Passage: h.Passage, Relevance: score, Recency: rec}, rank: i})
	}
	slices.SortStableFunc(cands, func(x, y candidate) int { return cmp.Compare(y.Relevance, x.Relevance) })

	out := []evidence.Judged{}
	texts := map[string]bool{}
	perURL, perOrigin := map[string]int{}, map[string]int{}
	for _, c := range cands {
		if len(out) == topN {
			break
		}
		text, u, origin := textKey(c.Text), urlKey(c.Passage), c.Origin()
		if texts[text] ||
			(r.cfg.MaxPerURL >= 0 && perURL[u] >= r.cfg.MaxPerURL) ||
			(r.cfg.MaxPerDomain >= 0 && perOrigin[origin] >= r.cfg.MaxPerDomain) {
			continue
		}
		texts[text] = true
		perURL[u]++
		perOrigin[origin]++
		out = append(out, c.Judged)
	}
	return out
}

// Recency is the time-decay weight of a passage published at published, in
// [0,1]: exp(-ln2 * age_days / halfLifeDays), so 1 when new and 0.5 at one
// half-life. Dates in the future count as new; an unknown (zero) date
// weighs unknown.
func Recency(published, now time.Time, halfLifeDays, unknown float64) float64 {
	if published.IsZero() {
		return unknown
	}
	age := now.Sub(published).Hours() / 24
	if age <= 0 {
		return 1
	}
	return math.Exp(-math.Ln2 * age / halfLifeDays)
}

// textKey is what makes two passages' texts the same: case and runs of
// white space do not count.
func textKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// urlKey identifies a passage's document: its URL's host (lower case,
// without "www.") and path (without a trailing slash) and query, so that
// http and https, fragments and "www." do not make two documents of one; or
// its source when it has no URL.
func urlKey(p evidence.Passage) string {
	u, err := url.Parse(strings.TrimSpace(p.URL))
	if p.URL == "" || err != nil || u.Host == "" {
		return "source:" + p.SourceID
	}
	key := strings.TrimPrefix(strings.ToLower(u.Host), "www.") + strings.TrimSuffix(u.EscapedPath(), "/")
	if u.RawQuery != "" {
		key += "?" + u.RawQuery
	}
	return key
}
