package embedding

// stopwords are function words and PTB clitics that the embedder skips:
// they say little about what a sentence is about, and SIF weighting alone
// leaves enough of them in a short sentence to pull unrelated sentences
// together. Negations ("not", "no", "never") are kept: they are frequent,
// so SIF already weighs them lightly, and "not" is still content. "n't" is read as "not".
var stopwords = setOf(
	"a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
	"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
	"can", "could", "did", "do", "does", "doing", "down", "during",
	"each", "few", "for", "from", "further",
	"had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
	"i", "if", "in", "into", "is", "it", "its", "itself",
	"just", "me", "might", "more", "most", "must", "my", "myself",
	"of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
	"same", "shall", "she", "should", "so", "some", "such",
	"than", "that", "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they",
	"this", "those", "through", "to", "too",
	"under", "until", "up", "very",
	"was", "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
	"you", "your", "yours", "yourself", "yourselves",
	"'s", "'re", "'ve", "'ll", "'d", "'m",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}
