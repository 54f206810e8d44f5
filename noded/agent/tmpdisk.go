package agent

import (
	"errors"
	"fmt"
	"io/fs"

	"golang.org/x/sys/unix"
)

// tmpDiskMB is the size of the file system holding path (TmpFS, %n and
// %h expanded), in MiB, as slurmd's get_tmp_disk measures it: all its
// blocks, used or not. A path that does not exist is 0 without an error,
// as in slurmd. Emulated nodes measure too, as several slurmd on one host
// do: nodes sharing a TmpFS each report the whole file system.
func tmpDiskMB(path string) (int64, error) {
	if path == "" {
		path = "/tmp"
	}
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return 0, nil
		}
		return 0, err
	}
	return int64(st.Blocks) * st.Frsize / (1 << 20), nil
}

// measureTmpDisk sets what registration reports as TmpDisk from TmpFS
// (0 when it cannot be measured, as slurmd reports then).
func (hw *hardware) measureTmpDisk(nc *nodeConfig) error {
	mb, err := tmpDiskMB(expandNode(nc.cfg.TmpFS, nc.node.Name, nc.hostname))
	hw.tmpDiskMB = mb
	if err != nil {
		return fmt.Errorf("TmpFS %s: %w", nc.cfg.TmpFS, err)
	}
	return nil
}
