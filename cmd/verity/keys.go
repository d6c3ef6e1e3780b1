package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/corpus"
	"github.com/verity-fc/verity/evidence"
	"github.com/verity-fc/verity/server"
)

func init() { subcommands = append(subcommands, newKeysCmd) }

func newKeysCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "Create, list and revoke the API keys of the HTTP API",
		Long: `keys manages the API keys that 'verity serve' requires once one exists. A key
is shown once, when it is created; the corpus database keeps only its
SHA-256. Scope read allows verify, fact-check, citations, entailment, jury and
every GET route; scope write also allows ingest and deleting sources (write
implies read). serve reads whether keys exist when it starts: restart it after
creating the first key. Revocation takes effect at once.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newKeysCreateCmd(), newKeysListCmd(), newKeysRevokeCmd())
	return cmd
}

// withKeys opens the corpus only (no models) and runs fn on its keys.
func withKeys(cmd *cobra.Command, fn func(ks corpus.KeyStore) error) error {
	cfg, log, err := loadFor(cmd)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(cfg.Data, 0o750); err != nil {
		return fmt.Errorf("create data directory: %w", err)
	}
	a := &app{cfg: cfg, log: log}
	defer a.Close()
	if err := a.openCorpus(cmd.Context()); err != nil {
		return err
	}
	return fn(a.corpus)
}

// minImportedKey is the shortest key --from-env accepts: 32 characters of
// a random key carry enough entropy to withstand guessing.
const minImportedKey = 32

func newKeysCreateCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "create",
		Short: "Create an API key and print it (once)",
		Long: `create makes a key of --scope (read or write) named --name and prints it on
stdout: store it now, it cannot be shown again.

With --from-env VAR it stores the key held in the environment variable VAR
instead (at least 32 characters, e.g. from 'openssl rand -hex 32'), and does
nothing when that key is already stored, so a deployment can run it at every
start (docker-compose.yml does).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			name, _ := cmd.Flags().GetString("name")
			scope, _ := cmd.Flags().GetString("scope")
			fromEnv, _ := cmd.Flags().GetString("from-env")
			if s := corpus.KeyScope(scope); !s.Valid() {
				return evidence.Invalid("scope", "must be read or write, got %q", scope)
			}
			var given string
			if fromEnv != "" {
				given = os.Getenv(fromEnv)
				if len(given) < minImportedKey {
					return evidence.Invalid("from-env", "%s must hold a key of at least %d characters, got %d", fromEnv, minImportedKey, len(given))
				}
			}
			return withKeys(cmd, func(ks corpus.KeyStore) error {
				key, rec, err := server.NewKey(name, corpus.KeyScope(scope), time.Now())
				if err != nil {
					return err
				}
				if given != "" {
					if _, err := ks.KeyByHash(cmd.Context(), server.HashKey(given)); err == nil {
						fmt.Fprintf(cmd.ErrOrStderr(), "the key in %s is already stored\n", fromEnv)
						return nil
					} else if !errors.Is(err, corpus.ErrNotFound) {
						return err
					}
					key, rec.Hash, rec.Prefix = given, server.HashKey(given), given[:min(len(given), 9)]
				}
				if err := ks.CreateKey(cmd.Context(), rec); err != nil {
					return fmt.Errorf("store key: %w", err)
				}
				if given != "" {
					fmt.Fprintf(cmd.ErrOrStderr(), "stored the key in %s as %s (scope %s)\n", fromEnv, rec.ID, rec.Scope)
					return nil
				}
				fmt.Fprintln(cmd.OutOrStdout(), key)
				fmt.Fprintf(cmd.ErrOrStderr(), "created key %s (scope %s); it is shown once, store it now. Restart 'verity serve' if this is the first key.\n", rec.ID, rec.Scope)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.String("name", "", "a name to recognise the key by (who or what uses it)")
	f.String("scope", "read", "read, or write (ingest and deletions; implies read)")
	f.String("from-env", "", "store the key held in this environment variable instead of making one")
	return cmd
}

func newKeysListCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List API keys (never the keys themselves)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			asJSON, _ := cmd.Flags().GetBool("json")
			return withKeys(cmd, func(ks corpus.KeyStore) error {
				keys, err := ks.ListKeys(cmd.Context())
				if err != nil {
					return err
				}
				if asJSON {
					return json.NewEncoder(cmd.OutOrStdout()).Encode(map[string]any{"keys": keys})
				}
				tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tNAME\tSCOPE\tPREFIX\tCREATED\tREVOKED")
				for _, k := range keys {
					revoked := "-"
					if k.Revoked() {
						revoked = k.RevokedAt.Format(time.RFC3339)
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s…\t%s\t%s\n", k.ID, k.Name, k.Scope, k.Prefix, k.CreatedAt.Format(time.RFC3339), revoked)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().Bool("json", false, "print JSON")
	return cmd
}

func newKeysRevokeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "revoke ID",
		Short: "Revoke an API key; requests with it get 401 at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withKeys(cmd, func(ks corpus.KeyStore) error {
				err := ks.RevokeKey(cmd.Context(), args[0], time.Now())
				if errors.Is(err, corpus.ErrNotFound) {
					return evidence.Invalid("id", "no API key has ID %q ('verity keys list' shows them)", args[0])
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "revoked key %s\n", args[0])
				return nil
			})
		},
	}
}
