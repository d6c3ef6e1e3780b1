package nli

import "testing"

func TestOtherOpeningName(t *testing.T) {
	checkPairs(t, "otherOpeningName", otherOpeningName, []pairCase[bool]{
		{"Picasso painted the Mona Lisa.", "The Mona Lisa is a portrait painted by Leonardo da Vinci.", true},
		{"Edison invented the telephone.", "Alexander Graham Bell invented the telephone in 1876.", true},
		{"Marlowe wrote Hamlet.", "Hamlet is a tragedy written by William Shakespeare around 1600.", true},
		// The passage has the name, or a short form of it.
		{"Leonardo painted the Mona Lisa.", "The Mona Lisa is a portrait painted by Leonardo da Vinci.", false},
		{"Thomas Edison invented the phonograph.", "The phonograph was invented in 1877 by Edison.", false},
		// A common word with no determiner, one of a kind, before a
		// verb, reads as a name ("apple" is also the fruit).
		{"Apple acquired GitHub in 2018.", "Microsoft acquired GitHub in 2018.", true},
		{"Google acquired GitHub.", "Microsoft acquired GitHub in 2018 for $7.5 billion.", true},
		// Not a plural, a participle after it, a number word or a word
		// the passage has.
		{"Exports rose in 2023.", "In 2023 exports rose in France.", false},
		{"Kids pose for a camera.", "Several African American children posing for the camera.", false},
		{"Man racing on a track.", "A motorcyclist in black racing on a track.", false},
		{"Two men hold hands.", "A man joins hands with another guy.", false},
		// A pronoun or a demonstrative may stand for the name, a passage
		// cut mid-sentence may have left it out, and one that names
		// nothing tells of no one else.
		{"Picasso painted the portrait.", "He painted the portrait in Paris.", false},
		// A pronoun that opens a sentence after another's name is that
		// name's.
		{"Charles Babbage died in 1852.", "Ada Lovelace was an English mathematician. She died of cancer in 1852.", true},
		{"Charles Babbage died in 1852.", "She died of cancer in 1852. Ada Lovelace was an English mathematician.", false},
		{"Picasso painted the portrait.", "This artist painted the portrait in Paris.", false},
		{"Picasso painted the portrait in Paris.", "painted the portrait in Paris in 1905.", false},
		{"Wildfang was founded in 2010.", "The company was founded in 2010 by Emma Mcilroy and Julia Parsley.", false},
		{"Islamabad is a city.", "The city is one of the safest in Pakistan.", false},
		// An acronym of the name's first letter may stand for it.
		{"Pyridostatin induces checkpoint activation.", "PDS reduces proliferation of HR-defective cells by inducing checkpoint activation.", false},
		// A description may stand for the name even when the claim has
		// its noun: the rule stands back.
		{"Edison invented the telephone.", "The telephone was invented by Alexander Graham Bell in 1876.", false},
		{"Picasso painted the portrait.", "The portrait was painted in oils.", false},
		// The passage lacks another word of the claim.
		{"Picasso painted the Mona Lisa in 1503.", "The Mona Lisa is a portrait by Leonardo da Vinci.", false},
	})
}
