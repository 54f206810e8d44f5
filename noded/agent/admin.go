package agent

// stopNow asks Run to return, as SIGTERM does (scontrol shutdown): the
// jobs' supervisors keep running for the next daemon to adopt.
func (a *Agent) stopNow() {
	a.stopOnce.Do(func() { close(a.stopReq) })
}
