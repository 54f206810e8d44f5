package gpu

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// NvidiaMajor is the character-device major number of NVIDIA's GPU device
// files (/dev/nvidiaN is 195:N). Fake device files use it too, with the GPU
// index as the minor, so the cgroup device rules of an emulated node look
// exactly like a real node's. Opening such a file without the driver fails
// with ENXIO when the cgroup allows it and EPERM when the cgroup denies it.
const NvidiaMajor = 195

// DefaultFakeMemoryMB is the memory of a fake GPU: an H100 80GB as NVML
// reports it.
const DefaultFakeMemoryMB = 81559

// Fake is a made-up set of GPUs for emulated nodes: Count GPUs of Model on
// node Node. When Dir is set, Discover creates Dir/nvidia0..N-1 as
// character devices NvidiaMajor:index (mode 0666; the cgroup decides who
// may open them) and reports them as the devices' paths; an existing file
// there must already be that device.
type Fake struct {
	Node     string
	Count    int
	Model    string
	MemoryMB int64
	Dir      string
}

var _ Discoverer = Fake{}

// Source implements Discoverer.
func (Fake) Source() string { return "fake" }

// Discover implements Discoverer.
func (f Fake) Discover() ([]Device, error) {
	if f.Count < 0 {
		return nil, fmt.Errorf("fake GPU count %d is negative", f.Count)
	}
	mem := f.MemoryMB
	if mem == 0 {
		mem = DefaultFakeMemoryMB
	}
	out := make([]Device, 0, f.Count)
	for i := range f.Count {
		d := Device{Index: i, UUID: FakeUUID(f.Node, i), Model: f.Model, MemoryMB: mem}
		if f.Dir != "" {
			d.Path = filepath.Join(f.Dir, fmt.Sprintf("nvidia%d", i))
			if err := mknod(d.Path, i); err != nil {
				return nil, err
			}
		}
		out = append(out, d)
	}
	return out, nil
}

// mknod makes path the character device NvidiaMajor:minor unless it
// already is.
func mknod(path string, minor int) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("fake GPU directory: %w", err)
	}
	maj, mnr, err := CharDevice(path)
	switch {
	case err == nil && maj == NvidiaMajor && mnr == uint32(minor):
		return nil
	case err == nil:
		return fmt.Errorf("fake GPU %s is device %d:%d, want %d:%d", path, maj, mnr, NvidiaMajor, minor)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dev := unix.Mkdev(NvidiaMajor, uint32(minor))
	if err := unix.Mknod(path, unix.S_IFCHR|0o666, int(dev)); err != nil {
		return fmt.Errorf("create fake GPU %s: %w", path, os.NewSyscallError("mknod", err))
	}
	// mknod honours the umask; the cgroup, not the mode, guards the file.
	return os.Chmod(path, 0o666)
}

// FakeUUID returns a stable UUID for fake GPU index on node, shaped like
// NVML's ("GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx").
func FakeUUID(node string, index int) string {
	h := sha256.Sum256([]byte(fmt.Sprintf("loam fake gpu\x00%s\x00%d", node, index)))
	return fmt.Sprintf("GPU-%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}
