package main

import (
	"fmt"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"

	"github.com/verity-fc/verity/agents/factcheck"
	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/ingest"
	"github.com/verity-fc/verity/jobs"
	"github.com/verity-fc/verity/llm"
	"github.com/verity-fc/verity/retention"
	"github.com/verity-fc/verity/retrieval"
	"github.com/verity-fc/verity/scoring"
	"github.com/verity-fc/verity/server"
	"github.com/verity-fc/verity/verify"
)

// Config is verity's whole configuration. Defaults are the seed's and are
// set in defaultConfig; a YAML file (--config), VERITY_<SECTION>_<KEY>
// environment variables and flags override them, in that order.
type Config struct {
	// Data is the data directory of the embedded default.
	Data string `koanf:"data"`
	Log  struct {
		Level  string `koanf:"level"`  // debug, info, warn, error
		Format string `koanf:"format"` // text or json
	} `koanf:"log"`
	Server struct {
		Addr string `koanf:"addr"`
		// Demo ingests the shipped demo corpus when the corpus is empty.
		Demo bool `koanf:"demo"`
		// InsecureNoAuth lets serve listen beyond loopback without API
		// keys; without it, serve refuses to.
		InsecureNoAuth bool `koanf:"insecure_no_auth"`
		// Config holds the server's limits under the same section; see
		// server.Config. serve fills in UploadDir.
		server.Config `koanf:",squash,flatten"`
	} `koanf:"server"`
	Retrieval retrieval.Config `koanf:"retrieval"`
	Verify    verify.Limits    `koanf:"verify"`
	Scoring   scoring.Config   `koanf:"scoring"`
	// Factcheck holds the fact-check pipeline's limits; its default models
	// are models.extractor, models.checkers and models.reporter.
	Factcheck factcheck.Config `koanf:"factcheck"`
	Fetch     struct {
		AllowPrivate  bool          `koanf:"allow_private"`
		MaxBytes      int64         `koanf:"max_bytes"`
		Timeout       time.Duration `koanf:"timeout"`
		UserAgent     string        `koanf:"user_agent"`
		RespectRobots bool          `koanf:"respect_robots"`
		// MaxConcurrent and MaxBytesInFlight are the fetch budget that
		// ingest and the citation checker share: fetches under way at
		// once, and the body bytes they hold at once.
		MaxConcurrent    int   `koanf:"max_concurrent"`
		MaxBytesInFlight int64 `koanf:"max_bytes_in_flight"`
		// MaxExtractBytes bounds the input bytes parsed (HTML, Markdown,
		// text extraction) at once in the process.
		MaxExtractBytes int64 `koanf:"max_extract_bytes"`
	} `koanf:"fetch"`
	Ingest struct {
		Workers int `koanf:"workers"`
		// ProgressInterval is how often `verity ingest` without a terminal
		// logs its progress; 0 logs every source.
		ProgressInterval time.Duration `koanf:"progress_interval"`
		// Reliability maps domains (suffix match) to a reliability in [0,1].
		Reliability map[string]float64 `koanf:"reliability"`
	} `koanf:"ingest"`
	Database struct {
		// URL is a postgres:// URL; empty keeps SQLite in the data directory.
		URL string `koanf:"url"`
		// Schema, when set, holds verity's tables (created when missing);
		// default the URL's search_path, usually public.
		Schema string `koanf:"schema"`
	} `koanf:"database"`
	Qdrant struct {
		// URL is Qdrant's gRPC endpoint, e.g. http://qdrant:6334 (QDRANT_URL
		// also sets it); empty keeps the embedded passage store.
		URL        string        `koanf:"url"`
		APIKey     string        `koanf:"api_key"`
		Collection string        `koanf:"collection"`
		Timeout    time.Duration `koanf:"timeout"`
		// Shards and Replicas apply when verity creates the collection on
		// a Qdrant cluster; 0 keeps Qdrant's default of 1.
		Shards   int `koanf:"shards"`
		Replicas int `koanf:"replicas"`
	} `koanf:"qdrant"`
	Ollama struct {
		// Host is the Ollama server: "", host, host:port or a URL
		// (OLLAMA_HOST also sets it); empty configures no Ollama backend.
		Host string `koanf:"host"`
		// Timeout and ConnectTimeout bound each HTTP call to Ollama
		// (llm.HTTPConfig).
		Timeout        time.Duration `koanf:"timeout"`
		ConnectTimeout time.Duration `koanf:"connect_timeout"`
	} `koanf:"ollama"`
	OpenAI struct {
		// BaseURL is an OpenAI-compatible endpoint, e.g.
		// https://api.openai.com/v1 or http://vllm:8000/v1; empty
		// configures no such backend.
		BaseURL string `koanf:"base_url"`
		APIKey  string `koanf:"api_key"`
		// Timeout and ConnectTimeout bound each HTTP call to the endpoint
		// (llm.HTTPConfig).
		Timeout        time.Duration `koanf:"timeout"`
		ConnectTimeout time.Duration `koanf:"connect_timeout"`
	} `koanf:"openai"`
	// Models name the model of each role: "ollama/NAME" or "openai/NAME",
	// or a bare NAME for the default backend (Ollama when configured, else
	// OpenAI). Empty keeps the built-in implementation of the role.
	Models struct {
		// Chat is the default backend's model for requests that name none.
		Chat string `koanf:"chat"`
		// Embed embeds passages and claims instead of the built-in
		// embedder, e.g. ollama/nomic-embed-text. Changing it needs a
		// re-index: the vectors of the two models do not mix.
		Embed string `koanf:"embed"`
		// NLI judges entailment from the label log-probabilities of this
		// model instead of the built-in NLI model, e.g. ollama/llama3.1:8b.
		NLI string `koanf:"nli"`
		// Extractor, Checkers (comma-separated, 1 to 4) and Reporter are
		// the fact-check pipeline's defaults.
		Extractor string `koanf:"extractor"`
		Checkers  string `koanf:"checkers"`
		Reporter  string `koanf:"reporter"`
		// The entailment audit's four agents (seed 000); "" is built in.
		EntailExtractor   string `koanf:"entail_extractor"`
		EntailReliability string `koanf:"entail_reliability"`
		EntailJudge       string `koanf:"entail_judge"`
		EntailAuditor     string `koanf:"entail_auditor"`
		// The jury of POST /v1/jury (seed 002); `verity jury` reads its
		// models from the jury's YAML instead. "" is built in.
		JuryParser     string `koanf:"jury_parser"`
		JuryAgents     string `koanf:"jury_agents"`
		JuryForeperson string `koanf:"jury_foreperson"`
		JuryNovelty    string `koanf:"jury_novelty"`
	} `koanf:"models"`
	Jobs struct {
		// Workers is how many ingest jobs one process runs at once.
		Workers int `koanf:"workers"`
		// MaxAttempts is how many times a job of the PostgreSQL queue whose
		// work fails as a whole (a backend down) is tried.
		MaxAttempts int `koanf:"max_attempts"`
		// Timeout bounds one attempt of a job of the PostgreSQL queue.
		Timeout time.Duration `koanf:"timeout"`
		// InServe makes `verity serve` also work the PostgreSQL queue's
		// jobs; by default only `verity worker` processes do.
		InServe bool `koanf:"in_serve"`
	} `koanf:"jobs"`
	// Retention bounds what verity keeps that nobody asked to keep; sources
	// and passages are never pruned.
	Retention struct {
		// Days is how long fact-check stages and finished job records are
		// kept; 0 keeps them.
		Days int `koanf:"days"`
		// UploadDays is how long uploaded files are kept once their job has
		// ended; 0 deletes them when it ends.
		UploadDays int `koanf:"upload_days"`
		// MaxJobs bounds the finished job records kept; 0 keeps them all.
		MaxJobs int `koanf:"max_jobs"`
		// Interval is how often `verity serve` collects; 0 only at start
		// and with `verity gc`.
		Interval time.Duration `koanf:"interval"`
	} `koanf:"retention"`

	// nliFile is an NLI model file (`verity eval --nli-model`) that
	// replaces the built-in judge; not a configuration key.
	nliFile string
}

