package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Headers of a daemon-signed request.
const (
	HeaderSender    = "X-Loam-Sender"
	HeaderTime      = "X-Loam-Time" // Unix nanoseconds
	HeaderNonce     = "X-Loam-Nonce"
	HeaderSignature = "X-Loam-Signature"
)

// DefaultMaxSkew is how far a signed request's time may be from the
// receiver's clock.
const DefaultMaxSkew = 60 * time.Second

// Errors of request verification, checked with errors.Is.
var (
	ErrUnsigned     = errors.New("request is not signed")
	ErrBadSignature = errors.New("bad signature")
	ErrStale        = errors.New("request time outside the allowed clock skew")
	ErrReplayed     = errors.New("request replayed")
)

// Signer signs requests a daemon sends to another daemon.
type Signer struct {
	key    []byte
	sender string
	now    func() time.Time
}

// NewSigner returns a signer for sender (a node name, or "loam-ctld").
func NewSigner(k Key, sender string) *Signer {
	return &Signer{key: k.derive("daemon request"), sender: sender, now: time.Now}
}

// Sign sets the signature headers on r for body (the exact bytes sent).
func (s *Signer) Sign(r *http.Request, body []byte) error {
	h, err := s.SignHeaders(r.Method, r.URL.RequestURI(), body)
	if err != nil {
		return err
	}
	for _, kv := range h {
		r.Header.Set(kv[0], kv[1])
	}
	return nil
}

// SignHeaders returns the signature headers, name and value, of a request
// with this method, URI (path and query) and body: what Sign sets, for
// clients that do not build an http.Request (package client).
func (s *Signer) SignHeaders(method, uri string, body []byte) ([][2]string, error) {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return nil, fmt.Errorf("sign request: %w", err)
	}
	ts := strconv.FormatInt(s.now().UnixNano(), 10)
	n := hex.EncodeToString(nonce)
	return [][2]string{
		{HeaderSender, s.sender},
		{HeaderTime, ts},
		{HeaderNonce, n},
		{HeaderSignature, mac(s.key, method, uri, body, ts, n, s.sender)},
	}, nil
}

// mac computes the hex HMAC of one request's signed parts.
func mac(key []byte, method, uri string, body []byte, ts, nonce, sender string) string {
	digest := sha256.Sum256(body)
	m := hmac.New(sha256.New, key)
	for _, part := range []string{"LOAM-HMAC-1", method, uri, hex.EncodeToString(digest[:]), ts, nonce, sender} {
		m.Write([]byte(part))
		m.Write([]byte{'\n'})
	}
	return hex.EncodeToString(m.Sum(nil))
}

// Verifier checks signed requests and remembers their nonces.
type Verifier struct {
	key     []byte
	MaxSkew time.Duration
	now     func() time.Time
	nonces  *nonceCache
}

// NewVerifier returns a verifier with DefaultMaxSkew and the wall clock.
func NewVerifier(k Key) *Verifier {
	return &Verifier{key: k.derive("daemon request"), MaxSkew: DefaultMaxSkew, now: time.Now, nonces: newNonceCache()}
}

// SetClock replaces the clock (tests).
func (v *Verifier) SetClock(now func() time.Time) { v.now = now }

// Signed reports whether r carries a signature at all.
func Signed(r *http.Request) bool { return r.Header.Get(HeaderSignature) != "" }

// Verify checks r's signature over body and returns the sender. It refuses
// a missing or wrong signature, a time outside MaxSkew and a nonce seen
// before.
func (v *Verifier) Verify(r *http.Request, body []byte) (string, error) {
	sender, ts, nonce, sig := r.Header.Get(HeaderSender), r.Header.Get(HeaderTime),
		r.Header.Get(HeaderNonce), r.Header.Get(HeaderSignature)
	if sig == "" || ts == "" || nonce == "" || sender == "" {
		return "", ErrUnsigned
	}
	want := mac(v.key, r.Method, r.URL.RequestURI(), body, ts, nonce, sender)
	if !hmac.Equal([]byte(want), []byte(sig)) {
		return "", ErrBadSignature
	}
	nanos, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return "", ErrBadSignature
	}
	now, at := v.now(), time.Unix(0, nanos)
	if at.Before(now.Add(-v.MaxSkew)) || at.After(now.Add(v.MaxSkew)) {
		return "", fmt.Errorf("%w: sent at %s, now %s", ErrStale, at.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	// A nonce is remembered as long as its time could still pass the skew
	// check; after that the time check refuses it anyway.
	if !v.nonces.add(sender+"/"+nonce, at.Add(v.MaxSkew), now) {
		return "", ErrReplayed
	}
	return sender, nil
}
