//go:build unix

package retrieval

import (
	"os"
	"syscall"
)

// mapping is a file mapped read-only into memory.
type mapping struct{ data []byte }

func mapFile(path string) (*mapping, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() == 0 {
		return &mapping{}, nil
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, err
	}
	return &mapping{data: data}, nil
}

func (m *mapping) close() {
	if m.data != nil {
		_ = syscall.Munmap(m.data)
		m.data = nil
	}
}
