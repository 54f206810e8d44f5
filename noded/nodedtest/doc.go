// Package nodedtest is a fake loam-ctld for testing node daemons: an HTTP
// server that checks the cluster key's signatures like the controller,
// records registrations, heartbeats and job events (applying each event
// number once, as the controller does), and sends signed launch, signal,
// terminate and time-limit orders. Cluster writes a slurm.conf, gres.conf
// and cluster key for emulated nodes that talk to it; User creates a
// throwaway system user for tests that run jobs as someone else.
package nodedtest
