package step

import (
	"os"

	"github.com/loamhpc/loam/noded/asuser"
)

// Credential is the job user's identity.
type Credential = asuser.Credential

// fileSet opens each distinct output path once, so tasks writing to the
// same file share one descriptor (O_APPEND: their writes never overwrite
// each other).
type fileSet struct {
	cred   Credential
	append bool
	files  map[string]*os.File
}

func newFileSet(cred Credential, appendMode bool) *fileSet {
	return &fileSet{cred: cred, append: appendMode, files: map[string]*os.File{}}
}

// output opens path for writing as the job's user. truncate empties it
// first (unless --open-mode=append).
func (s *fileSet) output(path string, truncate bool) (*os.File, error) {
	if f := s.files[path]; f != nil {
		return f, nil
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
	if truncate && !s.append {
		flags |= os.O_TRUNC
	}
	var f *os.File
	err := asuser.Do(s.cred, func() error {
		var err error
		f, err = os.OpenFile(path, flags, 0o644)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.files[path] = f
	return f, nil
}

// input opens path for reading as the job's user.
func (s *fileSet) input(path string) (*os.File, error) {
	var f *os.File
	err := asuser.Do(s.cred, func() error {
		var err error
		f, err = os.Open(path)
		return err
	})
	return f, err
}

// close closes every output file.
func (s *fileSet) close() {
	for _, f := range s.files {
		f.Close()
	}
}