func defaultConfig() Config {
	var c Config
	c.Data = "./verity-data"
	c.Log.Level, c.Log.Format = "info", "text"
	c.Server.Addr = "127.0.0.1:8080"
	c.Server.Demo = true
	c.Server.Config = server.DefaultConfig()
	c.Retrieval = retrieval.DefaultConfig()
	c.Verify = verify.DefaultLimits()
	c.Scoring = scoring.DefaultConfig()
	// The verdict thresholds fitted for the built-in judge; the seed's
	// when the shipped file cannot be read (a test keeps it readable).
	if t, err := scoring.BuiltinThresholds(); err == nil {
		c.Scoring = c.Scoring.WithThresholds(t)
	}
	c.Factcheck = factcheck.DefaultConfig()
	// The models come from the models section.
	c.Factcheck.ExtractorModel, c.Factcheck.CheckerModels, c.Factcheck.ReporterModel = "", nil, ""
	fd := ingest.DefaultFetchConfig()
	c.Fetch.MaxBytes, c.Fetch.Timeout, c.Fetch.UserAgent, c.Fetch.RespectRobots = fd.MaxBytes, fd.Timeout, fd.UserAgent, !fd.IgnoreRobots
	c.Fetch.MaxConcurrent, c.Fetch.MaxBytesInFlight = fd.MaxConcurrent, fd.MaxBytesInFlight
	c.Fetch.MaxExtractBytes = ingest.DefaultExtractionBudget
	rd := retention.DefaultConfig()
	c.Retention.Days, c.Retention.UploadDays, c.Retention.MaxJobs, c.Retention.Interval = rd.Days, rd.UploadDays, rd.MaxJobs, rd.Interval
	c.Ingest.Workers, c.Ingest.ProgressInterval = ingest.DefaultConfig().Workers, 5*time.Second
	qd := retrieval.DefaultQdrantConfig()
	c.Qdrant.Collection, c.Qdrant.Timeout, c.Qdrant.Shards, c.Qdrant.Replicas = qd.Collection, qd.Timeout, qd.Shards, qd.Replicas
	hd := llm.DefaultHTTPConfig()
	c.Ollama.Timeout, c.Ollama.ConnectTimeout = hd.Timeout, hd.ConnectTimeout
	c.OpenAI.Timeout, c.OpenAI.ConnectTimeout = hd.Timeout, hd.ConnectTimeout
	jd := jobs.DefaultRiverConfig()
	c.Jobs.Workers, c.Jobs.MaxAttempts, c.Jobs.Timeout = jd.Workers, jd.MaxAttempts, jd.JobTimeout
	return c
}

