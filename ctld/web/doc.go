// Package web is loam-ctld's read-only dashboard (R13, R14, R15): cluster
// usage now, the queue with positions and estimated starts, the tenant x
// time quota heat map, wait-time distributions per queue, preemptions per
// tenant, the fragmentation rate over time, the scheduler's reservations
// and the configuration suggestions. Pages are rendered on the server with
// html/template; charts are inline SVG; the stylesheet is embedded. Nothing
// is fetched from the network at run time and the pages need no script.
//
// # Who sees what
//
// The dashboard follows the controller's rules: a user sees their own jobs
// (queue, reservations) and the cluster's aggregates (usage, quota heat
// map, waits, preemptions per tenant, fragmentation); root and SlurmUser
// see every job and the suggestions.
//
// # Authentication
//
// On the controller's Unix socket the caller is known from SO_PEERCRED
// (curl --unix-socket). Over TCP a browser presents a token that
// `scontrol token` mints for the caller: once as /ui/?token=..., after which
// it is kept in an HttpOnly, SameSite=Strict cookie scoped to /ui/, or as
// "Authorization: Bearer ...". A token is the user's identity and expiry
// signed with HMAC-SHA256 by a secret that loam-ctld keeps in its state
// directory (web.key, mode 0600); deleting that file revokes every token.
//
// The data comes from a Source (the controller); this package only checks
// who asks, picks the page and renders it.
package web
