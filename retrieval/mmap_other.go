//go:build !unix

package retrieval

import "os"

// mapping is a file read into memory where mmap is not available.
type mapping struct{ data []byte }

func mapFile(path string) (*mapping, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &mapping{data: data}, nil
}

func (m *mapping) close() { m.data = nil }