// envAliases are the variables other tools use for a setting; a
// VERITY_<SECTION>_<KEY> variable overrides them.
var envAliases = map[string]string{
	"OLLAMA_HOST": "ollama.host",
	"QDRANT_URL":  "qdrant.url",
}

// sections are the top-level keys that hold a struct, so that
// VERITY_RETRIEVAL_TOP_N maps to retrieval.top_n.
func sections() map[string]bool {
	out := map[string]bool{}
	t := reflect.TypeOf(Config{})
	for i := range t.NumField() {
		if t.Field(i).Type.Kind() == reflect.Struct {
			out[t.Field(i).Tag.Get("koanf")] = true
		}
	}
	return out
}

// loadConfig layers defaults, the file at path (optional), the environment
// and the flags that were set (keys as in the file: "server.addr").
func loadConfig(path string, environ []string, flags map[string]any) (Config, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(defaultConfig(), "koanf"), nil); err != nil {
		return Config{}, fmt.Errorf("load defaults: %w", err)
	}
	known := map[string]bool{}
	for _, key := range k.Keys() {
		known[key] = true
	}
	isKnown := func(key string) bool {
		return known[key] || strings.HasPrefix(key, "ingest.reliability.")
	}

	if path != "" {
		f := koanf.New(".")
		if err := f.Load(file.Provider(path), yaml.Parser()); err != nil {
			return Config{}, fmt.Errorf("read config %s: %w", path, err)
		}
		for _, key := range f.Keys() {
			if !isKnown(key) {
				return Config{}, fmt.Errorf("config %s: unknown setting %q", path, key)
			}
		}
		if err := k.Merge(f); err != nil {
			return Config{}, fmt.Errorf("merge config %s: %w", path, err)
		}
	}

	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		if key, ok := envAliases[name]; ok && v != "" {
			if err := k.Set(key, v); err != nil {
				return Config{}, fmt.Errorf("%s: %w", name, err)
			}
		}
	}

	secs := sections()
	var unknownEnv []string
	e := koanf.New(".")
	err := e.Load(env.Provider(".", env.Opt{
		Prefix:      "VERITY_",
		EnvironFunc: func() []string { return environ },
		TransformFunc: func(name, v string) (string, any) {
			key := strings.ToLower(strings.TrimPrefix(name, "VERITY_"))
			sec, rest, ok := strings.Cut(key, "_")
			if ok && secs[sec] {
				key = sec + "." + rest
			}
			switch {
			case isKnown(key):
				return key, v
			case ok && secs[sec]:
				// A known section with an unknown key is a typo to report
				// (VERITY_RETRIEVAL_TOPN).
				unknownEnv = append(unknownEnv, name)
			}
			// Other VERITY_ variables (VERITY_TEST_DATABASE_URL,
			// VERITY_SHARED_DATA) belong to tests and tools, not to
			// the configuration.
			return "", nil
		},
	}), nil)
	if err != nil {
		return Config{}, fmt.Errorf("read environment: %w", err)
	}
	if len(unknownEnv) > 0 {
		sort.Strings(unknownEnv)
		return Config{}, fmt.Errorf("unknown setting in the environment: %s", strings.Join(unknownEnv, ", "))
	}
	if err := k.Merge(e); err != nil {
		return Config{}, fmt.Errorf("merge environment: %w", err)
	}
	if err := k.Load(confmap.Provider(flags, "."), nil); err != nil {
		return Config{}, fmt.Errorf("apply flags: %w", err)
	}

	var c Config
	if err := k.Unmarshal("", &c); err != nil {
		return Config{}, fmt.Errorf("decode config: %w", err)
	}
	// Lists come as YAML lists or, from the environment, comma-separated.
	c.Server.AllowedOrigins = splitList(c.Server.AllowedOrigins)
	c.Server.AllowedHosts = splitList(c.Server.AllowedHosts)
	return c, c.validate()
}

