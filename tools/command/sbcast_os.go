package command

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
)

// osSbcastIO reads real files and sends chunks over TCP.
type osSbcastIO struct{}

func (osSbcastIO) open(name string) (sbcastSource, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("stat %s: %w", name, err)
	}
	st := sbcastStat{mode: uint32(fi.Mode().Perm()), size: fi.Size(), dir: fi.IsDir(), mtime: fi.ModTime(),
		atime: fi.ModTime(), ctime: fi.ModTime()}
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.mode, st.uid, st.gid = s.Mode, s.Uid, s.Gid
		st.atime = time.Unix(s.Atim.Unix())
		st.mtime = time.Unix(s.Mtim.Unix())
		st.ctime = time.Unix(s.Ctim.Unix())
	}
	if !fi.Mode().IsRegular() {
		st.size = max(st.size, 0)
	}
	return &osSource{File: f, st: st}, nil
}

func (osSbcastIO) send(ctx context.Context, addr string, timeout time.Duration, header string, data []byte) (*api.SbcastChunkResponse, error) {
	return client.SbcastChunk(ctx, addr, timeout, header, data)
}

type osSource struct {
	*os.File
	st sbcastStat
}

func (s *osSource) stat() sbcastStat { return s.st }
