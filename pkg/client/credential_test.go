package client

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/loamhpc/loam/pkg/api"
	"github.com/loamhpc/loam/pkg/auth"
)

// The client spells out what package auth defines, so that the commands do
// not link auth; these must not drift apart.
func TestCredentialMatchesAuth(t *testing.T) {
	if headerCredential != auth.HeaderCredential {
		t.Errorf("headerCredential = %q, auth.HeaderCredential = %q", headerCredential, auth.HeaderCredential)
	}
	tests := map[string]struct {
		method, path string
		body         []byte
	}{
		"a submission":        {method: methodPost, path: api.PathSubmit, body: []byte(`{"job":{}}`)},
		"a request with none": {method: methodGet, path: api.PathPing},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			want := api.CredentialRequest(auth.BindingFor(tc.method, tc.path, tc.body))
			if diff := cmp.Diff(want, bindingFor(tc.method, tc.path, tc.body)); diff != "" {
				t.Errorf("bindingFor differs from auth.BindingFor (-want +got):\n%s", diff)
			}
		})
	}
}
