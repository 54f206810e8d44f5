package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/sirupsen/logrus"

	"github.com/loamhpc/loam/noded/nodedtest"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// sbcastUser creates a system user for the test (removed afterwards).
func sbcastUser(t *testing.T) (uint32, uint32) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("writing as another user needs root")
	}
	return nodedtest.User(t, "loamsbcast")
}

// sbcastFixture is a node daemon's sbcast server on node n1 where job 5
// runs, and a signer standing in for the controller.
type sbcastFixture struct {
	t        *testing.T
	srv      *sbcastServer
	signer   *auth.Signer
	uid, gid uint32
	seq      int
}

func newSbcastFixture(t *testing.T) *sbcastFixture {
	uid, gid := sbcastUser(t)
	key, err := auth.NewKey([]byte("0123456789abcdef0123456789abcdef"))
	if err != nil {
		t.Fatal(err)
	}
	srv := &sbcastServer{node: "n1", verifier: auth.NewVerifier(key), log: logrus.NewEntry(logrus.New()),
		now: time.Now, transfers: map[string]*sbcastTransfer{},
		jobRuns: func(_ context.Context, id uint32) *api.Error {
			if id != 5 {
				return api.Errorf(api.CodeJobNotRunning, "job %d does not run on n1", id)
			}
			return nil
		}}
	return &sbcastFixture{t: t, srv: srv, signer: auth.NewSigner(key, api.SbcastGrantSender), uid: uid, gid: gid}
}

// grant signs claims for dest on n1 for job 5 (edit changes them first).
func (fx *sbcastFixture) grant(dest string, size int64, edit func(*api.SbcastClaims)) api.SbcastGrant {
	fx.seq++
	c := api.SbcastClaims{Transfer: "t" + strconv.Itoa(fx.seq) + "0123456789ab", JobID: 5, Node: "n1",
		UID: fx.uid, GID: fx.gid, Dest: dest, Size: size, Expires: time.Now().Add(time.Hour).UnixNano()}
	if edit != nil {
		edit(&c)
	}
	return fx.sign(c, fx.signer)
}

func (fx *sbcastFixture) sign(c api.SbcastClaims, s *auth.Signer) api.SbcastGrant {
	data, err := json.Marshal(c)
	if err != nil {
		fx.t.Fatal(err)
	}
	sig, err := s.SignHeaders(api.SbcastGrantMethod, api.SbcastGrantURI, data)
	if err != nil {
		fx.t.Fatal(err)
	}
	return api.SbcastGrant{Claims: data, Sig: sig}
}

func (fx *sbcastFixture) send(c *api.SbcastChunk) (*api.SbcastChunkResponse, *api.Error) {
	return fx.srv.chunk(httptest.NewRequest("POST", api.PathNodedSbcast, nil), c)
}

// copyFile sends data in two chunks and returns the last answer.
func (fx *sbcastFixture) copyFile(dest string, data []byte, force bool) (*api.SbcastChunkResponse, *api.Error) {
	g := fx.grant(dest, int64(len(data)), nil)
	half := len(data) / 2
	first := &api.SbcastChunk{Grant: g, Data: data[:half], Force: force, Mode: 0o640}
	if out, aerr := fx.send(first); aerr != nil || out.Errno != 0 {
		return out, aerr
	}
	mtime := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	return fx.send(&api.SbcastChunk{Grant: g, Offset: int64(half), Data: data[half:], Last: true, Force: force,
		Mode: 0o640, Preserve: true, Atime: mtime.UnixNano(), Mtime: mtime.UnixNano()})
}

