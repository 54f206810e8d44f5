package auth

import (
	"sync"
	"time"
)

// maxNonces bounds the replay cache. Beyond it, requests are refused until
// old nonces expire, rather than letting memory grow without bound.
const maxNonces = 2_000_000

// nonceCache remembers nonces until they expire.
type nonceCache struct {
	mu        sync.Mutex
	seen      map[string]time.Time // nonce -> when it may be forgotten
	lastPrune time.Time
}

func newNonceCache() *nonceCache {
	return &nonceCache{seen: make(map[string]time.Time)}
}

// add records nonce until expires; it reports false if the nonce was
// already recorded (a replay) or the cache is full.
func (c *nonceCache) add(nonce string, expires, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if now.Sub(c.lastPrune) > time.Second || len(c.seen) >= maxNonces {
		c.prune(now)
	}
	if exp, ok := c.seen[nonce]; ok && now.Before(exp) {
		return false
	}
	if len(c.seen) >= maxNonces {
		return false
	}
	c.seen[nonce] = expires
	return true
}

func (c *nonceCache) prune(now time.Time) {
	for n, exp := range c.seen {
		if !now.Before(exp) {
			delete(c.seen, n)
		}
	}
	c.lastPrune = now
}