func (c Config) validate() error {
	if err := c.Retrieval.Validate(); err != nil {
		// retrieval names k or top_n; the bounds relate the two, so name
		// both keys as the configuration spells them.
		return fmt.Errorf("retrieval.%v (retrieval.k: %d, retrieval.top_n: %d)", err, c.Retrieval.K, c.Retrieval.TopN)
	}
	switch {
	case c.Data == "":
		return fmt.Errorf("data: must name a directory")
	case c.Ingest.ProgressInterval < 0:
		return fmt.Errorf("ingest.progress_interval must not be negative, got %v", c.Ingest.ProgressInterval)
	case c.Database.URL != "" && !strings.HasPrefix(c.Database.URL, "postgres://") && !strings.HasPrefix(c.Database.URL, "postgresql://"):
		return fmt.Errorf("database.url must be a postgres:// URL, got %s", maskURL(c.Database.URL))
	case c.Jobs.InServe && c.Database.URL == "":
		return fmt.Errorf("jobs.in_serve needs database.url: without PostgreSQL, serve runs every job itself")
	}
	if c.Database.URL != "" {
		if err := c.postgresConfig().Validate(); err != nil {
			return err
		}
	}
	if err := c.ollamaHTTP().Validate(); err != nil {
		return fmt.Errorf("ollama.timeout, ollama.connect_timeout: %w", err)
	}
	if err := modelLimits(c.Ollama.Timeout).Validate(); err != nil {
		return fmt.Errorf("ollama: %w", err)
	}
	if err := c.openAIHTTP().Validate(); err != nil {
		return fmt.Errorf("openai.timeout, openai.connect_timeout: %w", err)
	}
	if err := modelLimits(c.OpenAI.Timeout).Validate(); err != nil {
		return fmt.Errorf("openai: %w", err)
	}
	for _, validate := range []func() error{
		c.Server.Config.Validate, c.Verify.Validate, c.factcheckConfig().Validate, c.Scoring.Validate,
		c.riverConfig().Validate, c.localJobsConfig().Validate, c.retentionConfig().Validate, c.fetchConfig().Validate, c.qdrantConfig().Validate,
		ingest.Config{Workers: c.Ingest.Workers}.Validate,
	} {
		if err := validate(); err != nil {
			return err
		}
	}
	if err := ingest.ValidateExtractionBudget(c.Fetch.MaxExtractBytes); err != nil {
		return err
	}
	if _, err := ingest.NewReliabilityTable(c.Ingest.Reliability); err != nil {
		return err
	}
	return nil
}

// fetchConfig is the fetcher's configuration.
func (c Config) fetchConfig() ingest.FetchConfig {
	f := c.Fetch
	return ingest.FetchConfig{
		AllowPrivate: f.AllowPrivate, MaxBytes: f.MaxBytes, Timeout: f.Timeout, UserAgent: f.UserAgent,
		IgnoreRobots: !f.RespectRobots, MaxConcurrent: f.MaxConcurrent, MaxBytesInFlight: f.MaxBytesInFlight,
	}
}

