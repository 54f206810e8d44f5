// Package notify tells job owners about their jobs (R12): mail through the
// cluster's MailProg as Slurm sends it (same command line, same subject
// lines, SLURM_* variables), and an optional webhook that receives every
// event as JSON, signed with the cluster key the way daemons sign their
// requests (package auth), so a receiver verifies it with auth.Verifier.
//
// Delivery never blocks the caller: Send queues the event and returns. A
// worker runs MailProg, another posts to the webhook, retrying failed
// posts with exponential backoff; when a queue is full the event is
// dropped and counted (Stats), because the scheduler must never wait for
// a mail server.
//
//	Send --> mail queue ----> MailProg -s "<subject>" <user>
//	     \-> hook queue ----> POST <url> (retry 1 s, 2 s, 4 s ... up to Retries)
package notify
