package jury

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/verity-fc/verity/evidence"
)

// Builtin is the model name that selects a role's built-in
// implementation; it is every role's default.
const Builtin = "verity/builtin"

// Config is the jury's configuration: the seed's keys with its defaults,
// plus min_jurors, attempts and parallelism. Get one from LoadConfig or
// DefaultConfig; Validate reports the first bad key.
type Config struct {
	Data       DataConfig       `yaml:"data"`
	Agents     []AgentConfig    `yaml:"agents"`
	FactFrame  FactFrameConfig  `yaml:"fact_frame"`
	Foreperson ForepersonConfig `yaml:"foreperson"`
	Debate     DebateConfig     `yaml:"debate"`
	Models     ModelsConfig     `yaml:"models"`
	// MinJurors is how many jurors must vote successfully for a pair to get
	// a verdict; a pair with fewer fails. Default 3, or the number of
	// agents when that is smaller.
	MinJurors int `yaml:"min_jurors"`
	// Attempts bounds the replies read from a model for one role before
	// it fails. Default 3.
	Attempts int `yaml:"attempts"`
	// Parallelism bounds the pairs RunBatch runs at once. Default 2.
	Parallelism int `yaml:"parallelism"`
}

// DataConfig says where the (claim, truth) pairs come from.
type DataConfig struct {
	// Source is the CSV file of pairs; the caller resolves and opens it.
	Source string `yaml:"source"`
	// ClaimCol and TruthCol name the CSV columns. Defaults "claim" and
	// "truth".
	ClaimCol string `yaml:"claim_col"`
	TruthCol string `yaml:"truth_col"`
	// PairIDs selects rows by their 0-based index among the data rows
	// (the header is not a row); empty means every row.
	PairIDs []int `yaml:"pair_ids"`
}

// AgentConfig is one juror.
type AgentConfig struct {
	// Name identifies the juror; with the built-in jurors it is one of
	// literal, context, steelman, sceptic.
	Name string `yaml:"name"`
	// Role is the juror's title in its prompts, e.g. "Literal
	// Fact-Checker".
	Role string `yaml:"role"`
	// Model overrides models.agents for this juror.
	Model string `yaml:"model"`
}

// FactFrameConfig lists the fact frame's fields.
type FactFrameConfig struct {
	// Fields is a subset of entities, quantities, scope, modality,
	// relationship_type and caveats (the default: all six).
	Fields []string `yaml:"fields"`
}

// RubricAxis is one binary question of the foreperson's rubric.
type RubricAxis struct {
	Axis     string `yaml:"axis"`
	Question string `yaml:"question"`
}

// ForepersonConfig holds the rubric and the dissent threshold.
type ForepersonConfig struct {
	// Rubric defaults to the seed's five axes. The aggregation reads "3-4
	// Yes" of five as "N-2 to N-1 Yes" of N.
	Rubric []RubricAxis `yaml:"rubric"`
	// DissentThreshold is the least number of round-2 votes on the
	// minority verdict that makes a strong dissent. Default 2.
	DissentThreshold int `yaml:"dissent_threshold"`
}

// DebateConfig bounds the debate.
type DebateConfig struct {
	// MaxRounds bounds the debate rounds, 0 to 10; 0 never debates.
	// Default 2.
	MaxRounds int `yaml:"max_rounds"`
}

// ModelsConfig names each role's model; Builtin (the default) selects the
// built-in role.
type ModelsConfig struct {
	Parser     string `yaml:"parser"`
	Agents     string `yaml:"agents"`
	Foreperson string `yaml:"foreperson"`
	// Novelty is the checker that decides whether a debate round added
	// new reasoning.
	Novelty string `yaml:"novelty"`
}

// The fact frame's fields.
const (
	FieldEntities         = "entities"
	FieldQuantities       = "quantities"
	FieldScope            = "scope"
	FieldModality         = "modality"
	FieldRelationshipType = "relationship_type"
	FieldCaveats          = "caveats"
)

var frameFields = []string{FieldEntities, FieldQuantities, FieldScope, FieldModality, FieldRelationshipType, FieldCaveats}

// The seed's rubric axes, which the built-in foreperson answers.
const (
	AxisNumeric   = "numeric_fidelity"
	AxisScope     = "scope_fidelity"
	AxisCausal    = "causal_fidelity"
	AxisCertainty = "certainty_fidelity"
	AxisContext   = "context_sufficiency"
)

// The built-in jurors' names.
const (
	JurorLiteral  = "literal"
	JurorContext  = "context"
	JurorSteelman = "steelman"
	JurorSceptic  = "sceptic"
)