// userDir is a directory only uid may write.
func sbcastUserDir(t *testing.T, uid, gid uint32) string {
	t.Helper()
	d := t.TempDir()
	if err := os.Chown(d, int(uid), int(gid)); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Dir(d), 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSbcastWritesAsTheJobUser(t *testing.T) {
	fx := newSbcastFixture(t)
	dest := filepath.Join(sbcastUserDir(t, fx.uid, fx.gid), "data.bin")
	out, aerr := fx.copyFile(dest, []byte("hello world\n"), false)
	if aerr != nil || out.Errno != 0 {
		t.Fatalf("copy: %v %+v", aerr, out)
	}
	fi, err := os.Stat(dest)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	got := [4]any{st.Uid, st.Gid, fi.Mode().Perm(), fi.ModTime().UTC().Format(time.DateTime)}
	if want := [4]any{fx.uid, fx.gid, os.FileMode(0o640), "2020-01-02 03:04:05"}; got != want {
		t.Errorf("owner, mode, mtime = %v, want %v", got, want)
	}
	if b, _ := os.ReadFile(dest); string(b) != "hello world\n" {
		t.Errorf("content %q", b)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestSbcastForce(t *testing.T) {
	fx := newSbcastFixture(t)
	dest := filepath.Join(sbcastUserDir(t, fx.uid, fx.gid), "f")
	if _, aerr := fx.copyFile(dest, []byte("one"), false); aerr != nil {
		t.Fatal(aerr)
	}
	tests := map[string]struct {
		force bool
		data  string
		want  api.SbcastChunkResponse
		file  string
	}{
		"an existing file is refused without -f": {data: "two", want: api.SbcastChunkResponse{Errno: 17, Error: "File exists"}, file: "one"},
		"-f replaces it":                         {force: true, data: "three", want: api.SbcastChunkResponse{Written: 5}, file: "three"},
	}
	for _, name := range []string{"an existing file is refused without -f", "-f replaces it"} {
		tc := tests[name]
		t.Run(name, func(t *testing.T) {
			out, aerr := fx.copyFile(dest, []byte(tc.data), tc.force)
			if aerr != nil {
				t.Fatal(aerr)
			}
			if diff := cmp.Diff(tc.want, *out); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
			if b, _ := os.ReadFile(dest); string(b) != tc.file {
				t.Errorf("file holds %q, want %q", b, tc.file)
			}
		})
	}
}

// TestSbcastOntoADirectory: a directory at DEST is "File exists" without
// -f and "Is a directory" with it, as the peer's slurmd says.
func TestSbcastOntoADirectory(t *testing.T) {
	fx := newSbcastFixture(t)
	dir := filepath.Join(sbcastUserDir(t, fx.uid, fx.gid), "sub")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for force, want := range map[bool]api.SbcastChunkResponse{
		false: {Errno: 17, Error: "File exists"},
		true:  {Errno: 21, Error: "Is a directory"},
	} {
		out, aerr := fx.copyFile(dir, []byte("x"), force)
		if aerr != nil {
			t.Fatal(aerr)
		}
		if diff := cmp.Diff(want, *out); diff != "" {
			t.Errorf("force %t (-want +got):\n%s", force, diff)
		}
	}
}

func TestSbcastRefusals(t *testing.T) {
	fx := newSbcastFixture(t)
	mine := sbcastUserDir(t, fx.uid, fx.gid)
	rootOnly := t.TempDir()
	if err := os.Chmod(rootOnly, 0o755); err != nil {
		t.Fatal(err)
	}
	errno := func(n int, text string) *api.SbcastChunkResponse {
		return &api.SbcastChunkResponse{Errno: n, Error: text}
	}
	ctld := auth.NewSigner(func() auth.Key { k, _ := auth.NewKey([]byte("0123456789abcdef0123456789abcdef")); return k }(), ControllerSender)
	tests := map[string]struct {
		chunk func() *api.SbcastChunk
		want  *api.SbcastChunkResponse
		code  api.Code
	}{
		"a directory the user may not write": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(rootOnly+"/x", 1, nil), Data: []byte("x"), Last: true}
			},
			want: errno(13, "Permission denied")},
		"a directory that does not exist": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(mine+"/no/x", 1, nil), Data: []byte("x"), Last: true}
			},
			want: errno(2, "No such file or directory")},
		"a grant for another node": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(mine+"/x", 1, func(c *api.SbcastClaims) { c.Node = "n2" }), Data: []byte("x"), Last: true}
			},
			code: api.CodeAuthCredInvalid},
		"a job that does not run here": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(mine+"/x", 1, func(c *api.SbcastClaims) { c.JobID = 6 }), Data: []byte("x"), Last: true}
			},
			code: api.CodeJobNotRunning},
		"claims changed after signing": {
			chunk: func() *api.SbcastChunk {
				g := fx.grant(mine+"/x", 1, nil)
				g.Claims = []byte(string(g.Claims[:len(g.Claims)-1]) + ` `) // still a JSON prefix, not the signed bytes
				return &api.SbcastChunk{Grant: g, Data: []byte("x"), Last: true}
			},
			code: api.CodeAuthCredInvalid},
		"an order's signer is not a grant's": {
			chunk: func() *api.SbcastChunk {
				c := api.SbcastClaims{Transfer: "tctld0123456789", JobID: 5, Node: "n1", UID: fx.uid, GID: fx.gid,
					Dest: mine + "/x", Size: 1, Expires: time.Now().Add(time.Hour).UnixNano()}
				return &api.SbcastChunk{Grant: fx.sign(c, ctld), Data: []byte("x"), Last: true}
			},
			code: api.CodeAuthCredInvalid},
		"an expired grant": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(mine+"/x", 1, func(c *api.SbcastClaims) { c.Expires = time.Now().UnixNano() }), Data: []byte("x"), Last: true}
			},
			code: api.CodeAuthExpired},
		"more bytes than granted": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(mine+"/x", 1, nil), Data: []byte("xy"), Last: true}
			},
			code: api.CodeBadRequest},
		"a later chunk of an unknown transfer": {
			chunk: func() *api.SbcastChunk {
				return &api.SbcastChunk{Grant: fx.grant(mine+"/x", 2, nil), Offset: 1, Data: []byte("y"), Last: true}
			},
			code: api.CodeBadRequest},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			out, aerr := fx.send(tc.chunk())
			var code api.Code
			if aerr != nil {
				code = aerr.Code
			}
			if diff := cmp.Diff(tc.want, out); diff != "" || code != tc.code {
				t.Errorf("code %q, want %q (%v); answer (-want +got):\n%s", code, tc.code, aerr, diff)
			}
			for _, dir := range []string{mine, rootOnly} {
				if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
					t.Errorf("files left: %v", left)
				}
				if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
					t.Errorf("temporary files left: %v", left)
				}
			}
		})
	}
}

