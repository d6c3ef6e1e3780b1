package embedding_test

import (
	"testing"

	"github.com/verity-fc/verity/embedding"
	"github.com/verity-fc/verity/llm/embedtest"
)

func TestBuiltinConformance(t *testing.T) {
	b := embedding.NewBuiltin(nil)
	embedtest.Run(t, b, embedtest.Options{Dim: b.Dim(), Semantic: true})
}
