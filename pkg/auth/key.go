package auth

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultKeyFile is where daemons look for the cluster key when slurm.conf
// sets no LoamKeyFile.
const DefaultKeyFile = "/etc/loam/loam.key"

// KeyFileEnv overrides the key file path from the environment.
const KeyFileEnv = "LOAM_KEY_FILE"

// minKeyBytes is the least secret material a key file must hold.
const minKeyBytes = 32

// Key is the cluster key. Its zero value is unusable.
type Key struct {
	secret []byte
}

// ErrKeyTooShort is returned for a key file with less than 32 bytes of secret.
var ErrKeyTooShort = errors.New("cluster key too short: need at least 32 bytes (64 hex digits)")

// NewKey wraps secret material (at least 32 bytes).
func NewKey(secret []byte) (Key, error) {
	if len(secret) < minKeyBytes {
		return Key{}, ErrKeyTooShort
	}
	return Key{secret: append([]byte(nil), secret...)}, nil
}

// KeyPath returns the key file to use: the environment override, else the
// configured path, else DefaultKeyFile.
func KeyPath(configured string) string {
	if p := os.Getenv(KeyFileEnv); p != "" {
		return p
	}
	if configured != "" {
		return configured
	}
	return DefaultKeyFile
}

// LoadKey reads the key file at path: hex text (as GenerateKey writes it)
// or raw bytes. It refuses a file that group or others may read or write.
func LoadKey(path string) (Key, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return Key{}, fmt.Errorf("cluster key: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return Key{}, fmt.Errorf("cluster key %s: not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return Key{}, fmt.Errorf("cluster key %s: mode %04o lets others read it; chmod 600 it", path, perm)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Key{}, fmt.Errorf("cluster key: %w", err)
	}
	secret := data
	if s := strings.TrimSpace(string(data)); s != "" {
		if b, err := hex.DecodeString(s); err == nil {
			secret = b
		}
	}
	k, err := NewKey(secret)
	if err != nil {
		return Key{}, fmt.Errorf("cluster key %s: %w", path, err)
	}
	return k, nil
}

// GenerateKey writes a new random key (32 bytes, hex) to path with mode
// 0600, creating its directory (mode 0755) when needed. It refuses to
// overwrite an existing file.
func GenerateKey(path string) (Key, error) {
	secret := make([]byte, minKeyBytes)
	if _, err := rand.Read(secret); err != nil {
		return Key{}, fmt.Errorf("generate cluster key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return Key{}, fmt.Errorf("generate cluster key: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, fs.ErrExist) {
			return Key{}, fmt.Errorf("generate cluster key: %s already exists", path)
		}
		return Key{}, fmt.Errorf("generate cluster key: %w", err)
	}
	_, werr := f.WriteString(hex.EncodeToString(secret) + "\n")
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return Key{}, fmt.Errorf("generate cluster key %s: %w", path, err)
	}
	return NewKey(secret)
}

// derive returns a subkey for one purpose, so a signature made for one
// purpose never verifies for another.
func (k Key) derive(label string) []byte {
	m := hmac.New(sha256.New, k.secret)
	m.Write([]byte("loam key derivation\x00" + label))
	return m.Sum(nil)
}

// Valid reports whether k holds a secret.
func (k Key) Valid() bool { return len(k.secret) >= minKeyBytes }
