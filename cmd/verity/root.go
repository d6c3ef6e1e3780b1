package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	goyaml "gopkg.in/yaml.v3"

	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/server"
)

// configKey is the flag annotation that names the configuration key a flag
// overrides.
const configKey = "verity-config-key"

// verityConfigFlag is the command annotation naming the flag that holds
// verity's configuration file when --config is taken.
const verityConfigFlag = "verity-config-flag"

// bindFlag ties a flag to a configuration key, so that a flag the user set
// overrides the file and the environment.
func bindFlag(fs *pflag.FlagSet, name, key string) {
	_ = fs.SetAnnotation(name, configKey, []string{key})
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "verity",
		Short: "Self-hosted evidence scoring: is a claim backed by evidence?",
		Long: `verity verifies claims against a corpus of ingested sources and answers
Supported, Refuted, Contested or Not enough evidence with a 0-100 score,
citations and the features behind the score.

Configuration comes from defaults, --config FILE (YAML), environment
variables VERITY_<SECTION>_<KEY> (e.g. VERITY_RETRIEVAL_TOP_N=8,
VERITY_FETCH_ALLOW_PRIVATE=1) and flags, each overriding the one before.
Run 'verity config' to see the effective configuration; values out of range
stop every command at start-up.

Invalid input exits with status 2 and names the field, and so does a command
line a command cannot run (a missing argument, an unknown flag or command);
other failures exit with status 1.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		// Text with a NUL or invalid UTF-8 is refused where it enters, as
		// the API does; file paths are the file system's business.
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			cmd.Flags().Visit(func(f *pflag.Flag) {
				if err == nil && !pathFlags[f.Name] {
					err = evidence.CheckText("--"+f.Name, f.Value.String())
				}
			})
			return err
		},
	}
	pf := root.PersistentFlags()
	pf.String("config", "", "YAML configuration file")
	pf.String("data", "./verity-data", "data directory (created if missing)")
	bindFlag(pf, "data", "data")
	pf.String("log-level", "info", "log level: debug, info, warn, error")
	bindFlag(pf, "log-level", "log.level")

	root.AddCommand(newConfigCmd())
	for _, add := range subcommands {
		root.AddCommand(add())
	}
	// verity alone prints the help; verity WORD with no such command is a
	// usage error (cobra's own check of this is not typed).
	root.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	root.Args = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(s, ", "))
		}
		return errors.New(msg)
	}
	markUsageErrors(root)
	return root
}

// usageError is a command line a command cannot run: a missing or extra
// argument, an unknown command or flag, a flag value of the wrong type.
// verity exits 2 on it, as on other invalid input.
type usageError struct {
	err  error
	path string // the command's path, "verity verify"
}

func (e *usageError) Error() string { return e.err.Error() }
func (e *usageError) Unwrap() error { return e.err }

// markUsageErrors makes the argument and flag errors of c and its
// subcommands usage errors.
func markUsageErrors(c *cobra.Command) {
	c.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return &usageError{err, cmd.CommandPath()} })
	if args := c.Args; args != nil {
		c.Args = func(cmd *cobra.Command, a []string) error {
			if err := args(cmd, a); err != nil {
				return &usageError{err, cmd.CommandPath()}
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		markUsageErrors(sub)
	}
}

// pathFlags name files or directories rather than text.
var pathFlags = map[string]bool{"config": true, "data": true, "excerpt-file": true, "set": true, "out": true, "output": true}

// subcommands are registered by the files that define them.
var subcommands []func() *cobra.Command

// loadFor loads the configuration for cmd: file, environment, then the flags
// the user set.
func loadFor(cmd *cobra.Command) (Config, *slog.Logger, error) {
	flags := map[string]any{}
	var ferr error
	visit := func(f *pflag.Flag) {
		keys := f.Annotations[configKey]
		if !f.Changed || len(keys) == 0 {
			return
		}
		switch f.Value.Type() {
		case "bool":
			b, err := cmd.Flags().GetBool(f.Name)
			if err != nil {
				ferr = err
			}
			flags[keys[0]] = b
		case "int":
			n, err := cmd.Flags().GetInt(f.Name)
			if err != nil {
				ferr = err
			}
			flags[keys[0]] = n
		default:
			flags[keys[0]] = f.Value.String()
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	if ferr != nil {
		return Config{}, nil, ferr
	}
	// A command whose own --config means something else (jury) names the
	// flag that carries verity's configuration file.
	name := "config"
	if n := cmd.Annotations[verityConfigFlag]; n != "" {
		name = n
	}
	path, _ := cmd.Flags().GetString(name)
	cfg, err := loadConfig(path, environ(), flags)
	if err != nil {
		return Config{}, nil, err
	}
	logger, err := newLogger(cmd.ErrOrStderr(), cfg.Log.Level, cfg.Log.Format)
	return cfg, logger, err
}

func newLogger(w io.Writer, level, format string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("log.level: %q is not one of debug, info, warn, error", level)
	}
	opts := &slog.HandlerOptions{Level: l}
	// server.LogHandler adds the request_id of the request a line is
	// logged for.
	switch strings.ToLower(format) {
	case "json":
		return slog.New(server.LogHandler(slog.NewJSONHandler(w, opts))), nil
	case "text", "":
		return slog.New(server.LogHandler(slog.NewTextHandler(w, opts))), nil
	}
	return nil, fmt.Errorf("log.format: %q is not text or json", format)
}

func newConfigCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Print the effective configuration (secrets masked)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, _, err := loadFor(cmd)
			if err != nil {
				return err
			}
			m, err := cfg.masked()
			if err != nil {
				return err
			}
			out, err := goyaml.Marshal(m)
			if err != nil {
				return err
			}
			_, err = cmd.OutOrStdout().Write(out)
			return err
		},
	}
}
