package agent

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	"github.com/loamhpc/loam/noded/asuser"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
	"github.com/sirupsen/logrus"
)

// sbcastIdle is how long a transfer may wait for its next chunk before
// the daemon drops it and removes its temporary file.
const sbcastIdle = 5 * time.Minute

// sbcastServer takes sbcast's chunks. The first chunk of a transfer must
// carry a grant the controller signed for this node and a job that runs
// here; later chunks must carry the very same grant (its signature is
// checked once: the verifier refuses a nonce twice).
type sbcastServer struct {
	node     string
	verifier *auth.Verifier
	log      *logrus.Entry
	now      func() time.Time
	// jobRuns says whether a job runs here (Agent.stepJob).
	jobRuns func(ctx context.Context, id uint32) *api.Error

	mu        sync.Mutex
	transfers map[string]*sbcastTransfer
}

// sbcastTransfer is one grant's file in progress. Its own lock keeps one
// chunk at a time.
type sbcastTransfer struct {
	mu     sync.Mutex
	grant  []byte // claims and signature, compared with every later chunk
	claims api.SbcastClaims
	file   *sbcastFile
	last   time.Time
}

func newSbcastServer(a *Agent) *sbcastServer {
	return &sbcastServer{node: a.nc.node.Name, verifier: a.verifier, log: a.log, now: time.Now,
		jobRuns: func(ctx context.Context, id uint32) *api.Error {
			_, aerr := a.stepJob(ctx, id)
			return aerr
		},
		transfers: make(map[string]*sbcastTransfer)}
}

// serve reads one chunk: its grant and place from api.HeaderSbcastChunk,
// its data from the body (at most api.SbcastChunkMax bytes), and answers
// its outcome.
func (s *sbcastServer) serve(w http.ResponseWriter, r *http.Request) {
	meta, err := base64.RawURLEncoding.DecodeString(r.Header.Get(api.HeaderSbcastChunk))
	if err != nil || len(meta) == 0 {
		writeError(w, api.Errorf(api.CodeBadRequest, "no valid %s header", api.HeaderSbcastChunk))
		return
	}
	var c api.SbcastChunk
	if aerr := api.DecodeStrict(meta, &c); aerr != nil {
		writeError(w, aerr)
		return
	}
	if len(c.Data) != 0 {
		writeError(w, api.Errorf(api.CodeBadRequest, "sbcast data belongs in the body"))
		return
	}
	if c.Data, err = io.ReadAll(io.LimitReader(r.Body, api.SbcastChunkMax+1)); err != nil {
		writeError(w, api.Errorf(api.CodeBadRequest, "read body: %v", err))
		return
	}
	out, aerr := s.chunk(r, &c)
	if aerr != nil {
		s.log.WithField("reason", aerr.Error()).Warn("sbcast chunk refused")
		writeError(w, aerr)
		return
	}
	writeJSON(w, out)
}

