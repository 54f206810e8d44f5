package gpu

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// File is one GPU named by configuration: gres.conf's File= entry with its
// index on the node and its Type.
type File struct {
	Index int
	Path  string
	Model string
}

// Files discovers the GPUs gres.conf declares. Every file must exist and be
// a character device, as a cgroup device rule can only name those; a file
// that is missing or of another kind is an error naming it, so the caller
// falls back to the next discoverer instead of running jobs unconfined.
type Files []File

var _ Discoverer = Files(nil)

// Source implements Discoverer.
func (Files) Source() string { return "gres.conf" }

// Discover implements Discoverer.
func (fs Files) Discover() ([]Device, error) {
	out := make([]Device, 0, len(fs))
	for _, f := range fs {
		if _, _, err := CharDevice(f.Path); err != nil {
			return nil, err
		}
		out = append(out, Device{Index: f.Index, Model: f.Model, Path: f.Path})
	}
	return out, nil
}

// CharDevice returns the major and minor numbers of the character device
// at path, or an error saying why path is not one.
func CharDevice(path string) (major, minor uint32, err error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return 0, 0, fmt.Errorf("GPU device file %s: %w", path, os.NewSyscallError("stat", err))
	}
	if st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return 0, 0, fmt.Errorf("GPU device file %s: not a character device", path)
	}
	return unix.Major(st.Rdev), unix.Minor(st.Rdev), nil
}
