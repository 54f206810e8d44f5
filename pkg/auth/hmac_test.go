package auth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestVerifySignedRequests(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	key, other := testKey(t, 'k'), testKey(t, 'o')
	body := []byte(`{"node":"gpu01"}`)
	tests := map[string]struct {
		signKey  Key
		signAt   time.Time
		tamper   func(r *httptestReq)
		wantErr  error
		wantFrom string
	}{
		"good signature":             {signKey: key, signAt: t0, wantFrom: "gpu01"},
		"body changed after signing": {signKey: key, signAt: t0, tamper: func(r *httptestReq) { r.body = []byte(`{"node":"gpu02"}`) }, wantErr: ErrBadSignature},
		"path changed after signing": {signKey: key, signAt: t0, tamper: func(r *httptestReq) { r.req.URL.Path = "/v1/other" }, wantErr: ErrBadSignature},
		"sender changed":             {signKey: key, signAt: t0, tamper: func(r *httptestReq) { r.req.Header.Set(HeaderSender, "gpu09") }, wantErr: ErrBadSignature},
		"time changed":               {signKey: key, signAt: t0, tamper: func(r *httptestReq) { r.req.Header.Set(HeaderTime, "1") }, wantErr: ErrBadSignature},
		"wrong cluster key":          {signKey: other, signAt: t0, wantErr: ErrBadSignature},
		"unsigned":                   {signKey: key, signAt: t0, tamper: func(r *httptestReq) { r.req.Header.Del(HeaderSignature) }, wantErr: ErrUnsigned},
		"too old":                    {signKey: key, signAt: t0.Add(-2 * time.Minute), wantErr: ErrStale},
		"from the future":            {signKey: key, signAt: t0.Add(2 * time.Minute), wantErr: ErrStale},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			s := NewSigner(tc.signKey, "gpu01")
			s.now = func() time.Time { return tc.signAt }
			r := &httptestReq{req: httptest.NewRequest("POST", "/v1/node/register", nil), body: body}
			if err := s.Sign(r.req, body); err != nil {
				t.Fatal(err)
			}
			if tc.tamper != nil {
				tc.tamper(r)
			}
			v := NewVerifier(key)
			v.SetClock(func() time.Time { return t0 })
			from, err := v.Verify(r.req, r.body)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Verify error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || from != tc.wantFrom {
				t.Fatalf("Verify = %q, %v; want %q", from, err, tc.wantFrom)
			}
		})
	}
}

type httptestReq struct {
	req  *http.Request
	body []byte
}

func TestReplayedRequestIsRefused(t *testing.T) {
	key := testKey(t, 'k')
	s := NewSigner(key, "gpu01")
	v := NewVerifier(key)
	r := httptest.NewRequest("POST", "/v1/node/heartbeat", nil)
	body := []byte("{}")
	if err := s.Sign(r, body); err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(r, body); err != nil {
		t.Fatalf("first Verify: %v", err)
	}
	if _, err := v.Verify(r, body); !errors.Is(err, ErrReplayed) {
		t.Fatalf("second Verify error = %v, want %v", err, ErrReplayed)
	}
}