// chunk applies one chunk to its transfer, starting the transfer on the
// first one.
func (s *sbcastServer) chunk(r *http.Request, c *api.SbcastChunk) (*api.SbcastChunkResponse, *api.Error) {
	if len(c.Data) > api.SbcastChunkMax {
		return nil, api.Errorf(api.CodeTooLarge, "sbcast chunk of %d bytes, more than %d", len(c.Data), api.SbcastChunkMax)
	}
	key, err := json.Marshal(c.Grant)
	if err != nil {
		return nil, api.Errorf(api.CodeBadRequest, "sbcast grant: %v", err)
	}
	t, err := s.transfer(r, c, key)
	if err != nil {
		var aerr *api.Error
		if errors.As(err, &aerr) {
			return nil, aerr
		}
		return errnoAnswer(err) // the temporary file could not be made
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.file == nil {
		return nil, api.Errorf(api.CodeBadRequest, "sbcast transfer %s has ended", t.claims.Transfer)
	}
	if s.now().UnixNano() >= t.claims.Expires {
		return s.fail(t, api.Errorf(api.CodeAuthExpired, "sbcast grant expired"))
	}
	if end := c.Offset + int64(len(c.Data)); end > t.claims.Size || (c.Last && end != t.claims.Size) {
		return s.fail(t, api.Errorf(api.CodeBadRequest, "sbcast chunk ends at %d, the file has %d bytes", end, t.claims.Size))
	}
	t.last = s.now()
	if err := t.file.write(c.Offset, c.Data); err != nil {
		return s.failFile(t, err)
	}
	if !c.Last {
		return &api.SbcastChunkResponse{Written: t.file.written}, nil
	}
	attrs := sbcastAttrs{mode: fileMode(c.Mode), preserve: c.Preserve,
		atime: time.Unix(0, c.Atime), mtime: time.Unix(0, c.Mtime)}
	written := t.file.written
	err = t.file.finish(attrs, c.Force)
	s.drop(t)
	if err != nil {
		t.file.abort()
		t.file = nil
		return errnoAnswer(err)
	}
	t.file = nil
	s.log.WithField("job_id", t.claims.JobID).WithField("path", t.claims.Dest).
		WithField("bytes", written).Info("sbcast file written")
	return &api.SbcastChunkResponse{Written: written}, nil
}

// transfer finds the transfer of a chunk's grant, or starts one for a
// first chunk.
func (s *sbcastServer) transfer(r *http.Request, c *api.SbcastChunk, key []byte) (*sbcastTransfer, error) {
	var claims api.SbcastClaims
	if err := json.Unmarshal(c.Grant.Claims, &claims); err != nil {
		return nil, api.Errorf(api.CodeAuthCredInvalid, "sbcast grant: %v", err)
	}
	id := claims.Transfer + "/" + claims.Node
	s.mu.Lock()
	t := s.transfers[id]
	s.mu.Unlock()
	switch {
	case t != nil && !bytes.Equal(t.grant, key):
		return nil, api.Errorf(api.CodeAuthCredInvalid, "sbcast grant differs from its transfer's")
	case t != nil:
		return t, nil
	case c.Offset != 0:
		return nil, api.Errorf(api.CodeBadRequest, "sbcast transfer %s is unknown here (chunk at offset %d)", claims.Transfer, c.Offset)
	}
	if aerr := s.verify(c.Grant, &claims); aerr != nil {
		return nil, aerr
	}
	if aerr := s.jobRuns(r.Context(), claims.JobID); aerr != nil {
		return nil, aerr
	}
	s.sweep()
	cred := asuser.Credential{UID: claims.UID, GID: claims.GID, Groups: claims.Groups}
	f, err := createSbcastFile(cred, claims.Dest, claims.Node+"."+claims.Transfer[:min(12, len(claims.Transfer))], c.Force)
	if err != nil {
		return nil, err
	}
	t = &sbcastTransfer{grant: key, claims: claims, file: f, last: s.now()}
	s.mu.Lock()
	s.transfers[id] = t
	s.mu.Unlock()
	return t, nil
}

// verify checks a grant's signature (once: its nonce is then spent), that
// the controller's grant signer made it, and that it names this node.
func (s *sbcastServer) verify(g api.SbcastGrant, claims *api.SbcastClaims) *api.Error {
	fake := &http.Request{Method: api.SbcastGrantMethod, URL: &url.URL{Path: api.SbcastGrantURI}, Header: http.Header{}}
	for _, h := range g.Sig {
		fake.Header.Set(h[0], h[1])
	}
	sender, err := s.verifier.Verify(fake, g.Claims)
	switch {
	case err != nil:
		return api.Errorf(api.CodeAuthCredInvalid, "sbcast grant: %v", err)
	case sender != api.SbcastGrantSender:
		return api.Errorf(api.CodeAuthCredInvalid, "sbcast grant from %q", sender)
	case claims.Node != s.node:
		return api.Errorf(api.CodeAuthCredInvalid, "sbcast grant for node %s, this is %s", claims.Node, s.node)
	case claims.Transfer == "" || claims.Dest == "":
		return api.Errorf(api.CodeAuthCredInvalid, "sbcast grant without transfer or destination")
	case s.now().UnixNano() >= claims.Expires:
		return api.Errorf(api.CodeAuthExpired, "sbcast grant expired")
	}
	return nil
}

// sweep drops transfers idle for sbcastIdle or past their grant.
func (s *sbcastServer) sweep() {
	now := s.now()
	s.mu.Lock()
	var stale []*sbcastTransfer
	for id, t := range s.transfers {
		if t.mu.TryLock() {
			if now.Sub(t.last) > sbcastIdle || now.UnixNano() >= t.claims.Expires {
				stale = append(stale, t)
				delete(s.transfers, id)
			} else {
				t.mu.Unlock()
			}
		}
	}
	s.mu.Unlock()
	for _, t := range stale {
		if t.file != nil {
			t.file.abort()
			t.file = nil
		}
		t.mu.Unlock()
	}
}

func (s *sbcastServer) drop(t *sbcastTransfer) {
	s.mu.Lock()
	delete(s.transfers, t.claims.Transfer+"/"+t.claims.Node)
	s.mu.Unlock()
}

// fail ends a transfer with a protocol error.
func (s *sbcastServer) fail(t *sbcastTransfer, aerr *api.Error) (*api.SbcastChunkResponse, *api.Error) {
	s.drop(t)
	t.file.abort()
	t.file = nil
	return nil, aerr
}

// failFile ends a transfer whose file failed.
func (s *sbcastServer) failFile(t *sbcastTransfer, err error) (*api.SbcastChunkResponse, *api.Error) {
	s.drop(t)
	t.file.abort()
	t.file = nil
	return errnoAnswer(err)
}

// errnoAnswer is a file system failure as slurmd reports it: its errno
// and text; an error without one is an api error.
func errnoAnswer(err error) (*api.SbcastChunkResponse, *api.Error) {
	if n, text := errnoOf(err); n != 0 {
		return &api.SbcastChunkResponse{Errno: n, Error: text}, nil
	}
	return nil, api.Errorf(api.CodeWritingToFile, "%v", err)
}

// fileMode converts a stat mode's permission bits (as sbcast sends them,
// st_mode & 07777) to an os.FileMode.
func fileMode(m uint32) os.FileMode {
	mode := os.FileMode(m & 0o777)
	if m&0o4000 != 0 {
		mode |= os.ModeSetuid
	}
	if m&0o2000 != 0 {
		mode |= os.ModeSetgid
	}
	if m&0o1000 != 0 {
		mode |= os.ModeSticky
	}
	return mode
}
