package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// HeaderCredential carries a user credential on a request to the
// controller.
const HeaderCredential = "X-Loam-Credential"

// DefaultCredentialTTL is how long a minted credential stays valid.
const DefaultCredentialTTL = 60 * time.Second

// Errors of credential verification, checked with errors.Is.
var (
	ErrNoCredential  = errors.New("no credential")
	ErrBadCredential = errors.New("invalid credential")
	ErrExpired       = errors.New("credential expired")
	ErrWrongRequest  = errors.New("credential bound to another request")
)

// Binding ties a credential to one request: its method, path and the hex
// SHA-256 of its body.
type Binding struct {
	Method     string `json:"method"`
	Path       string `json:"path"`
	BodySHA256 string `json:"body_sha256"`
}

// BindingFor returns the binding of a request with this method, path and
// body.
func BindingFor(method, path string, body []byte) Binding {
	d := sha256.Sum256(body)
	return Binding{Method: method, Path: path, BodySHA256: hex.EncodeToString(d[:])}
}

// Credential is what a minted credential asserts.
type Credential struct {
	UID     uint32   `json:"uid"`
	GID     uint32   `json:"gid"`
	Groups  []uint32 `json:"groups,omitempty"`
	User    string   `json:"user,omitempty"`
	Issuer  string   `json:"iss"` // the minting daemon's node name
	Issued  int64    `json:"iat"` // Unix nanoseconds
	Expires int64    `json:"exp"` // Unix nanoseconds
	Nonce   string   `json:"nonce"`
	Bind    Binding  `json:"bind"`
}

// Minter issues credentials for local callers of a daemon.
type Minter struct {
	key    []byte
	issuer string
	TTL    time.Duration
	now    func() time.Time
	lookup func(uid, gid uint32) (string, []uint32)
}

// NewMinter returns a minter for the daemon on node issuer.
func NewMinter(k Key, issuer string) *Minter {
	return &Minter{key: k.derive("user credential"), issuer: issuer, TTL: DefaultCredentialTTL,
		now: time.Now, lookup: LookupUser}
}

// Mint issues a credential for peer bound to b. User name and groups come
// from the system's user database.
func (m *Minter) Mint(peer Peer, b Binding) (string, time.Time, error) {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		return "", time.Time{}, fmt.Errorf("mint credential: %w", err)
	}
	name, groups := m.lookup(peer.UID, peer.GID)
	now := m.now()
	exp := now.Add(m.TTL)
	c := Credential{UID: peer.UID, GID: peer.GID, Groups: groups, User: name, Issuer: m.issuer,
		Issued: now.UnixNano(), Expires: exp.UnixNano(), Nonce: hex.EncodeToString(nonce), Bind: b}
	tok, err := seal(m.key, c)
	return tok, exp, err
}

func seal(key []byte, c Credential) (string, error) {
	payload, err := json.Marshal(c)
	if err != nil {
		return "", fmt.Errorf("mint credential: %w", err)
	}
	p := base64.RawURLEncoding.EncodeToString(payload)
	return p + "." + base64.RawURLEncoding.EncodeToString(credMAC(key, p)), nil
}

func credMAC(key []byte, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte("LOAM-CRED-1\n" + payload))
	return m.Sum(nil)
}

// CredentialVerifier checks credentials and refuses each one a second time.
type CredentialVerifier struct {
	key     []byte
	MaxSkew time.Duration
	now     func() time.Time
	nonces  *nonceCache
}

// NewCredentialVerifier returns a verifier with DefaultMaxSkew.
func NewCredentialVerifier(k Key) *CredentialVerifier {
	return &CredentialVerifier{key: k.derive("user credential"), MaxSkew: DefaultMaxSkew, now: time.Now, nonces: newNonceCache()}
}

// SetClock replaces the clock (tests).
func (v *CredentialVerifier) SetClock(now func() time.Time) { v.now = now }

// Verify checks token for a request with binding b.
func (v *CredentialVerifier) Verify(token string, b Binding) (Credential, error) {
	if token == "" {
		return Credential{}, ErrNoCredential
	}
	p, sig, ok := strings.Cut(token, ".")
	if !ok {
		return Credential{}, fmt.Errorf("%w: malformed", ErrBadCredential)
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, credMAC(v.key, p)) {
		return Credential{}, fmt.Errorf("%w: bad signature", ErrBadCredential)
	}
	payload, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return Credential{}, fmt.Errorf("%w: malformed", ErrBadCredential)
	}
	var c Credential
	if err := json.Unmarshal(payload, &c); err != nil {
		return Credential{}, fmt.Errorf("%w: malformed", ErrBadCredential)
	}
	return c, v.check(c, b)
}

func (v *CredentialVerifier) check(c Credential, b Binding) error {
	now := v.now()
	exp, iat := time.Unix(0, c.Expires), time.Unix(0, c.Issued)
	switch {
	case !now.Before(exp):
		return fmt.Errorf("%w at %s", ErrExpired, exp.UTC().Format(time.RFC3339))
	case iat.After(now.Add(v.MaxSkew)):
		return fmt.Errorf("%w: issued in the future", ErrBadCredential)
	case c.Bind != b:
		return fmt.Errorf("%w: %s %s", ErrWrongRequest, c.Bind.Method, c.Bind.Path)
	case c.Nonce == "":
		return fmt.Errorf("%w: no nonce", ErrBadCredential)
	case !v.nonces.add(c.Issuer+"/"+c.Nonce, exp, now):
		return ErrReplayed
	}
	return nil
}

// Identity returns the identity a verified credential asserts.
func (c Credential) Identity() Identity {
	return Identity{UID: c.UID, GID: c.GID, Groups: c.Groups, User: c.User, Via: ViaCredential}
}

// SetCredential puts token on r.
func SetCredential(r *http.Request, token string) { r.Header.Set(HeaderCredential, token) }
