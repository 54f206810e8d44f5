package command

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/client"
)

// sbcastDefaultFanout is how many nodes get a block at once without -F.
const sbcastDefaultFanout = 16

// sbcastDefaultTimeout bounds one chunk's exchange without -t.
const sbcastDefaultTimeout = 60 * time.Second

// sbcastNode is one destination node and how its copy fares.
type sbcastNode struct {
	target api.SbcastTarget
	failed bool
}

// sendSbcast reads the file block by block (once) and sends each block to
// every node still going, -F nodes at a time. A node that fails is
// reported as slurmd's answer ("REQUEST_FILE_BCAST(node): File exists")
// and dropped; the others go on. The status is the error number of the
// first node (in node order) that failed, as Slurm's, or 1 for a failure
// without one.
func sendSbcast(ctx context.Context, w *output, p *sbcastParams, src sbcastSource, st sbcastStat, grants *api.SbcastResponse, fio sbcastIO) int {
	nodes := make([]*sbcastNode, len(grants.Targets))
	for i, t := range grants.Targets {
		nodes[i] = &sbcastNode{target: t}
	}
	block := sbcastBlock(p.blockSize)
	timeout := sbcastDefaultTimeout
	if p.timeoutMS > 0 {
		timeout = time.Duration(p.timeoutMS) * time.Millisecond
	}
	codes := make([]int, len(nodes))
	buf := make([]byte, block)
	for off, n := int64(0), 1; off < st.size || (off == 0 && st.size == 0); n++ {
		size := min(int64(block), st.size-off)
		data := buf[:size]
		if _, err := src.ReadAt(data, off); err != nil && !(errors.Is(err, io.EOF) && size == 0) {
			w.errf("Can't read `%s`: %s", p.src, strerror(err))
			return 255
		}
		if p.verbose > 1 {
			w.raw(sprintf("sbcast: debug:  block %d, size %d\n", n, size))
		}
		chunk := api.SbcastChunk{Offset: off, Data: data, Last: off+size == st.size, Force: p.force,
			Mode: st.mode & 0o7777, Preserve: p.preserve, Atime: st.atime.UnixNano(), Mtime: st.mtime.UnixNano()}
		sendBlock(ctx, w, fio, nodes, &chunk, p.fanout, timeout, codes)
		off += size
		if size == 0 || allFailed(nodes) {
			break
		}
	}
	for _, c := range codes {
		if c != 0 {
			return c
		}
	}
	return 0
}

// sbcastBlock is the chunk size for -s: Slurm's default or the asked size,
// within what a node daemon takes.
func sbcastBlock(size uint32) int {
	b := int(size)
	if b == 0 {
		b = sbcastDefaultBlock
	}
	return min(max(b, api.SbcastChunkMin), api.SbcastChunkMax)
}

// sendBlock sends one chunk to every node still going, fanout at a time,
// and reports each failure as it comes.
func sendBlock(ctx context.Context, w *output, fio sbcastIO, nodes []*sbcastNode, chunk *api.SbcastChunk, fanout int, timeout time.Duration, codes []int) {
	if fanout <= 0 {
		fanout = sbcastDefaultFanout
	}
	sem := make(chan struct{}, fanout)
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, n := range nodes {
		if n.failed {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c := *chunk
			c.Grant = n.target.Grant
			var out *api.SbcastChunkResponse
			header, err := client.SbcastChunkHeader(&c)
			if err == nil {
				out, err = fio.send(ctx, n.target.Addr, timeout, header, chunk.Data)
			}
			text, code := "", 0
			switch {
			case err != nil:
				text, code = errText(err), 1
			case out.Errno != 0:
				text, code = out.Error, out.Errno&0xff
			default:
				return
			}
			mu.Lock()
			defer mu.Unlock()
			n.failed, codes[i] = true, code
			w.errf("REQUEST_FILE_BCAST(%s): %s", n.target.Node, text)
		}()
	}
	wg.Wait()
}

func allFailed(nodes []*sbcastNode) bool {
	for _, n := range nodes {
		if !n.failed {
			return false
		}
	}
	return true
}