// DefaultConfig returns the seed's defaults with every role built in.
func DefaultConfig() Config {
	return Config{
		Data: DataConfig{ClaimCol: "claim", TruthCol: "truth"},
		Agents: []AgentConfig{
			{Name: JurorLiteral, Role: "Literal Fact-Checker"},
			{Name: JurorContext, Role: "Context Guardian"},
			{Name: JurorSteelman, Role: "Steelman Advocate"},
			{Name: JurorSceptic, Role: "Sceptic"},
		},
		FactFrame: FactFrameConfig{Fields: slices.Clone(frameFields)},
		Foreperson: ForepersonConfig{
			Rubric: []RubricAxis{
				{AxisNumeric, "Are all numbers, units, and percentages in the claim supported by the truth?"},
				{AxisScope, "Are who/where/when (entities, region, timeframe) correctly represented?"},
				{AxisCausal, "Does the claim avoid causal leaps (X caused Y) not supported by the truth?"},
				{AxisCertainty, "Are hedges and certainty preserved? (e.g. \"may\" not turned into \"proves\")"},
				{AxisContext, "Are key caveats, qualifiers, or denominators reflected or at least not contradicted?"},
			},
			DissentThreshold: 2,
		},
		Debate:      DebateConfig{MaxRounds: 2},
		Models:      ModelsConfig{Parser: Builtin, Agents: Builtin, Foreperson: Builtin, Novelty: Builtin},
		Attempts:    3,
		Parallelism: 2,
	}
}

// maxConfigBytes bounds a configuration file.
const maxConfigBytes = 1 << 20

// LoadConfig reads a YAML configuration over DefaultConfig: a key that is
// present replaces its default (a list as a whole), an absent key keeps it.
// Unknown keys, wrong types and invalid values are *evidence.InputError
// naming the key, e.g. "debate.max_rounds". An empty file gives the
// defaults.
func LoadConfig(r io.Reader) (Config, error) {
	cfg := DefaultConfig()
	b, err := io.ReadAll(io.LimitReader(r, maxConfigBytes+1))
	if err != nil {
		return Config{}, fmt.Errorf("read jury config: %w", err)
	}
	if len(b) > maxConfigBytes {
		return Config{}, evidence.Invalid("config", "is larger than the limit of %d bytes", maxConfigBytes)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return Config{}, evidence.Invalid("config", "is not valid YAML: %v", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(doc.Content) == 0 {
		return cfg, cfg.Validate()
	}
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return Config{}, keyError(err, keyLines(&doc))
	}
	return cfg, cfg.Validate()
}

var yamlLine = regexp.MustCompile(`^line (\d+): (.*)$`)

// keyError names the key of the first problem in a YAML decoding error.
func keyError(err error, lines map[int]string) error {
	var te *yaml.TypeError
	if !errors.As(err, &te) || len(te.Errors) == 0 {
		return evidence.Invalid("config", "%v", err)
	}
	m := yamlLine.FindStringSubmatch(te.Errors[0])
	if m == nil {
		return evidence.Invalid("config", "%s", te.Errors[0])
	}
	n, _ := strconv.Atoi(m[1])
	msg := m[2]
	if strings.HasPrefix(msg, "field ") && strings.Contains(msg, " not found in type") {
		msg = "is not a known key"
	}
	key := lines[n]
	if key == "" {
		key = "config"
	}
	return evidence.Invalid(key, "line %d: %s", n, msg)
}

// keyLines maps each line that holds a mapping key or a list item to its
// dotted path, e.g. 7 -> "debate.max_rounds", 12 -> "agents[1].name".
func keyLines(doc *yaml.Node) map[int]string {
	lines := map[int]string{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, path)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := k.Value
				if path != "" {
					p = path + "." + k.Value
				}
				lines[k.Line] = p
				walk(v, p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				p := fmt.Sprintf("%s[%d]", path, i)
				if _, ok := lines[c.Line]; !ok || c.Kind == yaml.ScalarNode {
					lines[c.Line] = p
				}
				walk(c, p)
			}
		}
	}
	walk(doc, "")
	return lines
}