func TestSbcastGrantIsSpentOnce(t *testing.T) {
	fx := newSbcastFixture(t)
	dir := sbcastUserDir(t, fx.uid, fx.gid)
	g := fx.grant(dir+"/once", 1, nil)
	chunk := &api.SbcastChunk{Grant: g, Data: []byte("x"), Last: true, Force: true}
	if out, aerr := fx.send(chunk); aerr != nil || out.Errno != 0 {
		t.Fatalf("first use: %v %+v", aerr, out)
	}
	if _, aerr := fx.send(chunk); aerr == nil || aerr.Code != api.CodeAuthCredInvalid {
		t.Errorf("second use: %v, want %s", aerr, api.CodeAuthCredInvalid)
	}
}

// TestSbcastServe: a chunk's grant and place come in its header and its
// bytes in the body; anything else is refused.
func TestSbcastServe(t *testing.T) {
	fx := newSbcastFixture(t)
	dir := sbcastUserDir(t, fx.uid, fx.gid)
	header := func(c *api.SbcastChunk) string {
		data, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(data)
	}
	post := func(h string, body string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", api.PathNodedSbcast, strings.NewReader(body))
		if h != "" {
			r.Header.Set(api.HeaderSbcastChunk, h)
		}
		w := httptest.NewRecorder()
		fx.srv.serve(w, r)
		return w
	}
	tests := map[string]struct {
		header string
		body   string
		status int
		file   string
	}{
		"no header": {body: "x", status: 400},
		"the data in the header": {header: header(&api.SbcastChunk{Grant: fx.grant(dir+"/h", 1, nil), Data: []byte("x"), Last: true}),
			body: "x", status: 400},
		"an unknown field": {header: base64.RawURLEncoding.EncodeToString([]byte(`{"offset":0,"bogus":1}`)), status: 400},
		"a good chunk": {header: header(&api.SbcastChunk{Grant: fx.grant(dir+"/ok", 5, nil), Last: true, Mode: 0o600}),
			body: "hello", status: 200, file: "hello"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			w := post(tc.header, tc.body)
			if w.Code != tc.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tc.status, w.Body)
			}
			if tc.file != "" {
				if b, _ := os.ReadFile(dir + "/ok"); string(b) != tc.file {
					t.Errorf("file holds %q, want %q", b, tc.file)
				}
			}
		})
	}
}
