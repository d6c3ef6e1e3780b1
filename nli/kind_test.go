package nli

import "testing"

func TestOtherKind(t *testing.T) {
	checkPairs(t, "otherKind", otherKind, []pairCase[bool]{
		{"Little Dorrit is a song by Charles Dickens.", "Little Dorrit is a novel by Charles Dickens, published between 1855 and 1857.", true},
		{"Jaws is a horror novel.", "Jaws is a 1975 horror film directed by Steven Spielberg.", true},
		{"Happiness in Slavery is an album by Nine Inch Nails.", "Happiness in Slavery is a song by American industrial rock band Nine Inch Nails.", true},
		// The same kind, or one the passage's sentence has elsewhere.
		{"Jaws is a horror film.", "Jaws is a 1975 horror film directed by Steven Spielberg.", false},
		{"The Beach is a drama novel.", "The Beach is a 2000 drama film based on the 1996 novel by Alex Garland.", false},
		// Synonyms, or one a kind of the other, anywhere in the sentence.
		{"Lalla Ward is a writer.", "Lalla Ward is an English actress and author.", false},
		{"Jaws is a drama movie.", "Jaws is a 1975 drama film.", false},
		// A participle after the kind begins what is said of it.
		{"Easy A is a film released in 2010.", "Easy A is a 2010 American teen comedy film directed by Will Gluck.", false},
		// Kinds too wide, names, and a passage of another subject.
		{"The iPhone 4 is a type of tablet.", "The iPhone 4 is a tablet made by Apple.", false},
		{"Dan Trachtenberg is a Canadian.", "Dan Trachtenberg is a filmmaker from Canada.", false},
		{"Duff McKagan is an American citizen.", "Duff McKagan is an American musician.", false},
		{"Little Dorrit is a song.", "Bleak House is a novel.", false},
	})
}