var agentName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// Validate reports the first invalid key as an *evidence.InputError. It
// also completes c: an empty model name becomes Builtin, an agent without
// a model gets models.agents, and MinJurors 0 becomes its default.
func (c *Config) Validate() error {
	for _, km := range []struct {
		key string
		m   *string
	}{{"models.parser", &c.Models.Parser}, {"models.agents", &c.Models.Agents}, {"models.foreperson", &c.Models.Foreperson}, {"models.novelty", &c.Models.Novelty}} {
		key, m := km.key, km.m
		*m = strings.TrimSpace(*m)
		if *m == "" {
			*m = Builtin
		}
		if len(*m) > 200 {
			return evidence.Invalid(key, "is %d bytes long; the limit is 200", len(*m))
		}
	}
	if c.MinJurors == 0 {
		c.MinJurors = min(3, len(c.Agents))
	}
	if strings.TrimSpace(c.Data.ClaimCol) == "" {
		return evidence.Invalid("data.claim_col", "must name a column")
	}
	if strings.TrimSpace(c.Data.TruthCol) == "" {
		return evidence.Invalid("data.truth_col", "must name a column")
	}
	if c.Data.ClaimCol == c.Data.TruthCol {
		return evidence.Invalid("data.truth_col", "must differ from data.claim_col (%q)", c.Data.ClaimCol)
	}
	seenID := map[int]bool{}
	for i, id := range c.Data.PairIDs {
		if id < 0 {
			return evidence.Invalid(fmt.Sprintf("data.pair_ids[%d]", i), "must be a row index of 0 or more, got %d", id)
		}
		if seenID[id] {
			return evidence.Invalid(fmt.Sprintf("data.pair_ids[%d]", i), "repeats pair %d", id)
		}
		seenID[id] = true
	}
	if err := c.validateAgents(); err != nil {
		return err
	}
	if len(c.FactFrame.Fields) == 0 {
		return evidence.Invalid("fact_frame.fields", "must list at least one of %s", strings.Join(frameFields, ", "))
	}
	for i, f := range c.FactFrame.Fields {
		if !slices.Contains(frameFields, f) {
			return evidence.Invalid(fmt.Sprintf("fact_frame.fields[%d]", i), "%q is not a fact frame field; the fields are %s", f, strings.Join(frameFields, ", "))
		}
		if slices.Index(c.FactFrame.Fields, f) != i {
			return evidence.Invalid(fmt.Sprintf("fact_frame.fields[%d]", i), "repeats %q", f)
		}
	}
	if err := c.validateRubric(); err != nil {
		return err
	}
	if c.Debate.MaxRounds < 0 || c.Debate.MaxRounds > 10 {
		return evidence.Invalid("debate.max_rounds", "must be between 0 and 10, got %d", c.Debate.MaxRounds)
	}
	if c.MinJurors < 1 || c.MinJurors > len(c.Agents) {
		return evidence.Invalid("min_jurors", "must be between 1 and the number of agents (%d), got %d", len(c.Agents), c.MinJurors)
	}
	if c.Attempts < 1 || c.Attempts > 10 {
		return evidence.Invalid("attempts", "must be between 1 and 10, got %d", c.Attempts)
	}
	if c.Parallelism < 1 || c.Parallelism > 16 {
		return evidence.Invalid("parallelism", "must be between 1 and 16, got %d", c.Parallelism)
	}
	return nil
}

var builtinJurors = []string{JurorLiteral, JurorContext, JurorSteelman, JurorSceptic}

func (c *Config) validateAgents() error {
	if len(c.Agents) < 2 || len(c.Agents) > 10 {
		return evidence.Invalid("agents", "must list 2 to 10 agents, got %d", len(c.Agents))
	}
	for i := range c.Agents {
		a := &c.Agents[i]
		key := fmt.Sprintf("agents[%d]", i)
		if !agentName.MatchString(a.Name) {
			return evidence.Invalid(key+".name", "must be 1-32 lower-case letters, digits, '-' or '_', starting with a letter or digit; got %q", a.Name)
		}
		if slices.IndexFunc(c.Agents, func(b AgentConfig) bool { return b.Name == a.Name }) != i {
			return evidence.Invalid(key+".name", "repeats agent %q", a.Name)
		}
		if strings.TrimSpace(a.Role) == "" || len(a.Role) > 200 {
			return evidence.Invalid(key+".role", "must be a title of 1-200 bytes")
		}
		if a.Model = strings.TrimSpace(a.Model); a.Model == "" {
			a.Model = c.Models.Agents
		}
		if a.Model == Builtin {
			if !slices.Contains(builtinJurors, a.Name) {
				return evidence.Invalid(key+".name", "no built-in juror is named %q (they are %s); name one of them or give the agent a model", a.Name, strings.Join(builtinJurors, ", "))
			}
		}
	}
	return nil
}

func (c *Config) validateRubric() error {
	r := c.Foreperson.Rubric
	if len(r) < 3 || len(r) > 10 {
		return evidence.Invalid("foreperson.rubric", "must list 3 to 10 axes, got %d", len(r))
	}
	var known []string
	for _, a := range DefaultConfig().Foreperson.Rubric {
		known = append(known, a.Axis)
	}
	builtin := c.Models.Foreperson == Builtin
	for i, a := range r {
		key := fmt.Sprintf("foreperson.rubric[%d]", i)
		if !agentName.MatchString(a.Axis) {
			return evidence.Invalid(key+".axis", "must be 1-32 lower-case letters, digits, '-' or '_', got %q", a.Axis)
		}
		if slices.IndexFunc(r, func(b RubricAxis) bool { return b.Axis == a.Axis }) != i {
			return evidence.Invalid(key+".axis", "repeats axis %q", a.Axis)
		}
		if strings.TrimSpace(a.Question) == "" || len(a.Question) > 500 {
			return evidence.Invalid(key+".question", "must be a question of 1-500 bytes")
		}
		if builtin && !slices.Contains(known, a.Axis) {
			return evidence.Invalid(key+".axis", "the built-in foreperson answers only %s; configure models.foreperson for %q", strings.Join(known, ", "), a.Axis)
		}
	}
	if t := c.Foreperson.DissentThreshold; t < 1 || t > len(c.Agents) {
		return evidence.Invalid("foreperson.dissent_threshold", "must be between 1 and the number of agents (%d), got %d", len(c.Agents), t)
	}
	return nil
}
