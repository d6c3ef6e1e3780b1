package jury

import (
	"io"
	"log/slog"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))
