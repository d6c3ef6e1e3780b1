package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/verity-fc/verity/wordvec"
)

func newTrainWordnetCmd() *cobra.Command {
	var dict, out string
	cmd := &cobra.Command{
		Use:   "wordnet --dict DIR --out FILE",
		Short: "Rebuild the shipped WordNet relation file from the WordNet 3.0 database",
		Long: `train wordnet reads the Princeton WordNet 3.0 database (Debian package
wordnet-base, installed in /usr/share/wordnet) and writes the compact relation
file verity ships as wordvec/wordnet.bin: for each single-word lemma the word
vectors know, and each verb of two words whose verb they know (step down,
turn down: a verb and a particle, with the antonyms of the words of its
commonest sense), its first senses, the hypernyms of those synsets, the
antonym pairs, for places the places each lies within (part holonyms of
locations: Liverpool in England, the United Kingdom and Europe) and the
places adjectives are of (pertainyms: English, England), with the names of
places of two or three words or abbreviated (New York, United States, U.S.),
the place each word names first (American: the United States, not the
Americas), the lemmas written with a capital in every kept sense (names:
Picasso, Sydney; not Apple, also the fruit), the heads of the adjective
clusters (poisonous: toxic) and the nouns adjectives pertain to or are
derived with (dramatic: drama; efficacious: efficacy). The NLI judge reads
synonyms, antonyms, hypernyms and co-hyponyms from it, a claim's place that
holds the passage's place as its hypernym, a place and its adjective as
synonyms, a claim's place within the passage's as neither entailed nor
contradicted, a verb followed by its particle ("stepped down") as the verb
of two words too, a claim that opens with a name the passage lacks as not
entailed, an adjective satellite as its cluster head's hyponym, and an
adjective and its noun as synonyms. The same database gives the same file,
byte for byte.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("--out FILE is required")
			}
			if st, err := os.Stat(dict); err != nil || !st.IsDir() {
				return fmt.Errorf("--dict %s: not a WordNet database directory (apt-get install wordnet-base)", dict)
			}
			return writeFile(out, func(w io.Writer) error {
				bw := bufio.NewWriter(w)
				if err := wordvec.BuildWordNet(bw, dict, wordvec.Default()); err != nil {
					return fmt.Errorf("build wordnet relations: %w", err)
				}
				return bw.Flush()
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&dict, "dict", "/usr/share/wordnet", "WordNet 3.0 database directory")
	fl.StringVar(&out, "out", "", "output file")
	return cmd
}
