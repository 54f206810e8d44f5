// Package auth is Loam's trust model (R19, DESIGN.md "Wire and trust"):
//
//   - The cluster key: a secret file (/etc/loam/loam.key, mode 0600) shared
//     by every daemon. LoadKey refuses a key others can read; GenerateKey
//     writes a new one.
//   - Daemon to daemon: every request carries an HMAC-SHA256 over its
//     method, path, body digest, time, nonce and sender (Signer). The
//     receiver refuses bad signatures, times outside the allowed skew and
//     nonces it has already seen (Verifier).
//   - User to controller: a daemon learns a local caller's uid and gid from
//     its Unix socket (SO_PEERCRED, PeerFromConn) and mints a short-lived
//     credential signed with the cluster key and bound to one request
//     (Minter). The controller verifies it and refuses it a second time
//     (CredentialVerifier). On the controller's own Unix socket no
//     credential is needed: the controller reads SO_PEERCRED itself.
//
// Signatures and credentials use keys derived from the cluster key with
// distinct labels, so neither can be passed off as the other.
package auth
