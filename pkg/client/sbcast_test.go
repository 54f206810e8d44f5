package client

import (
	"encoding/base64"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/loamhpc/loam/pkg/api"
)

// TestSbcastChunkHeader: the header holds the whole chunk but its data,
// which travels as the body.
func TestSbcastChunkHeader(t *testing.T) {
	grant := api.SbcastGrant{Claims: []byte(`{"node":"n01"}`), Sig: [][2]string{{"X-Loam-Sender", "loam-ctld/sbcast"}}}
	tests := map[string]api.SbcastChunk{
		"a middle chunk": {Grant: grant, Offset: 4096, Data: []byte("some data"), Mode: 0o640},
		"the last chunk with every flag": {Grant: grant, Offset: 1, Data: []byte{0, 1, 2}, Last: true, Force: true,
			Mode: 0o4755, Preserve: true, Atime: 1, Mtime: 2},
		"an empty file": {Grant: grant, Last: true},
	}
	for name, c := range tests {
		t.Run(name, func(t *testing.T) {
			h, err := SbcastChunkHeader(&c)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := base64.RawURLEncoding.DecodeString(h)
			if err != nil {
				t.Fatal(err)
			}
			var got api.SbcastChunk
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			want := c
			want.Data = nil
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
		})
	}
}
