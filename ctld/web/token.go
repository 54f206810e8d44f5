package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// SecretFile is the token secret's file name in the state directory.
const SecretFile = "web.key"

// DefaultLifespan is how long a token lasts unless asked otherwise
// (Slurm's scontrol token default).
const DefaultLifespan = 30 * time.Minute

// MaxLifespan bounds a token's life.
const MaxLifespan = 7 * 24 * time.Hour

// Errors of token verification.
var (
	ErrBadToken     = errors.New("invalid dashboard token")
	ErrTokenExpired = errors.New("dashboard token expired")
)

// Tokens mints and verifies dashboard tokens.
type Tokens struct {
	secret []byte
}

// claims is what a token asserts.
type claims struct {
	UID     uint32 `json:"uid"`
	User    string `json:"user"`
	Expires int64  `json:"exp"` // Unix seconds
}

// LoadTokens reads the secret from dir/web.key, creating it (mode 0600)
// when missing.
func LoadTokens(dir string) (*Tokens, error) {
	path := filepath.Join(dir, SecretFile)
	data, err := os.ReadFile(path)
	if err == nil && len(data) >= 32 {
		return &Tokens{secret: data}, nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("dashboard secret: %w", err)
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return nil, fmt.Errorf("dashboard secret: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("dashboard secret: %w", err)
	}
	if err := os.WriteFile(path, secret, 0o600); err != nil {
		return nil, fmt.Errorf("dashboard secret: %w", err)
	}
	return &Tokens{secret: secret}, nil
}

// NewTokens uses secret (at least 32 bytes) directly, for tests.
func NewTokens(secret []byte) (*Tokens, error) {
	if len(secret) < 32 {
		return nil, errors.New("dashboard secret: need at least 32 bytes")
	}
	return &Tokens{secret: append([]byte(nil), secret...)}, nil
}

// Mint returns a token for the user, valid until now+lifespan (0: the
// default, capped at MaxLifespan).
func (t *Tokens) Mint(uid uint32, user string, now time.Time, lifespan time.Duration) (string, time.Time) {
	if lifespan <= 0 {
		lifespan = DefaultLifespan
	}
	exp := now.Add(min(lifespan, MaxLifespan)).Truncate(time.Second)
	payload, _ := json.Marshal(claims{UID: uid, User: user, Expires: exp.Unix()})
	p := base64.RawURLEncoding.EncodeToString(payload)
	return p + "." + base64.RawURLEncoding.EncodeToString(t.mac(p)), exp
}

func (t *Tokens) mac(payload string) []byte {
	m := hmac.New(sha256.New, t.secret)
	m.Write([]byte("LOAM-WEB-1\n" + payload))
	return m.Sum(nil)
}

// Verify checks a token at now and returns whom it names.
func (t *Tokens) Verify(tok string, now time.Time) (uid uint32, user string, err error) {
	p, sig, ok := strings.Cut(strings.TrimSpace(tok), ".")
	if !ok {
		return 0, "", fmt.Errorf("%w: malformed", ErrBadToken)
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, t.mac(p)) {
		return 0, "", fmt.Errorf("%w: bad signature", ErrBadToken)
	}
	payload, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return 0, "", fmt.Errorf("%w: malformed", ErrBadToken)
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return 0, "", fmt.Errorf("%w: malformed", ErrBadToken)
	}
	if now.Unix() >= c.Expires {
		return 0, "", fmt.Errorf("%w at %s", ErrTokenExpired, time.Unix(c.Expires, 0).UTC().Format(time.RFC3339))
	}
	return c.UID, c.User, nil
}
