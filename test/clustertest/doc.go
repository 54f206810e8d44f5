// Package clustertest starts real Loam daemons on loopback for tests: a
// generated slurm.conf and cluster key in a temporary directory, loam-ctld
// from $LOAM_BIN with its state there, and fake node daemons that speak the
// node protocol (HMAC-signed registration, heartbeats and job events, and
// the launch/signal/terminate endpoints) so the controller's side of job
// life can be tested before, and independently of, loam-noded.
//
// Every wait polls with a deadline; nothing sleeps a fixed time.
package clustertest