// postgresConfig is the PostgreSQL corpus's configuration.
func (c Config) postgresConfig() corpus.PostgresConfig {
	p := corpus.DefaultPostgresConfig()
	p.Schema = c.Database.Schema
	return p
}

// qdrantConfig is the Qdrant passage store's configuration, without its
// logger.
func (c Config) qdrantConfig() retrieval.QdrantConfig {
	q := retrieval.DefaultQdrantConfig()
	q.Collection, q.Timeout, q.Shards, q.Replicas = c.Qdrant.Collection, c.Qdrant.Timeout, c.Qdrant.Shards, c.Qdrant.Replicas
	return q
}

// riverConfig is the PostgreSQL queue's configuration; the local runner
// takes its Workers.
func (c Config) riverConfig() jobs.RiverConfig {
	return jobs.RiverConfig{Workers: c.Jobs.Workers, MaxAttempts: c.Jobs.MaxAttempts, JobTimeout: c.Jobs.Timeout}
}

// localJobsConfig is the in-process runner's configuration.
func (c Config) localJobsConfig() jobs.Config {
	j := jobs.DefaultConfig()
	j.Workers = c.Jobs.Workers
	return j
}

// retentionConfig is the retention pass's configuration, without its
// upload directory.
func (c Config) retentionConfig() retention.Config {
	r := c.Retention
	return retention.Config{Days: r.Days, UploadDays: r.UploadDays, MaxJobs: r.MaxJobs, Interval: r.Interval}
}

// factcheckConfig is the pipeline's configuration: the factcheck section
// with the models section's fact-check models.
func (c Config) factcheckConfig() factcheck.Config {
	f := c.Factcheck
	f.ExtractorModel, f.CheckerModels, f.ReporterModel = c.Models.Extractor, c.checkerModels(), c.Models.Reporter
	return f
}

// masked returns the configuration as YAML-ready nested maps with secrets
// replaced, for `verity config`.
func (c Config) masked() (map[string]any, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(c, "koanf"), nil); err != nil {
		return nil, err
	}
	for _, key := range k.Keys() {
		if isSecret(key) && k.String(key) != "" {
			_ = k.Set(key, "********")
		}
		if _, text := k.Get(key).(string); text && (strings.HasSuffix(key, "url") || strings.HasSuffix(key, ".host")) {
			_ = k.Set(key, maskURL(k.String(key)))
		}
	}
	return k.Raw(), nil
}

// splitList splits each entry of a list at commas and drops empty ones.
func splitList(in []string) []string {
	out := []string{}
	for _, e := range in {
		for v := range strings.SplitSeq(e, ",") {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// checkerModels splits models.checkers at commas.
func (c Config) checkerModels() []string {
	var out []string
	for m := range strings.SplitSeq(c.Models.Checkers, ",") {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

func isSecret(key string) bool {
	return strings.HasSuffix(key, "api_key") || strings.HasSuffix(key, "password") || strings.HasSuffix(key, "token")
}

// maskURL hides the password of a URL such as postgres://user:pw@host/db,
// of its password or sslpassword query parameter, and of a key=value
// connection string (host=db password=pw).
func maskURL(s string) string {
	s = passwordParam.ReplaceAllString(s, "${1}********")
	at := strings.LastIndex(s, "@")
	scheme := strings.Index(s, "://")
	if at < 0 || scheme < 0 || at < scheme {
		return s
	}
	cred := s[scheme+3 : at]
	if user, _, ok := strings.Cut(cred, ":"); ok {
		return s[:scheme+3] + user + ":********" + s[at:]
	}
	return s
}

var passwordParam = regexp.MustCompile(`((?:^|[?&\s])(?:ssl)?password=)[^&\s]*`)

func environ() []string { return os.Environ() }

// ollamaHTTP and openAIHTTP are the bounds of the model clients' HTTP calls.
func (c Config) ollamaHTTP() llm.HTTPConfig {
	return llm.HTTPConfig{Timeout: c.Ollama.Timeout, ConnectTimeout: c.Ollama.ConnectTimeout}
}

func (c Config) openAIHTTP() llm.HTTPConfig {
	return llm.HTTPConfig{Timeout: c.OpenAI.Timeout, ConnectTimeout: c.OpenAI.ConnectTimeout}
}

// modelLimits are a model client's limits: the defaults, with each call
// bounded by the backend's timeout (ollama.timeout, openai.timeout).
func modelLimits(timeout time.Duration) llm.Limits {
	l := llm.DefaultLimits()
	l.Timeout = timeout
	return l
}
