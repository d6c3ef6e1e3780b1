package nli

import "testing"

func TestOtherMaker(t *testing.T) {
	const (
		quixote = "Don Quixote is a Spanish novel by Miguel de Cervantes, published in 1605."
		veeram  = "Veeram is a 2014 Indian Tamil action film directed by Siva and produced by Vijaya Productions."
		cup     = "Spain won the 2010 FIFA World Cup, beating the Netherlands in the final."
	)
	for _, tt := range []struct {
		claim, passage string
		want           int
	}{
		{"Shakespeare wrote Don Quixote.", quixote, -1},
		{"Cervantes wrote Don Quixote.", quixote, 0},
		{"Shakespeare did not write Don Quixote.", quixote, 1},
		{"Don Quixote was never written by Shakespeare.", quixote, 1},
		{"Cervantes did not write Don Quixote.", quixote, 0},
		{"Shakespeare wrote Hamlet.", quixote, 0},         // another work
		{"Shakespeare produced Don Quixote.", quixote, 0}, // a novel's "by" is no producer
		{"Shakespeare didn't write Don Quixote.", quixote, 1},
		{"No one but Shakespeare wrote Don Quixote.", quixote, 0}, // a negation elsewhere
		{"Veeram was produced by Marvel.", veeram, -1},
		{"Veeram was directed by Vijaya.", veeram, -1}, // named, but in another slot
		{"Veeram was directed by Siva.", veeram, 0},
		{"Veeram was directed by a Tamil director.", veeram, 0}, // no name
		{"In the End was written by Lorde.", "In the End is a song by American rock band Linkin Park.", -1},
		{"Picasso painted the Mona Lisa.", "The Mona Lisa is a portrait painted by Leonardo da Vinci.", -1},
		{"Picasso visited the Louvre.", "The Louvre was visited by Leonardo da Vinci in 1516.", 0},
		{"Shawn Carlson writes about science.", "The Dark Tower is a science fantasy film directed and co-written by Nikolaj Arcel.", 0}, // no title
		{"The song was produced by Kanye West.", "The song was produced by Sonny Digital, West, BWheezy and Mike Dean.", 0},
		{"Brazil won the 2010 World Cup.", cup, -1},
		{"Spain won the 2010 World Cup.", cup, 0},
		{"Brazil won the World Cup.", cup, 0}, // no year: other years' winners
		{"Brazil did not win the 2010 World Cup.", cup, 1},
		{"Paris hosted the Olympics in 2012.", "London hosted the 2012 Summer Olympics.", -1},
		{"Chrisette Michele won a Grammy Award in 2009.", "Biography She won a Grammy Award for Best Urban/Alternative Performance in 2009.", 0}, // one of many
		{"Birthday Song was produced by Eminem.", "Birthday Song was produced by Sonny Digital, West, BWheezy and Mike Dean.", -1},
	} {
		if got := otherMaker(analyse(tt.claim), analyse(tt.passage)); got != tt.want {
			t.Errorf("otherMaker(%q, %q) = %d, want %d", tt.claim, tt.passage, got, tt.want)
		}
	}
}
