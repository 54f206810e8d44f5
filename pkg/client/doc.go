// Package client is the typed HTTP client of loam-ctld's API, used by the
// user commands and by loam-noded, and of loam-noded's controller-facing API,
// used by loam-ctld. It builds without cgo.
//
// Finding the controller: Discover reads slurm.conf from LOAM_CONF, else
// SLURM_CONF, else /etc/loam/slurm.conf. When the controller's Unix socket
// (LoamCtldSocket) exists on this host, requests go over it and the
// controller identifies the caller by SO_PEERCRED: no credential round trip.
// Otherwise they go over TCP to the first SlurmctldHost at SlurmctldPort,
// each with a one-use credential fetched from the local node daemon's Unix
// socket (LoamNodedSocket). A daemon client (Options.Signer) signs every
// request with the cluster key instead.
//
// A command's request tries to connect once a second for MessageTimeout
// (Options.ConnectTries), as Slurm's commands do, so that it rides out a
// restart of the controller; nothing is sent before a connection is made,
// so a request is never sent twice. Daemons leave ConnectTries at 0 and
// retry on their own schedules.
//
// Errors from the controller are *api.Error values carrying Slurm's code and
// text; connection failures are *api.Error with CodeCtldConnect.
package client
