package main

import (
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/env/v2"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"

	"github.com/verity-fc/verity/scoring"
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
		Addr           string        `koanf:"addr"`
		MaxBodyBytes   int64         `koanf:"max_body_bytes"`
		RequestTimeout time.Duration `koanf:"request_timeout"`
		// Demo ingests the shipped demo corpus when the corpus is empty.
		Demo bool `koanf:"demo"`
	} `koanf:"server"`
	Retrieval struct {
		K                   int     `koanf:"k"`
		TopN                int     `koanf:"top_n"`
		MinChars            int     `koanf:"min_chars"`
		MaxChars            int     `koanf:"max_chars"`
		RecencyHalfLifeDays float64 `koanf:"recency_half_life_days"`
		MaxPerDomain        int     `koanf:"max_per_domain"`
	} `koanf:"retrieval"`
	Verify struct {
		MaxClaimChars int `koanf:"max_claim_chars"`
		Citations     int `koanf:"citations"`
	} `koanf:"verify"`
	Scoring scoring.Config `koanf:"scoring"`
	Fetch   struct {
		AllowPrivate  bool          `koanf:"allow_private"`
		MaxBytes      int64         `koanf:"max_bytes"`
		Timeout       time.Duration `koanf:"timeout"`
		UserAgent     string        `koanf:"user_agent"`
		RespectRobots bool          `koanf:"respect_robots"`
	} `koanf:"fetch"`
	Ingest struct {
		Workers int `koanf:"workers"`
		// Reliability maps domains (suffix match) to a reliability in [0,1].
		Reliability map[string]float64 `koanf:"reliability"`
	} `koanf:"ingest"`
	Database struct {
		// URL is a postgres:// URL; empty keeps SQLite in the data directory.
		URL string `koanf:"url"`
	} `koanf:"database"`
}

func defaultConfig() Config {
	var c Config
	c.Data = "./verity-data"
	c.Log.Level, c.Log.Format = "info", "text"
	c.Server.Addr = "127.0.0.1:8080"
	c.Server.MaxBodyBytes = 1 << 20
	c.Server.RequestTimeout = 60 * time.Second
	c.Server.Demo = true
	c.Retrieval.K, c.Retrieval.TopN = 20, 6
	c.Retrieval.MinChars, c.Retrieval.MaxChars = 40, 2000
	c.Retrieval.RecencyHalfLifeDays = 730
	c.Retrieval.MaxPerDomain = 2
	c.Verify.MaxClaimChars, c.Verify.Citations = 1000, 3
	c.Scoring = scoring.DefaultConfig()
	c.Fetch.MaxBytes = 10 << 20
	c.Fetch.Timeout = 20 * time.Second
	c.Fetch.UserAgent = "verity/0.1 (+https://github.com/verity-fc/verity)"
	c.Fetch.RespectRobots = true
	c.Ingest.Workers = 4
	return c
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

	secs := sections()
	var unknownEnv []string
	e := koanf.New(".")
	err := e.Load(env.Provider(".", env.Opt{
		Prefix:      "VERITY_",
		EnvironFunc: func() []string { return environ },
		TransformFunc: func(name, v string) (string, any) {
			key := strings.ToLower(strings.TrimPrefix(name, "VERITY_"))
			if sec, rest, ok := strings.Cut(key, "_"); ok && secs[sec] {
				key = sec + "." + rest
			}
			if !isKnown(key) {
				unknownEnv = append(unknownEnv, name)
				return "", nil
			}
			return key, v
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
	return c, c.validate()
}

func (c Config) validate() error {
	switch {
	case c.Data == "":
		return fmt.Errorf("data: must name a directory")
	case c.Retrieval.K < 1 || c.Retrieval.K > 200:
		return fmt.Errorf("retrieval.k must be between 1 and 200, got %d", c.Retrieval.K)
	case c.Retrieval.TopN < 1 || c.Retrieval.TopN > c.Retrieval.K:
		return fmt.Errorf("retrieval.top_n must be between 1 and retrieval.k, got %d", c.Retrieval.TopN)
	case c.Retrieval.MinChars < 0 || c.Retrieval.MaxChars <= c.Retrieval.MinChars:
		return fmt.Errorf("retrieval.max_chars (%d) must exceed retrieval.min_chars (%d)", c.Retrieval.MaxChars, c.Retrieval.MinChars)
	case c.Fetch.Timeout <= 0 || c.Fetch.MaxBytes <= 0:
		return fmt.Errorf("fetch.timeout and fetch.max_bytes must be positive")
	case c.Ingest.Workers < 1 || c.Ingest.Workers > 64:
		return fmt.Errorf("ingest.workers must be between 1 and 64, got %d", c.Ingest.Workers)
	}
	for d, r := range c.Ingest.Reliability {
		if r < 0 || r > 1 {
			return fmt.Errorf("ingest.reliability.%s must be in [0,1], got %g", d, r)
		}
	}
	return c.Scoring.Validate()
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
		if strings.HasSuffix(key, ".url") {
			_ = k.Set(key, maskURL(k.String(key)))
		}
	}
	return k.Raw(), nil
}

func isSecret(key string) bool {
	return strings.HasSuffix(key, "api_key") || strings.HasSuffix(key, "password") || strings.HasSuffix(key, "token")
}

// maskURL hides the password of a URL such as postgres://user:pw@host/db.
func maskURL(s string) string {
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

func environ() []string { return os.Environ() }
